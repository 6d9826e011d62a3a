/* pad.c — ops whose output element reads one input element found by a
 * per-dim index map: pad (constant, reflect, replicate, circular; negative
 * amounts crop), flip and roll (a roll is a circular pad whose amounts
 * cancel). TileKit strides are never negative, so all three copy.
 *
 * The output is written row by row (a row is the last dim) on the context's
 * threads. The last dim's map is cut once into runs whose source steps by
 * -1, 0 or +1 (or that take the fill value), so each row is a few tight
 * copy loops, never an index lookup per element. */
#include <stdlib.h>

#include "shape_util.h"

/* Where output index o along a dim reads: the source index, or -1 for the fill value. */
typedef struct {
    tk_pad_mode mode;
    int64_t left;   /* elements added before (negative: removed) */
    int64_t size;   /* the input's size */
    bool flip;
} DimMap;

static int64_t map_at(const DimMap *m, int64_t o)
{
    if (m->flip) return m->size - 1 - o;
    int64_t i = o - m->left;
    if (i >= 0 && i < m->size) return i;
    switch (m->mode) {
    case TK_PAD_REFLECT: return i < 0 ? -i : 2 * (m->size - 1) - i;
    case TK_PAD_REPLICATE: return i < 0 ? 0 : m->size - 1;
    case TK_PAD_CIRCULAR: return ((i % m->size) + m->size) % m->size;
    default: return -1;
    }
}

/* A run of the last dim: n outputs from `at` reading source index src,
 * src+step, ... (step -1, 0 or 1), or the fill value (fill). */
typedef struct {
    int64_t at, n, src, step;
    bool fill;
} Run;

#define MAX_RUNS 16   /* a pad needs 5 at most (fill or edge, middle, edge or fill) */

typedef struct {
    const tk_tensor *src;
    tk_tensor *dst;
    int ndim;   /* >= 1: a 0-d tensor is handled as [1] */
    int64_t out_shape[TK_MAX_DIMS], src_stride[TK_MAX_DIMS];   /* strides in bytes */
    DimMap map[TK_MAX_DIMS];
    Run runs[MAX_RUNS];
    int nruns;
    size_t es;
    _Alignas(8) unsigned char fill[8];   /* tkr_store_f writes an int64 or double here */
} Remap;

static int cut_runs(const DimMap *m, int64_t n, Run *runs)
{
    int k = 0;
    for (int64_t o = 0; o < n;) {
        if (k == MAX_RUNS) return -1;
        Run *r = &runs[k++];
        r->at = o;
        r->src = map_at(m, o);
        r->fill = r->src < 0;
        r->step = 1;
        int64_t e = o + 1;
        if (r->fill) {
            while (e < n && map_at(m, e) < 0) e++;
        } else if (e < n && map_at(m, e) >= 0) {
            int64_t step = map_at(m, e) - r->src;
            if (step >= -1 && step <= 1) {
                r->step = step;
                while (e < n && map_at(m, e) >= 0 && map_at(m, e) - map_at(m, e - 1) == step) e++;
            }
        }
        r->n = e - o;
        o = e;
    }
    return k;
}

static void copy_elems(char *d, const char *s, int64_t ss, int64_t n, size_t es)
{
    if (ss == (int64_t)es) {
        memcpy(d, s, (size_t)n * es);
        return;
    }
    switch (es) {
    case 1: for (int64_t i = 0; i < n; i++) d[i] = s[i * ss]; break;
    case 2: for (int64_t i = 0; i < n; i++) ((uint16_t *)d)[i] = *(const uint16_t *)(s + i * ss); break;
    case 4: for (int64_t i = 0; i < n; i++) ((uint32_t *)d)[i] = *(const uint32_t *)(s + i * ss); break;
    default: for (int64_t i = 0; i < n; i++) ((uint64_t *)d)[i] = *(const uint64_t *)(s + i * ss); break;
    }
}

static void fill_elems(char *d, const unsigned char *v, int64_t n, size_t es)
{
    switch (es) {
    case 1: memset(d, v[0], (size_t)n); break;
    case 2: { uint16_t x; memcpy(&x, v, 2); for (int64_t i = 0; i < n; i++) ((uint16_t *)d)[i] = x; } break;
    case 4: { uint32_t x; memcpy(&x, v, 4); for (int64_t i = 0; i < n; i++) ((uint32_t *)d)[i] = x; } break;
    default: { uint64_t x; memcpy(&x, v, 8); for (int64_t i = 0; i < n; i++) ((uint64_t *)d)[i] = x; } break;
    }
}

static void remap_rows(int64_t begin, int64_t end, void *arg)
{
    const Remap *r = arg;
    int last = r->ndim - 1;
    int64_t len = r->out_shape[last];
    int64_t ls = r->src_stride[last];
    for (int64_t row = begin; row < end; row++) {
        char *d = tkr_ptr(r->dst) + row * len * (int64_t)r->es;
        const char *s = tkr_ptr(r->src);
        bool fill = false;
        for (int64_t rem = row, k = last - 1; k >= 0; k--) {
            int64_t i = map_at(&r->map[k], rem % r->out_shape[k]);
            rem /= r->out_shape[k];
            if (i < 0) fill = true;
            else s += i * r->src_stride[k];
        }
        if (fill) {
            fill_elems(d, r->fill, len, r->es);
            continue;
        }
        for (int k = 0; k < r->nruns; k++) {
            const Run *run = &r->runs[k];
            char *dp = d + run->at * (int64_t)r->es;
            if (run->fill) fill_elems(dp, r->fill, run->n, r->es);
            else copy_elems(dp, s + run->src * ls, run->step * ls, run->n, r->es);
        }
    }
}

/* out = a new tensor of out_shape (t's ndim dims) reading t through maps. */
static tk_status remap(tk_context *ctx, const char *op, const tk_tensor *t, const int64_t *out_shape, const DimMap *maps, double value,
                       tk_tensor **out)
{
    tk_status s = tkr_new(ctx, t->dtype, t->ndim, out_shape, out);
    if (s) return s;
    Remap r = { .src = t, .dst = *out, .ndim = t->ndim ? t->ndim : 1, .es = tk_dtype_size(t->dtype) };
    for (int d = 0; d < t->ndim; d++) {
        r.out_shape[d] = out_shape[d];
        r.src_stride[d] = t->strides[d] * (int64_t)r.es;
        r.map[d] = maps[d];
    }
    if (t->ndim == 0) {
        r.out_shape[0] = 1;
        r.map[0] = (DimMap){ TK_PAD_CONSTANT, 0, 1, false };
    }
    tkr_store_f(r.fill, t->dtype, value);
    int64_t numel = tkr_numel(r.ndim, r.out_shape), len = r.out_shape[r.ndim - 1];
    if (numel == 0) return TK_OK;
    if ((r.nruns = cut_runs(&r.map[r.ndim - 1], len, r.runs)) < 0) {
        tk_tensor_release(*out);
        *out = NULL;
        return tkr_error(ctx, TK_ERR_INTERNAL, "%s: the last dim's map needs more than %d runs", op, MAX_RUNS);
    }
    int64_t grain = 32768 / len;
    tkr_parallel_for(ctx, numel / len, grain > 0 ? grain : 1, remap_rows, &r);
    return TK_OK;
}

static const char *mode_name(tk_pad_mode m)
{
    static const char *names[] = { "constant", "reflect", "replicate", "circular" };
    return names[m];
}

tk_status tk_pad(tk_context *ctx, const tk_tensor *t, const int64_t *pads, int npads, tk_pad_mode mode, double value, tk_tensor **out)
{
    const char *op = "tk_pad";
    TKR_BEGIN(ctx, out);
    double t0 = tkr_op_start(ctx);
    tk_status s = tkr_check_arg(ctx, op, "t", t);
    if (s) return s;
    char a[160], b[160];
    if (npads < 0 || npads % 2 || npads / 2 > t->ndim)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: %d pad amounts for a tensor of shape %s (an even number, 2 per dim at most)",
                         op, npads, TKR_SHAPE(t, a));
    if (npads && !pads) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: pads is NULL for %d amounts", op, npads);
    if ((unsigned)mode > TK_PAD_CIRCULAR) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: mode %d is not a tk_pad_mode", op, (int)mode);
    DimMap maps[TK_MAX_DIMS];
    int64_t sh[TK_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) {
        sh[d] = t->shape[d];
        maps[d] = (DimMap){ mode, 0, t->shape[d], false };
    }
    for (int i = 0; i < npads / 2; i++) {
        int d = t->ndim - 1 - i;
        int64_t l = pads[2 * i], r = pads[2 * i + 1], n = t->shape[d];
        const char *why = NULL;
        if (n + l + r < 0) why = "leaves a negative size";
        else if (mode == TK_PAD_REFLECT && ((l > 0 && l >= n) || (r > 0 && r >= n))) why = "must be below the size for reflect";
        else if (mode == TK_PAD_REPLICATE && n == 0 && (l > 0 || r > 0)) why = "cannot replicate an empty dim";
        else if (mode == TK_PAD_CIRCULAR && (l > n || r > n)) why = "wraps around more than once";
        if (why)
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: padding (%lld, %lld) of dim %d of shape %s %s (%s mode, pads %s)", op, (long long)l,
                             (long long)r, d, TKR_SHAPE(t, a), why, mode_name(mode), tkr_shape_str(npads, pads, b, sizeof b));
        sh[d] = n + l + r;
        maps[d].left = l;
    }
    if ((s = remap(ctx, op, t, sh, maps, value, out))) return s;
    tkr_op_done(ctx, op, t0);
    return tkr_ok(ctx);
}

tk_status tk_flip(tk_context *ctx, const tk_tensor *t, const int *dims, int ndims, tk_tensor **out)
{
    const char *op = "tk_flip";
    TKR_BEGIN(ctx, out);
    double t0 = tkr_op_start(ctx);
    tk_status s = tkr_check_arg(ctx, op, "t", t);
    if (s) return s;
    if (ndims < 0 || (ndims && !dims)) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: %d dims given as %p", op, ndims, (void *)dims);
    DimMap maps[TK_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) maps[d] = (DimMap){ TK_PAD_CONSTANT, 0, t->shape[d], false };
    for (int i = 0; i < ndims; i++) {
        int d;
        if ((s = tkr_axis(ctx, op, dims[i], t->ndim, &d))) return s;
        if (t->ndim == 0) continue;   /* flipping a 0-d tensor's "dim 0" changes nothing */
        if (maps[d].flip) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: dim %d appears more than once in dims", op, d);
        maps[d].flip = true;
    }
    if ((s = remap(ctx, op, t, t->shape, maps, 0, out))) return s;
    tkr_op_done(ctx, op, t0);
    return tkr_ok(ctx);
}

tk_status tk_roll(tk_context *ctx, const tk_tensor *t, const int64_t *shifts, const int *dims, int ndims, tk_tensor **out)
{
    const char *op = "tk_roll";
    TKR_BEGIN(ctx, out);
    double t0 = tkr_op_start(ctx);
    tk_status s = tkr_check_arg(ctx, op, "t", t);
    if (s) return s;
    if (!shifts) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: shifts is NULL", op);
    if (ndims < 0 || (ndims && !dims)) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: %d dims given as %p", op, ndims, (void *)dims);
    if (ndims == 0) {   /* the flattened tensor rolls, then takes t's shape again */
        int64_t n = tkr_numel(t->ndim, t->shape);
        tk_tensor *flat, *rolled;
        if ((s = tk_reshape(ctx, t, 1, &n, &flat))) return s;
        s = tk_roll(ctx, flat, shifts, (int[]){ 0 }, 1, &rolled);
        tk_tensor_release(flat);
        if (s) return s;
        s = tk_reshape(ctx, rolled, t->ndim, t->shape, out);
        tk_tensor_release(rolled);
        return s;
    }
    DimMap maps[TK_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) maps[d] = (DimMap){ TK_PAD_CIRCULAR, 0, t->shape[d], false };
    for (int i = 0; i < ndims; i++) {
        int d;
        if ((s = tkr_axis(ctx, op, dims[i], t->ndim, &d))) return s;
        if (t->ndim == 0 || t->shape[d] == 0) continue;
        /* shifts along the same dim add up; out[o] = in[o - left] wrapped */
        int64_t n = t->shape[d];
        maps[d].left = (maps[d].left + shifts[i] % n + n) % n;
    }
    if ((s = remap(ctx, op, t, t->shape, maps, 0, out))) return s;
    tkr_op_done(ctx, op, t0);
    return tkr_ok(ctx);
}
