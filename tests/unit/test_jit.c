/* test_jit.c — targets/cpu/cpu_jit.c below the public API: a kernel
 * specialised for its sizes is compiled alone (the other kernels of its file
 * are not in the object), the module's kernel list comes back intact, and the
 * specialised code computes what a plain loop does. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "../common/test_kernels.h"
#include "cpu_jit.h"
#include "cpu_mma.h"
#include "front.h"
#include "launch.h"
#include "lower.h"

static const char *two_kernels =
    "kernel scale(gl<f32, N> X, f32 a) grid(cdiv(N, 64)) {\n"
    "    rv<f32, 64> x = load(X, block.x);\n"
    "    store(X, x * a, block.x);\n"
    "}\n"
    TK_TEST_MM_KERNEL;

typedef struct {
    TkFront fe;
    TirModule m;
} Prog;

static void load(Prog *p)
{
    memset(p, 0, sizeof *p);
    ck_assert_int_eq(tk_front_load_memory(&p->fe, "two.tk", two_kernels, strlen(two_kernels)), 0);
    ck_assert_uint_eq(tk_front_parse(&p->fe), 0);
    ck_assert_uint_eq(tk_front_check(&p->fe), 0);
    ck_assert_int_eq(tir_from_ast(&p->m, &p->fe.arena, &p->fe.src, &p->fe.diags, p->fe.items), 0);
}

START_TEST(specialised_kernel_is_compiled_alone)
{
    Prog p;
    load(&p);
    const TirFunc *first = p.m.funcs, *second = first->next;
    ck_assert_str_eq(first->name, "scale");
    ck_assert_str_eq(second->name, "mm");
    enum { M = 21, N = 19, K = 37 };   /* no multiple of the 16-wide tiles: every edge is masked */
    int64_t sizes[3] = { M, K, N };   /* in the order the kernel names them: M, K, N */
    ck_assert_uint_eq(second->sizes->count, 3);
    TkCpuJitOptions jo = { .opt_level = 2, .no_cache = true, .specialise_kernel = "mm", .specialise_sizes = sizes,
                           .specialise_count = 3 };
    TkCpuModule *mod = NULL;
    char err[512] = "";
    ck_assert_msg(tk_cpu_jit(&p.m, &jo, &mod, err, sizeof err) == 0, "jit: %s", err);
    /* the list is as it was */
    ck_assert_ptr_eq(p.m.funcs, first);
    ck_assert_ptr_eq(first->next, second);
    ck_assert_ptr_null(second->next);
    /* only mm is in the object */
    TkGridFn grid;
    TkBlockFn block;
    ck_assert_int_ne(tk_cpu_lookup(mod, "scale", &grid, &block, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "scale") != NULL, "the error names the kernel: %s", err);
    ck_assert_msg(tk_cpu_lookup(mod, "mm", &grid, &block, err, sizeof err) == 0, "lookup: %s", err);
    /* and it is right */
    float *A = malloc(sizeof *A * M * K), *B = malloc(sizeof *B * K * N), *C = malloc(sizeof *C * M * N);
    for (int i = 0; i < M * K; i++) A[i] = (float)((i * 7) % 11) - 5.0f;
    for (int i = 0; i < K * N; i++) B[i] = (float)((i * 5) % 13) - 6.0f;
    void *args[3] = { A, B, C };
    ck_assert_msg(tk_cpu_launch(grid, block, args, sizes, 2, err, sizeof err) == 0, "launch: %s", err);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double want = 0;
            for (int k = 0; k < K; k++) want += (double)A[i * K + k] * B[k * N + j];
            ck_assert_msg(C[i * N + j] == (float)want, "C[%d][%d] = %g, want %g", i, j, C[i * N + j], want);
        }
    free(A);
    free(B);
    free(C);
    tk_cpu_module_free(mod);
    tk_front_free(&p.fe);
}
END_TEST

START_TEST(plain_module_has_every_kernel)
{
    Prog p;
    load(&p);
    TkCpuJitOptions jo = { .opt_level = 2, .no_cache = true };
    TkCpuModule *mod = NULL;
    char err[512] = "";
    ck_assert_msg(tk_cpu_jit(&p.m, &jo, &mod, err, sizeof err) == 0, "jit: %s", err);
    TkGridFn grid;
    TkBlockFn block;
    ck_assert_msg(tk_cpu_lookup(mod, "scale", &grid, &block, err, sizeof err) == 0, "lookup: %s", err);
    ck_assert_msg(tk_cpu_lookup(mod, "mm", &grid, &block, err, sizeof err) == 0, "lookup: %s", err);
    tk_cpu_module_free(mod);
    tk_front_free(&p.fe);
}
END_TEST

/* cpu_mma.h: every "+x" item of `need` must be a whole item of `have`; items
 * without a '+' are ignored (LLVM's host lists are full of "-x", and
 * tk_target_resolve turns a host's "+amx-..." into "-amx-...") (planted-bug seed 2, #32). */
START_TEST(feature_lists_match_whole_plus_items_only)
{
    ck_assert(tk_features_include("+avx2,+fma", "+fma,+avx2"));
    ck_assert(tk_features_include("+avx2,+fma", ""));
    ck_assert(tk_features_include("+avx2,+fma", "+avx2,-avx512f"));
    ck_assert(tk_features_include("+avx2,+amx-tile", "+avx2,-amx-tile"));
    ck_assert(tk_features_include("+avx2", "+avx2,,+"));   /* an empty item, a lone '+' */
    ck_assert(!tk_features_include("+avx2", "+avx2,+fma"));
    ck_assert(!tk_features_include("+avx512f", "+avx512"));   /* whole items only */
    ck_assert(!tk_features_include("+avx512", "+avx512f"));
    ck_assert(!tk_features_include("-avx2", "+avx2"));
}
END_TEST

Suite *tk_suite_jit(void)
{
    Suite *s = suite_create("jit");
    TCase *tc = tcase_create("specialise");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, specialised_kernel_is_compiled_alone);
    tcase_add_test(tc, plain_module_has_every_kernel);
    tcase_add_test(tc, feature_lists_match_whole_plus_items_only);
    suite_add_tcase(s, tc);
    return s;
}
