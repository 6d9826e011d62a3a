/* cpu_math.h — which generic LLVM math intrinsics a CPU target lowers to one
 * instruction per vector, so that emit_math.c can use them there and keep its
 * portable bit tricks elsewhere (where LLVM would call libm per element). */
#ifndef TK_CPU_MATH_H
#define TK_CPU_MATH_H

#include <stdbool.h>

/* llvm.ldexp on float vectors: AVX-512 lowers it to vscalefps (p · 2^n,
 * rounded once, overflow to inf and subnormal results included); without it
 * LLVM calls ldexpf per element. features: "+avx512f,..." or NULL. */
bool tk_cpu_fast_ldexp(const char *features);

#endif
