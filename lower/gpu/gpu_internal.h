/* gpu_internal.h — what the files of the GPU lowering share (gpu_lower.c:
 * checking, register tiles, control flow, kernels; gpu_elementwise.c: maps
 * and conversions of register tiles; gpu_shared.c: shared tiles and
 * barriers). Not a public interface. */
#ifndef TK_LOWER_GPU_INTERNAL_H
#define TK_LOWER_GPU_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "emit.h"
#include "gpu_lower.h"

typedef enum { ROLE_NONE, ROLE_A, ROLE_B, ROLE_C } Role;

/* How a tile of some role splits into fragments of the kernel's base tile. */
typedef struct {
    Role role;
    int64_t frows, fcols;     /* fragment grid */
    int64_t bm, bn;           /* base tile rows/cols for this role */
    int elems;                /* elements per lane per fragment */
    const TkLaneMap *lay;
    int64_t n;                /* elements per lane in the whole tile */
} Frags;

typedef struct GpuLower {
    Emit e;                   /* scalar helpers of emit_llvm.c: ctx, mod, b, types */
    const TirModule *m;
    const TkGpuVendor *v;
    const char *cpu;          /* the processor: "gfx942", "sm_90a" */
    int wave;                 /* lanes per warp (wavefront) */
    const TirFunc *f;
    TkGpuMma rowbuf;
    const TkGpuMma *row;      /* the kernel's base tile (NULL: no rt tiles) */
    LLVMBuilderRef ab;        /* allocas, in the entry block */
    LLVMValueRef fn;
    LLVMValueRef lane, warp;  /* i32 */
    LLVMValueRef env;         /* the emulation target's environment parameter (NULL on a GPU) */
    LLVMValueRef tid;         /* i32: the thread's index in its block */
    int64_t shared_used;      /* bytes of shared tiles placed so far in this kernel */
    LLVMTypeRef p1;           /* ptr addrspace(1) */
    uint32_t count;
    LLVMValueRef *vals, *slots;
    int status;               /* 0, 1 unsupported input, -1 internal */
    char *err;
    size_t errlen;
} GpuLower;


static inline LLVMValueRef c64(GpuLower *g, int64_t v) { return LLVMConstInt(g->e.i64, (unsigned long long)v, 1); }
static inline LLVMValueRef c32(GpuLower *g, int64_t v) { return LLVMConstInt(g->e.i32, (unsigned long long)v, 1); }

/* diagnostics: the first one wins; 1 (an input error) is returned */
int gpu_fail(GpuLower *g, const TirInstr *at, const char *fmt, ...);
int gpu_not_supported(GpuLower *g, const TirInstr *i, const char *what);
const char *gpu_type_str(const TkType *t, char *buf, size_t n);

/* register tiles: the role of a tile type and how it splits into fragments */
Role gpu_role_of(const TkType *t);
bool gpu_frags_of(const TkGpuMma *r, const TkType *t, Frags *F);
LLVMTypeRef gpu_tile_type(GpuLower *g, const TkType *t);

/* values */
LLVMValueRef gpu_val(GpuLower *g, const TirInstr *i);
void gpu_set_val(GpuLower *g, const TirInstr *i, LLVMValueRef v);
LLVMValueRef gpu_special(GpuLower *g, TkGpuSpecial which);
LLVMValueRef gpu_i64v(GpuLower *g, LLVMValueRef v);
LLVMValueRef gpu_tensor_dim(GpuLower *g, const TkType *t, unsigned d);
LLVMValueRef gpu_lane_term(GpuLower *g, LLVMValueRef lane, TkLaneTerm t);

LLVMValueRef gpu_splat(GpuLower *g, LLVMValueRef x, unsigned n);

/* element-wise work on register tiles (gpu_elementwise.c) */
int gpu_map_check(GpuLower *g, const TirInstr *i);
int gpu_convert_check(GpuLower *g, const TirInstr *i);
LLVMValueRef gpu_tile_map(GpuLower *g, const TirInstr *i);
LLVMValueRef gpu_tile_convert(GpuLower *g, const TirInstr *i);

/* shared tiles and barriers (gpu_shared.c) */
int gpu_shared_check(GpuLower *g, const TirInstr *i);       /* VAR/LOAD/FILL/SET of an st, LOAD of an rt from one */
int64_t gpu_shared_bytes(const TirRegion *r);               /* the shared tiles a region declares */
void gpu_shared_var(GpuLower *g, const TirInstr *i);        /* VAR st: placed, zero-filled by the block */
void gpu_shared_set(GpuLower *g, const TirInstr *i);        /* SET st = LOAD gl / FILL: by the whole block */
LLVMValueRef gpu_shared_load(GpuLower *g, const TirInstr *i);   /* an rt from an st */
void gpu_sync(GpuLower *g);

#endif
