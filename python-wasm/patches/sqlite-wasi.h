/* Force-included into every SQLite translation unit for wasm32-wasi.
 *
 * WASI has no advisory file locks, file ownership or permission bits. SQLite's unix VFS still
 * names them, so they are declared here; the default VFS is set to "unix-none" (build.sh), whose
 * locking methods are no-ops, so none of these lock commands is ever issued. A session is a single
 * process with a private workspace, so there is no other process to lock against.
 */
#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef F_GETLK
#define F_GETLK 5
#define F_SETLK 6
#define F_SETLKW 7
#endif
#ifndef F_RDLCK
#define F_RDLCK 0
#define F_WRLCK 1
#define F_UNLCK 2
#endif

static inline int cove_fchmod(int fd, mode_t mode) { (void)fd; (void)mode; return 0; }
static inline int cove_fchown(int fd, uid_t uid, gid_t gid) { (void)fd; (void)uid; (void)gid; return 0; }
static inline uid_t cove_geteuid(void) { return 0; }
#define fchmod cove_fchmod
#define fchown cove_fchown
#define geteuid cove_geteuid
