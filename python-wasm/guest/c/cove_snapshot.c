/* A deterministic snapshot: while cove_init runs under Wizer, the guest sees a fixed clock and
 * a fixed stream of "random" bytes, so two builds from the same sources produce the same bytes.
 *
 * Nothing random from init time survives into sessions that matters: the str hash key is fixed
 * by configuration anyway (documented), and the guest driver reseeds `random` and resets
 * tempfile's name sequence from real randomness on every session's first call. Once init
 * returns, the real clock and the real random_get are used.
 */
#include <stdint.h>
#include <string.h>
#include <wasi/api.h>

int cove_snapshotting;

#define SNAPSHOT_EPOCH_NS ((uint64_t)1767225600 * 1000000000u)

__wasi_errno_t __real___wasi_random_get(uint8_t *buf, __wasi_size_t len);
__wasi_errno_t __real___wasi_clock_time_get(__wasi_clockid_t id, __wasi_timestamp_t precision,
                                            __wasi_timestamp_t *out);

__wasi_errno_t
__wrap___wasi_random_get(uint8_t *buf, __wasi_size_t len)
{
    if (cove_snapshotting) {
        static uint8_t counter;
        for (__wasi_size_t i = 0; i < len; i++) {
            buf[i] = counter++;
        }
        return 0;
    }
    return __real___wasi_random_get(buf, len);
}

__wasi_errno_t
__wrap___wasi_clock_time_get(__wasi_clockid_t id, __wasi_timestamp_t precision,
                             __wasi_timestamp_t *out)
{
    if (cove_snapshotting) {
        static uint64_t ticks;
        *out = SNAPSHOT_EPOCH_NS + (ticks += 1000);
        return 0;
    }
    return __real___wasi_clock_time_get(id, precision, out);
}

/* File times and identities differ between two checkouts (access and change times cannot be
 * set, inode numbers are the file system's), and freed stat results linger in memory: while
 * snapshotting, every stat reports its modification time (fixed by build.sh) for all three
 * times, and no device or inode. */
static void
steady(__wasi_filestat_t *st)
{
    st->atim = st->mtim;
    st->ctim = st->mtim;
    st->dev = 0;
    st->ino = 0;
}

__wasi_errno_t __real___wasi_fd_filestat_get(__wasi_fd_t fd, __wasi_filestat_t *out);
__wasi_errno_t __real___wasi_path_filestat_get(__wasi_fd_t fd, __wasi_lookupflags_t flags,
                                               const char *path, __wasi_filestat_t *out);

__wasi_errno_t
__wrap___wasi_fd_filestat_get(__wasi_fd_t fd, __wasi_filestat_t *out)
{
    __wasi_errno_t err = __real___wasi_fd_filestat_get(fd, out);
    if (err == 0 && cove_snapshotting) {
        steady(out);
    }
    return err;
}

__wasi_errno_t
__wrap___wasi_path_filestat_get(__wasi_fd_t fd, __wasi_lookupflags_t flags, const char *path,
                                __wasi_filestat_t *out)
{
    __wasi_errno_t err = __real___wasi_path_filestat_get(fd, flags, path, out);
    if (err == 0 && cove_snapshotting) {
        steady(out);
    }
    return err;
}

/* Directory entries carry inode numbers too (the warm-up lists /workspace): zeroed likewise. */
__wasi_errno_t __real___wasi_fd_readdir(__wasi_fd_t fd, uint8_t *buf, __wasi_size_t len,
                                        __wasi_dircookie_t cookie, __wasi_size_t *used);

__wasi_errno_t
__wrap___wasi_fd_readdir(__wasi_fd_t fd, uint8_t *buf, __wasi_size_t len,
                         __wasi_dircookie_t cookie, __wasi_size_t *used)
{
    __wasi_errno_t err = __real___wasi_fd_readdir(fd, buf, len, cookie, used);
    if (err == 0 && cove_snapshotting) {
        size_t off = 0;
        while (off + sizeof(__wasi_dirent_t) <= *used) {
            __wasi_dirent_t entry, clean;
            memcpy(&entry, buf + off, sizeof entry);
            /* Rebuilt field by field: the header's padding bytes come from the host as they
             * are (seen to differ between two builds), and would be frozen into the snapshot. */
            memset(&clean, 0, sizeof clean);
            clean.d_next = entry.d_next;
            clean.d_namlen = entry.d_namlen;
            clean.d_type = entry.d_type;
            memcpy(buf + off, &clean, sizeof clean);
            off += sizeof entry + entry.d_namlen;
        }
    }
    return err;
}
