/* test_outview.c — accumulators kept as zero registers and in their output
 * (lower/cpu/emit_outview.c): `acc = zeros(); for (...) mma(acc, ...);
 * store(C, acc, block.y, block.x)` accumulates in C itself where the tile
 * lies inside C (tiles ≤ 16 KiB), else in its stack tile, and in both cases
 * the zero fill is a flag the first mma reads. What could go wrong, and is
 * checked here against the interpreter (C starts with random contents, so a
 * row the kernel forgets to write is seen):
 *  - ragged shapes: edge tiles take the stack path, inside ones C;
 *  - K = 0: no mma runs, the tile is still owed its zeros (in C and on the stack);
 *  - all-zero row blocks of A, which the micro-kernel skips, must still
 *    leave zeros (finite B) or NaN (inf in B: 0·inf) in their rows of C;
 *  - a 128×128 tile (too large to live in C): the stack tile, but the last
 *    K step writes its result into C (write-through), where zero row blocks
 *    skipped in that step must copy the stack tile's rows (zero_from: A is
 *    zero there only in the last K step), or write zeros when it is also the
 *    first; a 32×256 one (too few rows for write-through) and a 16-row one;
 *  - lazy zero of accumulators read by something else (an epilogue): mmas
 *    that may not run at all (K = 0, under an if) must still leave zeros;
 *  - kernels that must NOT take the path (the accumulator read after its
 *    store, C also loaded) stay correct;
 *  - C overlapping A: one block reads A while accumulating; in place it
 *    would read its own partial sums, so the path must see the overlap and
 *    fall back.
 *
 * Tolerance: sums of K ≤ 140 products of inputs in [-1, 1): (K + 2)·2^-24·K
 * absolute, the worst case of recursive f32 summation (test_mma.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numeric.h"

static NumProg prog;

static const char *const SRC =
    "kernel ov_bf16(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        rt<bf16, 32, 32> a = load(A, block.y, k);\n"
    "        rt<bf16, 32, 32, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(C, acc, block.y, block.x);\n"
    "}\n"
    "kernel ov_f32(gl<f32, M, K> A, gl<f32, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 64), cdiv(M, 64)) {\n"
    "    rt<f32, 64, 64> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 64)) {\n"
    "        rt<f32, 64, 64> a = load(A, block.y, k);\n"
    "        rt<f32, 64, 64, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(C, acc, block.y, block.x);\n"
    "}\n"
    /* 64 KiB: too large to live in C, still lazily zero */
    "kernel ov_big(gl<f32, M, K> A, gl<f32, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 128), cdiv(M, 128)) {\n"
    "    rt<f32, 128, 128> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 64)) {\n"
    "        rt<f32, 128, 64> a = load(A, block.y, k);\n"
    "        rt<f32, 64, 128, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(C, acc, block.y, block.x);\n"
    "}\n"
    /* 32 KiB but 32 rows: keeps the stack tile and the copy (no write-through) */
    "kernel ov_wide(gl<f32, M, K> A, gl<f32, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 256), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 256> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 64)) {\n"
    "        rt<f32, 32, 64> a = load(A, block.y, k);\n"
    "        rt<f32, 64, 256, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(C, acc, block.y, block.x);\n"
    "}\n"
    /* 16 rows: 2-row register blocks, zero rows skipped two at a time */
    "kernel ov_skinny(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 64), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 64> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        rt<bf16, 16, 32> a = load(A, block.y, k);\n"
    "        rt<bf16, 32, 64, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(C, acc, block.y, block.x);\n"
    "}\n"
    /* not eligible: read after the store (C then D), and C is loaded */
    "kernel ov_reread(gl<f32, M, K> A, gl<f32, K, N> B, gl<f32, M, N> C, gl<f32, M, N> D) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        rt<f32, 32, 32> a = load(A, block.y, k);\n"
    "        rt<f32, 32, 32, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(C, acc, block.y, block.x);\n"
    "    store(D, acc * 2.0, block.y, block.x);\n"
    "}\n"
    /* lazy zero (emit_lazyzero.c): read by an epilogue, mmas that may not run, filled twice */
    "kernel lz_epilogue(gl<f32, M, K> A, gl<f32, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        rt<f32, 32, 32> a = load(A, block.y, k);\n"
    "        rt<f32, 32, 32, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(C, relu(acc) + 1.0, block.y, block.x);\n"
    "}\n"
    "kernel lz_maybe(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C, bool flag) grid(cdiv(N, 64), cdiv(M, 64)) {\n"
    "    rt<f32, 64, 64> acc = zeros();\n"
    "    if (flag) {\n"
    "        for (k in 0 .. cdiv(K, 32)) {\n"
    "            rt<bf16, 64, 32> a = load(A, block.y, k);\n"
    "            rt<bf16, 32, 64, col> b = load(B, k, block.x);\n"
    "            mma_ab(acc, a, b);\n"
    "        }\n"
    "    }\n"
    "    store(C, acc * 2.0, block.y, block.x);\n"
    "}\n"
    "kernel lz_twice(gl<f32, M, K> A, gl<f32, K, N> B, gl<f32, M, N> C, gl<f32, M, N> D) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        rt<f32, 32, 32> a = load(A, block.y, k);\n"
    "        rt<f32, 32, 32, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(C, acc - 1.0, block.y, block.x);\n"
    "    acc = zeros();\n"
    "    for (k in 1 .. cdiv(K, 32)) {\n"
    "        rt<f32, 32, 32> a = load(A, block.y, k);\n"
    "        rt<f32, 32, 32, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(D, acc + 1.0, block.y, block.x);\n"
    "}\n"
    "kernel ov_loadsc(gl<f32, M, K> A, gl<f32, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    rt<f32, 32, 32> c0 = load(C, block.y, block.x);\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        rt<f32, 32, 32> a = load(A, block.y, k);\n"
    "        rt<f32, 32, 32, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(C, acc + c0, block.y, block.x);\n"
    "}\n";

static void build(void) { num_build(&prog, "outview", SRC); }
static void teardown(void) { num_free(&prog); }

static void run(const char *kernel, const char *sizes, int64_t K, NumGen gen, void *ctx)
{
    NumRun r;
    NumSpec spec = { .sizes = sizes, .tol = num_tol_dot(K), .gen = gen, .gen_ctx = ctx };
    num_run(&prog, kernel, &spec, &r);
    num_run_free(&r);
}

START_TEST(outview_shapes)
{
    NUM_NEED(&prog);
    /* whole tiles (in C), ragged edges (stack), one partial tile, a multi-step K */
    run("ov_bf16", "M=64,N=96,K=70", 70, NULL, NULL);
    run("ov_bf16", "M=37,N=50,K=33", 33, NULL, NULL);
    run("ov_bf16", "M=5,N=7,K=3", 3, NULL, NULL);
    run("ov_f32", "M=128,N=192,K=130", 130, NULL, NULL);
    run("ov_f32", "M=70,N=65,K=64", 64, NULL, NULL);
    run("ov_big", "M=128,N=256,K=100", 100, NULL, NULL);
    run("ov_big", "M=130,N=129,K=65", 65, NULL, NULL);
    run("ov_skinny", "M=32,N=128,K=40", 40, NULL, NULL);
    run("ov_skinny", "M=3,N=70,K=17", 17, NULL, NULL);
}
END_TEST

START_TEST(outview_empty_k)
{
    NUM_NEED(&prog);
    run("ov_bf16", "M=64,N=64,K=0", 0, NULL, NULL);
    run("ov_bf16", "M=40,N=33,K=0", 0, NULL, NULL);
    run("ov_f32", "M=64,N=128,K=0", 0, NULL, NULL);
    run("ov_big", "M=128,N=128,K=0", 0, NULL, NULL);
}
END_TEST

START_TEST(outview_zero_row_blocks)
{
    NUM_NEED(&prog);
    NumZeroRows finite = { .K = 40, .inf_in_b = false }, inf = { .K = 40, .inf_in_b = true };
    run("ov_bf16", "M=64,N=64,K=40", 40, num_zero_rows_gen, &finite);
    run("ov_bf16", "M=64,N=64,K=40", 40, num_zero_rows_gen, &inf);
    run("ov_f32", "M=64,N=64,K=40", 40, num_zero_rows_gen, &finite);
    run("ov_f32", "M=64,N=64,K=40", 40, num_zero_rows_gen, &inf);
    run("ov_big", "M=128,N=128,K=40", 40, num_zero_rows_gen, &finite);
    run("ov_skinny", "M=32,N=64,K=40", 40, num_zero_rows_gen, &finite);
    run("ov_skinny", "M=32,N=64,K=40", 40, num_zero_rows_gen, &inf);
}
END_TEST

/* Lazy zero: every path, including none of the mmas running (K = 0, the if
 * not taken, the second loop empty when K ≤ 32), and skipped zero row blocks. */
START_TEST(lazy_zero_paths)
{
    NUM_NEED(&prog);
    NumZeroRows finite = { .K = 40, .inf_in_b = false };
    run("lz_epilogue", "M=64,N=70,K=50", 50, NULL, NULL);
    run("lz_epilogue", "M=40,N=33,K=0", 0, NULL, NULL);
    run("lz_epilogue", "M=64,N=64,K=40", 40, num_zero_rows_gen, &finite);
    NumRun r;
    NumSpec taken = { .sizes = "M=70,N=64,K=45", .sets = "flag=true", .tol = num_tol_dot(45) };
    num_run(&prog, "lz_maybe", &taken, &r);
    num_run_free(&r);
    NumSpec skipped = { .sizes = "M=70,N=64,K=45", .sets = "flag=false", .tol = num_tol_dot(45) };
    num_run(&prog, "lz_maybe", &skipped, &r);
    num_run_free(&r);
    run("lz_twice", "M=64,N=64,K=90", 90, NULL, NULL);
    run("lz_twice", "M=33,N=64,K=20", 20, NULL, NULL);
}
END_TEST

START_TEST(outview_write_through)
{
    NUM_NEED(&prog);
    /* K = 150: three steps of 64, the last one partial; zero rows only from column 140 or 128 */
    NumZeroRows last = { .K = 150, .zero_from = 140 }, last_inf = { .K = 150, .zero_from = 128, .inf_in_b = true };
    NumZeroRows one = { .K = 40, .inf_in_b = true };
    run("ov_big", "M=128,N=256,K=150", 150, num_zero_rows_gen, &last);
    run("ov_big", "M=256,N=128,K=150", 150, num_zero_rows_gen, &last_inf);
    run("ov_big", "M=128,N=128,K=40", 40, num_zero_rows_gen, &one);
    run("ov_big", "M=200,N=300,K=150", 150, num_zero_rows_gen, &last);
    run("ov_wide", "M=64,N=300,K=150", 150, NULL, NULL);
    run("ov_wide", "M=64,N=256,K=150", 150, num_zero_rows_gen, &last);
}
END_TEST

/* From the IR: the 128×128 tile writes C from its last K step; the 64×64
 * one lives in C all along; the 32-row one copies after the loop. */
START_TEST(outview_write_through_chosen)
{
    static const struct { const char *kernel; bool want; } cases[] = {
        { "ov_big", true }, { "ov_f32", false }, { "ov_wide", false }, { "ov_reread", false },
    };
    /* the choice depends on tile shapes, not on the ISA: the same on every CPU target */
    static const char *const targets[] = { "x86-64-avx512bf16", "x86-64-avx2", "aarch64-neon" };
    for (unsigned t = 0; t < sizeof targets / sizeof *targets; t++)
        for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
            char *ir = num_kernel_ir("outview.tk", SRC, cases[i].kernel, targets[t]);
            ck_assert_msg(ir != NULL, "%s did not compile for %s", cases[i].kernel, targets[t]);
            bool has = strstr(ir, "acc.last") != NULL;
            free(ir);
            ck_assert_msg(has == cases[i].want, "%s (%s): the last K step %s C", cases[i].kernel, targets[t],
                          has ? "writes" : "does not write");
        }
}
END_TEST

START_TEST(outview_not_eligible)
{
    NUM_NEED(&prog);
    run("ov_reread", "M=64,N=64,K=50", 50, NULL, NULL);
    run("ov_loadsc", "M=64,N=64,K=50", 50, NULL, NULL);
}
END_TEST

/* C inside the very buffer A is: the language's store comes after every K
 * step, so C must be A·B of the original A. */
static void expect_alias_safe(const char *kernel, int M, int N, int K)
{
    TkGridFn grid;
    TkBlockFn block;
    num_lookup(&prog, kernel, &grid, &block);
    float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
    double *a0 = malloc(sizeof(double) * M * K), *want = malloc(sizeof(double) * M * N), *got = malloc(sizeof(double) * M * N);
    ck_assert(a && b && a0 && want && got);
    uint64_t rng = 7;
    for (int i = 0; i < M * K; i++) a0[i] = a[i] = (float)num_uniform(&rng, -1, 1);
    for (int i = 0; i < K * N; i++) b[i] = (float)num_uniform(&rng, -1, 1);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < K; k++) s += a0[i * K + k] * b[k * N + j];
            want[i * N + j] = s;
        }
    int64_t sizes[3] = { M, K, N };   /* in order of first appearance */
    void *args[3] = { a, b, a };
    char err[256], what[128];
    ck_assert_msg(tk_cpu_launch(grid, block, args, sizes, 1, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < M * N; i++) got[i] = a[i];
    snprintf(what, sizeof what, "%s with C over A: C = A·B of the A before the call", kernel);
    num_expect(got, want, M * N, TK_TY_F32, num_tol_dot(K), what);
    free(a);
    free(b);
    free(a0);
    free(want);
    free(got);
}

/* One block, several K steps, C's elements over A's first rows: in C all
 * along (ov_f32), or written by the last step (ov_big), step 2 would read
 * step 1's partial sums, or the last step its own results. */
START_TEST(outview_output_aliases_input)
{
    NUM_NEED(&prog);
    expect_alias_safe("ov_f32", 64, 64, 128);
    expect_alias_safe("ov_big", 128, 128, 256);
}
END_TEST

Suite *num_suite_outview(void)
{
    Suite *s = suite_create("outview");
    TCase *tc = num_tcase_paths("outview", build, teardown, NUM_JIT);
    tcase_add_test(tc, outview_shapes);
    tcase_add_test(tc, outview_empty_k);
    tcase_add_test(tc, outview_zero_row_blocks);
    tcase_add_test(tc, lazy_zero_paths);
    tcase_add_test(tc, outview_write_through);
    tcase_add_test(tc, outview_write_through_chosen);
    tcase_add_test(tc, outview_not_eligible);
    tcase_add_test(tc, outview_output_aliases_input);
    suite_add_tcase(s, tc);
    return s;
}
