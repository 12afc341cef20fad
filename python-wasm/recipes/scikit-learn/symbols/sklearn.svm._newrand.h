/* newrand.h defines (not declares) the Mersenne Twister `mt_rand`, `set_seed` and the `inline`
   (weak) `bounded_rand_int` that draws from it; natively each shared object that includes it has
   its own generator: _newrand (a test wrapper), libsvm's
   static library (linked into _libsvm and _libsvm_sparse) and liblinear's (_liblinear).
   Statically linked, libsvm's keeps the names, this module's and liblinear's are renamed
   (sklearn.svm.libliblinear-skl.a.h, sklearn.svm._liblinear.h). A weak function kept its name
   would be one copy for all three, reading one generator (check_link.py refuses that now). */
#define mt_rand mt_rand__sklearn_svm__newrand
#define set_seed set_seed__sklearn_svm__newrand
#define bounded_rand_int bounded_rand_int__sklearn_svm__newrand
