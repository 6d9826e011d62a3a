/* op_ext_recur.c — the opset-27 ops that carry a state between calls (for
 * decoding step by step): CausalConvWithState (a depthwise causal 1-d
 * convolution whose left context is the past state) and LinearAttention
 * (a recurrent state S of d_k × d_v per head, updated by the linear, gated,
 * delta or gated-delta rule). Both compute in double and return the state
 * for the next call. */
#include <math.h>
#include <string.h>

#include "op_ext.h"

/* ------------------------------------------------------------ CausalConvWithState */

const char *tko_check_causal_conv(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *act = tko_attr_string(n, "activation", "none");
    if (strcmp(act, "none") && strcmp(act, "silu") && strcmp(act, "swish")) {
        snprintf(why, len, "activation='%s' is not supported (none, silu, swish are)", act);
        return why;
    }
    return NULL;
}

/* out[b, c, t] = bias[c] + sum_k w[c, 0, k] * padded[b, c, t + k], where
 * padded = past_state (or K - 1 zeros) followed by the input; the new state
 * is padded's last K - 1 steps. */
typedef struct {
    const double *x, *w, *bias, *past;
    double *y, *state;
    int64_t C, L, K;
    bool silu;
} CausalArgs;

/* padded[b, c, i] of row bc */
static double causal_at(const CausalArgs *a, int64_t bc, int64_t i)
{
    int64_t P = a->K - 1;
    if (i >= P) return a->x[bc * a->L + i - P];
    return a->past ? a->past[bc * P + i] : 0;
}

static void causal_rows(int64_t begin, int64_t end, void *arg)
{
    const CausalArgs *a = arg;
    int64_t P = a->K - 1;
    for (int64_t bc = begin; bc < end; bc++) {
        int64_t c = bc % a->C;
        for (int64_t t = 0; t < a->L; t++) {
            double acc = a->bias ? a->bias[c] : 0;
            for (int64_t k = 0; k < a->K; k++) acc += a->w[c * a->K + k] * causal_at(a, bc, t + k);
            a->y[bc * a->L + t] = a->silu ? acc / (1 + exp(-acc)) : acc;
        }
        for (int64_t i = 0; i < P; i++) a->state[bc * P + i] = causal_at(a, bc, a->L + i);
    }
}

tk_status tko_run_causal_conv(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0], *Wt = oc->in[1], *Bi = oc->nin > 2 ? oc->in[2] : NULL, *Ps = oc->nin > 3 ? oc->in[3] : NULL;
    char sa[96], sb[96];
    for (int i = 0; i < oc->nin; i++)
        if (oc->in[i]) {
            tk_status s = tko_ext_need_float(oc, i);
            if (s) return s;
        }
    const int64_t *xs = tk_tensor_shape(X), *ws = tk_tensor_shape(Wt);
    if (tk_tensor_ndim(X) != 3 || tk_tensor_ndim(Wt) != 3 || ws[0] != xs[1] || ws[1] != 1 || ws[2] < 1)
        return tko_fail(oc, TK_ERR_SHAPE, "input %s and weight %s do not fit ([B, C, L] and [C, 1, K])", tko_ext_shape(X, sa, sizeof sa),
                        tko_ext_shape(Wt, sb, sizeof sb));
    int64_t B = xs[0], C = xs[1], L = xs[2], K = ws[2], P = K - 1;
    if (Bi && tk_tensor_numel(Bi) != C) return tko_fail(oc, TK_ERR_SHAPE, "bias of shape %s does not have %lld values", tko_ext_shape(Bi, sa, sizeof sa), (long long)C);
    if (Ps && (tk_tensor_ndim(Ps) != 3 || tk_tensor_shape(Ps)[0] != B || tk_tensor_shape(Ps)[1] != C || tk_tensor_shape(Ps)[2] != P))
        return tko_fail(oc, TK_ERR_SHAPE, "past_state of shape %s does not fit input %s and kernel size %lld ([B, C, K - 1])",
                        tko_ext_shape(Ps, sa, sizeof sa), tko_ext_shape(X, sb, sizeof sb), (long long)K);
    bool silu = strcmp(tko_attr_string(oc->node, "activation", "none"), "none") != 0;
    tk_tensor *h[4] = { NULL }, *y = NULL, *st = NULL;
    const double *p[4] = { NULL };
    double *py, *pst;
    tk_status s = TK_OK;
    for (int i = 0; i < 4 && !s; i++)
        if (i < oc->nin && oc->in[i]) s = tko_ext_f64(oc, i, &h[i], &p[i]);
    if (!s) s = tko_ext_new_f64(oc, 3, xs, &y, &py);
    if (!s) s = tko_ext_new_f64(oc, 3, (int64_t[]){ B, C, P }, &st, &pst);
    if (!s) {
        CausalArgs a = { p[0], p[1], p[2], p[3], py, pst, C, L, K, silu };
        tkr_parallel_for(oc->ctx, B * C, L * K >= 4096 ? 1 : 4096 / (L * K + 1) + 1, causal_rows, &a);
    }
    if (!s) {
        s = tko_ext_emit(oc, 0, y, tk_tensor_dtype(X));
        y = NULL;
    }
    if (!s && oc->nout > 1) {
        s = tko_ext_emit(oc, 1, st, Ps ? tk_tensor_dtype(Ps) : tk_tensor_dtype(X));
        st = NULL;
    }
    tk_tensor_release(y);
    tk_tensor_release(st);
    for (int i = 0; i < 4; i++) tk_tensor_release(h[i]);
    return s;
}

/* ------------------------------------------------------------ LinearAttention */

typedef enum { LA_LINEAR, LA_GATED, LA_DELTA, LA_GATED_DELTA } LaRule;

static int la_rule(const TkoNode *n, LaRule *rule)
{
    const char *r = tko_attr_string(n, "update_rule", "gated_delta");
    if (!strcmp(r, "linear")) *rule = LA_LINEAR;
    else if (!strcmp(r, "gated")) *rule = LA_GATED;
    else if (!strcmp(r, "delta")) *rule = LA_DELTA;
    else if (!strcmp(r, "gated_delta")) *rule = LA_GATED_DELTA;
    else return -1;
    return 0;
}

const char *tko_check_linear_attention(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    LaRule rule;
    int64_t hq = tko_attr_int(n, "q_num_heads", 0), hkv = tko_attr_int(n, "kv_num_heads", 0);
    if (la_rule(n, &rule)) {
        snprintf(why, len, "update_rule='%s' is not supported (linear, gated, delta, gated_delta are)", tko_attr_string(n, "update_rule", ""));
        return why;
    }
    if (hq <= 0 || hkv <= 0 || hq % hkv) {
        snprintf(why, len, "q_num_heads %lld must be a positive multiple of kv_num_heads %lld", (long long)hq, (long long)hkv);
        return why;
    }
    return NULL;
}

typedef struct {
    const double *q, *k, *v, *decay, *beta;
    double *state, *out;   /* state: [B, Hkv, dk, dv], in place */
    double *scratch;       /* dv per (batch, kv head): the step's corrected value */
    int64_t B, T, Hq, Hkv, dk, dv, decay_last, beta_last;
    double scale;
    bool gating, delta;
} LaArgs;

/* One (batch, kv head): its state through the T steps, and the outputs of
 * the query heads that read it. */
static void la_head(const LaArgs *a, int64_t b, int64_t h)
{
    int64_t dk = a->dk, dv = a->dv, group = a->Hq / a->Hkv;
    double *S = a->state + (b * a->Hkv + h) * dk * dv;
    double *vt = a->scratch + (b * a->Hkv + h) * dv;
    for (int64_t t = 0; t < a->T; t++) {
        const double *kt = a->k + (b * a->T + t) * a->Hkv * dk + h * dk;
        const double *v = a->v + (b * a->T + t) * a->Hkv * dv + h * dv;
        if (a->gating) {   /* S *= exp(decay) per row of d_k (or one per head) */
            const double *g = a->decay + (b * a->T + t) * a->decay_last;
            for (int64_t i = 0; i < dk; i++) {
                double f = exp(a->decay_last == a->Hkv ? g[h] : g[h * dk + i]);
                for (int64_t j = 0; j < dv; j++) S[i * dv + j] *= f;
            }
        }
        for (int64_t j = 0; j < dv; j++) vt[j] = v[j];
        if (a->delta) {   /* v = beta * (v - S^T k) */
            double beta = a->beta[(b * a->T + t) * a->beta_last + (a->beta_last == 1 ? 0 : h)];
            for (int64_t j = 0; j < dv; j++) {
                double r = 0;
                for (int64_t i = 0; i < dk; i++) r += S[i * dv + j] * kt[i];
                vt[j] = beta * (v[j] - r);
            }
        }
        for (int64_t i = 0; i < dk; i++)
            for (int64_t j = 0; j < dv; j++) S[i * dv + j] += kt[i] * vt[j];
        for (int64_t g = 0; g < group; g++) {
            int64_t qh = h * group + g;
            const double *qt = a->q + (b * a->T + t) * a->Hq * dk + qh * dk;
            double *o = a->out + (b * a->T + t) * a->Hq * dv + qh * dv;
            for (int64_t j = 0; j < dv; j++) {
                double acc = 0;
                for (int64_t i = 0; i < dk; i++) acc += qt[i] * S[i * dv + j];
                o[j] = a->scale * acc;
            }
        }
    }
}

static void la_range(int64_t begin, int64_t end, void *arg)
{
    const LaArgs *a = arg;
    for (int64_t i = begin; i < end; i++) la_head(a, i / a->Hkv, i % a->Hkv);
}

tk_status tko_run_linear_attention(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    const tk_tensor *Q = oc->in[0], *K = oc->in[1], *V = oc->in[2];
    const tk_tensor *Ps = oc->nin > 3 ? oc->in[3] : NULL, *D = oc->nin > 4 ? oc->in[4] : NULL, *Be = oc->nin > 5 ? oc->in[5] : NULL;
    char sa[96], sb[96], sc[96];
    for (int i = 0; i < oc->nin; i++)
        if (oc->in[i]) {
            tk_status s = tko_ext_need_float(oc, i);
            if (s) return s;
        }
    LaRule rule;
    la_rule(n, &rule);
    LaArgs a = { .Hq = tko_attr_int(n, "q_num_heads", 0), .Hkv = tko_attr_int(n, "kv_num_heads", 0) };
    a.gating = rule == LA_GATED || rule == LA_GATED_DELTA;
    a.delta = rule == LA_DELTA || rule == LA_GATED_DELTA;
    if (a.gating != (D != NULL) || a.delta != (Be != NULL))
        return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "update_rule '%s' %s decay and %s beta", tko_attr_string(n, "update_rule", "gated_delta"),
                        a.gating ? "requires" : "forbids", a.delta ? "requires" : "forbids");
    const int64_t *qs = tk_tensor_shape(Q), *ks = tk_tensor_shape(K), *vs = tk_tensor_shape(V);
    if (tk_tensor_ndim(Q) != 3 || tk_tensor_ndim(K) != 3 || tk_tensor_ndim(V) != 3 || qs[2] % a.Hq || vs[2] % a.Hkv ||
        ks[0] != qs[0] || vs[0] != qs[0] || ks[1] != qs[1] || vs[1] != qs[1] || ks[2] != qs[2] / a.Hq * a.Hkv)
        return tko_fail(oc, TK_ERR_SHAPE, "query %s, key %s, value %s do not fit %lld query and %lld kv heads ([B, T, H * d])",
                        tko_ext_shape(Q, sa, sizeof sa), tko_ext_shape(K, sb, sizeof sb), tko_ext_shape(V, sc, sizeof sc), (long long)a.Hq,
                        (long long)a.Hkv);
    a.B = qs[0], a.T = qs[1], a.dk = qs[2] / a.Hq, a.dv = vs[2] / a.Hkv;
    if (D) {
        const int64_t *ds = tk_tensor_shape(D);
        a.decay_last = tk_tensor_ndim(D) == 3 ? ds[2] : -1;
        if (tk_tensor_ndim(D) != 3 || ds[0] != a.B || ds[1] != a.T || (a.decay_last != a.Hkv && a.decay_last != a.Hkv * a.dk))
            return tko_fail(oc, TK_ERR_SHAPE, "decay of shape %s: [B, T, kv_num_heads] or [B, T, kv_num_heads * d_k] is required", tko_ext_shape(D, sa, sizeof sa));
    }
    if (Be) {
        const int64_t *bs = tk_tensor_shape(Be);
        a.beta_last = tk_tensor_ndim(Be) == 3 ? bs[2] : -1;
        if (tk_tensor_ndim(Be) != 3 || bs[0] != a.B || bs[1] != a.T || (a.beta_last != a.Hkv && a.beta_last != 1))
            return tko_fail(oc, TK_ERR_SHAPE, "beta of shape %s: [B, T, kv_num_heads] or [B, T, 1] is required", tko_ext_shape(Be, sa, sizeof sa));
    }
    int64_t sshape[4] = { a.B, a.Hkv, a.dk, a.dv };
    if (Ps && (tk_tensor_ndim(Ps) != 4 || memcmp(tk_tensor_shape(Ps), sshape, sizeof sshape)))
        return tko_fail(oc, TK_ERR_SHAPE, "past_state of shape %s: [%lld, %lld, %lld, %lld] is required", tko_ext_shape(Ps, sa, sizeof sa),
                        (long long)a.B, (long long)a.Hkv, (long long)a.dk, (long long)a.dv);
    double scale = tko_attr_float(n, "scale", 0.0f);
    a.scale = scale != 0 ? scale : 1 / sqrt((double)a.dk);
    tk_tensor *h[6] = { NULL }, *state = NULL, *out = NULL, *scratch = NULL;
    const double *p[6] = { NULL };
    double *pst, *pout, *pscr;
    tk_status s = TK_OK;
    for (int i = 0; i < 6 && !s; i++)
        if (i != 3 && i < oc->nin && oc->in[i]) s = tko_ext_f64(oc, i, &h[i], &p[i]);
    if (!s) s = Ps ? tko_wrap(oc, tk_to_dtype(oc->ctx, Ps, TK_DTYPE_F64, &state)) : tko_ext_new_f64(oc, 4, sshape, &state, &pst);
    if (!s) s = tko_ext_new_f64(oc, 3, (int64_t[]){ a.B, a.T, a.Hq * a.dv }, &out, &pout);
    if (!s) s = tko_ext_new_f64(oc, 1, (int64_t[]){ a.B * a.Hkv * a.dv }, &scratch, &pscr);
    if (!s) {
        a.scratch = pscr;
        a.q = p[0], a.k = p[1], a.v = p[2], a.decay = p[4], a.beta = p[5];
        a.state = (double *)tkr_ptr(state), a.out = pout;
        tkr_parallel_for(oc->ctx, a.B * a.Hkv, 1, la_range, &a);
        s = tko_ext_emit(oc, 0, out, tk_tensor_dtype(Q));
        out = NULL;
    }
    if (!s && oc->nout > 1) {
        s = tko_ext_emit(oc, 1, state, Ps ? tk_tensor_dtype(Ps) : tk_tensor_dtype(Q));
        state = NULL;
    }
    tk_tensor_release(out);
    tk_tensor_release(state);
    tk_tensor_release(scratch);
    for (int i = 0; i < 6; i++) tk_tensor_release(h[i]);
    return s;
}
