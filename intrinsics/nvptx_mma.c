/* nvptx_mma.c — see nvptx_mma.h.
 *
 * mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 (PTX ISA 7.0, sm_80+),
 * per lane l of the warp, with group g = l >> 2 and t = l & 3 (the PTX ISA's
 * groupID and threadID_in_group):
 *   A 16×16: 4 registers of 2 bf16, a0..a7: row g (a0, a1, a4, a5) or g + 8
 *            (a2, a3, a6, a7); column 2t + (i & 1), plus 8 for a4..a7.
 *   B 16×8:  2 registers of 2 bf16, b0..b3: row 2t + (i & 1), plus 8 for
 *            b2, b3; column g.
 *   C/D 16×8 f32: c0..c3: row g (c0, c1) or g + 8 (c2, c3); column 2t + (i & 1).
 * Two bf16 of one register: the lower-numbered element in the low 16 bits.
 * LLVM 22: llvm.nvvm.mma.m16n8k16.row.col.bf16 takes the registers as
 * scalars (4 × i32, 2 × i32, 4 × float) and returns {float × 4}
 * (../shared/TOOLCHAIN.md).
 *
 * mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 (sm_80+), one register
 * per element:
 *   A 16×8:  a0..a3: row g (a0, a2) or g + 8 (a1, a3); column t, plus 4 for a2, a3.
 *   B 8×8:   b0, b1: row t, plus 4 for b1; column g.
 *   C/D 16×8 f32: as for m16n8k16.
 * The table's A and B maps are these with the K index renumbered,
 * k ↦ 2(k mod 4) + k / 4, the same for A and B: the sum over k does not
 * change, and A's elements of a 16×8 block then sit in the lanes that hold
 * them as an accumulator (g, 2t + 0..1), so an f32 result feeds the next
 * product without leaving its lane, as on m16n8k16. The operands are tf32
 * (10-bit mantissa); the shared lowering splits f32 into two tf32 parts
 * (gpu_lower.c) so the product keeps f32 accuracy. */
#include "nvptx_mma.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static LLVMValueRef emit_mma_sync(const TkGpuMma *r, TkGpuBuilder *gb, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c);

static const TkNvptxMma table[] = {
    { { "sm80.mma.m16n8k16.bf16", 16, 8, 16, TK_TY_BF16, TK_TY_F32, 32,
        /* A */ { { 2, 7, 1 }, { 0, 3, 2 }, 8, { 0, 0, 8, 8, 0, 0, 8, 8 }, { 0, 1, 0, 1, 8, 9, 8, 9 } },
        /* B */ { { 0, 3, 2 }, { 2, 7, 1 }, 4, { 0, 1, 8, 9 }, { 0, 0, 0, 0 } },
        /* C */ { { 2, 7, 1 }, { 0, 3, 2 }, 4, { 0, 0, 8, 8 }, { 0, 1, 0, 1 } },
        "llvm.nvvm.mma.m16n8k16.row.col.bf16", "HMMA.16816.F32.BF16", emit_mma_sync, NULL },
      80, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
      "A: lane l holds A[l/4 (+8)][2(l%4) + 0..1 (+8)]; B: B[2(l%4) + 0..1 (+8)][l/4]; C/D: D[l/4 (+8)][2(l%4) + 0..1]",
      "sm_80+: one 16x8 f32 tile += 16x16 bf16 · 16x8 bf16 per warp (4 accumulator registers per lane)" },
    { { "sm80.mma.m16n8k16.f16", 16, 8, 16, TK_TY_F16, TK_TY_F32, 32,
        /* the same fragments as bf16 (PTX ISA: one figure for .f16 and .bf16) */
        /* A */ { { 2, 7, 1 }, { 0, 3, 2 }, 8, { 0, 0, 8, 8, 0, 0, 8, 8 }, { 0, 1, 0, 1, 8, 9, 8, 9 } },
        /* B */ { { 0, 3, 2 }, { 2, 7, 1 }, 4, { 0, 1, 8, 9 }, { 0, 0, 0, 0 } },
        /* C */ { { 2, 7, 1 }, { 0, 3, 2 }, 4, { 0, 0, 8, 8 }, { 0, 1, 0, 1 } },
        "llvm.nvvm.mma.m16n8k16.row.col.f32.f32", "HMMA.16816.F32", emit_mma_sync, NULL },
      80, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
      "A: lane l holds A[l/4 (+8)][2(l%4) + 0..1 (+8)]; B: B[2(l%4) + 0..1 (+8)][l/4]; C/D: D[l/4 (+8)][2(l%4) + 0..1]",
      "sm_80+: one 16x8 f32 tile += 16x16 f16 · 16x8 f16 per warp (4 accumulator registers per lane)" },
    { { "sm80.mma.m16n8k8.tf32", 16, 8, 8, TK_TY_F32, TK_TY_F32, 32,
        /* A */ { { 2, 7, 1 }, { 0, 3, 2 }, 4, { 0, 8, 0, 8 }, { 0, 0, 1, 1 } },
        /* B */ { { 0, 3, 2 }, { 2, 7, 1 }, 2, { 0, 1 }, { 0, 0 } },
        /* C */ { { 2, 7, 1 }, { 0, 3, 2 }, 4, { 0, 0, 8, 8 }, { 0, 1, 0, 1 } },
        "llvm.nvvm.mma.m16n8k8.row.col.tf32", "HMMA.1688.F32.TF32", emit_mma_sync, NULL },
      80, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
      "A: lane l holds A[l/4 (+8)][2(l%4) + 0..1] (K renumbered); B: B[2(l%4) + 0..1][l/4]; C/D: D[l/4 (+8)][2(l%4) + 0..1]",
      "sm_80+: one 16x8 f32 tile += 16x8 tf32 · 8x8 tf32 per warp (f32 operands as two tf32 parts)" },
};

const TkNvptxMma *tk_nvptx_mma_table(unsigned *count)
{
    *count = sizeof table / sizeof table[0];
    return table;
}

int tk_nvptx_sm(const char *proc, bool *arch_specific)
{
    if (arch_specific) *arch_specific = false;
    if (!proc || strncmp(proc, "sm_", 3) != 0) return 0;
    char *end;
    long sm = strtol(proc + 3, &end, 10);
    if (end == proc + 3 || sm <= 0 || sm > 1000) return 0;
    if (*end == 'a' && end[1] == '\0') {
        if (arch_specific) *arch_specific = true;
    } else if (*end != '\0') {
        return 0;
    }
    return (int)sm;
}

int tk_nvptx_mma_check(const TkNvptxMma *r, const char *proc, char *err, size_t errlen)
{
    int sm = tk_nvptx_sm(proc, NULL);
    if (sm < r->min_sm) {
        snprintf(err, errlen, "%s: %s (%s) needs sm_%d or later", proc ? proc : "?", r->mma.name, r->ptx, r->min_sm);
        return -1;
    }
    return 0;
}

unsigned tk_nvptx_mma_rows(const char *proc, TkGpuMma *out, unsigned max)
{
    unsigned n = 0;
    char err[256];
    for (unsigned i = 0; i < sizeof table / sizeof table[0] && n < max; i++) {
        if (tk_nvptx_mma_check(&table[i], proc, err, sizeof err) != 0) continue;
        out[n] = table[i].mma;
        out[n].vendor_row = &table[i];
        n++;
    }
    return n;
}

/* ---------------------------------------------------------------- emitter */

static LLVMValueRef call(TkGpuBuilder *gb, const char *name, LLVMValueRef *args, unsigned n)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(gb->mod, id, NULL, 0);
    return LLVMBuildCall2(gb->b, LLVMGlobalGetValueType(fn), fn, args, n, "");
}

/* bf16: a <8 x i16>, b <4 x i16>, pairs of which become the i32 registers;
 * f16: the same bits, pairs as <2 x half> (the f16 intrinsic's register
 * type); tf32: a <4 x float>, b <2 x float>, one register each. c <4 x
 * float>; the four floats of the result go back into one vector. */
static LLVMValueRef emit_mma_sync(const TkGpuMma *r, TkGpuBuilder *gb, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx), f32 = LLVMFloatTypeInContext(gb->ctx);
    int per = r->operand == TK_TY_F32 ? 1 : 2;   /* elements per register */
    int na = r->a.elems / per, nb = r->b.elems / per;
    LLVMValueRef args[10];
    unsigned n = 0;
    if (r->operand == TK_TY_F16) {
        LLVMTypeRef half = LLVMHalfTypeInContext(gb->ctx);
        LLVMValueRef ah = LLVMBuildBitCast(gb->b, a, LLVMVectorType(half, (unsigned)r->a.elems), "");
        LLVMValueRef bh = LLVMBuildBitCast(gb->b, b, LLVMVectorType(half, (unsigned)r->b.elems), "");
        for (int q = 0; q < na + nb; q++) {
            LLVMValueRef src = q < na ? ah : bh;
            unsigned k = (unsigned)(q < na ? q : q - na);
            LLVMValueRef pair[2] = { LLVMConstInt(i32, 2 * k, 0), LLVMConstInt(i32, 2 * k + 1, 0) };
            args[n++] = LLVMBuildShuffleVector(gb->b, src, LLVMGetPoison(LLVMTypeOf(src)), LLVMConstVector(pair, 2), "");
        }
    } else {
        LLVMValueRef av = LLVMBuildBitCast(gb->b, a, LLVMVectorType(i32, (unsigned)na), "");
        LLVMValueRef bv = LLVMBuildBitCast(gb->b, b, LLVMVectorType(i32, (unsigned)nb), "");
        for (int q = 0; q < na; q++) args[n++] = LLVMBuildExtractElement(gb->b, av, LLVMConstInt(i32, (unsigned)q, 0), "");
        for (int q = 0; q < nb; q++) args[n++] = LLVMBuildExtractElement(gb->b, bv, LLVMConstInt(i32, (unsigned)q, 0), "");
    }
    for (int q = 0; q < r->c.elems; q++) args[n++] = LLVMBuildExtractElement(gb->b, c, LLVMConstInt(i32, (unsigned)q, 0), "");
    LLVMValueRef d = call(gb, r->intrinsic, args, n);
    LLVMValueRef out = LLVMGetPoison(LLVMVectorType(f32, (unsigned)r->c.elems));
    for (int q = 0; q < r->c.elems; q++)
        out = LLVMBuildInsertElement(gb->b, out, LLVMBuildExtractValue(gb->b, d, (unsigned)q, ""), LLVMConstInt(i32, (unsigned)q, 0), "");
    return out;
}
