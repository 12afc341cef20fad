/* numpy._core._multiarray_tests compiles its own copies of common/npy_hashtable.cpp,
 * npy_argparse.c and mem_overlap.c, with other flags than _multiarray_umath's: statically
 * linked, one copy would serve both modules (python-wasm/check_link.py finds them). Each
 * module keeps its own, as it would as a shared module. */
#define PyArrayIdentityHash_Dealloc npy_tests_PyArrayIdentityHash_Dealloc
#define PyArrayIdentityHash_GetItem npy_tests_PyArrayIdentityHash_GetItem
#define PyArrayIdentityHash_New npy_tests_PyArrayIdentityHash_New
#define PyArrayIdentityHash_SetItem npy_tests_PyArrayIdentityHash_SetItem
#define PyArray_PythonPyIntFromInt npy_tests_PyArray_PythonPyIntFromInt
#define _npy_parse_arguments npy_tests__npy_parse_arguments
#define diophantine_simplify npy_tests_diophantine_simplify
#define init_argparse_mutex npy_tests_init_argparse_mutex
#define offset_bounds_from_strides npy_tests_offset_bounds_from_strides
#define solve_diophantine npy_tests_solve_diophantine
#define solve_may_have_internal_overlap npy_tests_solve_may_have_internal_overlap
#define solve_may_share_memory npy_tests_solve_may_share_memory
