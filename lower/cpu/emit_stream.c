/* emit_stream.c — streaming (non-temporal) stores of large outputs.
 *
 * A row-wise kernel (layernorm, softmax, rmsnorm) walks a block of 16 rows in
 * 16×64 tiles, so its output is written as 16 interleaved streams of 256
 * bytes. Through the cache every written line is first read from DRAM (the
 * write-allocate), and on Zen 4 the 16 read plus 16 write streams of such a
 * walk ran a plain 16×64-tiled copy of 25 MB at 6.0 ms against 2.3 ms for a
 * sequential one. Written with non-temporal stores (vmovntps), the same
 * 16×64 copy took 2.2 ms: the lines go to memory through the write-combining
 * buffers, and nothing is read for them.
 *
 * A fused store of an element-wise tile takes this path (emit_store.c) when:
 * - at compile time: its tensor is write-only in the kernel (no load reads
 *   it back, which would then come from DRAM), the tile is row-major with
 *   float elements, and each of its rows is whole 64-byte lines;
 * - at run time: the tensor is at least TK_CPU_STREAM_MIN_BYTES (smaller
 *   outputs are likely still in cache when the next kernel reads them), and
 *   the tile's first element and the tensor's row pitch are 64-byte aligned
 *   (an aligned vector is what a non-temporal store needs).
 * Else the ordinary store loop runs. The block function ends with an sfence
 * on x86 when it streamed: non-temporal stores are weakly ordered, and the
 * thread that joins the launch must see them. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "emit_gl.h"

/* Outputs from 16 MiB on: half of a Zen 4 CCD's 32 MiB L3, about what a
 * next kernel could still find there. */
#define TK_CPU_STREAM_MIN_BYTES (16ll << 20)

static unsigned elem_bytes(const TkType *t) { return t->elem == TK_TY_F32 ? 4 : 2; }

/* Marks every tensor parameter some instruction reads (any use other than
 * being the tensor a store writes). */
static void note_reads(const TirRegion *r, bool *read, unsigned nparams)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        for (unsigned a = 0; a < i->nargs; a++) {
            const TirInstr *p = i->args[a];
            if (!p || p->op != TIR_PARAM || p->aux < 0 || (unsigned)p->aux >= nparams) continue;
            if (!(i->op == TIR_STORE && a == 0)) read[p->aux] = true;
        }
        note_reads(&i->body[0], read, nparams);
        note_reads(&i->body[1], read, nparams);
    }
}

int emit_plan_streams(Emit *E, const TirRegion *body)
{
    E->param_read = calloc(E->f->nparams + 1, sizeof *E->param_read);
    if (!E->param_read) return -1;
    note_reads(body, E->param_read, E->f->nparams);
    E->streamed = false;
    return 0;
}

void emit_free_streams(Emit *E)
{
    free(E->param_read);
    E->param_read = NULL;
}

bool emit_stream_candidate(const Emit *E, const TirInstr *dst, const TkType *tile)
{
    if (!E->param_read || dst->op != TIR_PARAM || dst->aux < 0 || (unsigned)dst->aux >= E->f->nparams) return false;
    if (E->param_read[dst->aux]) return false;
    if (tile->kind != TK_TY_RT && tile->kind != TK_TY_RV) return false;
    if (tile->rank == 2 && tile->layout != TK_ROW) return false;
    if (tile->elem != TK_TY_F32 && tile->elem != TK_TY_BF16 && tile->elem != TK_TY_F16) return false;
    int64_t cols = tile->rank == 2 ? tile->dims[1] : tile->dims[0];
    return cols * elem_bytes(tile) % 64 == 0;
}

LLVMValueRef emit_stream_ok(Emit *E, const TkType *g, LLVMValueRef first, LLVMValueRef ncols)
{
    int64_t esize = g->elem == TK_TY_F32 ? 4 : 2;
    LLVMValueRef elems = emit_const_i64(E, 1);
    for (unsigned d = 0; d < g->rank; d++) elems = LLVMBuildMul(E->b, elems, smax(E, emit_tensor_dim(E, g, d), emit_const_i64(E, 0)), "");
    LLVMValueRef big = LLVMBuildICmp(E->b, LLVMIntSGE, elems, emit_const_i64(E, TK_CPU_STREAM_MIN_BYTES / esize), "");
    LLVMValueRef mask = emit_const_i64(E, 63), zero = emit_const_i64(E, 0);
    LLVMValueRef addr = LLVMBuildPtrToInt(E->b, first, E->i64, "");
    LLVMValueRef pitch = LLVMBuildMul(E->b, ncols, emit_const_i64(E, esize), "");
    LLVMValueRef aligned = LLVMBuildICmp(E->b, LLVMIntEQ, LLVMBuildAnd(E->b, LLVMBuildOr(E->b, addr, pitch, ""), mask, ""), zero, "");
    return LLVMBuildAnd(E->b, big, aligned, "stream.ok");
}

void emit_st_stream(Emit *E, const TkType *t, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v, LLVMValueRef v2)
{
    if (t->elem != TK_TY_F32) {
        /* two halves of 16 rounded lanes, joined into one 64-byte vector: a
         * rounded vector stored as it is was folded by the x86 back end into
         * a truncating store (vpmovdw to memory), which has no
         * non-temporal form, and the stream was lost */
        v = emit_fptrunc(E, v, emit_elem_type(E, t));
        if (v2) {
            v2 = emit_fptrunc(E, v2, emit_elem_type(E, t));
            unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
            LLVMValueRef lanes[64];
            for (unsigned k = 0; k < 2 * n && k < 64; k++) lanes[k] = LLVMConstInt(E->i32, k, 0);
            v = LLVMBuildShuffleVector(E->b, v, v2, LLVMConstVector(lanes, 2 * n), "");
        }
    }
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
    LLVMValueRef st = LLVMBuildStore(E->b, v, elem_ptr(E, t, base, idx));
    LLVMSetAlignment(st, n * elem_bytes(t));
    LLVMMetadataRef one = LLVMValueAsMetadata(LLVMConstInt(E->i32, 1, 0));
    LLVMSetMetadata(st, LLVMGetMDKindIDInContext(E->ctx, "nontemporal", 11), LLVMMetadataAsValue(E->ctx, LLVMMDNodeInContext2(E->ctx, &one, 1)));
    E->streamed = true;
}

void emit_stream_fence(Emit *E)
{
    if (!E->streamed) return;
    E->streamed = false;
    const char *triple = LLVMGetTarget(E->mod);
    if (!triple || strncmp(triple, "x86_64", 6) != 0) return;   /* elsewhere the launch's barriers order them */
    emit_intrinsic(E, "llvm.x86.sse.sfence", NULL, 0, NULL, 0);
}
