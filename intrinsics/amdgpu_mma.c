/* amdgpu_mma.c — see amdgpu_mma.h.
 *
 * Layout sources (checked while writing this table):
 *  - MFMA (gfx90a/gfx942/gfx950): AMD's Matrix Instruction Calculator
 *    (github.com/ROCm/amd_matrix_instruction_calculator, matrix_calculator.py,
 *    the CDNA classes): A i = lane % M, A k = (k per lane)·floor(lane / M) +
 *    register element; C/D i = 8·floor(GPR / 4) % 32 + 4·floor(lane / M) +
 *    GPR % 4 (M = 32; without the first term for M = 16), C/D j = lane % N.
 *  - WMMA gfx11: the same calculator's RDNA3 class: A/B row (col) = lane % 16,
 *    "i and i+16" hold copies, k = register element 0..15; C/D i =
 *    (wave / 16)·GPR + floor(lane / 16), j = lane % 16 (wave32: 2·r + l/16).
 *  - WMMA gfx12: Composable Kernel's wmma_gemm.hpp (gfx12 wave32 only, 8
 *    accumulator VGPRs, C rows unmerged as (lane / 16, register) → i =
 *    8·(l / 16) + r, j = l % 16); A/B: lane % 16 is the row (col), the two
 *    lane halves hold k 0..7 and 8..15.
 * Intrinsic types are the ones in ../shared/TOOLCHAIN.md (LLVM 22). */
#include "amdgpu_mma.h"

#include <stdio.h>
#include <string.h>

static LLVMValueRef emit_mfma(const TkAmdgpuMma *r, TkAmdgpuBuilder *ab, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c);
static LLVMValueRef emit_wmma(const TkAmdgpuMma *r, TkAmdgpuBuilder *ab, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c);

/* Preferred rows first: tk_amdgpu_mma_select takes the first that fits. */
static const TkAmdgpuMma table[] = {
    { "gfx950.mfma.f32.32x32x16.bf16", "gfx950", TK_AMDGPU_MFMA, 32, 32, 16, TK_TY_BF16, TK_TY_F32, 64, 8, 8, 16,
      { 32, 8, 8, 1, 8 }, { 32, 8, 8, 1, 8 }, { 32, 4, 4, 1, 8 }, true,
      "llvm.amdgcn.mfma.f32.32x32x16.bf16", "v_mfma_f32_32x32x16_bf16",
      "A: lane l holds A[l%32][8(l/32)+0..7]; B: B[8(l/32)+0..7][l%32]; C/D: reg r of lane l = D[8(r/4)+4(l/32)+r%4][l%32]",
      "CDNA4 wave64: one 32x32 f32 tile += 32x16 bf16 · 16x32 bf16 (16 accumulator registers)", emit_mfma },
    { "gfx950.mfma.f32.16x16x32.bf16", "gfx950", TK_AMDGPU_MFMA, 16, 16, 32, TK_TY_BF16, TK_TY_F32, 64, 8, 8, 4,
      { 16, 8, 8, 1, 8 }, { 16, 8, 8, 1, 8 }, { 16, 4, 4, 1, 16 }, true,
      "llvm.amdgcn.mfma.f32.16x16x32.bf16", "v_mfma_f32_16x16x32_bf16",
      "A: lane l holds A[l%16][8(l/16)+0..7]; B: B[8(l/16)+0..7][l%16]; C/D: reg r of lane l = D[4(l/16)+r][l%16]",
      "CDNA4 wave64: one 16x16 f32 tile += 16x32 bf16 · 32x16 bf16 (4 accumulator registers)", emit_mfma },
    { "gfx942.mfma.f32.32x32x8.bf16", "gfx90a,gfx942,gfx950", TK_AMDGPU_MFMA, 32, 32, 8, TK_TY_BF16, TK_TY_F32, 64,
      4, 4, 16, { 32, 4, 4, 1, 4 }, { 32, 4, 4, 1, 4 }, { 32, 4, 4, 1, 8 }, false,
      "llvm.amdgcn.mfma.f32.32x32x8bf16.1k", "v_mfma_f32_32x32x8_bf16",
      "A: lane l holds A[l%32][4(l/32)+0..3]; B: B[4(l/32)+0..3][l%32]; C/D: reg r of lane l = D[8(r/4)+4(l/32)+r%4][l%32]",
      "CDNA2/3 wave64: one 32x32 f32 tile += 32x8 bf16 · 8x32 bf16 (16 accumulator registers)", emit_mfma },
    { "gfx942.mfma.f32.16x16x16.bf16", "gfx90a,gfx942,gfx950", TK_AMDGPU_MFMA, 16, 16, 16, TK_TY_BF16, TK_TY_F32,
      64, 4, 4, 4, { 16, 4, 4, 1, 4 }, { 16, 4, 4, 1, 4 }, { 16, 4, 4, 1, 16 }, false,
      "llvm.amdgcn.mfma.f32.16x16x16bf16.1k", "v_mfma_f32_16x16x16_bf16",
      "A: lane l holds A[l%16][4(l/16)+0..3]; B: B[4(l/16)+0..3][l%16]; C/D: reg r of lane l = D[4(l/16)+r][l%16]",
      "CDNA2/3 wave64: one 16x16 f32 tile += 16x16 bf16 · 16x16 bf16 (4 accumulator registers)", emit_mfma },
    { "gfx11.wmma.f32.16x16x16.bf16", "gfx1100,gfx1101,gfx1102,gfx1103,gfx1150,gfx1151", TK_AMDGPU_WMMA, 16, 16, 16,
      TK_TY_BF16, TK_TY_F32, 32, 16, 16, 8, { 16, 0, 16, 1, 16 }, { 16, 0, 16, 1, 16 }, { 16, 1, 8, 2, 16 }, false,
      "llvm.amdgcn.wmma.f32.16x16x16.bf16", "v_wmma_f32_16x16x16_bf16",
      "A: lane l holds A[l%16][0..15] (lanes 16-31 repeat 0-15); B: B[0..15][l%16]; C/D: reg r of lane l = D[2r+l/16][l%16]",
      "RDNA3 wave32: one 16x16 f32 tile += 16x16 bf16 · 16x16 bf16 (A/B <16 x i16>, 8 accumulator registers)", emit_wmma },
    { "gfx12.wmma.f32.16x16x16.bf16", "gfx1200,gfx1201", TK_AMDGPU_WMMA, 16, 16, 16, TK_TY_BF16, TK_TY_F32, 32, 8, 8, 8,
      { 16, 8, 8, 1, 8 }, { 16, 8, 8, 1, 8 }, { 16, 8, 8, 1, 8 }, false,
      "llvm.amdgcn.wmma.f32.16x16x16.bf16", "v_wmma_f32_16x16x16_bf16",
      "A: lane l holds A[l%16][8(l/16)+0..7]; B: B[8(l/16)+0..7][l%16]; C/D: reg r of lane l = D[8(l/16)+r][l%16]",
      "RDNA4 wave32: one 16x16 f32 tile += 16x16 bf16 · 16x16 bf16 (A/B <8 x i16>, 8 accumulator registers)", emit_wmma },
};

const TkAmdgpuMma *tk_amdgpu_mma_table(unsigned *count)
{
    *count = sizeof table / sizeof table[0];
    return table;
}

bool tk_amdgpu_mma_supports(const TkAmdgpuMma *r, const char *cpu)
{
    if (!cpu) return false;
    size_t n = strlen(cpu);
    for (const char *p = r->cpus; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, cpu, n) == 0) return true;
        p = e ? e + 1 : NULL;
    }
    return false;
}

int tk_amdgpu_mma_check(const TkAmdgpuMma *r, const char *cpu, int wave, char *err, size_t errlen)
{
    if (!tk_amdgpu_mma_supports(r, cpu)) {
        snprintf(err, errlen, "%s: %s (%s, %s) is not an instruction of %s; it exists on %s", cpu ? cpu : "?", r->name,
                 r->intrinsic, r->mnemonic, cpu ? cpu : "?", r->cpus);
        return -1;
    }
    if (wave != r->wave) {
        snprintf(err, errlen, "%s: %s (%s) is a wave%d instruction; this code runs in wave%d", cpu, r->name, r->mnemonic,
                 r->wave, wave);
        return -1;
    }
    return 0;
}

const TkAmdgpuMma *tk_amdgpu_mma_select(const char *cpu, int wave, TkTypeKind operand, TkTypeKind acc, int64_t m, int64_t n,
                                        int64_t k)
{
    for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++) {
        const TkAmdgpuMma *r = &table[i];
        if (r->operand != operand || r->acc != acc || r->wave != wave || !tk_amdgpu_mma_supports(r, cpu)) continue;
        if (m <= 0 || n <= 0 || k <= 0 || m % r->m || n % r->n || k % r->k) continue;
        return r;
    }
    return NULL;
}

/* ---------------------------------------------------------------- emitters */

static LLVMValueRef call(TkAmdgpuBuilder *ab, const char *name, LLVMTypeRef *ov, unsigned nov, LLVMValueRef *args, unsigned n)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(ab->mod, id, ov, nov);
    return LLVMBuildCall2(ab->b, LLVMGlobalGetValueType(fn), fn, args, n, "");
}

/* llvm.amdgcn.mfma.*(A, B, C, cbsz = 0, abid = 0, blgp = 0): no broadcast, no lane swizzle. */
static LLVMValueRef emit_mfma(const TkAmdgpuMma *r, TkAmdgpuBuilder *ab, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    if (r->bfloat_operands) {
        LLVMTypeRef bf = LLVMVectorType(LLVMBFloatTypeInContext(ab->ctx), (unsigned)r->a_elems);
        a = LLVMBuildBitCast(ab->b, a, bf, "");
        b = LLVMBuildBitCast(ab->b, b, bf, "");
    }
    LLVMValueRef zero = LLVMConstInt(LLVMInt32TypeInContext(ab->ctx), 0, 0);
    LLVMValueRef args[6] = { a, b, c, zero, zero, zero };
    return call(ab, r->intrinsic, NULL, 0, args, 6);
}

/* llvm.amdgcn.wmma.f32.16x16x16.bf16, overloaded on {D type, A type}: (A, B, C). */
static LLVMValueRef emit_wmma(const TkAmdgpuMma *r, TkAmdgpuBuilder *ab, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    (void)r;
    LLVMTypeRef ov[2] = { LLVMTypeOf(c), LLVMTypeOf(a) };
    LLVMValueRef args[3] = { a, b, c };
    return call(ab, r->intrinsic, ov, 2, args, 3);
}

/* ---------------------------------------------------------------- the shared form */

static LLVMValueRef emit_generic(const TkGpuMma *g, TkGpuBuilder *gb, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    const TkAmdgpuMma *r = g->vendor_row;
    TkAmdgpuBuilder ab = { gb->ctx, gb->mod, gb->b };
    return r->emit(r, &ab, a, b, c);
}

static int log2i(int x)
{
    int s = 0;
    while ((1 << s) < x) s++;
    return s;
}

/* A TkFragLayout as a lane map: lane % lanes is the row (A) or the column
 * (B, C/D); the lane group and the element give the other coordinate. */
static TkLaneMap lane_map(const TkFragLayout *f, int wave, int elems, bool lane_is_row)
{
    TkLaneMap m = { .elems = elems };
    TkLaneTerm own = { 0, (uint8_t)(f->lanes - 1), 1 };
    TkLaneTerm group = { (uint8_t)log2i(f->lanes), (uint8_t)(wave / f->lanes - 1), (int16_t)f->group_step };
    m.row = lane_is_row ? own : group;
    m.col = lane_is_row ? group : own;
    for (int e = 0; e < elems && e < TK_GPU_FRAG_MAX; e++) {
        int16_t other = (int16_t)((e / f->run) * f->run_stride + (e % f->run) * f->step);
        m.row_of[e] = lane_is_row ? 0 : other;
        m.col_of[e] = lane_is_row ? other : 0;
    }
    return m;
}

void tk_amdgpu_mma_generic(const TkAmdgpuMma *r, TkGpuMma *out)
{
    *out = (TkGpuMma){ .name = r->name, .m = r->m, .n = r->n, .k = r->k, .operand = r->operand, .acc = r->acc,
                       .warp = r->wave, .intrinsic = r->intrinsic, .mnemonic = r->mnemonic, .emit = emit_generic,
                       .vendor_row = r };
    out->a = lane_map(&r->a, r->wave, r->a_elems, true);
    out->b = lane_map(&r->b, r->wave, r->b_elems, false);
    out->c = lane_map(&r->c, r->wave, r->c_elems, false);
}
