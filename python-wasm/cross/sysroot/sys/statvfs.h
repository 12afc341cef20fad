/* sys/statvfs.h for Cove's sysroot. Debian's wasi-libc (0.0~git20220510) has none; libc++'s
 * <filesystem> includes it (for std::filesystem::space). WASI preview 1 cannot ask a file
 * system for its size, so statvfs and fstatvfs fail with ENOSYS, and std::filesystem::space
 * reports that error. Later wasi-libc has the same header and the same answer (its
 * libc-bottom-half stubs statvfs with ENOSYS); the layout is musl's. */
#ifndef _SYS_STATVFS_H
#define _SYS_STATVFS_H

#include <errno.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned long long fsblkcnt_t;
typedef unsigned long long fsfilcnt_t;

struct statvfs {
    unsigned long f_bsize, f_frsize;
    fsblkcnt_t f_blocks, f_bfree, f_bavail;
    fsfilcnt_t f_files, f_ffree, f_favail;
    unsigned long f_fsid;
    unsigned f_flag;
    unsigned long f_namemax;
    int __reserved[6];
};

#define ST_RDONLY 1
#define ST_NOSUID 2

static inline int statvfs(const char *__restrict __path, struct statvfs *__restrict __buf) {
    (void)__path;
    (void)__buf;
    errno = ENOSYS;
    return -1;
}

static inline int fstatvfs(int __fd, struct statvfs *__buf) {
    (void)__fd;
    (void)__buf;
    errno = ENOSYS;
    return -1;
}

#ifdef __cplusplus
}
#endif

#endif
