/* op_sequence.c — sequences of tensors and optionals (TkoSeq, onnx_ir.h):
 * SequenceConstruct/Empty/At/Insert/Erase/Length, ConcatFromSequence,
 * SplitToSequence, SequenceMap (a subgraph per position), Optional,
 * OptionalHasElement, OptionalGetElement. A sequence is immutable: an op
 * that changes one makes a new TkoSeq sharing the tensors. */
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "tk/shape.h"

static TkoSeq *seq_input(TkoOpCtx *oc, int i)
{
    return oc->seq_in && i < oc->nin ? oc->seq_in[i] : NULL;
}

/* Input i must be a sequence (not an empty optional). */
static tk_status need_seq(TkoOpCtx *oc, int i, TkoSeq **out)
{
    TkoSeq *s = seq_input(oc, i);
    if (!s || s->none) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "input %d must be a sequence", i);
    *out = s;
    return TK_OK;
}

/* A position of a sequence of length n: in [-n, n - 1], or [-n, n] when inserting. */
static tk_status position(TkoOpCtx *oc, int i, int n, bool insert, int *out)
{
    double v;
    tk_status s = tko_input_scalar(oc, i, &v);
    if (s) return s;
    int64_t p = (int64_t)v;
    if (p < -n || p > (insert ? n : n - 1))
        return tko_fail(oc, TK_ERR_INDEX, "position %lld is outside a sequence of %d", (long long)p, n);
    *out = (int)(p < 0 ? p + n : p);
    return TK_OK;
}

static tk_status copy_of(TkoOpCtx *oc, const TkoSeq *src, TkoSeq **out)
{
    TkoSeq *s = tko_seq_new(false);
    for (int i = 0; s && i < src->n; i++)
        if (!tko_seq_insert(s, i, src->items[i])) tko_seq_release(s), s = NULL;
    if (!s) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    s->elem_type = src->elem_type;
    *out = s;
    return TK_OK;
}

static tk_status run_construct(TkoOpCtx *oc)
{
    TkoSeq *s = tko_seq_new(false);
    for (int i = 0; s && i < oc->nin; i++) {
        if (!oc->in[i]) {
            tko_seq_release(s);
            return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "input %d is not a tensor", i);
        }
        if (i && tk_tensor_dtype(oc->in[i]) != tk_tensor_dtype(oc->in[0])) {
            tko_seq_release(s);
            return tko_fail(oc, TK_ERR_DTYPE, "input %d is %s, input 0 %s: a sequence holds one dtype", i,
                            tk_dtype_name(tk_tensor_dtype(oc->in[i])), tk_dtype_name(tk_tensor_dtype(oc->in[0])));
        }
        if (!tko_seq_insert(s, i, oc->in[i])) tko_seq_release(s), s = NULL;
    }
    if (!s) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    oc->seq_out[0] = s;
    return TK_OK;
}

static tk_status run_empty(TkoOpCtx *oc)
{
    TkoSeq *s = tko_seq_new(false);
    if (!s) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    s->elem_type = (int)tko_attr_int(oc->node, "dtype", 1);
    oc->seq_out[0] = s;
    return TK_OK;
}

static tk_status run_at(TkoOpCtx *oc)
{
    TkoSeq *q;
    int at;
    tk_status s;
    if ((s = need_seq(oc, 0, &q)) || (s = position(oc, 1, q->n, false, &at))) return s;
    oc->out[0] = tk_tensor_retain(q->items[at]);
    return TK_OK;
}

static tk_status run_insert(TkoOpCtx *oc)
{
    TkoSeq *q, *r;
    int at;
    tk_status s;
    if ((s = need_seq(oc, 0, &q))) return s;
    if (!oc->in[1]) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "the tensor to insert is missing");
    at = q->n;
    if (oc->nin > 2 && oc->in[2] && (s = position(oc, 2, q->n, true, &at))) return s;
    if ((s = copy_of(oc, q, &r))) return s;
    if (!tko_seq_insert(r, at, oc->in[1])) {
        tko_seq_release(r);
        return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    }
    oc->seq_out[0] = r;
    return TK_OK;
}

static tk_status run_erase(TkoOpCtx *oc)
{
    TkoSeq *q, *r;
    int at;
    tk_status s;
    if ((s = need_seq(oc, 0, &q))) return s;
    if (q->n == 0) return tko_fail(oc, TK_ERR_INDEX, "erase from an empty sequence");
    at = q->n - 1;
    if (oc->nin > 1 && oc->in[1] && (s = position(oc, 1, q->n, false, &at))) return s;
    if ((s = copy_of(oc, q, &r))) return s;
    tk_tensor_release(r->items[at]);
    memmove(r->items + at, r->items + at + 1, (size_t)(r->n - at - 1) * sizeof *r->items);
    r->n--;
    oc->seq_out[0] = r;
    return TK_OK;
}

static tk_status run_length(TkoOpCtx *oc)
{
    TkoSeq *q;
    tk_status s = need_seq(oc, 0, &q);
    if (s) return s;
    int64_t n = q->n;
    return tko_wrap(oc, tk_from_data(oc->ctx, &n, TK_DTYPE_I64, 0, NULL, &oc->out[0]));
}

static tk_status run_concat(TkoOpCtx *oc)
{
    TkoSeq *q;
    tk_status s = need_seq(oc, 0, &q);
    if (s) return s;
    if (q->n == 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "concatenation of an empty sequence");
    int64_t axis = tko_attr_int(oc->node, "axis", 0);
    bool new_axis = tko_attr_int(oc->node, "new_axis", 0) != 0;
    int rank = tk_tensor_ndim(q->items[0]) + (new_axis ? 1 : 0), ax;
    if ((s = tko_axis(oc, axis, rank, &ax))) return s;
    const tk_tensor *const *items = (const tk_tensor *const *)q->items;
    return tko_wrap(oc, new_axis ? tk_stack(oc->ctx, items, q->n, ax, &oc->out[0]) : tk_cat(oc->ctx, items, q->n, ax, &oc->out[0]));
}

static tk_status run_split(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int rank = tk_tensor_ndim(x), ax;
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", 0), rank, &ax);
    if (s) return s;
    bool keepdims = tko_attr_int(oc->node, "keepdims", 1) != 0;
    int64_t len = tk_tensor_shape(x)[ax], sizes[4096];
    int n = 0;
    if (oc->nin > 1 && oc->in[1]) {
        int cnt;
        if (tk_tensor_ndim(oc->in[1]) == 0) {   /* one size: equal pieces, the last shorter */
            double v;
            if ((s = tko_input_scalar(oc, 1, &v))) return s;
            int64_t p = (int64_t)v;
            if (p <= 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "split size %lld is not positive", (long long)p);
            for (int64_t at = 0; at < len && n < 4096; at += p) sizes[n++] = at + p <= len ? p : len - at;
        } else {
            if ((s = tko_input_ints(oc, 1, sizes, 4096, &cnt))) return s;
            n = cnt;
            int64_t sum = 0;
            for (int i = 0; i < n; i++) sum += sizes[i];
            if (sum != len) return tko_fail(oc, TK_ERR_SHAPE, "split sizes add up to %lld, the axis has %lld", (long long)sum, (long long)len);
        }
        keepdims = true;   /* with a split input the pieces keep the axis */
    } else {
        if (len > 4096) return tko_fail(oc, TK_ERR_UNSUPPORTED, "splitting into %lld pieces (at most 4096)", (long long)len);
        for (int i = 0; i < len; i++) sizes[n++] = 1;
    }
    TkoSeq *q = tko_seq_new(false);
    int64_t at = 0;
    for (int i = 0; q && i < n && !s; i++) {
        tk_tensor *piece = NULL, *sq = NULL;
        s = tko_wrap(oc, tk_slice(oc->ctx, x, ax, at, at + sizes[i], 1, &piece));
        if (!s && !keepdims) s = tko_wrap(oc, tk_squeeze(oc->ctx, piece, ax, &sq));
        if (!s && !tko_seq_insert(q, i, sq ? sq : piece)) s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
        tk_tensor_release(piece), tk_tensor_release(sq);
        at += sizes[i];
    }
    if (!q) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    if (s) {
        tko_seq_release(q);
        return s;
    }
    oc->seq_out[0] = q;
    return TK_OK;
}

/* SequenceMap: the body runs once per position; sequence inputs give their
 * item at that position, other inputs are passed whole; each body output is
 * collected into an output sequence. */
static tk_status run_map(TkoOpCtx *oc)
{
    const TkoAttr *a = tko_attr(oc->node, "body");
    TkoGraph *body = a ? a->g : NULL;
    TkoSeq *q;
    tk_status s = need_seq(oc, 0, &q);
    if (s) return s;
    if (!body || body->nin != oc->nin || body->nout != oc->nout)
        return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "the body must take %d inputs and give %d outputs", oc->nin, oc->nout);
    if (oc->nin > 64 || oc->nout > 64) return tko_fail(oc, TK_ERR_UNSUPPORTED, "more than 64 inputs or outputs");
    for (int i = 1; i < oc->nin; i++) {
        TkoSeq *o = seq_input(oc, i);
        if (o && !o->none && o->n != q->n)
            return tko_fail(oc, TK_ERR_SHAPE, "sequence input %d has %d items, input 0 has %d", i, o->n, q->n);
    }
    TkoSeq *outs[64] = { 0 };
    for (int k = 0; k < oc->nout; k++)
        if (!(outs[k] = tko_seq_new(false))) s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    for (int p = 0; !s && p < q->n; p++) {
        tk_tensor *in[64], *res[64] = { 0 };
        for (int i = 0; i < oc->nin; i++) {
            TkoSeq *o = seq_input(oc, i);
            in[i] = o && !o->none ? o->items[p] : oc->in[i];
        }
        s = tko_run_subgraph(oc, body, in, NULL, oc->nin, res, NULL);
        for (int k = 0; k < oc->nout; k++) {
            if (!s && !tko_seq_insert(outs[k], p, res[k])) s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
            tk_tensor_release(res[k]);
        }
    }
    for (int k = 0; k < oc->nout; k++) {
        if (s) tko_seq_release(outs[k]);
        else oc->seq_out[k] = outs[k];
    }
    return s;
}

/* Optional(x): x itself, or an empty optional when x is omitted. */
static tk_status run_optional(TkoOpCtx *oc)
{
    if (oc->nin > 0 && oc->in[0]) oc->out[0] = tk_tensor_retain(oc->in[0]);
    else if (oc->nin > 0 && seq_input(oc, 0)) oc->seq_out[0] = tko_seq_retain(seq_input(oc, 0));
    else if (!(oc->seq_out[0] = tko_seq_new(true))) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    return TK_OK;
}

static tk_status run_has_element(TkoOpCtx *oc)
{
    TkoSeq *q = seq_input(oc, 0);
    bool has = oc->nin > 0 && (oc->in[0] || (q && !q->none));
    return tko_wrap(oc, tk_from_data(oc->ctx, &has, TK_DTYPE_BOOL, 0, NULL, &oc->out[0]));
}

static tk_status run_get_element(TkoOpCtx *oc)
{
    TkoSeq *q = seq_input(oc, 0);
    if (oc->in[0]) oc->out[0] = tk_tensor_retain(oc->in[0]);
    else if (q && !q->none) oc->seq_out[0] = tko_seq_retain(q);
    else return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "the optional is empty");
    return TK_OK;
}

static const char *check_map(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const TkoAttr *a = tko_attr(n, "body");
    if (!a || a->type != TKO_ATTR_GRAPH) {
        snprintf(why, len, "the body attribute must be a graph");
        return why;
    }
    return NULL;
}

static const TkoOpDef defs[] = {
    VALDEF("SequenceConstruct", 11, TKO_ANY, "", run_construct, NULL, 1, -1, 0),
    VALDEF("SequenceEmpty", 11, TKO_ANY, "dtype", run_empty, NULL, 0, 0, 0),
    VALDEF("SequenceAt", 11, TKO_ANY, "", run_at, NULL, 2, 2, 0),
    VALDEF("SequenceInsert", 11, TKO_ANY, "", run_insert, NULL, 2, 3, 0),
    VALDEF("SequenceErase", 11, TKO_ANY, "", run_erase, NULL, 1, 2, 0),
    VALDEF("SequenceLength", 11, TKO_ANY, "", run_length, NULL, 1, 1, 0),
    VALDEF("ConcatFromSequence", 11, TKO_ANY, "axis,new_axis", run_concat, NULL, 1, 1, 0),
    VALDEF("SplitToSequence", 11, TKO_ANY, "axis,keepdims", run_split, NULL, 1, 2, 0),
    VALDEF("SequenceMap", 17, TKO_ANY, "body", run_map, check_map, 1, -1, 0),
    VALDEF("Optional", 15, TKO_ANY, "type", run_optional, NULL, 0, 1, 0),
    VALDEF("OptionalHasElement", 15, TKO_ANY, "", run_has_element, NULL, 0, 1, 0),
    VALDEF("OptionalGetElement", 15, TKO_ANY, "", run_get_element, NULL, 1, 1, 0),
};

TKO_FAMILY_OF(tko_ops_sequence, defs);
