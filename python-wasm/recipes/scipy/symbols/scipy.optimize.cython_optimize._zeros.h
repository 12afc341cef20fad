/* scipy.optimize.cython_optimize._zeros includes the root finders' C files (Zeros/*.c, through
 * c_zeros.pxd), which optimize's rootfind library, linked into scipy.optimize._zeros, compiles
 * too: natively two shared objects, statically one link. This module's copies are renamed. */
#define bisect bisect__cython_optimize
#define ridder ridder__cython_optimize
#define brenth brenth__cython_optimize
#define brentq brentq__cython_optimize
