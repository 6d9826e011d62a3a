/* op_rnn.c — RNN, GRU and LSTM (every opset from 7; layout from 14).
 *
 * Each step computes the gates (x·Wᵀ + h·Rᵀ + biases), the activations and
 * the state update in double, and the outputs are rounded once to the
 * input's dtype: exact enough for long sequences, simple to check against
 * the spec. Plain loops: the recurrent models this serves (small LSTMs such
 * as voice-activity detectors) are latency-bound; a model whose x·Wᵀ
 * dominates should get the projection of all steps as one stdlib gemm.
 * sequence_lens masks each batch row past its length: Y is 0 there and the
 * final state is the last valid one, as the spec says. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "op.h"
#include "tk/shape.h"

typedef enum { GATE_RNN, GATE_GRU, GATE_LSTM } Kind;

/* An activation by name, with its alpha/beta (from activation_alpha/beta). */
typedef struct {
    int fn;
    double alpha, beta;
} Act;

enum { A_SIGMOID, A_TANH, A_RELU, A_AFFINE, A_LEAKYRELU, A_THRESHOLDEDRELU, A_SCALEDTANH, A_HARDSIGMOID, A_ELU, A_SOFTSIGN,
       A_SOFTPLUS };

static const struct {
    const char *name;
    int params;        /* how many of alpha, beta it takes */
    double alpha, beta;   /* defaults */
} act_table[] = {
    [A_SIGMOID] = { "Sigmoid", 0, 0, 0 },   [A_TANH] = { "Tanh", 0, 0, 0 },
    [A_RELU] = { "Relu", 0, 0, 0 },         [A_AFFINE] = { "Affine", 2, 1, 0 },
    [A_LEAKYRELU] = { "LeakyRelu", 1, 0.01, 0 }, [A_THRESHOLDEDRELU] = { "ThresholdedRelu", 1, 1, 0 },
    [A_SCALEDTANH] = { "ScaledTanh", 2, 1, 1 }, [A_HARDSIGMOID] = { "HardSigmoid", 2, 0.2, 0.5 },
    [A_ELU] = { "Elu", 1, 1, 0 },           [A_SOFTSIGN] = { "Softsign", 0, 0, 0 },
    [A_SOFTPLUS] = { "Softplus", 0, 0, 0 },
};
#define NUM_ACTS (int)(sizeof act_table / sizeof act_table[0])

static double apply(const Act *a, double x)
{
    switch (a->fn) {
    case A_SIGMOID: return 1 / (1 + exp(-x));
    case A_TANH: return tanh(x);
    case A_RELU: return x > 0 ? x : 0;
    case A_AFFINE: return a->alpha * x + a->beta;
    case A_LEAKYRELU: return x >= 0 ? x : a->alpha * x;
    case A_THRESHOLDEDRELU: return x > a->alpha ? x : 0;
    case A_SCALEDTANH: return a->alpha * tanh(a->beta * x);
    case A_HARDSIGMOID: {
        double y = a->alpha * x + a->beta;
        return y < 0 ? 0 : y > 1 ? 1 : y;
    }
    case A_ELU: return x >= 0 ? x : a->alpha * (exp(x) - 1);
    case A_SOFTSIGN: return x / (1 + fabs(x));
    default: return log1p(exp(x));   /* Softplus */
    }
}

static int act_of(const char *name)
{
    for (int i = 0; i < NUM_ACTS; i++)
        if (strcasecmp(act_table[i].name, name) == 0) return i;
    return -1;
}

static Kind kind_of(const TkoNode *n)
{
    return strcmp(n->op, "LSTM") == 0 ? GATE_LSTM : strcmp(n->op, "GRU") == 0 ? GATE_GRU : GATE_RNN;
}

static int gates_of(Kind k) { return k == GATE_LSTM ? 4 : k == GATE_GRU ? 3 : 1; }
static int acts_per_dir(Kind k) { return k == GATE_RNN ? 1 : k == GATE_GRU ? 2 : 3; }

static int directions(const TkoNode *n)
{
    const char *d = tko_attr_string(n, "direction", "forward");
    return strcmp(d, "bidirectional") == 0 ? 2 : 1;
}

/* The activations of each direction: the attribute's, or the op's defaults. */
static bool read_acts(const TkoNode *n, Act acts[2][3], char *why, size_t len)
{
    Kind k = kind_of(n);
    int per = acts_per_dir(k), ndir = directions(n);
    const TkoAttr *names = tko_attr(n, "activations");
    int nalpha, nbeta;
    const TkoAttr *al = tko_attr(n, "activation_alpha"), *be = tko_attr(n, "activation_beta");
    nalpha = al && al->type == TKO_ATTR_FLOATS ? al->n : 0;
    nbeta = be && be->type == TKO_ATTR_FLOATS ? be->n : 0;
    if (names && names->type == TKO_ATTR_STRINGS && names->n != per * ndir && names->n != per) {
        snprintf(why, len, "%d activations given, %d expected", names->n, per * ndir);
        return false;
    }
    int ia = 0, ib = 0;
    for (int d = 0; d < ndir; d++)
        for (int j = 0; j < per; j++) {
            int fn;
            if (names && names->type == TKO_ATTR_STRINGS) {
                const char *nm = names->strings[(names->n == per ? 0 : d * per) + j];
                if ((fn = act_of(nm)) < 0) {
                    snprintf(why, len, "activation '%s' is not supported", nm);
                    return false;
                }
            } else fn = k == GATE_RNN ? A_TANH : j == 0 ? A_SIGMOID : A_TANH;
            Act *a = &acts[d][j];
            a->fn = fn, a->alpha = act_table[fn].alpha, a->beta = act_table[fn].beta;
            if (act_table[fn].params >= 1 && ia < nalpha) a->alpha = al->floats[ia++];
            if (act_table[fn].params >= 2 && ib < nbeta) a->beta = be->floats[ib++];
        }
    return true;
}

static const char *check_rnn(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *d = tko_attr_string(n, "direction", "forward");
    if (strcmp(d, "forward") && strcmp(d, "reverse") && strcmp(d, "bidirectional")) {
        snprintf(why, len, "direction '%s' is not forward, reverse or bidirectional", d);
        return why;
    }
    if (tko_attr_int(n, "hidden_size", 0) <= 0) {
        snprintf(why, len, "hidden_size must be given and positive");
        return why;
    }
    Act acts[2][3];
    if (!read_acts(n, acts, why, len)) return why;
    return NULL;
}

/* A contiguous f64 copy of t (NULL in, NULL out). */
static tk_status as_f64(TkoOpCtx *oc, const tk_tensor *t, tk_tensor **out, const double **p)
{
    *out = NULL, *p = NULL;
    if (!t) return TK_OK;
    tk_tensor *d, *c;
    tk_status s = tk_to_dtype(oc->ctx, t, TK_DTYPE_F64, &d);
    if (s) return tko_wrap(oc, s);
    s = tk_contiguous(oc->ctx, d, &c);
    tk_tensor_release(d);
    if (s) return tko_wrap(oc, s);
    *out = c;
    *p = tk_tensor_data(c);
    return TK_OK;
}

static tk_status run_rnn(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    Kind kind = kind_of(n);
    int G = gates_of(kind), ndir = directions(n);
    int64_t H = tko_attr_int(n, "hidden_size", 0);
    bool reverse = strcmp(tko_attr_string(n, "direction", "forward"), "reverse") == 0;
    int layout = (int)tko_attr_int(n, "layout", 0);
    double clip = tko_attr(n, "clip") ? tko_attr_float(n, "clip", 0) : 0;
    bool input_forget = tko_attr_int(n, "input_forget", 0) != 0;
    bool lbr = tko_attr_int(n, "linear_before_reset", 0) != 0;
    Act acts[2][3];
    char why[160];
    if (!read_acts(n, acts, why, sizeof why)) return tko_fail(oc, TK_ERR_UNSUPPORTED, "%s", why);
    const tk_tensor *X = oc->in[0], *W = oc->in[1], *R = oc->in[2];
    if (tk_tensor_ndim(X) != 3 || tk_tensor_ndim(W) != 3 || tk_tensor_ndim(R) != 3)
        return tko_fail(oc, TK_ERR_SHAPE, "X, W and R must have 3 dims");
    int64_t T = tk_tensor_shape(X)[layout ? 1 : 0], B = tk_tensor_shape(X)[layout ? 0 : 1], I = tk_tensor_shape(X)[2];
    if (tk_tensor_shape(W)[0] != ndir || tk_tensor_shape(W)[1] != G * H || tk_tensor_shape(W)[2] != I ||
        tk_tensor_shape(R)[0] != ndir || tk_tensor_shape(R)[1] != G * H || tk_tensor_shape(R)[2] != H)
        return tko_fail(oc, TK_ERR_SHAPE, "W must be [%d, %lld, %lld] and R [%d, %lld, %lld]", ndir, (long long)(G * H), (long long)I,
                        ndir, (long long)(G * H), (long long)H);
    const tk_tensor *Bt = oc->nin > 3 ? oc->in[3] : NULL, *lens_t = oc->nin > 4 ? oc->in[4] : NULL;
    const tk_tensor *h0_t = oc->nin > 5 ? oc->in[5] : NULL, *c0_t = oc->nin > 6 ? oc->in[6] : NULL;
    const tk_tensor *P_t = oc->nin > 7 ? oc->in[7] : NULL;
    tk_dtype dt = tk_tensor_dtype(X);
    tk_tensor *hold[8] = { 0 };
    const double *x, *w, *r, *b = NULL, *h0 = NULL, *c0 = NULL, *peep = NULL;
    tk_status s;
    if ((s = as_f64(oc, X, &hold[0], &x)) || (s = as_f64(oc, W, &hold[1], &w)) || (s = as_f64(oc, R, &hold[2], &r)) ||
        (s = as_f64(oc, Bt, &hold[3], &b)) || (s = as_f64(oc, h0_t, &hold[4], &h0)) ||
        (s = as_f64(oc, kind == GATE_LSTM ? c0_t : NULL, &hold[5], &c0)) ||
        (s = as_f64(oc, kind == GATE_LSTM ? P_t : NULL, &hold[6], &peep)))
        goto done;
    int64_t lens[4096];
    if (B > 4096) {
        s = tko_fail(oc, TK_ERR_UNSUPPORTED, "batch %lld is over 4096", (long long)B);
        goto done;
    }
    for (int64_t i = 0; i < B; i++) lens[i] = T;
    if (lens_t) {
        int cnt;
        if ((s = tko_input_ints(oc, 4, lens, (int)B, &cnt))) goto done;
        for (int64_t i = 0; i < B; i++)
            if (lens[i] < 0 || lens[i] > T) {
                s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "sequence_lens[%lld] = %lld is outside [0, %lld]", (long long)i, (long long)lens[i],
                             (long long)T);
                goto done;
            }
    }
    /* outputs in f64, converted at the end */
    size_t ny = (size_t)(T * ndir * B * H), nh = (size_t)(ndir * B * H);
    double *Y = calloc(ny + 1, sizeof *Y), *Yh = calloc(nh + 1, sizeof *Yh), *Yc = calloc(nh + 1, sizeof *Yc);
    double *h = malloc((size_t)(B * H + 1) * sizeof *h), *c = malloc((size_t)(B * H + 1) * sizeof *c);
    double *g = malloc((size_t)(B * G * H + 1) * sizeof *g), *hr = malloc((size_t)(H + 1) * sizeof *hr);
    if (!Y || !Yh || !Yc || !h || !c || !g || !hr) {
        s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
        goto free_all;
    }
    for (int d = 0; d < ndir; d++) {
        bool back = reverse || d == 1;
        const double *wd = w + (size_t)d * G * H * I, *rd = r + (size_t)d * G * H * H;
        const double *wb = b ? b + (size_t)d * 2 * G * H : NULL, *rb = b ? wb + G * H : NULL;
        const double *pd = peep ? peep + (size_t)d * 3 * H : NULL;   /* i, o, f */
        for (int64_t i = 0; i < B * H; i++) {
            h[i] = h0 ? h0[(size_t)d * B * H + i] : 0;
            c[i] = c0 ? c0[(size_t)d * B * H + i] : 0;
        }
        for (int64_t step = 0; step < T; step++) {
            for (int64_t bi = 0; bi < B; bi++) {
                int64_t t = back ? lens[bi] - 1 - step : step;
                if (step >= lens[bi]) continue;   /* past this row's length: state frozen, Y stays 0 */
                const double *xt = x + (layout ? (bi * T + t) * I : (t * B + bi) * I);
                double *gb = g + bi * G * H, *hb = h + bi * H, *cb = c + bi * H;
                /* gates: x·Wᵀ + h·Rᵀ + biases (GRU's h gate keeps its R part apart) */
                for (int64_t j = 0; j < G * H; j++) {
                    double acc = wb ? wb[j] : 0;
                    const double *wr = wd + j * I;
                    for (int64_t k = 0; k < I; k++) acc += xt[k] * wr[k];
                    bool gru_h = kind == GATE_GRU && j >= 2 * H;
                    if (!gru_h) {
                        const double *rr = rd + j * H;
                        for (int64_t k = 0; k < H; k++) acc += hb[k] * rr[k];
                        if (rb) acc += rb[j];
                    }
                    gb[j] = acc;
                }
                if (kind == GATE_RNN) {
                    for (int64_t k = 0; k < H; k++) {
                        double v = gb[k];
                        if (clip > 0) v = v < -clip ? -clip : v > clip ? clip : v;
                        hb[k] = apply(&acts[d][0], v);
                    }
                } else if (kind == GATE_GRU) {   /* z, r, h */
                    double *z = gb, *rg = gb + H, *hh = gb + 2 * H;
                    for (int64_t k = 0; k < 2 * H; k++) {
                        double v = gb[k];
                        if (clip > 0) v = v < -clip ? -clip : v > clip ? clip : v;
                        gb[k] = apply(&acts[d][0], v);
                    }
                    for (int64_t j = 0; j < H; j++) {
                        const double *rr = rd + (2 * H + j) * H;
                        double acc = 0;
                        if (lbr) {
                            for (int64_t k = 0; k < H; k++) acc += hb[k] * rr[k];
                            if (rb) acc += rb[2 * H + j];
                            acc *= rg[j];
                        } else {
                            for (int64_t k = 0; k < H; k++) acc += rg[k] * hb[k] * rr[k];
                            if (rb) acc += rb[2 * H + j];
                        }
                        double v = hh[j] + acc;
                        if (clip > 0) v = v < -clip ? -clip : v > clip ? clip : v;
                        hr[j] = apply(&acts[d][1], v);
                    }
                    for (int64_t k = 0; k < H; k++) hb[k] = (1 - z[k]) * hr[k] + z[k] * hb[k];
                } else {   /* LSTM: i, o, f, c */
                    double *ig = gb, *og = gb + H, *fg = gb + 2 * H, *cg = gb + 3 * H;
                    for (int64_t k = 0; k < H; k++) {
                        double vi = ig[k] + (pd ? pd[k] * cb[k] : 0), vf = fg[k] + (pd ? pd[2 * H + k] * cb[k] : 0), vc = cg[k];
                        if (clip > 0) {
                            vi = vi < -clip ? -clip : vi > clip ? clip : vi;
                            vf = vf < -clip ? -clip : vf > clip ? clip : vf;
                            vc = vc < -clip ? -clip : vc > clip ? clip : vc;
                        }
                        double it = apply(&acts[d][0], vi);
                        double ft = input_forget ? 1 - it : apply(&acts[d][0], vf);
                        double ct = apply(&acts[d][1], vc);
                        cb[k] = ft * cb[k] + it * ct;
                        double vo = og[k] + (pd ? pd[H + k] * cb[k] : 0);
                        if (clip > 0) vo = vo < -clip ? -clip : vo > clip ? clip : vo;
                        hb[k] = apply(&acts[d][0], vo) * apply(&acts[d][2], cb[k]);
                    }
                }
                double *yt = layout ? Y + ((bi * T + t) * ndir + d) * H : Y + ((t * ndir + d) * B + bi) * H;
                memcpy(yt, hb, (size_t)H * sizeof *yt);
            }
        }
        for (int64_t bi = 0; bi < B; bi++) {
            double *yh = layout ? Yh + (bi * ndir + d) * H : Yh + (d * B + bi) * H;
            double *yc = layout ? Yc + (bi * ndir + d) * H : Yc + (d * B + bi) * H;
            memcpy(yh, h + bi * H, (size_t)H * sizeof *yh);
            memcpy(yc, c + bi * H, (size_t)H * sizeof *yc);
        }
    }
    int64_t yshape[4], hshape[3];
    if (layout) yshape[0] = B, yshape[1] = T, yshape[2] = ndir, yshape[3] = H, hshape[0] = B, hshape[1] = ndir, hshape[2] = H;
    else yshape[0] = T, yshape[1] = ndir, yshape[2] = B, yshape[3] = H, hshape[0] = ndir, hshape[1] = B, hshape[2] = H;
    double *srcs[3] = { Y, Yh, Yc };
    for (int o = 0; o < oc->nout && o < 3 && !s; o++) {
        if (o == 2 && kind != GATE_LSTM) break;
        tk_tensor *f;
        if ((s = tko_wrap(oc, tk_from_data(oc->ctx, srcs[o], TK_DTYPE_F64, o ? 3 : 4, o ? hshape : yshape, &f)))) break;
        s = tko_wrap(oc, tk_to_dtype(oc->ctx, f, dt, &oc->out[o]));
        tk_tensor_release(f);
    }
free_all:
    free(Y), free(Yh), free(Yc), free(h), free(c), free(g), free(hr);
done:
    for (int i = 0; i < 8; i++) tk_tensor_release(hold[i]);
    return s;
}

#define RNN_ATTRS "activation_alpha,activation_beta,activations,clip,direction,hidden_size,layout"
static const TkoOpDef defs[] = {
    OPDEF("RNN", 7, TKO_ANY, RNN_ATTRS, run_rnn, check_rnn, 3, 6, 0),
    OPDEF("GRU", 7, TKO_ANY, RNN_ATTRS ",linear_before_reset", run_rnn, check_rnn, 3, 6, 0),
    OPDEF("LSTM", 7, TKO_ANY, RNN_ATTRS ",input_forget", run_rnn, check_rnn, 3, 8, 0),
};

TKO_FAMILY_OF(tko_ops_rnn, defs);
