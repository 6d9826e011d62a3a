/* accuracy.c — how far the CPU code generator's exp, exp2, tanh and sigmoid
 * (lower/emit_math.c: polynomials, not libm) are from the correctly rounded
 * f32 result, over a sweep of f32 bit patterns covering every binade of both
 * signs (every 97th pattern, ~44 million values) plus the special values.
 *
 * The reference is the double-precision C library function rounded to f32.
 * Passes if every result is within the documented bound (ulps of f32 at the
 * reference value, subnormals counted in units of the smallest subnormal):
 * exp, exp2, tanh ≤ 2 ulp; sigmoid ≤ 3 ulp (exp, an add and a division);
 * and the special values are exact: NaN → NaN, exp(-inf) = 0, exp(inf) = inf,
 * tanh(±inf) = ±1, tanh(±0) = ±0. Prints the worst case of each function. */
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

int main(void)
{
    const uint32_t stride = 97;
    size_t n = (size_t)(0xffffffffu / stride) + 1 + 16;
    float *x = malloc(n * sizeof *x), *out[4];
    for (int f = 0; f < 4; f++) out[f] = malloc(n * sizeof(float));
    if (!x || !out[0] || !out[1] || !out[2] || !out[3]) return 2;
    size_t i = 0;
    for (uint64_t bits = 0; bits <= 0xffffffffu; bits += stride, i++) {
        uint32_t b = (uint32_t)bits;
        memcpy(&x[i], &b, 4);
    }
    const float specials[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 88.72f, 88.73f, -87.34f, -103.97f, -104.0f,
                               127.99f, 128.0f, -149.0f, -150.0f, 0.5f, -0.5f };
    for (size_t s = 0; s < sizeof specials / sizeof specials[0]; s++) x[i++] = specials[s];
    n = i;
    int st = maps(x, out[0], out[1], out[2], out[3], (int64_t)n, 2);
    if (st != 0) {
        fprintf(stderr, "launch failed: %d\n", st);
        return 2;
    }
    const char *names[4] = { "exp", "exp2", "tanh", "sigmoid" };
    double (*refs[4])(double) = { exp, ref_exp2, tanh, ref_sigmoid };
    const double bound[4] = { 2, 2, 2, 3 };
    int failed = 0;
    for (int f = 0; f < 4; f++) {
        double worst = 0;
        float worst_x = 0;
        for (size_t k = 0; k < n; k++) {
            double d = ulp_distance(out[f][k], (float)refs[f](x[k]));
            if (d > worst) worst = d, worst_x = x[k];
        }
        printf("%-8s worst %.0f ulp at x = %a (%g)\n", names[f], worst, worst_x, worst_x);
        if (worst > bound[f]) failed++;
    }
    /* signs and specials that an ulp count does not see */
    float sx[4] = { INFINITY, -INFINITY, 0.0f, -0.0f }, se[4], se2[4], sth[4], ssg[4];
    if (maps(sx, se, se2, sth, ssg, 4, 1) != 0) return 2;
    if (!(se[0] == INFINITY && se[1] == 0.0f && sth[0] == 1.0f && sth[1] == -1.0f && !signbit(sth[2]) && signbit(sth[3]) &&
          ssg[0] == 1.0f && ssg[1] == 0.0f)) {
        printf("special values wrong: exp(inf)=%g exp(-inf)=%g tanh(inf)=%g tanh(-inf)=%g tanh(0)=%g tanh(-0)=%g\n", se[0],
               se[1], sth[0], sth[1], sth[2], sth[3]);
        failed++;
    }
    printf("math_accuracy: %d passed, %d failed\n", 5 - failed, failed);
    for (int f = 0; f < 4; f++) free(out[f]);
    free(x);
    return failed != 0;
}
