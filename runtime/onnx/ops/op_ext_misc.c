/* op_ext_misc.c — small ops of recent opsets: SwiGLU (28), TensorScatter
 * (24, a KV-cache write), BitCast (26, a reinterpretation of the bytes)
 * and TfIdfVectorizer (9, integer tokens only: the runtime has no strings). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "op_ext.h"

/* ------------------------------------------------------------ SwiGLU */

/* Y = A * sigmoid(alpha * A) * B; A and B of one shape (no broadcasting). */
tk_status tko_run_swiglu(TkoOpCtx *oc)
{
    const tk_tensor *A = oc->in[0], *B = oc->in[1];
    char sa[96], sb[96];
    tk_status s = tko_ext_need_float(oc, 0);
    if (!s) s = tko_ext_need_float(oc, 1);
    if (s) return s;
    int nd = tk_tensor_ndim(A);
    if (nd != tk_tensor_ndim(B) || memcmp(tk_tensor_shape(A), tk_tensor_shape(B), (size_t)nd * sizeof(int64_t)) ||
        tk_tensor_dtype(A) != tk_tensor_dtype(B))
        return tko_fail(oc, TK_ERR_SHAPE, "A (%s %s) and B (%s %s) must have one shape and dtype", tk_dtype_name(tk_tensor_dtype(A)),
                        tko_ext_shape(A, sa, sizeof sa), tk_dtype_name(tk_tensor_dtype(B)), tko_ext_shape(B, sb, sizeof sb));
    double alpha = tko_attr_float(oc->node, "alpha", 1.0f);
    tk_tensor *ha = NULL, *hb = NULL, *y = NULL;
    const double *a, *b;
    double *py;
    s = tko_ext_f64(oc, 0, &ha, &a);
    if (!s) s = tko_ext_f64(oc, 1, &hb, &b);
    if (!s) s = tko_ext_new_f64(oc, nd, tk_tensor_shape(A), &y, &py);
    if (!s) {
        int64_t n = tk_tensor_numel(A);
        for (int64_t i = 0; i < n; i++) py[i] = a[i] / (1 + exp(-alpha * a[i])) * b[i];
        s = tko_ext_emit(oc, 0, y, tk_tensor_dtype(A));
    }
    tk_tensor_release(ha);
    tk_tensor_release(hb);
    return s;
}

/* ------------------------------------------------------------ TensorScatter */

const char *tko_check_tensor_scatter(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *mode = tko_attr_string(n, "mode", "linear");
    if (strcmp(mode, "linear") && strcmp(mode, "circular")) {
        snprintf(why, len, "mode='%s' is not supported (linear, circular are)", mode);
        return why;
    }
    return NULL;
}

/* present = past with update written along axis at write_indices[batch]
 * (the dims before axis are the batch first, then heads, ...); circular
 * mode wraps positions past the cache's end. */
tk_status tko_run_tensor_scatter(TkoOpCtx *oc)
{
    const tk_tensor *P = oc->in[0], *U = oc->in[1], *W = oc->nin > 2 ? oc->in[2] : NULL;
    char sa[96], sb[96];
    int nd = tk_tensor_ndim(P), axis;
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", -2), nd, &axis);
    if (s) return s;
    if (axis == 0) return tko_fail(oc, TK_ERR_INDEX, "axis 0 is the batch dim; the sequence axis must follow it");
    const int64_t *ps = tk_tensor_shape(P), *us = tk_tensor_shape(U);
    bool fits = tk_tensor_ndim(U) == nd && tk_tensor_dtype(U) == tk_tensor_dtype(P);
    for (int d = 0; fits && d < nd; d++) fits = d == axis ? us[d] <= ps[d] : us[d] == ps[d];
    if (!fits)
        return tko_fail(oc, TK_ERR_SHAPE, "update %s does not fit past_cache %s along axis %d", tko_ext_shape(U, sa, sizeof sa),
                        tko_ext_shape(P, sb, sizeof sb), axis);
    bool circular = !strcmp(tko_attr_string(oc->node, "mode", "linear"), "circular");
    int64_t batch = ps[0], *widx = calloc((size_t)(batch ? batch : 1), sizeof *widx);
    if (!widx) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for %lld write indices", (long long)batch);
    int nw = 0;
    if (W) {
        if (tk_tensor_numel(W) != batch) s = tko_fail(oc, TK_ERR_SHAPE, "write_indices has %lld values for a batch of %lld", (long long)tk_tensor_numel(W), (long long)batch);
        else s = tko_input_ints(oc, 2, widx, (int)batch, &nw);
    }
    int64_t seq = ps[axis], len = us[axis], outer = 1, inner = 1;
    for (int d = 1; d < axis; d++) outer *= ps[d];
    for (int d = axis + 1; d < nd; d++) inner *= ps[d];
    for (int64_t b = 0; !s && b < batch; b++)
        if (widx[b] < 0 || (!circular && widx[b] > seq - len))
            s = tko_fail(oc, TK_ERR_INDEX, "write_indices[%lld] = %lld: %lld rows from it do not fit a cache of %lld", (long long)b,
                         (long long)widx[b], (long long)len, (long long)seq);
    tk_tensor *out = NULL, *uc = NULL;
    if (!s) s = tko_wrap(oc, tk_clone(oc->ctx, P, &out));
    if (!s) s = tko_wrap(oc, tk_clone(oc->ctx, U, &uc));
    if (!s) {
        size_t es = tk_dtype_size(tk_tensor_dtype(P)), row = (size_t)inner * es;
        char *dst = tkr_ptr(out);
        const char *src = tkr_ptr(uc);
        for (int64_t b = 0; b < batch; b++)
            for (int64_t o = 0; o < outer; o++)
                for (int64_t t = 0; t < len; t++) {
                    int64_t pos = circular ? (widx[b] % seq + t) % seq : widx[b] + t;
                    memcpy(dst + (size_t)(((b * outer + o) * seq + pos) * inner) * es, src + (size_t)((b * outer + o) * len + t) * row, row);
                }
        oc->out[0] = out;
        out = NULL;
    }
    tk_tensor_release(out);
    tk_tensor_release(uc);
    free(widx);
    return s;
}

/* ------------------------------------------------------------ BitCast */

const char *tko_check_bitcast(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t to = tko_attr_int(n, "to", 0);
    if (tkr_onnx_dtype(to) < 0) {
        snprintf(why, len, "bitcast to %s: the runtime has no such dtype", tkr_onnx_type_name(to));
        return why;
    }
    return NULL;
}

/* The same bytes read as dtype `to` (of the same width). */
tk_status tko_run_bitcast(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0];
    tk_dtype from = tk_tensor_dtype(X), to = (tk_dtype)tkr_onnx_dtype(tko_attr_int(oc->node, "to", 0));
    if (tk_dtype_size(from) != tk_dtype_size(to))
        return tko_fail(oc, TK_ERR_DTYPE, "%s (%zu bytes) and %s (%zu bytes) differ in width", tk_dtype_name(from), tk_dtype_size(from),
                        tk_dtype_name(to), tk_dtype_size(to));
    tk_tensor *c;
    tk_status s = tko_wrap(oc, tk_clone(oc->ctx, X, &c));
    if (s) return s;
    if (to == TK_DTYPE_BOOL) {   /* a bool byte holds 0 or 1 in this runtime */
        uint8_t *p = (uint8_t *)tkr_ptr(c);
        for (int64_t i = 0; i < tk_tensor_numel(c); i++)
            if (p[i] > 1) {
                tk_tensor_release(c);
                return tko_fail(oc, TK_ERR_UNSUPPORTED, "element %lld's byte is %u, not a bool (0 or 1)", (long long)i, p[i]);
            }
    }
    s = tko_wrap(oc, tk_from_data(oc->ctx, tkr_ptr(c), to, tk_tensor_ndim(X), tk_tensor_shape(X), &oc->out[0]));
    tk_tensor_release(c);
    return s;
}

/* ------------------------------------------------------------ TfIdfVectorizer */

const char *tko_check_tfidf(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *mode = tko_attr_string(n, "mode", "");
    if (tko_attr(n, "pool_strings")) {
        snprintf(why, len, "pool_strings is not supported (the runtime has no string dtype)");
        return why;
    }
    if (strcmp(mode, "TF") && strcmp(mode, "IDF") && strcmp(mode, "TFIDF")) {
        snprintf(why, len, "mode='%s' is not supported (TF, IDF, TFIDF are)", mode);
        return why;
    }
    return NULL;
}

/* The pool as a list of n-grams, each with its 1-based id: ngram_counts[i]
 * starts the (i+1)-grams; grams outside [min, max] length keep their ids
 * but are never matched (as the reference's trie leaves them out). */
typedef struct {
    const int64_t *pool;
    int64_t npool;
    int64_t *start, *size;   /* per id - 1 */
    bool *used;
    int64_t ngrams;
} TfPool;

/* Whether tokens t[0..n) (every skip-th of x) is a node of the reference's
 * trie — a prefix of some used gram — and then the id of the last used
 * gram equal to it (0: none). */
static bool tf_lookup(const TfPool *p, const int64_t *x, int64_t skip, int64_t n, int64_t *id)
{
    bool node = false;
    *id = 0;
    for (int64_t g = 0; g < p->ngrams; g++) {
        if (!p->used[g] || p->size[g] < n) continue;
        bool eq = true;
        for (int64_t k = 0; k < n && eq; k++) eq = p->pool[p->start[g] + k] == x[k * skip];
        if (!eq) continue;
        node = true;
        if (p->size[g] == n) *id = g + 1;
    }
    return node;
}

tk_status tko_run_tfidf(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0];
    const TkoNode *n = oc->node;
    char sa[96];
    tk_dtype xd = tk_tensor_dtype(X);
    if (xd != TK_DTYPE_I32 && xd != TK_DTYPE_I64) return tko_fail(oc, TK_ERR_DTYPE, "X holds %s (int32 or int64 tokens)", tk_dtype_name(xd));
    int nd = tk_tensor_ndim(X);
    if (nd > 2 || (nd == 2 && tk_tensor_shape(X)[0] < 1))
        return tko_fail(oc, TK_ERR_SHAPE, "X of shape %s: [C] or [B, C] with B > 0 is required", tko_ext_shape(X, sa, sizeof sa));
    int64_t rows = nd == 2 ? tk_tensor_shape(X)[0] : 1, cols = nd == 0 ? 1 : tk_tensor_shape(X)[nd - 1];
    int ncounts = 0, nindexes = 0, nweights = 0, npool = 0;
    const int64_t *counts = tko_attr_ints(n, "ngram_counts", &ncounts), *indexes = tko_attr_ints(n, "ngram_indexes", &nindexes);
    const int64_t *pool = tko_attr_ints(n, "pool_int64s", &npool);
    const TkoAttr *wa = tko_attr(n, "weights");
    const float *weights = wa ? wa->floats : NULL;
    nweights = wa ? wa->n : 0;
    int64_t minl = tko_attr_int(n, "min_gram_length", 1), maxl = tko_attr_int(n, "max_gram_length", 1), skips = tko_attr_int(n, "max_skip_count", 0);
    const char *mode = tko_attr_string(n, "mode", "TF");
    if (!indexes || nindexes < 1) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "ngram_indexes is missing");
    int64_t osize = 0;
    for (int i = 0; i < nindexes; i++) {
        if (indexes[i] < 0) return tko_fail(oc, TK_ERR_INDEX, "ngram_indexes[%d] = %lld is negative", i, (long long)indexes[i]);
        if (indexes[i] + 1 > osize) osize = indexes[i] + 1;
    }
    if (nweights && nweights < osize) return tko_fail(oc, TK_ERR_SHAPE, "weights has %d values for %lld outputs", nweights, (long long)osize);
    if (minl < 1 || maxl < minl || skips < 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "min_gram_length %lld, max_gram_length %lld, max_skip_count %lld", (long long)minl, (long long)maxl, (long long)skips);
    TfPool p = { .pool = pool, .npool = npool };
    p.start = calloc((size_t)npool + 1, sizeof *p.start);
    p.size = calloc((size_t)npool + 1, sizeof *p.size);
    p.used = calloc((size_t)npool + 1, sizeof *p.used);
    int64_t *freq = calloc((size_t)(rows * osize + 1), sizeof *freq), *xi = NULL;
    tk_tensor *xc = NULL, *y = NULL;
    double *py;
    tk_status s = TK_OK;
    if (!p.start || !p.size || !p.used || !freq) s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for a pool of %d", npool);
    for (int i = 0; !s && i < ncounts; i++) {
        int64_t from = counts[i], to = i + 1 < ncounts ? counts[i + 1] : npool, gsize = i + 1;
        if (from < 0 || to > npool || to < from) s = tko_fail(oc, TK_ERR_INDEX, "ngram_counts[%d] = %lld is outside the pool of %d", i, (long long)from, npool);
        for (int64_t k = 0; !s && k + gsize <= to - from; k += gsize) {
            p.start[p.ngrams] = from + k;
            p.size[p.ngrams] = gsize;
            p.used[p.ngrams] = gsize >= minl && gsize <= maxl;
            p.ngrams++;
        }
    }
    if (!s && p.ngrams > nindexes) s = tko_fail(oc, TK_ERR_SHAPE, "the pool has %lld n-grams and ngram_indexes %d entries", (long long)p.ngrams, nindexes);
    if (!s) s = tko_wrap(oc, tk_to_dtype(oc->ctx, X, TK_DTYPE_I64, &xc));
    if (!s) xi = (int64_t *)tkr_ptr(xc);
    /* the reference's walk: per skip distance, per start, the grams growing
     * from it while they stay a trie node; 1-grams count at skip 1 only */
    for (int64_t r = 0; !s && r < rows; r++) {
        const int64_t *row = xi + r * cols;
        int64_t first = minl;
        for (int64_t skip = 1; skip <= skips + 1; skip++) {
            for (int64_t st = 0; st < cols; st++) {
                if (st + skip * (first - 1) >= cols) break;
                for (int64_t len = 1; len <= maxl && st + (len - 1) * skip < cols; len++) {
                    int64_t id;
                    if (!tf_lookup(&p, row + st, skip, len, &id)) break;
                    if (len >= first && id) freq[r * osize + indexes[id - 1]]++;
                }
            }
            if (first == 1) {
                first = 2;
                if (first > maxl) break;
            }
        }
    }
    int64_t oshape[2] = { rows, osize };
    if (!s) s = nd == 2 ? tko_ext_new_f64(oc, 2, oshape, &y, &py) : tko_ext_new_f64(oc, 1, &osize, &y, &py);
    if (!s) {
        for (int64_t r = 0; r < rows; r++)
            for (int64_t i = 0; i < osize; i++) {
                int64_t f = freq[r * osize + i];
                double w = nweights ? weights[i] : 1;
                py[r * osize + i] = !strcmp(mode, "TF") ? (double)f : !strcmp(mode, "IDF") ? (f > 0 ? w : 0) : w * (double)f;
            }
        s = tko_ext_emit(oc, 0, y, TK_DTYPE_F32);
    }
    tk_tensor_release(xc);
    free(p.start);
    free(p.size);
    free(p.used);
    free(freq);
    return s;
}
