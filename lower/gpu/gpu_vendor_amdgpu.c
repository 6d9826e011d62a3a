/* gpu_vendor_amdgpu.c — the AMD hooks of the shared GPU lowering
 * (gpu_lower.h): amdgcn intrinsics, amdgpu_kernel functions, and the MFMA/WMMA
 * rows of intrinsics/amdgpu_mma.c that a processor has. */
#include <stdio.h>
#include <string.h>

#include "amdgpu_mma.h"
#include "gpu_lower.h"

static unsigned amd_rows(const char *proc, int warp, TkGpuMma *rows, unsigned max)
{
    unsigned n, k = 0;
    const TkAmdgpuMma *t = tk_amdgpu_mma_table(&n);
    for (unsigned i = 0; i < n && k < max; i++)
        if (t[i].wave == warp && tk_amdgpu_mma_supports(&t[i], proc)) tk_amdgpu_mma_generic(&t[i], &rows[k++]);
    return k;
}

static int amd_check(const TkGpuMma *r, const char *proc, int warp, char *err, size_t errlen)
{
    return tk_amdgpu_mma_check(r->vendor_row, proc, warp, err, errlen);
}

static void fn_attr(LLVMContextRef ctx, LLVMValueRef fn, const char *key, const char *value)
{
    LLVMAttributeRef a = LLVMCreateStringAttribute(ctx, key, (unsigned)strlen(key), value, (unsigned)strlen(value));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
}

static void amd_kernel_attrs(LLVMContextRef ctx, LLVMValueRef fn, int threads)
{
    char wg[64];
    snprintf(wg, sizeof wg, "%d,%d", threads, threads);
    fn_attr(ctx, fn, "amdgpu-flat-work-group-size", wg);
    fn_attr(ctx, fn, "uniform-work-group-size", "true");
}

static LLVMValueRef amd_special(TkGpuBuilder *gb, TkGpuSpecial which)
{
    static const char *const names[] = { "llvm.amdgcn.workitem.id.x", "llvm.amdgcn.workgroup.id.x", "llvm.amdgcn.workgroup.id.y",
                                         "llvm.amdgcn.workgroup.id.z" };
    return tk_gpu_intrinsic(gb, names[which], NULL, 0);
}

/* s_barrier between workgroup-scope release and acquire fences, so that LDS
 * writes before it are seen after it */
static void amd_barrier(TkGpuBuilder *gb)
{
    unsigned wg = LLVMGetSyncScopeID(gb->ctx, "workgroup", 9);
    LLVMBuildFenceSyncScope(gb->b, LLVMAtomicOrderingRelease, wg, "");
    tk_gpu_intrinsic(gb, "llvm.amdgcn.s.barrier", NULL, 0);
    LLVMBuildFenceSyncScope(gb->b, LLVMAtomicOrderingAcquire, wg, "");
}

/* A wave runs in lockstep; the wavefront-scope fences make LDS writes
 * complete (s_waitcnt) before the reads after them */
static void amd_warp_sync(TkGpuBuilder *gb)
{
    unsigned wave = LLVMGetSyncScopeID(gb->ctx, "wavefront", 9);
    LLVMBuildFenceSyncScope(gb->b, LLVMAtomicOrderingRelease, wave, "");
    tk_gpu_intrinsic(gb, "llvm.amdgcn.wave.barrier", NULL, 0);
    LLVMBuildFenceSyncScope(gb->b, LLVMAtomicOrderingAcquire, wave, "");
}

/* ds_bpermute_b32: a read of lane src's x, addressed in bytes (src · 4);
 * it spans the whole wave, wave64 included */
static LLVMValueRef amd_shuffle(TkGpuBuilder *gb, LLVMValueRef x, LLVMValueRef src)
{
    LLVMValueRef addr = LLVMBuildShl(gb->b, src, LLVMConstInt(LLVMInt32TypeInContext(gb->ctx), 2, 0), "");
    LLVMValueRef args[2] = { addr, x };
    return tk_gpu_intrinsic(gb, "llvm.amdgcn.ds.bpermute", args, 2);
}

const TkGpuVendor tk_gpu_amdgpu = {
    .name = "AMDGPU",
    .mma_table = "intrinsics/amdgpu_mma.c",
    .shared_name = "LDS",
    .kernel_cc = LLVMAMDGPUKERNELCallConv,
    .global_as = 1,
    .shared_limit = 65536,   /* LDS of one workgroup */
    .special = amd_special,
    .shared_at = tk_gpu_shared_array,
    .barrier = amd_barrier,
    .shuffle = amd_shuffle,
    .warp_sync = amd_warp_sync,
    .mma_rows = amd_rows,
    .mma_check = amd_check,
    .kernel_attrs = amd_kernel_attrs,
};
