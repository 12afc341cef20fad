/* scipy.special.cython_special compiles xsf_wrappers.cpp, dd_real_wrappers.cpp and sf_error.cc
 * as scipy.special._ufuncs does, identically: the one static link keeps one copy of each, the
 * error actions included (special.seterr, which sets _ufuncs', applies here too; natively
 * cython_special has a table of its own). Its Cython code also defines wrap_PyUFunc_getfperr
 * (_ufuncs_extra_code_common.pxi), as _ufuncs' does: in the C it is renamed; sf_error.cc (C++)
 * keeps calling the plain name, so that it stays identical to _ufuncs', and is served by
 * _ufuncs' wrap_PyUFunc_getfperr (the same numpy function, PyUFunc_getfperr). */
#ifndef __cplusplus
#define wrap_PyUFunc_getfperr wrap_PyUFunc_getfperr__cython_special
#endif
