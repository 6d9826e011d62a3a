/* test_amdgpu.c — the AMDGPU matrix-instruction table and code path, no GPU
 * needed: layouts are exact partitions of their base tiles, every row's
 * (intrinsic, processor) pairing is one LLVM accepts (a wrong pairing makes
 * LLVM abort, which fails the forked test), wrong pairings are refused with a
 * message, and the same .tk kernel compiles to MFMA (gfx942, gfx950) and WMMA
 * (gfx1100, gfx1201) through the shared GPU lowering. */
#include <check.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "amdgpu.h"
#include "amdgpu_mma.h"
#include "cpu_jit.h"
#include "front.h"
#include "lower.h"

static const TkAmdgpuMma *row_named(const char *name)
{
    unsigned n;
    const TkAmdgpuMma *t = tk_amdgpu_mma_table(&n);
    for (unsigned i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0) return &t[i];
    return NULL;
}

/* Every cell of a rows×cols base tile is held by the same number of
 * (lane, element) pairs (once, or once per replica), and nothing outside. */
static void check_partition(const TkAmdgpuMma *r, const TkFragLayout *f, int elems, int rows, int cols, bool lane_is_col,
                            const char *what)
{
    int *count = calloc((size_t)(rows * cols), sizeof *count);
    ck_assert_ptr_nonnull(count);
    for (int l = 0; l < r->wave; l++)
        for (int e = 0; e < elems; e++) {
            int own = l % f->lanes, other = tk_frag_other(f, l, e);
            int i = lane_is_col ? other : own, j = lane_is_col ? own : other;
            ck_assert_msg(i >= 0 && i < rows && j >= 0 && j < cols, "%s %s: lane %d element %d -> (%d, %d) outside %dx%d",
                          r->name, what, l, e, i, j, rows, cols);
            count[i * cols + j]++;
        }
    int want = r->wave * elems / (rows * cols);
    ck_assert_int_ge(want, 1);
    for (int c = 0; c < rows * cols; c++)
        ck_assert_msg(count[c] == want, "%s %s: cell (%d, %d) held %d times, want %d", r->name, what, c / cols, c % cols,
                      count[c], want);
    free(count);
}

START_TEST(layouts_partition_base_tiles)
{
    unsigned n;
    const TkAmdgpuMma *t = tk_amdgpu_mma_table(&n);
    ck_assert_uint_ge(n, 6);
    for (unsigned i = 0; i < n; i++) {
        const TkAmdgpuMma *r = &t[i];
        /* A: lane owns a row, elements run along k; B: lane owns a column; C: lane owns a column */
        check_partition(r, &r->a, r->a_elems, r->m, r->k, false, "A");
        check_partition(r, &r->b, r->b_elems, r->k, r->n, true, "B");
        check_partition(r, &r->c, r->c_elems, r->m, r->n, true, "C");
        ck_assert_int_eq(r->m * r->n / r->wave, r->c_elems);
    }
}
END_TEST

START_TEST(mfma_32x32x8_layout_matches_the_brief)
{
    const TkAmdgpuMma *r = row_named("gfx942.mfma.f32.32x32x8.bf16");
    ck_assert_ptr_nonnull(r);
    ck_assert_str_eq(r->intrinsic, "llvm.amdgcn.mfma.f32.32x32x8bf16.1k");
    ck_assert_int_eq(r->wave, 64);
    /* lane l holds A[l%32][4(l/32) + 0..3] */
    ck_assert_int_eq(33 % r->a.lanes, 1);
    ck_assert_int_eq(tk_frag_other(&r->a, 33, 2), 6);
    ck_assert_int_eq(tk_frag_other(&r->b, 5, 3), 3);
    /* lane l register r = D[8(r/4) + 4(l/32) + r%4][l%32] */
    for (int l = 0; l < 64; l++)
        for (int q = 0; q < 16; q++) ck_assert_int_eq(tk_frag_other(&r->c, l, q), 8 * (q / 4) + 4 * (l / 32) + q % 4);
    const TkAmdgpuMma *w = row_named("gfx11.wmma.f32.16x16x16.bf16");
    ck_assert_ptr_nonnull(w);
    /* RDNA3: D[2r + l/16][l%16], A replicated in lanes 16..31 */
    ck_assert_int_eq(tk_frag_other(&w->c, 17, 3), 7);
    ck_assert_int_eq(tk_frag_other(&w->a, 17, 3), tk_frag_other(&w->a, 1, 3));
}
END_TEST

/* The shared GPU lowering reads a row's lane maps (tk_amdgpu_mma_generic),
 * not its TkFragLayouts: both must name the same element for every lane. */
START_TEST(generic_lane_maps_match_the_layouts)
{
    unsigned n;
    const TkAmdgpuMma *t = tk_amdgpu_mma_table(&n);
    for (unsigned i = 0; i < n; i++) {
        const TkAmdgpuMma *r = &t[i];
        TkGpuMma g;
        tk_amdgpu_mma_generic(r, &g);
        ck_assert_int_eq(g.m, r->m);
        ck_assert_int_eq(g.warp, r->wave);
        ck_assert_int_eq(g.a.elems, r->a_elems);
        ck_assert_int_eq(g.c.elems, r->c_elems);
        for (int l = 0; l < r->wave; l++) {
            for (int e = 0; e < r->a_elems; e++) {   /* A: the lane's row, k along the elements */
                int row, col;
                tk_lane_map_at(&g.a, l, e, &row, &col);
                ck_assert_msg(row == l % r->a.lanes && col == tk_frag_other(&r->a, l, e), "%s A lane %d e %d", r->name, l, e);
            }
            for (int e = 0; e < r->b_elems; e++) {
                int row, col;
                tk_lane_map_at(&g.b, l, e, &row, &col);
                ck_assert_msg(col == l % r->b.lanes && row == tk_frag_other(&r->b, l, e), "%s B lane %d e %d", r->name, l, e);
            }
            for (int e = 0; e < r->c_elems; e++) {
                int row, col;
                tk_lane_map_at(&g.c, l, e, &row, &col);
                ck_assert_msg(col == l % r->c.lanes && row == tk_frag_other(&r->c, l, e), "%s C lane %d e %d", r->name, l, e);
            }
        }
    }
}
END_TEST

START_TEST(wrong_pairings_are_refused)
{
    char err[512];
    const TkAmdgpuMma *g950 = row_named("gfx950.mfma.f32.32x32x16.bf16");
    const TkAmdgpuMma *g942 = row_named("gfx942.mfma.f32.32x32x8.bf16");
    const TkAmdgpuMma *w12 = row_named("gfx12.wmma.f32.16x16x16.bf16");
    ck_assert_ptr_nonnull(g950);
    ck_assert_ptr_nonnull(w12);
    ck_assert_int_eq(tk_amdgpu_mma_check(g950, "gfx942", 64, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "gfx942") && strstr(err, "gfx950") && strstr(err, "v_mfma_f32_32x32x16_bf16"), "%s", err);
    ck_assert_int_eq(tk_amdgpu_mma_check(w12, "gfx942", 64, err, sizeof err), -1);
    ck_assert_int_eq(tk_amdgpu_mma_check(g942, "gfx1201", 32, err, sizeof err), -1);
    ck_assert_int_eq(tk_amdgpu_mma_check(w12, "gfx1201", 64, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "wave32"), "%s", err);
    ck_assert_int_eq(tk_amdgpu_mma_check(g942, "gfx942", 64, err, sizeof err), 0);
    ck_assert_int_eq(tk_amdgpu_mma_check(g942, "gfx950", 64, err, sizeof err), 0);
}
END_TEST

START_TEST(selection_prefers_the_largest_fitting_tile)
{
    const TkAmdgpuMma *r = tk_amdgpu_mma_select("gfx942", 64, TK_TY_BF16, TK_TY_F32, 64, 64, 16);
    ck_assert_str_eq(r->name, "gfx942.mfma.f32.32x32x8.bf16");
    r = tk_amdgpu_mma_select("gfx942", 64, TK_TY_BF16, TK_TY_F32, 48, 48, 16);
    ck_assert_str_eq(r->name, "gfx942.mfma.f32.16x16x16.bf16");
    ck_assert_ptr_null(tk_amdgpu_mma_select("gfx942", 64, TK_TY_BF16, TK_TY_F32, 40, 40, 16));
    ck_assert_ptr_null(tk_amdgpu_mma_select("gfx942", 64, TK_TY_F16, TK_TY_F32, 32, 32, 16));
    r = tk_amdgpu_mma_select("gfx950", 64, TK_TY_BF16, TK_TY_F32, 32, 32, 16);
    ck_assert_str_eq(r->name, "gfx950.mfma.f32.32x32x16.bf16");
    r = tk_amdgpu_mma_select("gfx950", 64, TK_TY_BF16, TK_TY_F32, 32, 32, 8);
    ck_assert_str_eq(r->name, "gfx942.mfma.f32.32x32x8.bf16");
    r = tk_amdgpu_mma_select("gfx1201", 32, TK_TY_BF16, TK_TY_F32, 32, 32, 16);
    ck_assert_str_eq(r->name, "gfx12.wmma.f32.16x16x16.bf16");
    r = tk_amdgpu_mma_select("gfx1100", 32, TK_TY_BF16, TK_TY_F32, 16, 16, 16);
    ck_assert_str_eq(r->name, "gfx11.wmma.f32.16x16x16.bf16");
    ck_assert_ptr_null(tk_amdgpu_mma_select("gfx1030", 32, TK_TY_BF16, TK_TY_F32, 32, 32, 16));
}
END_TEST

/* A kernel that runs one base tile of row r; assembled for cpu. */
static char *emit_row(const TkAmdgpuMma *r, const char *cpu, int wave)
{
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMTargetRef target;
    char *msg = NULL;
    ck_assert_int_eq(LLVMGetTargetFromTriple("amdgcn-amd-amdhsa", &target, &msg), 0);
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, "amdgcn-amd-amdhsa", cpu, wave == 32 ? "+wavefrontsize32" : "",
                                                      LLVMCodeGenLevelDefault, LLVMRelocPIC, LLVMCodeModelDefault);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("row", ctx);
    LLVMSetTarget(mod, "amdgcn-amd-amdhsa");
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(mod, td);
    LLVMDisposeTargetData(td);
    LLVMTypeRef p1 = LLVMPointerTypeInContext(ctx, 1), i16 = LLVMInt16TypeInContext(ctx), f32 = LLVMFloatTypeInContext(ctx);
    LLVMTypeRef va = LLVMVectorType(i16, (unsigned)r->a_elems), vb = LLVMVectorType(i16, (unsigned)r->b_elems);
    LLVMTypeRef vc = LLVMVectorType(f32, (unsigned)r->c_elems);
    LLVMTypeRef params[1] = { p1 };
    LLVMValueRef fn = LLVMAddFunction(mod, "k", LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, 1, 0));
    LLVMSetFunctionCallConv(fn, LLVMAMDGPUKERNELCallConv);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
    LLVMValueRef p = LLVMGetParam(fn, 0);
    LLVMValueRef a = LLVMBuildLoad2(b, va, p, ""), bb = LLVMBuildLoad2(b, vb, p, ""), c = LLVMBuildLoad2(b, vc, p, "");
    TkAmdgpuBuilder ab = { ctx, mod, b };
    LLVMBuildStore(b, r->emit(r, &ab, a, bb, c), p);
    LLVMBuildRetVoid(b);
    LLVMMemoryBufferRef buf = NULL;
    ck_assert_msg(LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &msg, &buf) == 0, "%s", msg ? msg : "?");
    char *text = strndup(LLVMGetBufferStart(buf), LLVMGetBufferSize(buf));
    LLVMDisposeMemoryBuffer(buf);
    LLVMDisposeBuilder(b);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    return text;
}

START_TEST(every_row_assembles_on_every_processor_it_lists)
{
    unsigned n;
    const TkAmdgpuMma *t = tk_amdgpu_mma_table(&n);
    for (unsigned i = 0; i < n; i++) {
        char cpus[256];
        snprintf(cpus, sizeof cpus, "%s", t[i].cpus);
        for (char *save = NULL, *cpu = strtok_r(cpus, ",", &save); cpu; cpu = strtok_r(NULL, ",", &save)) {
            char *text = emit_row(&t[i], cpu, t[i].wave);
            /* gfx90a prints the older spelling (v_mfma_f32_32x32x8bf16_1k) */
            const char *want = strcmp(cpu, "gfx90a") == 0 ? "v_mfma_f32_" : t[i].mnemonic;
            ck_assert_msg(strstr(text, want), "%s on %s: no %s in the assembly", t[i].name, cpu, want);
            free(text);
        }
    }
}
END_TEST

/* ---------------------------------------------------------------- whole kernels */

static const char mma_src[] =
    "kernel mma1(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C)\n"
    "    grid(cdiv(N, 32), cdiv(M, 32)) warps(1)\n"
    "{\n"
    "    rt<bf16, 32, 16> a = load(A, block.y, 0);\n"
    "    rt<bf16, 16, 32, col> b = load(B, 0, block.x);\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    mma_ab(acc, a, b);\n"
    "    store(C, acc, block.y, block.x);\n"
    "}\n";

/* one bf16 and one f32 mma: a kernel has one base tile, so its mmas share an operand type */
static const char mixed_src[] =
    "kernel x(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, K> A2, gl<f32, K, N> B2, gl<f32, M, N> C) grid(1) warps(1)\n"
    "{\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    rt<bf16, 32, 32> a = load(A, 0, 0);\n"
    "    rt<bf16, 32, 32, col> b = load(B, 0, 0);\n"
    "    mma_ab(acc, a, b);\n"
    "    rt<f32, 32, 32> a2 = load(A2, 0, 0);\n"
    "    rt<f32, 32, 32, col> b2 = load(B2, 0, 0);\n"
    "    mma_ab(acc, a2, b2);\n"
    "    store(C, acc, 0, 0);\n"
    "}\n";

/* f16 operands: AMD's table has no f16 rows yet */
static const char f16_mma_src[] =
    "kernel h(gl<f16, M, K> A, gl<f16, K, N> B, gl<f32, M, N> C) grid(1) warps(1)\n"
    "{\n"
    "    rt<f16, 32, 32> a = load(A, 0, 0);\n"
    "    rt<f16, 32, 32, col> b = load(B, 0, 0);\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    mma_ab(acc, a, b);\n"
    "    store(C, acc, 0, 0);\n"
    "}\n";

/* Compiles src for target; returns tk_amdgpu_emit's status, the output in *text. */
static int compile_n(const char *src, const char *target, int kind, char **text, size_t *n, char *err, size_t errlen)
{
    TkFront f;
    ck_assert_int_eq(tk_front_load_memory(&f, "k.tk", src, strlen(src)), 0);
    tk_front_parse(&f);
    ck_assert_int_eq(tk_front_check(&f), 0);
    TirModule m;
    ck_assert_int_eq(tir_from_ast(&m, &f.arena, &f.src, &f.diags, f.items), 0);
    *n = 0;
    *text = NULL;
    FILE *out = open_memstream(text, n);
    ck_assert_ptr_nonnull(out);
    int rc = tk_amdgpu_emit(&m, target, kind, out, err, errlen);
    fclose(out);
    tk_front_free(&f);
    return rc;
}

static int compile(const char *src, const char *target, int kind, char **text, char *err, size_t errlen)
{
    size_t n;
    return compile_n(src, target, kind, text, &n, err, errlen);
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

START_TEST(one_kernel_four_processors)
{
    static const struct {
        const char *target, *mnemonic;
        int n;
    } cases[] = {
        { "gfx942", "v_mfma_f32_32x32x8_bf16", 2 },    /* 32x32 · K 16 = 2 K steps of 8 */
        { "gfx950", "v_mfma_f32_32x32x16_bf16", 1 },   /* one 32x32x16 */
        { "gfx1100", "v_wmma_f32_16x16x16_bf16", 4 },  /* 2x2 tiles of 16x16, K 16 */
        { "gfx1201", "v_wmma_f32_16x16x16_bf16", 4 },
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char err[1024], *text;
        int rc = compile(mma_src, cases[c].target, TK_EMIT_ASM, &text, err, sizeof err);
        ck_assert_msg(rc == 0, "%s: %s", cases[c].target, err);
        ck_assert_msg(count(text, cases[c].mnemonic) == cases[c].n, "%s: %d x %s, want %d", cases[c].target,
                      count(text, cases[c].mnemonic), cases[c].mnemonic, cases[c].n);
        ck_assert_msg(strstr(text, ".private_segment_fixed_size: 0"), "%s: tiles spilled to scratch", cases[c].target);
        free(text);
    }
}
END_TEST

START_TEST(unsupported_ops_are_diagnostics)
{
    char err[1024], *text;
    int rc = compile(mixed_src, "gfx942", TK_EMIT_ASM, &text, err, sizeof err);
    free(text);
    ck_assert_int_eq(rc, 1);
    ck_assert_msg(strstr(err, "k.tk:9:5: gfx942: this mma takes") && strstr(err, "share an operand type"), "%s", err);
    rc = compile(mixed_src, "gfx1201", TK_EMIT_ASM, &text, err, sizeof err);
    free(text);
    ck_assert_int_eq(rc, 1);
    ck_assert_msg(strstr(err, "gfx1201: this mma takes"), "%s", err);
    rc = compile(f16_mma_src, "gfx942", TK_EMIT_ASM, &text, err, sizeof err);
    free(text);
    ck_assert_int_eq(rc, 1);
    ck_assert_msg(strstr(err, "lists no f16 matrix instruction for gfx942"), "%s", err);
    rc = compile(mma_src, "gfx1030", TK_EMIT_ASM, &text, err, sizeof err);
    free(text);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err, "gfx1030"), "%s", err);
    rc = compile(mma_src, "host", TK_EMIT_ASM, &text, err, sizeof err);
    free(text);
    ck_assert_int_eq(rc, -1);
}
END_TEST

static unsigned u16le(const unsigned char *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

START_TEST(objects_are_amdgpu_elf_and_link)
{
    char err[1024], *text;
    /* an object is an ELF relocatable for EM_AMDGPU (224) */
    size_t size;
    int rc = compile_n(mma_src, "gfx942", TK_EMIT_OBJ, &text, &size, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_uint_gt(size, 64);
    const unsigned char *h = (const unsigned char *)text;
    ck_assert(memcmp(h, "\177ELF", 4) == 0);
    ck_assert_int_eq(u16le(h + 16), 1);     /* ET_REL */
    ck_assert_int_eq(u16le(h + 18), 224);   /* EM_AMDGPU */
    char obj[] = "/tmp/tk_amdgpu_XXXXXX";
    int fd = mkstemp(obj);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert_uint_eq(fwrite(text, 1, size, f), size);
    fclose(f);
    free(text);
    char hsaco[sizeof obj + 8];
    snprintf(hsaco, sizeof hsaco, "%s.hsaco", obj);
    if (access("/usr/lib/llvm-22/bin/ld.lld", X_OK) == 0 || getenv("TK_LD_LLD")) {
        ck_assert_msg(tk_amdgpu_link(obj, hsaco, err, sizeof err) == 0, "%s", err);
        unsigned char buf[64];
        FILE *g = fopen(hsaco, "rb");
        ck_assert_ptr_nonnull(g);
        ck_assert_uint_eq(fread(buf, 1, sizeof buf, g), sizeof buf);
        fclose(g);
        ck_assert_int_eq(u16le(buf + 16), 3);     /* ET_DYN: a loadable code object */
        ck_assert_int_eq(u16le(buf + 18), 224);
        unlink(hsaco);
    } else {
        fprintf(stderr, "test_amdgpu: no LLVM 22 ld.lld, linking not tested\n");
    }
    unlink(obj);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("amdgpu");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, layouts_partition_base_tiles);
    tcase_add_test(tc, mfma_32x32x8_layout_matches_the_brief);
    tcase_add_test(tc, generic_lane_maps_match_the_layouts);
    tcase_add_test(tc, wrong_pairings_are_refused);
    tcase_add_test(tc, selection_prefers_the_largest_fitting_tile);
    tcase_add_test(tc, every_row_assembles_on_every_processor_it_lists);
    suite_add_tcase(s, tc);
    TCase *k = tcase_create("kernels");
    tcase_set_timeout(k, 60);
    tcase_add_test(k, one_kernel_four_processors);
    tcase_add_test(k, unsupported_ops_are_diagnostics);
    tcase_add_test(k, objects_are_amdgpu_elf_and_link);
    suite_add_tcase(s, k);
    tcase_set_timeout(tc, 60);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? 0 : 1;
}
