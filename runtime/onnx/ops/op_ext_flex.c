/* op_ext_flex.c — FlexAttention (ai.onnx.preview, opset 1): softmax
 * attention whose scores and probabilities pass through the node's optional
 * score_mod and prob_mod subgraphs (a mask, a bias, a soft cap, ...) on the
 * whole [B, H, L, S] tensor. GQA: query head h reads kv head h / (Hq / Hkv). */
#include <math.h>
#include <string.h>

#include "op_ext.h"

/* The dtype scores and probabilities are kept in: softmax_precision when
 * given (float or double), else f32 for the 16-bit inputs and the input's. */
static int flex_compute_dtype(const TkoNode *n, tk_dtype in)
{
    const TkoAttr *a = tko_attr(n, "softmax_precision");
    if (a) {
        int d = tkr_onnx_dtype(a->i);
        return d == TK_DTYPE_F32 || d == TK_DTYPE_F64 ? d : -1;
    }
    return in == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;
}

const char *tko_check_flex_attention(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    if (flex_compute_dtype(n, TK_DTYPE_F32) < 0) {
        snprintf(why, len, "softmax_precision=%s is not supported (float and double are)", tkr_onnx_type_name(tko_attr(n, "softmax_precision")->i));
        return why;
    }
    for (int k = 0; k < 2; k++) {
        const char *name = k ? "prob_mod" : "score_mod";
        const TkoAttr *a = tko_attr(n, name);
        if (a && (!a->g || a->g->nin != 1 || a->g->nout != 1)) {
            snprintf(why, len, "%s must be a graph of one input and one output", name);
            return why;
        }
    }
    return NULL;
}

/* *t (f64, consumed) as dtype d, passed through the node's graph attribute
 * `name` when it has one, and back as a new f64 tensor in *t of the same
 * shape (a graph returning another shape is an error). */
static tk_status flex_mod(TkoOpCtx *oc, const char *name, tk_dtype d, tk_tensor **t)
{
    const TkoAttr *a = tko_attr(oc->node, name);
    if (!a) return TK_OK;
    tk_status s = tko_as_dtype(oc, t, d);
    if (s) return s;
    tk_tensor *out = NULL;
    int64_t shape[4];
    memcpy(shape, tk_tensor_shape(*t), sizeof shape);
    s = tko_run_subgraph(oc, a->g, t, NULL, 1, &out, NULL);
    tk_tensor_release(*t);
    *t = NULL;
    if (s) return s;
    if (tk_tensor_ndim(out) != 4 || memcmp(tk_tensor_shape(out), shape, sizeof shape)) {
        char sa[96];
        s = tko_fail(oc, TK_ERR_SHAPE, "%s returned %s for an input of [%lld, %lld, %lld, %lld]", name, tko_ext_shape(out, sa, sizeof sa),
                     (long long)shape[0], (long long)shape[1], (long long)shape[2], (long long)shape[3]);
        tk_tensor_release(out);
        return s;
    }
    s = tko_wrap(oc, tk_to_dtype(oc->ctx, out, TK_DTYPE_F64, t));
    tk_tensor_release(out);
    return s;
}

typedef struct {
    const double *a, *b;   /* scores: Q and K; values: V */
    double *scores;        /* [B, Hq, L, S] */
    int64_t Hq, Hkv, group, L, S, E;   /* E: the head size of a (Q's, or V's) */
    double scale;
    double *y;             /* values: [B, Hq, L, Ev] */
} FlexArgs;

/* scores[bh] = scale * Q[bh] K[kv head]^T, one (batch, query head) per item */
static void flex_scores(int64_t begin, int64_t end, void *arg)
{
    const FlexArgs *f = arg;
    for (int64_t bh = begin; bh < end; bh++) {
        int64_t b = bh / f->Hq, kh = bh % f->Hq / f->group;
        const double *q = f->a + bh * f->L * f->E, *k = f->b + (b * f->Hkv + kh) * f->S * f->E;
        for (int64_t i = 0; i < f->L; i++)
            for (int64_t j = 0; j < f->S; j++) {
                double acc = 0;
                for (int64_t e = 0; e < f->E; e++) acc += q[i * f->E + e] * k[j * f->E + e];
                f->scores[(bh * f->L + i) * f->S + j] = acc * f->scale;
            }
    }
}

/* y[bh] = probs[bh] V[kv head] */
static void flex_values(int64_t begin, int64_t end, void *arg)
{
    const FlexArgs *f = arg;
    for (int64_t bh = begin; bh < end; bh++) {
        int64_t b = bh / f->Hq, kh = bh % f->Hq / f->group;
        const double *v = f->a + (b * f->Hkv + kh) * f->S * f->E, *pr = f->scores + bh * f->L * f->S;
        for (int64_t i = 0; i < f->L; i++)
            for (int64_t e = 0; e < f->E; e++) {
                double acc = 0;
                for (int64_t j = 0; j < f->S; j++) acc += pr[i * f->S + j] * v[j * f->E + e];
                f->y[(bh * f->L + i) * f->E + e] = acc;
            }
    }
}

tk_status tko_run_flex_attention(TkoOpCtx *oc)
{
    const tk_tensor *Q = oc->in[0], *K = oc->in[1], *V = oc->in[2];
    char sa[96], sb[96], sc[96];
    for (int i = 0; i < 3; i++) {
        tk_status s = tko_ext_need_float(oc, i);
        if (s) return s;
    }
    const int64_t *qs = tk_tensor_shape(Q), *ks = tk_tensor_shape(K), *vs = tk_tensor_shape(V);
    if (tk_tensor_ndim(Q) != 4 || tk_tensor_ndim(K) != 4 || tk_tensor_ndim(V) != 4 || ks[0] != qs[0] || vs[0] != qs[0] || ks[3] != qs[3] ||
        vs[1] != ks[1] || vs[2] != ks[2] || ks[1] < 1 || qs[1] % ks[1])
        return tko_fail(oc, TK_ERR_SHAPE, "Q %s, K %s, V %s do not fit ([B, Hq, L, E], [B, Hkv, S, E], [B, Hkv, S, Ev], Hq a multiple of Hkv)",
                        tko_ext_shape(Q, sa, sizeof sa), tko_ext_shape(K, sb, sizeof sb), tko_ext_shape(V, sc, sizeof sc));
    int64_t B = qs[0], Hq = qs[1], L = qs[2], E = qs[3], Hkv = ks[1], S = ks[2], Ev = vs[3], group = Hq / Hkv;
    tk_dtype cd = (tk_dtype)flex_compute_dtype(oc->node, tk_tensor_dtype(Q));
    const TkoAttr *sa_attr = tko_attr(oc->node, "scale");
    double scale = sa_attr ? sa_attr->f : 1 / sqrt((double)E);
    tk_tensor *h[3] = { NULL }, *sc_t = NULL, *y = NULL;
    const double *p[3];
    double *ps, *py;
    int64_t sshape[4] = { B, Hq, L, S }, yshape[4] = { B, Hq, L, Ev };
    tk_status s = TK_OK;
    for (int i = 0; i < 3 && !s; i++) s = tko_ext_f64(oc, i, &h[i], &p[i]);
    if (!s) s = tko_ext_new_f64(oc, 4, sshape, &sc_t, &ps);
    if (!s) {
        FlexArgs a = { p[0], p[1], ps, Hq, Hkv, group, L, S, E, scale, NULL };
        tkr_parallel_for(oc->ctx, B * Hq, 1, flex_scores, &a);
    }
    /* scores rounded to the compute dtype, as the reference keeps them */
    if (!s) s = tko_as_dtype(oc, &sc_t, cd);
    if (!s) s = tko_as_dtype(oc, &sc_t, TK_DTYPE_F64);
    if (!s) s = flex_mod(oc, "score_mod", cd, &sc_t);
    if (!s) {   /* softmax over S, max-shifted */
        ps = (double *)tkr_ptr(sc_t);
        for (int64_t r = 0; r < B * Hq * L; r++) {
            double *row = ps + r * S, mx = -INFINITY, sum = 0;
            for (int64_t j = 0; j < S; j++) mx = fmax(mx, row[j]);
            for (int64_t j = 0; j < S; j++) sum += row[j] = exp(row[j] - mx);
            for (int64_t j = 0; j < S; j++) row[j] /= sum;
        }
        s = tko_as_dtype(oc, &sc_t, cd);
    }
    if (!s) s = tko_as_dtype(oc, &sc_t, TK_DTYPE_F64);
    if (!s) s = flex_mod(oc, "prob_mod", cd, &sc_t);
    if (!s) s = tko_ext_new_f64(oc, 4, yshape, &y, &py);
    if (!s) {
        FlexArgs a = { p[2], NULL, (double *)tkr_ptr(sc_t), Hq, Hkv, group, L, S, Ev, 1, py };
        tkr_parallel_for(oc->ctx, B * Hq, 1, flex_values, &a);
        s = tko_ext_emit(oc, 0, y, tk_tensor_dtype(V));
        y = NULL;
    }
    tk_tensor_release(y);
    tk_tensor_release(sc_t);
    for (int i = 0; i < 3; i++) tk_tensor_release(h[i]);
    return s;
}
