/* Cove: a check of OpenBLAS's level-3 routines as built for wasm32 (patches/0002's DGEMM
 * kernel above all): dgemm in its four transpositions, dsyrk, dtrmm and dtrsm on odd shapes
 * (the kernel's edges), against plain loops; prints "all ok" and exits 0, or says what is off.
 * Run by hand when the kernel changes (tests/integration/test_blas.py checks numpy's products and
 * solves across OpenBLAS's blocks against native ones in the guest):
 *   clang-19 --target=wasm32-wasi --sysroot=W/sysroot -O2 check.c W/deps/usr/lib/libopenblas.a \
 *     -lwasi-emulated-mman <compiler-rt builtins for wasm32> -o check.wasm
 * and run check.wasm with any WASI runtime (wasmtime-py: a Linker with define_wasi()). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
extern void dgemm_(char*, char*, int*, int*, int*, double*, double*, int*, double*, int*, double*, double*, int*);
extern void dsyrk_(char*, char*, int*, int*, double*, double*, int*, double*, double*, int*);
extern void dtrmm_(char*, char*, char*, char*, int*, int*, double*, double*, int*, double*, int*);
extern void dtrsm_(char*, char*, char*, char*, int*, int*, double*, double*, int*, double*, int*);
static double rnd(unsigned *s) { *s = *s * 1103515245u + 12345u; return ((*s >> 8) % 20000) / 10000.0 - 1.0; }
static int bad = 0;
static void cmp(const char *what, double *x, double *y, int n) {
  double worst = 0, scale = 1e-300;
  for (int i = 0; i < n; i++) { double d = fabs(x[i] - y[i]); if (d > worst) worst = d; if (fabs(y[i]) > scale) scale = fabs(y[i]); }
  if (worst / scale > 1e-12) { printf("%s: max rel err %g\n", what, worst / scale); bad++; }
}
int main(void) {
  unsigned s = 7; int dims[][3] = {{1,1,1},{3,5,7},{4,4,4},{5,3,2},{17,13,11},{64,65,66},{301,157,299},{128,129,120},{2,9,300}};
  for (unsigned d = 0; d < sizeof dims / sizeof dims[0]; d++) {
    int m = dims[d][0], n = dims[d][1], k = dims[d][2];
    for (int ta = 0; ta < 2; ta++) for (int tb = 0; tb < 2; tb++) {
      int lda = (ta ? k : m) + 1, ldb = (tb ? n : k) + 2, ldc = m + 3;
      double *A = malloc(8 * lda * (ta ? m : k)), *B = malloc(8 * ldb * (tb ? k : n));
      double *C = malloc(8 * ldc * n), *R = malloc(8 * ldc * n);
      for (int i = 0; i < lda * (ta ? m : k); i++) A[i] = rnd(&s);
      for (int i = 0; i < ldb * (tb ? k : n); i++) B[i] = rnd(&s);
      for (int i = 0; i < ldc * n; i++) C[i] = R[i] = rnd(&s);
      double alpha = 1.5, beta = -0.5; char TA = ta ? 'T' : 'N', TB = tb ? 'T' : 'N';
      dgemm_(&TA, &TB, &m, &n, &k, &alpha, A, &lda, B, &ldb, &beta, C, &ldc);
      for (int j = 0; j < n; j++) for (int i = 0; i < m; i++) {
        double sum = 0;
        for (int p = 0; p < k; p++) sum += (ta ? A[i * lda + p] : A[p * lda + i]) * (tb ? B[p * ldb + j] : B[j * ldb + p]);
        R[j * ldc + i] = alpha * sum + beta * R[j * ldc + i];
      }
      char name[64]; snprintf(name, sizeof name, "dgemm %c%c %dx%dx%d", TA, TB, m, n, k);
      cmp(name, C, R, ldc * n);
      free(A); free(B); free(C); free(R);
    }
    /* dsyrk C := A*A^T (lower), dtrmm B := L*B, dtrsm solve L*X = B */
    int lda = n + 1; double *A = malloc(8 * lda * k), *C = malloc(8 * n * n), *R = malloc(8 * n * n);
    for (int i = 0; i < lda * k; i++) A[i] = rnd(&s);
    for (int i = 0; i < n * n; i++) C[i] = R[i] = 0;
    double one = 1, zero = 0; char L = 'L', N = 'N', Lf = 'L', U = 'N';
    dsyrk_(&L, &N, &n, &k, &one, A, &lda, &zero, C, &n);
    for (int j = 0; j < n; j++) for (int i = j; i < n; i++) { double sum = 0; for (int p = 0; p < k; p++) sum += A[p * lda + i] * A[p * lda + j]; R[j * n + i] = sum; }
    cmp("dsyrk", C, R, n * n);
    double *Lm = malloc(8 * n * n), *B = malloc(8 * n * m), *X = malloc(8 * n * m);
    for (int j = 0; j < n; j++) for (int i = 0; i < n; i++) Lm[j * n + i] = i < j ? 0 : (i == j ? 2.0 + rnd(&s) * 0.5 : rnd(&s) / n);
    for (int i = 0; i < n * m; i++) B[i] = X[i] = rnd(&s);
    dtrmm_(&Lf, &L, &N, &U, &n, &m, &one, Lm, &n, B, &n);
    for (int j = 0; j < m; j++) for (int i = 0; i < n; i++) { double sum = 0; for (int p = 0; p <= i; p++) sum += Lm[p * n + i] * X[j * n + p]; if (fabs(B[j * n + i] - sum) > 1e-12 * (1 + fabs(sum))) { if (!bad) printf("dtrmm %d %d\n", i, j); bad++; } }
    dtrsm_(&Lf, &L, &N, &U, &n, &m, &one, Lm, &n, B, &n);
    cmp("dtrsm round trip", B, X, n * m);
    free(A); free(C); free(R); free(Lm); free(B); free(X);
  }
  printf(bad ? "FAILED %d\n" : "all ok\n", bad);
  return bad != 0;
}
