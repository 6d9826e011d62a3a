/* cpu_math.c — see cpu_math.h. */
#include "cpu_math.h"

#include "cpu_mma.h"

bool tk_cpu_fast_ldexp(const char *features) { return features && tk_features_include(features, "+avx512f"); }

const char *tk_cpu_scalef_vector(const char *features, unsigned lanes)
{
    if (!tk_cpu_fast_ldexp(features)) return NULL;
    if (lanes == 16) return "llvm.x86.avx512.mask.scalef.ps.512";
    if (!tk_features_include(features, "+avx512vl")) return NULL;
    return lanes == 8 ? "llvm.x86.avx512.mask.scalef.ps.256" : lanes == 4 ? "llvm.x86.avx512.mask.scalef.ps.128" : NULL;
}
