/* Snapshot experiment: a reactor (like Cove's) whose Wizer init function imports numpy and pandas,
 * then gc.freeze(). Exports:
 *   np_init()  Wizer's init function (removed from the snapshot)
 *   np_run()   runs /tmp/run.py (the file is read at call time); returns 0 / 1
 * Preopens must be given in the same order at snapshot and run time: /usr/lib, then /tmp. */
#include "Python.h"
#include <stdio.h>
#include <stdlib.h>

extern void _initialize(void);
extern struct _inittab np_inittab[];

#ifndef NP_PREIMPORT
#define NP_PREIMPORT "import numpy, pandas"
#endif

static const char setup_src[] =
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
    "del DottedBuiltinFinder, BuiltinImporter, ModuleSpec, sys, _imp\n"
    "import tzdata; tzdata.__version__ = '2026.6'\n"   /* Cove's tzdata lacks __version__ */
    NP_PREIMPORT "\n"
    "import gc; gc.collect(); gc.freeze()\n";

__attribute__((export_name("np_init"))) void np_init(void) {
    _initialize();
    if (PyImport_ExtendInittab(np_inittab) < 0) abort();
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
    config.use_hash_seed = 1;
    config.hash_seed = 0;
    config.module_search_paths_set = 1;
    const wchar_t *paths[] = {L"/usr/lib/numpy.zip", L"/usr/lib/pandas.zip", L"/usr/lib/site-deps",
                              L"/usr/lib/python311.zip"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        st = PyWideStringList_Append(&config.module_search_paths, paths[i]);
        if (PyStatus_Exception(st)) Py_ExitStatusException(st);
    }
    PyConfig_SetString(&config, &config.program_name, L"python3");
    PyConfig_SetString(&config, &config.home, L"/usr");
    st = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(st)) Py_ExitStatusException(st);
    if (PyRun_SimpleString(setup_src) != 0) abort();
}

__attribute__((export_name("np_run"))) int np_run(void) {
    return PyRun_SimpleString("exec(compile(open('/tmp/run.py').read(), '/tmp/run.py', 'exec'), {'__name__': '__main__'})") ? 1 : 0;
}
