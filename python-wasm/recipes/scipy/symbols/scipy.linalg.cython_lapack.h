/* scipy.linalg.cython_lapack declares two LAPACK routines the way gfortran's LAPACK takes them,
 * which is not how the guest's (OpenBLAS's C translation, lapack-netlib) does:
 * - xerbla_array(SRNAME_ARRAY, SRNAME_LEN, INFO): the character array's hidden length follows;
 * - chla_transtype(TRANS), a CHARACTER*1 function: in f2c's convention its result is written
 *   through a pointer given first, with its length, and nothing is returned.
 * Natively the difference is harmless; in WebAssembly a call through another signature than
 * its callee's is refused by the linker. The module calls these two adapters instead. */
void xerbla_array_(char *srname_array, int *srname_len, int *info, int srname_array_len);
void chla_transtype_(char *ret_val, int ret_val_len, int *trans);

static inline void cove_xerbla_array(char *srname_array, int *srname_len, int *info) {
    xerbla_array_(srname_array, srname_len, info, *srname_len);
}

static inline char cove_chla_transtype(int *trans) {
    char result = ' ';
    chla_transtype_(&result, 1, trans);
    return result;
}

#define xerbla_array_ cove_xerbla_array
#define chla_transtype_ cove_chla_transtype
