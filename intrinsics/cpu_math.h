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

/* The AVX-512 intrinsic that scales a vector of `lanes` floats by 2^floor(n)
 * with n itself a float vector (vscalefps), or NULL where there is none:
 * llvm.ldexp takes n as integers, which for an n computed as a float costs a
 * conversion to int and, inside the back end, one back. Only for values that
 * are already vectors: a scalar target intrinsic would stop the loop
 * vectoriser. */
const char *tk_cpu_scalef_vector(const char *features, unsigned lanes);

#endif
