/* liblinear's copy of newrand.h's generator, its own as natively (see sklearn.svm._newrand.h);
   _liblinear calls it (liblinear_helper.c: set_seed), under the same name there
   (sklearn.svm._liblinear.h). */
#define mt_rand mt_rand__sklearn_svm_liblinear
#define set_seed set_seed__sklearn_svm_liblinear
#define bounded_rand_int bounded_rand_int__sklearn_svm_liblinear
