# CMake 3.25 (Debian 12) has no WASI platform; cross/cmake.py's toolchain files name this one.
# A POSIX-like system (UNIX: FindIconv and many projects test it) that links static archives
# only, with wasi-libc as its C library.
set(WASI 1)
set(UNIX 1)
# /usr, /usr/local, ...: under CMAKE_FIND_ROOT_PATH (W/deps), where the C libraries are
include(Platform/UnixPaths)
set(CMAKE_STATIC_LIBRARY_PREFIX "lib")
set(CMAKE_STATIC_LIBRARY_SUFFIX ".a")
set(CMAKE_EXECUTABLE_SUFFIX ".wasm")
set(CMAKE_FIND_LIBRARY_PREFIXES "lib")
set(CMAKE_FIND_LIBRARY_SUFFIXES ".a")
set_property(GLOBAL PROPERTY TARGET_SUPPORTS_SHARED_LIBS FALSE)
