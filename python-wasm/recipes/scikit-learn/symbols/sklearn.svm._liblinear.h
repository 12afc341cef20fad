/* liblinear's seed, as its static library names it (sklearn.svm.libliblinear-skl.a.h). */
#define set_seed set_seed__sklearn_svm_liblinear
