/* reduce.c — reductions over any set of axes (tk_reduce, tk_sum, tk_mean)
 * and argmax/argmin: axis handling, output shapes, dtype rules and the
 * reduction engine.
 *
 * The engine sees the input as kept dims (outer, row-major like the output)
 * and reduced dims (inner, sorted by stride so the innermost is the densest),
 * each coalesced. Every output is reduced in a fixed order. Many outputs:
 * parallel over outputs, each reduced serially. Few outputs and a long
 * reduction: each output's reduction is cut into pieces fixed by its length
 * (tkr_pieces), per-piece partials are computed in parallel and combined in
 * piece order. So the bits never depend on the thread count.
 *
 * Accumulation: contiguous f32 and bf16 runs of sums, norms, var's squared
 * deviations, logsumexp's exps, max and min go through reduce_vec.c's vector
 * loops (f32 lanes in fixed 4096-element blocks whose partials are added in
 * double: at the read bandwidth, and more accurate than PyTorch's f32 cascade
 * on 16 M mixed values, see test_reduce.c), as do prod (double lanes) and
 * argmax/argmin; all/any search contiguous runs of any dtype vectorised
 * (tkr_vfind). Everything else accumulates in double.
 * Results are rounded once to the output dtype. Ints and
 * bool accumulate in int64 (wrapping, as PyTorch). var/std take two passes
 * (the mean, then the sum of squared deviations); logsumexp takes two (the
 * max, then the sum of exp(x - max)), as PyTorch does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "elementwise.h"   /* tkr_f32_unary: the vector exp of logsumexp's column loop */
#include "reduce.h"
#include "tk/dtype.h"
#include "tk/ops.h"

/* ------------------------------------------------------------ run loaders */

void tkr_load_run_f(const char *p, int64_t s, tk_dtype t, int64_t n, double *d)
{
    switch (t) {
    case TK_DTYPE_F32: for (int64_t i = 0; i < n; i++) d[i] = *(const float *)(p + i * s); return;
    case TK_DTYPE_F64: for (int64_t i = 0; i < n; i++) d[i] = *(const double *)(p + i * s); return;
    case TK_DTYPE_F16: for (int64_t i = 0; i < n; i++) d[i] = tk_f16_to_f32(*(const uint16_t *)(p + i * s)); return;
    case TK_DTYPE_BF16: for (int64_t i = 0; i < n; i++) d[i] = tk_bf16_to_f32(*(const uint16_t *)(p + i * s)); return;
    case TK_DTYPE_I32: for (int64_t i = 0; i < n; i++) d[i] = *(const int32_t *)(p + i * s); return;
    case TK_DTYPE_I64: for (int64_t i = 0; i < n; i++) d[i] = (double)*(const int64_t *)(p + i * s); return;
    default: for (int64_t i = 0; i < n; i++) d[i] = tkr_load_f(p + i * s, t); return;
    }
}

void tkr_load_run_i(const char *p, int64_t s, tk_dtype t, int64_t n, int64_t *d)
{
    switch (t) {
    case TK_DTYPE_I32: for (int64_t i = 0; i < n; i++) d[i] = *(const int32_t *)(p + i * s); return;
    case TK_DTYPE_I64: for (int64_t i = 0; i < n; i++) d[i] = *(const int64_t *)(p + i * s); return;
    case TK_DTYPE_BOOL: for (int64_t i = 0; i < n; i++) d[i] = *(const uint8_t *)(p + i * s) != 0; return;
    case TK_DTYPE_U8: for (int64_t i = 0; i < n; i++) d[i] = *(const uint8_t *)(p + i * s); return;
    case TK_DTYPE_I8: for (int64_t i = 0; i < n; i++) d[i] = *(const int8_t *)(p + i * s); return;
    case TK_DTYPE_I16: for (int64_t i = 0; i < n; i++) d[i] = *(const int16_t *)(p + i * s); return;
    default: for (int64_t i = 0; i < n; i++) d[i] = tkr_load_i(p + i * s, t); return;
    }
}

/* ------------------------------------------------------------ lines (shared with scan, softmax, sort) */

void tkr_lines_init(TkrLines *g, const tk_tensor *t, int dim)
{
    g->len = t->ndim ? t->shape[dim] : 1;
    g->step = t->ndim ? t->strides[dim] : 0;
    g->nouter = 0;
    g->nlines = 1;
    for (int d = 0; d < t->ndim; d++) {
        if (d == dim) continue;
        g->outer_shape[g->nouter] = t->shape[d];
        g->outer_strides[g->nouter++] = t->strides[d];
        g->nlines *= t->shape[d];
    }
}

int64_t tkr_lines_start(const TkrLines *g, int64_t line)
{
    int64_t off = 0;
    for (int d = g->nouter - 1; d >= 0; d--) {
        off += (line % g->outer_shape[d]) * g->outer_strides[d];
        line /= g->outer_shape[d];
    }
    return off;
}

/* ------------------------------------------------------------ geometry */

typedef struct {
    int nk, nr;
    int64_t kshape[TK_MAX_DIMS], kstride[TK_MAX_DIMS];   /* kept dims, row-major like the output (elements) */
    int64_t rshape[TK_MAX_DIMS], rstride[TK_MAX_DIMS];   /* reduced dims, the densest innermost */
    int64_t M, N;                                        /* outputs, elements per output */
} Geo;

/* Drops size-1 dims and merges neighbours that step as one. */
static int coalesce(int n, int64_t *shape, int64_t *stride)
{
    int m = 0;
    for (int d = 0; d < n; d++) {
        if (shape[d] == 1) continue;
        if (m > 0 && stride[m - 1] == stride[d] * shape[d]) {
            shape[m - 1] *= shape[d];
            stride[m - 1] = stride[d];
            continue;
        }
        shape[m] = shape[d];
        stride[m++] = stride[d];
    }
    return m;
}

static void geo_init(Geo *g, const tk_tensor *a, const bool *reduced)
{
    g->nk = g->nr = 0;
    g->M = g->N = 1;
    for (int d = 0; d < a->ndim; d++) {
        if (reduced[d]) {
            g->N *= a->shape[d];
            g->rshape[g->nr] = a->shape[d];
            g->rstride[g->nr++] = a->strides[d];
        } else {
            g->M *= a->shape[d];
            g->kshape[g->nk] = a->shape[d];
            g->kstride[g->nk++] = a->strides[d];
        }
    }
    /* the reduction order is ours to choose: walk memory densest-innermost (stable for equal strides) */
    for (int i = 1; i < g->nr; i++)
        for (int j = i; j > 0 && g->rstride[j - 1] < g->rstride[j]; j--) {
            int64_t s = g->rstride[j], n = g->rshape[j];
            g->rstride[j] = g->rstride[j - 1], g->rshape[j] = g->rshape[j - 1];
            g->rstride[j - 1] = s, g->rshape[j - 1] = n;
        }
    if (g->M > 0 && g->N > 0) {
        g->nk = coalesce(g->nk, g->kshape, g->kstride);
        g->nr = coalesce(g->nr, g->rshape, g->rstride);
    }
}

static int64_t kept_offset(const Geo *g, int64_t o)
{
    int64_t off = 0;
    for (int d = g->nk - 1; d >= 0; d--) {
        off += (o % g->kshape[d]) * g->kstride[d];
        o /= g->kshape[d];
    }
    return off;
}

/* ------------------------------------------------------------ kernels */

/* What the engine accumulates; the public ops finish from these. */
typedef enum {
    K_SUM, K_PROD, K_MAX, K_MIN,
    K_ABSSUM, K_SQSUM, K_POWSUM, K_ABSMAX, K_ABSMIN,   /* norms */
    K_ALL, K_ANY,
    K_SUMEXP,   /* sum of exp(x - shift[o]) */
    K_SQDEV,    /* sum of (x - shift[o])^2 */
    K_ARGMAX, K_ARGMIN,
} Kop;

typedef struct {
    double a;    /* float accumulator, or the best value of arg ops */
    int64_t i;   /* int accumulator, or the best value of arg ops on ints */
    int64_t j;   /* arg ops: the best position, -1 before any */
} St;

static void st_init(Kop k, bool isint, St *s)
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
TKR_VECTOR_CLONES static double sum_f64(const double *p, int64_t n)
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
static void feed_f(Kop k, St *s, const double *x, int64_t n, int64_t pos, double shift, double p)
{
    switch (k) {
    case K_SUM: s->a += sum_f64(x, n); return;
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

static void feed_i(Kop k, St *s, const int64_t *x, int64_t n, int64_t pos)
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
static void st_combine(Kop k, bool isint, St *s, const St *t)
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

/* ------------------------------------------------------------ engine */

#define CHUNK 256
#define PIECE_GRAIN 32768     /* reduction elements per piece of a long reduction */
#define FEW_OUTPUTS 64        /* below this many outputs a long reduction is cut into pieces */

typedef struct {
    const Geo *g;
    const char *in;
    tk_dtype dt;
    int64_t es;
    Kop k;
    bool isint;
    const double *shift;   /* per output (K_SUMEXP, K_SQDEV) */
    double p;              /* K_POWSUM */
    int64_t P;             /* pieces per output (1: whole) */
    St *parts;             /* M * P partials when P > 1 */
    double *res_f;         /* per-output results: float accumulators */
    int64_t *res_i;        /* int accumulators and arg positions */
    bool flip;             /* u64 max/min/arg: values carry their top bit flipped (below) */
} Job;

/* u64 values ordered as int64s: flipping the top bit maps unsigned order onto
 * signed order, so the int64 max/min/argmax/argmin compare them right. */
#define U64_FLIP INT64_MIN
static bool order_kernel(Kop k) { return k == K_MAX || k == K_MIN || k == K_ARGMAX || k == K_ARGMIN; }

/* Feeds a contiguous run of n f32 (or bf16) elements at reduction positions
 * pos.. to kernel k through its vectorised loop; false if k has none (then
 * the caller takes the buffered path). */
static bool feed_vec(Kop k, bool bf16, St *s, const char *p, int64_t n, int64_t pos, double shift)
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
        st_combine(k, false, s, &t);
        return true;
    }
    case K_ARGMAX:
    case K_ARGMIN: {
        if (n == 0) return true;
        float v;
        int64_t at = (bf16 ? tkr_vargext_bf16 : tkr_vargext_f32)(p, n, k == K_ARGMAX, &v);
        St t = { v, 0, pos + at };   /* later positions than s's: st_combine keeps s on a tie */
        st_combine(k, false, s, &t);
        return true;
    }
    default: return false;
    }
    /* the shift (var's mean, logsumexp's max) is rounded to f32 like the elements it is taken from */
    s->a += sum(p, n, (float)shift);
    return true;
}

/* The bits that make an element of t nonzero for all/any: floats without
 * their sign (-0 is zero, NaN is not), ints whole. */
static uint64_t nonzero_mask(tk_dtype t)
{
    switch (t) {
    case TK_DTYPE_F64: return 0x7fffffffffffffffull;
    case TK_DTYPE_F32: return 0x7fffffffull;
    case TK_DTYPE_F16:
    case TK_DTYPE_BF16: return 0x7fffull;
    default: return ~0ull;
    }
}

/* all/any of a contiguous run of any dtype: one vectorised search (tkr_vfind); false for other kernels. */
static bool feed_logic(const Job *J, St *s, const char *p, int64_t n)
{
    if (J->k != K_ALL && J->k != K_ANY) return false;
    if (J->k == K_ALL ? s->i == 0 : s->i != 0) return true;   /* decided already */
    bool found = tkr_vfind(p, n, (int)J->es, nonzero_mask(J->dt), J->k == K_ALL);
    s->i = J->k == K_ALL ? !found : found;
    return true;
}

/* Feeds one strided run of n elements at reduction positions pos... */
static void feed_run(const Job *J, St *s, const char *p, int64_t stride, int64_t n, int64_t pos, double shift)
{
    /* the hot cases straight from memory: contiguous f32/bf16 runs (reduce_vec.c), all/any and f64 sums */
    if (stride == J->es && (J->dt == TK_DTYPE_F32 || J->dt == TK_DTYPE_BF16) &&
        feed_vec(J->k, J->dt == TK_DTYPE_BF16, s, p, n, pos, shift))
        return;
    if (stride == J->es && feed_logic(J, s, p, n)) return;
    if (J->dt == TK_DTYPE_F64 && stride == 8 && J->k == K_SUM) {
        s->a += sum_f64((const double *)p, n);
        return;
    }
    for (int64_t c = 0; c < n; c += CHUNK) {
        int64_t m = n - c < CHUNK ? n - c : CHUNK;
        if (J->isint) {
            int64_t buf[CHUNK];
            tkr_load_run_i(p + c * stride, stride, J->dt, m, buf);
            if (J->flip)
                for (int64_t i = 0; i < m; i++) buf[i] ^= U64_FLIP;
            feed_i(J->k, s, buf, m, pos + c);
        } else {
            double buf[CHUNK];
            tkr_load_run_f(p + c * stride, stride, J->dt, m, buf);
            feed_f(J->k, s, buf, m, pos + c, shift, J->p);
        }
    }
}

/* Reduces positions [b, e) of output o into s, walking the reduced dims in row-major order. */
static void reduce_range(const Job *J, int64_t o, int64_t b, int64_t e, St *s)
{
    if (b >= e) return;   /* an empty reduction keeps the initial state */
    const Geo *g = J->g;
    const char *base = J->in + kept_offset(g, o) * J->es;
    double shift = J->shift ? J->shift[o] : 0;
    int nr = g->nr;
    if (nr == 0) {   /* one element per output */
        feed_run(J, s, base, 0, 1, 0, shift);
        return;
    }
    int64_t idx[TK_MAX_DIMS], rem = b;
    for (int d = nr - 1; d >= 0; d--) {
        idx[d] = rem % g->rshape[d];
        rem /= g->rshape[d];
    }
    int64_t inner = g->rshape[nr - 1], istride = g->rstride[nr - 1] * J->es;
    for (int64_t pos = b; pos < e;) {
        int64_t off = 0;
        for (int d = 0; d < nr; d++) off += idx[d] * g->rstride[d];
        int64_t run = inner - idx[nr - 1];
        if (run > e - pos) run = e - pos;
        feed_run(J, s, base + off * J->es, istride, run, pos, shift);
        pos += run;
        idx[nr - 1] += run;
        for (int d = nr - 1; d > 0 && idx[d] == g->rshape[d]; d--) idx[d] = 0, idx[d - 1]++;
    }
}

static void emit(const Job *J, int64_t o, const St *s)
{
    if (J->k == K_ARGMAX || J->k == K_ARGMIN) J->res_i[o] = s->j;
    else if (J->isint || J->k == K_ALL || J->k == K_ANY) J->res_i[o] = J->flip ? s->i ^ U64_FLIP : s->i;
    else J->res_f[o] = s->a;
}

static void whole_outputs(int64_t b, int64_t e, void *arg)
{
    const Job *J = arg;
    for (int64_t o = b; o < e; o++) {
        St s;
        st_init(J->k, J->isint, &s);
        reduce_range(J, o, 0, J->g->N, &s);
        emit(J, o, &s);
    }
}

static void partial_pieces(int64_t b, int64_t e, void *arg)
{
    const Job *J = arg;
    for (int64_t t = b; t < e; t++) {
        int64_t o = t / J->P, rb, re;
        tkr_piece_range(J->g->N, PIECE_GRAIN, t % J->P, &rb, &re);
        st_init(J->k, J->isint, &J->parts[t]);
        reduce_range(J, o, rb, re, &J->parts[t]);
    }
}

/* Sums (of x, x², |x|, (x - mean)²: sum, mean, norm 1 and 2, var, std) and
 * max/min over one strided dim whose kept neighbours are contiguous (a sum
 * over the rows of [R, C]) stream like a sum over all of it: a task adds whole
 * row segments of up to COL_CHUNK columns into a vector of partials, so
 * memory is read in long sequential runs and the inner loop vectorises.
 * f32 and bf16 rows are added in f32 lanes for ROW_GROUP rows at a time,
 * then into double partials (f64 in double throughout). Long reductions are
 * cut into pieces of rows fixed by the shape (never by the thread count),
 * whose partial vectors are added in piece order: each output adds the
 * same values in the same order on any thread count. */
#define COL_CHUNK 2048        /* columns per task: 8 KiB of f32 per row, partials in L1 */
#define ROW_GROUP 64          /* rows added in f32 before the double partials take them */
#define ROW_PIECE 256         /* rows per piece of a long column reduction (a multiple of ROW_GROUP) */
#define PIECE_PARTIALS (4 << 20)   /* at most this many doubles of piece partials: pieces grow to fit */

typedef struct {
    const Job *J;
    int64_t inner, chunks, rows_per_piece, pieces;   /* columns of a kept row, column chunks per row, row pieces */
    double *dst;   /* pieces × M partials, or res_f when pieces == 1 (the float results) */
    int64_t *pos;  /* argmax/argmin: pieces × M positions beside dst's values */
} Columns;

/* The running max (up) or min of each of w columns over rows [r0, r1) into
 * ext, NaN once a NaN is seen (PyTorch's amax/amin): `x wins if it is
 * greater or NaN` keeps a NaN, since nothing compares greater than it;
 * f32/bf16 in f32 lanes. */
#define EXT_STEP(m, x, up) (((up) ? (x) > (m) : (x) < (m)) || (x) != (x) ? (x) : (m))

TKR_VECTOR_CLONES static void column_extremes(const Job *J, const char *base, int64_t rstep, int64_t r0, int64_t r1, int64_t w,
                                              bool up, double *ext)
{
    float m[COL_CHUNK], init = up ? -INFINITY : INFINITY;
    for (int64_t j = 0; j < w; j++) m[j] = init, ext[j] = init;
    for (int64_t r = r0; r < r1; r++) {
        const char *row = base + r * rstep;
        if (J->dt == TK_DTYPE_F64) {
            const double *x = (const double *)row;
            for (int64_t j = 0; j < w; j++) ext[j] = EXT_STEP(ext[j], x[j], up);
            continue;
        }
        float wide[COL_CHUNK];
        const float *x = (const float *)row;
        if (J->dt == TK_DTYPE_BF16) {
            const uint16_t *p = (const uint16_t *)row;
            for (int64_t j = 0; j < w; j++) {
                uint32_t u = (uint32_t)p[j] << 16;
                memcpy(&wide[j], &u, 4);
            }
            x = wide;
        }
        if (up)
            for (int64_t j = 0; j < w; j++) m[j] = EXT_STEP(m[j], x[j], true);
        else
            for (int64_t j = 0; j < w; j++) m[j] = EXT_STEP(m[j], x[j], false);
    }
    if (J->dt != TK_DTYPE_F64)
        for (int64_t j = 0; j < w; j++) ext[j] = m[j];
}

/* The first max (up) or min of each of w columns over rows [r0, r1), or its
 * first NaN, into val and its row into pos: row r0 starts each column, a
 * later row takes over only if strictly better (or the first NaN), so the
 * first of equals stays; f32/bf16 compared in f32. */
#define ARG_TAKE(m, x, up) ((((up) ? (x) > (m) : (x) < (m)) || (x) != (x)) && (m) == (m))

TKR_VECTOR_CLONES static void column_args(const Job *J, const char *base, int64_t rstep, int64_t r0, int64_t r1, int64_t w, bool up,
                                          double *val, int64_t *pos)
{
    if (J->dt == TK_DTYPE_F64) {
        for (int64_t j = 0; j < w; j++) val[j] = ((const double *)(base + r0 * rstep))[j], pos[j] = r0;
        for (int64_t r = r0 + 1; r < r1; r++) {
            const double *x = (const double *)(base + r * rstep);
            for (int64_t j = 0; j < w; j++) {
                bool take = ARG_TAKE(val[j], x[j], up);
                val[j] = take ? x[j] : val[j];
                pos[j] = take ? r : pos[j];
            }
        }
        return;
    }
    float m[COL_CHUNK], wide[COL_CHUNK];
    for (int64_t r = r0; r < r1; r++) {
        const float *x = (const float *)(base + r * rstep);
        if (J->dt == TK_DTYPE_BF16) {
            const uint16_t *h = (const uint16_t *)(base + r * rstep);
            for (int64_t j = 0; j < w; j++) {
                uint32_t u = (uint32_t)h[j] << 16;
                memcpy(&wide[j], &u, 4);
            }
            x = wide;
        }
        if (r == r0) {
            for (int64_t j = 0; j < w; j++) m[j] = x[j], pos[j] = r0;
        } else if (up) {
            for (int64_t j = 0; j < w; j++) {
                bool take = ARG_TAKE(m[j], x[j], true);
                m[j] = take ? x[j] : m[j];
                pos[j] = take ? r : pos[j];
            }
        } else {
            for (int64_t j = 0; j < w; j++) {
                bool take = ARG_TAKE(m[j], x[j], false);
                m[j] = take ? x[j] : m[j];
                pos[j] = take ? r : pos[j];
            }
        }
    }
    for (int64_t j = 0; j < w; j++) val[j] = m[j];
}

/* all (want_zero: is a zero among the rows?) or any (is a nonzero?) of each
 * of w columns over rows [r0, r1), elements of es bytes masked as
 * nonzero_mask says, into out as the op's 0/1 result. */
#define COLUMN_FIND(T)                                                                             \
    for (int64_t r = r0; r < r1; r++) {                                                            \
        const T *x = (const T *)(base + r * rstep);                                                \
        if (want_zero)                                                                             \
            for (int64_t j = 0; j < w; j++) found[j] |= (x[j] & (T)mask) == 0;                     \
        else                                                                                       \
            for (int64_t j = 0; j < w; j++) found[j] |= (x[j] & (T)mask) != 0;                     \
    }

TKR_VECTOR_CLONES static void column_logic(const Job *J, const char *base, int64_t rstep, int64_t r0, int64_t r1, int64_t w,
                                           double *out)
{
    bool want_zero = J->k == K_ALL;
    uint64_t mask = nonzero_mask(J->dt);
    uint8_t found[COL_CHUNK] = { 0 };
    switch (J->es) {
    case 1: COLUMN_FIND(uint8_t) break;
    case 2: COLUMN_FIND(uint16_t) break;
    case 4: COLUMN_FIND(uint32_t) break;
    default: COLUMN_FIND(uint64_t) break;
    }
    for (int64_t j = 0; j < w; j++) out[j] = want_zero ? !found[j] : found[j];
}

TKR_VECTOR_CLONES static void column_task(const Columns *C, int64_t task)
{
    const Job *J = C->J;
    const Geo *g = J->g;
    int64_t piece = task % C->pieces, chunk = task / C->pieces % C->chunks, outer = task / C->pieces / C->chunks;
    int64_t c0 = chunk * COL_CHUNK, w = C->inner - c0 < COL_CHUNK ? C->inner - c0 : COL_CHUNK, o = outer * C->inner + c0;
    int64_t r0 = piece * C->rows_per_piece, r1 = r0 + C->rows_per_piece < g->N ? r0 + C->rows_per_piece : g->N;
    const char *base = J->in + kept_offset(g, o) * J->es;
    int64_t rstep = g->rstride[0] * J->es;
    double acc[COL_CHUNK];
    if (J->k == K_MAX || J->k == K_MIN) {   /* exact, so any order; a NaN sticks */
        column_extremes(J, base, rstep, r0, r1, w, J->k == K_MAX, acc);
        memcpy(C->dst + piece * g->M + o, acc, (size_t)w * sizeof(double));
        return;
    }
    if (J->k == K_ARGMAX || J->k == K_ARGMIN) {   /* exact too: the first extreme of the piece */
        column_args(J, base, rstep, r0, r1, w, J->k == K_ARGMAX, C->dst + piece * g->M + o, C->pos + piece * g->M + o);
        return;
    }
    if (J->k == K_ALL || J->k == K_ANY) {
        column_logic(J, base, rstep, r0, r1, w, C->dst + piece * g->M + o);
        return;
    }
    if (J->k == K_PROD) {   /* in double, row after row (f32/bf16 widened) */
        for (int64_t j = 0; j < w; j++) acc[j] = 1;
        for (int64_t r = r0; r < r1; r++) {
            const char *row = base + r * rstep;
            if (J->dt == TK_DTYPE_F64)
                for (int64_t j = 0; j < w; j++) acc[j] *= ((const double *)row)[j];
            else if (J->dt == TK_DTYPE_F32)
                for (int64_t j = 0; j < w; j++) acc[j] *= ((const float *)row)[j];
            else
                for (int64_t j = 0; j < w; j++) acc[j] *= tk_bf16_to_f32(((const uint16_t *)row)[j]);
        }
        memcpy(C->dst + piece * g->M + o, acc, (size_t)w * sizeof(double));
        return;
    }
    /* the sums: of x, x², |x|, (x - the output's mean)² or exp(x - the output's max) */
    const double *shift = J->k == K_SQDEV || J->k == K_SUMEXP ? J->shift + o : NULL;
    for (int64_t j = 0; j < w; j++) acc[j] = 0;
    if (J->dt == TK_DTYPE_F64) {
        for (int64_t r = r0; r < r1; r++) {
            const double *x = (const double *)(base + r * rstep);
            switch (J->k) {
            case K_SUM: for (int64_t j = 0; j < w; j++) acc[j] += x[j]; break;
            case K_SQSUM: for (int64_t j = 0; j < w; j++) acc[j] += x[j] * x[j]; break;
            case K_ABSSUM: for (int64_t j = 0; j < w; j++) acc[j] += fabs(x[j]); break;
            case K_SUMEXP: for (int64_t j = 0; j < w; j++) acc[j] += exp(x[j] - shift[j]); break;
            default: for (int64_t j = 0; j < w; j++) acc[j] += (x[j] - shift[j]) * (x[j] - shift[j]); break;
            }
        }
        memcpy(C->dst + piece * g->M + o, acc, (size_t)w * sizeof(double));
        return;
    }
    float facc[COL_CHUNK], fshift[COL_CHUNK], wide[COL_CHUNK], ex[COL_CHUNK];
    if (shift)   /* rounded to f32 like the elements, as the row loops do */
        for (int64_t j = 0; j < w; j++) fshift[j] = (float)shift[j];
    for (int64_t r = r0; r < r1;) {
        int64_t rend = r + ROW_GROUP < r1 ? r + ROW_GROUP : r1;
        for (int64_t j = 0; j < w; j++) facc[j] = 0;
        for (; r < rend; r++) {
            const float *x = (const float *)(base + r * rstep);
            if (J->dt == TK_DTYPE_BF16) {   /* the top half of an f32 */
                const uint16_t *h = (const uint16_t *)(base + r * rstep);
                for (int64_t j = 0; j < w; j++) {
                    uint32_t u = (uint32_t)h[j] << 16;
                    memcpy(&wide[j], &u, 4);
                }
                x = wide;
            }
            switch (J->k) {
            case K_SUM: for (int64_t j = 0; j < w; j++) facc[j] += x[j]; break;
            case K_SQSUM: for (int64_t j = 0; j < w; j++) facc[j] += x[j] * x[j]; break;
            case K_ABSSUM: for (int64_t j = 0; j < w; j++) facc[j] += fabsf(x[j]); break;
            case K_SUMEXP:   /* the row's differences, then its exps 16 lanes at a time */
                for (int64_t j = 0; j < w; j++) ex[j] = x[j] - fshift[j];
                tkr_f32_unary(TK_EXP, ex, ex, w);
                for (int64_t j = 0; j < w; j++) facc[j] += ex[j];
                break;
            default: for (int64_t j = 0; j < w; j++) facc[j] += (x[j] - fshift[j]) * (x[j] - fshift[j]); break;
            }
        }
        for (int64_t j = 0; j < w; j++) acc[j] += facc[j];
    }
    memcpy(C->dst + piece * g->M + o, acc, (size_t)w * sizeof(double));
}

static void column_tasks(int64_t b, int64_t e, void *arg)
{
    for (int64_t t = b; t < e; t++) column_task(arg, t);
}

/* Every output of g over one strided dim, the kept innermost contiguous:
 * sums, products, max/min into J->res_f; argmax/argmin and all/any (whose
 * results are positions or bools) through piece partials and emit. */
static tk_status column_sums(tk_context *ctx, const char *op, const Job *J)
{
    const Geo *g = J->g;
    bool to_res_i = J->k == K_ARGMAX || J->k == K_ARGMIN || J->k == K_ALL || J->k == K_ANY;
    Columns C = { J, g->kshape[g->nk - 1], 0, ROW_PIECE, 1, J->res_f, NULL };
    C.chunks = (C.inner + COL_CHUNK - 1) / COL_CHUNK;
    while ((g->N + C.rows_per_piece - 1) / C.rows_per_piece * g->M > PIECE_PARTIALS) C.rows_per_piece *= 2;
    C.pieces = (g->N + C.rows_per_piece - 1) / C.rows_per_piece;
    bool own_dst = C.pieces > 1 || to_res_i;
    if (own_dst && !(C.dst = malloc((size_t)(C.pieces * g->M) * sizeof(double))))
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld partial results", op, (long long)(C.pieces * g->M));
    if ((J->k == K_ARGMAX || J->k == K_ARGMIN) && !(C.pos = malloc((size_t)(C.pieces * g->M) * sizeof(int64_t)))) {
        free(C.dst);
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld partial positions", op, (long long)(C.pieces * g->M));
    }
    int64_t tasks = g->M / C.inner * C.chunks * C.pieces;
    int64_t work = (C.inner < COL_CHUNK ? C.inner : COL_CHUNK) * (g->N < C.rows_per_piece ? g->N : C.rows_per_piece);
    tkr_parallel_for(ctx, tasks, work >= PIECE_GRAIN ? 1 : PIECE_GRAIN / work, column_tasks, &C);
    if (own_dst) {
        for (int64_t o = 0; o < g->M; o++) {   /* in piece order: the same bits on any thread count */
            St s = { C.dst[o], (int64_t)C.dst[o], C.pos ? C.pos[o] : -1 };
            for (int64_t p = 1; p < C.pieces; p++) {
                int64_t at = p * g->M + o;
                St t = { C.dst[at], (int64_t)C.dst[at], C.pos ? C.pos[at] : -1 };
                st_combine(J->k, false, &s, &t);
            }
            if (to_res_i) emit(J, o, &s);
            else J->res_f[o] = s.a;
        }
        free(C.dst);
        free(C.pos);
    }
    return TK_OK;
}

/* Runs kernel k over every output of g into res_f / res_i (M entries). */
static tk_status run_engine(tk_context *ctx, const char *op, const Geo *g, const tk_tensor *a, Kop k, const double *shift,
                            double p, double *res_f, int64_t *res_i)
{
    Job J = { g, tkr_ptr(a), a->dtype, (int64_t)tk_dtype_size(a->dtype), k, tkr_red_is_int(a->dtype), shift, p, 1, NULL, res_f,
              res_i, false };
    J.flip = a->dtype == TK_DTYPE_U64 && order_kernel(k);
    if (g->M == 0) return TK_OK;
    /* a float reduction (sum of x, x², |x|, squared deviations or shifted exps, product, max, min, argmax,
     * argmin) or all/any over one strided dim beside a contiguous kept one: rows streamed into partials */
    bool float_dt = J.dt == TK_DTYPE_F32 || J.dt == TK_DTYPE_F64 || J.dt == TK_DTYPE_BF16;
    bool columnwise = k == K_SUM || k == K_SQSUM || k == K_ABSSUM || k == K_SQDEV || k == K_SUMEXP || k == K_PROD || k == K_MAX ||
                      k == K_MIN || k == K_ARGMAX || k == K_ARGMIN;
    bool logic = (k == K_ALL || k == K_ANY) && (J.es == 1 || J.es == 2 || J.es == 4 || J.es == 8);   /* any dtype */
    if (((columnwise && float_dt) || logic) && g->nk >= 1 && g->kstride[g->nk - 1] == 1 && g->nr == 1 && g->rstride[0] > 1 &&
        g->N > 0)
        return column_sums(ctx, op, &J);
    if (g->M < FEW_OUTPUTS && g->N >= 2 * PIECE_GRAIN) J.P = tkr_pieces(g->N, PIECE_GRAIN);
    if (J.P == 1) {
        int64_t per = g->N > 0 ? g->N : 1;
        tkr_parallel_for(ctx, g->M, per >= PIECE_GRAIN ? 1 : PIECE_GRAIN / per, whole_outputs, &J);
        return TK_OK;
    }
    J.parts = malloc((size_t)(g->M * J.P) * sizeof(St));
    if (!J.parts) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld partial results", op, (long long)(g->M * J.P));
    tkr_parallel_for(ctx, g->M * J.P, 1, partial_pieces, &J);
    for (int64_t o = 0; o < g->M; o++) {   /* in piece order: the same bits on any thread count */
        St s = J.parts[o * J.P];
        for (int64_t i = 1; i < J.P; i++) st_combine(k, J.isint, &s, &J.parts[o * J.P + i]);
        emit(&J, o, &s);
    }
    free(J.parts);
    return TK_OK;
}

/* ------------------------------------------------------------ output stores */

static void store_f(tk_tensor *out, const double *v, int64_t n)
{
    char *d = tkr_ptr(out);
    switch (out->dtype) {
    case TK_DTYPE_F32: for (int64_t i = 0; i < n; i++) ((float *)d)[i] = (float)v[i]; return;
    case TK_DTYPE_F64: memcpy(d, v, (size_t)n * sizeof(double)); return;
    case TK_DTYPE_F16: for (int64_t i = 0; i < n; i++) ((uint16_t *)d)[i] = tk_f16_from_f32((float)v[i]); return;
    case TK_DTYPE_BF16: for (int64_t i = 0; i < n; i++) ((uint16_t *)d)[i] = tk_bf16_from_f32((float)v[i]); return;
    default: for (int64_t i = 0; i < n; i++) tkr_store_f(d + i * (int64_t)tk_dtype_size(out->dtype), out->dtype, v[i]); return;
    }
}

static void store_i(tk_tensor *out, const int64_t *v, int64_t n)
{
    char *d = tkr_ptr(out);
    if (out->dtype == TK_DTYPE_I64) {
        memcpy(d, v, (size_t)n * sizeof(int64_t));
        return;
    }
    for (int64_t i = 0; i < n; i++) tkr_store_i(d + i * (int64_t)tk_dtype_size(out->dtype), out->dtype, v[i]);
}

/* ------------------------------------------------------------ tk_reduce */

static const char *const reduce_names[] = { "sum", "mean", "prod", "max", "min", "var", "std", "norm", "all", "any", "logsumexp" };

/* Marks the reduced axes of a (all of them when dims is NULL or ndims 0) and
 * makes the output shape. */
static tk_status parse_axes(tk_context *ctx, const char *op, const tk_tensor *a, const int *dims, int ndims, bool keepdim,
                            bool *reduced, int *out_ndim, int64_t *out_shape)
{
    if (ndims < 0 || ndims > TK_MAX_DIMS)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: ndims is %d (expected 0 .. %d)", op, ndims, TK_MAX_DIMS);
    for (int d = 0; d < TK_MAX_DIMS; d++) reduced[d] = !dims || ndims == 0;
    if (dims && ndims > 0) {
        bool seen[TK_MAX_DIMS] = { false };
        for (int i = 0; i < ndims; i++) {
            int ax;
            tk_status s = tkr_axis(ctx, op, dims[i], a->ndim, &ax);
            if (s) return s;
            if (seen[ax]) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: dim %d appears more than once in dims", op, ax);
            seen[ax] = reduced[ax] = true;
        }
    }
    *out_ndim = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (!reduced[d]) out_shape[(*out_ndim)++] = a->shape[d];
        else if (keepdim) out_shape[(*out_ndim)++] = 1;
    }
    return TK_OK;
}

static tk_status reduce_impl(tk_context *ctx, const char *op, tk_reduce_op rop, const tk_tensor *a, const tk_reduce_opts *opts,
                             tk_tensor **out)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    if (!out) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    tk_status s = tkr_check_arg(ctx, op, "a", a);
    if (!s) s = tkr_lowp_no_arith(ctx, op, a->dtype);
    if (s) return s;
    if ((unsigned)rop > TK_LOGSUMEXP) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: op %d is not a tk_reduce_op", op, (int)rop);
    const char *name = reduce_names[rop];
    tk_reduce_opts none = { NULL, 0, false, false, 0 };
    if (!opts) opts = &none;
    bool isint = tkr_red_is_int(a->dtype);
    bool float_only = rop == TK_MEAN || rop == TK_VAR || rop == TK_STD || rop == TK_NORM || rop == TK_LOGSUMEXP;
    if (float_only && isint)
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: %s needs a float tensor, a is %s", op, name, tk_dtype_name(a->dtype));
    bool reduced[TK_MAX_DIMS];
    int ond = 0;
    int64_t oshape[TK_MAX_DIMS];
    if ((s = parse_axes(ctx, op, a, opts->dims, opts->ndims, opts->keepdim, reduced, &ond, oshape))) return s;
    Geo g;
    geo_init(&g, a, reduced);
    if (g.N == 0 && (rop == TK_MAX || rop == TK_MIN)) {
        char sh[160];
        int zd = 0;
        while (zd < a->ndim && !(reduced[zd] && a->shape[zd] == 0)) zd++;
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: %s of nothing: reduced dim %d of a %s has size 0", op, name, zd, TKR_SHAPE(a, sh));
    }
    tk_dtype odt = a->dtype;
    /* int sums and products: i64 as PyTorch; u16/u32/u64 give u64 as NumPy (exact modulo 2^64 either way) */
    bool wide_unsigned = a->dtype == TK_DTYPE_U16 || a->dtype == TK_DTYPE_U32 || a->dtype == TK_DTYPE_U64;
    if ((rop == TK_SUM || rop == TK_PROD) && isint) odt = wide_unsigned ? TK_DTYPE_U64 : TK_DTYPE_I64;
    if (rop == TK_ALL || rop == TK_ANY) odt = TK_DTYPE_BOOL;

    double t0 = ctx->profile ? tkr_now() : 0;
    double *rf = malloc((size_t)(g.M > 0 ? g.M : 1) * sizeof(double));
    int64_t *ri = malloc((size_t)(g.M > 0 ? g.M : 1) * sizeof(int64_t));
    double *shift = NULL;
    if (!rf || !ri) {
        s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld results", op, (long long)g.M);
        goto done;
    }
    if ((s = tkr_new(ctx, odt, ond, oshape, out))) goto done;
    double N = (double)g.N;
    switch (rop) {
    case TK_SUM:
    case TK_MEAN:
    case TK_PROD:
    case TK_MAX:
    case TK_MIN: {
        Kop k = rop == TK_PROD ? K_PROD : rop == TK_MAX ? K_MAX : rop == TK_MIN ? K_MIN : K_SUM;
        if ((s = run_engine(ctx, op, &g, a, k, NULL, 0, rf, ri))) goto done;
        if (rop == TK_MEAN)
            for (int64_t o = 0; o < g.M; o++) rf[o] /= N;   /* nothing gives 0/0 = NaN, as PyTorch */
        break;
    }
    case TK_ALL:
    case TK_ANY:
        if ((s = run_engine(ctx, op, &g, a, rop == TK_ALL ? K_ALL : K_ANY, NULL, 0, rf, ri))) goto done;
        break;
    case TK_VAR:
    case TK_STD:
        if (!(shift = malloc((size_t)(g.M > 0 ? g.M : 1) * sizeof(double)))) {
            s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld means", op, (long long)g.M);
            goto done;
        }
        if ((s = run_engine(ctx, op, &g, a, K_SUM, NULL, 0, shift, ri))) goto done;
        for (int64_t o = 0; o < g.M; o++) shift[o] /= N;
        if ((s = run_engine(ctx, op, &g, a, K_SQDEV, shift, 0, rf, ri))) goto done;
        for (int64_t o = 0; o < g.M; o++) {
            double den = opts->population ? N : N - 1;
            rf[o] = den < 0 ? NAN : rf[o] / den;   /* N - 1 = 0 gives 0/0 = NaN, as PyTorch */
            if (rop == TK_STD) rf[o] = sqrt(rf[o]);
        }
        break;
    case TK_NORM: {
        double p = opts->p == 0 ? 2 : opts->p;
        Kop k = p == 2 ? K_SQSUM : p == 1 ? K_ABSSUM : p == INFINITY ? K_ABSMAX : p == -INFINITY ? K_ABSMIN : K_POWSUM;
        if ((s = run_engine(ctx, op, &g, a, k, NULL, p, rf, ri))) goto done;
        for (int64_t o = 0; o < g.M; o++) {
            if (k == K_SQSUM) rf[o] = sqrt(rf[o]);
            else if (k == K_POWSUM) rf[o] = pow(rf[o], 1 / p);
        }
        break;
    }
    case TK_LOGSUMEXP:
        if (!(shift = malloc((size_t)(g.M > 0 ? g.M : 1) * sizeof(double)))) {
            s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld maxima", op, (long long)g.M);
            goto done;
        }
        if ((s = run_engine(ctx, op, &g, a, K_MAX, NULL, 0, shift, ri))) goto done;
        /* PyTorch's form: an infinite max shifts by 0, so +inf stays +inf and all -inf gives -inf */
        for (int64_t o = 0; o < g.M; o++)
            if (isinf(shift[o])) shift[o] = 0;
        if ((s = run_engine(ctx, op, &g, a, K_SUMEXP, shift, 0, rf, ri))) goto done;
        for (int64_t o = 0; o < g.M; o++) rf[o] = log(rf[o]) + shift[o];
        break;
    }
    if (odt == TK_DTYPE_BOOL || (isint && rop != TK_MEAN)) store_i(*out, ri, g.M);
    else store_f(*out, rf, g.M);
    s = tkr_ok(ctx);
done:
    free(rf);
    free(ri);
    free(shift);
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
    } else if (ctx->profile) {
        tkr_profile_record(ctx, "op", op, tkr_now() - t0);
    }
    return s;
}

tk_status tk_reduce(tk_context *ctx, tk_reduce_op op, const tk_tensor *a, const tk_reduce_opts *opts, tk_tensor **out)
{
    return reduce_impl(ctx, "tk_reduce", op, a, opts, out);
}

tk_status tk_sum(tk_context *ctx, const tk_tensor *a, const tk_reduce_opts *opts, tk_tensor **out)
{
    return reduce_impl(ctx, "tk_sum", TK_SUM, a, opts, out);
}

tk_status tk_mean(tk_context *ctx, const tk_tensor *a, const tk_reduce_opts *opts, tk_tensor **out)
{
    return reduce_impl(ctx, "tk_mean", TK_MEAN, a, opts, out);
}

/* ------------------------------------------------------------ argmax / argmin */

static tk_status arg_impl(tk_context *ctx, const char *op, Kop k, const tk_tensor *a, int dim, bool keepdim, tk_tensor **out)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    if (!out) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    tk_status s = tkr_check_arg(ctx, op, "a", a);
    if (!s) s = tkr_lowp_no_arith(ctx, op, a->dtype);
    if (s) return s;
    bool reduced[TK_MAX_DIMS];
    int ond;
    int64_t oshape[TK_MAX_DIMS];
    if ((s = parse_axes(ctx, op, a, &dim, 1, keepdim, reduced, &ond, oshape))) return s;
    Geo g;
    geo_init(&g, a, reduced);
    if (g.N == 0) {
        char sh[160];
        int ax;
        tkr_axis(ctx, op, dim, a->ndim, &ax);
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: dim %d of a %s has size 0", op, ax, TKR_SHAPE(a, sh));
    }
    double t0 = ctx->profile ? tkr_now() : 0;
    if ((s = tkr_new(ctx, TK_DTYPE_I64, ond, oshape, out))) return s;
    /* the positions land straight in the i64 output; res_f is never written by arg kernels */
    if ((s = run_engine(ctx, op, &g, a, k, NULL, 0, NULL, (int64_t *)tkr_ptr(*out)))) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    if (ctx->profile) tkr_profile_record(ctx, "op", op, tkr_now() - t0);
    return tkr_ok(ctx);
}

tk_status tk_argmax(tk_context *ctx, const tk_tensor *a, int dim, bool keepdim, tk_tensor **out)
{
    return arg_impl(ctx, "tk_argmax", K_ARGMAX, a, dim, keepdim, out);
}

tk_status tk_argmin(tk_context *ctx, const tk_tensor *a, int dim, bool keepdim, tk_tensor **out)
{
    return arg_impl(ctx, "tk_argmin", K_ARGMIN, a, dim, keepdim, out);
}
