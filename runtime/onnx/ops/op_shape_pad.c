/* op_shape_pad.c — ONNX ops that pad, crop or regroup spatial dims: Pad,
 * CenterCropPad (on tk_pad and slice views), DepthToSpace and SpaceToDepth
 * (a reshape, a permutation and a reshape, as the ONNX reference). */
#include <string.h>

#include "op_shape_ops.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* ------------------------------------------------------------ Pad */

static int pad_mode(const char *mode, int opset)
{
    if (strcmp(mode, "constant") == 0) return TK_PAD_CONSTANT;
    if (strcmp(mode, "reflect") == 0) return TK_PAD_REFLECT;
    if (strcmp(mode, "edge") == 0) return TK_PAD_REPLICATE;
    if (strcmp(mode, "wrap") == 0 && opset >= 19) return TK_PAD_CIRCULAR;
    return -1;
}

const char *tko_check_pad(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *mode = tko_attr_string(n, "mode", "constant");
    if (pad_mode(mode, n->opset) < 0) {
        snprintf(why, len, "mode='%s' is not supported (constant, reflect, edge%s are)", mode, n->opset >= 19 ? ", wrap" : "");
        return why;
    }
    return NULL;
}

/* Wrap padding of dim d by more than its size (tk_pad wraps at most once):
 * the dim tiled often enough, then the window [left·n - before, + n + before
 * + after) of it, so element o reads source (o - before) mod n, as NumPy and
 * ONNX Runtime. Replaces *cur. */
static tk_status wrap_far(TkoOpCtx *oc, tk_tensor **cur, int d, int64_t before, int64_t after)
{
    int nd = tk_tensor_ndim(*cur);
    int64_t n = tk_tensor_shape(*cur)[d], left = (before + n - 1) / n, right = (after + n - 1) / n, reps[TK_MAX_DIMS];
    for (int i = 0; i < nd; i++) reps[i] = i == d ? left + 1 + right : 1;
    tk_tensor *tiled = NULL, *window = NULL;
    tk_status s = tk_repeat(oc->ctx, *cur, nd, reps, &tiled);
    if (!s) s = tk_slice(oc->ctx, tiled, d, left * n - before, left * n + n + after, 1, &window);
    tk_tensor_release(tiled);
    if (s) return tko_wrap(oc, s);
    tk_tensor_release(*cur);
    *cur = window;
    return TK_OK;
}

/* Pad: pads holds every padded axis's begin amounts, then their end amounts
 * (negative amounts crop); the axes are all dims, or the axes input (18+).
 * Reflect needs amounts below the dim's size (as ONNX Runtime); wrap may go
 * round more than once. */
tk_status tko_run_pad(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x);
    const TkoNode *node = oc->node;
    int64_t pads[2 * TK_MAX_DIMS], axes[TK_MAX_DIMS];
    int np = 0, na = nd;
    double value = 0;
    tk_status s = TK_OK;
    if (node->opset < 11) {
        const int64_t *p = tko_attr_ints(node, node->opset < 2 ? "paddings" : "pads", &np);
        if (np > 2 * TK_MAX_DIMS) return tko_fail(oc, TK_ERR_SHAPE, "%d pad amounts (at most %d)", np, 2 * TK_MAX_DIMS);
        if (np) memcpy(pads, p, (size_t)np * sizeof *pads);
        value = tko_attr_float(node, "value", 0.0f);
    } else {
        if ((s = tko_input_ints(oc, 1, pads, 2 * TK_MAX_DIMS, &np))) return s;
        if (oc->nin > 2 && oc->in[2] && tk_tensor_numel(oc->in[2]) > 0 && (s = tko_input_scalar(oc, 2, &value))) return s;
        if (oc->nin > 3 && oc->in[3] && (s = tko_input_ints(oc, 3, axes, TK_MAX_DIMS, &na))) return s;
    }
    bool given_axes = node->opset >= 18 && oc->nin > 3 && oc->in[3];
    if (np != 2 * na) return tko_fail(oc, TK_ERR_SHAPE, "%d pad amounts for %d axes (2 per axis are required)", np, na);
    int64_t begin[TK_MAX_DIMS] = { 0 }, end[TK_MAX_DIMS] = { 0 };
    for (int i = 0; i < na; i++) {
        int d = i;
        if (given_axes && (s = tko_axis(oc, axes[i], nd, &d))) return s;
        begin[d] = pads[i], end[d] = pads[i + na];
    }
    tk_pad_mode mode = (tk_pad_mode)pad_mode(tko_attr_string(node, "mode", "constant"), node->opset);
    tk_tensor *cur = tk_tensor_retain((tk_tensor *)x);
    for (int d = 0; d < nd && mode == TK_PAD_CIRCULAR && !s; d++) {
        int64_t n = tk_tensor_shape(cur)[d];
        if (n > 0 && begin[d] >= 0 && end[d] >= 0 && (begin[d] > n || end[d] > n)) {
            s = wrap_far(oc, &cur, d, begin[d], end[d]);
            begin[d] = end[d] = 0;
        }
    }
    int64_t tk_pads[2 * TK_MAX_DIMS];   /* tk_pad's order: the last dim first */
    for (int d = 0; d < nd; d++) tk_pads[2 * (nd - 1 - d)] = begin[d], tk_pads[2 * (nd - 1 - d) + 1] = end[d];
    if (!s) s = tko_wrap(oc, tk_pad(oc->ctx, cur, tk_pads, 2 * nd, mode, value, &oc->out[0]));
    tk_tensor_release(cur);
    return s;
}

/* ------------------------------------------------------------ CenterCropPad */

/* CenterCropPad: each listed axis cropped (from (size - target) / 2 on) or
 * padded with zeros ((target - size) / 2 before, the rest after) to the
 * target size. */
tk_status tko_run_center_crop_pad(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x);
    int64_t target[TK_MAX_DIMS];
    int nt, na = nd;
    tk_status s = tko_input_ints(oc, 1, target, TK_MAX_DIMS, &nt);
    if (s) return s;
    const int64_t *axes = tko_attr_ints(oc->node, "axes", &na);
    if (!axes) na = nd;
    if (nt != na) return tko_fail(oc, TK_ERR_SHAPE, "shape has %d sizes for %d axes", nt, na);
    int64_t tk_pads[2 * TK_MAX_DIMS] = { 0 };
    bool padded = false, seen[TK_MAX_DIMS] = { 0 };
    tk_tensor *cur = tk_tensor_retain((tk_tensor *)x);
    for (int i = 0; i < na && !s; i++) {
        int d = i;
        if (axes && (s = tko_axis(oc, axes[i], nd, &d))) break;
        if (seen[d]) {
            s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "axis %d is given twice", d);
            break;
        }
        seen[d] = true;
        int64_t size = tk_tensor_shape(x)[d], want = target[i];
        if (want < 0) {
            s = tko_fail(oc, TK_ERR_SHAPE, "shape[%d] = %lld is negative", i, (long long)want);
            break;
        }
        if (want < size) {
            int64_t from = (size - want) / 2;
            tk_tensor *next;
            s = tko_wrap(oc, tk_slice(oc->ctx, cur, d, from, from + want, 1, &next));
            tk_tensor_release(cur);
            cur = s ? NULL : next;
        } else if (want > size) {
            tk_pads[2 * (nd - 1 - d)] = (want - size) / 2;
            tk_pads[2 * (nd - 1 - d) + 1] = want - size - (want - size) / 2;
            padded = true;
        }
    }
    if (s || !padded) {
        oc->out[0] = s ? NULL : cur;
        if (s) tk_tensor_release(cur);
        return s;
    }
    s = tko_wrap(oc, tk_pad(oc->ctx, cur, tk_pads, 2 * nd, TK_PAD_CONSTANT, 0, &oc->out[0]));
    tk_tensor_release(cur);
    return s;
}

/* ------------------------------------------------------------ DepthToSpace, SpaceToDepth */

const char *tko_check_block_mode(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *mode = tko_attr_string(n, "mode", "DCR");
    if (strcmp(mode, "DCR") && strcmp(mode, "CRD")) {
        snprintf(why, len, "mode='%s' is neither DCR nor CRD", mode);
        return why;
    }
    if (tko_attr_int(n, "blocksize", 0) < 1) {
        snprintf(why, len, "blocksize %lld is not positive", (long long)tko_attr_int(n, "blocksize", 0));
        return why;
    }
    return NULL;
}

/* x reshaped to mid (6 dims), permuted by perm, reshaped to 4 dims (a copy). */
static tk_status regroup(TkoOpCtx *oc, const int64_t *mid, const int *perm, const int64_t *final)
{
    tk_tensor *a = NULL, *b = NULL;
    tk_status s = tk_reshape(oc->ctx, oc->in[0], 6, mid, &a);
    if (!s) s = tk_permute(oc->ctx, a, perm, &b);
    if (!s) s = tk_reshape(oc->ctx, b, 4, final, &oc->out[0]);
    tk_tensor_release(a);
    tk_tensor_release(b);
    return tko_wrap(oc, s);
}

static tk_status nchw(TkoOpCtx *oc, int64_t *b, int64_t *c, int64_t *h, int64_t *w)
{
    const tk_tensor *x = oc->in[0];
    if (tk_tensor_ndim(x) != 4) return tko_fail(oc, TK_ERR_SHAPE, "input has rank %d (4 is required: N, C, H, W)", tk_tensor_ndim(x));
    const int64_t *sh = tk_tensor_shape(x);
    *b = sh[0], *c = sh[1], *h = sh[2], *w = sh[3];
    return TK_OK;
}

tk_status tko_run_depth_to_space(TkoOpCtx *oc)
{
    int64_t b = 0, c = 0, h = 0, w = 0, bs = tko_attr_int(oc->node, "blocksize", 1);
    tk_status s = nchw(oc, &b, &c, &h, &w);
    if (s) return s;
    if (c % (bs * bs)) return tko_fail(oc, TK_ERR_SHAPE, "C = %lld is not a multiple of blocksize² = %lld", (long long)c, (long long)(bs * bs));
    int64_t cc = c / (bs * bs), final[4] = { b, cc, h * bs, w * bs };
    if (strcmp(tko_attr_string(oc->node, "mode", "DCR"), "DCR") == 0)
        return regroup(oc, (int64_t[]){ b, bs, bs, cc, h, w }, (int[]){ 0, 3, 4, 1, 5, 2 }, final);
    return regroup(oc, (int64_t[]){ b, cc, bs, bs, h, w }, (int[]){ 0, 1, 4, 2, 5, 3 }, final);
}

tk_status tko_run_space_to_depth(TkoOpCtx *oc)
{
    int64_t b = 0, c = 0, h = 0, w = 0, bs = tko_attr_int(oc->node, "blocksize", 1);
    tk_status s = nchw(oc, &b, &c, &h, &w);
    if (s) return s;
    if (h % bs || w % bs)
        return tko_fail(oc, TK_ERR_SHAPE, "H = %lld and W = %lld are not multiples of blocksize %lld", (long long)h, (long long)w, (long long)bs);
    int64_t mid[6] = { b, c, h / bs, bs, w / bs, bs }, final[4] = { b, c * bs * bs, h / bs, w / bs };
    if (strcmp(tko_attr_string(oc->node, "mode", "DCR"), "DCR") == 0) return regroup(oc, mid, (int[]){ 0, 3, 5, 1, 2, 4 }, final);
    return regroup(oc, mid, (int[]){ 0, 1, 3, 5, 2, 4 }, final);
}
