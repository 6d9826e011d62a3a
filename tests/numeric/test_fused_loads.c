/* test_fused_loads.c — loads read in place by the fused loops
 * (lower/cpu/emit_tiles.c, "loads read in place"): against the interpreter, on
 * sizes that are not multiples of the tiles (so both the inside path and the
 * masked edge copy run). Tolerance 1e-6 relative + 1e-6 absolute: a sum of
 * three f32 values rounds twice in the kernel, once in the interpreter; a
 * wrong read is off by O(1) (the inputs are in [-1, 1)).
 *
 * The in-place cases are the hazard: a fused store into the tensor a load
 * came from may read the load inside its loop only where element (i, j) is
 * read at (i, j). `inplace_row` reads row 0 of its own tile while writing
 * every row (planting "always in place" made 1920 of 2800 elements wrong). */
#include "numeric.h"

static NumProg prog;

static const char *const SRC =
    "kernel inplace_same(gl<f32, M, N> Y) grid(cdiv(N, 32), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 32> y = load(Y, block.y, block.x);\n"
    "    store(Y, y * 2.0 + 1.0, block.y, block.x);\n"
    "}\n"
    "kernel inplace_row(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 32), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 32> t = load(X, block.y, block.x);\n"
    "    rt<f32, 16, 32> y = load(Y, block.y, block.x);\n"
    "    store(Y, add_col(t, y[0, ..]) + y, block.y, block.x);\n"
    "}\n"
    "kernel reread(gl<f32, M, N> X, gl<f32, N> V, gl<f32, M, N> Y, gl<f32, M> S) grid(cdiv(N, 32), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 32> x = load(X, block.y, block.x);\n"
    "    rv<f32, 32> v = load(V, block.x);\n"
    "    store(Y, add_col(x, v) * 0.5, block.y, block.x);\n"
    "    if (block.x == 0) { store(S, row_sum(x), block.y); }\n"
    "    rt<f32, 16, 32> y = load(Y, block.y, block.x);\n"
    "    store(Y, max(y, x), block.y, block.x);\n"
    "}\n"
    "kernel copy_bf16(gl<bf16, M, N> X, gl<bf16, M, N> Y) grid(cdiv(N, 32), cdiv(M, 16)) {\n"
    "    store(Y, load<rt<bf16, 16, 32>>(X, block.y, block.x), block.y, block.x);\n"
    "}\n";

static void build(void) { num_build(&prog, "fused_loads", SRC); }
static void teardown(void) { num_free(&prog); }

START_TEST(fused_loads_match_interpreter)
{
    static const char *const kernels[] = { "inplace_same", "inplace_row", "reread", "copy_bf16" };
    static const char *const sizes[] = { "M=40,N=70", "M=16,N=32", "M=1,N=5", "M=64,N=96" };
    for (unsigned k = 0; k < 4; k++)
        for (unsigned z = 0; z < 4; z++) {
            NumSpec spec = { .sizes = sizes[z], .threads = 1 + z % 2, .tol = { .rtol = 1e-6, .atol = 1e-6 } };
            NumRun r;
            num_run(&prog, kernels[k], &spec, &r);
            num_run_free(&r);
        }
}
END_TEST

Suite *num_suite_fused_loads(void)
{
    Suite *s = suite_create("fused_loads");
    for (unsigned p = 0; p < 2; p++) {
        unsigned paths = num_variant(p, NUM_AOT);
        if (!paths) continue;
        TCase *tc = num_tcase_paths("fused_loads", build, teardown, paths);
        tcase_add_test(tc, fused_loads_match_interpreter);
        suite_add_tcase(s, tc);
    }
    return s;
}
