/* gpu_emu_abi.h — the contract between the code the GPU lowering emits for
 * the emulation target (gpu_vendor_emu.c) and the emulator that runs it
 * (targets/emu/). The emulated kernel is the NVIDIA lowering itself — the
 * same fragments, lane maps and masks — compiled for the host; what a GPU
 * does in hardware (special registers, warp-collective matrix instructions and shuffles)
 * goes through a per-thread environment instead.
 *
 * The module defines, per kernel NAME, with the calling convention of
 * tk/rt.h:
 *   void NAME__grid(void **args, const int64_t *sizes, int64_t grid[4]);
 *   void NAME__block(void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz);
 * and NAME__block calls tk_emu_run_block with NAME__thread, which runs one
 * GPU thread of the block. */
#ifndef TK_LOWER_GPU_EMU_ABI_H
#define TK_LOWER_GPU_EMU_ABI_H

#include <stdint.h>

/* The matrix instructions the emulator implements (its own code, written from
 * the PTX ISA, independent of intrinsics/nvptx_mma.c's lane maps). */
enum { TK_EMU_MMA_M16N8K16_BF16 = 1, TK_EMU_MMA_M16N8K8_TF32 = 2, TK_EMU_MMA_M16N8K16_F16 = 3 };

typedef struct TkEmuEnv TkEmuEnv;

/* One warp-collective matrix instruction: this lane's registers in (a, b: the
 * 32-bit registers, of bf16 pairs or one tf32 each; c: f32), its part of D
 * out (4 registers of a, 2 of b, 4 of c and d for both instructions). Returns when
 * every lane of the warp has reached it. */
typedef void (*TkEmuMmaFn)(TkEmuEnv *env, int32_t op, const uint32_t *a, const uint32_t *b, const float *c, float *d);

/* sync(): returns when every thread of the block has reached it. */
typedef void (*TkEmuBarrierFn)(TkEmuEnv *env);

/* A warp shuffle (shfl.sync.idx): every lane offers x and gets the x that
 * lane src_lane (0..31) offered. Returns when every lane has reached it. */
typedef uint32_t (*TkEmuShuffleFn)(TkEmuEnv *env, uint32_t x, int32_t src_lane);

/* ldmatrix.sync.aligned.m8n8.x{num}{.trans}.b16: this lane's row address in
 * (lane 8i + r: row r of matrix i; lanes past 8·num are not read), its num
 * registers out. Returns when every lane has reached it. */
typedef void (*TkEmuLdmatrixFn)(TkEmuEnv *env, int32_t num, int32_t trans, const void *row, uint32_t *out);

/* cp.async of 16 bytes: `bytes` (0..16) read from src (global), the rest of
 * the 16 zero, written to dst (shared) — not now but when this thread next
 * waits (or returns), so a read before the wait sees the old contents. */
typedef void (*TkEmuCpAsyncFn)(TkEmuEnv *env, void *dst, const void *src, int32_t bytes);
/* cp.async.wait_all: this thread's copies land */
typedef void (*TkEmuCpAsyncWaitFn)(TkEmuEnv *env);

/* wgmma.mma_async.sync.aligned.m64n{n}k16.f32 (f16 ? .f16 : .bf16) for a
 * warpgroup (4 warps): this thread's 4 A registers in, its n/2 accumulators
 * in and out, B through the matrix descriptor desc (start address: a byte
 * offset in the block's shared tiles), N-major if trans_b. Returns when the
 * 128 threads of the warpgroup have reached it; D is then in d (the
 * emulator has no asynchrony to wait for). */
typedef void (*TkEmuWgmmaFn)(TkEmuEnv *env, int32_t n, int32_t f16, int32_t trans_b, const uint32_t *a, uint64_t desc, float *d);

/* Hopper's TMA and mbarriers (gpu_tma.c). bar: 8 bytes of the block's
 * shared tiles, keyed by address. mbar_init: the barrier expects `count`
 * arrivals per phase. mbar_expect: this thread arrives and announces `bytes`
 * more to come by copies. tma_load: one copy of map's box (map: the
 * TkTmaDesc, gpu_tma_desc.h) at tensor coordinates coords[0 .. rank)
 * (innermost first) to dst, counted on bar — landing only when a thread
 * waits on bar. mbar_wait: returns once bar's phase of parity `parity` has
 * completed (landing bar's copies first). */
typedef void (*TkEmuTmaLoadFn)(TkEmuEnv *env, const void *map, void *dst, const int32_t *coords, int32_t rank, void *bar);
typedef void (*TkEmuMbarInitFn)(TkEmuEnv *env, void *bar, int32_t count);
typedef void (*TkEmuMbarExpectFn)(TkEmuEnv *env, void *bar, int32_t bytes);
typedef void (*TkEmuMbarWaitFn)(TkEmuEnv *env, void *bar, int32_t parity);

/* Field order is the ABI: the emitted code addresses them as
 * { ptr, i32, [3 x i32], ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr }. */
struct TkEmuEnv {
    TkEmuMmaFn mma;
    int32_t tid;          /* the thread's index in its block (%tid.x) */
    int32_t ctaid[3];     /* the block's index in the grid (%ctaid.x/y/z) */
    void *fiber;          /* the emulator's own */
    TkEmuBarrierFn barrier;
    void *shared;         /* the block's shared tiles, 16-byte aligned, one buffer per block */
    TkEmuShuffleFn shuffle;
    TkEmuLdmatrixFn ldmatrix;
    TkEmuCpAsyncFn cp_async;
    TkEmuCpAsyncWaitFn cp_async_wait;
    TkEmuWgmmaFn wgmma;
    TkEmuTmaLoadFn tma_load;
    TkEmuMbarInitFn mbar_init;
    TkEmuMbarExpectFn mbar_expect;
    TkEmuMbarWaitFn mbar_wait;
};

typedef void (*TkEmuThreadFn)(void **args, const int64_t *sizes, TkEmuEnv *env);

/* Runs the `threads` threads of block (bx, by, bz), each calling fn, with
 * shared_bytes of shared memory for the block; defined by the emulator and
 * given to the JIT by name. */
void tk_emu_run_block(TkEmuThreadFn fn, void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz,
                      int32_t threads, int64_t shared_bytes);

#endif
