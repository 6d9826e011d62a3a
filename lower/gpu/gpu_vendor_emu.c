/* gpu_vendor_emu.c — the emulation target's hooks of the shared GPU
 * lowering: NVIDIA's lowering (its tensor-core rows and lane maps, 32-lane
 * warps), compiled for the CPU, with special registers read from and matrix
 * instructions handed to the per-thread environment of gpu_emu_abi.h, and
 * the host entry points of tk/rt.h around each kernel. */
#include <stdio.h>
#include <string.h>

#include "gpu_emu_abi.h"
#include "gpu_lower.h"
#include "nvptx_mma.h"

/* { ptr mma, i32 tid, [3 x i32] ctaid, ptr fiber, ptr barrier, ptr shared, ptr shuffle, ptr ldmatrix,
 *   ptr cp_async, ptr cp_async_wait, ptr wgmma, ptr tma_load, ptr mbar_init, ptr mbar_expect, ptr mbar_wait } */
static LLVMTypeRef env_type(LLVMContextRef ctx)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), ptr = LLVMPointerTypeInContext(ctx, 0);
    LLVMTypeRef f[15] = { ptr, i32, LLVMArrayType2(i32, 3), ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr };
    return LLVMStructTypeInContext(ctx, f, 15, 0);
}

/* env->FIELD(env, args...) for a void function of the environment */
static void env_call(TkGpuBuilder *gb, unsigned field, LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef ptr = LLVMPointerTypeInContext(gb->ctx, 0), ts[8] = { ptr };
    LLVMValueRef all[8] = { gb->env };
    for (unsigned k = 0; k < n; k++) {
        ts[k + 1] = LLVMTypeOf(args[k]);
        all[k + 1] = args[k];
    }
    LLVMValueRef fn = LLVMBuildLoad2(gb->b, ptr, LLVMBuildStructGEP2(gb->b, env_type(gb->ctx), gb->env, field, ""), "");
    LLVMBuildCall2(gb->b, LLVMFunctionType(LLVMVoidTypeInContext(gb->ctx), ts, n + 1, 0), fn, all, n + 1, "");
}

/* the block's buffer, at the tile's offset */
static LLVMValueRef emu_shared_at(TkGpuBuilder *gb, const char *name, int64_t bytes, int64_t offset)
{
    (void)bytes;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(gb->ctx), ptr = LLVMPointerTypeInContext(gb->ctx, 0);
    LLVMValueRef base = LLVMBuildLoad2(gb->b, ptr, LLVMBuildStructGEP2(gb->b, env_type(gb->ctx), gb->env, 5, ""), "shared");
    LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(gb->ctx), (unsigned long long)offset, 0);
    return LLVMBuildGEP2(gb->b, i8, base, &off, 1, name);
}

static void emu_barrier(TkGpuBuilder *gb)
{
    LLVMTypeRef ptr = LLVMPointerTypeInContext(gb->ctx, 0), vd = LLVMVoidTypeInContext(gb->ctx);
    LLVMValueRef fn = LLVMBuildLoad2(gb->b, ptr, LLVMBuildStructGEP2(gb->b, env_type(gb->ctx), gb->env, 4, ""), "barrier");
    LLVMBuildCall2(gb->b, LLVMFunctionType(vd, &ptr, 1, 0), fn, &gb->env, 1, "");
}

/* env->shuffle(env, x, src) */
static LLVMValueRef emu_shuffle(TkGpuBuilder *gb, LLVMValueRef x, LLVMValueRef src)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx), ptr = LLVMPointerTypeInContext(gb->ctx, 0);
    LLVMValueRef fn = LLVMBuildLoad2(gb->b, ptr, LLVMBuildStructGEP2(gb->b, env_type(gb->ctx), gb->env, 6, ""), "shuffle");
    LLVMTypeRef at[3] = { ptr, i32, i32 };
    LLVMValueRef args[3] = { gb->env, x, src };
    return LLVMBuildCall2(gb->b, LLVMFunctionType(i32, at, 3, 0), fn, args, 3, "");
}

/* A shuffle is a meeting of the warp's 32 lanes (emu_block.c): one whose
 * value is not used is the warp barrier. The emulator's memory is the host's,
 * so what a lane wrote before it every lane sees after it. */
static void emu_warp_sync(TkGpuBuilder *gb)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx);
    (void)emu_shuffle(gb, LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, 0, 0));
}

static LLVMValueRef emu_special(TkGpuBuilder *gb, TkGpuSpecial which)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx), et = env_type(gb->ctx);
    LLVMValueRef at;
    if (which == TK_GPU_THREAD_X) {
        at = LLVMBuildStructGEP2(gb->b, et, gb->env, 1, "");
    } else {
        LLVMValueRef ix[3] = { LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, 2, 0), LLVMConstInt(i32, (unsigned)(which - TK_GPU_BLOCK_X), 0) };
        at = LLVMBuildGEP2(gb->b, et, gb->env, ix, 3, "");
    }
    return LLVMBuildLoad2(gb->b, i32, at, which == TK_GPU_THREAD_X ? "tid" : "ctaid");
}

/* An alloca in the function's entry block holding n elements of t. */
static LLVMValueRef entry_array(TkGpuBuilder *gb, LLVMTypeRef t, unsigned n)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInsertBlock(gb->b)));
    LLVMBuilderRef ab = LLVMCreateBuilderInContext(gb->ctx);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first) LLVMPositionBuilderBefore(ab, first);
    else LLVMPositionBuilderAtEnd(ab, entry);
    LLVMValueRef a = LLVMBuildAlloca(ab, LLVMArrayType2(t, n), "");
    /* the registers are stored and loaded as whole vectors, whose accesses
     * assume the vector's alignment: an array of 4-byte elements aligned to
     * 4 crashed in vmovdqa (found by tests/emu/gpu_rpg.py) */
    LLVMSetAlignment(a, 16);
    LLVMDisposeBuilder(ab);
    return a;
}

/* env->mma(env, op, &a, &b, &c, &d): a, b, c stored as the lane's registers */
static LLVMValueRef emu_mma(const TkGpuMma *r, TkGpuBuilder *gb, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx), f32 = LLVMFloatTypeInContext(gb->ctx);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(gb->ctx, 0), vd = LLVMVoidTypeInContext(gb->ctx);
    bool tf32 = r->operand == TK_TY_F32;
    unsigned na = (unsigned)r->a.elems / (tf32 ? 1 : 2), nb = (unsigned)r->b.elems / (tf32 ? 1 : 2);   /* 32-bit registers */
    LLVMValueRef pa = entry_array(gb, i32, na), pb = entry_array(gb, i32, nb);
    LLVMValueRef pc = entry_array(gb, f32, (unsigned)r->c.elems), pd = entry_array(gb, f32, (unsigned)r->c.elems);
    LLVMBuildStore(gb->b, LLVMBuildBitCast(gb->b, a, LLVMVectorType(i32, na), ""), pa);
    LLVMBuildStore(gb->b, LLVMBuildBitCast(gb->b, b, LLVMVectorType(i32, nb), ""), pb);
    LLVMBuildStore(gb->b, c, pc);
    LLVMValueRef fn = LLVMBuildLoad2(gb->b, ptr, LLVMBuildStructGEP2(gb->b, env_type(gb->ctx), gb->env, 0, ""), "mma");
    LLVMTypeRef at[6] = { ptr, i32, ptr, ptr, ptr, ptr };
    int op = tf32 ? TK_EMU_MMA_M16N8K8_TF32 : r->operand == TK_TY_F16 ? TK_EMU_MMA_M16N8K16_F16 : TK_EMU_MMA_M16N8K16_BF16;
    LLVMValueRef args[6] = { gb->env, LLVMConstInt(i32, (unsigned long long)op, 0), pa, pb, pc, pd };
    LLVMBuildCall2(gb->b, LLVMFunctionType(vd, at, 6, 0), fn, args, 6, "");
    return LLVMBuildLoad2(gb->b, LLVMTypeOf(c), pd, "d");
}

/* env->ldmatrix(env, num, trans, row, out): the emulator's own ldmatrix
 * (targets/emu/emu_ldmatrix.c) */
static LLVMValueRef emu_ldmatrix(TkGpuBuilder *gb, LLVMValueRef row, int num, bool trans)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx), ptr = LLVMPointerTypeInContext(gb->ctx, 0), vd = LLVMVoidTypeInContext(gb->ctx);
    LLVMValueRef out = entry_array(gb, i32, 4);
    LLVMValueRef fn = LLVMBuildLoad2(gb->b, ptr, LLVMBuildStructGEP2(gb->b, env_type(gb->ctx), gb->env, 7, ""), "ldmatrix");
    LLVMTypeRef at[5] = { ptr, i32, i32, ptr, ptr };
    LLVMValueRef args[5] = { gb->env, LLVMConstInt(i32, (unsigned)num, 0), LLVMConstInt(i32, trans, 0), row, out };
    LLVMBuildCall2(gb->b, LLVMFunctionType(vd, at, 5, 0), fn, args, 5, "");
    return LLVMBuildLoad2(gb->b, LLVMVectorType(i32, (unsigned)num), out, "ldm");
}

/* env->cp_async(env, dst, src, bytes): recorded, landing at the thread's next wait (targets/emu/emu_block.c) */
static void emu_cp_async(TkGpuBuilder *gb, LLVMValueRef dst, LLVMValueRef src, LLVMValueRef bytes)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx), ptr = LLVMPointerTypeInContext(gb->ctx, 0), vd = LLVMVoidTypeInContext(gb->ctx);
    LLVMValueRef fn = LLVMBuildLoad2(gb->b, ptr, LLVMBuildStructGEP2(gb->b, env_type(gb->ctx), gb->env, 8, ""), "cp_async");
    LLVMTypeRef at[4] = { ptr, ptr, ptr, i32 };
    LLVMValueRef args[4] = { gb->env, dst, src, bytes };
    LLVMBuildCall2(gb->b, LLVMFunctionType(vd, at, 4, 0), fn, args, 4, "");
}

static void emu_cp_async_wait(TkGpuBuilder *gb)
{
    LLVMTypeRef ptr = LLVMPointerTypeInContext(gb->ctx, 0), vd = LLVMVoidTypeInContext(gb->ctx);
    LLVMValueRef fn = LLVMBuildLoad2(gb->b, ptr, LLVMBuildStructGEP2(gb->b, env_type(gb->ctx), gb->env, 9, ""), "cp_async_wait");
    LLVMBuildCall2(gb->b, LLVMFunctionType(vd, &ptr, 1, 0), fn, &gb->env, 1, "");
}

/* env->wgmma(env, n, f16, trans_b, &a, desc, &d): the emulator's own
 * wgmma (targets/emu/emu_wgmma.c) for the warpgroup */
static void emu_wgmma(TkGpuBuilder *gb, int n, bool f16, bool trans_b, LLVMValueRef a, LLVMValueRef desc, LLVMValueRef *d)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx), f32 = LLVMFloatTypeInContext(gb->ctx);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(gb->ctx, 0), vd = LLVMVoidTypeInContext(gb->ctx), i64 = LLVMInt64TypeInContext(gb->ctx);
    LLVMValueRef pa = entry_array(gb, i32, 4), pd = entry_array(gb, f32, (unsigned)(n / 2));
    LLVMBuildStore(gb->b, a, pa);
    for (int i = 0; i < n / 2; i++) {
        LLVMValueRef ix[2] = { LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, (unsigned)i, 0) };
        LLVMBuildStore(gb->b, d[i], LLVMBuildGEP2(gb->b, LLVMArrayType2(f32, (unsigned)(n / 2)), pd, ix, 2, ""));
    }
    LLVMValueRef fn = LLVMBuildLoad2(gb->b, ptr, LLVMBuildStructGEP2(gb->b, env_type(gb->ctx), gb->env, 10, ""), "wgmma");
    LLVMTypeRef at[7] = { ptr, i32, i32, i32, ptr, i64, ptr };
    LLVMValueRef args[7] = { gb->env, LLVMConstInt(i32, (unsigned)n, 0), LLVMConstInt(i32, f16, 0), LLVMConstInt(i32, trans_b, 0), pa, desc, pd };
    LLVMBuildCall2(gb->b, LLVMFunctionType(vd, at, 7, 0), fn, args, 7, "");
    for (int i = 0; i < n / 2; i++) {
        LLVMValueRef ix[2] = { LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, (unsigned)i, 0) };
        d[i] = LLVMBuildLoad2(gb->b, f32, LLVMBuildGEP2(gb->b, LLVMArrayType2(f32, (unsigned)(n / 2)), pd, ix, 2, ""), "");
    }
}

/* the emulator runs each wgmma to completion where the warpgroup meets, and
 * shared memory is the host's: nothing to fence or wait for */
static void emu_nothing(TkGpuBuilder *gb) { (void)gb; }

/* the processors are NVIDIA's: what they have, NVIDIA's hooks say */
static bool emu_wgmma_ok(const char *proc) { return tk_gpu_nvptx.wgmma_ok(proc); }

/* ---------------------------------------------------------------- TMA
 * The map is the TkTmaDesc itself; the emulator keeps each mbarrier's state
 * by its address and lands a copy only when a thread waits on its barrier
 * (targets/emu/emu_block.c), so a read the lowering did not wait for sees
 * the tile's old contents. */

static bool emu_tma_ok(const char *proc) { return tk_gpu_nvptx.tma_ok(proc); }

static void emu_mbar_init(TkGpuBuilder *gb, LLVMValueRef bar, int count)
{
    LLVMValueRef a[2] = { bar, LLVMConstInt(LLVMInt32TypeInContext(gb->ctx), (unsigned)count, 0) };
    env_call(gb, 12, a, 2);
}

static void emu_mbar_expect(TkGpuBuilder *gb, LLVMValueRef bar, int32_t bytes)
{
    LLVMValueRef a[2] = { bar, LLVMConstInt(LLVMInt32TypeInContext(gb->ctx), (unsigned)bytes, 0) };
    env_call(gb, 13, a, 2);
}

/* env->tma_load(env, map, dst, coords, rank, bar), the coordinates in an array */
static void emu_tma_load(TkGpuBuilder *gb, LLVMValueRef dst, LLVMValueRef map, LLVMValueRef const *c, unsigned rank, LLVMValueRef bar)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx);
    LLVMValueRef coords = entry_array(gb, i32, TK_TMA_MAX_RANK);
    for (unsigned d = 0; d < rank; d++) {
        LLVMValueRef ix[2] = { LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, d, 0) };
        LLVMBuildStore(gb->b, c[d], LLVMBuildGEP2(gb->b, LLVMArrayType2(i32, TK_TMA_MAX_RANK), coords, ix, 2, ""));
    }
    LLVMValueRef a[5] = { map, dst, coords, LLVMConstInt(i32, rank, 0), bar };
    env_call(gb, 11, a, 5);
}

static void emu_mbar_wait(TkGpuBuilder *gb, LLVMValueRef bar, LLVMValueRef parity)
{
    LLVMValueRef a[2] = { bar, parity };
    env_call(gb, 14, a, 2);
}

static void emu_tma_map_param(LLVMContextRef ctx, LLVMValueRef fn, unsigned index)
{
    (void)ctx, (void)fn, (void)index;   /* a plain pointer to the description */
}

/* a descriptor's address: the offset in the block's shared buffer */
static LLVMValueRef emu_shared_address(TkGpuBuilder *gb, LLVMValueRef p)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(gb->ctx), ptr = LLVMPointerTypeInContext(gb->ctx, 0);
    LLVMValueRef base = LLVMBuildLoad2(gb->b, ptr, LLVMBuildStructGEP2(gb->b, env_type(gb->ctx), gb->env, 5, ""), "shared");
    return LLVMBuildSub(gb->b, LLVMBuildPtrToInt(gb->b, p, i64, ""), LLVMBuildPtrToInt(gb->b, base, i64, ""), "saddr");
}

/* NVIDIA's rows, their lane maps untouched (they are what is under test),
 * executed by the emulator */
static unsigned emu_rows(const char *proc, int warp, TkGpuMma *rows, unsigned max)
{
    unsigned n = warp == 32 ? tk_nvptx_mma_rows(proc, rows, max) : 0, k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (strcmp(rows[i].name, "sm80.mma.m16n8k16.bf16") != 0 && strcmp(rows[i].name, "sm80.mma.m16n8k16.f16") != 0 &&
            strcmp(rows[i].name, "sm80.mma.m16n8k8.tf32") != 0)
            continue;   /* the ones the emulator implements (targets/emu/emu_mma.c) */
        rows[k] = rows[i];
        rows[k++].emit = emu_mma;
    }
    return k;
}

static int emu_check(const TkGpuMma *r, const char *proc, int warp, char *err, size_t errlen)
{
    return tk_gpu_nvptx.mma_check(r, proc, warp, err, errlen);
}

/* The values of f's parameters from tk/rt.h's args (a tensor's data
 * pointer, or a pointer to a scalar's value) and sizes, into out. */
static unsigned unpack(TkGpuBuilder *gb, const TirFunc *f, LLVMValueRef callee, LLVMValueRef args, LLVMValueRef sizes,
                       LLVMValueRef *out)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(gb->ctx), ptr = LLVMPointerTypeInContext(gb->ctx, 0);
    LLVMTypeRef ft = LLVMGlobalGetValueType(callee);
    unsigned n = LLVMCountParamTypes(ft), nsizes = f->sizes ? f->sizes->count : 0;
    LLVMTypeRef pt[n ? n : 1];
    LLVMGetParamTypes(ft, pt);
    for (unsigned p = 0; p < f->nparams; p++) {
        LLVMValueRef ix = LLVMConstInt(i64, p, 0);
        LLVMValueRef slot = LLVMBuildLoad2(gb->b, ptr, LLVMBuildGEP2(gb->b, ptr, args, &ix, 1, ""), "");
        out[p] = f->params[p].type->kind == TK_TY_GL ? slot : LLVMBuildLoad2(gb->b, pt[p], slot, f->params[p].name);
    }
    for (unsigned s = 0; s < nsizes; s++) {
        LLVMValueRef ix = LLVMConstInt(i64, s, 0);
        out[f->nparams + s] = LLVMBuildLoad2(gb->b, i64, LLVMBuildGEP2(gb->b, i64, sizes, &ix, 1, ""), f->sizes->names[s]);
    }
    return f->nparams + nsizes;
}

static LLVMValueRef add_entry(TkGpuBuilder *gb, const TirFunc *f, const char *suffix, LLVMTypeRef *pt, unsigned n)
{
    char name[512];
    snprintf(name, sizeof name, "%s__%s", f->name, suffix);
    LLVMValueRef fn = LLVMAddFunction(gb->mod, name, LLVMFunctionType(LLVMVoidTypeInContext(gb->ctx), pt, n, 0));
    LLVMPositionBuilderAtEnd(gb->b, LLVMAppendBasicBlockInContext(gb->ctx, fn, "entry"));
    return fn;
}

static void emu_host_entry(TkGpuBuilder *gb, const TirFunc *f, LLVMValueRef kernel, LLVMValueRef grid, int64_t shared_bytes,
                           const TkTmaPlan *maps, int nmaps)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx), i64 = LLVMInt64TypeInContext(gb->ctx);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(gb->ctx, 0), vd = LLVMVoidTypeInContext(gb->ctx);
    unsigned nk = LLVMCountParams(kernel);
    LLVMValueRef call[nk + 1];
    /* NAME__thread(args, sizes, env): one GPU thread */
    LLVMTypeRef tp[3] = { ptr, ptr, ptr };
    LLVMValueRef thread = add_entry(gb, f, "thread", tp, 3);
    LLVMSetLinkage(thread, LLVMInternalLinkage);
    unsigned n = unpack(gb, f, kernel, LLVMGetParam(thread, 0), LLVMGetParam(thread, 1), call);
    /* the maps: each thread describes the tensors itself (they are the same for every thread) */
    for (int k = 0; k < nmaps; k++) {
        LLVMValueRef d = entry_array(gb, tk_gpu_tma_desc_type(gb->ctx), 1);
        tk_gpu_tma_fill(gb, f, &maps[k], call[maps[k].param], call + f->nparams, d);
        call[n++] = d;
    }
    call[n++] = LLVMGetParam(thread, 2);
    LLVMBuildCall2(gb->b, LLVMGlobalGetValueType(kernel), kernel, call, n, "");
    LLVMBuildRetVoid(gb->b);
    /* NAME__grid(args, sizes, grid[4]): grid[3] left alone (blocks run on their own fiber stacks) */
    LLVMValueRef gridfn = add_entry(gb, f, "grid", tp, 3);
    n = unpack(gb, f, kernel, LLVMGetParam(gridfn, 0), LLVMGetParam(gridfn, 1), call);
    call[n++] = LLVMGetParam(gridfn, 2);
    LLVMBuildCall2(gb->b, LLVMGlobalGetValueType(grid), grid, call, n, "");
    LLVMBuildRetVoid(gb->b);
    /* NAME__block(args, sizes, bx, by, bz): tk_emu_run_block(NAME__thread, ..., threads, shared_bytes) */
    LLVMTypeRef bp[5] = { ptr, ptr, i32, i32, i32 };
    LLVMValueRef block = add_entry(gb, f, "block", bp, 5);
    LLVMTypeRef rp[8] = { ptr, ptr, ptr, i32, i32, i32, i32, i64 };
    LLVMTypeRef rt = LLVMFunctionType(vd, rp, 8, 0);
    LLVMValueRef run = LLVMGetNamedFunction(gb->mod, "tk_emu_run_block");
    if (!run) run = LLVMAddFunction(gb->mod, "tk_emu_run_block", rt);
    int threads = (f->warps > 0 ? f->warps : 1) * 32;
    LLVMValueRef ra[8] = { thread, LLVMGetParam(block, 0), LLVMGetParam(block, 1), LLVMGetParam(block, 2),
                           LLVMGetParam(block, 3), LLVMGetParam(block, 4), LLVMConstInt(i32, (unsigned)threads, 0),
                           LLVMConstInt(i64, (unsigned long long)shared_bytes, 0) };
    LLVMBuildCall2(gb->b, rt, run, ra, 8, "");
    LLVMBuildRetVoid(gb->b);
}

const TkGpuVendor tk_gpu_emu = {
    .name = "NVPTX emulation",
    .mma_table = "intrinsics/nvptx_mma.c",
    .shared_name = "shared memory",
    .kernel_cc = LLVMCCallConv,
    .global_as = 0,
    .shared_limit = 49152,   /* as on sm_80 (static shared memory) */
    .special = emu_special,
    .shared_at = emu_shared_at,
    .barrier = emu_barrier,
    .shuffle = emu_shuffle,
    .warp_sync = emu_warp_sync,
    .ldmatrix = emu_ldmatrix,
    .cp_async = emu_cp_async,
    .wgmma = emu_wgmma,
    .wgmma_begin = emu_nothing,
    .wgmma_end = emu_nothing,
    .wgmma_ok = emu_wgmma_ok,
    .shared_address = emu_shared_address,
    .proxy_fence = emu_nothing,
    .tma_ok = emu_tma_ok,
    .mbar_init = emu_mbar_init,
    .mbar_init_fence = emu_nothing,
    .mbar_expect = emu_mbar_expect,
    .tma_load = emu_tma_load,
    .mbar_wait = emu_mbar_wait,
    .tma_map_param = emu_tma_map_param,
    .cp_async_wait = emu_cp_async_wait,
    .mma_rows = emu_rows,
    .mma_check = emu_check,
    .kernel_attrs = NULL,
    .host_entry = emu_host_entry,
};
