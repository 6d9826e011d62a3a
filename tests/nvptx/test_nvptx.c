/* test_nvptx.c — the NVIDIA tensor-core table and code path, no GPU needed:
 * each row's lane maps agree with the PTX ISA's fragment figures (restated
 * here from the document, not from the table) and partition the base tiles;
 * SM names parse; instructions an SM lacks are refused; and a .tk kernel
 * compiles through the shared GPU lowering to PTX with the expected number
 * of mma.sync per K step, while constructs outside the subset are refused
 * with the file position, the SM and the construct. The shared-tile swizzle
 * is a permutation of each row that keeps 16-byte chunks whole and puts 8
 * consecutive rows of one column in 8 different bank groups; register tiles
 * in ldmatrix's layout are read with it (.trans for col tiles). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_jit.h"
#include "cuda.h"
#include "front.h"
#include "gpu_swizzle.h"
#include "lower.h"
#include "nvptx.h"
#include "nvptx_mma.h"
#include "tir_interp.h"

static const TkNvptxMma *row_named(const char *name)
{
    unsigned n;
    const TkNvptxMma *t = tk_nvptx_mma_table(&n);
    for (unsigned i = 0; i < n; i++)
        if (strcmp(t[i].mma.name, name) == 0) return &t[i];
    return NULL;
}

/* PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type":
 * groupID = laneid >> 2, threadID_in_group = laneid % 4. */
static void ptx_a(int lane, int i, int *row, int *col)
{
    int g = lane >> 2, t = lane % 4;
    *row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
    *col = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
}

static void ptx_b(int lane, int i, int *row, int *col)
{
    int g = lane >> 2, t = lane % 4;
    *row = t * 2 + (i & 1) + (i >= 2 ? 8 : 0);
    *col = g;
}

static void ptx_c(int lane, int i, int *row, int *col)
{
    int g = lane >> 2, t = lane % 4;
    *row = i < 2 ? g : g + 8;
    *col = t * 2 + (i & 1);
}

static void check_map(const char *what, const TkLaneMap *m, int rows, int cols, void (*ref)(int, int, int *, int *))
{
    int *count = calloc((size_t)(rows * cols), sizeof *count);
    ck_assert_ptr_nonnull(count);
    for (int l = 0; l < 32; l++)
        for (int e = 0; e < m->elems; e++) {
            int r, c, rr, rc;
            tk_lane_map_at(m, l, e, &r, &c);
            ref(l, e, &rr, &rc);
            ck_assert_msg(r == rr && c == rc, "%s: lane %d element %d is (%d, %d), the PTX ISA says (%d, %d)", what, l, e, r, c,
                          rr, rc);
            ck_assert(r >= 0 && r < rows && c >= 0 && c < cols);
            count[r * cols + c]++;
        }
    for (int k = 0; k < rows * cols; k++) ck_assert_msg(count[k] == 1, "%s: cell %d held %d times", what, k, count[k]);
    free(count);
}

START_TEST(m16n8k16_lane_maps_are_the_ptx_isa_figures)
{
    const TkNvptxMma *r = row_named("sm80.mma.m16n8k16.bf16");
    ck_assert_ptr_nonnull(r);
    const TkGpuMma *g = &r->mma;
    ck_assert_int_eq(g->m, 16);
    ck_assert_int_eq(g->n, 8);
    ck_assert_int_eq(g->k, 16);
    ck_assert_int_eq(g->warp, 32);
    ck_assert_int_eq(g->a.elems, 8);
    ck_assert_int_eq(g->b.elems, 4);
    ck_assert_int_eq(g->c.elems, 4);
    check_map("A", &g->a, 16, 16, ptx_a);
    check_map("B", &g->b, 16, 8, ptx_b);
    check_map("C", &g->c, 16, 8, ptx_c);
}
END_TEST

/* PTX ISA, "Matrix Fragments for mma.m16n8k8", .tf32: a0..a3 at row g (+8
 * for a1, a3), column t (+4 for a2, a3); b0, b1 at row t (+4 for b1), column
 * g. The table renumbers K as k -> 2(k mod 4) + k / 4 in both A and B. */
static int renumber_k(int k) { return 2 * (k % 4) + k / 4; }

static void ptx_tf32_a(int lane, int i, int *row, int *col)
{
    int g = lane >> 2, t = lane % 4;
    *row = g + 8 * (i & 1);
    *col = renumber_k(t + 4 * (i >> 1));
}

static void ptx_tf32_b(int lane, int i, int *row, int *col)
{
    int g = lane >> 2, t = lane % 4;
    *row = renumber_k(t + 4 * i);
    *col = g;
}

START_TEST(m16n8k8_tf32_lane_maps_are_the_ptx_isa_figures_with_k_renumbered)
{
    const TkNvptxMma *r = row_named("sm80.mma.m16n8k8.tf32");
    ck_assert_ptr_nonnull(r);
    const TkGpuMma *g = &r->mma;
    ck_assert_int_eq(g->m, 16);
    ck_assert_int_eq(g->n, 8);
    ck_assert_int_eq(g->k, 8);
    ck_assert_int_eq(g->operand, TK_TY_F32);
    ck_assert_int_eq(g->a.elems, 4);
    ck_assert_int_eq(g->b.elems, 2);
    check_map("tf32 A", &g->a, 16, 8, ptx_tf32_a);
    check_map("tf32 B", &g->b, 8, 8, ptx_tf32_b);
    check_map("tf32 C", &g->c, 16, 8, ptx_c);
    /* what the renumbering buys: lane l holds the same elements of a 16x8
     * block as an A operand and as an accumulator */
    for (int l = 0; l < 32; l++)
        for (int e = 0; e < 4; e++) {
            int r1, c1, r2, c2;
            tk_lane_map_at(&g->a, l, e, &r1, &c1);
            bool found = false;
            for (int f = 0; f < 4; f++) {
                tk_lane_map_at(&g->c, l, f, &r2, &c2);
                found |= r1 == r2 && c1 == c2;
            }
            ck_assert_msg(found, "lane %d: A element (%d, %d) is not one of its accumulator elements", l, r1, c1);
        }
}
END_TEST

START_TEST(sm_names_and_pairings)
{
    bool a;
    ck_assert_int_eq(tk_nvptx_sm("sm_80", &a), 80);
    ck_assert(!a);
    ck_assert_int_eq(tk_nvptx_sm("sm_90a", &a), 90);
    ck_assert(a);
    ck_assert_int_eq(tk_nvptx_sm("sm_", NULL), 0);
    ck_assert_int_eq(tk_nvptx_sm("sm_90b", NULL), 0);
    ck_assert_int_eq(tk_nvptx_sm("gfx942", NULL), 0);
    ck_assert_int_eq(tk_nvptx_sm(NULL, NULL), 0);
    const TkNvptxMma *r = row_named("sm80.mma.m16n8k16.bf16");
    char err[256];
    ck_assert_int_eq(tk_nvptx_mma_check(r, "sm_80", err, sizeof err), 0);
    ck_assert_int_eq(tk_nvptx_mma_check(r, "sm_90a", err, sizeof err), 0);
    ck_assert_int_eq(tk_nvptx_mma_check(r, "sm_75", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "sm_75") && strstr(err, "sm_80"), "%s", err);
    TkGpuMma rows[4];
    ck_assert_uint_eq(tk_nvptx_mma_rows("sm_75", rows, 4), 0);
    ck_assert_uint_eq(tk_nvptx_mma_rows("sm_90", rows, 4), 3);   /* bf16 first: the preferred row; f16; tf32 */
    ck_assert_ptr_eq(rows[0].vendor_row, r);
}
END_TEST

static const char mma_src[] =
    "kernel mma_single(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C)\n"
    "    grid(cdiv(N, 32), cdiv(M, 32)) warps(1)\n"
    "{\n"
    "    rt<bf16, 32, 16> a = load(A, block.y, 0);\n"
    "    rt<bf16, 16, 32, col> b = load(B, 0, block.x);\n"
    "    rt<f32, 32, 32> acc = zeros();\n"
    "    mma_ab(acc, a, b);\n"
    "    store(C, acc, block.y, block.x);\n"
    "}\n";

static const char warps_src[] =
    "kernel w(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C)\n"
    "    grid(cdiv(N, 64), cdiv(M, 64)) warps(4)\n"
    "{\n"
    "    rt<f32, 16, 64> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        rt<bf16, 16, 32> a = load(A, 4 * block.y + warp.id, k);\n"
    "        rt<bf16, 32, 64, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a, b);\n"
    "    }\n"
    "    store(C, acc, 4 * block.y + warp.id, block.x);\n"
    "}\n";

/* rows of f32 accumulators are reduced on GPUs; rows of bf16 operand tiles not yet */

/* one bf16 and one f32 mma: one base tile per kernel cannot serve both */
static const char mixed_src[] =
    "kernel x(gl<f32, M, K> A, gl<f32, K, N> B, gl<f32, M, N> C) grid(1) warps(1)\n"
    "{\n"
    "    rt<f32, 16, 16> a = load(A, 0, 0);\n"
    "    rt<f32, 16, 16, col> b = load(B, 0, 0);\n"
    "    rt<f32, 16, 16> acc = zeros();\n"
    "    mma_ab(acc, a, b);\n"
    "    mma_ab(acc, convert<bf16>(a), convert<bf16>(b));\n"
    "    store(C, acc, 0, 0);\n"
    "}\n";

static const char f16_src[] =
    "kernel h(gl<f16, M, K> A, gl<f16, K, N> B, gl<f32, M, N> C) grid(1) warps(1)\n"
    "{\n"
    "    rt<f16, 16, 16> a = load(A, 0, 0);\n"
    "    rt<f16, 16, 16, col> b = load(B, 0, 0);\n"
    "    rt<f32, 16, 16> acc = zeros();\n"
    "    mma_ab(acc, a, b);\n"
    "    store(C, acc, 0, 0);\n"
    "}\n";

/* Compiles src for target; returns tk_nvptx_emit's status, the output in *text. */
static int compile(const char *src, const char *target, int kind, char **text, char *err, size_t errlen)
{
    TkFront f;
    ck_assert_int_eq(tk_front_load_memory(&f, "k.tk", src, strlen(src)), 0);
    tk_front_parse(&f);
    ck_assert_int_eq(tk_front_check(&f), 0);
    TirModule m;
    ck_assert_int_eq(tir_from_ast(&m, &f.arena, &f.src, &f.diags, f.items), 0);
    size_t n = 0;
    *text = NULL;
    FILE *out = open_memstream(text, &n);
    ck_assert_ptr_nonnull(out);
    int rc = tk_nvptx_emit(&m, target, kind, out, err, errlen);
    fclose(out);
    tk_front_free(&f);
    return rc;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

#define MMA_SYNC "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"

START_TEST(one_kernel_three_sms)
{
    static const char *const sms[] = { "sm_80", "sm_90", "sm_90a" };
    for (unsigned s = 0; s < 3; s++) {
        char err[1024], *text, target[32];
        int rc = compile(mma_src, sms[s], TK_EMIT_ASM, &text, err, sizeof err);
        ck_assert_msg(rc == 0, "%s: %s", sms[s], err);
        snprintf(target, sizeof target, ".target %s", sms[s]);
        ck_assert_msg(strstr(text, target), "%s: no '%s'", sms[s], target);
        /* 32×32 of C in 16×8 tiles, K = 16: 2 · 4 · 1 */
        ck_assert_msg(count(text, MMA_SYNC) == 8, "%s: %d mma.sync, want 8", sms[s], count(text, MMA_SYNC));
        ck_assert_msg(strstr(text, ".entry mma_single("), "%s: no kernel entry", sms[s]);
        ck_assert_msg(strstr(text, ".reqntid 32"), "%s: the block is not one warp", sms[s]);
        ck_assert_msg(!strstr(text, ".local"), "%s: tiles went to local memory", sms[s]);
        free(text);
    }
}
END_TEST

START_TEST(warps_and_k_loop)
{
    char err[1024], *text;
    int rc = compile(warps_src, "sm_90a", TK_EMIT_ASM, &text, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_msg(strstr(text, ".reqntid 128"), "warps(4) is not 128 threads");
    ck_assert_msg(strstr(text, ".minnctapersm 1"), "ptxas is not told that one block per SM is enough");
    /* 16×64 of C, K = 32 per step: 1 · 8 · 2 in the loop body */
    ck_assert_int_eq(count(text, MMA_SYNC), 16);
    ck_assert_msg(strstr(text, "%tid.x") && strstr(text, "%ctaid.y"), "no thread or block id");
    ck_assert_msg(strstr(text, "bra"), "no loop");
    free(text);
    rc = compile(warps_src, "sm_80", TK_EMIT_LLVM_IR, &text, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_msg(strstr(text, "define ptx_kernel void @w(ptr addrspace(1)"), "not a ptx_kernel with global pointers");
    ck_assert_msg(strstr(text, "llvm.nvvm.mma.m16n8k16.row.col.bf16"), "no mma intrinsic");
    ck_assert_msg(strstr(text, "\"nvvm.reqntid\"=\"128\""), "no block size attribute");
    free(text);
}
END_TEST

static const char shared_src[] =
    "kernel s(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C) grid(1) warps(2)\n"
    "{\n"
    "    st<bf16, 32, 32> As;\n"
    "    st<bf16, 32, 64> Bs;\n"
    "    As = load(A, 0, 0);\n"
    "    Bs = load(B, 0, 0);\n"
    "    sync();\n"
    "    rt<bf16, 16, 32> a = load(As, warp.id, 0);\n"
    "    rt<bf16, 32, 64, col> b = load(Bs, 0, 0);\n"
    "    rt<f32, 16, 64> acc = zeros();\n"
    "    mma_ab(acc, a, b);\n"
    "    store(C, acc, warp.id, 0);\n"
    "}\n";

/* a 16x32 A tile: 8 registers per lane, two ldmatrix.x4; a 32x64 col
 * tile: 32 registers, eight .x4.trans; no element-by-element shared loads
 * left. The shared tiles are loaded by cp.async. */
START_TEST(shared_tiles_go_through_cp_async_and_ldmatrix)
{
    char err[1024], *text;
    int rc = compile(shared_src, "sm_80", TK_EMIT_ASM, &text, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_int_eq(count(text, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"), 2);
    ck_assert_int_eq(count(text, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"), 8);
    ck_assert_int_eq(count(text, "ld.shared.b16"), 0);
    ck_assert_int_eq(count(text, "ld.shared.u16"), 0);
    /* the tiles are loaded by cp.async (with an element-by-element loop for
     * tensors whose rows are not whole 16-byte chunks), waited for at sync() */
    ck_assert_int_eq(count(text, "cp.async.cg.shared.global"), 2);
    const char *wait = strstr(text, "cp.async.wait_all"), *bar = strstr(text, "bar.sync");
    ck_assert_msg(wait && bar && wait < bar, "no cp.async.wait_all before the barrier");
    free(text);
}
END_TEST

START_TEST(refusals_are_diagnostics)
{
    char err[1024], *text;
    /* f16 operands: mma.sync.m16n8k16 with f16 A and B */
    int rc = compile(f16_src, "sm_90", TK_EMIT_ASM, &text, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_msg(strstr(text, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), "no f16 mma.sync");
    free(text);
    rc = compile(mixed_src, "sm_80", TK_EMIT_ASM, &text, err, sizeof err);
    free(text);
    ck_assert_int_eq(rc, 1);
    ck_assert_msg(strstr(err, "k.tk:7:5: sm_80:") && strstr(err, "an earlier one in kernel x (line 6)") && strstr(err, "share an operand type"),
                  "%s", err);
    rc = compile(mma_src, "sm_80", TK_EMIT_OBJ, &text, err, sizeof err);
    free(text);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err, "--emit=ptx"), "%s", err);
    rc = compile(mma_src, "gfx942", TK_EMIT_ASM, &text, err, sizeof err);
    free(text);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err, "not an NVIDIA GPU target"), "%s", err);
}
END_TEST

/* the grid a GPU launcher computes on the host: examples/gemm.tk's
 * grid(cdiv(N, BN), cdiv(M, BM)) */
START_TEST(grid_on_the_host)
{
    static const char src[] =
        "kernel g(gl<bf16, M, K> A, gl<f32, M, N> C, i32 extra)\n"
        "    grid(cdiv(N, 128), cdiv(M, 64) + extra, 3) warps(4)\n"
        "{\n"
        "    rt<f32, 64, 64> acc = zeros();\n"
        "    store(C, acc, block.y, block.x);\n"
        "}\n";
    TkFront f;
    ck_assert_int_eq(tk_front_load_memory(&f, "g.tk", src, strlen(src)), 0);
    tk_front_parse(&f);
    ck_assert_int_eq(tk_front_check(&f), 0);
    TirModule m;
    ck_assert_int_eq(tir_from_ast(&m, &f.arena, &f.src, &f.diags, f.items), 0);
    const TirFunc *fn = m.funcs;
    int64_t sizes[3];
    for (unsigned s = 0; s < fn->sizes->count; s++) {
        const char *n = fn->sizes->names[s];
        sizes[s] = strcmp(n, "M") == 0 ? 200 : strcmp(n, "N") == 0 ? 129 : 70;
    }
    double scalars[3] = { 0, 0, 2 };
    int64_t grid[3];
    char err[256];
    ck_assert_msg(tir_interp_grid(fn, scalars, sizes, grid, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(grid[0], 2);       /* cdiv(129, 128) */
    ck_assert_int_eq(grid[1], 4 + 2);   /* cdiv(200, 64) + extra */
    ck_assert_int_eq(grid[2], 3);
    tk_front_free(&f);
}
END_TEST

/* plain loops, one assertion at the end: a ck_assert per element made this
 * test time out under AddressSanitizer */
START_TEST(swizzle_permutes_rows_and_spreads_banks)
{
    char first[160] = "";
    int bad = 0;
    for (int bytes = 2; bytes <= 4; bytes += 2)
        for (int64_t cols = 4; cols <= 512; cols += 4) {
            TkSwizzle z = tk_swizzle_of(cols, bytes);
            int64_t chunk = 16 / bytes, n = cols / chunk;
            bool swizzled = cols % chunk == 0 && n % 2 == 0;
            if ((z.mask != 0) != swizzled && !bad++)
                snprintf(first, sizeof first, "cols %lld, %d-byte elements: swizzled %d", (long long)cols, bytes, z.mask != 0);
            /* a permutation of the tile (24 rows) that moves whole chunks and that tk_swizzle_cell undoes */
            enum { ROWS = 24 };
            static char seen[ROWS * 512];
            memset(seen, 0, sizeof seen);
            for (int64_t row = 0; row < ROWS; row++)
                for (int64_t col = 0; col < cols; col++) {
                    int64_t at = tk_swizzle_index(z, ROWS, cols, row, col), r = -1, c = -1;
                    if (at >= 0 && at < ROWS * cols) tk_swizzle_cell(z, ROWS, cols, at, &r, &c);
                    if ((at < 0 || at >= ROWS * cols || seen[at] || (cols % chunk == 0 && at % chunk != col % chunk) || r != row || c != col) && !bad++)
                        snprintf(first, sizeof first, "cols %lld, %d-byte elements: (%lld, %lld) at %lld, back to (%lld, %lld)",
                                 (long long)cols, bytes, (long long)row, (long long)col, (long long)at, (long long)r, (long long)c);
                    if (at >= 0 && at < ROWS * cols) seen[at] = 1;
                    /* rows of 8·2^k chunks: NVIDIA's 128-byte swizzle layout (PTX ISA, wgmma
                     * shared memory layouts: Swizzle<3,4,3> on the byte address) in panels of
                     * 128-byte rows; 4 and 2 chunks: the 64- and 32-byte layouts
                     * (Swizzle<2,4,3>, Swizzle<1,4,3>) on plain rows */
                    int64_t row_bytes = cols * bytes, sw = row_bytes % 128 == 0 ? 128 : row_bytes == 64 ? 64 : row_bytes == 32 ? 32 : 0;
                    if (sw) {
                        int64_t plain = (col * bytes / sw) * ROWS * sw + row * sw + col * bytes % sw;   /* panels sw bytes wide */
                        int64_t bits = sw == 128 ? 7 : sw == 64 ? 3 : 1;
                        int64_t want = plain ^ (((plain >> 7) & bits) << 4);
                        if (want != at * bytes && !bad++)
                            snprintf(first, sizeof first, "cols %lld, %d-byte elements: (%lld, %lld) at byte %lld, the %lld-byte layout says %lld",
                                     (long long)cols, bytes, (long long)row, (long long)col, (long long)(at * bytes), (long long)sw,
                                     (long long)want);
                    }
                }
            if (cols % chunk) continue;
            /* 8 consecutive rows from any row, one chunk-aligned column: 8 bank groups */
            for (int64_t row = 0; row < 16; row++)
                for (int64_t col = 0; col < cols; col += chunk) {
                    unsigned groups = 0;
                    for (int64_t r = row; r < row + 8; r++) groups |= 1u << (tk_swizzle_index(z, ROWS, cols, r, col) * bytes / 16 % 8);
                    if (groups != 0xff && !bad++)
                        snprintf(first, sizeof first, "cols %lld, %d-byte elements, rows %lld..+7, col %lld: bank groups %#x",
                                 (long long)cols, bytes, (long long)row, (long long)col, groups);
                }
        }
    ck_assert_msg(bad == 0, "%d failures, the first: %s", bad, first);
}
END_TEST

/* no driver: a status naming what is missing, never a crash */
START_TEST(cuda_without_a_driver)
{
    setenv("TK_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
    TkCuda *cu = (TkCuda *)1;
    char err[512];
    ck_assert_int_eq(tk_cuda_open(&cu, err, sizeof err), -1);
    ck_assert_ptr_null(cu);
    ck_assert_msg(strstr(err, "no CUDA driver") && strstr(err, "/nonexistent/libcuda.so.1"), "%s", err);
    unsetenv("TK_CUDA_LIBRARY");
    tk_cuda_close(NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nvptx");
    TCase *tc = tcase_create("table");
    tcase_set_timeout(tc, 60);   /* the swizzle sweep under AddressSanitizer */
    tcase_add_test(tc, m16n8k16_lane_maps_are_the_ptx_isa_figures);
    tcase_add_test(tc, m16n8k8_tf32_lane_maps_are_the_ptx_isa_figures_with_k_renumbered);
    tcase_add_test(tc, sm_names_and_pairings);
    tcase_add_test(tc, grid_on_the_host);
    tcase_add_test(tc, cuda_without_a_driver);
    tcase_add_test(tc, swizzle_permutes_rows_and_spreads_banks);
    suite_add_tcase(s, tc);
    TCase *k = tcase_create("kernels");
    tcase_set_timeout(k, 120);
    tcase_add_test(k, one_kernel_three_sms);
    tcase_add_test(k, warps_and_k_loop);
    tcase_add_test(k, refusals_are_diagnostics);
    tcase_add_test(k, shared_tiles_go_through_cp_async_and_ldmatrix);
    suite_add_tcase(s, k);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? 0 : 1;
}
