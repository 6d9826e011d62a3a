/* test_rowview.c — mma operands read in place (lower/cpu/emit_rowview.c): a tile
 * loaded from a row-major tensor and read only as the A of mmas (or as the
 * f32 B of mma_ab, in whole 32-column panels) is a pointer into the tensor,
 * rows the tensor's width apart, where the load lies wholly inside it; a tile
 * crossing an edge is copied, masked, into a row-major tile of its own. What
 * could go wrong, checked against the interpreter:
 *  - the row stride: interior tiles of tensors whose width is not the tile's
 *    (odd widths put bf16 rows at odd elements: 2-byte aligned pair loads;
 *    a B 70 wide has its second panel 32 elements into each row);
 *  - the switch between in place and copied within one block's K loop
 *    (the last K step crosses the edge) and between blocks (the last rows);
 *  - all-zero row blocks of an in-place A, which the micro-kernel scans with
 *    the stride and skips (and must run again when B holds inf: 0·inf);
 *  - A·Bᵀ (abt reads A the same way), and a 16-row tile (2-row blocks);
 *  - tiles that must NOT be views (read by something else too, transposed,
 *    from a tensor the kernel stores into) stay correct;
 * and, from the LLVM IR, that the eligible kernels do read in place and the
 * others do not (the `row.view` / `rowb.view` phis of emit_row_view).
 *
 * Tolerance: sums of K ≤ 200 products of inputs in [-1, 1): (K + 2)·2^-24·K
 * absolute, the worst case of recursive f32 summation (test_mma.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numeric.h"

static NumProg prog;

#define GEMM(name, ta, bm, bk, bn, form, bdecl, bload)                                                       \
    "kernel " name "(gl<" ta ", M, K> A, gl<" ta ", " bdecl "> B, gl<f32, M, N> C) grid(cdiv(N, " bn "), cdiv(M, " bm ")) {\n" \
    "    rt<f32, " bm ", " bn "> acc = zeros();\n"                                                        \
    "    for (k in 0 .. cdiv(K, " bk ")) {\n"                                                            \
    "        rt<" ta ", " bm ", " bk "> a = load(A, block.y, k);\n"                                      \
    "        " bload "\n"                                                                                 \
    "        " form "(acc, a, b);\n"                                                                      \
    "    }\n"                                                                                             \
    "    store(C, acc, block.y, block.x);\n"                                                              \
    "}\n"

static const char *const SRC =
    GEMM("rv_f32", "f32", "64", "32", "64", "mma_ab", "K, N", "rt<f32, 32, 64, col> b = load(B, k, block.x);")
    GEMM("rv_bf16", "bf16", "32", "32", "32", "mma_ab", "K, N", "rt<bf16, 32, 32, col> b = load(B, k, block.x);")
    GEMM("rv_abt", "f32", "32", "32", "32", "mma_abt", "N, K", "rt<f32, 32, 32> b = load(B, block.x, k);")
    GEMM("rv_skinny", "bf16", "16", "32", "64", "mma_ab", "K, N", "rt<bf16, 32, 64, col> b = load(B, k, block.x);")
    /* K tiles wide enough that the zero-block scan reads a row in several chunks */
    GEMM("rv_deep", "f32", "32", "128", "32", "mma_ab", "K, N", "rt<f32, 128, 32, col> b = load(B, k, block.x);")
    GEMM("rv_deep_bf16", "bf16", "32", "256", "32", "mma_ab", "K, N", "rt<bf16, 256, 32, col> b = load(B, k, block.x);")
    /* not eligible: a is also read by an element-wise op (C = 3·A·B) */
    "kernel rv_shared(gl<f32, M, K> A, gl<f32, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        rt<f32, 32, 32> a = load(A, block.y, k);\n"
    "        rt<f32, 32, 32, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "        rt<f32, 32, 32> a2 = a * 2.0;\n"
    "        mma_ab(acc, a2, b);\n"
    "    }\n"
    "    store(C, acc, block.y, block.x);\n"
    "}\n"
    /* not eligible: A transposed (C = Aᵀ·B, A is K×M) */
    "kernel rv_atb(gl<f32, K, M> A, gl<f32, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        rt<f32, 32, 32, col> a = load(A, k, block.y);\n"
    "        rt<f32, 32, 32, col> b = load(B, k, block.x);\n"
    "        mma_atb(acc, a, b);\n"
    "    }\n"
    "    store(C, acc, block.y, block.x);\n"
    "}\n"
    /* not eligible: the kernel writes into A (each block scales its own rows after its product) */
    "kernel rv_written(gl<f32, M, K> A, gl<f32, K, N> B, gl<f32, M, N> C) grid(1, cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        rt<f32, 32, 32> a = load(A, block.y, k);\n"
    "        rt<f32, 32, 32, col> b = load(B, k, 0);\n"
    "        mma_ab(acc, a, b);\n"
    "        store(A, a * 0.5, block.y, k);\n"
    "    }\n"
    "    store(C, acc, block.y, 0);\n"
    "}\n";

static void build(void) { num_build(&prog, "rowview", SRC); }
static void teardown(void) { num_free(&prog); }

static void run(const char *kernel, const char *sizes, int64_t K, NumGen gen, void *ctx)
{
    NumRun r;
    NumSpec spec = { .sizes = sizes, .tol = num_tol_dot(3 * K), .gen = gen, .gen_ctx = ctx };
    num_run(&prog, kernel, &spec, &r);
    num_run_free(&r);
}

START_TEST(rowview_strides_and_edges)
{
    NUM_NEED(&prog);
    /* interior tiles with odd and even widths; a last K step and last rows across the edge */
    run("rv_f32", "M=128,N=64,K=97", 97, NULL, NULL);
    run("rv_f32", "M=130,N=70,K=128", 128, NULL, NULL);
    run("rv_bf16", "M=64,N=32,K=65", 65, NULL, NULL);
    run("rv_bf16", "M=70,N=40,K=99", 99, NULL, NULL);
    run("rv_bf16", "M=5,N=7,K=3", 3, NULL, NULL);
    run("rv_abt", "M=64,N=40,K=67", 67, NULL, NULL);
    run("rv_skinny", "M=33,N=64,K=67", 67, NULL, NULL);
    run("rv_skinny", "M=16,N=64,K=64", 64, NULL, NULL);
}
END_TEST

START_TEST(rowview_zero_row_blocks)
{
    NUM_NEED(&prog);
    /* K = 97 / 65: interior tiles in place with zero rows, the last step copied */
    NumZeroRows f97 = { .K = 97 }, i97 = { .K = 97, .inf_in_b = true }, f65 = { .K = 65 }, i65 = { .K = 65, .inf_in_b = true };
    run("rv_f32", "M=128,N=64,K=97", 97, num_zero_rows_gen, &f97);
    run("rv_f32", "M=128,N=64,K=97", 97, num_zero_rows_gen, &i97);
    run("rv_bf16", "M=64,N=32,K=65", 65, num_zero_rows_gen, &f65);
    run("rv_bf16", "M=64,N=32,K=65", 65, num_zero_rows_gen, &i65);
    run("rv_skinny", "M=64,N=64,K=65", 65, num_zero_rows_gen, &f65);
    run("rv_skinny", "M=64,N=64,K=65", 65, num_zero_rows_gen, &i65);
    /* the inf in B's row 2, k pair 1: 2-row blocks load odd pair steps apart and must check them too */
    NumZeroRows i65_odd = { .K = 65, .inf_in_b = true, .inf_at = 2 * 64 + 5 };
    run("rv_skinny", "M=64,N=64,K=65", 65, num_zero_rows_gen, &i65_odd);
}
END_TEST

/* The scan for zero row blocks stops at the first non-zero chunk: blocks whose
 * only non-zero element is the last of their last row (per K tile) must run. */
START_TEST(rowview_late_nonzero)
{
    NUM_NEED(&prog);
    NumZeroRows f = { .K = 300, .late = 128 }, b = { .K = 600, .late = 256 }, s = { .K = 65, .late = 32 };
    run("rv_deep", "M=96,N=40,K=300", 300, num_zero_rows_gen, &f);
    run("rv_deep_bf16", "M=96,N=40,K=600", 600, num_zero_rows_gen, &b);
    run("rv_f32", "M=128,N=64,K=65", 65, num_zero_rows_gen, &s);
    run("rv_skinny", "M=64,N=64,K=65", 65, num_zero_rows_gen, &s);
}
END_TEST

START_TEST(rowview_not_eligible)
{
    NUM_NEED(&prog);
    run("rv_shared", "M=64,N=64,K=70", 70, NULL, NULL);
    run("rv_atb", "M=64,N=40,K=70", 70, NULL, NULL);
    run("rv_written", "M=70,N=32,K=64", 64, NULL, NULL);
}
END_TEST

/* Whether kernel's IR for target has the phi `name` (in place) is `want`. */
static void expect_view(const char *target, const char *kernel, const char *name, bool want, const char *operand)
{
    char *ir = num_kernel_ir("rowview.tk", SRC, kernel, target);
    ck_assert_msg(ir != NULL, "%s did not compile for %s", kernel, target);
    bool has = strstr(ir, name) != NULL;
    free(ir);
    ck_assert_msg(has == want, "%s (%s): %s is %sread in place", kernel, target, operand, has ? "" : "not ");
}

/* Named targets, not the host: whether a bf16 A can be read in place depends
 * on the ISA (the host of one CI run may have AVX512-BF16, the next only AVX2). */
START_TEST(rowview_chosen_where_eligible)
{
    static const char *const a_yes[] = { "rv_f32", "rv_bf16", "rv_abt", "rv_skinny" };
    static const char *const a_no[] = { "rv_shared", "rv_atb", "rv_written" };
    const char *bf = "x86-64-avx512bf16";
    for (unsigned i = 0; i < sizeof a_yes / sizeof *a_yes; i++) expect_view(bf, a_yes[i], "row.view", true, "A");
    for (unsigned i = 0; i < sizeof a_no / sizeof *a_no; i++) expect_view(bf, a_no[i], "row.view", false, "A");
    /* B: f32 for mma_ab (rv_shared's b feeds two of them); not bf16 (pairs), not abt (rows are n) */
    expect_view(bf, "rv_f32", "rowb.view", true, "B");
    expect_view(bf, "rv_shared", "rowb.view", true, "B");
    expect_view(bf, "rv_bf16", "rowb.view", false, "B");
    expect_view(bf, "rv_abt", "rowb.view", false, "B");
}
END_TEST

/* Without a bf16 micro-kernel (AVX2: bf16 tiles are widened to f32 for an f32
 * kernel) a bf16 A is converted, not read in place; f32 operands still are. */
START_TEST(rowview_widened_bf16_copied)
{
    const char *avx2 = "x86-64-avx2";
    expect_view(avx2, "rv_bf16", "row.view", false, "A");
    expect_view(avx2, "rv_f32", "row.view", true, "A");
    expect_view(avx2, "rv_f32", "rowb.view", true, "B");
    expect_view(avx2, "rv_shared", "row.view", false, "A");
}
END_TEST

Suite *num_suite_rowview(void)
{
    Suite *s = suite_create("rowview");
    TCase *tc = num_tcase_paths("rowview", build, teardown, NUM_JIT);
    tcase_add_test(tc, rowview_strides_and_edges);
    tcase_add_test(tc, rowview_zero_row_blocks);
    tcase_add_test(tc, rowview_late_nonzero);
    tcase_add_test(tc, rowview_not_eligible);
    tcase_add_test(tc, rowview_chosen_where_eligible);
    tcase_add_test(tc, rowview_widened_bf16_copied);
    suite_add_tcase(s, tc);
    return s;
}
