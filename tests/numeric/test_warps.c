/* test_warps.c — kernels with several warps (§4.1–4.3): shared tiles and
 * vectors written by each warp and read by others after sync(), barriers
 * inside block-uniform for loops and ifs, per-warp variables that live
 * across barriers, warp counts 2, 3, 4, 8 and 16, block-collective loads and
 * stores, shared-to-shared copies (S = T, per warp), the LANGUAGE.md §7.4
 * example, a helper that synchronises and returns early, empty grids, and
 * kernels whose tiles need a large stack frame (run on one thread) or too
 * large a one (refused with a diagnostic).
 *
 * Tolerance: EXACT for data movement and single ops; cross-warp sums (four
 * partial column sums of 16 rows, then added) are f32 sums of 64 terms:
 * 64·2^-24·64 absolute (see test_reduce.c). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "numeric.h"

static NumProg prog;

static const char *const SRC =
    /* each warp stages its 16 rows (×2) into S; after sync every warp reads the next warp's rows */
    "kernel rotate(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 64), cdiv(M, 64)) warps(4) {\n"
    "    st<f32, 64, 64> S;\n"
    "    rt<f32, 16, 64> part = load(X, 4 * block.y + warp.id, block.x);\n"
    "    store(S, mul(part, 2.0), warp.id, 0);\n"
    "    sync();\n"
    "    rt<f32, 16, 64, col> other = load(S, (warp.id + 1) % 4, 0);\n"
    "    store(Y, other, 4 * block.y + warp.id, block.x);\n"
    "}\n"
    /* column sums of a 64×64 tile: per-warp partial sums into an sv, combined by warp 0 */
    "kernel colsum(gl<f32, M, N> X, gl<f32, N> Y) grid(cdiv(N, 64)) warps(4) {\n"
    "    sv<f32, 256> P;\n"
    "    rv<f32, 64> total = zeros();\n"
    "    for (r in 0 .. cdiv(M, 64)) {\n"
    "        rt<f32, 16, 64> part = load(X, 4 * r + warp.id, block.x);\n"
    "        store(P, col_sum(part), warp.id);\n"
    "        sync();\n"
    "        if (warp.id == 0) {\n"
    "            for (w in 0 .. 4) {\n"
    "                total = total + load<rv<f32, 64>>(P, w);\n"
    "            }\n"
    "        }\n"
    "        sync();\n"
    "    }\n"
    "    if (warp.id == 0) {\n"
    "        store(Y, total, block.x);\n"
    "    }\n"
    "}\n"
    /* barriers under a uniform if (a scalar parameter) and in a loop with a parameter bound;
     * per-warp scalars and tiles carried across barriers */
    "kernel barrier_flow(gl<f32, M, N> X, gl<f32, M, N> Y, gl<f32, W, 16> O, bool flag, i32 passes)\n"
    "    grid(cdiv(N, 32), cdiv(M, 48)) warps(3) {\n"
    "    st<f32, 48, 32> S;\n"
    "    st<f32, 48, 32> T;\n"
    "    i32 mine = warp.id * 10 + block.x;\n"
    "    rt<f32, 16, 32> acc = zeros();\n"
    "    if (flag) {\n"
    "        S = load(X, block.y, block.x);\n"
    "        sync();\n"
    "    } else {\n"
    "        S = fill(-1.0);\n"
    "        sync();\n"
    "    }\n"
    "    for (p in 0 .. passes) {\n"
    "        rt<f32, 16, 32> mine_rows = load(S, warp.id, 0);\n"
    "        acc = acc + mine_rows * convert<f32>(p + 1);\n"
    "        sync();\n"
    "        store(S, mine_rows + 1.0, (warp.id + 1) % 3, 0);\n"
    "        sync();\n"
    "        mine += p;\n"
    "    }\n"
    "    T = S;\n"
    "    sync();\n"
    "    store(Y, T, block.y, block.x);\n"
    "    store(X, acc, 3 * block.y + warp.id, block.x);\n"
    "    if (block.x == 0 && block.y == 0) {\n"
    "        rv<f32, 16> v = fill(convert<f32>(mine));\n"
    "        store(O, v, warp.id, 0);\n"
    "    }\n"
    "}\n"
    /* many warps: 16 warps each own 16 rows of a 256-row st */
    "kernel many_warps(gl<bf16, M, N> X, gl<bf16, M, N> Y, gl<f32, M, N> Z) grid(cdiv(N, 16), cdiv(M, 256)) warps(16) {\n"
    "    st<bf16, 256, 16> S = load(X, block.y, block.x);\n"
    "    sync();\n"
    "    rt<bf16, 16, 16> mine = load(S, 15 - warp.id, 0);\n"
    "    sync();\n"
    "    store(S, mine * convert<bf16>(2.0), warp.id, 0);\n"
    "    sync();\n"
    "    store(Y, S, block.y, block.x);\n"
    "    rt<f32, 16, 16> acc = zeros();\n"
    "    mma_abt(acc, mine, load<rt<bf16, 16, 16>>(S, warp.id, 0));\n"
    "    store(Z, acc, 16 * block.y + warp.id, block.x);\n"
    "}\n"
    /* a gemm with 8 warps (4×2 grid of 32×64 sub-tiles), f16 operands */
    "kernel gemm8(gl<f16, M, K> A, gl<f16, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 128), cdiv(M, 128)) warps(8) {\n"
    "    st<f16, 128, 32> As;\n"
    "    st<f16, 32, 128> Bs;\n"
    "    let wr = warp.id / 2;\n"
    "    let wc = warp.id % 2;\n"
    "    rt<f32, 32, 64> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        As = load(A, block.y, k);\n"
    "        Bs = load(B, k, block.x);\n"
    "        sync();\n"
    "        rt<f16, 32, 32> a = load(As, wr, 0);\n"
    "        rt<f16, 32, 64, col> b = load(Bs, 0, wc);\n"
    "        mma_ab(acc, a, b);\n"
    "        sync();\n"
    "    }\n"
    "    store(C, acc, 4 * block.y + wr, 2 * block.x + wc);\n"
    "}\n"
    /* LANGUAGE.md §7.4: a loop bound from a mutable variable assigned only uniformly */
    "kernel rowscale(gl<f32, M, N> X, gl<f32, M, N> Y, i32 passes)\n"
    "    grid(cdiv(M, 64), cdiv(N, 64)) warps(4)\n"
    "{\n"
    "    st<f32, 64, 64> S;\n"
    "    i32 n = passes;\n"
    "    if (n > 4) {\n"
    "        n = 4;\n"
    "    }\n"
    "    let lead = warp.id == 0;\n"
    "    for (p in 0 .. n) {\n"
    "        S = load(X, block.x, block.y);\n"
    "        sync();\n"
    "        rt<f32, 16, 64> part = load(S, warp.id, 0);\n"
    "        if (lead) {\n"
    "            part = mul(part, 2.0);\n"
    "        }\n"
    "        store(Y, part, 4 * block.x + warp.id, block.y);\n"
    "        sync();\n"
    "    }\n"
    "}\n"
    /* a helper that synchronises, with an early return (the guard is a barrier if) */
    "fn stage(st<f32, 16, 16> S, gl<f32, M, N> X, i32 r0) {\n"
    "    if (r0 < 0) {\n"
    "        return;\n"
    "    }\n"
    "    S = load(X, r0, 0);\n"
    "    sync();\n"
    "}\n"
    "kernel staged(gl<f32, M, N> X, gl<f32, M, N> Y, i32 a) grid(1) warps(2) {\n"
    "    st<f32, 16, 16> S;\n"
    "    for (i in 0 .. 4) {\n"
    "        stage(S, X, a - i);\n"
    "        rt<f32, 16, 16> t = load(S);\n"
    "        store(Y, t + convert<f32>(warp.id), i, warp.id);\n"
    "        sync();\n"
    "    }\n"
    "}\n"
    /* grids with a zero or negative extent run no block */
    "kernel empty_grid(gl<f32, M, N> X) grid(N - 5, 2, M) warps(2) {\n"
    "    store(X, zeros<rt<f32, 16, 16>>(), block.z, block.x);\n"
    "}\n";

static void build(void) { num_build(&prog, "warps", SRC); }
static void teardown(void) { num_free(&prog); }

static void run(const char *kernel, const char *sizes, const char *sets, NumTol tol, NumTolFor per)
{
    NumSpec spec = { .sizes = sizes, .sets = sets, .tol = tol, .per = { per } };
    NumRun r;
    num_run(&prog, kernel, &spec, &r);
    num_run_free(&r);
}

START_TEST(exchange_through_shared)
{
    static const char *const sizes[] = { "M=64,N=64", "M=100,N=70", "M=1,N=1", "M=130,N=200" };
    for (unsigned k = 0; k < 4; k++) run("rotate", sizes[k], NULL, TOL_EXACT, (NumTolFor){ 0 });
}
END_TEST

START_TEST(cross_warp_reduction)
{
    static const char *const sizes[] = { "M=64,N=64", "M=100,N=70", "M=1,N=1", "M=300,N=130" };
    NumTol sum = { .atol = 300 * 0x1p-24 * 300 };   /* M terms in f32: M·2^-24·M */
    for (unsigned k = 0; k < 4; k++) run("colsum", sizes[k], NULL, sum, (NumTolFor){ 0 });
}
END_TEST

START_TEST(barriers_in_uniform_control_flow)
{
    static const char *const sets[] = { "flag=true,passes=3", "flag=false,passes=2", "flag=true,passes=0", "flag=true,passes=-1" };
    static const char *const sizes[] = { "M=48,N=32,W=3", "M=100,N=70,W=3" };
    /* Y: rows + 1 + 1 + 1, each rounded to f32 by the JIT only: ≤ 3 half-ulps; X (acc) =
     * Σ_p rows·(p+1) with rows growing by 1 per pass: a few f32 ops on values ≤ ~10: 4 ulps.
     * O (per-warp scalar carried across barriers) EXACT */
    for (unsigned k = 0; k < 4; k++)
        for (unsigned z = 0; z < 2; z++) run("barrier_flow", sizes[z], sets[k], (NumTol){ .ulps = 2 }, (NumTolFor){ "X", { .ulps = 4 } });
}
END_TEST

START_TEST(sixteen_and_eight_warps)
{
    static const char *const sizes[] = { "M=256,N=16", "M=300,N=40", "M=5,N=3" };
    /* Z: 16-term bf16 dot products in f32: (16 + 2)·2^-24·16·4 (|x| < 2 after ×2) */
    for (unsigned k = 0; k < 3; k++) run("many_warps", sizes[k], NULL, TOL_EXACT, (NumTolFor){ "Z", { .atol = 18 * 0x1p-24 * 64 } });
    static const char *const gsizes[] = { "M=128,N=128,K=32", "M=130,N=65,K=100", "M=17,N=300,K=1" };
    /* f16 products exact in f32; K terms of magnitude ≤ 1: (K + 2)·2^-24·K */
    for (unsigned k = 0; k < 3; k++) run("gemm8", gsizes[k], NULL, TOL_EXACT, (NumTolFor){ "C", { .atol = 102 * 0x1p-24 * 100 } });
}
END_TEST

START_TEST(spec_example_helpers_with_sync_and_empty_grids)
{
    /* 2.0·x exact */
    static const char *const rsets[] = { "passes=1", "passes=7", "passes=0" };
    for (unsigned k = 0; k < 3; k++) run("rowscale", k ? "M=100,N=70" : "M=64,N=64", rsets[k], TOL_EXACT, (NumTolFor){ 0 });
    static const char *const ssets[] = { "a=1", "a=3", "a=-1", "a=10" };
    for (unsigned k = 0; k < 4; k++) run("staged", "M=200,N=40", ssets[k], TOL_EXACT, (NumTolFor){ 0 });
    static const char *const esizes[] = { "M=64,N=5", "M=64,N=0", "M=0,N=40", "M=3,N=6" };
    for (unsigned k = 0; k < 4; k++) run("empty_grid", esizes[k], NULL, TOL_EXACT, (NumTolFor){ 0 });
}
END_TEST

/* ---------------------------------------------------------------- big stack frames */

/* Tiles live on the stack. A kernel of 40 ops on an rt<f32, 256, 256> (one
 * buffer per value needed ~10 MiB before element-wise chains were fused) must run with one thread as with
 * several (regression test, /tmp/codegen_bugs/stack_overflow_large_kernel.tk:
 * the launching thread's 8 MiB stack used to overflow: SIGSEGV); a kernel
 * needing more than the backend allows must be refused with a diagnostic,
 * never crash. Tolerance for `big`: 40 steps t·0.5 + c, each rounded in f32
 * by the JIT only; the error is damped by 0.5 per step: 2 ulps. */
static NumProg big, huge, dead;

static void build_big(void)
{
    NumStr s = { 0 };
    ns_printf(&s, "kernel big(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 256), cdiv(M, 256)) {\n"
                  "    rt<f32, 256, 256> t = load(X, block.y, block.x);\n");
    for (int i = 0; i < 40; i++) ns_printf(&s, "    t = t * 0.5 + %d.0;\n", i + 1);
    ns_printf(&s, "    store(Y, t, block.y, block.x);\n}\n");
    num_build(&big, "big_frame", s.s);
    ns_free(&s);
    /* 20 live rt<f32, 256, 256> per warp × 16 warps ≈ 90 MiB */
    NumStr h = { 0 };
    ns_printf(&h, "kernel huge(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 256), cdiv(M, 256)) warps(16) {\n"
                  "    rt<f32, 256, 256> t = load(X, block.y, block.x);\n");
    /* each variable is assigned twice, so it keeps its slot (a tile set once
     * to an element-wise value is forwarded and fused: lower/passes/tir_forward.c) */
    for (int i = 0; i < 20; i++) ns_printf(&h, "    rt<f32, 256, 256> t%d = t * %d.0;\n    t%d += 1.0;\n", i, i + 1, i);
    ns_printf(&h, "    store(Y, t19 + t0, block.y, block.x);\n}\n");
    num_build(&huge, "huge_frame", h.s);
    ns_free(&h);
    /* the same 20 tiles as lets nobody reads: never emitted, so the frame is small */
    NumStr d = { 0 };
    ns_printf(&d, "kernel dead(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 256), cdiv(M, 256)) warps(16) {\n"
                  "    rt<f32, 256, 256> t = load(X, block.y, block.x);\n");
    for (int i = 0; i < 20; i++) ns_printf(&d, "    let t%d = t * %d.0;\n", i, i + 1);
    ns_printf(&d, "    store(Y, t, block.y, block.x);\n}\n");
    num_build(&dead, "dead_frame", d.s);
    ns_free(&d);
}

static void teardown_big(void)
{
    num_free(&big);
    num_free(&huge);
    num_free(&dead);
}

START_TEST(large_stack_frames)
{
    static const int threads[] = { 1, 2 };
    for (unsigned k = 0; k < 2; k++) {
        NumSpec spec = { .sizes = k ? "M=300,N=600" : "M=256,N=256", .threads = threads[k], .tol = { .ulps = 2 } };
        NumRun r;
        num_run(&big, "big", &spec, &r);
        num_run_free(&r);
    }
    ck_assert_msg(!huge.built, "a kernel needing ~90 MiB of stack compiled; expected a diagnostic");
    ck_assert_msg(strstr(huge.err, "stack") != NULL, "the refusal should say why (stack): %s", huge.err);
    /* ... and give the frame's size: 20 rt<f32, 256, 256> slots x 16 warps are 80 MiB
     * (the load t has none: it is read in place by the fused loops), plus a few
     * temporaries (planted-bug seed 2, #74) */
    const char *need = strstr(huge.err, " needs ");
    ck_assert_msg(need != NULL, "the refusal should give the size: %s", huge.err);
    double mib = strtod(need + 7, NULL);
    ck_assert_msg(mib >= 80.0 && mib < 86.0, "the frame is 80-86 MiB, not %.1f: %s", mib, huge.err);
    NUM_NEED(&dead);   /* dead lets are not emitted: 84 MiB of them would be refused like huge */
    NumSpec spec = { .sizes = "M=300,N=260", .threads = 2, .tol = TOL_EXACT };
    NumRun r;
    num_run(&dead, "dead", &spec, &r);
    num_run_free(&r);
}
END_TEST

/* A launch runs blocks on the calling thread only when NAME__grid's stack
 * figure fits below the caller's stack pointer. `big` (its 40 element-wise
 * steps are fused, so one 256 KiB tile plus slack) launched on one thread
 * from a thread with a 256 KiB stack must go to a worker (run there, it would
 * overflow: SIGSEGV) and give the same bits as from the test's own thread; a
 * small block fits on that thread. */
typedef struct {
    TkGridFn grid;
    TkBlockFn block;
    void **args;
    const int64_t *sizes;
    bool fits_big, fits_small;
    int rc;
} SmallStackRun;

static void *launch_on_small_stack(void *p)
{
    SmallStackRun *r = p;
    int64_t g[4] = { 1, 1, 1, -1 };
    r->grid(r->args, r->sizes, g);
    r->fits_big = tk_cpu_caller_fits(g[3]);
    r->fits_small = tk_cpu_caller_fits(64 << 10);
    char err[256];
    r->rc = tk_cpu_launch(r->grid, r->block, r->args, r->sizes, 1, err, sizeof err);
    return NULL;
}

START_TEST(caller_thread_only_when_the_block_fits)
{
    TkGridFn grid;
    TkBlockFn block;
    num_lookup(&big, "big", &grid, &block);
    enum { M = 300, N = 600 };
    float *x = malloc(sizeof(float) * M * N), *y0 = calloc(M * N, sizeof(float)), *y1 = calloc(M * N, sizeof(float));
    ck_assert(x && y0 && y1);
    for (int i = 0; i < M * N; i++) x[i] = (float)(i % 97) * 0.25f - 7.0f;
    int64_t sizes[2] = { M, N };
    void *args0[2] = { x, y0 }, *args1[2] = { x, y1 };
    int64_t g[4] = { 1, 1, 1, -1 };
    grid(args0, sizes, g);
    ck_assert_msg(g[3] >= (256 << 10) && g[3] < (48 << 20), "big's grid reports %lld bytes of stack; its tile alone is 256 KiB",
                  (long long)g[3]);
    ck_assert(!tk_cpu_caller_fits(0) && !tk_cpu_caller_fits(-1) && !tk_cpu_caller_fits((int64_t)1 << 40));
    char err[256];
    ck_assert_msg(tk_cpu_launch(grid, block, args0, sizes, 1, err, sizeof err) == 0, "%s", err);

    SmallStackRun r = { .grid = grid, .block = block, .args = args1, .sizes = sizes };
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 << 10);
    ck_assert(pthread_create(&t, &attr, launch_on_small_stack, &r) == 0);
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    ck_assert_msg(!r.fits_big, "a 256 KiB stack was judged to hold %lld bytes", (long long)g[3]);
    ck_assert_msg(r.fits_small, "64 KiB should fit on a 256 KiB stack");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(memcmp(y0, y1, sizeof(float) * M * N) == 0, "the launch from a small stack differs");
    free(x);
    free(y0);
    free(y1);
}
END_TEST

/* The groups' AOT twins (numeric.h): NUM_AOT, NUM_AOT | NUM_JIT (bit-compared with the JIT too), 0 for none.
 * On the AOT path the ~90 MiB kernel must be refused by tk_cpu_emit as by the JIT. */
static const unsigned AOT_WARPS = NUM_AOT, AOT_STACK = NUM_AOT;

Suite *num_suite_warps(void)
{
    Suite *s = suite_create("warps");
    for (unsigned v = 0; v < 2; v++) {
        unsigned paths = num_variant(v, AOT_WARPS);
        if (!paths) continue;
        TCase *tc = num_tcase_paths("warps_sync", build, teardown, paths);
        tcase_add_test(tc, exchange_through_shared);
        tcase_add_test(tc, cross_warp_reduction);
        tcase_add_test(tc, barriers_in_uniform_control_flow);
        tcase_add_test(tc, sixteen_and_eight_warps);
        tcase_add_test(tc, spec_example_helpers_with_sync_and_empty_grids);
        suite_add_tcase(s, tc);
    }
    for (unsigned v = 0; v < 2; v++) {
        unsigned paths = num_variant(v, AOT_STACK);
        if (!paths) continue;
        TCase *tb = num_tcase_paths("stack_frames", build_big, teardown_big, paths);
        tcase_add_test(tb, large_stack_frames);
        tcase_add_test(tb, caller_thread_only_when_the_block_fits);
        suite_add_tcase(s, tb);
    }
    return s;
}
