/* setjmp.h for Cove's extensions. Debian's wasi-libc (0.0~git20220510) has neither setjmp.h nor
 * an implementation. clang 19 with `-mllvm -wasm-enable-sjlj` turns calls of setjmp and longjmp
 * into calls of __wasm_setjmp, __wasm_setjmp_test and __wasm_longjmp over WebAssembly exception
 * handling; setjmp_rt.c (libsetjmp.a) defines those. The buffer is large enough for the layout
 * later wasi-libc uses (wasi-libc#483); the runtime uses only its first words. */
#ifndef _SETJMP_H
#define _SETJMP_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct __jmp_buf_tag {
    unsigned long long __jb[8];
    unsigned long __fl;
    unsigned long __ss[32];
} jmp_buf[1];
typedef jmp_buf sigjmp_buf;

int setjmp(jmp_buf) __attribute__((__returns_twice__));
_Noreturn void longjmp(jmp_buf, int);

/* No signal masks in WASI: the sigsetjmp family is setjmp's. */
#define _setjmp(env) setjmp(env)
#define _longjmp(env, val) longjmp(env, val)
#define sigsetjmp(env, savemask) setjmp(env)
#define siglongjmp(env, val) longjmp(env, val)

#ifdef __cplusplus
}
#endif

#endif
