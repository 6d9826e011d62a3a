/* test_device.c — the runtime on a GPU device, tested without a GPU: the
 * emulated GPU (TK_DEVICE_CUDA_EMU) runs the same paths a CUDA context takes
 * (tensors moved with tk_tensor_to, staging through the host, the stdlib's
 * GPU kernels, tk_call), with the NVIDIA lowering executed by the emulator.
 * Results are compared with plain double-precision loops on the host, on
 * shapes that are not multiples of the kernels' tiles. A CUDA context
 * without a driver must fail with a message naming what is missing. */
#define _GNU_SOURCE   /* mkstemps */
#include <math.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static tk_context *gpu;   /* the emulated GPU's context; tkt_ctx is the CPU's */

static void gpu_setup(void)
{
    tkt_setup();
    tk_context_opts o = { .device = TK_DEVICE_CUDA_EMU, .threads = 2 };
    ck_assert_int_eq(tk_context_create(&o, &gpu), TK_OK);
}

static void gpu_teardown(void)
{
    tk_memory_stats st;
    tk_memory_stats_get(gpu, &st);
    ck_assert_msg(st.live_tensors == 0, "%lld tensors leaked on the GPU context", (long long)st.live_tensors);
    tk_context_free(gpu);
    gpu = NULL;
    tkt_teardown();
}

#define GPU_OK(call)                                                                                          \
    do {                                                                                                      \
        tk_status s_ = (call);                                                                                \
        ck_assert_msg(s_ == TK_OK, "%s failed (status %d): %s", #call, (int)s_, tk_last_error(gpu));          \
    } while (0)

static void gpu_fails(tk_status got, tk_status want, const char *needle, const char *what)
{
    const char *msg = tk_last_error(gpu);
    ck_assert_msg(got == want, "%s: expected status %d, got %d (%s)", what, (int)want, (int)got, msg);
    ck_assert_msg(strstr(msg, needle), "%s: message '%s' does not mention '%s'", what, msg, needle);
}
#define GPU_FAILS(call, status, needle) gpu_fails((call), (status), (needle), #call)

/* A seeded random CPU tensor and its copy on the GPU. */
static tk_tensor *cpu_randn(tk_dtype dt, int ndim, const int64_t *shape, uint64_t seed)
{
    tk_tensor *t;
    TKT_OK(tk_randn(tkt_ctx, dt, ndim, shape, seed, &t));
    return t;
}

static tk_tensor *to_gpu(const tk_tensor *t)
{
    tk_tensor *g;
    GPU_OK(tk_tensor_to(gpu, t, &g));
    ck_assert_int_eq(tk_tensor_device(g), TK_DEVICE_CUDA_EMU);
    return g;
}

/* The tensor's values as doubles (from any device), malloc'd. */
static double *values(const tk_tensor *t)
{
    tk_tensor *h, *f;
    TKT_OK(tk_tensor_to(tkt_ctx, t, &h));
    TKT_OK(tk_to_dtype(tkt_ctx, h, TK_DTYPE_F64, &f));
    int64_t n = tk_tensor_numel(f);
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    TKT_OK(tk_to_data(tkt_ctx, f, v, (size_t)n * sizeof *v));
    TKT_RELEASE(h, f);
    return v;
}

/* |got - want| <= tol · (max |want| + 1) everywhere. */
static void expect_near(const double *got, const double *want, int64_t n, double tol, const char *what)
{
    double scale = 1, worst = 0;
    int64_t at = 0;
    for (int64_t i = 0; i < n; i++) scale = fmax(scale, fabs(want[i]));
    for (int64_t i = 0; i < n; i++)
        if (!(fabs(got[i] - want[i]) <= worst)) worst = fabs(got[i] - want[i]), at = i;
    ck_assert_msg(worst <= tol * scale, "%s: element %lld is %.9g, want %.9g (|diff| %.3g > %.3g)", what, (long long)at, got[at], want[at],
                  worst, tol * scale);
}

/* C[m, n] = A[m, k] · B (B [k, n], or [n, k] when nt) in double. */
static double *matmul_ref(const double *a, const double *b, int64_t m, int64_t n, int64_t k, bool nt, const double *bias)
{
    double *c = calloc((size_t)(m * n > 0 ? m * n : 1), sizeof *c);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double acc = bias ? bias[j] : 0;
            for (int64_t q = 0; q < k; q++) acc += a[i * k + q] * (nt ? b[j * k + q] : b[q * n + j]);
            c[i * n + j] = acc;
        }
    return c;
}

START_TEST(moves_between_devices)
{
    ck_assert_int_eq(tk_context_device(gpu), TK_DEVICE_CUDA_EMU);
    ck_assert_str_eq(tk_context_device_name(gpu), "cuda-emu");
    tk_tensor *x = cpu_randn(TK_DTYPE_F32, 2, (int64_t[]){ 37, 53 }, 1);
    tk_tensor *g = to_gpu(x), *back;
    TKT_OK(tk_tensor_to(tkt_ctx, g, &back));
    ck_assert_int_eq(tk_tensor_device(back), TK_DEVICE_CPU);
    tkt_expect_equal(back, x, "cpu → gpu → cpu");
    /* a permuted (strided) tensor moves as its contiguous values, both ways */
    tk_tensor *xt, *xtc, *gt, *gtc, *gtc_back, *bt;
    TKT_OK(tk_transpose(tkt_ctx, x, 0, 1, &xt));
    TKT_OK(tk_contiguous(tkt_ctx, xt, &xtc));
    gt = to_gpu(xt);
    TKT_OK(tk_tensor_to(tkt_ctx, gt, &bt));
    tkt_expect_equal(bt, xtc, "a transposed CPU tensor on the GPU");
    GPU_OK(tk_transpose(gpu, g, 0, 1, &gtc));   /* a view on the GPU ... */
    tk_tensor *gcont;
    GPU_OK(tk_contiguous(gpu, gtc, &gcont));   /* ... made contiguous there (staged) */
    TKT_OK(tk_tensor_to(tkt_ctx, gcont, &gtc_back));
    tkt_expect_equal(gtc_back, xtc, "a GPU view made contiguous");
    /* bytes in and out */
    float raw[6] = { 1, -2, 3.5f, 4, 5, -6 }, out[6] = { 0 };
    tk_tensor *r;
    GPU_OK(tk_from_data(gpu, raw, TK_DTYPE_F32, 2, (int64_t[]){ 2, 3 }, &r));
    GPU_OK(tk_to_data(gpu, r, out, sizeof out));
    ck_assert_mem_eq(raw, out, sizeof raw);
    double item;
    GPU_OK(tk_item(gpu, r, (int64_t[]){ 1, 2 }, &item));
    ck_assert(item == -6.0);
    GPU_OK(tk_fill_(gpu, r, 2.5));
    GPU_OK(tk_to_data(gpu, r, out, sizeof out));
    for (int i = 0; i < 6; i++) ck_assert(out[i] == 2.5f);
    /* a file read onto the GPU is read on the host and moved */
    char path[] = "/tmp/tk_device_XXXXXX.npy";
    int fd = mkstemps(path, 4);
    ck_assert_int_ge(fd, 0);
    close(fd);
    TKT_OK(tk_save_npy(tkt_ctx, x, path));
    tk_tensor *loaded, *loaded_back;
    GPU_OK(tk_load_npy(gpu, path, &loaded));
    unlink(path);
    ck_assert_int_eq(tk_tensor_device(loaded), TK_DEVICE_CUDA_EMU);
    TKT_OK(tk_tensor_to(tkt_ctx, loaded, &loaded_back));
    tkt_expect_equal(loaded_back, x, "tk_load_npy onto the GPU");
    TKT_RELEASE(x, g, back, xt, xtc, gt, gtc, gcont, gtc_back, bt, r, loaded, loaded_back);
}
END_TEST

START_TEST(creation_and_conversion)
{
    tk_tensor *c = cpu_randn(TK_DTYPE_F32, 2, (int64_t[]){ 9, 31 }, 7), *g, *gb, *cb, *back;
    GPU_OK(tk_randn(gpu, TK_DTYPE_F32, 2, (int64_t[]){ 9, 31 }, 7, &g));   /* made on the host, moved */
    TKT_OK(tk_tensor_to(tkt_ctx, g, &back));
    tkt_expect_equal(back, c, "tk_randn on the GPU is the CPU's");
    GPU_OK(tk_to_dtype(gpu, g, TK_DTYPE_BF16, &gb));
    TKT_OK(tk_to_dtype(tkt_ctx, c, TK_DTYPE_BF16, &cb));
    tk_tensor *gb_back;
    TKT_OK(tk_tensor_to(tkt_ctx, gb, &gb_back));
    tkt_expect_equal(gb_back, cb, "bf16 conversion on the GPU");
    tk_tensor *z, *e;
    GPU_OK(tk_zeros(gpu, TK_DTYPE_F32, 1, (int64_t[]){ 5 }, &z));
    GPU_OK(tk_eye(gpu, TK_DTYPE_F32, 3, 4, &e));
    double *zv = values(z), *ev = values(e);
    for (int i = 0; i < 5; i++) ck_assert(zv[i] == 0);
    for (int i = 0; i < 12; i++) ck_assert(ev[i] == (i / 4 == i % 4 ? 1.0 : 0.0));
    free(zv), free(ev);
    TKT_RELEASE(c, g, gb, cb, back, gb_back, z, e);
}
END_TEST

START_TEST(cpu_ops_refuse_gpu_tensors)
{
    tk_tensor *x = cpu_randn(TK_DTYPE_F32, 1, (int64_t[]){ 8 }, 3), *g = to_gpu(x), *y = NULL;
    GPU_FAILS(tk_add(gpu, g, g, &y), TK_ERR_UNSUPPORTED, "does not run on device cuda-emu");
    ck_assert_ptr_null(y);
    GPU_FAILS(tk_unary(gpu, TK_EXP, g, &y), TK_ERR_UNSUPPORTED, "tk_tensor_to");
    GPU_FAILS(tk_log_softmax(gpu, g, -1, &y), TK_ERR_UNSUPPORTED, "cuda-emu");
    /* a GPU tensor given to a CPU context: named, not read */
    TKT_FAILS(tk_add(tkt_ctx, x, g, &y), TK_ERR_INVALID_ARGUMENT, "lives on device cuda-emu");
    ck_assert_ptr_null(y);
    TKT_RELEASE(x, g);
}
END_TEST

static void check_matmul(tk_dtype dt, int64_t m, int64_t n, int64_t k, int batch, double tol)
{
    int64_t as[3] = { batch, m, k }, bs[3] = { batch, k, n };
    int nd = batch ? 3 : 2;
    tk_tensor *a = cpu_randn(dt, nd, batch ? as : as + 1, 11), *b = cpu_randn(dt, nd, batch ? bs : bs + 1, 12);
    tk_tensor *ga = to_gpu(a), *gb = to_gpu(b), *gc;
    GPU_OK(tk_matmul(gpu, ga, gb, &gc));
    ck_assert_int_eq(tk_tensor_dtype(gc), dt);
    ck_assert_int_eq(tk_tensor_ndim(gc), nd);
    double *av = values(a), *bv = values(b), *cv = values(gc);
    int nb = batch ? batch : 1;
    for (int i = 0; i < nb; i++) {
        double *want = matmul_ref(av + i * m * k, bv + i * k * n, m, n, k, false, NULL);
        expect_near(cv + i * m * n, want, m * n, tol, dt == TK_DTYPE_F32 ? "f32 matmul on the GPU" : "bf16 matmul on the GPU");
        free(want);
    }
    free(av), free(bv), free(cv);
    TKT_RELEASE(a, b, ga, gb, gc);
}

START_TEST(matmul_runs_gpu_kernels)
{
    check_matmul(TK_DTYPE_F32, 45, 61, 70, 0, 1e-5);
    check_matmul(TK_DTYPE_BF16, 33, 50, 40, 0, 1.0 / 128);   /* one bf16 rounding of the result */
    check_matmul(TK_DTYPE_F32, 20, 19, 17, 3, 1e-5);
}
END_TEST

START_TEST(linear_with_bias)
{
    tk_tensor *x = cpu_randn(TK_DTYPE_F32, 3, (int64_t[]){ 2, 19, 33 }, 21), *w = cpu_randn(TK_DTYPE_F32, 2, (int64_t[]){ 29, 33 }, 22),
              *bias = cpu_randn(TK_DTYPE_F32, 1, (int64_t[]){ 29 }, 23);
    tk_tensor *gx = to_gpu(x), *gw = to_gpu(w), *gbias = to_gpu(bias), *gy;
    GPU_OK(tk_linear(gpu, gx, gw, gbias, &gy));
    ck_assert_int_eq(tk_tensor_size(gy, 2), 29);
    double *xv = values(x), *wv = values(w), *bv = values(bias), *yv = values(gy);
    double *want = matmul_ref(xv, wv, 38, 29, 33, true, bv);
    expect_near(yv, want, 38 * 29, 1e-5, "linear on the GPU");
    free(xv), free(wv), free(bv), free(yv), free(want);
    TKT_RELEASE(x, w, bias, gx, gw, gbias, gy);
}
END_TEST

static void check_softmax(tk_dtype dt, double tol)
{
    int64_t r = 7, c = 100;
    tk_tensor *x = cpu_randn(dt, 2, (int64_t[]){ r, c }, 31), *gx = to_gpu(x), *gy;
    GPU_OK(tk_softmax(gpu, gx, -1, &gy));
    double *xv = values(x), *yv = values(gy), *want = malloc((size_t)(r * c) * sizeof *want);
    for (int64_t i = 0; i < r; i++) {
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < c; j++) mx = fmax(mx, xv[i * c + j]);
        for (int64_t j = 0; j < c; j++) sum += exp(xv[i * c + j] - mx);
        for (int64_t j = 0; j < c; j++) want[i * c + j] = exp(xv[i * c + j] - mx) / sum;
    }
    expect_near(yv, want, r * c, tol, "softmax on the GPU");
    free(xv), free(yv), free(want);
    tk_tensor *bad = NULL;
    GPU_FAILS(tk_softmax(gpu, gx, 0, &bad), TK_ERR_UNSUPPORTED, "last dim");
    TKT_RELEASE(x, gx, gy);
}

START_TEST(softmax_runs_gpu_kernels)
{
    check_softmax(TK_DTYPE_F32, 1e-6);
    check_softmax(TK_DTYPE_BF16, 1.0 / 256);
}
END_TEST

START_TEST(norms_run_gpu_kernels)
{
    int64_t r = 5, c = 70;
    tk_tensor *x = cpu_randn(TK_DTYPE_F32, 2, (int64_t[]){ r, c }, 41), *w = cpu_randn(TK_DTYPE_F32, 1, &c, 42),
              *b = cpu_randn(TK_DTYPE_F32, 1, &c, 43);
    tk_tensor *gx = to_gpu(x), *gw = to_gpu(w), *gb = to_gpu(b), *ln, *rms;
    GPU_OK(tk_layer_norm(gpu, gx, 1, gw, gb, 1e-5, &ln));
    GPU_OK(tk_rms_norm(gpu, gx, 1, gw, 1e-6, &rms));
    double *xv = values(x), *wv = values(w), *bv = values(b), *lv = values(ln), *rv = values(rms);
    double *wl = malloc((size_t)(r * c) * sizeof *wl), *wr = malloc((size_t)(r * c) * sizeof *wr);
    for (int64_t i = 0; i < r; i++) {
        double mean = 0, var = 0, sq = 0;
        for (int64_t j = 0; j < c; j++) mean += xv[i * c + j] / (double)c, sq += xv[i * c + j] * xv[i * c + j] / (double)c;
        for (int64_t j = 0; j < c; j++) var += (xv[i * c + j] - mean) * (xv[i * c + j] - mean) / (double)c;
        for (int64_t j = 0; j < c; j++) {
            wl[i * c + j] = (xv[i * c + j] - mean) / sqrt(var + 1e-5) * wv[j] + bv[j];
            wr[i * c + j] = xv[i * c + j] / sqrt(sq + 1e-6) * wv[j];
        }
    }
    expect_near(lv, wl, r * c, 1e-5, "layer_norm on the GPU");
    expect_near(rv, wr, r * c, 1e-5, "rms_norm on the GPU");
    free(xv), free(wv), free(bv), free(lv), free(rv), free(wl), free(wr);
    TKT_RELEASE(x, w, b, gx, gw, gb, ln, rms);
}
END_TEST

/* softmax(q·kᵀ·scale + mask) · v per head in double; GQA head h reads KV head h / (H / HKV). */
static double *sdpa_ref(const double *q, const double *k, const double *v, const double *mask, int64_t b, int64_t h, int64_t hkv,
                        int64_t s, int64_t skv, int64_t d, bool causal)
{
    double *o = calloc((size_t)(b * h * s * d), sizeof *o), *p = malloc((size_t)skv * sizeof *p), scale = 1.0 / sqrt((double)d);
    for (int64_t bb = 0; bb < b; bb++)
        for (int64_t hh = 0; hh < h; hh++)
            for (int64_t i = 0; i < s; i++) {
                int64_t kh = hh / (h / hkv);
                const double *qi = q + ((bb * h + hh) * s + i) * d;
                double mx = -INFINITY, l = 0;
                for (int64_t j = 0; j < skv; j++) {
                    double acc = 0;
                    for (int64_t t = 0; t < d; t++) acc += qi[t] * k[((bb * hkv + kh) * skv + j) * d + t];
                    acc = acc * scale + (mask ? mask[i * skv + j] : 0);
                    p[j] = causal && j > i + skv - s ? -INFINITY : acc;
                    mx = fmax(mx, p[j]);
                }
                for (int64_t j = 0; j < skv; j++) l += p[j] = mx == -INFINITY ? 0 : exp(p[j] - mx);
                for (int64_t t = 0; t < d; t++) {
                    double acc = 0;
                    for (int64_t j = 0; j < skv; j++) acc += p[j] * v[((bb * hkv + kh) * skv + j) * d + t];
                    o[((bb * h + hh) * s + i) * d + t] = l > 0 ? acc / l : 0;
                }
            }
    free(p);
    return o;
}

static void check_sdpa(tk_dtype dt, bool causal, bool masked, double tol)
{
    int64_t b = 2, h = 4, hkv = 2, sl = 19, skv = 23, d = 40;
    tk_tensor *q = cpu_randn(dt, 4, (int64_t[]){ b, h, sl, d }, 61), *k = cpu_randn(dt, 4, (int64_t[]){ b, hkv, skv, d }, 62),
              *v = cpu_randn(dt, 4, (int64_t[]){ b, hkv, skv, d }, 63), *m = cpu_randn(TK_DTYPE_F32, 4, (int64_t[]){ 1, 1, sl, skv }, 64);
    tk_tensor *gq = to_gpu(q), *gk = to_gpu(k), *gv = to_gpu(v), *gm = to_gpu(m), *go;
    tk_sdpa_opts o = { .causal = causal, .mask = masked ? gm : NULL };
    GPU_OK(tk_sdpa(gpu, gq, gk, gv, &o, &go));
    double *qv = values(q), *kv = values(k), *vv = values(v), *mv = values(m), *ov = values(go);
    double *want = sdpa_ref(qv, kv, vv, masked ? mv : NULL, b, h, hkv, sl, skv, d, causal);
    expect_near(ov, want, b * h * sl * d, tol, causal ? "causal attention on the GPU" : "attention on the GPU");
    free(qv), free(kv), free(vv), free(mv), free(ov), free(want);
    TKT_RELEASE(q, k, v, m, gq, gk, gv, gm, go);
}

START_TEST(attention_runs_gpu_kernels)
{
    check_sdpa(TK_DTYPE_F32, true, false, 1e-5);
    check_sdpa(TK_DTYPE_F32, false, true, 1e-5);
    check_sdpa(TK_DTYPE_BF16, true, false, 1.0 / 64);   /* P rounded to bf16 before P·V, and the output */
    tk_tensor *x = cpu_randn(TK_DTYPE_F32, 4, (int64_t[]){ 1, 1, 3, 130 }, 1), *g = to_gpu(x), *y = NULL;
    GPU_FAILS(tk_sdpa(gpu, g, g, g, NULL, &y), TK_ERR_UNSUPPORTED, "D <= 128");
    TKT_RELEASE(x, g);
}
END_TEST

static const char scale_src[] = "kernel scale2(gl<f32, M, N> X, gl<f32, M, N> Y, f32 s) grid(cdiv(M, 16), cdiv(N, 16)) warps(1)\n"
                                "{\n"
                                "    rt<f32, 16, 16> x = load(X, block.x, block.y);\n"
                                "    store(Y, mul(x, s), block.x, block.y);\n"
                                "}\n";

START_TEST(tk_call_on_the_gpu)
{
    tk_program *emu_p, *host_p, *ptx_p;
    char *diags = NULL;
    tk_compile_options eo = { .target = "sm_80-emu" }, po = { .target = "sm_80" };
    ck_assert_int_eq(tk_compile_source("scale.tk", scale_src, sizeof scale_src - 1, &eo, &emu_p, &diags), TK_OK);
    ck_assert_int_eq(tk_compile_source("scale.tk", scale_src, sizeof scale_src - 1, NULL, &host_p, &diags), TK_OK);
    ck_assert_int_eq(tk_compile_source("scale.tk", scale_src, sizeof scale_src - 1, &po, &ptx_p, &diags), TK_OK);
    tk_tensor *x = cpu_randn(TK_DTYPE_F32, 2, (int64_t[]){ 21, 37 }, 51), *y0, *gx = to_gpu(x), *gy;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 21, 37 }, &y0));
    gy = to_gpu(y0);
    tk_call_arg args[3] = { TK_CALL_TENSOR(gx), TK_CALL_TENSOR(gy), TK_CALL_F32(-1.5) };
    GPU_OK(tk_call(gpu, tk_program_kernel(emu_p, "scale2"), args, 3));
    double *xv = values(x), *yv = values(gy);
    for (int i = 0; i < 21 * 37; i++) ck_assert_msg(yv[i] == (double)(float)(-1.5 * xv[i]), "element %d", i);
    free(xv), free(yv);
    /* a kernel compiled for the host, or for a real GPU, is named and refused */
    GPU_FAILS(tk_call(gpu, tk_program_kernel(host_p, "scale2"), args, 3), TK_ERR_TARGET, "compiled for the host");
    GPU_FAILS(tk_call(gpu, tk_program_kernel(ptx_p, "scale2"), args, 3), TK_ERR_TARGET, "sm_80-emu");
    tk_arg raw[3] = { TK_TENSOR2(tk_tensor_data(y0), 21, 37), TK_TENSOR2(tk_tensor_data(y0), 21, 37), TK_SCALAR(&(float){ 2 }) };
    ck_assert_int_eq(tk_kernel_launch(tk_program_kernel(ptx_p, "scale2"), raw, 3, 1), TK_ERR_TARGET);
    ck_assert_msg(strstr(tk_kernel_error(tk_program_kernel(ptx_p, "scale2")), "TK_DEVICE_CUDA"), "%s",
                  tk_kernel_error(tk_program_kernel(ptx_p, "scale2")));
    TKT_RELEASE(x, y0, gx, gy);
    tk_program_free(emu_p);
    tk_program_free(host_p);
    tk_program_free(ptx_p);
}
END_TEST

START_TEST(cuda_without_a_driver)
{
    setenv("TK_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
    tk_context_opts o = { .device = TK_DEVICE_CUDA };
    tk_context *c = NULL;
    ck_assert_int_eq(tk_context_create(&o, &c), TK_ERR_TARGET);
    ck_assert_ptr_null(c);
    ck_assert_msg(strstr(tk_last_error(NULL), "no CUDA driver: cannot open /nonexistent/libcuda.so.1"), "%s", tk_last_error(NULL));
    unsetenv("TK_CUDA_LIBRARY");
    o.device = (tk_device_type)7;
    ck_assert_int_eq(tk_context_create(&o, &c), TK_ERR_TARGET);
    ck_assert_msg(strstr(tk_last_error(NULL), "device type 7"), "%s", tk_last_error(NULL));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("device");
    TCase *tc = tcase_create("emulated GPU");
    tcase_add_checked_fixture(tc, gpu_setup, gpu_teardown);
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, moves_between_devices);
    tcase_add_test(tc, creation_and_conversion);
    tcase_add_test(tc, cpu_ops_refuse_gpu_tensors);
    tcase_add_test(tc, matmul_runs_gpu_kernels);
    tcase_add_test(tc, linear_with_bias);
    tcase_add_test(tc, softmax_runs_gpu_kernels);
    tcase_add_test(tc, norms_run_gpu_kernels);
    tcase_add_test(tc, attention_runs_gpu_kernels);
    tcase_add_test(tc, tk_call_on_the_gpu);
    tcase_add_test(tc, cuda_without_a_driver);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(suite)
