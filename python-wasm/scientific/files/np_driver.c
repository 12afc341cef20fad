/* Test driver (not Cove's cove_driver.c): a WASI command that runs Python code with numpy's
 * extension modules linked in as builtins.
 *   np_driver.wasm -c CODE        run CODE
 *   np_driver.wasm FILE           run a file
 * sys.path = NP_PATH entries (colon-separated env var, default "/usr/lib/site") + /usr/lib/python311.zip
 * CPython 3.11's BuiltinImporter.find_spec returns None whenever `path` is given, i.e. for every
 * submodule of a package, so dotted inittab names are invisible to it: a small meta-path finder
 * (installed before anything else runs) accepts them. */
#include "Python.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern struct _inittab np_inittab[]; /* generated: np_inittab.c */

static const char finder_src[] =
    "import sys, _imp\n"
    "from importlib.machinery import BuiltinImporter, ModuleSpec\n"
    "class DottedBuiltinFinder:\n"
    "    @classmethod\n"
    "    def find_spec(cls, fullname, path=None, target=None,\n"
    "                  _is=_imp.is_builtin, _spec=ModuleSpec, _loader=BuiltinImporter):\n"
    "        if '.' in fullname and _is(fullname):\n"
    "            return _spec(fullname, _loader, origin='built-in')\n"
    "        return None\n"
    "sys.meta_path.insert(1, DottedBuiltinFinder)\n"
    "del DottedBuiltinFinder, BuiltinImporter, ModuleSpec, sys, _imp\n";

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    double t0 = now();
    if (PyImport_ExtendInittab(np_inittab) < 0) {
        fprintf(stderr, "PyImport_ExtendInittab failed\n");
        return 2;
    }
    PyPreConfig pre;
    PyPreConfig_InitIsolatedConfig(&pre);
    pre.utf8_mode = 1;
    PyStatus st = Py_PreInitialize(&pre);
    if (PyStatus_Exception(st)) Py_ExitStatusException(st);

    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    config.site_import = 0;
    config.write_bytecode = 0;
    config.buffered_stdio = 0;
    config.module_search_paths_set = 1;
    const char *np_path = getenv("NP_PATH");
    char *paths = strdup(np_path ? np_path : "/usr/lib/site");
    for (char *tok = strtok(paths, ":"); tok; tok = strtok(NULL, ":")) {
        wchar_t *w = Py_DecodeLocale(tok, NULL);
        st = PyWideStringList_Append(&config.module_search_paths, w);
        PyMem_RawFree(w);
        if (PyStatus_Exception(st)) Py_ExitStatusException(st);
    }
    free(paths);
    st = PyWideStringList_Append(&config.module_search_paths, L"/usr/lib/python311.zip");
    if (PyStatus_Exception(st)) Py_ExitStatusException(st);
    PyConfig_SetString(&config, &config.program_name, L"python3");
    PyConfig_SetString(&config, &config.home, L"/usr");
    st = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(st)) Py_ExitStatusException(st);
    if (PyRun_SimpleString(finder_src) != 0) return 3;
    /* NP_PRELUDE: Python code run before the script (test-only knob) */
    const char *prelude = getenv("NP_PRELUDE");
    if (prelude && PyRun_SimpleString(prelude) != 0) return 3;
    double t1 = now();
    if (getenv("NP_TIMING")) fprintf(stderr, "[driver] Py_Initialize %.1f ms\n", (t1 - t0) * 1e3);

    int rc;
    if (argc >= 3 && strcmp(argv[1], "-c") == 0) {
        rc = PyRun_SimpleString(argv[2]);
    } else if (argc >= 2) {
        FILE *f = fopen(argv[1], "r");
        if (!f) { perror(argv[1]); return 2; }
        rc = PyRun_SimpleFileExFlags(f, argv[1], 1, NULL);
    } else {
        fprintf(stderr, "usage: %s -c CODE | FILE\n", argv[0]);
        return 2;
    }
    if (Py_FinalizeEx() < 0) rc = 120;
    return rc ? 1 : 0;
}
