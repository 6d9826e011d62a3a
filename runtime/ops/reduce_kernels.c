/* reduce_kernels.c — what each kernel of the reduction engine accumulates:
 * its initial state, how it takes n values (as doubles, as int64s, or a
 * contiguous f32/bf16 run through reduce_vec.c's vector loops), and how two
 * partial states combine in position order. NaN rules: a NaN is the extreme
 * of max/min and argmax/argmin, and the first one wins. */
#include <math.h>

#include "reduce_internal.h"

void tkr_red_st_init(Kop k, bool isint, St *s)
{
    s->j = -1;
    s->i = 0;
    s->a = 0;
    switch (k) {
    case K_PROD: s->a = 1, s->i = 1; break;
    case K_MAX: s->a = -INFINITY, s->i = INT64_MIN; break;
    case K_MIN: s->a = INFINITY, s->i = INT64_MAX; break;
    case K_ABSMIN: s->a = INFINITY; break;
    case K_ALL: s->i = 1; break;
    default: break;
    }
    (void)isint;
}

#define LANES 32   /* four 8-double vectors: four independent add chains hide the add latency */

/* Sums doubles in LANES accumulators: a loop the compiler vectorises (f64
 * runs, and the chunk buffers of the dtypes without a vectorised loop). */
TKR_VECTOR_CLONES double tkr_red_sum_f64(const double *p, int64_t n)
{
    double acc[LANES] = { 0 };
    int64_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int k = 0; k < LANES; k++) acc[k] += p[i + k];
    for (; i < n; i++) acc[0] += p[i];
    double s = 0;
    for (int k = 0; k < LANES; k++) s += acc[k];
    return s;
}

/* Feeds n values (as doubles) at reduction positions pos.. into s. */
void tkr_red_feed_f(Kop k, St *s, const double *x, int64_t n, int64_t pos, double shift, double p)
{
    switch (k) {
    case K_SUM: s->a += tkr_red_sum_f64(x, n); return;
    case K_PROD: for (int64_t i = 0; i < n; i++) s->a *= x[i]; return;
    case K_MAX: {
        double m = s->a;
        for (int64_t i = 0; i < n; i++) m = (x[i] > m || x[i] != x[i]) && m == m ? x[i] : m;
        s->a = m;
        return;
    }
    case K_MIN: {
        double m = s->a;
        for (int64_t i = 0; i < n; i++) m = (x[i] < m || x[i] != x[i]) && m == m ? x[i] : m;
        s->a = m;
        return;
    }
    case K_ABSSUM: {
        double acc = 0;
        for (int64_t i = 0; i < n; i++) acc += fabs(x[i]);
        s->a += acc;
        return;
    }
    case K_SQSUM: {
        double acc = 0;
        for (int64_t i = 0; i < n; i++) acc += x[i] * x[i];
        s->a += acc;
        return;
    }
    case K_POWSUM: for (int64_t i = 0; i < n; i++) s->a += pow(fabs(x[i]), p); return;
    case K_ABSMAX:
        for (int64_t i = 0; i < n; i++) s->a = (fabs(x[i]) > s->a || x[i] != x[i]) && s->a == s->a ? fabs(x[i]) : s->a;
        return;
    case K_ABSMIN:
        for (int64_t i = 0; i < n; i++) s->a = (fabs(x[i]) < s->a || x[i] != x[i]) && s->a == s->a ? fabs(x[i]) : s->a;
        return;
    case K_ALL: for (int64_t i = 0; i < n; i++) s->i &= x[i] != 0; return;
    case K_ANY: for (int64_t i = 0; i < n; i++) s->i |= x[i] != 0; return;
    case K_SUMEXP: {
        double acc = 0;
        for (int64_t i = 0; i < n; i++) acc += exp(x[i] - shift);
        s->a += acc;
        return;
    }
    case K_SQDEV: {
        double acc = 0;
        for (int64_t i = 0; i < n; i++) acc += (x[i] - shift) * (x[i] - shift);
        s->a += acc;
        return;
    }
    case K_ARGMAX:
    case K_ARGMIN:
        for (int64_t i = 0; i < n; i++) {
            if (s->j >= 0 && s->a != s->a) return;   /* a NaN is the extreme: the first one wins */
            bool better = k == K_ARGMAX ? x[i] > s->a : x[i] < s->a;
            if (s->j < 0 || better || x[i] != x[i]) s->a = x[i], s->j = pos + i;
        }
        return;
    }
}

void tkr_red_feed_i(Kop k, St *s, const int64_t *x, int64_t n, int64_t pos)
{
    switch (k) {
    case K_SUM: {
        uint64_t acc = (uint64_t)s->i;   /* wraps like PyTorch, without signed overflow */
        for (int64_t i = 0; i < n; i++) acc += (uint64_t)x[i];
        s->i = (int64_t)acc;
        return;
    }
    case K_PROD: {
        uint64_t acc = (uint64_t)s->i;
        for (int64_t i = 0; i < n; i++) acc *= (uint64_t)x[i];
        s->i = (int64_t)acc;
        return;
    }
    case K_MAX: for (int64_t i = 0; i < n; i++) s->i = x[i] > s->i ? x[i] : s->i; return;
    case K_MIN: for (int64_t i = 0; i < n; i++) s->i = x[i] < s->i ? x[i] : s->i; return;
    case K_ALL: for (int64_t i = 0; i < n; i++) s->i &= x[i] != 0; return;
    case K_ANY: for (int64_t i = 0; i < n; i++) s->i |= x[i] != 0; return;
    case K_ARGMAX:
    case K_ARGMIN:
        for (int64_t i = 0; i < n; i++) {
            bool better = k == K_ARGMAX ? x[i] > s->i : x[i] < s->i;
            if (s->j < 0 || better) s->i = x[i], s->j = pos + i;
        }
        return;
    default: return;   /* float-only kernels never run on ints */
    }
}

/* s = s (earlier positions) combined with t (later positions). */
void tkr_red_st_combine(Kop k, bool isint, St *s, const St *t)
{
    switch (k) {
    case K_PROD: s->a *= t->a, s->i = (int64_t)((uint64_t)s->i * (uint64_t)t->i); return;
    case K_MAX:
    case K_MIN:
    case K_ABSMAX:
    case K_ABSMIN:
        if (isint) {
            if (k == K_MAX ? t->i > s->i : t->i < s->i) s->i = t->i;
        } else if (s->a == s->a) {
            bool up = k == K_MAX || k == K_ABSMAX;
            if (t->a != t->a || (up ? t->a > s->a : t->a < s->a)) s->a = t->a;
        }
        return;
    case K_ALL: s->i &= t->i; return;
    case K_ANY: s->i |= t->i; return;
    case K_ARGMAX:
    case K_ARGMIN:
        if (t->j < 0) return;
        if (s->j < 0) {
            *s = *t;
            return;
        }
        if (isint) {
            if (k == K_ARGMAX ? t->i > s->i : t->i < s->i) *s = *t;
        } else if (s->a == s->a && (t->a != t->a || (k == K_ARGMAX ? t->a > s->a : t->a < s->a))) {
            *s = *t;
        }
        return;
    default: s->a += t->a, s->i = (int64_t)((uint64_t)s->i + (uint64_t)t->i); return;
    }
}

/* Feeds a contiguous run of n f32 (or bf16) elements at reduction positions
 * pos.. to kernel k through its vectorised loop; false if k has none (then
 * the caller takes the buffered path). */
bool tkr_red_feed_vec(Kop k, bool bf16, St *s, const char *p, int64_t n, int64_t pos, double shift)
{
    typedef double (*SumFn)(const void *, int64_t, float);
    SumFn sum = NULL;
    switch (k) {
    case K_SUM: sum = bf16 ? tkr_vsum_bf16 : tkr_vsum_f32; break;
    case K_SQSUM: sum = bf16 ? tkr_vsumsq_bf16 : tkr_vsumsq_f32; break;
    case K_ABSSUM: sum = bf16 ? tkr_vabssum_bf16 : tkr_vabssum_f32; break;
    case K_SQDEV: sum = bf16 ? tkr_vsqdev_bf16 : tkr_vsqdev_f32; break;
    case K_SUMEXP: sum = bf16 ? tkr_vsumexp_bf16 : tkr_vsumexp_f32; break;
    case K_PROD: s->a *= (bf16 ? tkr_vprod_bf16 : tkr_vprod_f32)(p, n); return true;
    case K_MAX:
    case K_MIN:
    case K_ABSMAX:
    case K_ABSMIN: {
        if (n == 0) return true;
        bool up = k == K_MAX || k == K_ABSMAX;
        float v = k == K_MAX || k == K_MIN ? (bf16 ? tkr_vextreme_bf16 : tkr_vextreme_f32)(p, n, up)
                                           : (bf16 ? tkr_vabsextreme_bf16 : tkr_vabsextreme_f32)(p, n, up);
        St t = { v, 0, -1 };
        tkr_red_st_combine(k, false, s, &t);
        return true;
    }
    case K_ARGMAX:
    case K_ARGMIN: {
        if (n == 0) return true;
        float v;
        int64_t at = (bf16 ? tkr_vargext_bf16 : tkr_vargext_f32)(p, n, k == K_ARGMAX, &v);
        St t = { v, 0, pos + at };   /* later positions than s's: st_combine keeps s on a tie */
        tkr_red_st_combine(k, false, s, &t);
        return true;
    }
    default: return false;
    }
    /* the shift (var's mean, logsumexp's max) is rounded to f32 like the elements it is taken from */
    s->a += sum(p, n, (float)shift);
    return true;
}
