/* cpu_math.c — see cpu_math.h. */
#include "cpu_math.h"

#include "cpu_mma.h"

bool tk_cpu_fast_ldexp(const char *features) { return features && tk_features_include(features, "+avx512f"); }
