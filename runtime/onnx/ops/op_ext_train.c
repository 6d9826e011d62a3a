/* op_ext_train.c — the optimizer steps of ai.onnx.preview.training (opset
 * 1): Adagrad, Adam, Momentum (standard and Nesterov). Inputs: the learning
 * rate R and step count T (scalars), then n tensors each of X (weights), G
 * (gradients) and the optimizer's state (Adagrad: H; Momentum: V; Adam: V,
 * H); outputs the n new X, then the n of each new state. Elementwise, in
 * double, converted back to each X's dtype. */
#include <math.h>
#include <string.h>

#include "op_ext.h"

typedef enum { OPT_ADAGRAD, OPT_ADAM, OPT_MOMENTUM } OptKind;   /* def->arg */

const char *tko_check_optimizer(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int outs = !strcmp(n->op, "Adam") ? 3 : 2, per = outs + 1;   /* per tensor: X, G and the state in; X and the state out */
    if ((n->nin - 2) % per || n->nin - 2 < per || n->nout != (n->nin - 2) / per * outs) {
        snprintf(why, len, "%d inputs and %d outputs do not make R, T and n groups of %d tensors in, %d out", n->nin, n->nout, per, outs);
        return why;
    }
    if (!strcmp(n->op, "Momentum")) {
        const char *mode = tko_attr_string(n, "mode", "");
        if (!tko_attr(n, "alpha") || !tko_attr(n, "beta") || !tko_attr(n, "norm_coefficient")) {
            snprintf(why, len, "alpha, beta and norm_coefficient are required");
            return why;
        }
        if (strcmp(mode, "standard") && strcmp(mode, "nesterov")) {
            snprintf(why, len, "mode='%s' is not supported (standard, nesterov are)", mode);
            return why;
        }
    }
    return NULL;
}

tk_status tko_run_optimizer(TkoOpCtx *oc)
{
    const TkoNode *nd = oc->node;
    OptKind kind = (OptKind)nd->def->arg;
    int per = kind == OPT_ADAM ? 4 : 3, n = (oc->nin - 2) / per;
    double r, t;
    tk_status s = tko_input_scalar(oc, 0, &r);
    if (!s) s = tko_input_scalar(oc, 1, &t);
    if (s) return s;
    double norm = tko_attr_float(nd, "norm_coefficient", 0.0f), alpha = tko_attr_float(nd, "alpha", kind == OPT_ADAM ? 0.9f : 0.0f);
    double beta = tko_attr_float(nd, "beta", kind == OPT_ADAM ? 0.999f : 0.0f), eps = tko_attr_float(nd, "epsilon", 1e-6f);
    double decay = tko_attr_float(nd, "decay_factor", 0.0f), post = tko_attr_float(nd, "norm_coefficient_post", 0.0f);
    bool nesterov = !strcmp(tko_attr_string(nd, "mode", "standard"), "nesterov");
    /* the step's learning rate: Adagrad decays it with T, Adam corrects the moments' bias */
    double lr = kind == OPT_ADAGRAD ? r / (1 + t * decay) : kind == OPT_ADAM && t > 0 ? r * sqrt(1 - pow(beta, t)) / (1 - pow(alpha, t)) : r;
    double momentum_beta = t > 0 ? beta : 1;
    for (int i = 0; i < n && !s; i++) {
        char sa[96], sb[96];
        const tk_tensor *X = oc->in[2 + i];
        for (int k = 1; k < per && !s; k++) {
            const tk_tensor *o = oc->in[2 + k * n + i];
            if (tk_tensor_ndim(o) != tk_tensor_ndim(X) || memcmp(tk_tensor_shape(o), tk_tensor_shape(X), (size_t)tk_tensor_ndim(X) * sizeof(int64_t)))
                s = tko_fail(oc, TK_ERR_SHAPE, "input %d of shape %s does not match X%d of shape %s", 2 + k * n + i, tko_ext_shape(o, sa, sizeof sa), i + 1,
                             tko_ext_shape(X, sb, sizeof sb));
            else s = tko_ext_need_float(oc, 2 + k * n + i);
        }
        if (!s) s = tko_ext_need_float(oc, 2 + i);
        tk_tensor *h[4] = { NULL }, *o[3] = { NULL };
        const double *p[4];
        double *q[3];
        for (int k = 0; k < per && !s; k++) s = tko_ext_f64(oc, 2 + k * n + i, &h[k], &p[k]);
        for (int k = 0; k < per - 1 && !s; k++) s = tko_ext_new_f64(oc, tk_tensor_ndim(X), tk_tensor_shape(X), &o[k], &q[k]);
        int64_t count = tk_tensor_numel(X);
        for (int64_t e = 0; !s && e < count; e++) {
            double x = p[0][e], g = norm * x + p[1][e];   /* the regularized gradient */
            if (kind == OPT_ADAGRAD) {
                double hn = p[2][e] + g * g;
                q[0][e] = x - lr * g / (sqrt(hn) + eps), q[1][e] = hn;
            } else if (kind == OPT_ADAM) {
                double vn = alpha * p[2][e] + (1 - alpha) * g, hn = beta * p[3][e] + (1 - beta) * g * g;
                q[0][e] = (1 - post) * (x - lr * (vn / (sqrt(hn) + eps))), q[1][e] = vn, q[2][e] = hn;
            } else {
                double vn = alpha * p[2][e] + momentum_beta * g;
                q[0][e] = nesterov ? x - lr * (g + alpha * vn) : x - lr * vn, q[1][e] = vn;
            }
        }
        for (int k = 0; k < per - 1 && !s; k++) {
            s = tko_ext_emit(oc, i + k * n, o[k], tk_tensor_dtype(oc->in[2 + (k ? k + 1 : 0) * n + i]));
            o[k] = NULL;
        }
        for (int k = 0; k < 3; k++) tk_tensor_release(o[k]);
        for (int k = 0; k < 4; k++) tk_tensor_release(h[k]);
    }
    return s;
}
