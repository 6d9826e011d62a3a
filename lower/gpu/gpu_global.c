/* gpu_global.c — global tensors on GPUs: their extents (size variables are
 * kernel parameters), where each element a lane holds of a register tile
 * sits in a tensor, and register tiles loaded from and stored to them.
 *
 * A register tile's LOAD or STORE of a plain tensor tests once whether the
 * tile lies inside it (below, "interior tiles"): inside, runs of elements
 * move as vector accesses with no masks; on an edge, each element reads
 * from a safe address (its own, or the tensor's first element when masked;
 * the tensor is checked to be non-empty first) and the masked ones are
 * zeroed, and each store is under its own condition: no out-of-bounds
 * access, no branch per loaded element. Packed tensors, vectors and the
 * block's shared-tile loads take the masked path with indices as vectors
 * (gpu_gl_access, gpu_gather, gpu_scatter). */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "gpu_internal.h"

/* the value of size variable var: a kernel parameter after the tensors */
LLVMValueRef gpu_size_arg(GpuLower *g, unsigned var) { return LLVMGetParam(g->fn, g->f->nparams + var); }

LLVMValueRef gpu_tensor_dim(GpuLower *g, const TkType *t, unsigned d)
{
    const TkPoly *p = &t->gdims[d];
    LLVMValueRef sum = c64(g, 0);
    for (unsigned k = 0; k < p->nterms; k++) {
        const TkMono *mo = &p->terms[k];
        LLVMValueRef term = c64(g, mo->coef);
        for (unsigned v = 0; v < mo->nvars; v++) term = LLVMBuildMul(g->e.b, term, gpu_size_arg(g, (unsigned)mo->vars[v]), "");
        sum = LLVMBuildAdd(g->e.b, sum, term, "");
    }
    return sum;
}

/* The row and column within the tile of each element the lane holds. */
void gpu_tile_rc(GpuLower *g, const TkType *t, LLVMValueRef *row, LLVMValueRef *col)
{
    Frags F;
    gpu_frags_of(g->row, t, &F);
    gpu_frags_rc(g, &F, row, col);
}

/* The index inside one plane of gl type gt of elements (row, col) of it:
 * row-major, or a packed plane's panels (tk_packed_offset, written here on
 * vectors). Elements outside the plane get some index; callers mask them. */
static LLVMValueRef plane_index(GpuLower *g, const TkType *gt, LLVMValueRef row, LLVMValueRef col, LLVMValueRef nrows,
                                LLVMValueRef ncols, unsigned n)
{
    LLVMBuilderRef B = g->e.b;
    LLVMValueRef R = gpu_splat(g, nrows, n), C = gpu_splat(g, ncols, n);
    if (gt->layout != TK_PACKED) return LLVMBuildAdd(B, LLVMBuildMul(B, row, C, ""), col, "");
    LLVMValueRef k1 = gpu_splat(g, c64(g, 1), n), k5 = gpu_splat(g, c64(g, 5), n), k32 = gpu_splat(g, c64(g, 32), n);
    LLVMValueRef q32 = LLVMBuildShl(B, LLVMBuildAShr(B, col, k5, ""), k5, "");      /* the panel's first column */
    LLVMValueRef left = LLVMBuildSub(B, C, q32, "");
    LLVMValueRef w = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, left, k32, ""), left, k32, "panel.w");
    LLVMValueRef base = LLVMBuildMul(B, q32, R, "panel");
    LLVMValueRef cc = LLVMBuildSub(B, col, q32, "");
    LLVMValueRef plain = LLVMBuildAdd(B, base, LLVMBuildAdd(B, LLVMBuildMul(B, row, w, ""), cc, ""), "");
    if (gt->elem != TK_TY_BF16 && gt->elem != TK_TY_F16) return plain;
    /* 2-byte elements: rows 2p and 2p + 1 alternate in a run of 2w; an odd last row is plain */
    LLVMValueRef pair = LLVMBuildMul(B, LLVMBuildAShr(B, row, k1, ""), LLVMBuildShl(B, w, k1, ""), "");
    LLVMValueRef paired = LLVMBuildAdd(B, base, LLVMBuildAdd(B, pair, LLVMBuildAdd(B, LLVMBuildShl(B, cc, k1, ""),
                                                                                   LLVMBuildAnd(B, row, k1, ""), ""), ""), "");
    LLVMValueRef even_rows = gpu_splat(g, LLVMBuildAnd(B, nrows, c64(g, ~(int64_t)1), ""), n);
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, row, even_rows, ""), paired, plain, "packed");
}

Access gpu_gl_access(GpuLower *g, const TkType *gt, const TirInstr *const *lead, LLVMValueRef row, LLVMValueRef col, unsigned n)
{
    LLVMBuilderRef B = g->e.b;
    Access A;
    unsigned rank = gt->rank;
    LLVMValueRef base_ok = LLVMConstInt(g->e.i1, 1, 0), lead_off = c64(g, 0), numel = c64(g, 1);
    for (unsigned d = 0; d < rank; d++) numel = LLVMBuildMul(B, numel, gpu_tensor_dim(g, gt, d), "");
    for (unsigned d = 0; d + 2 < rank; d++) {
        LLVMValueRef x = gpu_i64v(g, gpu_val(g, lead[d])), dim = gpu_tensor_dim(g, gt, d);
        LLVMValueRef ok = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntSGE, x, c64(g, 0), ""), LLVMBuildICmp(B, LLVMIntSLT, x, dim, ""), "");
        base_ok = LLVMBuildAnd(B, base_ok, ok, "");
        lead_off = LLVMBuildAdd(B, LLVMBuildMul(B, lead_off, dim, ""), x, "");
    }
    /* a rank-1 tensor is one row */
    LLVMValueRef nrows = rank >= 2 ? gpu_tensor_dim(g, gt, rank - 2) : c64(g, 1), ncols = gpu_tensor_dim(g, gt, rank - 1);
    LLVMValueRef zero = LLVMConstNull(LLVMVectorType(g->e.i64, n));
    LLVMValueRef m = LLVMBuildICmp(B, LLVMIntSGE, row, zero, "");
    m = LLVMBuildAnd(B, m, LLVMBuildICmp(B, LLVMIntSLT, row, gpu_splat(g, nrows, n), ""), "");
    m = LLVMBuildAnd(B, m, LLVMBuildICmp(B, LLVMIntSGE, col, zero, ""), "");
    m = LLVMBuildAnd(B, m, LLVMBuildICmp(B, LLVMIntSLT, col, gpu_splat(g, ncols, n), ""), "");
    A.mask = LLVMBuildAnd(B, m, gpu_splat(g, base_ok, n), "inbounds");
    LLVMValueRef plane = gpu_splat(g, LLVMBuildMul(B, LLVMBuildMul(B, lead_off, nrows, ""), ncols, ""), n);
    A.idx = LLVMBuildAdd(B, plane, plane_index(g, gt, row, col, nrows, ncols, n), "idx");
    A.nonempty = LLVMBuildICmp(B, LLVMIntSGT, numel, c64(g, 0), "");
    return A;
}

/* Per-lane tensor indices and in-bounds mask of every element of an rt
 * tile at tile coordinates coords[] of gl tensor type gt. */
static Access tile_access(GpuLower *g, const TkType *gt, const TirInstr *const *coords, const TkType *tile)
{
    LLVMBuilderRef B = g->e.b;
    Frags F;
    gpu_frags_of(g->row, tile, &F);
    unsigned n = (unsigned)F.n, rank = gt->rank;
    LLVMValueRef row0 = LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, coords[rank - 2])), c64(g, tile->dims[0]), "");
    LLVMValueRef col0 = LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, coords[rank - 1])), c64(g, tile->dims[1]), "");
    LLVMValueRef trow, tcol;
    gpu_frags_rc(g, &F, &trow, &tcol);
    LLVMValueRef grow = LLVMBuildAdd(B, gpu_splat(g, row0, n), trow, "row");
    LLVMValueRef gcol = LLVMBuildAdd(B, gpu_splat(g, col0, n), tcol, "col");
    return gpu_gl_access(g, gt, coords, grow, gcol, n);
}

/* The n elements of A from base (elements of ety), 0 where masked off. An
 * empty tensor's pointer may be anything: nothing is read from it. */
LLVMValueRef gpu_gather(GpuLower *g, LLVMValueRef base, LLVMTypeRef ety, Access A, unsigned n)
{
    LLVMBuilderRef B = g->e.b;
    LLVMTypeRef vty = LLVMVectorType(ety, n);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef rd = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "load");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "load.done");
    LLVMBuildCondBr(B, A.nonempty, rd, done);
    LLVMPositionBuilderAtEnd(B, rd);
    LLVMValueRef safe = LLVMBuildSelect(B, A.mask, A.idx, LLVMConstNull(LLVMVectorType(g->e.i64, n)), "");
    LLVMValueRef v = LLVMGetPoison(vty);
    for (unsigned p = 0; p < n; p++) {
        LLVMValueRef ix = LLVMBuildExtractElement(B, safe, c32(g, p), "");
        LLVMValueRef x = LLVMBuildLoad2(B, ety, LLVMBuildGEP2(B, ety, base, &ix, 1, ""), "");
        v = LLVMBuildInsertElement(B, v, x, c32(g, p), "");
    }
    v = LLVMBuildSelect(B, A.mask, v, LLVMConstNull(vty), "");
    LLVMBasicBlockRef rd_end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef phi = LLVMBuildPhi(B, vty, "gathered");
    LLVMValueRef zero = LLVMConstNull(vty);
    LLVMAddIncoming(phi, &v, &rd_end, 1);
    LLVMAddIncoming(phi, &zero, &pre, 1);
    return phi;
}

/* Element p of v to base[idx[p]] where mask[p]. */
void gpu_scatter(GpuLower *g, LLVMValueRef base, LLVMTypeRef ety, Access A, LLVMValueRef v, unsigned n)
{
    LLVMBuilderRef B = g->e.b;
    for (unsigned p = 0; p < n; p++) {
        LLVMValueRef ok = LLVMBuildExtractElement(B, A.mask, c32(g, p), "");
        LLVMBasicBlockRef wr = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "store");
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "store.next");
        LLVMBuildCondBr(B, ok, wr, next);
        LLVMPositionBuilderAtEnd(B, wr);
        LLVMValueRef ix = LLVMBuildExtractElement(B, A.idx, c32(g, p), "");
        LLVMBuildStore(B, LLVMBuildExtractElement(B, v, c32(g, p), ""), LLVMBuildGEP2(B, ety, base, &ix, 1, ""));
        LLVMBuildBr(B, next);
        LLVMPositionBuilderAtEnd(B, next);
    }
}

/* ---------------------------------------------------------------- ordering a warp's stores
 * A warp's loads and stores happen in program order (docs/LANGUAGE.md §4.2),
 * but its lanes run apart, and two accesses to one element of a tensor may be
 * made by different lanes when the tiles or vectors differ in layout (a col
 * tile stored, then a row tile over it; a row vector stored, then re-read
 * whole). So a store into a tensor that the kernel reaches at another place
 * too meets the warp before it (no lane overwrites what another has yet to
 * read or write) and after it (later accesses see it). A tensor stored at one
 * place only needs neither: one place is one tile type, whose elements go to
 * the same lanes every time, and tile coordinates never overlap. */

static void count_sites(const TirRegion *r, unsigned nparams, uint8_t *sites, uint8_t *stores)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if ((i->op == TIR_LOAD || i->op == TIR_STORE) && i->args[0]->op == TIR_PARAM && i->args[0]->aux >= 0 &&
            (unsigned)i->args[0]->aux < nparams) {
            unsigned p = (unsigned)i->args[0]->aux;
            if (sites[p] < 2) sites[p]++;
            if (i->op == TIR_STORE) stores[p] = 1;
        }
        count_sites(&i->body[0], nparams, sites, stores);
        count_sites(&i->body[1], nparams, sites, stores);
    }
}

void gpu_store_meets_plan(GpuLower *g, const TirFunc *f)
{
    uint8_t *sites = calloc(f->nparams ? f->nparams : 1, 2);
    if (!sites || !g->meet) {
        free(sites);
        return;   /* check_func reports the allocation failure */
    }
    count_sites(&f->body, f->nparams, sites, sites + f->nparams);
    for (unsigned p = 0; p < f->nparams; p++) g->meet[p] = sites[p] >= 2 && sites[f->nparams + p];
    free(sites);
}

void gpu_store_meet(GpuLower *g, const TirInstr *dst)
{
    if (dst->op == TIR_PARAM && g->meet && dst->aux >= 0 && (unsigned)dst->aux < g->f->nparams && g->meet[dst->aux]) gpu_warp_sync(g);
}

/* ---------------------------------------------------------------- interior tiles
 * Most tiles of a large tensor lie wholly inside it. For those a lane needs
 * no mask: it reads its elements from one scalar base plus a constant per
 * element, and elements that sit side by side in a tensor row at every lane
 * (the pairs of an mma A fragment, a C fragment's pairs) move as one vector
 * access of up to 16 bytes. Whether a tile is interior, and whether the
 * tensor's row length and address allow the vectors, is one test per access,
 * the same for every lane; other tiles take the masked per-element path. */

typedef struct {
    unsigned start, width;     /* lane elements [start, start + width): one tensor row, side by side */
} Run;

typedef struct {
    LLVMValueRef fast;         /* i1: interior, and aligned for the widest run */
    LLVMValueRef base;         /* i64: tensor index of the lane's element with constant offset (0, 0) */
    LLVMValueRef ncols, nrows; /* i64: the plane's row length and rows */
    LLVMValueRef row, col;     /* i64: plane row and column of the lane's element (0, 0) */
    LLVMValueRef lead_ok;      /* i1: the leading coordinates are in range */
    LLVMValueRef nonempty;     /* i1: the tensor has an element */
    int64_t *r, *c;            /* per element: constant row and column offsets */
    LLVMValueRef *rowp;        /* per element: the address of its row's column 0 (built by elem_ptr, per path) */
    Run *runs;
    unsigned nruns;
    unsigned esize;            /* bytes of a tensor element */
} Interior;

/* The two paths of an access: interior (taken first) and edge, joined after. */
typedef struct {
    LLVMBasicBlockRef edge, join, interior_end, edge_end;
} Paths;

/* Branches on I->fast and continues in the interior path. */
static void paths_begin(GpuLower *g, const Interior *I, const char *what, Paths *P)
{
    char name[32];
    snprintf(name, sizeof name, "%s.interior", what);
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, name);
    snprintf(name, sizeof name, "%s.edge", what);
    P->edge = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, name);
    snprintf(name, sizeof name, "%s.joined", what);
    P->join = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, name);
    LLVMBuildCondBr(g->e.b, I->fast, fast, P->edge);
    LLVMPositionBuilderAtEnd(g->e.b, fast);
}

/* Ends the interior path and continues in the edge path. */
static void paths_edge(GpuLower *g, Paths *P)
{
    P->interior_end = LLVMGetInsertBlock(g->e.b);
    LLVMBuildBr(g->e.b, P->join);
    LLVMPositionBuilderAtEnd(g->e.b, P->edge);
}

/* Ends the edge path and continues after both. */
static void paths_end(GpuLower *g, Paths *P)
{
    P->edge_end = LLVMGetInsertBlock(g->e.b);
    LLVMBuildBr(g->e.b, P->join);
    LLVMPositionBuilderAtEnd(g->e.b, P->join);
}

static void interior_free(Interior *I)
{
    free(I->rowp);
    free(I->r);
    free(I->c);
    free(I->runs);
}

/* Does the run of w elements from p sit side by side in one row, starting
 * at a multiple of w, at every lane? */
static bool run_fits(GpuLower *g, const Frags *F, const int64_t *r, const int64_t *c, unsigned p, unsigned w)
{
    if ((int64_t)p + w > F->n) return false;
    for (unsigned q = 1; q < w; q++)
        if (r[p + q] != r[p] || c[p + q] != c[p] + q) return false;
    for (int lane = 0; lane < g->wave; lane++)
        if ((tk_lane_term(F->lay->col, lane) + c[p]) % w != 0) return false;
    return true;
}

/* The interior fast path of an rt tile of type `tile` at tile coordinates
 * coords[] of plain gl type gt, or false when it has none (packed tensors,
 * elements that are not 2- or 4-byte floats). */
static bool interior_of(GpuLower *g, const TkType *gt, const TirInstr *const *coords, const TkType *tile, LLVMValueRef ptr,
                        Interior *I)
{
    memset(I, 0, sizeof *I);
    if (gt->layout == TK_PACKED || !(gt->elem == TK_TY_F32 || gpu_half(gt->elem))) return false;
    LLVMBuilderRef B = g->e.b;
    Frags F;
    gpu_frags_of(g->row, tile, &F);
    unsigned n = (unsigned)F.n, esize = gt->elem == TK_TY_F32 ? 4 : 2, maxw = 16 / esize, widest = 1;
    I->esize = esize;
    I->r = malloc(sizeof *I->r * n);
    I->c = malloc(sizeof *I->c * n);
    I->runs = malloc(sizeof *I->runs * n);
    I->rowp = malloc(sizeof *I->rowp * n);
    if (!I->r || !I->c || !I->runs || !I->rowp) {
        interior_free(I);
        return false;
    }
    for (unsigned p = 0; p < n; p++) {
        int64_t frag = p / F.elems, e = p % F.elems;
        I->r[p] = frag / F.fcols * F.bm + F.lay->row_of[e];
        I->c[p] = frag % F.fcols * F.bn + F.lay->col_of[e];
    }
    for (unsigned p = 0; p < n;) {
        unsigned w = maxw;
        while (w > 1 && !run_fits(g, &F, I->r, I->c, p, w)) w /= 2;
        I->runs[I->nruns++] = (Run){ p, w };
        if (w > widest) widest = w;
        p += w;
    }
    /* the tile's place: leading coordinates in range, rows and columns inside */
    unsigned rank = gt->rank;
    LLVMValueRef ok = LLVMConstInt(g->e.i1, 1, 0), lead = c64(g, 0);
    for (unsigned d = 0; d + 2 < rank; d++) {
        LLVMValueRef x = gpu_i64v(g, gpu_val(g, coords[d])), dim = gpu_tensor_dim(g, gt, d);
        ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntULT, x, dim, ""), "");
        lead = LLVMBuildAdd(B, LLVMBuildMul(B, lead, dim, ""), x, "");
    }
    LLVMValueRef nrows = rank >= 2 ? gpu_tensor_dim(g, gt, rank - 2) : c64(g, 1), ncols = gpu_tensor_dim(g, gt, rank - 1);
    LLVMValueRef lead_ok = ok;
    LLVMValueRef rt = rank >= 2 ? gpu_i64v(g, gpu_val(g, coords[rank - 2])) : c64(g, 0);
    LLVMValueRef ct = gpu_i64v(g, gpu_val(g, coords[rank - 1]));
    /* tile coordinates in [0, dim / tile dim): no overflow in what follows */
    LLVMValueRef rfit = LLVMBuildSDiv(B, nrows, c64(g, tile->dims[0]), ""), cfit = LLVMBuildSDiv(B, ncols, c64(g, tile->dims[1]), "");
    ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntULT, rt, rfit, ""), "");
    ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntULT, ct, cfit, ""), "");
    if (widest > 1) {
        LLVMValueRef wm = c64(g, widest - 1);
        LLVMValueRef addr = LLVMBuildPtrToInt(B, ptr, g->e.i64, "");
        ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, ncols, wm, ""), c64(g, 0), ""), "");
        ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, addr, c64(g, widest * esize - 1), ""), c64(g, 0), ""), "");
    }
    LLVMValueRef numel = c64(g, 1);
    for (unsigned d = 0; d < rank; d++) numel = LLVMBuildMul(B, numel, gpu_tensor_dim(g, gt, d), "");
    I->nonempty = LLVMBuildICmp(B, LLVMIntSGT, numel, c64(g, 0), "");
    I->lead_ok = lead_ok;
    I->fast = ok;
    I->ncols = ncols;
    I->nrows = nrows;
    LLVMValueRef lane = LLVMBuildZExt(B, g->lane, g->e.i64, "");
    LLVMValueRef row = LLVMBuildAdd(B, LLVMBuildMul(B, rt, c64(g, tile->dims[0]), ""), gpu_lane_term(g, lane, F.lay->row), "");
    LLVMValueRef col = LLVMBuildAdd(B, LLVMBuildMul(B, ct, c64(g, tile->dims[1]), ""), gpu_lane_term(g, lane, F.lay->col), "");
    LLVMValueRef plane = LLVMBuildMul(B, LLVMBuildMul(B, lead, nrows, ""), ncols, "");
    I->base = LLVMBuildAdd(B, plane, LLVMBuildAdd(B, LLVMBuildMul(B, row, ncols, ""), col, ""), "lane.base");
    I->row = row;
    I->col = col;
    return true;
}

/* Forgets the row addresses: each path (interior, edge) builds its own. */
static void rows_reset(const Interior *I, unsigned n)
{
    for (unsigned p = 0; p < n; p++) I->rowp[p] = NULL;
}

/* The address of element p: its row's start (one per distinct row offset)
 * plus a constant column offset. Built this way, and not as one index, so
 * that the loop-invariant part LLVM hoists out of a K loop is one value per
 * row and not one per element (those would each hold a register pair). */
static LLVMValueRef elem_ptr(GpuLower *g, const Interior *I, LLVMValueRef ptr, LLVMTypeRef ety, unsigned p, unsigned n)
{
    LLVMBuilderRef B = g->e.b;
    if (!I->rowp[p]) {
        LLVMValueRef ix = LLVMBuildAdd(B, I->base, LLVMBuildMul(B, c64(g, I->r[p]), I->ncols, ""), "");
        LLVMValueRef rp = LLVMBuildGEP2(B, ety, ptr, &ix, 1, "row");
        for (unsigned q = p; q < n; q++)
            if (I->r[q] == I->r[p]) I->rowp[q] = rp;
    }
    LLVMValueRef c = c64(g, I->c[p]);
    return LLVMBuildGEP2(B, ety, I->rowp[p], &c, 1, "");
}

/* Is element p inside the plane? (row and column in [0, extent): one unsigned compare each) */
static LLVMValueRef edge_ok(GpuLower *g, const Interior *I, unsigned p)
{
    LLVMBuilderRef B = g->e.b;
    LLVMValueRef r = LLVMBuildAdd(B, I->row, c64(g, I->r[p]), ""), c = LLVMBuildAdd(B, I->col, c64(g, I->c[p]), "");
    LLVMValueRef ok = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntULT, r, I->nrows, ""), LLVMBuildICmp(B, LLVMIntULT, c, I->ncols, ""), "");
    return LLVMBuildAnd(B, ok, I->lead_ok, "");
}


/* A tile on an edge: every element under its own mask, 0 outside (an empty
 * tensor's pointer may be anything: nothing is read from it). */
static LLVMValueRef edge_load(GpuLower *g, const Interior *I, LLVMValueRef ptr, LLVMTypeRef ety, unsigned n)
{
    LLVMBuilderRef B = g->e.b;
    LLVMTypeRef vty = LLVMVectorType(ety, n);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef rd = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "load.masked");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "load.masked.done");
    LLVMBuildCondBr(B, I->nonempty, rd, done);
    LLVMPositionBuilderAtEnd(B, rd);
    rows_reset(I, n);
    LLVMValueRef v = LLVMGetPoison(vty), zero = LLVMConstNull(ety);
    for (unsigned p = 0; p < n; p++) {
        LLVMValueRef ok = edge_ok(g, I, p);
        /* masked: read the tensor's first element instead */
        LLVMValueRef at = LLVMBuildSelect(B, ok, elem_ptr(g, I, ptr, ety, p, n), ptr, "");
        LLVMValueRef x = LLVMBuildLoad2(B, ety, at, "");
        v = LLVMBuildInsertElement(B, v, LLVMBuildSelect(B, ok, x, zero, ""), c32(g, p), "");
    }
    LLVMBasicBlockRef rd_end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef phi = LLVMBuildPhi(B, vty, "masked"), z = LLVMConstNull(vty);
    LLVMAddIncoming(phi, &v, &rd_end, 1);
    LLVMAddIncoming(phi, &z, &pre, 1);
    return phi;
}

static void edge_store(GpuLower *g, const Interior *I, LLVMValueRef ptr, LLVMTypeRef ety, LLVMValueRef v, unsigned n)
{
    LLVMBuilderRef B = g->e.b;
    rows_reset(I, n);
    for (unsigned p = 0; p < n; p++) {
        LLVMBasicBlockRef wr = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "store");
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "store.next");
        LLVMValueRef at = elem_ptr(g, I, ptr, ety, p, n);   /* here: the row addresses must dominate later stores */
        LLVMBuildCondBr(B, edge_ok(g, I, p), wr, next);
        LLVMPositionBuilderAtEnd(B, wr);
        LLVMBuildStore(B, LLVMBuildExtractElement(B, v, c32(g, p), ""), at);
        LLVMBuildBr(B, next);
        LLVMPositionBuilderAtEnd(B, next);
    }
}

static LLVMValueRef interior_load(GpuLower *g, const Interior *I, LLVMValueRef ptr, LLVMTypeRef ety, unsigned n)
{
    unsigned esize = I->esize;
    LLVMBuilderRef B = g->e.b;
    LLVMValueRef v = LLVMGetPoison(LLVMVectorType(ety, n));
    rows_reset(I, n);
    for (unsigned k = 0; k < I->nruns; k++) {
        unsigned p = I->runs[k].start, w = I->runs[k].width;
        LLVMTypeRef ty = w == 1 ? ety : LLVMVectorType(ety, w);
        LLVMValueRef x = LLVMBuildLoad2(B, ty, elem_ptr(g, I, ptr, ety, p, n), "");
        LLVMSetAlignment(x, w * esize);
        for (unsigned q = 0; q < w; q++)
            v = LLVMBuildInsertElement(B, v, w == 1 ? x : LLVMBuildExtractElement(B, x, c32(g, q), ""), c32(g, p + q), "");
    }
    return v;
}

static void interior_store(GpuLower *g, const Interior *I, LLVMValueRef ptr, LLVMTypeRef ety, LLVMValueRef v, unsigned n)
{
    unsigned esize = I->esize;
    LLVMBuilderRef B = g->e.b;
    rows_reset(I, n);
    for (unsigned k = 0; k < I->nruns; k++) {
        unsigned p = I->runs[k].start, w = I->runs[k].width;
        LLVMValueRef x = w == 1 ? LLVMBuildExtractElement(B, v, c32(g, p), "") : gpu_sub_vector(g, v, p, (int)w);
        LLVMValueRef st = LLVMBuildStore(B, x, elem_ptr(g, I, ptr, ety, p, n));
        LLVMSetAlignment(st, w * esize);
    }
}

LLVMValueRef gpu_tile_load(GpuLower *g, const TirInstr *i)
{
    const TirInstr *src = i->args[0];
    const TkType *t = i->type, *gt = src->type;
    Frags F;
    gpu_frags_of(g->row, t, &F);
    unsigned n = (unsigned)F.n;
    const TirInstr *const *coords = (const TirInstr *const *)&i->args[1];
    /* bf16 tiles hold bits (i16); f32 tiles read f32, or bf16/f16 widened */
    bool wide = t->elem == TK_TY_F32;
    LLVMTypeRef ety = wide ? emit_scalar_type(&g->e, gt->elem) : g->e.i16;
    LLVMValueRef ptr = gpu_val(g, src), v;
    Interior I;
    if (interior_of(g, gt, coords, t, ptr, &I)) {
        Paths P;
        paths_begin(g, &I, "load", &P);
        LLVMValueRef vf = interior_load(g, &I, ptr, ety, n);
        paths_edge(g, &P);
        LLVMValueRef vs = edge_load(g, &I, ptr, ety, n);
        paths_end(g, &P);
        v = LLVMBuildPhi(g->e.b, LLVMVectorType(ety, n), "tile");
        LLVMAddIncoming(v, &vf, &P.interior_end, 1);
        LLVMAddIncoming(v, &vs, &P.edge_end, 1);
        interior_free(&I);
    } else {
        v = gpu_gather(g, ptr, ety, tile_access(g, gt, coords, t), n);
    }
    if (g->status) return LLVMGetPoison(gpu_tile_type(g, t));
    if (wide && gt->elem != TK_TY_F32) return LLVMBuildFPExt(g->e.b, v, LLVMVectorType(g->e.f32, n), "");
    return v;
}

void gpu_tile_store(GpuLower *g, const TirInstr *i)
{
    const TirInstr *dst = i->args[0];
    const TkType *t = i->args[1]->type, *gt = dst->type;
    Frags F;
    gpu_frags_of(g->row, t, &F);
    const TirInstr *const *coords = (const TirInstr *const *)&i->args[2];
    gpu_store_meet(g, dst);
    LLVMValueRef ptr = gpu_val(g, dst), v = gpu_val(g, i->args[1]);
    LLVMTypeRef ety = gpu_elem_type(g, t->elem);
    Interior I;
    if (t->elem == gt->elem && interior_of(g, gt, coords, t, ptr, &I)) {
        Paths P;
        paths_begin(g, &I, "store", &P);
        interior_store(g, &I, ptr, ety, v, (unsigned)F.n);
        paths_edge(g, &P);
        edge_store(g, &I, ptr, ety, v, (unsigned)F.n);
        paths_end(g, &P);
        interior_free(&I);
    } else {
        gpu_scatter(g, ptr, ety, tile_access(g, gt, coords, t), v, (unsigned)F.n);
    }
    gpu_store_meet(g, dst);
}
