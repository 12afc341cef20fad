/* What compiler-rt's InstrProfilingRuntime.cpp does, in C (the profile runtime is built here for
 * wasm32-wasi, python-wasm/build.sh step `profrt`): instrumented objects reference
 * __llvm_profile_runtime, which pulls this in; its constructor reads LLVM_PROFILE_FILE and
 * writes the profile when the program exits. */
#include "InstrProfiling.h"

/* The runtime locks the profile file while it writes it (several processes may share one).
 * WASI has no file locks; the training run is one process. */
int flock(int fd, int operation) {
    (void)fd;
    (void)operation;
    return 0;
}

COMPILER_RT_VISIBILITY int INSTR_PROF_PROFILE_RUNTIME_VAR;

__attribute__((constructor)) static void cove_profile_register(void) {
    __llvm_profile_initialize();
}
