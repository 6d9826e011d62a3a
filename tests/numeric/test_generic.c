/* test_generic.c — compile-time parameters (docs/LANGUAGE.md §5.11) through
 * libtk: two instances of one generic gemm made on demand by
 * tk_program_kernel("gemm<...>"), and a generic helper called at two shapes,
 * each compared with plain double-precision loops on shapes that are not
 * multiples of the tiles.
 *
 * Tolerances. The gemm inputs are multiples of 1/8 in [-2, 2], exact in
 * bf16; every product is a multiple of 1/64 and every partial sum has
 * magnitude at most 4·K = 220 here, so it is exact in f32 (220·64 < 2^24):
 * the kernel's f32 accumulation must equal the double loop exactly, in any
 * order. The helper computes x·sigmoid(x) in f32; sigmoid is a polynomial
 * approximation (a few ulps), so |got − want| ≤ 1e-5·|want| + 1e-6. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numeric.h"
#include "tk/compiler.h"

static const char GEMM_SRC[] =
    "kernel gemm<BM = 32, BN = 32, BK = 16>(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C)\n"
    "    grid(cdiv(N, BN), cdiv(M, BM))\n"
    "{\n"
    "    rt<f32, BM, BN> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, BK)) {\n"
    "        rt<bf16, BM, BK> a = load(A, block.y, k);\n"
    "        rt<bf16, BK, BN, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(C, acc, block.y, block.x);\n"
    "}\n"
    "\n"
    "fn act<R, C>(rt<f32, R, C> x) -> rt<f32, R, C> { return x * sigmoid(x); }\n"
    "\n"
    "kernel act32(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> x = load(X, block.y, block.x);\n"
    "    store(Y, act(x), block.y, block.x);\n"
    "}\n"
    "\n"
    "kernel act16x64(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 64), cdiv(M, 16)) {\n"
    "    store(Y, act<16, 64>(load(X, block.y, block.x)), block.y, block.x);\n"
    "}\n"
    "\n"
    "fn scaled<R, C, S = 2>(rt<f32, R, C> x) -> rt<f32, R, C> { return x * S; }\n"
    "\n"
    "kernel act_scaled(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 64), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 64> x = load(X, block.y, block.x);\n"
    "    store(Y, scaled<16, 64>(act(x)) + scaled<16, 64, 3>(act(x)), block.y, block.x);   // S left out: its default\n"
    "}\n";

static tk_program *prog;

static void setup(void)
{
    char *diags = NULL;
    tk_compile_options o = { .no_cache = 1 };
    tk_status s = tk_compile_source("generic.tk", GEMM_SRC, sizeof GEMM_SRC - 1, &o, &prog, &diags);
    if (s != TK_OK) fprintf(stderr, "generic.tk: %s\n", diags ? diags : "?");
    tk_free(diags);
}

static void teardown(void) { tk_program_free(prog); }

static uint16_t bf16_bits(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    return (uint16_t)(u >> 16);   /* exact: v has at most 8 significant bits */
}

static void check_gemm(const char *name, int64_t M, int64_t N, int64_t K, unsigned seed)
{
    ck_assert_ptr_nonnull(prog);
    tk_kernel *k = tk_program_kernel(prog, name);
    ck_assert_msg(k != NULL, "%s: %s", name, tk_program_error(prog));
    float *a = malloc(sizeof *a * (size_t)(M * K)), *b = malloc(sizeof *b * (size_t)(K * N));
    uint16_t *ab = malloc(2 * (size_t)(M * K)), *bb = malloc(2 * (size_t)(K * N));
    float *c = malloc(sizeof *c * (size_t)(M * N));
    ck_assert(a && b && ab && bb && c);
    srand(seed);
    for (int64_t i = 0; i < M * K; i++) ab[i] = bf16_bits(a[i] = (float)(rand() % 33 - 16) / 8.0f);
    for (int64_t i = 0; i < K * N; i++) bb[i] = bf16_bits(b[i] = (float)(rand() % 33 - 16) / 8.0f);
    for (int64_t i = 0; i < M * N; i++) c[i] = NAN;   /* every element must be written */
    tk_arg args[3] = { TK_TENSOR2(ab, M, K), TK_TENSOR2(bb, K, N), TK_TENSOR2(c, M, N) };
    ck_assert_msg(tk_kernel_launch(k, args, 3, 2) == TK_OK, "%s: %s", name, tk_program_error(prog));
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double want = 0;
            for (int64_t p = 0; p < K; p++) want += (double)a[i * K + p] * b[p * N + j];
            ck_assert_msg(c[i * N + j] == want, "%s (%lld,%lld): got %g, want %g", name, (long long)i, (long long)j,
                          (double)c[i * N + j], want);
        }
    free(a);
    free(b);
    free(ab);
    free(bb);
    free(c);
}

START_TEST(generic_gemm_two_instances)
{
    /* 50×70×55: no dim a multiple of any tile */
    check_gemm("gemm<16,48,32>", 50, 70, 55, 1);
    check_gemm("gemm< 64, 32, 16 >", 50, 70, 55, 2);   /* spaces are not part of the name */
    check_gemm("gemm", 50, 70, 55, 3);                 /* the default instance, gemm<32,32,16> */
    /* asked again, an instance is the same kernel (kept by the program) */
    ck_assert_ptr_eq(tk_program_kernel(prog, "gemm<16,48,32>"), tk_program_kernel(prog, "gemm<16, 48, 32>"));
    ck_assert_ptr_ne(tk_program_kernel(prog, "gemm<16,48,32>"), tk_program_kernel(prog, "gemm<64,32,16>"));
}
END_TEST

START_TEST(generic_bad_instance_is_reported)
{
    ck_assert_ptr_nonnull(prog);
    /* 100 is not a multiple of 16: the error is the instance's, with a note */
    ck_assert_ptr_null(tk_program_kernel(prog, "gemm<100,32,16>"));
    const char *e = tk_program_error(prog);
    ck_assert_msg(strstr(e, "multiple of 16") && strstr(e, "note: in instance gemm<100,32,16>"), "%s", e);
    ck_assert_ptr_null(tk_program_kernel(prog, "gemm<32,32>"));
    ck_assert_msg(strstr(tk_program_error(prog), "takes 3 compile-time arguments, not 2"), "%s", tk_program_error(prog));
    ck_assert_ptr_null(tk_program_kernel(prog, "gemn<32,32,16>"));
    /* the program still works after a failed request */
    ck_assert_ptr_nonnull(tk_program_kernel(prog, "gemm<32,64,16>"));
}
END_TEST

START_TEST(generic_params_are_listed)
{
    ck_assert_ptr_nonnull(prog);
    tk_generic_param g[4];
    ck_assert_int_eq(tk_program_generic_params(prog, "gemm", g, 4), 3);
    ck_assert_str_eq(g[0].name, "BM");
    ck_assert_str_eq(g[2].name, "BK");
    ck_assert(g[0].has_default && g[0].default_value == 32 && !g[0].is_bool);
    ck_assert(g[2].has_default && g[2].default_value == 16);
    ck_assert_int_eq(tk_program_generic_params(prog, "act32", g, 4), 0);
    ck_assert_int_eq(tk_program_generic_params(prog, "nope", g, 4), -1);
    ck_assert_int_eq(tk_program_generic_params(prog, "gemm", NULL, 0), 3);
    /* the default instance is one of the program's kernels, under the plain name */
    bool found = false;
    for (unsigned i = 0; i < tk_program_num_kernels(prog); i++) found |= strcmp(tk_program_kernel_name(prog, i), "gemm") == 0;
    ck_assert(found);
}
END_TEST

/* y = scale·x·sigmoid(x) */
static void check_act(const char *kernel, int64_t M, int64_t N, double scale)
{
    ck_assert_ptr_nonnull(prog);
    tk_kernel *k = tk_program_kernel(prog, kernel);
    ck_assert_msg(k != NULL, "%s", tk_program_error(prog));
    float *x = malloc(sizeof *x * (size_t)(M * N)), *y = malloc(sizeof *y * (size_t)(M * N));
    ck_assert(x && y);
    srand(7);
    for (int64_t i = 0; i < M * N; i++) {
        x[i] = (float)rand() / (float)RAND_MAX * 12.0f - 6.0f;
        y[i] = NAN;
    }
    tk_arg args[2] = { TK_TENSOR2(x, M, N), TK_TENSOR2(y, M, N) };
    ck_assert_msg(tk_kernel_launch(k, args, 2, 2) == TK_OK, "%s", tk_program_error(prog));
    for (int64_t i = 0; i < M * N; i++) {
        double want = scale * (double)x[i] / (1.0 + exp(-(double)x[i]));
        ck_assert_msg(fabs(y[i] - want) <= 1e-5 * fabs(want) + 1e-6, "%s [%lld]: x %g got %g want %g", kernel, (long long)i,
                      (double)x[i], (double)y[i], want);
    }
    free(x);
    free(y);
}

START_TEST(generic_helper_two_shapes)
{
    check_act("act32", 45, 77, 1);        /* act<32,32>, inferred from the argument */
    check_act("act16x64", 45, 77, 1);     /* act<16,64>, explicit */
    check_act("act_scaled", 45, 77, 5);   /* scaled<16,64> (S = 2 by default) + scaled<16,64,3> */
}
END_TEST

Suite *num_suite_generic(void)
{
    Suite *s = suite_create("generic");
    TCase *tc = tcase_create("generic");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, generic_gemm_two_instances);
    tcase_add_test(tc, generic_bad_instance_is_reported);
    tcase_add_test(tc, generic_params_are_listed);
    tcase_add_test(tc, generic_helper_two_shapes);
    suite_add_tcase(s, tc);
    return s;
}
