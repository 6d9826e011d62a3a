/* accuracy.c — how far the CPU code generator's exp, exp2, tanh, sigmoid,
 * log, erf and gelu_erf (lower/cpu/emit_math.c: polynomials, not libm) are from the correctly rounded
 * f32 result, over a sweep of f32 bit patterns covering every binade of both
 * signs (every 97th pattern, ~44 million values) plus the special values.
 *
 * The reference is the double-precision C library function rounded to f32.
 * Passes if every result is within the documented bound (ulps of f32 at the
 * reference value, subnormals counted in units of the smallest subnormal):
 * exp, exp2, tanh ≤ 2 ulp; sigmoid ≤ 3 ulp (exp, an add and a division);
 * log ≤ 1 ulp; erf ≤ 2 ulp; gelu_erf ≤ 5 ulp (the reference is x/2·erfc(-x/√2),
 * so tiny negative results count too); and the special values are exact:
 * NaN → NaN, exp(-inf) = 0, exp(inf) = inf, tanh(±inf) = ±1, tanh(±0) = ±0,
 * log(inf) = inf, log(±0) = -inf, log(-inf) = NaN, erf(±inf) = ±1,
 * erf(±0) = ±0, gelu_erf(inf) = inf, gelu_erf(-inf) = -0, gelu_erf(±0) = ±0.
 * Prints the worst case of each function. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps.h"

static double ulp_distance(float got, float want)
{
    if (isnan(want)) return isnan(got) ? 0 : INFINITY;
    if (isinf(want) || isinf(got)) return got == want ? 0 : INFINITY;
    /* ordered integer encoding of floats: the difference counts the floats between */
    int32_t a, b;
    memcpy(&a, &got, 4);
    memcpy(&b, &want, 4);
    if (a < 0) a = INT32_MIN - a;
    if (b < 0) b = INT32_MIN - b;
    return fabs((double)a - (double)b);
}

static double ref_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
static double ref_exp2(double x) { return exp2(x); }
static double ref_gelu_erf(double x) { return isinf(x) ? (x > 0 ? x : -0.0) : 0.5 * x * erfc(-x * 0.70710678118654752440); }

enum { NF = 7 };
static const char *const names[NF] = { "exp", "exp2", "tanh", "sigmoid", "log", "erf", "gelu_erf" };
static double (*const refs[NF])(double) = { exp, ref_exp2, tanh, ref_sigmoid, log, erf, ref_gelu_erf };
static const double bound[NF] = { 2, 2, 2, 3, 1, 2, 5 };

static int run(const float *x, float *const out[NF], size_t n, int threads)
{
    return maps(x, out[0], out[1], out[2], out[3], out[4], out[5], out[6], (int64_t)n, threads);
}

int main(void)
{
    const uint32_t stride = 97;
    size_t n = (size_t)(0xffffffffu / stride) + 1 + 32;
    float *x = malloc(n * sizeof *x), *out[NF];
    if (!x) return 2;
    for (int f = 0; f < NF; f++)
        if (!(out[f] = malloc(n * sizeof(float)))) return 2;
    size_t i = 0;
    for (uint64_t bits = 0; bits <= 0xffffffffu; bits += stride, i++) {
        uint32_t b = (uint32_t)bits;
        memcpy(&x[i], &b, 4);
    }
    const float specials[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 88.72f, 88.73f, -87.34f, -103.97f, -104.0f,
                               127.99f, 128.0f, -149.0f, -150.0f, 0.5f, -0.5f, 1.0f, -1.0f, 0x1p-149f, 0x1p-126f,
                               0x1.fffffep127f, 1.41421354f, 0.707106769f, 3.92f, -3.92f, 1.41421356f, -1.41421356f,
                               -13.5f, -14.5f, 10.0f, 0.99999994f, 1.00000012f };
    for (size_t s = 0; s < sizeof specials / sizeof specials[0]; s++) x[i++] = specials[s];
    n = i;
    int st = run(x, out, n, 2);
    if (st != 0) {
        fprintf(stderr, "launch failed: %d\n", st);
        return 2;
    }
    int failed = 0;
    for (int f = 0; f < NF; f++) {
        double worst = 0;
        float worst_x = 0;
        for (size_t k = 0; k < n; k++) {
            double d = ulp_distance(out[f][k], (float)refs[f](x[k]));
            if (d > worst) worst = d, worst_x = x[k];
        }
        printf("%-8s worst %.0f ulp at x = %a (%g), bound %.0f\n", names[f], worst, worst_x, worst_x, bound[f]);
        if (worst > bound[f]) failed++;
    }
    /* signs and specials that an ulp count does not see */
    float sx[4] = { INFINITY, -INFINITY, 0.0f, -0.0f }, s[NF][4];
    float *so[NF];
    for (int f = 0; f < NF; f++) so[f] = s[f];
    if (run(sx, so, 4, 1) != 0) return 2;
    const float *se = s[0], *sth = s[2], *ssg = s[3], *slg = s[4], *sef = s[5], *sge = s[6];
    if (!(se[0] == INFINITY && se[1] == 0.0f && sth[0] == 1.0f && sth[1] == -1.0f && !signbit(sth[2]) && signbit(sth[3]) &&
          ssg[0] == 1.0f && ssg[1] == 0.0f && slg[0] == INFINITY && isnan(slg[1]) && slg[2] == -INFINITY && slg[3] == -INFINITY &&
          sef[0] == 1.0f && sef[1] == -1.0f && !signbit(sef[2]) && signbit(sef[3]) && sge[0] == INFINITY && sge[1] == 0.0f &&
          signbit(sge[1]) && !signbit(sge[2]) && signbit(sge[3]))) {
        printf("special values wrong: exp(inf)=%g exp(-inf)=%g tanh(inf)=%g tanh(-inf)=%g tanh(0)=%g tanh(-0)=%g "
               "log(inf)=%g log(-inf)=%g log(0)=%g log(-0)=%g erf(±inf)=%g,%g erf(±0)=%g,%g gelu_erf(±inf)=%g,%g\n",
               se[0], se[1], sth[0], sth[1], sth[2], sth[3], slg[0], slg[1], slg[2], slg[3], sef[0], sef[1], sef[2], sef[3], sge[0],
               sge[1]);
        failed++;
    }
    printf("math_accuracy: %d passed, %d failed\n", NF + 1 - failed, failed);
    for (int f = 0; f < NF; f++) free(out[f]);
    free(x);
    return failed != 0;
}
