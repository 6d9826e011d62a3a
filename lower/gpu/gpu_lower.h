/* gpu_lower.h — TIR → LLVM IR for GPUs: one lowering for AMD (amdgcn-amd-amdhsa)
 * and NVIDIA (nvptx64-nvidia-cuda), with the vendor differences in a struct of
 * hooks (TkGpuVendor: gpu_vendor_amdgpu.c, gpu_vendor_nvptx.c).
 *
 * The GPU execution model (../shared/DESIGN.md): a block is warps·warp-size
 * threads, a warp is a wavefront, and an rt tile lives in the registers of its
 * warp as the fragments the matrix instruction wants (intrinsics/gpu_mma.h).
 * Each kernel NAME becomes one kernel function
 *     void NAME(<params in declaration order>, i64 size_0, ..., i64 size_n-1)
 * where a gl tensor is a `ptr addrspace(1)` to its first element (row-major,
 * dense), a scalar parameter is passed by value (bool as i8), and the size
 * variables follow as i64 in the order the kernel's sizes are listed. The
 * grid is the launcher's business (it evaluates the kernel's grid
 * expressions on the host from the sizes); this function runs one block.
 *
 * Supported subset (the rest of the language comes next): PARAM, SIZE,
 * BLOCK_ID, WARP_ID (thread id / warp size), constants, scalar
 * BINARY/UNARY/CAST/CDIV and scalar MAP1/MAP2, VAR/GET/SET of scalars, rt
 * tiles and rv vectors, FILL, LOAD of an rt from a gl (masked) or from an
 * st, MAP1/2/3, CONVERT and TRANSPOSE of rt tiles (gpu_elementwise.c; a
 * layout that moves elements between lanes goes through shared memory,
 * gpu_exchange.c), MMA in every form (bf16 operands, or f32 ones as split
 * tf32 products; f32 accumulator), STORE of an rt to a gl (masked), ELEM and
 * SET_ELEM (gpu_element.c), rv LOAD/STORE/maps, REDUCE of f32 accumulators
 * and vectors, BROADCAST, MASK and TRI (gpu_vector.c), FOR and IF; shared
 * tiles (st, bf16 or f32) declared, zero-filled and loaded from a gl by the
 * whole block (gpu_shared.c), and SYNC. Every other op (sv, stores into
 * shared tiles, sub-tiles, rows, reductions of bf16 tiles, packed tensors) is refused with
 *     FILE:LINE:COL: PROC: TIR op X ... is not supported by the VENDOR backend yet
 * before any LLVM call, as is an mma whose (intrinsic, processor) pairing the
 * vendor's table does not list — LLVM would abort. */
#ifndef TK_LOWER_GPU_LOWER_H
#define TK_LOWER_GPU_LOWER_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>

#include "gpu_mma.h"
#include "gpu_tma_desc.h"
#include "tir.h"

/* The special registers a kernel reads. */
typedef enum { TK_GPU_THREAD_X, TK_GPU_BLOCK_X, TK_GPU_BLOCK_Y, TK_GPU_BLOCK_Z } TkGpuSpecial;

/* What one GPU vendor's code differs in. */
typedef struct TkGpuVendor TkGpuVendor;
struct TkGpuVendor {
    const char *name;          /* "AMDGPU", "NVPTX": messages say "not supported by the NAME backend" */
    const char *mma_table;     /* where its matrix instructions are listed, for messages */
    const char *shared_name;   /* what block-shared memory is called: "LDS", "shared memory" */
    unsigned kernel_cc;        /* LLVM calling convention of a kernel */
    unsigned global_as;        /* address space of a gl tensor's pointer */
    int64_t shared_limit;      /* bytes of shared tiles one block may declare */
    /* An i32 special register (thread index in the block, block index in the grid). */
    LLVMValueRef (*special)(TkGpuBuilder *gb, TkGpuSpecial which);
    /* The matrix instructions `proc` has for warps of `warp` lanes, preferred
     * first, into rows[0 .. max); returns how many. */
    unsigned (*mma_rows)(const char *proc, int warp, TkGpuMma *rows, unsigned max);
    /* 0 if row r may be emitted for `proc`; else -1 and a one-line reason. */
    int (*mma_check)(const TkGpuMma *r, const char *proc, int warp, char *err, size_t errlen);
    /* A pointer to `bytes` of block-shared memory for shared tile `name`, at
     * `offset` of the kernel's shared tiles (16-byte aligned). */
    LLVMValueRef (*shared_at)(TkGpuBuilder *gb, const char *name, int64_t bytes, int64_t offset);
    /* Every thread of the block waits here; what any of them wrote to shared
     * memory before it, all of them see after it. */
    void (*barrier)(TkGpuBuilder *gb);
    /* A warp shuffle: every lane of the warp offers x (i32) and gets the x
     * of lane src (i32, 0 .. warp-1). Reached by all lanes together. */
    LLVMValueRef (*shuffle)(TkGpuBuilder *gb, LLVMValueRef x, LLVMValueRef src);
    /* Every lane of the warp waits here; what any of them wrote to shared
     * memory before it, all of them see after it. Reached by all lanes together. */
    void (*warp_sync)(TkGpuBuilder *gb);
    /* ldmatrix.sync.aligned.m8n8.x{num}{.trans}.b16 (num 1, 2 or 4): lane
     * 8i + r gives in `row` the address of row r of 8x8 matrix i (16 bytes,
     * 16-byte aligned, in shared memory); returns the lane's `num` registers
     * as <num x i32>, register i from matrix i: row lane/4, columns 2(lane%4)
     * and +1 (low half first), or with trans column lane/4, rows 2(lane%4)
     * and +1. Reached by all lanes together. NULL: the vendor has none, and
     * register tiles are read from shared memory element by element. */
    LLVMValueRef (*ldmatrix)(TkGpuBuilder *gb, LLVMValueRef row, int num, bool trans);
    /* cp.async of 16 bytes from global memory `src` to shared memory `dst`
     * (both 16-byte aligned): `bytes` (i32, 0..16) are read, the rest of the
     * 16 zero-filled. The copy lands some time before this thread's next
     * cp_async_wait returns. NULL: none (shared tiles are loaded element by
     * element, synchronously). */
    void (*cp_async)(TkGpuBuilder *gb, LLVMValueRef dst, LLVMValueRef src, LLVMValueRef bytes);
    /* cp.async.wait_all: every copy this thread issued has landed */
    void (*cp_async_wait)(TkGpuBuilder *gb);
    /* Hopper's warpgroup product (gpu_wgmma.c), NULL where there is none:
     * wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{bf16,f16} reached by the 4
     * warps of a warpgroup together. a: this warp's 16 rows of A as the
     * m16n8k16 A fragment (<4 x i32>); desc: B's matrix descriptor (i64), B
     * K-major, or N-major with trans_b; d[0 .. n/2): this warp's 16 rows of
     * the accumulator (the m16n8 C fragments of each 8 columns, f32), in and
     * out. Only between wgmma_begin and wgmma_end. */
    void (*wgmma)(TkGpuBuilder *gb, int n, bool f16, bool trans_b, LLVMValueRef a, LLVMValueRef desc, LLVMValueRef *d);
    /* before a group of wgmmas: what the threads wrote to registers and to
     * shared memory is ordered before them (wgmma.fence, fence.proxy.async) */
    void (*wgmma_begin)(TkGpuBuilder *gb);
    /* after the group: its results are in the registers (commit, wait 0) */
    void (*wgmma_end)(TkGpuBuilder *gb);
    /* the processors that have wgmma ("sm_90a") */
    bool (*wgmma_ok)(const char *proc);
    /* a pointer into the block's shared tiles as the byte address a matrix
     * descriptor holds (i64) */
    LLVMValueRef (*shared_address)(TkGpuBuilder *gb, LLVMValueRef p);
    /* shared-memory writes of this thread so far are seen by the async proxy
     * (wgmma's reads) of any thread that meets it at a later barrier */
    void (*proxy_fence)(TkGpuBuilder *gb);
    /* Hopper's tensor memory accelerator (gpu_tma.c), NULL where there is
     * none. tma_ok: the processors that have it. An mbarrier is 8 bytes of
     * shared memory (bar, 8-byte aligned). mbar_init: bar expects `count`
     * arrivals per phase; mbar_init_fence: the inits so far are seen by the
     * TMA unit (then a barrier, for the other threads). mbar_expect: this
     * thread arrives at bar and announces `bytes` more to come by copies.
     * tma_load: the box of `map` (the kernel's map parameter) at tensor
     * coordinates c[0 .. rank) (i32, innermost first) into shared memory at
     * dst (where its swizzle pattern starts), its bytes counted on bar.
     * mbar_wait: returns once the phase of bar with parity `parity` (i32,
     * 0/1) has completed. tma_map_param: marks parameter `index` of kernel fn
     * as a map (its type comes from tma_map_type). */
    bool (*tma_ok)(const char *proc);
    void (*mbar_init)(TkGpuBuilder *gb, LLVMValueRef bar, int count);
    void (*mbar_init_fence)(TkGpuBuilder *gb);
    void (*mbar_expect)(TkGpuBuilder *gb, LLVMValueRef bar, int32_t bytes);
    void (*tma_load)(TkGpuBuilder *gb, LLVMValueRef dst, LLVMValueRef map, LLVMValueRef const *c, unsigned rank, LLVMValueRef bar);
    void (*mbar_wait)(TkGpuBuilder *gb, LLVMValueRef bar, LLVMValueRef parity);
    void (*tma_map_param)(LLVMContextRef ctx, LLVMValueRef fn, unsigned index);
    /* Marks fn as running in blocks of exactly `threads` threads (NULL: nothing to mark). */
    void (*kernel_attrs)(LLVMContextRef ctx, LLVMValueRef fn, int threads);
    /* The emulation target (NULL on a GPU): the kernel function is internal
     * and takes a trailing `ptr env` (gb->env); `grid` is
     * void NAME__gridv(<the kernel's params and sizes>, ptr i64[3]), which
     * writes the block counts; this hook adds the host entry points that
     * call them (gpu_vendor_emu.c). shared_bytes: the block's shared tiles;
     * maps[0 .. nmaps): the kernel's TMA maps, its last parameters before env. */
    void (*host_entry)(TkGpuBuilder *gb, const TirFunc *f, LLVMValueRef kernel, LLVMValueRef grid, int64_t shared_bytes,
                       const TkTmaPlan *maps, int nmaps);
};

extern const TkGpuVendor tk_gpu_amdgpu;
extern const TkGpuVendor tk_gpu_nvptx;
extern const TkGpuVendor tk_gpu_emu;   /* NVIDIA's lowering, run on the CPU (gpu_emu_abi.h) */

/* A processor of a vendor. */
typedef struct {
    const TkGpuVendor *vendor;
    const char *proc;          /* "gfx942", "sm_90a" */
    int warp;                  /* 32, or 64 for a CDNA wavefront */
} TkGpuTarget;

/* Helpers for the vendors' hooks. */
/* A call of the LLVM intrinsic `name` (not overloaded). */
LLVMValueRef tk_gpu_intrinsic(TkGpuBuilder *gb, const char *name, LLVMValueRef *args, unsigned n);
/* A shared_at hook for GPUs: an internal, 16-byte aligned array of `bytes` in
 * address space 3 (shared memory / LDS) per shared tile (offset unused). */
LLVMValueRef tk_gpu_shared_array(TkGpuBuilder *gb, const char *name, int64_t bytes, int64_t offset);

/* The TMA maps kernel f takes on target t, after its sizes (gpu_tma.c): up
 * to max into out; returns how many there are. A launcher makes each from
 * its tensor (tk_tma_describe). */
int tk_gpu_tma_plan(const TirFunc *f, const TkGpuTarget *t, TkTmaPlan *out, int max);
/* The bytes of shared memory kernel f declares on t: its tiles as the
 * lowering places them (each where its swizzle pattern starts) and the
 * TMA's barriers. */
int64_t tk_gpu_shared_bytes(const TirFunc *f, const TkGpuTarget *t);
/* TkTmaDesc as an LLVM struct, and IR that fills *out for plan p from the
 * tensor's base pointer and the values of f's sizes (host code). */
LLVMTypeRef tk_gpu_tma_desc_type(LLVMContextRef ctx);
void tk_gpu_tma_fill(TkGpuBuilder *gb, const TirFunc *f, const TkTmaPlan *p, LLVMValueRef base, LLVMValueRef const *sizes,
                     LLVMValueRef out);

/* Checks m against the subset and picks each kernel's base tile, without
 * touching LLVM. 0 if every kernel can be emitted for t; 1 and
 * "FILE:LINE:COL: proc: reason" in err if not. */
int tk_gpu_check(const TirModule *m, const TkGpuTarget *t, char *err, size_t errlen);

/* Emits every kernel of m into mod (whose triple and data layout the caller
 * has set for the processor). 0; 1 with a message if m is outside the
 * subset (see tk_gpu_check); -1 with a message on an internal failure. */
int tk_gpu_emit(const TirModule *m, const TkGpuTarget *t, LLVMContextRef ctx, LLVMModuleRef mod, char *err, size_t errlen);

#endif
