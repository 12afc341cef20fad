/* Cove's reactor driver: the call-in API the host drives, and the builtin module `_cove`.
 *
 * The module is a WASI reactor (no _start). Exports:
 *   cove_init()                 Wizer's init function: initialise CPython and import the guest
 *                               driver; runs once at build time, its memory is the snapshot.
 *   cove_buffer(n) -> ptr       the request buffer, grown to at least n bytes (NULL: no memory)
 *   cove_call(n, bytes_left, files_left) -> i64
 *                               run the request in the buffer's first n bytes with that much
 *                               workspace quota left; returns (response ptr << 32) | length,
 *                               bit 31 set if the quota was hit; -1 if the driver failed
 *   cove_limits(max_open_files, max_dir_depth)
 *                               the session's caps on descriptors held open at once and on
 *                               directory depth below /workspace (negative: none); the host
 *                               calls it once, right after instantiating. Until then there are
 *                               none (the snapshot is made without them). See cove_quota.c.
 *   cove_interrupt() -> int     ask the interpreter to stop the running code at its next bytecode
 *                               boundary (raises cove_guest.deadline.TimeLimitExceeded there);
 *                               called re-entrantly by the host's epoch-deadline callback while
 *                               the guest is paused at an epoch check (see below)
 *   cove_open_files() -> int    descriptors path_open holds open now (cove_quota.c)
 *   cove_quota_refresh(bytes_left, files_left) -> i64
 *                               the workspace quota left, again, in the middle of a call (after
 *                               a nested interpreter wrote to the workspace); returns the bytes
 *                               the workspace may now grow by (cove_quota.c)
 *   __stack_pointer             the shadow-stack pointer (exported by the link), which the host
 *                               lowers around cove_interrupt and saves with a session's image
 * Imports (module "cove"):
 *   host_call(ptr, n) -> len    hand the host a request; returns the reply's length, or -1
 *   host_reply(ptr)             copy the pending reply into guest memory at ptr
 *
 * Requests and responses are JSON documents; see cove_guest/driver.py for their fields.
 */
#include "Python.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>

extern void _initialize(void);
extern int cove_snapshotting; /* cove_snapshot.c */
void cove_quota_reset(int64_t bytes_left, int64_t files_left); /* cove_quota.c */
int cove_quota_hit(void);
void cove_quota_limits(int32_t max_open_files, int32_t max_dir_depth);

__attribute__((import_module("cove"), import_name("host_call")))
int32_t cove_import_host_call(const uint8_t *ptr, int32_t len);
__attribute__((import_module("cove"), import_name("host_reply")))
void cove_import_host_reply(uint8_t *ptr);

/* The host asked the running code to stop (cove_interrupt) during this call: a wait in
   poll_oneoff returns at its next slice (cove_poll.c). Cleared by every cove_call. */
static __attribute__((address_space(1))) int32_t interrupt_requests;

int
cove_interrupt_pending(void)
{
    return interrupt_requests != 0;
}

static PyObject *handle_func;     /* cove_guest.driver.handle */
static PyObject *last_response;   /* bytes, kept alive until the next call */

static PyObject *
cove_host_call(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (view.len > INT32_MAX) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "host_call: request too large");
        return NULL;
    }
    int32_t n = cove_import_host_call((const uint8_t *)view.buf, (int32_t)view.len);
    PyBuffer_Release(&view);
    if (n < 0) {
        PyErr_SetString(PyExc_OSError, "host_call: the host refused the request");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (out == NULL) {
        return NULL;
    }
    if (n > 0) {
        cove_import_host_reply((uint8_t *)PyBytes_AS_STRING(out));
    }
    return out;
}

static PyMethodDef cove_methods[] = {
    {"host_call", cove_host_call, METH_O,
     "host_call(request: bytes) -> bytes\n\nSend a request to the host and return its reply."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef cove_module = {
    PyModuleDef_HEAD_INIT, "_cove", "The guest's one channel to the Cove host.", -1, cove_methods,
};

static PyObject *
PyInit__cove(void)
{
    return PyModule_Create(&cove_module);
}

static void
fail(const char *what, PyStatus status)
{
    if (PyStatus_Exception(status)) {
        Py_ExitStatusException(status);
    }
    (void)what;
    abort();
}

/* build.sh's reactor step generates it (an empty table when no package has extensions). */
extern struct _inittab cove_extension_modules[];

__attribute__((export_name("cove_init")))
void
cove_init(void)
{
    cove_snapshotting = 1;
    _initialize();
    if (PyImport_AppendInittab("_cove", PyInit__cove) < 0) {
        abort();
    }
    /* The packages' extension modules (numpy, pandas), linked in statically and registered by
       their dotted names; the table is generated by build.sh's reactor step (gen_inittab.py).
       cove_guest.extensions finds the dotted ones (CPython 3.11's BuiltinImporter does not). */
    if (PyImport_ExtendInittab(cove_extension_modules) < 0) {
        abort();
    }

    PyPreConfig preconfig;
    PyPreConfig_InitIsolatedConfig(&preconfig);
    preconfig.utf8_mode = 1;
    PyStatus status = Py_PreInitialize(&preconfig);
    if (PyStatus_Exception(status)) {
        fail("preinit", status);
    }

    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    config.site_import = 0;
    config.write_bytecode = 0;
    config.install_signal_handlers = 1;
    config.buffered_stdio = 0;
    /* A fixed str-hash key: the snapshot is reproducible byte for byte, and every session from
       it shares the key anyway (it is frozen into the snapshot's memory). */
    config.use_hash_seed = 1;
    config.hash_seed = 0;
    config.module_search_paths_set = 1;
    status = PyWideStringList_Append(&config.module_search_paths, L"/usr/lib/python311.zip");
    if (PyStatus_Exception(status)) {
        fail("paths", status);
    }
    status = PyConfig_SetString(&config, &config.program_name, L"python3");
    if (PyStatus_Exception(status)) {
        fail("program name", status);
    }
    status = PyConfig_SetString(&config, &config.home, L"/usr");
    if (PyStatus_Exception(status)) {
        fail("home", status);
    }
    status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status)) {
        fail("init", status);
    }

    PyObject *mod = PyImport_ImportModule("cove_guest.driver");
    if (mod == NULL) {
        PyErr_Print();
        abort();
    }
    PyObject *init = PyObject_GetAttrString(mod, "initialise");
    if (init == NULL || PyObject_CallNoArgs(init) == NULL) {
        PyErr_Print();
        abort();
    }
    Py_DECREF(init);
    handle_func = PyObject_GetAttrString(mod, "handle");
    Py_DECREF(mod);
    if (handle_func == NULL) {
        PyErr_Print();
        abort();
    }
    cove_snapshotting = 0;
}

static uint8_t *request_buf;
static int32_t request_cap;

__attribute__((export_name("cove_buffer")))
uint8_t *
cove_buffer(int32_t n)
{
    if (n > request_cap) {
        int32_t cap = n < 65536 ? 65536 : n;
        uint8_t *grown = realloc(request_buf, (size_t)cap);
        if (grown == NULL) {
            return NULL;
        }
        request_buf = grown;
        request_cap = cap;
    }
    return request_buf;
}

/* Run the request in the buffer (its first `len` bytes) with the given workspace quota.
 * Returns (response pointer << 32) | length, with bit 31 of the low word set when the call hit
 * the quota; -1 when the guest driver itself failed. One call into wasm per request: each
 * crossing costs the host more than the guest's own work for a trivial call. */
__attribute__((export_name("cove_call")))
int64_t
cove_call(int32_t len, int64_t bytes_left, int64_t files_left)
{
    Py_CLEAR(last_response);
    if (len < 0 || len > request_cap) {
        return -1;
    }
    cove_quota_reset(bytes_left, files_left);
    interrupt_requests = 0;
    PyObject *req = PyBytes_FromStringAndSize((const char *)request_buf, len);
    if (req == NULL) {
        PyErr_Clear();
        return -1;
    }
    PyObject *resp = PyObject_CallOneArg(handle_func, req);
    Py_DECREF(req);
    if (resp == NULL || !PyBytes_Check(resp) || PyBytes_GET_SIZE(resp) > INT32_MAX) {
        Py_XDECREF(resp);
        PyErr_Clear();
        return -1;
    }
    last_response = resp;
    uint64_t ptr = (uint64_t)(uintptr_t)PyBytes_AS_STRING(resp);
    uint64_t low = (uint64_t)PyBytes_GET_SIZE(resp) | (cove_quota_hit() ? 0x80000000u : 0u);
    return (int64_t)((ptr << 32) | low);
}

/* The session's caps on open descriptors and directory depth, enforced in cove_quota.c. Called
 * by the host once per instance, before the first cove_call; negative means no cap. */
__attribute__((export_name("cove_limits")))
void
cove_limits(int32_t max_open_files, int32_t max_dir_depth)
{
    cove_quota_limits(max_open_files, max_dir_depth);
}

/* The soft deadline (runtime/cove/_guest.py). The host calls this from wasmtime's epoch-deadline
 * callback, re-entrantly: the running code is paused at an epoch check (a function entry or a
 * loop header) with every earlier store done, and this call runs on the same shadow stack below
 * it (the host first lowers __stack_pointer past the red zone a leaf function may use).
 * PyErr_SetInterruptEx is async-signal-safe (documented so; it only sets flags, and writes to the
 * wakeup fd, which cove_guest.deadline keeps disabled); Py_AddPendingCall, which takes a lock, is
 * not. SIGALRM's handler, installed by cove_guest.deadline, raises TimeLimitExceeded at the eval
 * loop's next check while model code runs. The same mechanism as CPython's own Emscripten port
 * (Python/emscripten_signal.c), where the host sets the flag and the eval loop polls it. */
__attribute__((export_name("cove_interrupt")))
int32_t
cove_interrupt(void)
{
    interrupt_requests += 1;
    return PyErr_SetInterruptEx(SIGALRM);
}
