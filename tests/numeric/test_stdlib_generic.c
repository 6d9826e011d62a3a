/* test_stdlib_generic.c — the generic kernels of stdlib-kernels/gemm.tk through
 * libtk, as the tensor runtime uses them: tk_program_kernel("gemm_f32<64,64,64>")
 * makes a non-default tile configuration on demand, and each one is compared
 * with a double loop on shapes that are not multiples of its tiles (nor of 16).
 * Also: the generic parameters and their defaults are listed, and an instance
 * equals the named kernel of the same configuration bit for bit
 * (gemm_f32_small is gemm_f32<64,64,64>, gemm_f32_packed_m32 is
 * gemm_f32_packed<32>).
 *
 * Tolerances. Inputs are multiples of 1/8 in [-2, 2], exact in bf16; every
 * product is a multiple of 1/64 and every partial sum has magnitude at most
 * 4·K ≤ 1080 here (K ≤ 270), so it is exact in f32 (1080·64 < 2^24): the
 * kernels' f32 accumulation must equal the double loop exactly, in any order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numeric.h"
#include "tk/compiler.h"

#ifndef NUM_SOURCE_DIR
#define NUM_SOURCE_DIR "."
#endif

static tk_program *prog;

static void setup(void)
{
    char *diags = NULL;
    tk_compile_options o = { .no_cache = 1 };
    tk_status s = tk_compile_file(NUM_SOURCE_DIR "/stdlib-kernels/gemm.tk", &o, &prog, &diags);
    if (s != TK_OK) fprintf(stderr, "gemm.tk: %s\n", diags ? diags : "?");
    tk_free(diags);
}

static void teardown(void) { tk_program_free(prog); }

static uint16_t bf16_bits(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    return (uint16_t)(u >> 16);   /* exact: v has at most 8 significant bits */
}

static float *random_eighths(int64_t n, unsigned seed)
{
    float *x = malloc(sizeof *x * (size_t)n);
    ck_assert(x);
    srand(seed);
    for (int64_t i = 0; i < n; i++) x[i] = (float)(rand() % 33 - 16) / 8.0f;
    return x;
}

static uint16_t *to_bf16(const float *x, int64_t n)
{
    uint16_t *b = malloc(2 * (size_t)n);
    ck_assert(b);
    for (int64_t i = 0; i < n; i++) b[i] = bf16_bits(x[i]);
    return b;
}

/* C[M, N] = A[M, K]·B (B[K, N], or B[N, K] when nt), exactly. */
static void check_product(const char *name, const float *c, const float *a, const float *b, int64_t M, int64_t N, int64_t K, bool nt)
{
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double want = 0;
            for (int64_t p = 0; p < K; p++) want += (double)a[i * K + p] * (nt ? b[j * K + p] : b[p * N + j]);
            ck_assert_msg(c[i * N + j] == want, "%s (%lld,%lld): got %g, want %g", name, (long long)i, (long long)j,
                          (double)c[i * N + j], want);
        }
}

static tk_kernel *kernel(const char *name)
{
    ck_assert_ptr_nonnull(prog);
    tk_kernel *k = tk_program_kernel(prog, name);
    ck_assert_msg(k != NULL, "%s: %s", name, tk_program_error(prog));
    return k;
}

/* Runs gemm kernel `name` (A, B, C; bf16 inputs when bf16) on M×N×K and checks C;
 * leaves C in *out when out is not NULL. */
static void run_gemm(const char *name, bool bf16, bool nt, int64_t M, int64_t N, int64_t K, unsigned seed, float **out)
{
    tk_kernel *k = kernel(name);
    float *a = random_eighths(M * K, seed), *b = random_eighths(K * N, seed + 1);
    uint16_t *ab = bf16 ? to_bf16(a, M * K) : NULL, *bb = bf16 ? to_bf16(b, K * N) : NULL;
    float *c = malloc(sizeof *c * (size_t)(M * N));
    ck_assert(c);
    for (int64_t i = 0; i < M * N; i++) c[i] = NAN;   /* every element must be written */
    tk_arg args[3] = { TK_TENSOR2(bf16 ? (void *)ab : (void *)a, M, K),
                       nt ? TK_TENSOR2(bf16 ? (void *)bb : (void *)b, N, K) : TK_TENSOR2(bf16 ? (void *)bb : (void *)b, K, N),
                       TK_TENSOR2(c, M, N) };
    ck_assert_msg(tk_kernel_launch(k, args, 3, 2) == TK_OK, "%s: %s", name, tk_program_error(prog));
    check_product(name, c, a, b, M, N, K, nt);
    free(a);
    free(b);
    free(ab);
    free(bb);
    if (out)
        *out = c;
    else
        free(c);
}

START_TEST(stdlib_gemm_instances)
{
    /* 50×70×71: no dim a multiple of 16, and several tiles of each configuration */
    run_gemm("gemm_f32<64,64,64>", false, false, 50, 70, 71, 1, NULL);
    run_gemm("gemm_f32<32,64,16>", false, false, 50, 70, 71, 2, NULL);
    run_gemm("gemm_bf16<32,32,32>", true, false, 50, 70, 71, 3, NULL);
    run_gemm("gemm_bf16<16,256,256>", true, false, 5, 70, 71, 4, NULL);   /* the gemv configuration */
    run_gemm("gemm_f32_nt<64,32,32>", false, true, 50, 70, 71, 5, NULL);
    run_gemm("gemm_bf16_nt<32,64,64>", true, true, 50, 70, 71, 6, NULL);
    run_gemm("gemm_f32", false, false, 50, 70, 71, 7, NULL);              /* the default, gemm_f32<256,256,256> */
}
END_TEST

START_TEST(stdlib_gemm_instance_is_the_named_kernel)
{
    /* the same inputs (same seed) through the instance and the kernel named for it */
    float *c1 = NULL, *c2 = NULL;
    run_gemm("gemm_f32<64,64,64>", false, false, 50, 70, 71, 11, &c1);
    run_gemm("gemm_f32_small", false, false, 50, 70, 71, 11, &c2);
    ck_assert(memcmp(c1, c2, sizeof *c1 * 50 * 70) == 0);
    free(c1);
    free(c2);
    run_gemm("gemm_bf16_tiny", true, false, 50, 70, 71, 12, NULL);
    run_gemm("gemv_f32", false, false, 3, 70, 71, 13, NULL);
}
END_TEST

START_TEST(stdlib_gemm_packed_instance)
{
    /* pack B once (P[NB, KT, 256, 256]), then the packed product at 32 and 16 rows */
    const int64_t M = 45, N = 300, K = 270, NB = 2, KT = 2;
    float *a = random_eighths(M * K, 21), *b = random_eighths(K * N, 22);
    float *p = malloc(sizeof *p * (size_t)(NB * KT * 256 * 256));
    float *c = malloc(sizeof *c * (size_t)(M * N));
    ck_assert(p && c);
    tk_arg pack[2] = { TK_TENSOR2(b, K, N), TK_TENSOR4(p, NB, KT, 256, 256) };
    ck_assert_msg(tk_kernel_launch(kernel("pack_b_f32"), pack, 2, 2) == TK_OK, "%s", tk_program_error(prog));
    const char *names[] = { "gemm_f32_packed<32>", "gemm_f32_packed<16>", "gemm_f32_packed_m32", "gemm_f32_packed" };
    for (unsigned n = 0; n < sizeof names / sizeof *names; n++) {
        for (int64_t i = 0; i < M * N; i++) c[i] = NAN;
        tk_arg args[3] = { TK_TENSOR2(a, M, K), TK_TENSOR4(p, NB, KT, 256, 256), TK_TENSOR2(c, M, N) };
        ck_assert_msg(tk_kernel_launch(kernel(names[n]), args, 3, 2) == TK_OK, "%s: %s", names[n], tk_program_error(prog));
        check_product(names[n], c, a, b, M, N, K, false);
    }
    free(a);
    free(b);
    free(p);
    free(c);
}
END_TEST

START_TEST(stdlib_gemm_params_are_listed)
{
    ck_assert_ptr_nonnull(prog);
    tk_generic_param g[4];
    ck_assert_int_eq(tk_program_generic_params(prog, "gemm_f32", g, 4), 3);
    ck_assert_str_eq(g[0].name, "BM");
    ck_assert_str_eq(g[1].name, "BN");
    ck_assert_str_eq(g[2].name, "KC");
    for (int i = 0; i < 3; i++) ck_assert(g[i].has_default && g[i].default_value == 256 && !g[i].is_bool);
    ck_assert_int_eq(tk_program_generic_params(prog, "gemm_bf16_nt_ep", g, 4), 3);
    ck_assert_int_eq(tk_program_generic_params(prog, "gemm_bf16_packed", g, 4), 1);
    ck_assert(g[0].has_default && g[0].default_value == 256);
    /* named configurations keep only what differs per target: the K step on a GPU */
    ck_assert_int_eq(tk_program_generic_params(prog, "gemm_f32_small", g, 4), 2);
    ck_assert(strcmp(g[0].name, "SK") == 0 && g[0].has_default && g[0].default_value == 64);
    ck_assert(strcmp(g[1].name, "WM") == 0 && g[1].has_default && g[1].default_value == 64);   /* one warp */
    ck_assert_int_eq(tk_program_generic_params(prog, "pack_b_bf16", g, 4), 1);
    ck_assert(strcmp(g[0].name, "PR") == 0 && g[0].has_default && g[0].default_value == 256);
    ck_assert_int_eq(tk_program_generic_params(prog, "gemm_bf16_tiny", g, 4), 0);
    /* a configuration the language rejects is reported, and the program keeps working */
    ck_assert_ptr_null(tk_program_kernel(prog, "gemm_f32<100,64,64>"));
    ck_assert_msg(strstr(tk_program_error(prog), "multiple of 16"), "%s", tk_program_error(prog));
    ck_assert_ptr_nonnull(tk_program_kernel(prog, "gemm_f32<64,64,64>"));
}
END_TEST

Suite *num_suite_stdlib_generic(void)
{
    Suite *s = suite_create("stdlib_generic");
    TCase *tc = tcase_create("stdlib_generic");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, stdlib_gemm_instances);
    tcase_add_test(tc, stdlib_gemm_instance_is_the_named_kernel);
    tcase_add_test(tc, stdlib_gemm_packed_instance);
    tcase_add_test(tc, stdlib_gemm_params_are_listed);
    suite_add_tcase(s, tc);
    return s;
}
