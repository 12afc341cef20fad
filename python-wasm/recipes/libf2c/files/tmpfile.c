/* libf2c's scratch files (OPEN(STATUS='SCRATCH'), and ENDFILE's copy of a file it truncates)
   come from tmpfile(), which wasi-libc declares and does not define (WASI has no temporary
   directory of its own). Every libf2c source is compiled with -Dtmpfile=f2c_wasi_tmpfile
   (CMakeLists.txt), and this is that function: it fails as tmpfile() fails where it cannot
   create a file, and libf2c reports the I/O error as it would there. */
#include <errno.h>
#include <stdio.h>

FILE *f2c_wasi_tmpfile(void)
{
    errno = ENOTSUP;
    return NULL;
}
