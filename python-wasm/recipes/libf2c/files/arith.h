/* arith.h for wasm32-wasi: what libf2c's arithchk.c reports about the machine's arithmetic.
   makefile.u compiles arithchk.c and runs it to write this file, which a cross build cannot, so
   it is written here: IEEE-754 doubles, little-endian (IEEE_8087, as arithchk says on x86),
   32-bit long (wasm32 is ILP32), doubles 8-byte aligned, and the quiet NaN's two words. */
#define IEEE_8087
#define Arith_Kind_ASL 1
#define Long int
#define Intcast (int)(long)
#define Double_Align
#define QNaN0 0x0
#define QNaN1 0x7ff80000
