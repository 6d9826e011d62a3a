/* test_compiler.c — the public compiler API (tk/compiler.h): compile, query,
 * launch, and every error path returning a status with a message. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/test_kernels.h"
#include "tk/compiler.h"

static const char *axpy_src =
    "kernel axpy(gl<f32, N> X, gl<f32, N> Y, f32 a) grid(cdiv(N, 64)) {\n"
    "    rv<f32, 64> x = load(X, block.x);\n"
    "    rv<f32, 64> y = load(Y, block.x);\n"
    "    store(Y, x * a + y, block.x);\n"
    "}\n"
    TK_TEST_MM_KERNEL;

static tk_program *compile_ok(void)
{
    tk_program *p = NULL;
    char *diags = NULL;
    tk_compile_options o = { .no_cache = 1 };
    ck_assert_int_eq(tk_compile_source("axpy.tk", axpy_src, strlen(axpy_src), &o, &p, &diags), TK_OK);
    ck_assert_ptr_null(diags);
    ck_assert_ptr_nonnull(p);
    return p;
}

START_TEST(compile_query_and_launch)
{
    tk_program *p = compile_ok();
    ck_assert_uint_eq(tk_program_num_kernels(p), 2);
    ck_assert_str_eq(tk_program_kernel_name(p, 0), "axpy");
    tk_kernel *k = tk_program_kernel(p, "axpy");
    ck_assert_ptr_nonnull(k);
    ck_assert_uint_eq(tk_kernel_num_params(k), 3);
    tk_param_info info;
    ck_assert_int_eq(tk_kernel_param(k, 0, &info), TK_OK);
    ck_assert_str_eq(info.name, "X");
    ck_assert_int_eq(info.is_tensor, 1);
    ck_assert_int_eq(info.dtype, TK_DTYPE_F32);
    ck_assert_str_eq(info.type, "gl<f32, N>");
    ck_assert_int_eq(tk_kernel_param(k, 2, &info), TK_OK);
    ck_assert_int_eq(info.is_tensor, 0);
    ck_assert_uint_eq(tk_kernel_num_sizes(k), 1);
    ck_assert_str_eq(tk_kernel_size_name(k, 0), "N");
    enum { N = 1000 };   /* not a multiple of 64: the last block is masked */
    float *x = malloc(sizeof *x * N), *y = malloc(sizeof *y * N);
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    float a = 0.5f;
    tk_arg args[3] = { TK_TENSOR1(x, N), TK_TENSOR1(y, N), TK_SCALAR(&a) };
    ck_assert_int_eq(tk_kernel_launch(k, args, 3, 2), TK_OK);
    for (int i = 0; i < N; i++) ck_assert_float_eq(y[i], 0.5f * (float)i + 1.0f);
    free(x);
    free(y);
    tk_program_free(p);
}
END_TEST

START_TEST(matmul_against_a_loop)
{
    tk_program *p = compile_ok();
    tk_kernel *k = tk_program_kernel(p, "mm");
    enum { M = 33, K = 20, N = 47 };
    float A[M * K], B[K * N], C[M * N];
    for (int i = 0; i < M * K; i++) A[i] = (float)((i * 7) % 13) - 6.0f;
    for (int i = 0; i < K * N; i++) B[i] = (float)((i * 5) % 11) - 5.0f;
    tk_arg args[3] = { TK_TENSOR2(A, M, K), TK_TENSOR2(B, K, N), TK_TENSOR2(C, M, N) };
    ck_assert_int_eq(tk_kernel_launch(k, args, 3, 1), TK_OK);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double ref = 0;
            for (int q = 0; q < K; q++) ref += (double)A[i * K + q] * B[q * N + j];
            ck_assert_double_eq_tol(C[i * N + j], ref, 1e-9);   /* small integers: exact in f32 */
        }
    tk_program_free(p);
}
END_TEST

START_TEST(bad_source_returns_diagnostics)
{
    const char *src = "kernel k(gl<f32, N> X) { rt<f32, 16, 16> t = load(X, 0); }\n";
    tk_program *p = (tk_program *)1;
    char *diags = NULL;
    ck_assert_int_eq(tk_compile_source("bad.tk", src, strlen(src), NULL, &p, &diags), TK_ERR_SOURCE);
    ck_assert_ptr_null(p);
    ck_assert_ptr_nonnull(diags);
    ck_assert_ptr_nonnull(strstr(diags, "bad.tk:1:"));
    ck_assert_ptr_nonnull(strstr(diags, "error:"));
    tk_free(diags);
}
END_TEST

START_TEST(missing_file_and_target)
{
    tk_program *p = NULL;
    char *diags = NULL;
    ck_assert_int_eq(tk_compile_file("/nonexistent/x.tk", NULL, &p, &diags), TK_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(diags, "/nonexistent/x.tk"));
    tk_free(diags);
    tk_compile_options o = { .target = "no-such-cpu" };
    ck_assert_int_eq(tk_compile_source("a.tk", axpy_src, strlen(axpy_src), &o, &p, &diags), TK_ERR_TARGET);
    ck_assert_ptr_nonnull(strstr(diags, "no-such-cpu"));
    tk_free(diags);
    o.target = "aarch64-neon";   /* a real target that cannot run on this machine */
    ck_assert_int_eq(tk_compile_source("a.tk", axpy_src, strlen(axpy_src), &o, &p, &diags), TK_ERR_TARGET);
    tk_free(diags);
    /* diagnostics may be NULL (tk/compiler.h): the status alone, no crash (planted-bug seed 2, #60) */
    p = (tk_program *)1;
    ck_assert_int_eq(tk_compile_file("/nonexistent/x.tk", NULL, &p, NULL), TK_ERR_NOT_FOUND);
    ck_assert_ptr_null(p);
}
END_TEST

START_TEST(launch_errors_name_the_problem)
{
    tk_program *p = compile_ok();
    ck_assert_ptr_null(tk_program_kernel(p, "nope"));
    ck_assert_ptr_nonnull(strstr(tk_program_error(p), "nope"));
    tk_kernel *k = tk_program_kernel(p, "mm");
    float A[4], B[4], C[4], a = 1;
    tk_arg wrong_count[2] = { TK_TENSOR2(A, 2, 2), TK_TENSOR2(B, 2, 2) };
    ck_assert_int_eq(tk_kernel_launch(k, wrong_count, 2, 1), TK_ERR_INVALID_ARGUMENT);
    tk_arg wrong_rank[3] = { TK_TENSOR1(A, 4), TK_TENSOR2(B, 2, 2), TK_TENSOR2(C, 2, 2) };
    ck_assert_int_eq(tk_kernel_launch(k, wrong_rank, 3, 1), TK_ERR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(tk_program_error(p), "rank"));
    tk_arg mismatch[3] = { TK_TENSOR2(A, 2, 2), TK_TENSOR2(B, 3, 1), TK_TENSOR2(C, 2, 1) };   /* K = 2 vs 3 */
    ck_assert_int_eq(tk_kernel_launch(k, mismatch, 3, 1), TK_ERR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(tk_program_error(p), "B"));
    tk_kernel *ax = tk_program_kernel(p, "axpy");
    tk_arg scalar_as_tensor[3] = { TK_TENSOR1(A, 4), TK_TENSOR1(B, 4), TK_TENSOR1(&a, 1) };
    ck_assert_int_eq(tk_kernel_launch(ax, scalar_as_tensor, 3, 1), TK_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(tk_kernel_launch(NULL, NULL, 0, 1), TK_ERR_INVALID_ARGUMENT);
    tk_program_free(p);
}
END_TEST

START_TEST(null_arguments_and_a_program_without_kernels)
{
    tk_program *p = NULL;
    char *diags = NULL;
    ck_assert_int_eq(tk_compile_file(NULL, NULL, &p, &diags), TK_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(tk_compile_file("x.tk", NULL, NULL, &diags), TK_ERR_INVALID_ARGUMENT);
    /* constants and helpers only: a valid program with nothing to launch */
    const char *src = "const N = 4;\nfn twice(f32 x) -> f32 { return x + x; }\n";
    tk_compile_options o = { .no_cache = 1 };
    ck_assert_int_eq(tk_compile_source("none.tk", src, strlen(src), &o, &p, &diags), TK_OK);
    ck_assert_uint_eq(tk_program_num_kernels(p), 0);
    ck_assert_ptr_null(tk_program_kernel(p, "twice"));
    tk_program_free(p);
}
END_TEST

/* The disk cache: a second compile of the same source in another program
 * object takes the object from $TK_CACHE_DIR, and runs the same. */
START_TEST(disk_cache_hits_on_the_second_compile)
{
    char dir[] = "/tmp/tk_unit_cache_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    setenv("TK_CACHE_DIR", dir, 1);
    unsetenv("TK_CACHE");
    tk_program *p1 = NULL, *p2 = NULL, *p3 = NULL;
    ck_assert_int_eq(tk_compile_source("axpy.tk", axpy_src, strlen(axpy_src), NULL, &p1, NULL), TK_OK);
    ck_assert_int_eq(tk_program_cache_hit(p1), 0);
    ck_assert_int_eq(tk_compile_source("axpy.tk", axpy_src, strlen(axpy_src), NULL, &p2, NULL), TK_OK);
    ck_assert_int_eq(tk_program_cache_hit(p2), 1);
    tk_compile_options o2 = { .opt_level = 1 };   /* another optimisation level: another object */
    ck_assert_int_eq(tk_compile_source("axpy.tk", axpy_src, strlen(axpy_src), &o2, &p3, NULL), TK_OK);
    ck_assert_int_eq(tk_program_cache_hit(p3), 0);
    float x[64], y1[64], y2[64], a = 3;
    for (int i = 0; i < 64; i++) x[i] = (float)i / 7, y1[i] = y2[i] = 1 - (float)i / 9;
    tk_arg args1[3] = { TK_TENSOR1(x, 64), TK_TENSOR1(y1, 64), TK_SCALAR(&a) }, args2[3] = { TK_TENSOR1(x, 64), TK_TENSOR1(y2, 64), TK_SCALAR(&a) };
    ck_assert_int_eq(tk_kernel_launch(tk_program_kernel(p1, "axpy"), args1, 3, 1), TK_OK);
    ck_assert_int_eq(tk_kernel_launch(tk_program_kernel(p2, "axpy"), args2, 3, 1), TK_OK);
    ck_assert_int_eq(memcmp(y1, y2, sizeof y1), 0);
    ck_assert_float_eq(y1[5], 5.0f / 7 * 3 + (1 - 5.0f / 9));
    tk_program_free(p1);
    tk_program_free(p2);
    tk_program_free(p3);
    unsetenv("TK_CACHE_DIR");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* LANGUAGE.md sets no limit on a helper's parameters; the inliner kept 64,
 * so a 65th argument was never evaluated (its store lost without a word)
 * and the parameters past the 64th had "no lowering" (planted-bug seed 2, #12). */
START_TEST(helper_with_more_than_64_parameters)
{
    static char src[4096];
    int n = snprintf(src, sizeof src, "kernel many(gl<f32, N> Y, gl<f32, N> Z) grid(cdiv(N, 16)) {\n"
                                      "    rv<f32, 16> v = fill(h(");
    for (int i = 0; i < 64; i++) n += snprintf(src + n, sizeof src - (size_t)n, "%d.0, ", i);
    n += snprintf(src + n, sizeof src - (size_t)n,
                  "64.0 + touch(Z), 65.0));\n    store(Y, v, block.x);\n}\n"
                  "fn touch(gl<f32, N> Z) -> f32 {\n    store(Z, fill<rv<f32, 16>>(7.0), block.x);\n    return 0.0;\n}\n"
                  "fn h(");
    for (int i = 0; i < 66; i++) n += snprintf(src + n, sizeof src - (size_t)n, "%sf32 p%d", i ? ", " : "", i);
    n += snprintf(src + n, sizeof src - (size_t)n, ") -> f32 {\n    return p64 + p65 * 2.0 + p3;\n}\n");
    ck_assert_int_lt(n, (int)sizeof src);
    tk_program *p = NULL;
    char *diags = NULL;
    tk_compile_options o = { .no_cache = 1 };
    ck_assert_msg(tk_compile_source("many.tk", src, strlen(src), &o, &p, &diags) == TK_OK, "%s", diags ? diags : "");
    tk_kernel *k = tk_program_kernel(p, "many");
    ck_assert_ptr_nonnull(k);
    enum { N = 40 };
    float y[N], z[N];
    for (int i = 0; i < N; i++) y[i] = z[i] = 0;
    tk_arg args[2] = { TK_TENSOR1(y, N), TK_TENSOR1(z, N) };
    ck_assert_int_eq(tk_kernel_launch(k, args, 2, 1), TK_OK);
    for (int i = 0; i < N; i++) {
        ck_assert_float_eq(y[i], 197.0f);   /* p64 + 2·p65 + p3 */
        ck_assert_float_eq(z[i], 7.0f);     /* the 65th argument was evaluated */
    }
    tk_program_free(p);
    tk_free(diags);
}
END_TEST

Suite *tk_suite_compiler(void)
{
    Suite *s = suite_create("compiler");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, compile_query_and_launch);
    tcase_add_test(tc, matmul_against_a_loop);
    tcase_add_test(tc, bad_source_returns_diagnostics);
    tcase_add_test(tc, missing_file_and_target);
    tcase_add_test(tc, launch_errors_name_the_problem);
    tcase_add_test(tc, null_arguments_and_a_program_without_kernels);
    tcase_add_test(tc, disk_cache_hits_on_the_second_compile);
    tcase_add_test(tc, helper_with_more_than_64_parameters);
    suite_add_tcase(s, tc);
    return s;
}
