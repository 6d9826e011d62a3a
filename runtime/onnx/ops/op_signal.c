/* op_signal.c — ONNX signal ops: the window functions (Hann, Hamming,
 * Blackman), MelWeightMatrix, DFT (opset 17: axis attribute; 20: axis
 * input) and STFT.
 *
 * Transforms are direct sums in double (O(n²) per line, twiddles taken from
 * a table indexed by k·t mod n, so the angle is exact), one line per piece of
 * a parallel loop: a line's result never depends on the thread count.
 * Complex tensors are ONNX's: a last dim of 2 (real, imaginary); a last dim
 * of 1 is a real signal. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "tk/ops.h"
#include "tk/shape.h"

#define PI 3.14159265358979323846

/* ------------------------------------------------------------ windows */

typedef enum { WIN_HANN, WIN_HAMMING, WIN_BLACKMAN } WindowKind;

static const char *check_output_datatype(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t t = tko_attr_int(n, "output_datatype", 1);
    if (tkr_onnx_dtype(t) < 0) {
        snprintf(why, len, "output_datatype %s: the runtime has no such dtype", tkr_onnx_type_name(t));
        return why;
    }
    return NULL;
}

/* The window size from a scalar input, checked. */
static tk_status size_input(TkoOpCtx *oc, int i, const char *what, int64_t *v)
{
    int count;
    tk_status s = tko_input_ints(oc, i, v, 1, &count);
    if (s) return s;
    if (count != 1) return tko_fail(oc, TK_ERR_SHAPE, "%s is empty", what);
    if (*v < 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "%s is %lld; it must be >= 0", what, (long long)*v);
    return TK_OK;
}

/* periodic=1 (the default) divides by size, as a DFT frame wants; 0 by size-1 (symmetric). */
static tk_status run_window(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    WindowKind k = (WindowKind)n->def->arg;
    int64_t size;
    tk_status s = size_input(oc, 0, "size", &size);
    if (s) return s;
    double N = tko_attr_int(n, "periodic", 1) ? (double)size : (double)(size - 1);
    double *w = malloc((size_t)(size ? size : 1) * sizeof *w);
    if (!w) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for a window of %lld", (long long)size);
    for (int64_t i = 0; i < size; i++) {
        double x = 2 * PI * (double)i / N;
        if (k == WIN_HANN) w[i] = sin(PI * (double)i / N) * sin(PI * (double)i / N);
        else if (k == WIN_HAMMING) w[i] = 25.0 / 46.0 - (1 - 25.0 / 46.0) * cos(x);
        else w[i] = 0.42 - 0.5 * cos(x) + 0.08 * cos(2 * x);
    }
    tk_tensor *t = NULL;
    s = tk_from_data(oc->ctx, w, TK_DTYPE_F64, 1, &size, &t);
    free(w);
    if (s) return tko_wrap(oc, s);
    oc->out[0] = t;
    return tko_as_dtype(oc, &oc->out[0], (tk_dtype)tkr_onnx_dtype(tko_attr_int(n, "output_datatype", 1)));
}

/* MelWeightMatrix: [dft_length/2 + 1, num_mel_bins] triangles, spaced evenly
 * on the mel scale, with the edges the ONNX reference computes (its mel step
 * divides by num_mel_bins + 2 and bins are floored to integers). */
static tk_status run_mel(TkoOpCtx *oc)
{
    int64_t bins, dft_length, rate;
    double lo, hi;
    tk_status s;
    if ((s = size_input(oc, 0, "num_mel_bins", &bins)) || (s = size_input(oc, 1, "dft_length", &dft_length)) ||
        (s = size_input(oc, 2, "sample_rate", &rate)) || (s = tko_input_scalar(oc, 3, &lo)) || (s = tko_input_scalar(oc, 4, &hi)))
        return s;
    if (rate == 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "sample_rate is 0");
    int64_t spec_bins = dft_length / 2 + 1;
    int64_t *edge = malloc((size_t)(bins + 2) * sizeof *edge);
    double *m = calloc((size_t)(spec_bins * bins > 0 ? spec_bins * bins : 1), sizeof *m);
    if (!edge || !m) {
        free(edge), free(m);
        return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for a [%lld, %lld] matrix", (long long)spec_bins, (long long)bins);
    }
    /* the reference reads the edge frequencies as f32 */
    double lo_mel = 2595 * (double)log1pf((float)lo / 700.0f) / log(10), hi_mel = 2595 * (double)log1pf((float)hi / 700.0f) / log(10);
    double step = (hi_mel - lo_mel) / (double)(bins + 2);
    for (int64_t i = 0; i < bins + 2; i++) {
        double hz = 700 * expm1(((double)i * step + lo_mel) / 2595 * log(10));
        edge[i] = (int64_t)floor((double)(dft_length + 1) * hz / (double)rate);
    }
    s = TK_OK;
    for (int64_t i = 0; i < bins && !s; i++) {
        int64_t l = edge[i], c = edge[i + 1], r = edge[i + 2];
        if (l < 0 || r > spec_bins || (c >= spec_bins && c - l == 0)) {
            s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "mel bin %lld spans spectrum bins %lld..%lld, outside 0..%lld (check the edge frequencies)",
                         (long long)i, (long long)l, (long long)r, (long long)spec_bins - 1);
            break;
        }
        if (c == l) m[c * bins + i] = 1;
        else
            for (int64_t j = l; j <= c && j < spec_bins; j++) m[j * bins + i] = (double)(j - l) / (double)(c - l);
        for (int64_t j = c; j < r; j++) m[j * bins + i] = (double)(r - j) / (double)(r - c);
    }
    tk_tensor *t = NULL;
    if (!s) s = tko_wrap(oc, tk_from_data(oc->ctx, m, TK_DTYPE_F64, 2, (int64_t[]){ spec_bins, bins }, &t));
    free(edge), free(m);
    if (s) return s;
    oc->out[0] = t;
    return tko_as_dtype(oc, &oc->out[0], (tk_dtype)tkr_onnx_dtype(tko_attr_int(oc->node, "output_datatype", 1)));
}

/* ------------------------------------------------------------ DFT */

/* One transform along an axis of a [outer, len, inner, c] signal into a
 * [outer, out_len, inner, oc] result: forward, inverse (÷n) or the real
 * inverse of a one-sided spectrum (irfft, Hermitian symmetry). */
typedef struct {
    const tk_tensor *x;   /* the signal, contiguous f64 */
    tk_tensor *y;
    int64_t outer, len, inner, n, out_len;
    int cin, cout;
    bool inverse, real_out;
    const double *cos_t, *sin_t;   /* cos(2πj/n) and ±sin(2πj/n) (- forward, + inverse), j < n */
} Dft;

static void dft_lines(int64_t begin, int64_t end, void *arg)
{
    const Dft *d = arg;
    tk_dtype yt = d->y->dtype;
    size_t ys = tk_dtype_size(yt);
    const double *xd = (const double *)tkr_ptr(d->x);
    char *yp = tkr_ptr(d->y);
    int64_t n = d->n, ts = d->inner * d->cin;   /* ts: doubles between a line's consecutive samples */
    int64_t used = d->len < n ? d->len : n;    /* input beyond n is cut, short input is zero-padded */
    if (d->real_out) used = d->len < n / 2 + 1 ? d->len : n / 2 + 1;
    int64_t nyquist = n % 2 == 0 ? n / 2 : -1;
    const double *ct = d->cos_t, *st = d->sin_t;   /* st already carries the direction's sign */
    for (int64_t line = begin; line < end; line++) {
        int64_t o = line / d->inner, i = line % d->inner;
        const double *xl = xd + (o * d->len * d->inner + i) * d->cin;
        for (int64_t k = 0; k < d->out_len; k++) {
            double re = 0, im = 0;
            int64_t step = k % n, j = 0;   /* j = k·t mod n, kept exact without a product */
#define NEXT_J (j = j + step >= n ? j + step - n : j + step)
            if (d->real_out)
                /* bins 1 .. (n-1)/2 stand for themselves and their mirror; bin 0 and the Nyquist bin once, real part only */
                for (int64_t t = 0; t < used; t++, NEXT_J) {
                    bool once = t == 0 || t == nyquist;
                    double xr = xl[t * ts], xi = once ? 0 : xl[t * ts + 1];
                    re += (once ? 1 : 2) * (xr * ct[j] - xi * st[j]);
                }
            else if (d->cin == 1)
                for (int64_t t = 0; t < used; t++, NEXT_J) {
                    double xr = xl[t * ts];
                    re += xr * ct[j], im += xr * st[j];
                }
            else
                for (int64_t t = 0; t < used; t++, NEXT_J) {
                    double xr = xl[t * ts], xi = xl[t * ts + 1];
                    re += xr * ct[j] - xi * st[j], im += xr * st[j] + xi * ct[j];
                }
#undef NEXT_J
            if (d->inverse) re /= (double)n, im /= (double)n;
            int64_t e = ((o * d->out_len + k) * d->inner + i) * d->cout;
            tkr_store_f(yp + e * (int64_t)ys, yt, re);
            if (d->cout == 2) tkr_store_f(yp + (e + 1) * (int64_t)ys, yt, im);
        }
    }
}

/* A transform of x along axis (a signal dim, not the last) of length n. */
static tk_status transform(TkoOpCtx *oc, const tk_tensor *x, int axis, int64_t n, bool inverse, bool onesided, tk_tensor **out)
{
    int nd = tk_tensor_ndim(x);
    const int64_t *xs = tk_tensor_shape(x);
    Dft d = { .n = n, .cin = (int)xs[nd - 1], .inverse = inverse, .real_out = inverse && onesided };
    d.outer = 1, d.inner = 1, d.len = xs[axis];
    for (int a = 0; a < axis; a++) d.outer *= xs[a];
    for (int a = axis + 1; a < nd - 1; a++) d.inner *= xs[a];
    d.out_len = d.real_out ? n : onesided ? n / 2 + 1 : n;
    d.cout = d.real_out ? 1 : 2;
    int64_t shape[TK_MAX_DIMS];
    memcpy(shape, xs, (size_t)nd * sizeof *shape);
    shape[axis] = d.out_len, shape[nd - 1] = d.cout;
    double *table = malloc((size_t)(2 * (n ? n : 1)) * sizeof *table);
    if (!table) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for %lld twiddles", (long long)n);
    for (int64_t j = 0; j < n; j++) {
        table[j] = cos(2 * PI * (double)j / (double)n);
        table[n + j] = (inverse ? 1 : -1) * sin(2 * PI * (double)j / (double)n);   /* e^{∓2πi jt/n}: forward negative */
    }
    d.cos_t = table, d.sin_t = table + n;
    tk_tensor *xc = NULL, *y = NULL;
    /* the signal as contiguous f64 (a copy unless it already is): the sums read doubles, no dtype switch per sample */
    tk_status s = tk_tensor_dtype(x) == TK_DTYPE_F64 ? tk_contiguous(oc->ctx, x, &xc) : tk_to_dtype(oc->ctx, x, TK_DTYPE_F64, &xc);
    if (!s) s = tkr_new(oc->ctx, tk_tensor_dtype(x), nd, shape, &y);
    if (!s) {
        d.x = xc, d.y = y;
        int64_t lines = d.outer * d.inner, work = d.out_len * (d.len < n ? d.len : n);
        tkr_parallel_for(oc->ctx, lines, work > 4096 ? 1 : 4096 / (work ? work : 1), dft_lines, &d);
        *out = y, y = NULL;
    }
    free(table);
    tk_tensor_release(xc), tk_tensor_release(y);
    return tko_wrap(oc, s);
}

static tk_status run_dft(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x);
    char b[96];
    if (!tk_dtype_is_float(tk_tensor_dtype(x))) return tko_fail(oc, TK_ERR_DTYPE, "input is %s; a float type is required", tk_dtype_name(tk_tensor_dtype(x)));
    if (nd < 2 || (tk_tensor_shape(x)[nd - 1] != 1 && tk_tensor_shape(x)[nd - 1] != 2))
        return tko_fail(oc, TK_ERR_SHAPE, "input %s must end in a dim of 1 (real) or 2 (complex)", TKR_SHAPE(x, b));
    int64_t ax = tko_attr_int(n, "axis", 1);
    tk_status s;
    if (n->opset >= 20) {
        ax = -2;
        if (oc->nin > 2 && oc->in[2]) {
            int count;
            if ((s = tko_input_ints(oc, 2, &ax, 1, &count))) return s;
            if (count != 1) return tko_fail(oc, TK_ERR_SHAPE, "the axis input is empty");
        }
    }
    int axis;
    if ((s = tko_axis(oc, ax, nd, &axis))) return s;
    if (axis == nd - 1) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "axis %lld is the real/imaginary dim, not a signal dim", (long long)ax);
    bool inverse = tko_attr_int(n, "inverse", 0) != 0, onesided = tko_attr_int(n, "onesided", 0) != 0;
    if (onesided && !inverse && tk_tensor_shape(x)[nd - 1] == 2)
        return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "onesided=1 needs a real input (last dim 1), it is %s", TKR_SHAPE(x, b));
    int64_t len = tk_tensor_shape(x)[axis], dft_length = inverse && onesided ? 2 * (len - 1) : len;
    if (oc->nin > 1 && oc->in[1] && (s = size_input(oc, 1, "dft_length", &dft_length))) return s;
    if (dft_length < 1) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "dft_length is %lld; it must be >= 1", (long long)dft_length);
    return transform(oc, x, axis, dft_length, inverse, onesided, &oc->out[0]);
}

/* STFT: frames of frame_length every frame_step samples, each multiplied by
 * the window (ones when absent), then a forward DFT of each frame. */
static tk_status run_stft(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *x = oc->in[0], *window = oc->nin > 2 ? oc->in[2] : NULL;
    char b[96];
    if (!tk_dtype_is_float(tk_tensor_dtype(x))) return tko_fail(oc, TK_ERR_DTYPE, "signal is %s; a float type is required", tk_dtype_name(tk_tensor_dtype(x)));
    if (tk_tensor_ndim(x) != 3 || (tk_tensor_shape(x)[2] != 1 && tk_tensor_shape(x)[2] != 2))
        return tko_fail(oc, TK_ERR_SHAPE, "signal %s must be [batch, length, 1 or 2]", TKR_SHAPE(x, b));
    int64_t B = tk_tensor_shape(x)[0], L = tk_tensor_shape(x)[1], C = tk_tensor_shape(x)[2], step, fl = L;
    tk_status s = size_input(oc, 1, "frame_step", &step);
    if (s) return s;
    if (step < 1) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "frame_step is %lld; it must be >= 1", (long long)step);
    if (window && tk_tensor_ndim(window) != 1) return tko_fail(oc, TK_ERR_SHAPE, "window %s must be 1-d", TKR_SHAPE(window, b));
    if (window) fl = tk_tensor_shape(window)[0];
    if (oc->nin > 3 && oc->in[3]) {
        if ((s = size_input(oc, 3, "frame_length", &fl))) return s;
        if (window && fl != tk_tensor_shape(window)[0])
            return tko_fail(oc, TK_ERR_SHAPE, "frame_length %lld differs from the window's length %lld", (long long)fl,
                            (long long)tk_tensor_shape(window)[0]);
    }
    if (fl < 1 || fl > L) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "frame_length %lld is outside 1..%lld (the signal's length)", (long long)fl, (long long)L);
    bool onesided = tko_attr_int(oc->node, "onesided", 1) != 0;
    if (onesided && C == 2) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "onesided=1 needs a real signal (last dim 1)");
    int64_t frames = 1 + (L - fl) / step;
    /* the frames as a strided view [B, frames, fl, C] of x, times the window */
    tk_tensor *xc = NULL, *fr = NULL, *w = NULL, *wf = NULL, *weighted = NULL;
    s = tk_contiguous(ctx, x, &xc);
    if (!s) s = tkr_view(ctx, xc, 4, (int64_t[]){ B, frames, fl, C }, (int64_t[]){ L * C, step * C, C, 1 }, tk_tensor_offset(xc), &fr);
    if (!s && window) s = tk_reshape(ctx, window, 2, (int64_t[]){ fl, 1 }, &w);
    if (!s && window) s = tk_to_dtype(ctx, w, tk_tensor_dtype(x), &wf);
    if (!s) s = window ? tk_mul(ctx, fr, wf, &weighted) : tk_clone(ctx, fr, &weighted);
    tk_tensor_release(xc), tk_tensor_release(fr), tk_tensor_release(w), tk_tensor_release(wf);
    if (s) {
        tk_tensor_release(weighted);
        return tko_wrap(oc, s);
    }
    s = transform(oc, weighted, 2, fl, false, onesided, &oc->out[0]);
    tk_tensor_release(weighted);
    return s;
}

static const TkoOpDef defs[] = {
    OPDEF("HannWindow", 17, TKO_ANY, "output_datatype,periodic", run_window, check_output_datatype, 1, 1, WIN_HANN),
    OPDEF("HammingWindow", 17, TKO_ANY, "output_datatype,periodic", run_window, check_output_datatype, 1, 1, WIN_HAMMING),
    OPDEF("BlackmanWindow", 17, TKO_ANY, "output_datatype,periodic", run_window, check_output_datatype, 1, 1, WIN_BLACKMAN),
    OPDEF("MelWeightMatrix", 17, TKO_ANY, "output_datatype", run_mel, check_output_datatype, 5, 5, 0),
    OPDEF("DFT", 17, 19, "axis,inverse,onesided", run_dft, NULL, 1, 2, 0),
    OPDEF("DFT", 20, TKO_ANY, "inverse,onesided", run_dft, NULL, 1, 3, 0),
    OPDEF("STFT", 17, TKO_ANY, "onesided", run_stft, NULL, 2, 4, 0),
};

TKO_FAMILY_OF(tko_ops_signal, defs);
