/* scipy.special._special_ufuncs, natively a shared object of its own, compiles what other modules of
 * scipy.special compile too, which in the one static link must stay its own:
 * - xsf and Faddeeva, namespaces of special functions whose headers define functions that are
 *   not inline (the cephes headers of xsf, xsf/numpy.h, the Faddeeva functions);
 * - sf_error.cc, the special-function error reporting and its table of actions (each module has
 *   its own natively; special.seterr sets each module's), and wrap_PyUFunc_getfperr, the
 *   floating-point status it reads, which each module's Cython or C++ defines.
 * _ufuncs and cython_special compile the same files identically, and share one copy (the table
 * of actions too: special.seterr, which sets _ufuncs', applies to cython_special as well). */
#define xsf xsf__special_ufuncs
#define Faddeeva Faddeeva__special_ufuncs
#define sf_error sf_error__special_ufuncs
#define sf_error_v sf_error_v__special_ufuncs
#define sf_error_check_fpe sf_error_check_fpe__special_ufuncs
#define sf_error_get_action sf_error_get_action__special_ufuncs
#define sf_error_set_action sf_error_set_action__special_ufuncs
#define sf_error_messages sf_error_messages__special_ufuncs
#define wrap_PyUFunc_getfperr wrap_PyUFunc_getfperr__special_ufuncs
