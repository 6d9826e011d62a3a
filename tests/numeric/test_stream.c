/* test_stream.c — streaming (non-temporal) stores of large outputs
 * (lower/cpu/emit_stream.c).
 *
 * Which stores may stream is a compile-time choice, checked in the IR: a
 * fused store into a tensor the kernel never reads carries !nontemporal (and
 * the block function an sfence on x86); a store into a tensor the kernel
 * loads back, or of a col-layout tile, does not. Whether a store streams is
 * then decided per tile at run time (a tensor of at least 16 MiB, the tile's
 * start and the row pitch 64-byte aligned): the numeric cases are large
 * enough to stream, with a pitch that allows it and one that does not, rows
 * that are not a multiple of the tile (the edge tiles never stream), f32 and
 * bf16 outputs, against the interpreter; and the same for a store of a
 * tile that is not fused (a transpose), streamed from its buffer. */
#include <stdlib.h>
#include <string.h>

#include "numeric.h"

static NumProg prog;

static const char *const SRC =
    "kernel affine(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 64), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 64> x = load(X, block.y, block.x);\n"
    "    store(Y, x * 2.0 + 1.0, block.y, block.x);\n"
    "}\n"
    "kernel affine_bf16(gl<f32, M, N> X, gl<bf16, M, N> Y) grid(cdiv(N, 64), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 64> x = load(X, block.y, block.x);\n"
    "    store(Y, convert<bf16>(exp(x) * 0.5 + 1.0), block.y, block.x);\n"
    "}\n"
    "kernel reread(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 64), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 64> x = load(X, block.y, block.x);\n"
    "    store(Y, x * 2.0, block.y, block.x);\n"
    "    rt<f32, 16, 64> y = load(Y, block.y, block.x);\n"
    "    store(Y, y + x, block.y, block.x);\n"
    "}\n"
    "kernel by_col(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 64), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 64, col> x = load(X, block.y, block.x);\n"
    "    store(Y, x * 2.0, block.y, block.x);\n"
    "}\n"
    /* a store of a tile that is not fused (a transpose): streamed from its buffer */
    "kernel flip(gl<f32, M, N> X, gl<f32, N, M> Y) grid(cdiv(N, 32), cdiv(M, 64)) {\n"
    "    rt<f32, 64, 32> x = load(X, block.y, block.x);\n"
    "    store(Y, transpose(x), block.x, block.y);\n"
    "}\n"
    "kernel flip_bf16(gl<bf16, M, N> X, gl<bf16, N, M> Y) grid(cdiv(N, 32), cdiv(M, 64)) {\n"
    "    rt<bf16, 64, 32> x = load(X, block.y, block.x);\n"
    "    store(Y, transpose(x), block.x, block.y);\n"
    "}\n";

static void build(void) { num_build(&prog, "stream", SRC); }
static void teardown(void) { num_free(&prog); }

/* Does kernel's IR (or, asm: its assembly) for target contain text? */
static bool emits(bool assembly, const char *target, const char *kernel, const char *text)
{
    char *out = assembly ? num_kernel_asm("stream.tk", SRC, kernel, target) : num_kernel_ir("stream.tk", SRC, kernel, target);
    ck_assert_msg(out != NULL, "%s did not compile for %s", kernel, target);
    bool has = strstr(out, text) != NULL;
    free(out);
    return has;
}

static bool ir_has(const char *target, const char *kernel, const char *text) { return emits(false, target, kernel, text); }
static bool asm_has(const char *target, const char *kernel, const char *text) { return emits(true, target, kernel, text); }

START_TEST(stream_only_write_only_row_stores)
{
    static const char *const targets[] = { "x86-64-avx512", "x86-64-avx2", "aarch64-neon" };
    for (unsigned t = 0; t < 3; t++) {
        bool x86 = strncmp(targets[t], "x86", 3) == 0;
        ck_assert_msg(ir_has(targets[t], "affine", "!nontemporal"), "affine (%s): no streaming store", targets[t]);
        ck_assert_msg(ir_has(targets[t], "affine_bf16", "!nontemporal"), "affine_bf16 (%s): no streaming store", targets[t]);
        ck_assert_msg(ir_has(targets[t], "affine", "llvm.x86.sse.sfence") == x86, "affine (%s): sfence %s", targets[t],
                      x86 ? "missing" : "on a non-x86 target");
        ck_assert_msg(!ir_has(targets[t], "reread", "!nontemporal"), "reread (%s): streams a tensor it loads back", targets[t]);
        ck_assert_msg(!ir_has(targets[t], "by_col", "!nontemporal"), "by_col (%s): streams a col tile", targets[t]);
        /* and the back end keeps them: a rounded bf16 vector stored as it is
         * became a truncating store (vpmovdw to memory), which cannot stream */
        const char *insn = x86 ? "vmovnt" : "stnp";
        ck_assert_msg(asm_has(targets[t], "affine", insn), "affine (%s): no %s in the code", targets[t], insn);
        ck_assert_msg(asm_has(targets[t], "affine_bf16", insn), "affine_bf16 (%s): no %s in the code", targets[t], insn);
        ck_assert_msg(ir_has(targets[t], "flip", "!nontemporal"), "flip (%s): a transposed tile does not stream", targets[t]);
        ck_assert_msg(asm_has(targets[t], "flip_bf16", insn), "flip_bf16 (%s): no %s in the code", targets[t], insn);
    }
    ck_assert_msg(asm_has("x86-64-avx512bf16", "affine_bf16", "vmovnt"), "affine_bf16 (x86-64-avx512bf16): no vmovnt in the code");
}
END_TEST

START_TEST(streamed_outputs_match_interpreter)
{
    NUM_NEED(&prog);
    /* 16.9 MB outputs: N = 4096 streams its interior tiles, N = 4100 (a
     * pitch of 16400 bytes) cannot; M = 1030 leaves a 6-row edge strip */
    static const char *const f32_sizes[] = { "M=1030,N=4096", "M=1030,N=4100" };
    for (unsigned z = 0; z < 2; z++) {
        NumSpec spec = { .sizes = f32_sizes[z], .threads = 2, .tol = { .rtol = 1e-6, .atol = 1e-6 } };
        NumRun r;
        num_run(&prog, "affine", &spec, &r);
        num_run_free(&r);
    }
    /* bf16: 8192 columns are 16 MiB of output in 1030 rows; exp in f32 then
     * one rounding may land one bf16 ulp from the exactly rounded value */
    NumSpec spec = { .sizes = "M=1030,N=8192", .threads = 2, .tol = { .ulps = 1 } };
    NumRun r;
    num_run(&prog, "affine_bf16", &spec, &r);
    num_run_free(&r);
    /* transposes (exact moves) into 16.9 MB: Y rows of 4096 elements stream,
     * of 4100 cannot; 1030 Y rows leave a 6-row edge strip */
    static const char *const flips[][2] = { { "flip", "M=4096,N=1030" }, { "flip", "M=4100,N=1030" }, { "flip_bf16", "M=8192,N=1030" } };
    for (unsigned z = 0; z < 3; z++) {
        NumSpec fs = { .sizes = flips[z][1], .threads = 2, .tol = TOL_EXACT };
        num_run(&prog, flips[z][0], &fs, &r);
        num_run_free(&r);
    }
}
END_TEST

Suite *num_suite_stream(void)
{
    Suite *s = suite_create("stream");
    TCase *ir = tcase_create("stream_ir");
    tcase_set_timeout(ir, 300);   /* 22 compilations: tens of seconds under the sanitizers (Check's default is 4 s) */
    tcase_add_test(ir, stream_only_write_only_row_stores);
    suite_add_tcase(s, ir);
    TCase *tc = num_tcase_paths("stream", build, teardown, NUM_JIT);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, streamed_outputs_match_interpreter);
    suite_add_tcase(s, tc);
    return s;
}
