/* The C++ ABI entry points that code compiled with -fexceptions references, for a wasm32 program
 * without exception support (Debian's libc++abi-19-dev-wasm32 is built without exceptions; clang
 * lowers invokes to plain calls for wasm32 without -fwasm-exceptions, so catch blocks are dead).
 * A throw aborts: a wasm trap. Used for pandas._libs.window.aggregations (Cython `except +`).
 * Same idea as GenVM's cxx-abi-stub.c (research report 1.4). Remove once there is a libc++abi
 * built with -fwasm-exceptions. */
#include <stdlib.h>
#include <stdio.h>

void *__cxa_allocate_exception(unsigned long size) { return malloc(size); }
void __cxa_free_exception(void *p) { free(p); }
__attribute__((noreturn)) void __cxa_throw(void *obj, void *tinfo, void (*dest)(void *)) {
    (void)obj; (void)tinfo; (void)dest;
    fputs("fatal: C++ exception thrown in a build without exception support\n", stderr);
    abort();
}
__attribute__((noreturn)) void __cxa_rethrow(void) { abort(); }
void *__cxa_begin_catch(void *p) { return p; }
void __cxa_end_catch(void) {}
void *__cxa_get_exception_ptr(void *p) { return p; }
int __gxx_personality_v0(void) { abort(); }
