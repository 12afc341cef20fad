/* Included into every file of compiler-rt's profile runtime built for wasm32-wasi (build.sh step
 * `profrt`, which also says COMPILER_RT_HAS_UNAME: wasi-libc has uname). wasi-libc declares no
 * getpagesize(); a wasm page is 64 KiB. The runtime asks only in continuous mode and when
 * merging into an existing profile, neither of which Cove uses. flock: pgo/profile_runtime.c. */
#define getpagesize() 65536
