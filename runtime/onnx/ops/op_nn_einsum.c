/* op_nn_einsum.c — ONNX Einsum as views, sums and batched matmuls.
 *
 * Each operand gets one label per dim (ellipsis dims get private labels,
 * right-aligned across operands as NumPy broadcasts them). A label repeated
 * within an operand takes the diagonal (a strided view); a label no other
 * operand and not the output has is summed away; then the operands are
 * contracted left to right, each pair as one tk_matmul of
 * [batch, M, K] · [batch, K, N] (batch: labels both keep; K: labels both
 * share that nothing later needs), and the result is permuted to the
 * output's order. */
#include <string.h>

#include "op_nn_common.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

#define MAX_OPERANDS 8
#define ELLIPSIS_LABEL(i) ((char)(1 + (i)))   /* private labels for ellipsis dims */

typedef struct {
    tk_tensor *t;                 /* owned */
    char labels[TK_MAX_DIMS + 1];
} Term;

static int label_index(const char *labels, char c)
{
    const char *p = strchr(labels, c);
    return c && p ? (int)(p - labels) : -1;
}

/* Parses one operand's subscripts (spaces removed) into labels for a tensor
 * of rank `rank`, with e ellipsis dims mapped onto the last of max_e labels. */
static tk_status parse_term(TkoOpCtx *oc, const char *sub, size_t len, int rank, int max_e, char *labels)
{
    int letters = 0, k = 0;
    bool ell = false;
    for (size_t i = 0; i < len; i++)
        if (sub[i] == '.') {
            if (i + 2 >= len + 0 || sub[i + 1] != '.' || sub[i + 2] != '.' || ell)
                return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "equation: a malformed ellipsis in '%.*s'", (int)len, sub);
            ell = true, i += 2;
        } else if ((sub[i] >= 'a' && sub[i] <= 'z') || (sub[i] >= 'A' && sub[i] <= 'Z')) letters++;
        else return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "equation: '%c' is not a subscript letter", sub[i]);
    int e = rank < 0 ? (ell ? max_e : 0) : rank - letters;   /* rank < 0: the output, whose ellipsis is the widest */
    if (letters + e > TK_MAX_DIMS)
        return tko_fail(oc, TK_ERR_UNSUPPORTED, "equation term '%.*s' has more than %d dims", (int)len, sub, TK_MAX_DIMS);
    if (rank >= 0 && (e < 0 || (!ell && e != 0) || e > max_e || rank > TK_MAX_DIMS))
        return tko_fail(oc, TK_ERR_SHAPE, "equation term '%.*s' does not fit an operand of rank %d", (int)len, sub, rank);
    for (size_t i = 0; i < len; i++)
        if (sub[i] == '.') {
            for (int j = 0; j < e; j++) labels[k++] = ELLIPSIS_LABEL(max_e - e + j);
            i += 2;
        } else labels[k++] = sub[i];
    labels[k] = 0;
    return TK_OK;
}

/* The diagonal over every repeated label (a view: the two dims' strides added). */
static tk_status take_diagonals(TkoOpCtx *oc, Term *term)
{
    for (;;) {
        int n = (int)strlen(term->labels), a = -1, b = -1;
        for (int i = 0; i < n && a < 0; i++)
            for (int j = i + 1; j < n; j++)
                if (term->labels[i] == term->labels[j]) {
                    a = i, b = j;
                    break;
                }
        if (a < 0) return TK_OK;
        const tk_tensor *t = term->t;
        const int64_t *sh = tk_tensor_shape(t), *st = tk_tensor_strides(t);
        if (sh[a] != sh[b])
            return tko_fail(oc, TK_ERR_SHAPE, "label '%c' has sizes %lld and %lld", term->labels[a], (long long)sh[a], (long long)sh[b]);
        int64_t shape[TK_MAX_DIMS], strides[TK_MAX_DIMS];
        for (int i = 0, k = 0; i < n; i++) {
            if (i == b) continue;
            shape[k] = sh[i], strides[k] = st[i] + (i == a ? st[b] : 0), k++;
        }
        tk_tensor *v;
        tk_status s = tkr_view(oc->ctx, t, n - 1, shape, strides, tk_tensor_offset(t), &v);
        if (s) return tko_nn_wrap(oc, s);
        tk_tensor_release(term->t);
        term->t = v;
        memmove(term->labels + b, term->labels + b + 1, (size_t)(n - b));
    }
}

/* Sums away the labels of term not in keep. */
static tk_status sum_unkept(TkoOpCtx *oc, Term *term, const char *keep)
{
    int dims[TK_MAX_DIMS], nd = 0, n = (int)strlen(term->labels);
    char left[TK_MAX_DIMS + 1];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (label_index(keep, term->labels[i]) < 0) dims[nd++] = i;
        else left[k++] = term->labels[i];
    left[k] = 0;
    if (!nd) return TK_OK;
    tk_reduce_opts o = { .dims = dims, .ndims = nd };
    tk_tensor *r;
    tk_status s = tk_sum(oc->ctx, term->t, &o, &r);
    if (s) return tko_nn_wrap(oc, s);
    tk_tensor_release(term->t);
    term->t = r;
    strcpy(term->labels, left);
    return TK_OK;
}

/* t's dims in the order of `order` (labels of t), expanded to the sizes in
 * size_of (labels' sizes), reshaped to `groups` merged dims of the given
 * label counts. */
static tk_status arrange(TkoOpCtx *oc, const Term *term, const char *order, const int64_t *size_of, const int *group_len, int ngroups,
                         tk_tensor **out)
{
    int n = (int)strlen(order), perm[TK_MAX_DIMS];
    int64_t full[TK_MAX_DIMS], merged[3];
    for (int i = 0; i < n; i++) perm[i] = label_index(term->labels, order[i]), full[i] = size_of[(unsigned char)order[i]];
    for (int g = 0, i = 0; g < ngroups; g++) {
        merged[g] = 1;
        for (int j = 0; j < group_len[g]; j++) merged[g] *= full[i++];
    }
    tk_tensor *p = NULL, *e = NULL;
    tk_status s = n ? tk_permute(oc->ctx, term->t, perm, &p) : tk_reshape(oc->ctx, term->t, 0, NULL, &p);
    if (!s) s = tk_expand(oc->ctx, p, n, full, &e);
    if (!s) s = tk_reshape(oc->ctx, e, ngroups, merged, out);
    tk_tensor_release(p), tk_tensor_release(e);
    return s;
}

/* a · b over their shared labels not in keep; the result in *a. */
static tk_status contract(TkoOpCtx *oc, Term *a, Term *b, const char *keep, const int64_t *size_of)
{
    char batch[TK_MAX_DIMS + 1] = "", kdim[TK_MAX_DIMS + 1] = "", aonly[TK_MAX_DIMS + 1] = "", bonly[TK_MAX_DIMS + 1] = "";
    int nb = 0, nk = 0, na = 0, nbo = 0;
    for (const char *p = a->labels; *p; p++) {
        if (label_index(b->labels, *p) >= 0) {
            if (label_index(keep, *p) >= 0) batch[nb++] = *p;
            else kdim[nk++] = *p;
        } else aonly[na++] = *p;
    }
    for (const char *p = b->labels; *p; p++)
        if (label_index(a->labels, *p) < 0) bonly[nbo++] = *p;
    if (nb + na + nbo > TK_MAX_DIMS || nb + na + nk > TK_MAX_DIMS || nb + nk + nbo > TK_MAX_DIMS)
        return tko_fail(oc, TK_ERR_UNSUPPORTED, "the contraction has more than %d dims", TK_MAX_DIMS);
    char ao[3 * TK_MAX_DIMS + 1], bo[3 * TK_MAX_DIMS + 1], res[3 * TK_MAX_DIMS + 1];   /* each fits TK_MAX_DIMS (checked) */
    snprintf(ao, sizeof ao, "%s%s%s", batch, aonly, kdim);
    snprintf(bo, sizeof bo, "%s%s%s", batch, kdim, bonly);
    snprintf(res, sizeof res, "%s%s%s", batch, aonly, bonly);
    tk_tensor *am = NULL, *bm = NULL, *y = NULL, *r = NULL;
    tk_status s = arrange(oc, a, ao, size_of, (int[]){ nb, na, nk }, 3, &am);
    if (!s) s = arrange(oc, b, bo, size_of, (int[]){ nb, nk, nbo }, 3, &bm);
    if (!s) s = tk_matmul(oc->ctx, am, bm, &y);
    int64_t shape[TK_MAX_DIMS];
    int n = (int)strlen(res);
    for (int i = 0; i < n; i++) shape[i] = size_of[(unsigned char)res[i]];
    if (!s) s = tk_reshape(oc->ctx, y, n, shape, &r);
    tk_tensor_release(am), tk_tensor_release(bm), tk_tensor_release(y);
    if (s) return tko_nn_wrap(oc, s);
    tk_tensor_release(a->t);
    a->t = r;
    strcpy(a->labels, res);
    return TK_OK;
}

tk_status tko_nn_run_einsum(TkoOpCtx *oc)
{
    const char *eq = tko_attr_string(oc->node, "equation", "");
    char buf[512];
    size_t m = 0;
    for (const char *p = eq; *p && m + 1 < sizeof buf; p++)
        if (*p != ' ') buf[m++] = *p;
    buf[m] = 0;
    if (oc->nin > MAX_OPERANDS) return tko_fail(oc, TK_ERR_UNSUPPORTED, "%d operands; at most %d are supported", oc->nin, MAX_OPERANDS);
    char *arrow = strstr(buf, "->");
    size_t lhs_len = arrow ? (size_t)(arrow - buf) : m;
    Term terms[MAX_OPERANDS] = { 0 };
    int max_e = 0, letters_seen[128] = { 0 };
    /* pass 1: ellipsis widths; pass 2: labels */
    const char *starts[MAX_OPERANDS];
    size_t lens[MAX_OPERANDS];
    int nt = 0;
    for (size_t i = 0, b = 0; i <= lhs_len; i++)
        if (i == lhs_len || buf[i] == ',') {
            if (nt == MAX_OPERANDS) return tko_fail(oc, TK_ERR_UNSUPPORTED, "too many operands in the equation");
            starts[nt] = buf + b, lens[nt++] = i - b, b = i + 1;
        }
    if (nt != oc->nin) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "the equation has %d operands, the node %d inputs", nt, oc->nin);
    for (int i = 0; i < nt; i++) {
        int letters = 0;
        for (size_t j = 0; j < lens[i]; j++) letters += starts[i][j] != '.';
        int e = tk_tensor_ndim(oc->in[i]) - letters;
        if (e > max_e) max_e = e;
    }
    tk_status s = TK_OK;
    int64_t size_of[128];
    for (int i = 0; i < 128; i++) size_of[i] = 1;
    for (int i = 0; i < nt && !s; i++) {
        if ((s = parse_term(oc, starts[i], lens[i], tk_tensor_ndim(oc->in[i]), max_e, terms[i].labels))) break;
        terms[i].t = tk_tensor_retain(oc->in[i]);
        for (int k = 0; terms[i].labels[k]; k++) {
            unsigned char c = (unsigned char)terms[i].labels[k];
            int64_t sz = tk_tensor_shape(oc->in[i])[k];
            if (size_of[c] != 1 && sz != 1 && sz != size_of[c])
                s = tko_fail(oc, TK_ERR_SHAPE, "label '%c' has sizes %lld and %lld", c, (long long)size_of[c], (long long)sz);
            if (sz != 1) size_of[c] = sz;
            letters_seen[c]++;
        }
    }
    char out_labels[TK_MAX_DIMS + 2] = "";
    if (!s && arrow) s = parse_term(oc, arrow + 2, strlen(arrow + 2), -1, max_e, out_labels);
    else if (!s) {   /* implicit output: the ellipsis, then the labels used once, in alphabetical order */
        int k = 0;
        for (int j = 0; j < max_e; j++) out_labels[k++] = ELLIPSIS_LABEL(j);
        for (int c = 'A'; c <= 'z' && k < TK_MAX_DIMS; c++)
            if (c > 'Z' && c < 'a') continue;
            else if (letters_seen[c] == 1) out_labels[k++] = (char)c;
        out_labels[k] = 0;
    }
    for (int i = 0; i < nt && !s; i++) {
        if ((s = take_diagonals(oc, &terms[i]))) break;
        char keep[8 * (TK_MAX_DIMS + 1) + TK_MAX_DIMS + 1];   /* labels any other term or the output has */
        snprintf(keep, sizeof keep, "%s", out_labels);
        for (int j = 0; j < nt; j++)
            if (j != i) strncat(keep, terms[j].labels, sizeof keep - strlen(keep) - 1);
        s = sum_unkept(oc, &terms[i], keep);
    }
    for (int i = 1; i < nt && !s; i++) {
        char keep[8 * (TK_MAX_DIMS + 1) + TK_MAX_DIMS + 1];
        snprintf(keep, sizeof keep, "%s", out_labels);
        for (int j = i + 1; j < nt; j++) strncat(keep, terms[j].labels, sizeof keep - strlen(keep) - 1);
        s = contract(oc, &terms[0], &terms[i], keep, size_of);
    }
    if (!s) s = sum_unkept(oc, &terms[0], out_labels);
    if (!s) {
        int n = (int)strlen(out_labels), perm[TK_MAX_DIMS];
        int64_t full[TK_MAX_DIMS];
        bool ok = n == (int)strlen(terms[0].labels);
        for (int i = 0; i < n && ok; i++) {
            perm[i] = label_index(terms[0].labels, out_labels[i]);
            full[i] = size_of[(unsigned char)out_labels[i]];
            ok = perm[i] >= 0;
        }
        if (!ok) s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "the output subscripts name a label no input has, or one twice");
        else {
            tk_tensor *p = NULL, *e = NULL;
            s = n ? tk_permute(oc->ctx, terms[0].t, perm, &p) : tk_clone(oc->ctx, terms[0].t, &p);
            if (!s) s = tk_expand(oc->ctx, p, n, full, &e);
            if (!s) s = tk_contiguous(oc->ctx, e, &oc->out[0]);
            if (!s && oc->out[0] == oc->in[0]) {   /* never hand back the input itself */
                tk_tensor *c;
                if (!(s = tk_clone(oc->ctx, oc->out[0], &c))) tk_tensor_release(oc->out[0]), oc->out[0] = c;
            }
            tk_tensor_release(p), tk_tensor_release(e);
            if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], tk_tensor_dtype(oc->in[0]));
        }
    }
    for (int i = 0; i < nt; i++) tk_tensor_release(terms[i].t);
    if (s) {
        tko_nn_release(oc->out, 1);
        return tko_nn_wrap(oc, s);
    }
    return TK_OK;
}
