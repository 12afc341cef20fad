/* The workspace quota, the open-file cap and the directory-depth cap, enforced where the guest's
 * file calls leave libc.
 *
 * Every WASI call that can grow the workspace, open or close a descriptor, or make a directory
 * goes through one of these wrappers (the linker's --wrap redirects libc's own calls here; guest
 * Python has no other way to reach the imports, and no function pointer leads to them:
 * python-wasm/check_link.py `table` fails the build if an import or a host-facing export is in
 * the indirect-call table).
 *
 * Guest memory is attacker-controlled (numpy hands model code a pointer into it), so every count
 * that bounds the host lives in a WebAssembly global (address space 1), which no load or store
 * reaches: only the code below changes them, and it runs with no model code interleaved. Each
 * wrapper takes its inputs from the host (the quota the host passes at each call, the sizes and
 * link counts WASI reports), never from a table in linear memory. check_link.py `globals` fails
 * the build if any of them lands in linear memory. What linear memory still holds (the directory
 * depths) bounds no host resource.
 *
 * Quota. Each call from the host passes how many bytes and entries the workspace may still grow
 * by (cove_call -> cove_quota_reset; the host may refresh it mid-call, cove_quota_refresh); a
 * write past it fails with EDQUOT ("Quota exceeded") and counts a hit, which cove_call reports
 * back. Shrinking (truncation, unlink, rmdir, renaming over a file) gives the room back. Growth
 * is counted conservatively (a short write is charged in full), so the host disk never fills
 * past the quota.
 *
 * Orphans. A file unlinked (or renamed over) while a descriptor holds it keeps its bytes on the
 * host disk, but the host's scan of the workspace, which sets bytes_left at every call, cannot
 * see it. Open regular files whose link count is 0 are orphans: found by asking WASI about every
 * descriptor number below a high-water mark (no table that memory could hide one from), their
 * sizes summed into a ledger (`orphan_bytes`), subtracted from what the host grants at every
 * call, charged when a file becomes an orphan and given back when its last descriptor closes.
 *
 * Open files. Every guest descriptor is a real host descriptor inside wasmtime, so one session
 * could exhaust the server's. Descriptors numbered FIRST_GUEST_FD and up are counted (stdio and
 * the three preopens, fds 0-5, are not: at most six more can exist however they are closed and
 * reused); past `max_open` path_open fails with EMFILE (errno 33, "No file descriptors available"
 * in wasi-libc's words). A descriptor numbered FD_LIMIT or beyond is closed and refused with
 * EMFILE (wasmtime hands out the lowest free numbers, so they stay small).
 *
 * Directory depth. Each directory descriptor's depth below /workspace is recorded (fd 4, the
 * preopen, is depth 0; fd 3, the root, is read-only and untracked). path_create_directory
 * refuses, with ENAMETOOLONG, a directory deeper than `max_depth`: first lexically (components
 * counted, ".." subtracts, "." ignored), then physically, since a symbolic link can stand for a
 * deep path: climbing out of the new directory with ".." must leave the sandbox within the
 * limit. path_rename and path_symlink destinations are checked lexically only; renaming an
 * existing deep subtree under another can still make a tree deeper than the limit. The limit
 * keeps trees workable, not the host safe (the host's own walks handle any depth), so its table
 * may live in linear memory.
 *
 * The caps are unlimited until the host calls cove_limits (cove_driver.c), right after it
 * instantiates the snapshot; the snapshot itself is made without them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wasi/api.h>

/* WebAssembly globals, out of reach of any load or store (see above). clang gives every one an
   initial value of 0, whatever the declaration says: each is defined so that 0 is its state
   before the host has set it. */
#define WASM_GLOBAL __attribute__((address_space(1)))

#define FD_LIMIT (4096 + 64) /* the host allows max_open_files up to 4096 */
#define FIRST_GUEST_FD 6     /* 0-2 stdio, 3 / (read-only), 4 /workspace, 5 /tmp */
#define WORKSPACE_FD 4

/* Unlimited until the host sets them (the snapshot is made without limits): cove_call sets the
   quota before every call (`quota_set`), cove_limits the caps once per instance. The caps are
   kept plus one (0: none). `quota_hits` counts (a flag would be narrowed to a byte of linear
   memory by the optimiser). */
static WASM_GLOBAL int32_t quota_set;
static WASM_GLOBAL int64_t bytes_left;
static WASM_GLOBAL int64_t files_left;
static WASM_GLOBAL int32_t quota_hits;
static WASM_GLOBAL int32_t open_cap1;   /* descriptors >= FIRST_GUEST_FD at once, plus one */
static WASM_GLOBAL int32_t depth_cap1;  /* directory depth below /workspace, plus one */
static WASM_GLOBAL int32_t open_count;  /* open descriptors numbered >= FIRST_GUEST_FD */
static WASM_GLOBAL int32_t fd_high;     /* no descriptor at or above this is open */
static WASM_GLOBAL int32_t low_fds;     /* bit n: a file was renumbered into fd n < FIRST_GUEST_FD */
static WASM_GLOBAL int64_t orphan_bytes; /* the ledger: bytes held by orphans */

/* The directory-depth cap, or -1 for none. */
static int32_t
max_depth(void)
{
    return depth_cap1 - 1;
}

/* Directory depths, by descriptor (advisory: see above). */
struct dir_entry {
    int32_t depth; /* a directory's depth below /workspace, when `dir` */
    uint8_t dir;   /* a directory in the workspace with a known depth */
};

static struct dir_entry dirs[FD_LIMIT] = {[WORKSPACE_FD] = {.depth = 0, .dir = 1}};

#define REAL(name) __real___wasi_##name
#define WRAP(name) __wrap___wasi_##name

__wasi_errno_t REAL(fd_write)(__wasi_fd_t, const __wasi_ciovec_t *, size_t, __wasi_size_t *);
__wasi_errno_t REAL(fd_pwrite)(__wasi_fd_t, const __wasi_ciovec_t *, size_t, __wasi_filesize_t,
                               __wasi_size_t *);
__wasi_errno_t REAL(fd_filestat_set_size)(__wasi_fd_t, __wasi_filesize_t);
__wasi_errno_t REAL(fd_allocate)(__wasi_fd_t, __wasi_filesize_t, __wasi_filesize_t);
__wasi_errno_t REAL(fd_close)(__wasi_fd_t);
__wasi_errno_t REAL(fd_renumber)(__wasi_fd_t, __wasi_fd_t);
__wasi_errno_t REAL(path_open)(__wasi_fd_t, __wasi_lookupflags_t, const char *, __wasi_oflags_t,
                               __wasi_rights_t, __wasi_rights_t, __wasi_fdflags_t, __wasi_fd_t *);
__wasi_errno_t REAL(path_create_directory)(__wasi_fd_t, const char *);
__wasi_errno_t REAL(path_symlink)(const char *, __wasi_fd_t, const char *);
__wasi_errno_t REAL(path_link)(__wasi_fd_t, __wasi_lookupflags_t, const char *, __wasi_fd_t,
                               const char *);
__wasi_errno_t REAL(path_unlink_file)(__wasi_fd_t, const char *);
__wasi_errno_t REAL(path_remove_directory)(__wasi_fd_t, const char *);
__wasi_errno_t REAL(path_rename)(__wasi_fd_t, const char *, __wasi_fd_t, const char *);

/* Whether `fd` is an open regular file with no name left (an orphan); its stat in `st`. */
static int
is_orphan(__wasi_fd_t fd, __wasi_filestat_t *st)
{
    return __wasi_fd_filestat_get(fd, st) == 0 && st->filetype == __WASI_FILETYPE_REGULAR_FILE
           && st->nlink == 0;
}

/* Whether `fd` may hold a file: numbered FIRST_GUEST_FD or above and below the high-water
 * mark, or a slot below it that a file was renumbered into (stdio and the preopens are never
 * files, so they are not asked about: each WASI call on a preopen costs wasmtime a hand-off to
 * its blocking thread pool, ~0.1 ms). */
static int
may_hold_a_file(int32_t fd)
{
    return fd >= FIRST_GUEST_FD ? fd < fd_high : (low_fds >> fd) & 1;
}

/* Asks WASI about every descriptor that may hold a file (`may_hold_a_file`; no table in linear
 * memory decides which) and brings the orphan ledger up to date. Each
 * orphan counts once, however many descriptors hold it. With `charge`, the change is charged to
 * (or credited back to) the quota: a file just became an orphan, or an orphan's last descriptor
 * closed. Without it the ledger only follows a change the caller has accounted for already (a
 * write to an orphan was charged as growth). Never fails: an unlink that leaves an orphan
 * behind succeeds, and later writes meet the quota. */
static void
recount_orphans(int charge)
{
    int64_t total = 0;
    int32_t high = fd_high > FIRST_GUEST_FD ? fd_high : FIRST_GUEST_FD;
    for (int32_t fd = 0; fd < high; fd++) {
        __wasi_filestat_t st;
        if (!may_hold_a_file(fd) || !is_orphan((__wasi_fd_t)fd, &st)) {
            continue;
        }
        int shared = 0;
        /* Without an inode number two descriptors cannot be told apart: both are charged. */
        for (int32_t other = 0; other < fd && st.ino != 0; other++) {
            __wasi_filestat_t o;
            if (may_hold_a_file(other) && is_orphan((__wasi_fd_t)other, &o) && o.ino == st.ino
                && o.dev == st.dev) {
                shared = 1;
                break;
            }
        }
        if (!shared) {
            total += (int64_t)st.size;
        }
    }
    if (charge) {
        bytes_left -= total - orphan_bytes;
    }
    orphan_bytes = total;
}

/* Lowers the high-water mark past descriptors closed since (a scan's cost follows it). */
static void
lower_fd_high(void)
{
    int32_t high = fd_high;
    while (high > FIRST_GUEST_FD) {
        __wasi_fdstat_t st;
        if (__wasi_fd_fdstat_get((__wasi_fd_t)(high - 1), &st) != __WASI_ERRNO_BADF) {
            break;
        }
        high -= 1;
    }
    fd_high = high;
}

void
cove_quota_reset(int64_t bytes, int64_t files)
{
    /* The host's figure comes from a scan of the workspace, which orphans are not in. */
    lower_fd_high();
    recount_orphans(0);
    bytes_left = bytes - orphan_bytes;
    files_left = files;
    quota_hits = 0;
    quota_set = 1;
}

/* The host's figures again in the middle of a call (a nested interpreter wrote to the same
 * workspace); returns the bytes the workspace may now grow by. Hits so far are kept. */
__attribute__((export_name("cove_quota_refresh")))
int64_t
cove_quota_refresh(int64_t bytes, int64_t files)
{
    int32_t hits = quota_hits;
    cove_quota_reset(bytes, files);
    quota_hits = hits;
    return bytes_left;
}

int
cove_quota_hit(void)
{
    return quota_hits != 0;
}

/* Descriptors path_open holds open now: a session with any is not suspended or forked (the
 * host's descriptor table does not carry over; runtime/cove/_image.py). */
__attribute__((export_name("cove_open_files")))
int32_t
cove_open_files(void)
{
    return open_count;
}

void
cove_quota_limits(int32_t open_cap, int32_t depth_cap)
{
    open_cap1 = open_cap < 0 ? 0 : open_cap + 1;
    depth_cap1 = depth_cap < 0 ? 0 : depth_cap + 1;
    /* A fresh instance has only stdio and the preopens open: anything the snapshot remembers
       as open is not (its host descriptors were Wizer's), and a restored image's memory knows
       nothing this instance holds. */
    open_count = 0;
    fd_high = FIRST_GUEST_FD;
    low_fds = 0;
    orphan_bytes = 0;
    for (int32_t fd = 0; fd < FD_LIMIT; fd++) {
        dirs[fd].dir = fd == WORKSPACE_FD;
        dirs[fd].depth = 0;
    }
}

/* The depth `path` reaches below its starting directory, counted lexically. */
static int32_t
lexical_depth(const char *path)
{
    int32_t depth = 0;
    const char *p = path;
    while (*p) {
        while (*p == '/') {
            p++;
        }
        const char *start = p;
        while (*p && *p != '/') {
            p++;
        }
        size_t n = (size_t)(p - start);
        if (n == 0 || (n == 1 && start[0] == '.')) {
            continue;
        }
        depth += (n == 2 && start[0] == '.' && start[1] == '.') ? -1 : 1;
    }
    return depth;
}

/* Whether the directory `path` (from `fd`) lies at least `levels` below `fd` physically, with
 * symbolic links followed: `path` plus `levels` times "/.." still resolves, where one more ".."
 * than the depth would leave the sandbox the descriptor is (wasmtime refuses that). */
static int
at_least_below(__wasi_fd_t fd, const char *path, int32_t levels)
{
    if (levels <= 0) {
        return 1;
    }
    size_t n = strlen(path);
    char *probe = malloc(n + 3 * (size_t)levels + 1);
    if (probe == NULL) {
        return 1; /* cannot tell: refuse rather than let a tree grow past the limit */
    }
    memcpy(probe, path, n);
    for (int32_t i = 0; i < levels; i++) {
        memcpy(probe + n + 3 * (size_t)i, "/..", 3);
    }
    probe[n + 3 * (size_t)levels] = '\0';
    __wasi_filestat_t st;
    int below = __wasi_path_filestat_get(fd, 0, probe, &st) == 0;
    free(probe);
    return below;
}

/* Records a directory descriptor's depth (path_open made `fd`). */
static void
remember_dir(__wasi_fd_t dirfd, const char *path, __wasi_fd_t fd)
{
    struct dir_entry *e = &dirs[fd];
    e->dir = 0;
    e->depth = 0;
    __wasi_fdstat_t st;
    if (__wasi_fd_fdstat_get(fd, &st) != 0 || st.fs_filetype != __WASI_FILETYPE_DIRECTORY
        || dirfd >= FD_LIMIT || !dirs[dirfd].dir) {
        return;
    }
    int32_t below = lexical_depth(path);
    below = below < 0 ? 0 : below;
    int32_t cap = max_depth();
    if (cap >= 0) {
        /* A symbolic link on the way can make it deeper than its name says: measured, up to one
           past the limit (deeper than that is refused the same way). */
        int32_t most = cap - dirs[dirfd].depth + 1;
        while (below < most && at_least_below(dirfd, path, below + 1)) {
            below++;
        }
    }
    e->dir = 1;
    e->depth = dirs[dirfd].depth + below;
}

/* Whether an entry at `path` from `fd` would be a directory deeper than the limit, lexically. */
static int
too_deep(__wasi_fd_t fd, const char *path)
{
    int32_t cap = max_depth();
    if (cap < 0 || fd >= FD_LIMIT || !dirs[fd].dir) {
        return 0;
    }
    return dirs[fd].depth + lexical_depth(path) > cap;
}

static __wasi_errno_t
charge_bytes(int64_t growth)
{
    if (!quota_set) {
        return 0; /* making the snapshot: no quota yet */
    }
    if (growth <= 0) {
        bytes_left -= growth; /* shrinking gives room back */
        return 0;
    }
    if (growth > bytes_left) {
        quota_hits += 1;
        return __WASI_ERRNO_DQUOT;
    }
    bytes_left -= growth;
    return 0;
}

static __wasi_errno_t
need_entry(void)
{
    if (quota_set && files_left < 1) {
        quota_hits += 1;
        return __WASI_ERRNO_DQUOT;
    }
    return 0;
}

/* The size of `fd` if it is a regular file, and whether it is an orphan. */
static int
regular_size(__wasi_fd_t fd, int64_t *size, int *orphan)
{
    __wasi_filestat_t st;
    if (__wasi_fd_filestat_get(fd, &st) != 0 || st.filetype != __WASI_FILETYPE_REGULAR_FILE) {
        return 0;
    }
    *size = (int64_t)st.size;
    *orphan = st.nlink == 0;
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
    int orphan = 0;
    if (regular_size(fd, &size, &orphan)) {
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
    __wasi_errno_t err = REAL(fd_write)(fd, iovs, n, written);
    if (orphan) {
        recount_orphans(0); /* an orphan's new size goes into the ledger (charged already) */
    }
    return err;
}

__wasi_errno_t
WRAP(fd_pwrite)(__wasi_fd_t fd, const __wasi_ciovec_t *iovs, size_t n, __wasi_filesize_t offset,
                __wasi_size_t *written)
{
    int64_t size;
    int orphan = 0;
    if (regular_size(fd, &size, &orphan)) {
        int64_t end = (int64_t)offset + iov_total(iovs, n);
        __wasi_errno_t err = charge_bytes(end > size ? end - size : 0);
        if (err) {
            return err;
        }
    }
    __wasi_errno_t err = REAL(fd_pwrite)(fd, iovs, n, offset, written);
    if (orphan) {
        recount_orphans(0);
    }
    return err;
}

__wasi_errno_t
WRAP(fd_filestat_set_size)(__wasi_fd_t fd, __wasi_filesize_t new_size)
{
    int64_t size;
    int orphan = 0;
    int regular = regular_size(fd, &size, &orphan);
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
    if (orphan) {
        recount_orphans(0);
    }
    return err;
}

__wasi_errno_t
WRAP(fd_allocate)(__wasi_fd_t fd, __wasi_filesize_t offset, __wasi_filesize_t len)
{
    int64_t size;
    int orphan = 0;
    if (regular_size(fd, &size, &orphan)) {
        int64_t end = (int64_t)(offset + len);
        __wasi_errno_t err = charge_bytes(end > size ? end - size : 0);
        if (err) {
            return err;
        }
    }
    __wasi_errno_t err = REAL(fd_allocate)(fd, offset, len);
    if (orphan) {
        recount_orphans(0);
    }
    return err;
}

/* A descriptor numbered `fd` now exists (path_open made it, or one was renumbered into it). */
static void
opened(__wasi_fd_t fd)
{
    if (fd >= FIRST_GUEST_FD) {
        open_count += 1;
    } else {
        low_fds |= 1 << fd;
    }
    if ((int32_t)fd >= fd_high) {
        fd_high = (int32_t)fd + 1;
    }
}

/* The descriptor numbered `fd` is gone. */
static void
closed(__wasi_fd_t fd)
{
    if (fd >= FIRST_GUEST_FD) {
        open_count -= 1;
    } else {
        low_fds &= ~(1 << fd);
    }
    if (fd < FD_LIMIT) {
        dirs[fd].dir = 0;
        dirs[fd].depth = 0;
    }
}

__wasi_errno_t
WRAP(path_open)(__wasi_fd_t dirfd, __wasi_lookupflags_t dirflags, const char *path,
                __wasi_oflags_t oflags, __wasi_rights_t base, __wasi_rights_t inheriting,
                __wasi_fdflags_t fdflags, __wasi_fd_t *out)
{
    int32_t cap1 = open_cap1;
    if (cap1 > 0 && open_count >= cap1 - 1) {
        return __WASI_ERRNO_MFILE;
    }
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
    __wasi_fd_t fd;
    __wasi_errno_t err = REAL(path_open)(dirfd, dirflags, path, oflags, base, inheriting, fdflags, &fd);
    if (err != 0) {
        return err;
    }
    files_left -= creating;
    bytes_left += truncated;
    if (fd >= FD_LIMIT) {
        (void)REAL(fd_close)(fd);
        return __WASI_ERRNO_MFILE;
    }
    opened(fd);
    remember_dir(dirfd, path, fd);
    *out = fd;
    return 0;
}

__wasi_errno_t
WRAP(fd_close)(__wasi_fd_t fd)
{
    /* The ledger is exact after every unlink, rename and call start, so with nothing in it
       no descriptor is an orphan (and the close needs no WASI call of its own). */
    __wasi_filestat_t st;
    int orphan = orphan_bytes > 0 && is_orphan(fd, &st);
    __wasi_errno_t err = REAL(fd_close)(fd);
    if (err == 0) {
        closed(fd);
        if (orphan) {
            recount_orphans(1); /* its last descriptor may have gone: its bytes come back */
        }
    }
    return err;
}

__wasi_errno_t
WRAP(fd_renumber)(__wasi_fd_t from, __wasi_fd_t to)
{
    if (to >= FD_LIMIT) {
        return __WASI_ERRNO_MFILE;
    }
    /* Both must be open (as wasmtime requires too): the counts below rest on it. */
    __wasi_fdstat_t st;
    if (__wasi_fd_fdstat_get(from, &st) != 0 || __wasi_fd_fdstat_get(to, &st) != 0) {
        return __WASI_ERRNO_BADF;
    }
    if (from == to) {
        return 0;
    }
    __wasi_filestat_t fst;
    int orphan = orphan_bytes > 0 && is_orphan(to, &fst);
    __wasi_errno_t err = REAL(fd_renumber)(from, to);
    if (err != 0) {
        return err;
    }
    /* `to` was closed and `from` now goes by its number. */
    struct dir_entry moved = {0};
    if (from < FD_LIMIT) {
        moved = dirs[from];
    }
    closed(to);
    closed(from);
    opened(to);
    dirs[to] = moved;
    if (orphan) {
        recount_orphans(1);
    }
    return 0;
}

__wasi_errno_t
WRAP(path_create_directory)(__wasi_fd_t fd, const char *path)
{
    if (too_deep(fd, path)) {
        return __WASI_ERRNO_NAMETOOLONG;
    }
    __wasi_errno_t err = need_entry();
    if (err) {
        return err;
    }
    err = REAL(path_create_directory)(fd, path);
    if (err != 0) {
        return err;
    }
    /* Made through a symbolic link to a deep directory, it can be deeper than its name: one ".."
       more than the limit allows must leave the sandbox, or the directory goes again. */
    int32_t cap = max_depth();
    if (cap >= 0 && fd < FD_LIMIT && dirs[fd].dir
        && at_least_below(fd, path, cap - dirs[fd].depth + 1)) {
        (void)REAL(path_remove_directory)(fd, path);
        return __WASI_ERRNO_NAMETOOLONG;
    }
    files_left -= 1;
    return 0;
}

__wasi_errno_t
WRAP(path_symlink)(const char *old_path, __wasi_fd_t fd, const char *new_path)
{
    /* A link can stand for a directory: it may not sit deeper than one. */
    if (too_deep(fd, new_path)) {
        return __WASI_ERRNO_NAMETOOLONG;
    }
    __wasi_errno_t err = need_entry();
    if (err) {
        return err;
    }
    err = REAL(path_symlink)(old_path, fd, new_path);
    if (err == 0) {
        files_left -= 1;
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
        files_left -= 1;
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
        files_left += 1;
        bytes_left += size;
        recount_orphans(1); /* still open somewhere: its bytes are charged again */
    }
    return err;
}

__wasi_errno_t
WRAP(path_remove_directory)(__wasi_fd_t fd, const char *path)
{
    __wasi_errno_t err = REAL(path_remove_directory)(fd, path);
    if (err == 0) {
        files_left += 1;
    }
    return err;
}

__wasi_errno_t
WRAP(path_rename)(__wasi_fd_t old_fd, const char *old_path, __wasi_fd_t new_fd,
                  const char *new_path)
{
    __wasi_filestat_t src, dst;
    int have_src = __wasi_path_filestat_get(old_fd, 0, old_path, &src) == 0;
    if (have_src && src.filetype == __WASI_FILETYPE_DIRECTORY && too_deep(new_fd, new_path)) {
        return __WASI_ERRNO_NAMETOOLONG;
    }
    /* A regular file renamed over goes, like an unlink; not when both names are one file (then
       nothing changes), nor when that cannot be told (no inode numbers). */
    int64_t replaced = -1;
    if (have_src && __wasi_path_filestat_get(new_fd, 0, new_path, &dst) == 0
        && dst.filetype == __WASI_FILETYPE_REGULAR_FILE && dst.nlink <= 1 && dst.ino != 0
        && !(dst.ino == src.ino && dst.dev == src.dev)) {
        replaced = (int64_t)dst.size;
    }
    __wasi_errno_t err = REAL(path_rename)(old_fd, old_path, new_fd, new_path);
    if (err == 0) {
        if (replaced >= 0) {
            files_left += 1;
            bytes_left += replaced;
        }
        recount_orphans(1); /* the file renamed over may still be open */
    }
    return err;
}

/* The limits above surface to Python as OSError(errno, strerror(errno)). wasi-libc words these
 * errnos unlike Linux ("No file descriptors available", "Quota exceeded", "Filename too long");
 * model code and the models reading its output know glibc's words, so those are used. */
char *__real_strerror(int errnum);

char *
__wrap_strerror(int errnum)
{
    switch (errnum) {
    case EMFILE:
        return "Too many open files";
    case EDQUOT:
        return "Disk quota exceeded";
    case ENAMETOOLONG:
        return "File name too long";
    default:
        return __real_strerror(errnum);
    }
}
