/* The three functions clang 19's WebAssembly setjmp/longjmp lowering (-mllvm -wasm-enable-sjlj)
 * calls; the same contract as wasi-libc's libsetjmp (wasi-libc#483, after llvm-project#84137).
 * Compiled with -mllvm -wasm-enable-sjlj, so this object defines the __c_longjmp tag the
 * lowering throws and catches.
 *
 * setjmp(env) records which call of which function set the buffer (a label the compiler picks
 * and the calling frame's invocation id); longjmp(env, val) throws __c_longjmp with the buffer
 * and the value; each function that called setjmp catches it and asks __wasm_setjmp_test whether
 * the buffer is one of its own, and under which label, to resume there. */
#include <stddef.h>
#include <stdint.h>

struct cove_jmp {
    void *invocation;
    uint32_t label;
    struct cove_jmp_arg {
        void *env;
        int value;
    } arg;
};

void __wasm_setjmp(void *env, uint32_t label, void *invocation) {
    struct cove_jmp *jb = env;
    if (label == 0 || invocation == NULL)
        __builtin_trap();
    jb->invocation = invocation;
    jb->label = label;
}

uint32_t __wasm_setjmp_test(void *env, void *invocation) {
    struct cove_jmp *jb = env;
    if (jb->label == 0 || invocation == NULL)
        __builtin_trap();
    return jb->invocation == invocation ? jb->label : 0;
}

void __wasm_longjmp(void *env, int value) {
    struct cove_jmp *jb = env;
    jb->arg.env = env;
    jb->arg.value = value == 0 ? 1 : value;  /* longjmp(env, 0) returns 1 from setjmp */
    __builtin_wasm_throw(1, &jb->arg);        /* tag 1 is __c_longjmp */
}
