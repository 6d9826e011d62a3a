/* gpu_vendor_nvptx.c — the NVIDIA hooks of the shared GPU lowering
 * (gpu_lower.h): nvvm special registers, ptx_kernel functions with an exact
 * block size, and the tensor-core rows of intrinsics/nvptx_mma.c an SM has. */
#include <stdio.h>
#include <string.h>

#include "gpu_lower.h"
#include "nvptx_mma.h"

static unsigned nv_rows(const char *proc, int warp, TkGpuMma *rows, unsigned max)
{
    return warp == 32 ? tk_nvptx_mma_rows(proc, rows, max) : 0;
}

static int nv_check(const TkGpuMma *r, const char *proc, int warp, char *err, size_t errlen)
{
    if (warp != 32) {
        snprintf(err, errlen, "%s: NVIDIA warps have 32 lanes, not %d", proc ? proc : "?", warp);
        return -1;
    }
    return tk_nvptx_mma_check(r->vendor_row, proc, err, errlen);
}

/* .reqntid: the block has exactly this many threads (ptxas sizes registers by
 * it). .minnctapersm 1: one block per SM is enough, so ptxas may give a lane
 * all the registers the block size allows. Without it ptxas aimed at more
 * resident blocks and spilled register tiles it had room for: ffn.tk's
 * gelu_bf16_part 36 B of spills at 168 registers, none at 209 with it (sm_90a). */
static void nv_kernel_attrs(LLVMContextRef ctx, LLVMValueRef fn, int threads)
{
    char n[32];
    snprintf(n, sizeof n, "%d", threads);
    LLVMAttributeRef a = LLVMCreateStringAttribute(ctx, "nvvm.reqntid", 12, n, (unsigned)strlen(n));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
    LLVMAttributeRef m = LLVMCreateStringAttribute(ctx, "nvvm.minctasm", 13, "1", 1);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, m);
}

static LLVMValueRef nv_special(TkGpuBuilder *gb, TkGpuSpecial which)
{
    static const char *const names[] = { "llvm.nvvm.read.ptx.sreg.tid.x", "llvm.nvvm.read.ptx.sreg.ctaid.x",
                                         "llvm.nvvm.read.ptx.sreg.ctaid.y", "llvm.nvvm.read.ptx.sreg.ctaid.z" };
    return tk_gpu_intrinsic(gb, names[which], NULL, 0);
}

/* barrier.sync 0 (bar.sync): the whole CTA, with shared-memory ordering */
/* bar.warp.sync over the full warp, which also orders shared-memory accesses */
static void nv_warp_sync(TkGpuBuilder *gb)
{
    LLVMValueRef all = LLVMConstInt(LLVMInt32TypeInContext(gb->ctx), 0xffffffffu, 0);
    tk_gpu_intrinsic(gb, "llvm.nvvm.bar.warp.sync", &all, 1);
}

static void nv_barrier(TkGpuBuilder *gb)
{
    LLVMValueRef zero = LLVMConstInt(LLVMInt32TypeInContext(gb->ctx), 0, 0);
    tk_gpu_intrinsic(gb, "llvm.nvvm.barrier.cta.sync.aligned.all", &zero, 1);
}

/* shfl.sync.idx.b32 over the whole warp (membermask all ones; c = 0x1f: no
 * segments, clamp at lane 31) */
static LLVMValueRef nv_shuffle(TkGpuBuilder *gb, LLVMValueRef x, LLVMValueRef src)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx);
    LLVMValueRef args[4] = { LLVMConstInt(i32, 0xffffffffu, 0), x, src, LLVMConstInt(i32, 0x1f, 0) };
    return tk_gpu_intrinsic(gb, "llvm.nvvm.shfl.sync.idx.i32", args, 4);
}

/* llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].b16, overloaded on
 * the address's pointer type (addrspace(3) here): i32 for x1, a struct of
 * i32 otherwise */
static LLVMValueRef nv_ldmatrix(TkGpuBuilder *gb, LLVMValueRef row, int num, bool trans)
{
    char name[80];
    snprintf(name, sizeof name, "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x%d%s.b16", num, trans ? ".trans" : "");
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx), pt = LLVMTypeOf(row);
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(gb->mod, LLVMLookupIntrinsicID(name, strlen(name)), &pt, 1);
    LLVMValueRef r = LLVMBuildCall2(gb->b, LLVMGlobalGetValueType(fn), fn, &row, 1, "ldm");
    LLVMValueRef v = LLVMGetPoison(LLVMVectorType(i32, (unsigned)num));
    for (int i = 0; i < num; i++) {
        LLVMValueRef x = num == 1 ? r : LLVMBuildExtractValue(gb->b, r, (unsigned)i, "");
        v = LLVMBuildInsertElement(gb->b, v, x, LLVMConstInt(i32, (unsigned)i, 0), "");
    }
    return v;
}

/* cp.async.cg.shared.global [dst], [src], 16, bytes (sm_80+; .cg: cached in
 * L2 only, as a streamed tile wants) */
static void nv_cp_async(TkGpuBuilder *gb, LLVMValueRef dst, LLVMValueRef src, LLVMValueRef bytes)
{
    LLVMValueRef args[3] = { dst, src, bytes };
    tk_gpu_intrinsic(gb, "llvm.nvvm.cp.async.cg.shared.global.16.s", args, 3);
}

static void nv_cp_async_wait(TkGpuBuilder *gb)
{
    tk_gpu_intrinsic(gb, "llvm.nvvm.cp.async.wait.all", NULL, 0);
}

/* ---------------------------------------------------------------- wgmma (sm_90a)
 * LLVM 22 has no intrinsic for wgmma.mma_async (../shared/TOOLCHAIN.md): it
 * is inline PTX, its accumulators tied operands ("=f" out, the same
 * register in). The fences and waits are inline PTX too, with a memory
 * clobber so that LLVM moves no shared access across them. */

static void asm_stmt(TkGpuBuilder *gb, const char *text)
{
    LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(gb->ctx), NULL, 0, 0);
    LLVMValueRef a = LLVMGetInlineAsm(ft, text, strlen(text), "~{memory}", 9, 1, 0, LLVMInlineAsmDialectATT, 0);
    LLVMBuildCall2(gb->b, ft, a, NULL, 0, "");
}

static void nv_wgmma_begin(TkGpuBuilder *gb)
{
    asm_stmt(gb, "fence.proxy.async.shared::cta;\n\twgmma.fence.sync.aligned;");
}

static void nv_wgmma_end(TkGpuBuilder *gb)
{
    asm_stmt(gb, "wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;");
}

static void nv_proxy_fence(TkGpuBuilder *gb)
{
    asm_stmt(gb, "fence.proxy.async.shared::cta;");
}

static bool nv_wgmma_ok(const char *proc) { return proc && strcmp(proc, "sm_90a") == 0; }

/* the shared window's address of p (addrspace(3)): what a descriptor holds */
static LLVMValueRef nv_shared_address(TkGpuBuilder *gb, LLVMValueRef p)
{
    return LLVMBuildPtrToInt(gb->b, p, LLVMInt64TypeInContext(gb->ctx), "saddr");
}

/* { .reg .pred p; setp.ne.b32 p, $scale, 0;
 *   wgmma.mma_async.sync.aligned.m64nNk16.f32.T.T {d..}, {a0..a3}, desc, p, 1, 1, trans_b; } */
static void nv_wgmma(TkGpuBuilder *gb, int n, bool f16, bool trans_b, LLVMValueRef a, LLVMValueRef desc, LLVMValueRef *d)
{
    LLVMTypeRef f32 = LLVMFloatTypeInContext(gb->ctx), i32 = LLVMInt32TypeInContext(gb->ctx), i64 = LLVMInt64TypeInContext(gb->ctx);
    int nd = n / 2;
    char text[4096], cons[2048];
    size_t t = 0, c = 0;
    t += (size_t)snprintf(text + t, sizeof text - t,
                          "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $%d, 0;\n\twgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {", nd + 5,
                          n, f16 ? "f16" : "bf16", f16 ? "f16" : "bf16");
    for (int i = 0; i < nd; i++) {
        t += (size_t)snprintf(text + t, sizeof text - t, "%s$%d", i ? ", " : "", i);
        c += (size_t)snprintf(cons + c, sizeof cons - c, "%s=f", i ? "," : "");
    }
    t += (size_t)snprintf(text + t, sizeof text - t, "}, {$%d, $%d, $%d, $%d}, $%d, p, 1, 1, %d;\n\t}", nd, nd + 1, nd + 2, nd + 3,
                          nd + 4, trans_b ? 1 : 0);
    c += (size_t)snprintf(cons + c, sizeof cons - c, ",r,r,r,r,l,r");
    for (int i = 0; i < nd; i++) c += (size_t)snprintf(cons + c, sizeof cons - c, ",%d", i);
    LLVMTypeRef outs[128], ins[6 + 128];
    LLVMValueRef args[6 + 128];
    for (int i = 0; i < nd; i++) outs[i] = f32;
    LLVMTypeRef rt = LLVMStructTypeInContext(gb->ctx, outs, (unsigned)nd, 0);
    unsigned k = 0;
    for (int q = 0; q < 4; q++) {
        ins[k] = i32;
        args[k++] = LLVMBuildExtractElement(gb->b, a, LLVMConstInt(i32, (unsigned)q, 0), "");
    }
    ins[k] = i64;
    args[k++] = desc;
    ins[k] = i32;
    args[k++] = LLVMConstInt(i32, 1, 0);   /* scale-d: D = A·B + D */
    for (int i = 0; i < nd; i++) {
        ins[k] = f32;
        args[k++] = d[i];
    }
    LLVMTypeRef ft = LLVMFunctionType(rt, ins, k, 0);
    LLVMValueRef fn = LLVMGetInlineAsm(ft, text, t, cons, c, 1, 0, LLVMInlineAsmDialectATT, 0);
    LLVMValueRef r = LLVMBuildCall2(gb->b, ft, fn, args, k, "wgmma");
    for (int i = 0; i < nd; i++) d[i] = LLVMBuildExtractValue(gb->b, r, (unsigned)i, "");
}

/* ---------------------------------------------------------------- TMA (sm_90)
 * Inline PTX as well: LLVM 22's cp.async.bulk.tensor intrinsics want the
 * map as a pointer it can see is a grid_constant parameter, and the
 * mbarrier waits are a loop. A map is a 128-byte CUtensorMap passed by
 * value and declared grid_constant, so the kernel may take its address
 * (LLVM turns that into cvta.param) instead of copying it to local memory.
 * Shared addresses are the 32-bit shared window's. */

static bool nv_tma_ok(const char *proc) { return proc && strncmp(proc, "sm_90", 5) == 0; }

static LLVMValueRef shared32(TkGpuBuilder *gb, LLVMValueRef p)
{
    return LLVMBuildPtrToInt(gb->b, p, LLVMInt32TypeInContext(gb->ctx), "");
}

static void asm_call(TkGpuBuilder *gb, const char *text, const char *cons, LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef ts[16];
    for (unsigned k = 0; k < n; k++) ts[k] = LLVMTypeOf(args[k]);
    LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(gb->ctx), ts, n, 0);
    LLVMValueRef a = LLVMGetInlineAsm(ft, text, strlen(text), cons, strlen(cons), 1, 0, LLVMInlineAsmDialectATT, 0);
    LLVMBuildCall2(gb->b, ft, a, args, n, "");
}

static void nv_mbar_init(TkGpuBuilder *gb, LLVMValueRef bar, int count)
{
    LLVMValueRef a[2] = { shared32(gb, bar), LLVMConstInt(LLVMInt32TypeInContext(gb->ctx), (unsigned)count, 0) };
    asm_call(gb, "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r,~{memory}", a, 2);
}

static void nv_mbar_init_fence(TkGpuBuilder *gb)
{
    asm_stmt(gb, "fence.mbarrier_init.release.cluster;");
}

static void nv_mbar_expect(TkGpuBuilder *gb, LLVMValueRef bar, int32_t bytes)
{
    LLVMValueRef a[2] = { shared32(gb, bar), LLVMConstInt(LLVMInt32TypeInContext(gb->ctx), (unsigned)bytes, 0) };
    asm_call(gb, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r,~{memory}", a, 2);
}

static void nv_tma_load(TkGpuBuilder *gb, LLVMValueRef dst, LLVMValueRef map, LLVMValueRef const *c, unsigned rank, LLVMValueRef bar)
{
    char text[256], cons[64];
    LLVMValueRef a[3 + TK_TMA_MAX_RANK];
    unsigned n = 0;
    a[n++] = shared32(gb, dst);
    a[n++] = LLVMBuildPtrToInt(gb->b, map, LLVMInt64TypeInContext(gb->ctx), "");
    int t = snprintf(text, sizeof text, "cp.async.bulk.tensor.%ud.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {",
                     rank);
    int k = snprintf(cons, sizeof cons, "r,l");
    for (unsigned d = 0; d < rank; d++) {
        a[n++] = c[d];
        t += snprintf(text + t, sizeof text - (size_t)t, "%s$%u", d ? ", " : "", 2 + d);
        k += snprintf(cons + k, sizeof cons - (size_t)k, ",r");
    }
    a[n++] = shared32(gb, bar);
    snprintf(text + t, sizeof text - (size_t)t, "}], [$%u];", 2 + rank);
    snprintf(cons + k, sizeof cons - (size_t)k, ",r,~{memory}");
    asm_call(gb, text, cons, a, n);
}

static void nv_mbar_wait(TkGpuBuilder *gb, LLVMValueRef bar, LLVMValueRef parity)
{
    LLVMValueRef a[2] = { shared32(gb, bar), parity };
    asm_call(gb,
             "{\n\t.reg .pred done;\n\tTK_MBAR_WAIT_${:uid}:\n\t"
             "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n\t@!done bra TK_MBAR_WAIT_${:uid};\n\t}",
             "r,r,~{memory}", a, 2);
}

static void nv_tma_map_param(LLVMContextRef ctx, LLVMValueRef fn, unsigned index)
{
    LLVMTypeRef map = LLVMArrayType2(LLVMInt8TypeInContext(ctx), 128);
    LLVMAddAttributeAtIndex(fn, index + 1, LLVMCreateTypeAttribute(ctx, LLVMGetEnumAttributeKindForName("byval", 5), map));
    LLVMAddAttributeAtIndex(fn, index + 1, LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName("align", 5), 64));
    LLVMAddAttributeAtIndex(fn, index + 1, LLVMCreateStringAttribute(ctx, "nvvm.grid_constant", 18, "", 0));
}

const TkGpuVendor tk_gpu_nvptx = {
    .name = "NVPTX",
    .mma_table = "intrinsics/nvptx_mma.c",
    .shared_name = "shared memory",
    .kernel_cc = LLVMPTXKernelCallConv,
    .global_as = 1,
    .shared_limit = 49152,   /* static shared memory of one block */
    .special = nv_special,
    .shared_at = tk_gpu_shared_array,
    .barrier = nv_barrier,
    .shuffle = nv_shuffle,
    .warp_sync = nv_warp_sync,
    .ldmatrix = nv_ldmatrix,
    .cp_async = nv_cp_async,
    .cp_async_wait = nv_cp_async_wait,
    .wgmma = nv_wgmma,
    .wgmma_begin = nv_wgmma_begin,
    .wgmma_end = nv_wgmma_end,
    .wgmma_ok = nv_wgmma_ok,
    .shared_address = nv_shared_address,
    .proxy_fence = nv_proxy_fence,
    .tma_ok = nv_tma_ok,
    .mbar_init = nv_mbar_init,
    .mbar_init_fence = nv_mbar_init_fence,
    .mbar_expect = nv_mbar_expect,
    .tma_load = nv_tma_load,
    .mbar_wait = nv_mbar_wait,
    .tma_map_param = nv_tma_map_param,
    .mma_rows = nv_rows,
    .mma_check = nv_check,
    .kernel_attrs = nv_kernel_attrs,
};
