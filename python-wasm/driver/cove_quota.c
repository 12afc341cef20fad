/* The workspace quota, enforced where the guest's file writes leave libc.
 *
 * Every WASI call that can grow the workspace goes through one of these wrappers (the linker's
 * --wrap redirects libc's own calls here; guest Python has no other way to reach the imports).
 * Each call from the host passes how many bytes and entries the workspace may still grow by
 * (cove_call -> cove_quota_reset); a write past it fails with EDQUOT ("Quota exceeded") and sets
 * `hit`, which cove_call reports back. Shrinking (truncation, unlink, rmdir) gives the room back. Growth is counted
 * conservatively (a short write is charged in full), so the host disk never fills past the quota.
 */
#include <stdint.h>
#include <wasi/api.h>

struct cove_limits {
    int64_t bytes_left;
    int64_t files_left;
    int32_t hit;
};

/* Unlimited until the host sets it; cove_call sets it before every call. */
static struct cove_limits limits = {INT64_MAX, INT64_MAX, 0};

void
cove_quota_reset(int64_t bytes_left, int64_t files_left)
{
    limits.bytes_left = bytes_left;
    limits.files_left = files_left;
    limits.hit = 0;
}

int
cove_quota_hit(void)
{
    return limits.hit;
}

#define REAL(name) __real___wasi_##name
#define WRAP(name) __wrap___wasi_##name

__wasi_errno_t REAL(fd_write)(__wasi_fd_t, const __wasi_ciovec_t *, size_t, __wasi_size_t *);
__wasi_errno_t REAL(fd_pwrite)(__wasi_fd_t, const __wasi_ciovec_t *, size_t, __wasi_filesize_t,
                               __wasi_size_t *);
__wasi_errno_t REAL(fd_filestat_set_size)(__wasi_fd_t, __wasi_filesize_t);
__wasi_errno_t REAL(fd_allocate)(__wasi_fd_t, __wasi_filesize_t, __wasi_filesize_t);
__wasi_errno_t REAL(path_open)(__wasi_fd_t, __wasi_lookupflags_t, const char *, __wasi_oflags_t,
                               __wasi_rights_t, __wasi_rights_t, __wasi_fdflags_t, __wasi_fd_t *);
__wasi_errno_t REAL(path_create_directory)(__wasi_fd_t, const char *);
__wasi_errno_t REAL(path_symlink)(const char *, __wasi_fd_t, const char *);
__wasi_errno_t REAL(path_link)(__wasi_fd_t, __wasi_lookupflags_t, const char *, __wasi_fd_t,
                               const char *);
__wasi_errno_t REAL(path_unlink_file)(__wasi_fd_t, const char *);
__wasi_errno_t REAL(path_remove_directory)(__wasi_fd_t, const char *);

static __wasi_errno_t
charge_bytes(int64_t growth)
{
    if (growth <= 0) {
        limits.bytes_left -= growth; /* shrinking gives room back */
        return 0;
    }
    if (growth > limits.bytes_left) {
        limits.hit = 1;
        return __WASI_ERRNO_DQUOT;
    }
    limits.bytes_left -= growth;
    return 0;
}

static __wasi_errno_t
need_entry(void)
{
    if (limits.files_left < 1) {
        limits.hit = 1;
        return __WASI_ERRNO_DQUOT;
    }
    return 0;
}

/* The size of `fd` if it is a regular file. */
static int
regular_size(__wasi_fd_t fd, int64_t *size)
{
    __wasi_filestat_t st;
    if (__wasi_fd_filestat_get(fd, &st) != 0 || st.filetype != __WASI_FILETYPE_REGULAR_FILE) {
        return 0;
    }
    *size = (int64_t)st.size;
    return 1;
}

static int64_t
iov_total(const __wasi_ciovec_t *iovs, size_t n)
{
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += (int64_t)iovs[i].buf_len;
    }
    return total;
}

__wasi_errno_t
WRAP(fd_write)(__wasi_fd_t fd, const __wasi_ciovec_t *iovs, size_t n, __wasi_size_t *written)
{
    int64_t size;
    if (regular_size(fd, &size)) {
        int64_t pos = size;
        __wasi_fdstat_t fs;
        if (__wasi_fd_fdstat_get(fd, &fs) == 0 && !(fs.fs_flags & __WASI_FDFLAGS_APPEND)) {
            __wasi_filesize_t off;
            if (__wasi_fd_tell(fd, &off) == 0) {
                pos = (int64_t)off;
            }
        }
        int64_t end = pos + iov_total(iovs, n);
        __wasi_errno_t err = charge_bytes(end > size ? end - size : 0);
        if (err) {
            return err;
        }
    }
    return REAL(fd_write)(fd, iovs, n, written);
}

__wasi_errno_t
WRAP(fd_pwrite)(__wasi_fd_t fd, const __wasi_ciovec_t *iovs, size_t n, __wasi_filesize_t offset,
                __wasi_size_t *written)
{
    int64_t size;
    if (regular_size(fd, &size)) {
        int64_t end = (int64_t)offset + iov_total(iovs, n);
        __wasi_errno_t err = charge_bytes(end > size ? end - size : 0);
        if (err) {
            return err;
        }
    }
    return REAL(fd_pwrite)(fd, iovs, n, offset, written);
}

__wasi_errno_t
WRAP(fd_filestat_set_size)(__wasi_fd_t fd, __wasi_filesize_t new_size)
{
    int64_t size;
    int regular = regular_size(fd, &size);
    if (regular && (int64_t)new_size > size) {
        __wasi_errno_t err = charge_bytes((int64_t)new_size - size);
        if (err) {
            return err;
        }
    }
    __wasi_errno_t err = REAL(fd_filestat_set_size)(fd, new_size);
    if (err == 0 && regular && (int64_t)new_size < size) {
        charge_bytes((int64_t)new_size - size);
    }
    return err;
}

__wasi_errno_t
WRAP(fd_allocate)(__wasi_fd_t fd, __wasi_filesize_t offset, __wasi_filesize_t len)
{
    int64_t size;
    if (regular_size(fd, &size)) {
        int64_t end = (int64_t)(offset + len);
        __wasi_errno_t err = charge_bytes(end > size ? end - size : 0);
        if (err) {
            return err;
        }
    }
    return REAL(fd_allocate)(fd, offset, len);
}

__wasi_errno_t
WRAP(path_open)(__wasi_fd_t dirfd, __wasi_lookupflags_t dirflags, const char *path,
                __wasi_oflags_t oflags, __wasi_rights_t base, __wasi_rights_t inheriting,
                __wasi_fdflags_t fdflags, __wasi_fd_t *out)
{
    int creating = 0;
    int64_t truncated = 0;
    if (oflags & (__WASI_OFLAGS_CREAT | __WASI_OFLAGS_TRUNC)) {
        __wasi_filestat_t st;
        __wasi_errno_t e = __wasi_path_filestat_get(dirfd, dirflags, path, &st);
        if (e == __WASI_ERRNO_NOENT && (oflags & __WASI_OFLAGS_CREAT)) {
            __wasi_errno_t err = need_entry();
            if (err) {
                return err;
            }
            creating = 1;
        } else if (e == 0 && (oflags & __WASI_OFLAGS_TRUNC)
                   && st.filetype == __WASI_FILETYPE_REGULAR_FILE) {
            truncated = (int64_t)st.size;
        }
    }
    __wasi_errno_t err = REAL(path_open)(dirfd, dirflags, path, oflags, base, inheriting, fdflags, out);
    if (err == 0) {
        limits.files_left -= creating;
        limits.bytes_left += truncated;
    }
    return err;
}

__wasi_errno_t
WRAP(path_create_directory)(__wasi_fd_t fd, const char *path)
{
    __wasi_errno_t err = need_entry();
    if (err) {
        return err;
    }
    err = REAL(path_create_directory)(fd, path);
    if (err == 0) {
        limits.files_left -= 1;
    }
    return err;
}

__wasi_errno_t
WRAP(path_symlink)(const char *old_path, __wasi_fd_t fd, const char *new_path)
{
    __wasi_errno_t err = need_entry();
    if (err) {
        return err;
    }
    err = REAL(path_symlink)(old_path, fd, new_path);
    if (err == 0) {
        limits.files_left -= 1;
    }
    return err;
}

__wasi_errno_t
WRAP(path_link)(__wasi_fd_t old_fd, __wasi_lookupflags_t old_flags, const char *old_path,
                __wasi_fd_t new_fd, const char *new_path)
{
    __wasi_errno_t err = need_entry();
    if (err) {
        return err;
    }
    err = REAL(path_link)(old_fd, old_flags, old_path, new_fd, new_path);
    if (err == 0) {
        limits.files_left -= 1;
    }
    return err;
}

__wasi_errno_t
WRAP(path_unlink_file)(__wasi_fd_t fd, const char *path)
{
    __wasi_filestat_t st;
    int64_t size = 0;
    if (__wasi_path_filestat_get(fd, 0, path, &st) == 0
        && st.filetype == __WASI_FILETYPE_REGULAR_FILE && st.nlink <= 1) {
        size = (int64_t)st.size;
    }
    __wasi_errno_t err = REAL(path_unlink_file)(fd, path);
    if (err == 0) {
        limits.files_left += 1;
        limits.bytes_left += size;
    }
    return err;
}

__wasi_errno_t
WRAP(path_remove_directory)(__wasi_fd_t fd, const char *path)
{
    __wasi_errno_t err = REAL(path_remove_directory)(fd, path);
    if (err == 0) {
        limits.files_left += 1;
    }
    return err;
}
