/* op_index_unique.c — Unique (the distinct elements, or slices along an
 * axis, with where each first occurs, where each element went and how many
 * there are) and ReverseSequence (each batch entry's first len steps
 * reversed). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "op_shape_ops.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* ------------------------------------------------------------ Unique */

typedef struct {
    const char *data;     /* rows of `len` elements, contiguous */
    int64_t len;
    int64_t row_bytes;
    tk_dtype dt;
} Rows;

static int compare_values(double a, double b)
{
    if (isnan(a) || isnan(b)) return isnan(a) - isnan(b);   /* NaNs last and equal to each other, as NumPy */
    return (a > b) - (a < b);
}

/* Lexicographic order of rows i and j, by value. */
static int compare_rows(const Rows *r, int64_t i, int64_t j)
{
    int64_t es = (int64_t)tk_dtype_size(r->dt);
    const char *a = r->data + i * r->row_bytes, *b = r->data + j * r->row_bytes;
    bool fl = tk_dtype_is_float(r->dt);
    for (int64_t e = 0; e < r->len; e++, a += es, b += es) {
        int c;
        if (fl) c = compare_values(tkr_load_f(a, r->dt), tkr_load_f(b, r->dt));
        else {
            int64_t x = tkr_load_i(a, r->dt), y = tkr_load_i(b, r->dt);
            if (r->dt == TK_DTYPE_U64) x ^= INT64_MIN, y ^= INT64_MIN;   /* its bit pattern, ordered as unsigned */
            c = (x > y) - (x < y);
        }
        if (c) return c;
    }
    return 0;
}

/* Stable merge sort of row numbers by row value (ties keep index order, so
 * each group of equal rows starts with its first occurrence). */
static void sort_rows(const Rows *r, int64_t *v, int64_t *tmp, int64_t n)
{
    if (n < 2) return;
    int64_t h = n / 2;
    sort_rows(r, v, tmp, h);
    sort_rows(r, v + h, tmp, n - h);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = compare_rows(r, v[j], v[i]) < 0 ? v[j++] : v[i++];
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, (size_t)n * sizeof *v);
}

static int by_value(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Unique: rows are the elements of the flattened input (no axis) or its
 * slices along axis. Sorted (default): groups in value order; sorted=0:
 * in order of first occurrence. */
tk_status tko_run_unique(TkoOpCtx *oc)
{
    const tk_tensor *x0 = oc->in[0];
    bool has_axis = tko_attr(oc->node, "axis") != NULL, sorted = tko_attr_int(oc->node, "sorted", 1) != 0;
    int axis = 0;
    tk_status s = TK_OK;
    tk_tensor *x = NULL, *moved = NULL, *rows_t = NULL;
    if (has_axis) {
        if ((s = tko_axis(oc, tko_attr_int(oc->node, "axis", 0), tk_tensor_ndim(x0), &axis))) return s;
        x = tk_tensor_retain((tk_tensor *)x0);
        int perm[TK_MAX_DIMS], nd = tk_tensor_ndim(x0);   /* the axis first, the others in order (NumPy's moveaxis): */
        for (int d = 0, k = 1; d < nd; d++)                /* rows are its slices, compared in row-major order */
            if (d != axis) perm[k++] = d;
        perm[0] = axis;
        s = tko_wrap(oc, tk_permute(oc->ctx, x, perm, &moved));
        if (!s) s = tko_wrap(oc, tk_contiguous(oc->ctx, moved, &rows_t));
    } else {
        int64_t n = tk_tensor_numel(x0);
        s = tko_wrap(oc, tk_reshape(oc->ctx, x0, 1, &n, &x));
        if (!s) s = tko_wrap(oc, tk_contiguous(oc->ctx, x, &rows_t));
    }
    int64_t nrows = s ? 0 : tk_tensor_shape(x)[axis], len = nrows ? tk_tensor_numel(x) / nrows : 0;
    int64_t *order = NULL, *tmp = NULL, *group_of = NULL, *first = NULL, *count = NULL, *rank = NULL;
    int64_t ng = 0;
    if (!s) {
        size_t bytes = (size_t)(nrows ? nrows : 1) * sizeof(int64_t);
        order = malloc(bytes), tmp = malloc(bytes), group_of = malloc(bytes), first = malloc(bytes), count = malloc(bytes), rank = malloc(bytes);
        if (!order || !tmp || !group_of || !first || !count || !rank) s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for %lld rows", (long long)nrows);
    }
    if (!s) {
        Rows r = { tkr_ptr(rows_t), len, len * (int64_t)tk_dtype_size(tk_tensor_dtype(x)), tk_tensor_dtype(x) };
        for (int64_t i = 0; i < nrows; i++) order[i] = i;
        sort_rows(&r, order, tmp, nrows);
        for (int64_t i = 0; i < nrows; i++) {   /* groups of equal rows, in value order */
            if (i == 0 || compare_rows(&r, order[i - 1], order[i]) != 0) first[ng] = order[i], count[ng++] = 0;
            count[ng - 1]++;
            group_of[order[i]] = ng - 1;
        }
        for (int64_t g = 0; g < ng; g++) rank[g] = g;
        if (!sorted) {   /* groups by first occurrence: sort (first index, group) pairs */
            for (int64_t g = 0; g < ng; g++) tmp[g] = first[g];
            qsort(tmp, (size_t)ng, sizeof *tmp, by_value);
            for (int64_t g = 0; g < ng; g++) order[g] = group_of[tmp[g]];   /* the group at new position g */
            for (int64_t g = 0; g < ng; g++) rank[order[g]] = g;
            for (int64_t g = 0; g < ng; g++) tmp[g] = count[order[g]];
            memcpy(count, tmp, (size_t)ng * sizeof *count);
            for (int64_t g = 0; g < ng; g++) tmp[g] = first[order[g]];
            memcpy(first, tmp, (size_t)ng * sizeof *first);
        }
        for (int64_t i = 0; i < nrows; i++) group_of[i] = rank[group_of[i]];
    }
    tk_tensor *ix = NULL;
    if (!s) s = tko_wrap(oc, tk_from_data(oc->ctx, first, TK_DTYPE_I64, 1, &ng, &ix));
    if (!s) s = tko_wrap(oc, tk_index_select(oc->ctx, x, axis, ix, &oc->out[0]));
    if (!s && oc->nout > 1 && oc->node->outputs[1] >= 0) oc->out[1] = tk_tensor_retain(ix);
    if (!s && oc->nout > 2 && oc->node->outputs[2] >= 0) s = tko_wrap(oc, tk_from_data(oc->ctx, group_of, TK_DTYPE_I64, 1, &nrows, &oc->out[2]));
    if (!s && oc->nout > 3 && oc->node->outputs[3] >= 0) s = tko_wrap(oc, tk_from_data(oc->ctx, count, TK_DTYPE_I64, 1, &ng, &oc->out[3]));
    free(order), free(tmp), free(group_of), free(first), free(count), free(rank);
    tk_tensor_release(x), tk_tensor_release(moved), tk_tensor_release(rows_t), tk_tensor_release(ix);
    return s;
}

/* ------------------------------------------------------------ ReverseSequence */

const char *tko_check_reverse_sequence(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t b = tko_attr_int(n, "batch_axis", 1), t = tko_attr_int(n, "time_axis", 0);
    if (!((b == 0 && t == 1) || (b == 1 && t == 0))) {
        snprintf(why, len, "batch_axis=%lld, time_axis=%lld (one must be 0, the other 1)", (long long)b, (long long)t);
        return why;
    }
    return NULL;
}

/* ReverseSequence: a copy of the input in which, for each batch entry i,
 * the first sequence_lens[i] steps along the time axis are reversed. */
tk_status tko_run_reverse_sequence(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int batch_axis = (int)tko_attr_int(oc->node, "batch_axis", 1), time_axis = (int)tko_attr_int(oc->node, "time_axis", 0);
    if (tk_tensor_ndim(x) < 2) return tko_fail(oc, TK_ERR_SHAPE, "input has rank %d (at least 2 is required)", tk_tensor_ndim(x));
    int64_t batch = tk_tensor_shape(x)[batch_axis], steps = tk_tensor_shape(x)[time_axis];
    const tk_tensor *sl = oc->in[1];
    tk_dtype ld = tk_tensor_dtype(sl);
    if (ld != TK_DTYPE_I32 && ld != TK_DTYPE_I64) return tko_fail(oc, TK_ERR_DTYPE, "sequence_lens are %s (int32 or int64 are required)", tk_dtype_name(ld));
    if (tk_tensor_ndim(sl) != 1 || tk_tensor_numel(sl) != batch)
        return tko_fail(oc, TK_ERR_SHAPE, "sequence_lens has %lld entries for a batch of %lld", (long long)tk_tensor_numel(sl), (long long)batch);
    tk_tensor *lens_t, *out;
    tk_status s = tko_wrap(oc, tk_to_dtype(oc->ctx, sl, TK_DTYPE_I64, &lens_t));
    if (s) return s;
    const int64_t *lens = (const int64_t *)tkr_ptr(lens_t);
    for (int64_t i = 0; i < batch && !s; i++)
        if (lens[i] < 0 || lens[i] > steps)
            s = tko_fail(oc, TK_ERR_INDEX, "sequence_lens[%lld] = %lld is outside [0, %lld]", (long long)i, (long long)lens[i], (long long)steps);
    if (!s) s = tko_wrap(oc, tk_clone(oc->ctx, x, &out));
    if (s) {
        tk_tensor_release(lens_t);
        return s;
    }
    int t_after = time_axis > batch_axis ? time_axis - 1 : time_axis;   /* the time dim once batch is selected */
    for (int64_t i = 0; i < batch && !s; i++) {
        if (lens[i] < 2) continue;
        tk_tensor *src = NULL, *part = NULL, *rev = NULL, *dst = NULL, *dpart = NULL;
        s = tk_select(oc->ctx, x, batch_axis, i, &src);
        if (!s) s = tk_slice(oc->ctx, src, t_after, 0, lens[i], 1, &part);
        if (!s) s = tk_flip(oc->ctx, part, &t_after, 1, &rev);
        if (!s) s = tk_select(oc->ctx, out, batch_axis, i, &dst);
        if (!s) s = tk_slice(oc->ctx, dst, t_after, 0, lens[i], 1, &dpart);
        if (!s) s = tk_copy_(oc->ctx, dpart, rev);
        tk_tensor_release(src), tk_tensor_release(part), tk_tensor_release(rev), tk_tensor_release(dst), tk_tensor_release(dpart);
        s = tko_wrap(oc, s);
    }
    tk_tensor_release(lens_t);
    if (s) tk_tensor_release(out);
    else oc->out[0] = out;
    return s;
}
