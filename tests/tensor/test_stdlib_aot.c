/* test_stdlib_aot.c — the stdlib kernels compiled ahead of time into libtk
 * (runtime/core/stdlib_aot.h):
 *   - a first tk_matmul / tk_linear / tk_sdpa in a fresh process, with an empty
 *     disk cache, goes to LLVM not once (tkr_compiler_jit_count), and its
 *     results match plain double loops; the same on 1 and 2 threads, bit for bit;
 *   - the prebuilt code of a gemm (an instance and the default) and of an
 *     attention kernel gives the bits the JIT gives for the same CPU level;
 *     an instance the build did not compile is an error without the JIT
 *     fallback and comes from the JIT with it;
 *   - the code of every level this CPU runs (not only the one chosen) is
 *     right: f32 and bf16 gemms and an attention against double loops.
 * Check forks a process per test, and this file touches no stdlib kernel
 * outside a test: each test starts with none compiled. Shapes are odd on
 * purpose (not multiples of any tile). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include "compiler_prebuilt.h"
#include "harness.h"
#include "stdlib_aot.h"
#include "target.h"

extern const struct {
    const char *name;
    const char *text;
    size_t len;
} tkr_stdlib_sources[];

/* An empty disk cache of our own, so that nothing can come from an earlier run. */
static void empty_cache(char *dir, size_t len)
{
    snprintf(dir, len, "%s/tk-aot-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    setenv("TK_CACHE_DIR", dir, 1);
}

/* Removes the cache, which must hold `objects` files (the JIT's objects, cached). */
static void remove_cache(const char *dir, int objects)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    char path[8192];
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
            n++;
        }
    closedir(d);
    ck_assert_msg(rmdir(dir) == 0, "cannot remove the cache %s", dir);
    ck_assert_msg(n == objects, "the cache held %d files, want %d", n, objects);
}

static const float *f32(const tk_tensor *t) { return tk_tensor_data(t); }

/* C = A·B in double; |got - want| <= 1e-5 · Σ|a·b| + 1e-6 (f32 accumulation in any order) */
static void expect_matmul(const tk_tensor *a, const tk_tensor *b, const tk_tensor *c, int64_t m, int64_t k, int64_t n)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double want = 0, mag = 0;
            for (int64_t t = 0; t < k; t++) {
                double p = (double)f32(a)[i * k + t] * f32(b)[t * n + j];
                want += p;
                mag += fabs(p);
            }
            double got = f32(c)[i * n + j];
            ck_assert_msg(fabs(got - want) <= 1e-5 * mag + 1e-6, "C[%lld,%lld] = %.9g, want %.9g", (long long)i, (long long)j, got,
                          want);
        }
}

/* softmax(Q·Kᵀ/√D)·V in double for q [1, H, S, D], k, v [1, H, SKV, D]; outputs are averages of V: 1e-5 absolute */
static void expect_sdpa(const tk_tensor *q, const tk_tensor *k, const tk_tensor *v, const tk_tensor *o, int64_t h, int64_t s,
                        int64_t skv, int64_t d)
{
    double *p = malloc(sizeof *p * (size_t)skv);
    ck_assert_ptr_nonnull(p);
    for (int64_t hh = 0; hh < h; hh++)
        for (int64_t i = 0; i < s; i++) {
            const float *qr = f32(q) + (hh * s + i) * d;
            double mx = -INFINITY, l = 0;
            for (int64_t j = 0; j < skv; j++) {
                const float *kr = f32(k) + (hh * skv + j) * d;
                double acc = 0;
                for (int64_t t = 0; t < d; t++) acc += (double)qr[t] * kr[t];
                p[j] = acc / sqrt((double)d);
                if (p[j] > mx) mx = p[j];
            }
            for (int64_t j = 0; j < skv; j++) l += p[j] = exp(p[j] - mx);
            for (int64_t t = 0; t < d; t++) {
                double want = 0;
                for (int64_t j = 0; j < skv; j++) want += p[j] * f32(v)[(hh * skv + j) * d + t];
                want /= l;
                double got = f32(o)[(hh * s + i) * d + t];
                ck_assert_msg(fabs(got - want) <= 1e-5, "O[0,%lld,%lld,%lld] = %.9g, want %.9g", (long long)hh, (long long)i,
                              (long long)t, got, want);
            }
        }
    free(p);
}

/* f32 tensors of one shape */
static void expect_same_bits(const tk_tensor *x, const tk_tensor *y, const char *what)
{
    ck_assert_msg(memcmp(tk_tensor_data(x), tk_tensor_data(y), sizeof(float) * (size_t)tk_tensor_numel(x)) == 0, "%s differ", what);
}

START_TEST(first_calls_take_no_llvm)
{
    unsetenv("TK_STDLIB_AOT");   /* the default: the table, with the JIT for what it lacks — which must be nothing here */
    char dir[4096];
    empty_cache(dir, sizeof dir);
    ck_assert_msg(tkr_aot_level() != NULL, "no prebuilt stdlib level runs on this CPU");
    ck_assert_uint_eq(tkr_compiler_jit_count(), 0);

    const int64_t m = 37, k = 53, n = 29, h = 2, s = 13, skv = 21, d = 64;
    tk_tensor *a, *b, *c1, *c2, *bt, *w, *lin, *q, *kk, *v, *o;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ m, k }, 1, &a));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ k, n }, 2, &b));
    TKT_OK(tk_context_set_threads(tkt_ctx, 1));
    TKT_OK(tk_matmul(tkt_ctx, a, b, &c1));
    TKT_OK(tk_context_set_threads(tkt_ctx, 2));
    TKT_OK(tk_matmul(tkt_ctx, a, b, &c2));
    expect_matmul(a, b, c1, m, k, n);
    expect_same_bits(c1, c2, "matmul on 1 and 2 threads");

    /* tk_linear: x·wᵀ, the "nt" kernels with the epilogue */
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ n, k }, 3, &w));
    TKT_OK(tk_linear(tkt_ctx, a, w, NULL, &lin));
    TKT_OK(tk_transpose(tkt_ctx, w, 0, 1, &bt));
    tk_tensor *btc;
    TKT_OK(tk_contiguous(tkt_ctx, bt, &btc));
    expect_matmul(a, btc, lin, m, k, n);

    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, s, d }, 4, &q));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, skv, d }, 5, &kk));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, skv, d }, 6, &v));
    TKT_OK(tk_sdpa(tkt_ctx, q, kk, v, NULL, &o));
    expect_sdpa(q, kk, v, o, h, s, skv, d);

    ck_assert_msg(tkr_compiler_jit_count() == 0, "the first calls went to LLVM %lu times", tkr_compiler_jit_count());
    remove_cache(dir, 0);
    TKT_RELEASE(a, b, c1, c2, bt, btc, w, lin, q, kk, v, o);
}
END_TEST

static const char *stdlib_source(const char *file, size_t *len)
{
    for (unsigned i = 0; tkr_stdlib_sources[i].name; i++)
        if (strcmp(tkr_stdlib_sources[i].name, file) == 0) {
            *len = tkr_stdlib_sources[i].len;
            return tkr_stdlib_sources[i].text;
        }
    ck_abort_msg("no stdlib file %s", file);
    return NULL;
}

/* The same file twice: the prebuilt code (no JIT allowed) and the JIT for the same level. */
static void both_programs(const char *file, tk_program **aot, tk_program **jit)
{
    const char *level = tkr_aot_level();
    ck_assert_ptr_nonnull(level);
    size_t len;
    const char *text = stdlib_source(file, &len);
    char *diags = NULL;
    tkr_prebuilt_code code = { level, tkr_aot_find, (void *)file, false };
    unsigned long before = tkr_compiler_jit_count();
    ck_assert_msg(tkr_compile_prebuilt(file, text, len, &code, aot, &diags) == TK_OK, "prebuilt %s: %s", file, diags ? diags : "");
    ck_assert_uint_eq(tkr_compiler_jit_count(), before);
    tk_compile_options o = { .target = level, .no_cache = 1 };
    ck_assert_msg(tk_compile_source(file, text, len, &o, jit, &diags) == TK_OK, "JIT %s for %s: %s", file, level, diags ? diags : "");
    ck_assert_uint_eq(tkr_compiler_jit_count(), before + 1);
}

static tk_kernel *kernel_of(tk_program *p, const char *name)
{
    tk_kernel *k = tk_program_kernel(p, name);
    ck_assert_msg(k != NULL, "%s: %s", name, tk_program_error(p));
    return k;
}

/* C = A·B by `name` of both programs, on 2 threads: the same bits */
static void gemm_both(tk_program *aot, tk_program *jit, const char *name, int64_t m, int64_t k, int64_t n)
{
    tk_tensor *a, *b, *c_aot, *c_jit;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ m, k }, 7, &a));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ k, n }, 8, &b));
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ m, n }, 12345.0, &c_aot));
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ m, n }, -1.0, &c_jit));
    tk_arg args_aot[3] = { TK_TENSOR2(tk_tensor_data(a), m, k), TK_TENSOR2(tk_tensor_data(b), k, n), TK_TENSOR2(tk_tensor_data(c_aot), m, n) };
    tk_arg args_jit[3] = { args_aot[0], args_aot[1], TK_TENSOR2(tk_tensor_data(c_jit), m, n) };
    tk_kernel *ka = kernel_of(aot, name), *kj = kernel_of(jit, name);
    ck_assert_msg(tk_kernel_launch(ka, args_aot, 3, 2) == TK_OK, "%s", tk_kernel_error(ka));
    ck_assert_msg(tk_kernel_launch(kj, args_jit, 3, 2) == TK_OK, "%s", tk_kernel_error(kj));
    expect_matmul(a, b, c_aot, m, k, n);
    expect_same_bits(c_aot, c_jit, name);
    TKT_RELEASE(a, b, c_aot, c_jit);
}

START_TEST(prebuilt_gemm_is_the_jit_gemm)
{
    char dir[4096];
    empty_cache(dir, sizeof dir);
    tk_program *aot = NULL, *jit = NULL;
    both_programs("gemm.tk", &aot, &jit);
    gemm_both(aot, jit, "gemm_f32<64,64,64>", 70, 45, 83);   /* a listed instance */
    gemm_both(aot, jit, "gemm_f32", 300, 261, 270);          /* the default instance, several tiles each way */
    unsigned long before = tkr_compiler_jit_count();
    ck_assert_ptr_null(tk_program_kernel(aot, "gemm_f32<48,48,48>"));   /* not listed, and no JIT for it */
    ck_assert_ptr_nonnull(strstr(tk_program_error(aot), "not compiled ahead of time"));
    ck_assert_uint_eq(tkr_compiler_jit_count(), before);

    /* with the fallback (the default mode), the same instance comes from the JIT, once, and is right */
    size_t len;
    const char *text = stdlib_source("gemm.tk", &len);
    tkr_prebuilt_code code = { tkr_aot_level(), tkr_aot_find, (void *)"gemm.tk", true };
    tk_program *mixed = NULL;
    char *diags = NULL;
    ck_assert_msg(tkr_compile_prebuilt("gemm.tk", text, len, &code, &mixed, &diags) == TK_OK, "%s", diags ? diags : "");
    ck_assert_uint_eq(tkr_compiler_jit_count(), before);
    gemm_both(mixed, jit, "gemm_f32<48,48,48>", 53, 61, 50);
    ck_assert_uint_eq(tkr_compiler_jit_count(), before + 2);   /* the instance, for `mixed` and for `jit` */
    tk_program_free(mixed);
    tk_program_free(aot);
    tk_program_free(jit);
    remove_cache(dir, 1);   /* the fallback's instance */
}
END_TEST

START_TEST(prebuilt_attention_is_the_jit_attention)
{
    char dir[4096];
    empty_cache(dir, sizeof dir);
    tk_program *aot = NULL, *jit = NULL;
    both_programs("attention.tk", &aot, &jit);
    const int64_t h = 3, s = 19, skv = 23, d = 64;
    tk_tensor *q, *k, *v, *mask, *o_aot, *o_jit;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, s, d }, 9, &q));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, skv, d }, 10, &k));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, skv, d }, 11, &v));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, 1, 1, 1 }, &mask));
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, s, d }, 12345.0, &o_aot));
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, s, d }, -1.0, &o_jit));
    float scale = (float)(1.0 / sqrt((double)d));
    uint8_t causal = 0, use_mask = 0;
    tk_arg args[8] = { TK_TENSOR4(tk_tensor_data(q), 1, h, s, d),     TK_TENSOR4(tk_tensor_data(k), 1, h, skv, d),
                       TK_TENSOR4(tk_tensor_data(v), 1, h, skv, d),   TK_TENSOR4(tk_tensor_data(mask), 1, 1, 1, 1),
                       TK_TENSOR4(tk_tensor_data(o_aot), 1, h, s, d), TK_SCALAR(&scale),
                       TK_SCALAR(&causal),                            TK_SCALAR(&use_mask) };
    tk_kernel *ka = kernel_of(aot, "attention_f32_d64"), *kj = kernel_of(jit, "attention_f32_d64");
    ck_assert_msg(tk_kernel_launch(ka, args, 8, 2) == TK_OK, "%s", tk_kernel_error(ka));
    args[4] = TK_TENSOR4(tk_tensor_data(o_jit), 1, h, s, d);
    ck_assert_msg(tk_kernel_launch(kj, args, 8, 2) == TK_OK, "%s", tk_kernel_error(kj));
    expect_sdpa(q, k, v, o_aot, h, s, skv, d);
    expect_same_bits(o_aot, o_jit, "attention_f32_d64");
    TKT_RELEASE(q, k, v, mask, o_aot, o_jit);
    tk_program_free(aot);
    tk_program_free(jit);
    remove_cache(dir, 0);
}
END_TEST

/* the finder of one level's code, for tkr_compile_prebuilt */
typedef struct {
    unsigned level;
    const char *file;
} LevelFile;

static int find_at_level(void *ctx, const char *symbol, tk_grid_fn *grid, tk_block_fn *block)
{
    const LevelFile *lf = ctx;
    return tkr_aot_find_at(lf->level, lf->file, symbol, grid, block);
}

static tk_program *prebuilt_at(LevelFile *lf)
{
    size_t len;
    const char *text = stdlib_source(lf->file, &len);
    tkr_prebuilt_code code = { tkr_aot_levels[lf->level], find_at_level, lf, false };
    tk_program *p = NULL;
    char *diags = NULL;
    ck_assert_msg(tkr_compile_prebuilt(lf->file, text, len, &code, &p, &diags) == TK_OK, "%s at %s: %s", lf->file,
                  tkr_aot_levels[lf->level], diags ? diags : "");
    return p;
}

static tk_tensor *as_f32(tk_tensor *t)
{
    tk_tensor *f;
    TKT_OK(tk_to_dtype(tkt_ctx, t, TK_DTYPE_F32, &f));
    return f;
}

/* C = A·B in bf16 (f32 accumulation, rounded once) by gemm_bf16_ep_bf16 without bias or residual */
static void check_gemm_bf16(tk_program *p, const char *level, int64_t m, int64_t k, int64_t n)
{
    tk_tensor *a, *b, *c, *bias, *a32, *b32, *c32;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_BF16, 2, (int64_t[]){ m, k }, 12, &a));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_BF16, 2, (int64_t[]){ k, n }, 13, &b));
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_BF16, 2, (int64_t[]){ m, n }, 12345.0, &c));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, &n, &bias));
    int32_t act = 0;
    uint8_t off = 0;
    tk_arg args[8] = { TK_TENSOR2(tk_tensor_data(a), m, k), TK_TENSOR2(tk_tensor_data(b), k, n), TK_TENSOR1(tk_tensor_data(bias), n),
                       TK_TENSOR2(tk_tensor_data(c), m, n), TK_TENSOR2(tk_tensor_data(c), m, n), TK_SCALAR(&act),
                       TK_SCALAR(&off),                     TK_SCALAR(&off) };
    tk_kernel *kern = kernel_of(p, "gemm_bf16_ep_bf16");
    ck_assert_msg(tk_kernel_launch(kern, args, 8, 2) == TK_OK, "%s: %s", level, tk_kernel_error(kern));
    a32 = as_f32(a), b32 = as_f32(b), c32 = as_f32(c);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double want = 0, mag = 0;
            for (int64_t t = 0; t < k; t++) {
                double x = (double)f32(a32)[i * k + t] * f32(b32)[t * n + j];
                want += x;
                mag += fabs(x);
            }
            double got = f32(c32)[i * n + j];   /* one bf16 rounding: 2^-8 relative */
            ck_assert_msg(fabs(got - want) <= 0x1p-8 * fabs(want) + 1e-5 * mag + 1e-6, "%s: bf16 C[%lld,%lld] = %.6g, want %.6g", level,
                          (long long)i, (long long)j, got, want);
        }
    TKT_RELEASE(a, b, c, bias, a32, b32, c32);
}

START_TEST(every_level_this_cpu_runs_is_right)
{
    unsigned tested = 0, best = 0;
    bool baseline = false;
    for (unsigned l = 0; tkr_aot_levels[l]; l++) {
        const char *level = tkr_aot_levels[l];
        TkResolvedTarget rt;
        char err[256];
        ck_assert_msg(tk_target_resolve(tk_target_find(level), &rt, err, sizeof err) == 0, "%s: %s", level, err);
        bool runs = tk_target_runs_here(&rt);
        tk_target_resolved_free(&rt);
        if (!runs) {
            printf("stdlib_aot: level %s does not run on this CPU: not tested here\n", level);
            continue;
        }
        if (!tested) best = l;
        LevelFile gemm = { l, "gemm.tk" }, attention = { l, "attention.tk" };
        tk_program *g = prebuilt_at(&gemm), *at = prebuilt_at(&attention);

        tk_tensor *a, *b, *c;
        TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 70, 45 }, 14, &a));
        TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 45, 83 }, 15, &b));
        TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 70, 83 }, 12345.0, &c));
        tk_arg args[3] = { TK_TENSOR2(tk_tensor_data(a), 70, 45), TK_TENSOR2(tk_tensor_data(b), 45, 83), TK_TENSOR2(tk_tensor_data(c), 70, 83) };
        const char *gemms[2] = { "gemm_f32<64,64,64>", "gemm_f32" };
        for (int i = 0; i < 2; i++) {
            tk_kernel *kern = kernel_of(g, gemms[i]);
            ck_assert_msg(tk_kernel_launch(kern, args, 3, 2) == TK_OK, "%s %s: %s", level, gemms[i], tk_kernel_error(kern));
            expect_matmul(a, b, c, 70, 45, 83);
        }
        check_gemm_bf16(g, level, 41, 67, 290);

        const int64_t h = 2, s = 11, skv = 17, d = 64;
        tk_tensor *q, *k, *v, *mask, *o;
        TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, s, d }, 16, &q));
        TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, skv, d }, 17, &k));
        TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, skv, d }, 18, &v));
        TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, 1, 1, 1 }, &mask));
        TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, h, s, d }, 12345.0, &o));
        float scale = (float)(1.0 / sqrt((double)d));
        uint8_t causal = 0, use_mask = 0;
        tk_arg aargs[8] = { TK_TENSOR4(tk_tensor_data(q), 1, h, s, d),   TK_TENSOR4(tk_tensor_data(k), 1, h, skv, d),
                            TK_TENSOR4(tk_tensor_data(v), 1, h, skv, d), TK_TENSOR4(tk_tensor_data(mask), 1, 1, 1, 1),
                            TK_TENSOR4(tk_tensor_data(o), 1, h, s, d),   TK_SCALAR(&scale),
                            TK_SCALAR(&causal),                          TK_SCALAR(&use_mask) };
        tk_kernel *ka = kernel_of(at, "attention_f32_d64");
        ck_assert_msg(tk_kernel_launch(ka, aargs, 8, 2) == TK_OK, "%s: %s", level, tk_kernel_error(ka));
        expect_sdpa(q, k, v, o, h, s, skv, d);

        TKT_RELEASE(a, b, c, q, k, v, mask, o);
        tk_program_free(g);
        tk_program_free(at);
        baseline |= strcmp(level, "x86-64") == 0 || strcmp(level, "aarch64-neon") == 0;
        tested++;
    }
    ck_assert_msg(tested > 0 && tkr_aot_level() && strcmp(tkr_aot_levels[best], tkr_aot_level()) == 0,
                  "the level chosen (%s) is not the best one that runs here", tkr_aot_level() ? tkr_aot_level() : "none");
    ck_assert_msg(baseline, "the baseline level (x86-64 or aarch64-neon), which every such CPU runs, was not tested");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tensor_stdlib_aot");
    TCase *tc = tkt_case("stdlib_aot");
    tcase_add_test(tc, first_calls_take_no_llvm);
    tcase_add_test(tc, prebuilt_gemm_is_the_jit_gemm);
    tcase_add_test(tc, prebuilt_attention_is_the_jit_attention);
    tcase_add_test(tc, every_level_this_cpu_runs_is_right);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(suite)
