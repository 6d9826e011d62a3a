/* gpu_vector.c — register vectors (rv), row and column reductions,
 * broadcasts and masks in the GPU lowering.
 *
 * An rv has no layout in the language, but on a GPU its elements must sit in
 * some lanes. The natural place for row_max(x) is where x's rows are: the lane
 * that holds elements of row r keeps the row's maximum, so sub_row(x, m)
 * never leaves the lane. gpu_vector_plan gives every rv value a distribution
 * (Dist, gpu_internal.h), chosen per class of values that must agree (the
 * operands and result of a map, a variable and what is stored in it):
 *   - the rows (or columns) of the tiles a class is reduced from or broadcast
 *     onto, when all of them agree;
 *   - with none of those, element j in lane j mod warp ("strided"), when
 *     the length is a multiple of the warp: a vector kernel (a norm walking
 *     a row) loads coalesced and sums with a butterfly;
 *   - otherwise every lane holds the whole vector ("replicated"). A reduction
 *     then spreads its result with shuffles (one per element), and a broadcast
 *     picks the lane's elements out of it.
 * A row reduction is the lane's own elements folded, then a butterfly of
 * shuffles over the lanes that hold other columns of the same rows: after it
 * every such lane has the whole row's result, as on the CPU but in a
 * different order of additions.
 *
 * Shuffles are the vendor's (shfl.sync.idx, ds_bpermute, or the emulator's
 * collective). Control flow is uniform within a warp (loop bounds and
 * conditions are scalars), so every lane reaches every shuffle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.h"

/* ---------------------------------------------------------------- distributions */

static Dist repl(void) { return (Dist){ .repl = true }; }

/* element j in lane j mod wave: coalesced loads, and a sum is a butterfly */
static Dist strided(int wave) { return (Dist){ .t = { 0, (uint8_t)(wave - 1), 1 }, .nofs = 1, .ofs = { 0 }, .period = wave }; }

/* The rows (cols = false) or columns of tiles laid out by lane map m, whose
 * base tile has `period` rows (columns). */
static Dist dist_of(const TkLaneMap *m, bool cols, int period)
{
    Dist d = { .t = cols ? m->col : m->row, .period = period };
    if (d.t.mul == 0) d.t = (TkLaneTerm){ 0, 0, 0 };
    for (int e = 0; e < m->elems; e++) {
        int16_t o = cols ? m->col_of[e] : m->row_of[e];
        int k = 0;
        while (k < d.nofs && d.ofs[k] < o) k++;
        if (k < d.nofs && d.ofs[k] == o) continue;
        memmove(&d.ofs[k + 1], &d.ofs[k], sizeof d.ofs[0] * (size_t)(d.nofs - k));
        d.ofs[k] = o;
        d.nofs++;
    }
    return d;
}

static bool same_dist(const Dist *a, const Dist *b)
{
    if (a->repl || b->repl) return a->repl == b->repl;
    return a->t.shift == b->t.shift && a->t.mask == b->t.mask && a->t.mul == b->t.mul && a->nofs == b->nofs &&
           a->period == b->period && memcmp(a->ofs, b->ofs, sizeof a->ofs[0] * (size_t)a->nofs) == 0;
}

/* The distribution of the rows (imm 0) or columns (imm 1) of rt type t. */
static Dist tile_lines(GpuLower *g, const TkType *t, int64_t imm)
{
    Frags F;
    gpu_frags_of(g->row, t, &F);
    return dist_of(F.lay, imm != 0, (int)(imm != 0 ? F.bn : F.bm));
}

static int64_t rv_len(const TkType *t) { return t->dims[0]; }

static unsigned dist_width(const Dist *d, int64_t len)
{
    return d->repl ? (unsigned)len : (unsigned)(len / d->period * d->nofs);
}

unsigned gpu_vector_width(GpuLower *g, const TirInstr *i)
{
    return dist_width(&g->dist[i->id], rv_len(i->type));
}

/* the lane bits a term reads */
static unsigned term_bits(TkLaneTerm t) { return t.mul ? (unsigned)t.mask << t.shift : 0; }

/* ---------------------------------------------------------------- checking */

static bool is_rv(const TirInstr *x) { return x->type && x->type->kind == TK_TY_RV; }   /* statements have no type */

/* element types reduced and broadcast: bf16 is computed in f32 and rounded once */
static bool float_vt(TkTypeKind k) { return k == TK_TY_F32 || gpu_half(k); }

static bool vector_elem(TkTypeKind k) { return k == TK_TY_F32 || gpu_half(k) || k == TK_TY_BOOL; }

static int refuse(GpuLower *g, const TirInstr *i, const TkType *t, const char *why)
{
    char ty[128], what[400];
    snprintf(what, sizeof what, "of %s (%s)", gpu_type_str(t, ty, sizeof ty), why);
    return gpu_not_supported(g, i, what);
}

/* a gl parameter of rank n addressed by exactly n coordinates */
static bool plain_gl(const TirInstr *x, unsigned ncoords)
{
    return x->op == TIR_PARAM && x->type->kind == TK_TY_GL && x->type->layout != TK_PACKED && ncoords == x->type->rank;
}

int gpu_vector_check(GpuLower *g, const TirInstr *i)
{
    switch (i->op) {
    case TIR_VAR: case TIR_FILL:
        if (!vector_elem(i->type->elem)) return refuse(g, i, i->type, "register vectors are f32, bf16 or bool");
        return 0;
    case TIR_MAP1: case TIR_MAP2: case TIR_MAP3:
        for (unsigned a = 0; a < i->nargs; a++)
            if (!is_rv(i->args[a]) && !tk_is_scalar(i->args[a]->type->kind))
                return refuse(g, i, i->args[a]->type, "a map giving an rv takes rv and scalar operands");
        return vector_elem(i->type->elem) ? 0 : refuse(g, i, i->type, "register vectors are f32, bf16 or bool");
    case TIR_LOAD: {
        const TirInstr *src = i->args[0];
        TkTypeKind ge = src->type->elem, te = i->type->elem;
        if (!plain_gl(src, i->nargs - 1u)) return refuse(g, i, src->type, "an rv is loaded from a gl tensor");
        if (!(ge == te || (te == TK_TY_F32 && (ge == TK_TY_BF16 || ge == TK_TY_F16))) || te == TK_TY_BOOL)
            return refuse(g, i, i->type, "loaded from a tensor of its element type, or f32 from bf16/f16");
        return 0;
    }
    case TIR_STORE: {
        const TirInstr *dst = i->args[0];
        if (!plain_gl(dst, i->nargs - 2u)) return refuse(g, i, dst->type, "an rv is stored into a gl tensor");
        if (dst->type->elem != i->args[1]->type->elem || dst->type->elem == TK_TY_BOOL)
            return refuse(g, i, i->args[1]->type, "stored into a tensor of its element type");
        return 0;
    }
    case TIR_REDUCE:
        if (i->aux != TIR_FN_ADD && i->aux != TIR_FN_MAX && i->aux != TIR_FN_MIN) return refuse(g, i, i->type, "sum, max or min");
        if (!float_vt(i->args[0]->type->elem)) return refuse(g, i, i->args[0]->type, "f32 and bf16 tiles and vectors are reduced");
        if (i->imm == 2) return 0;
        return gpu_role_of(i->args[0]->type) != ROLE_NONE ? 0 : refuse(g, i, i->args[0]->type, "register tiles are reduced");
    case TIR_BROADCAST:
        if (gpu_role_of(i->args[0]->type) == ROLE_NONE || !float_vt(i->args[0]->type->elem) ||
            i->args[1]->type->elem != i->args[0]->type->elem)
            return refuse(g, i, i->args[0]->type, "an rv is broadcast onto an f32 or bf16 register tile of its element type");
        return 0;
    case TIR_MASK:
        if (is_rv(i->args[0]) ? i->imm == 0 || i->args[0]->type->elem != TK_TY_F32 : gpu_role_of(i->args[0]->type) == ROLE_NONE)
            return refuse(g, i, i->args[0]->type, "register tiles and f32 vectors are masked");
        return 0;
    case TIR_TRI:
        return gpu_role_of(i->args[0]->type) != ROLE_NONE ? 0 : refuse(g, i, i->args[0]->type, "register tiles take tril/triu");
    default:
        return gpu_not_supported(g, i, NULL);
    }
}

/* ---------------------------------------------------------------- planning
 * Union-find over instruction ids: values that must share a distribution
 * are joined, then each class takes the one distribution its reductions and
 * broadcasts ask for, or replication if they ask for several or none. */

typedef struct {
    uint32_t *parent;
    Dist *want;        /* per root: what its members ask for */
    uint8_t *asked;    /* per root: 0 nothing, 1 want, 2 disagreement */
    int64_t *len;      /* per id: an rv's length, 0 for other values */
} Plan;

static uint32_t find(Plan *p, uint32_t x)
{
    while (p->parent[x] != x) x = p->parent[x] = p->parent[p->parent[x]];
    return x;
}

static void unite(Plan *p, const TirInstr *a, const TirInstr *b) { p->parent[find(p, a->id)] = find(p, b->id); }

static void ask(Plan *p, const TirInstr *x, Dist d)
{
    uint32_t r = find(p, x->id);
    if (p->asked[r] == 0) {
        p->want[r] = d;
        p->asked[r] = 1;
    } else if (p->asked[r] == 1 && !same_dist(&p->want[r], &d)) {
        p->asked[r] = 2;
    }
}

static void join_region(GpuLower *g, Plan *p, const TirRegion *r)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (is_rv(i)) p->len[i->id] = rv_len(i->type);
        switch (i->op) {
        case TIR_MAP1: case TIR_MAP2: case TIR_MAP3: case TIR_CONVERT: case TIR_MASK:
            if (!is_rv(i)) break;
            for (unsigned a = 0; a < i->nargs; a++)
                if (is_rv(i->args[a])) unite(p, i, i->args[a]);
            break;
        case TIR_GET:
            if (is_rv(i)) unite(p, i, i->args[0]);
            break;
        case TIR_SET:
            if (is_rv(i->args[0])) unite(p, i->args[0], i->args[1]);
            break;
        case TIR_FOR: case TIR_IF:
            join_region(g, p, &i->body[0]);
            join_region(g, p, &i->body[1]);
            break;
        default: break;
        }
    }
}

static void ask_region(GpuLower *g, Plan *p, const TirRegion *r)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_REDUCE && i->imm != 2) ask(p, i, tile_lines(g, i->args[0]->type, i->imm));
        if (i->op == TIR_BROADCAST) ask(p, i->args[1], tile_lines(g, i->args[0]->type, i->imm));
        if (i->op == TIR_FOR || i->op == TIR_IF) {
            ask_region(g, p, &i->body[0]);
            ask_region(g, p, &i->body[1]);
        }
    }
}

/* Can a row (column) reduction over tiles of this role be a butterfly? The
 * lanes that hold other columns of a row must differ only in bits the row
 * term does not read. */
static int check_lines(GpuLower *g, const TirRegion *r)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_REDUCE && i->imm != 2) {
            Frags F;
            gpu_frags_of(g->row, i->args[0]->type, &F);
            TkLaneTerm keep = i->imm == 0 ? F.lay->row : F.lay->col, across = i->imm == 0 ? F.lay->col : F.lay->row;
            if (term_bits(keep) & term_bits(across))
                return gpu_fail(g, i, "%s: the lanes of one %s of a %dx%d base tile are not a butterfly group; reductions need one",
                                g->cpu, i->imm == 0 ? "row" : "column", (int)F.bm, (int)F.bn);
        }
        if ((i->op == TIR_FOR || i->op == TIR_IF) && (check_lines(g, &i->body[0]) || check_lines(g, &i->body[1]))) return 1;
    }
    return 0;
}

int gpu_vector_plan(GpuLower *g, const TirFunc *f)
{
    if (g->row && check_lines(g, &f->body)) return 1;
    size_t n = g->count ? g->count : 1;
    Plan p = { calloc(n, sizeof *p.parent), calloc(n, sizeof *p.want), calloc(n, 1), calloc(n, sizeof *p.len) };
    if (!p.parent || !p.want || !p.asked || !p.len) {
        free(p.parent);
        free(p.want);
        free(p.asked);
        free(p.len);
        g->status = -1;
        snprintf(g->err, g->errlen, "out of memory");
        return -1;
    }
    for (uint32_t k = 0; k < g->count; k++) p.parent[k] = k;
    join_region(g, &p, &f->body);
    if (g->row) ask_region(g, &p, &f->body);
    for (uint32_t k = 0; k < g->count; k++) {
        uint32_t r = find(&p, k);
        if (p.asked[r] == 1) g->dist[k] = p.want[r];
        else if (p.asked[r] == 0 && p.len[k] > 0 && p.len[k] % g->wave == 0) g->dist[k] = strided(g->wave);
        else g->dist[k] = repl();
    }
    free(p.parent);
    free(p.want);
    free(p.asked);
    free(p.len);
    return 0;
}

/* ---------------------------------------------------------------- lanes */

static LLVMValueRef lane64(GpuLower *g) { return LLVMBuildZExt(g->e.b, g->lane, g->e.i64, ""); }

/* the vector element each of the lane's elements is: <w x i64> */
static LLVMValueRef element_index(GpuLower *g, const Dist *d, int64_t len)
{
    unsigned w = dist_width(d, len);
    LLVMValueRef *k = malloc(sizeof *k * w);
    if (!k) {
        g->status = -1;
        snprintf(g->err, g->errlen, "out of memory");
        return LLVMGetPoison(LLVMVectorType(g->e.i64, w ? w : 1));
    }
    for (unsigned p = 0; p < w; p++) k[p] = c64(g, d->repl ? (int64_t)p : (int64_t)(p / d->nofs) * d->period + d->ofs[p % d->nofs]);
    LLVMValueRef v = LLVMConstVector(k, w);
    free(k);
    if (!d->repl) v = LLVMBuildAdd(g->e.b, gpu_splat(g, gpu_lane_term(g, lane64(g), d->t), w), v, "elem");
    return v;
}

Cells gpu_vector_cells(GpuLower *g, const TirInstr *x, int64_t scale, LLVMValueRef add)
{
    const Dist *d = &g->dist[x->id];
    unsigned w = dist_width(d, rv_len(x->type));
    Cells c = { add, calloc(w ? w : 1, sizeof(int64_t)), w };
    if (!c.off) {
        g->status = -1;
        snprintf(g->err, g->errlen, "out of memory");
        return c;
    }
    for (unsigned p = 0; p < w; p++)
        c.off[p] = scale * (d->repl ? (int64_t)p : (int64_t)(p / d->nofs) * d->period + d->ofs[p % d->nofs]);
    if (!d->repl)
        c.at = LLVMBuildAdd(g->e.b, add, LLVMBuildMul(g->e.b, gpu_lane_term(g, lane64(g), d->t), c64(g, scale), ""), "cell");
    return c;
}

LLVMValueRef gpu_vector_elements(GpuLower *g, const TirInstr *x)
{
    return element_index(g, &g->dist[x->id], rv_len(x->type));
}

/* x (one element) of lane src, for every lane */
static LLVMValueRef shuffle(GpuLower *g, LLVMValueRef x, LLVMValueRef src)
{
    LLVMBuilderRef B = g->e.b;
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef bits = t == g->e.f32 ? LLVMBuildBitCast(B, x, g->e.i32, "") : LLVMBuildZExt(B, x, g->e.i32, "");
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, B, g->env };
    LLVMValueRef r = g->v->shuffle(&gb, bits, src);
    return t == g->e.f32 ? LLVMBuildBitCast(B, r, t, "") : LLVMBuildTrunc(B, r, t, "");
}

static LLVMValueRef elem(GpuLower *g, LLVMValueRef v, unsigned p) { return LLVMBuildExtractElement(g->e.b, v, c32(g, p), ""); }

/* v in distribution `from` as distribution `to` (len elements) */
static LLVMValueRef redistribute(GpuLower *g, LLVMValueRef v, const Dist *from, const Dist *to, int64_t len)
{
    LLVMBuilderRef B = g->e.b;
    if (same_dist(from, to)) return v;
    LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(v));
    if (!from->repl) {
        /* to every lane: element j from a lane that holds it, one shuffle each */
        LLVMValueRef all = LLVMGetPoison(LLVMVectorType(et, (unsigned)len));
        for (int64_t j = 0; j < len; j++) {
            int src = -1, at = -1;
            for (int l = 0; l < g->wave && src < 0; l++)
                for (int k = 0; k < from->nofs; k++)
                    if (tk_lane_term(from->t, l) + from->ofs[k] == j % from->period) {
                        src = l;
                        at = (int)(j / from->period) * from->nofs + k;
                        break;
                    }
            if (src < 0) {
                g->status = -1;
                snprintf(g->err, g->errlen, "internal error: no lane holds element %lld of a register vector", (long long)j);
                return v;
            }
            all = LLVMBuildInsertElement(B, all, shuffle(g, elem(g, v, (unsigned)at), c32(g, src)), c32(g, j), "");
        }
        v = all;
    }
    if (to->repl) return v;
    /* the lane's own elements out of the whole vector: element blk·period +
     * t(lane) + ofs[k], where only t(lane) = m·mul varies, over mask + 1
     * values. A select over those keeps the vector in registers (a dynamic
     * extractelement goes through local memory on NVPTX). */
    unsigned w = dist_width(to, len);
    LLVMValueRef m = LLVMBuildAnd(B, LLVMBuildLShr(B, g->lane, c32(g, to->t.shift), ""), c32(g, to->t.mask), "");
    LLVMValueRef out = LLVMGetPoison(LLVMVectorType(et, w));
    for (unsigned p = 0; p < w; p++) {
        int64_t base = (int64_t)(p / to->nofs) * to->period + to->ofs[p % to->nofs];
        LLVMValueRef x = elem(g, v, (unsigned)base);
        for (int64_t k = 1; to->t.mul && k <= to->t.mask && base + k * to->t.mul < len; k++)
            x = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, m, c32(g, k), ""), elem(g, v, (unsigned)(base + k * to->t.mul)), x, "");
        out = LLVMBuildInsertElement(B, out, x, c32(g, p), "");
    }
    return out;
}

/* ---------------------------------------------------------------- loads and stores */

/* Where each of the lane's elements of rv i is in gl tensor gt at coords[]
 * (the last one a tile coordinate), and whether this lane writes it. */
static Access vector_access(GpuLower *g, const TirInstr *i, const TkType *gt, const TirInstr *const *coords)
{
    LLVMBuilderRef B = g->e.b;
    const Dist *d = &g->dist[i->id];
    int64_t len = rv_len(i->type);
    unsigned w = dist_width(d, len), rank = gt->rank;
    Access A;
    LLVMValueRef ok = LLVMConstInt(g->e.i1, 1, 0), off = c64(g, 0), numel = c64(g, 1);
    for (unsigned k = 0; k < rank; k++) numel = LLVMBuildMul(B, numel, gpu_tensor_dim(g, gt, k), "");
    for (unsigned k = 0; k + 1 < rank; k++) {
        LLVMValueRef x = gpu_i64v(g, gpu_val(g, coords[k])), dim = gpu_tensor_dim(g, gt, k);
        ok = LLVMBuildAnd(B, ok, LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntSGE, x, c64(g, 0), ""), LLVMBuildICmp(B, LLVMIntSLT, x, dim, ""), ""), "");
        off = LLVMBuildAdd(B, LLVMBuildMul(B, off, dim, ""), x, "");
    }
    LLVMValueRef last = gpu_tensor_dim(g, gt, rank - 1);
    LLVMValueRef at = LLVMBuildAdd(B, gpu_splat(g, LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, coords[rank - 1])), c64(g, len), ""), w),
                                   element_index(g, d, len), "");
    LLVMValueRef m = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntSGE, at, LLVMConstNull(LLVMTypeOf(at)), ""),
                                  LLVMBuildICmp(B, LLVMIntSLT, at, gpu_splat(g, last, w), ""), "");
    A.mask = LLVMBuildAnd(B, m, gpu_splat(g, ok, w), "inbounds");
    A.idx = LLVMBuildAdd(B, gpu_splat(g, LLVMBuildMul(B, off, last, ""), w), at, "idx");
    A.nonempty = LLVMBuildICmp(B, LLVMIntSGT, numel, c64(g, 0), "");
    return A;
}

/* Where each of the lane's elements of rv i is in shared vector sv at its
 * sub-vector coordinate (none: the whole sv); masked inside the sv. */
static Access shared_vector_access(GpuLower *g, const TirInstr *i, const TkType *sv, const TirInstr *const *coords, bool has)
{
    LLVMBuilderRef B = g->e.b;
    const Dist *d = &g->dist[i->id];
    int64_t len = rv_len(i->type);
    unsigned w = dist_width(d, len);
    LLVMValueRef first = has ? LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, coords[0])), c64(g, len), "") : c64(g, 0);
    LLVMValueRef at = LLVMBuildAdd(B, gpu_splat(g, first, w), element_index(g, d, len), "");
    Access A;
    A.mask = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntSGE, at, LLVMConstNull(LLVMTypeOf(at)), ""),
                          LLVMBuildICmp(B, LLVMIntSLT, at, gpu_splat(g, c64(g, sv->dims[0]), w), ""), "insv");
    A.idx = at;
    A.nonempty = LLVMConstInt(g->e.i1, 1, 0);
    return A;
}

LLVMValueRef gpu_vector_load(GpuLower *g, const TirInstr *i)
{
    const TirInstr *src = i->args[0];
    bool sv = src->type->kind == TK_TY_SV;
    Access A = sv ? shared_vector_access(g, i, src->type, (const TirInstr *const *)&i->args[1], i->nargs > 1)
                  : vector_access(g, i, src->type, (const TirInstr *const *)&i->args[1]);
    unsigned w = gpu_width(g, i);
    if (g->status) return LLVMGetPoison(gpu_value_type(g, i));
    TkTypeKind ge = src->type->elem;
    bool widen = i->type->elem == TK_TY_F32 && ge != TK_TY_F32;
    LLVMValueRef v = gpu_gather(g, sv ? g->slots[src->id] : gpu_val(g, src), widen ? emit_scalar_type(&g->e, ge) : gpu_elem_type(g, ge), A, w);
    return widen ? LLVMBuildFPExt(g->e.b, v, LLVMVectorType(g->e.f32, w), "") : v;
}

/* Lanes holding copies of the same elements write once: a replicated vector
 * element p from lane p mod warp; a distributed one from the lanes whose
 * bits outside the distribution's term are 0. */
void gpu_vector_store(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *dst = i->args[0], *val = i->args[1];
    const Dist *d = &g->dist[val->id];
    unsigned w = gpu_width(g, val);
    bool sv = dst->type->kind == TK_TY_SV;
    Access A = sv ? shared_vector_access(g, val, dst->type, (const TirInstr *const *)&i->args[2], i->nargs > 2)
                  : vector_access(g, val, dst->type, (const TirInstr *const *)&i->args[2]);
    if (g->status) return;
    LLVMValueRef lane = lane64(g), mine;
    if (d->repl) {
        LLVMValueRef *k = malloc(sizeof *k * w);
        if (!k) return;
        for (unsigned p = 0; p < w; p++) k[p] = c64(g, p % (unsigned)g->wave);
        mine = LLVMBuildICmp(B, LLVMIntEQ, LLVMConstVector(k, w), gpu_splat(g, lane, w), "mine");
        free(k);
    } else {
        LLVMValueRef other = LLVMBuildAnd(B, lane, c64(g, (g->wave - 1) & ~(int64_t)term_bits(d->t)), "");
        mine = gpu_splat(g, LLVMBuildICmp(B, LLVMIntEQ, other, c64(g, 0), ""), w);
    }
    A.mask = LLVMBuildAnd(B, A.mask, mine, "");
    /* the lanes meet before and after: always for an sv (gpu_shared_store), for a gl as gpu_store_meet decides */
    if (sv) gpu_warp_sync(g);
    else gpu_store_meet(g, dst);
    gpu_scatter(g, sv ? g->slots[dst->id] : gpu_val(g, dst), gpu_elem_type(g, dst->type->elem), A, gpu_val(g, val), w);
    if (sv) gpu_warp_sync(g);
    else gpu_store_meet(g, dst);
}

/* ---------------------------------------------------------------- reductions */

static LLVMValueRef fold(GpuLower *g, TirFn fn, LLVMValueRef acc, LLVMValueRef x)
{
    return acc ? emit_fn(&g->e, fn, acc, x, false) : x;
}

/* acc combined with the acc of the lanes that differ in `bits`, butterfly
 * by butterfly: afterwards every lane of a group has the group's result */
static LLVMValueRef butterfly(GpuLower *g, TirFn fn, LLVMValueRef acc, unsigned bits)
{
    LLVMBuilderRef B = g->e.b;
    for (unsigned b = 1; b < (unsigned)g->wave; b <<= 1) {
        if (!(bits & b)) continue;
        LLVMValueRef src = LLVMBuildXor(B, g->lane, c32(g, b), "");
        unsigned w = LLVMGetVectorSize(LLVMTypeOf(acc));
        LLVMValueRef other = LLVMGetPoison(LLVMTypeOf(acc));
        for (unsigned p = 0; p < w; p++) other = LLVMBuildInsertElement(B, other, shuffle(g, elem(g, acc, p), src), c32(g, p), "");
        acc = emit_fn(&g->e, fn, acc, other, false);
    }
    return acc;
}

LLVMValueRef gpu_reduce(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    TirFn fn = (TirFn)i->aux;
    const TirInstr *x = i->args[0];
    LLVMValueRef v = gpu_val(g, x);
    TkTypeKind ek = x->type->elem;
    bool narrow = gpu_half(ek);   /* summed in f32, rounded once */
    v = gpu_widen(g, v, ek);
    if (i->imm == 2) {   /* a whole vector: the lane's elements, then the lanes that hold others */
        const Dist *d = &g->dist[x->id];
        LLVMValueRef acc = NULL;
        for (unsigned p = 0; p < gpu_width(g, x); p++) acc = fold(g, fn, acc, elem(g, v, p));
        if (!acc) acc = emit_const_float(&g->e, TK_TY_F32, 0.0);
        else if (!d->repl) {
            LLVMValueRef one = LLVMBuildInsertElement(B, LLVMGetPoison(LLVMVectorType(g->e.f32, 1)), acc, c32(g, 0), "");
            acc = elem(g, butterfly(g, fn, one, term_bits(d->t)), 0);
        }
        return narrow ? emit_convert_scalar(&g->e, acc, TK_TY_F32, i->type->kind) : acc;
    }
    /* rows (imm 0) or columns of a tile: the lane's elements of each of its
     * lines, in the natural distribution of those lines */
    bool cols = i->imm != 0;
    Frags F;
    gpu_frags_of(g->row, x->type, &F);
    Dist nat = tile_lines(g, x->type, i->imm);
    int64_t nblk = cols ? F.fcols : F.frows, len = rv_len(i->type);
    unsigned w = dist_width(&nat, len);
    LLVMValueRef part = LLVMGetPoison(LLVMVectorType(g->e.f32, w));
    for (int64_t blk = 0; blk < nblk; blk++)
        for (int k = 0; k < nat.nofs; k++) {
            LLVMValueRef acc = NULL;
            for (int64_t o = 0; o < (cols ? F.frows : F.fcols); o++) {
                int64_t frag = cols ? o * F.fcols + blk : blk * F.fcols + o;
                for (int e = 0; e < F.elems; e++)
                    if ((cols ? F.lay->col_of[e] : F.lay->row_of[e]) == nat.ofs[k])
                        acc = fold(g, fn, acc, elem(g, v, (unsigned)(frag * F.elems + e)));
            }
            part = LLVMBuildInsertElement(B, part, acc, c32(g, blk * nat.nofs + k), "");
        }
    TkLaneTerm across = cols ? F.lay->row : F.lay->col;
    part = butterfly(g, fn, part, term_bits(across) & ~term_bits(nat.t));
    LLVMValueRef r = redistribute(g, part, &nat, &g->dist[i->id], len);
    return gpu_narrow(g, r, ek);
}

/* ---------------------------------------------------------------- broadcasts and masks */

LLVMValueRef gpu_broadcast(GpuLower *g, const TirInstr *i)
{
    const TirInstr *t = i->args[0], *vx = i->args[1];
    bool cols = i->imm != 0;
    Frags F;
    gpu_frags_of(g->row, t->type, &F);
    Dist nat = tile_lines(g, t->type, i->imm);
    LLVMValueRef v = redistribute(g, gpu_val(g, vx), &g->dist[vx->id], &nat, rv_len(vx->type));
    /* each tile element's line: blk (its fragment row or column) and k (its offset's place in nat.ofs) */
    unsigned n = (unsigned)F.n;
    LLVMValueRef *mask = malloc(sizeof *mask * n);
    if (!mask) {
        g->status = -1;
        snprintf(g->err, g->errlen, "out of memory");
        return LLVMGetPoison(gpu_value_type(g, i));
    }
    for (unsigned p = 0; p < n; p++) {
        int64_t frag = p / F.elems, e = p % F.elems;
        int64_t blk = cols ? frag % F.fcols : frag / F.fcols;
        int16_t o = cols ? F.lay->col_of[e] : F.lay->row_of[e];
        int k = 0;
        while (nat.ofs[k] != o) k++;
        mask[p] = c32(g, blk * nat.nofs + k);
    }
    LLVMValueRef spread = LLVMBuildShuffleVector(g->e.b, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(mask, n), "bcast");
    free(mask);
    /* bf16 and f16: computed in f32 and rounded, as the maps do (gpu_elementwise.c) */
    TkTypeKind ek = t->type->elem;
    LLVMValueRef r = emit_fn(&g->e, (TirFn)i->aux, gpu_widen(g, gpu_val(g, t), ek), gpu_widen(g, spread, ek), false);
    return gpu_narrow(g, r, ek);
}

/* MASK: rows (imm 0) or columns (imm 1) at index >= k replaced by x; TRI:
 * tril (aux 0) keeps j - i <= k, triu keeps j - i >= k. */
LLVMValueRef gpu_mask(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *a = i->args[0];
    unsigned n = gpu_width(g, i);
    LLVMValueRef k = gpu_splat(g, gpu_i64v(g, gpu_val(g, i->args[1])), n), keep;
    LLVMValueRef x = gpu_elem_value(g, i->args[2], a->type->elem);
    if (is_rv(a)) {   /* a vector's elements are its columns */
        keep = LLVMBuildICmp(B, LLVMIntSLT, element_index(g, &g->dist[a->id], rv_len(a->type)), k, "");
    } else {
        LLVMValueRef r, c;
        gpu_tile_rc(g, a->type, &r, &c);
        if (i->op == TIR_TRI) keep = LLVMBuildICmp(B, i->aux == 0 ? LLVMIntSLE : LLVMIntSGE, LLVMBuildSub(B, c, r, ""), k, "");
        else keep = LLVMBuildICmp(B, LLVMIntSLT, i->imm == 0 ? r : c, k, "");
    }
    return LLVMBuildSelect(B, keep, gpu_val(g, a), gpu_splat(g, x, n), "masked");
}
