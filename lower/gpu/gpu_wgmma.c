/* gpu_wgmma.c — mma with B straight from a shared tile as Hopper's warpgroup
 * product (wgmma.mma_async, sm_90a), where the vendor has one.
 *
 * The language's mma is per warp: acc += a · b with three register tiles.
 * When b was just read from a shared tile (`b = load(Bs, i, j)`) and the
 * four warps of a warpgroup read the same part of it (coordinates that do
 * not depend on warp.id, in control flow that does not either), their four
 * products share B, and together they are wgmma's m64nNk16: warp w of the
 * group brings 16 rows of A in registers (the m16n8k16 A fragment, which the
 * base tile already is) and gets 16 rows of the accumulator (m16n8 C
 * fragments, 8 columns each, in wgmma's register order), B is read by the
 * tensor cores from shared memory through a matrix descriptor, and b is
 * never loaded. Which warp's rows are which is each warp's own business, so
 * the per-warp meaning of mma is kept exactly.
 *
 * The shared tiles are already in the layouts the descriptors describe
 * (gpu_swizzle.h): rows of 128 bytes (panels of them for wider rows), 64 or
 * 32 bytes, swizzled as the 128-, 64- and 32-byte modes are, each tile
 * where its pattern starts: 1024, 512 or 256 bytes (gpu_shared.c). An mma_ab's b (K×N) sits in the tile
 * with N along its rows: N-major (trans-b); an mma_abt's b (N×K) with K
 * along them: K-major. Descriptor fields (PTX ISA, wgmma matrix descriptor
 * and canonical layouts; W = the swizzle's row bytes, R = the tile's rows):
 *   K-major:  start = B's (n, k) element; SBO = 8·W (the next 8 N rows); LBO unused (16)
 *   N-major:  start = B's (k, n) element; SBO = 8·W (the next 8 K rows);
 *             LBO = R·W (the next panel of N)
 * The start of each 16-deep K slice (N ≤ 256, rt's limit: one wgmma wide) is where
 * gpu_swizzle.h puts its first element: the XOR is 0 there (8-aligned
 * rows), and a K-major slice starts 32·j bytes into its rows, which the
 * hardware swizzles from the address as the tile's own swizzle did.
 *
 * Each mma is one group: fence (registers and shared writes ordered before
 * it), the wgmmas, commit and wait. The wait right away gives up overlap of
 * one K step's products with the next step's loads by the same warps; the
 * cp.async of the next tiles still overlap (docs/ARCHITECTURE.md). Anything
 * else — b used again, a tile written between the load and the mma,
 * coordinates that depend on the warp, a layout the descriptors cannot
 * express — keeps the mma.sync lowering: never an error. */
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "gpu_internal.h"
#include "gpu_swizzle.h"

enum { UNIFORM_IV = 1, SKIP_LOAD = 2, AS_WGMMA = 4 };

/* v's value if it is an integer constant expression */
static bool const_int(const TirInstr *v, int64_t *out)
{
    int64_t a, b;
    if (v->op == TIR_CONST_INT) {
        *out = v->imm;
        return true;
    }
    if (v->op != TIR_BINARY || !const_int(v->args[0], &a) || !const_int(v->args[1], &b)) return false;
    switch (v->aux) {
    case TK_OP_ADD: *out = a + b; return true;
    case TK_OP_SUB: *out = a - b; return true;
    case TK_OP_MUL: *out = a * b; return true;
    case TK_OP_DIV: if (b == 0) return false; *out = a / b; return true;
    case TK_OP_MOD: if (b == 0) return false; *out = a % b; return true;
    default: return false;
    }
}

static bool uniform(const GpuLower *g, const TirFunc *f, const TirInstr *v, int depth);

static bool sets_var(const TirRegion *r, const TirInstr *var)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if ((i->op == TIR_SET || i->op == TIR_SET_ELEM) && i->args[0] == var) return true;
        if (sets_var(&i->body[0], var) || sets_var(&i->body[1], var)) return true;
    }
    return false;
}

/* every value set into scalar variable var in region r is uniform, and set
 * where every warp goes alike (`let wc = warp.id % 1;`, in a helper's body
 * under an if on constants) */
static bool uniform_sets(const GpuLower *g, const TirFunc *f, const TirRegion *r, const TirInstr *var, int depth)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_SET_ELEM && i->args[0] == var) return false;
        if (i->op == TIR_SET && i->args[0] == var && !uniform(g, f, i->args[1], depth + 1)) return false;
        if ((i->op == TIR_FOR || i->op == TIR_IF) && (sets_var(&i->body[0], var) || sets_var(&i->body[1], var))) {
            for (unsigned a = 0; a < (i->op == TIR_FOR ? 2u : 1u); a++)
                if (!uniform(g, f, i->args[a], depth + 1)) return false;
            if (!uniform_sets(g, f, &i->body[0], var, depth + 1) || !uniform_sets(g, f, &i->body[1], var, depth + 1)) return false;
        }
    }
    return true;
}

/* v is the same in every warp of the block: built from constants,
 * parameters, sizes, the block index, uniform loop indices and variables */
static bool uniform(const GpuLower *g, const TirFunc *f, const TirInstr *v, int depth)
{
    if (depth > 12) return false;   /* a chain of variables this long: assume not (and bound the search) */
    switch (v->op) {
    case TIR_CONST_INT: case TIR_CONST_FLOAT: case TIR_PARAM: case TIR_SIZE: case TIR_BLOCK_ID: return true;
    case TIR_LOOP_IV: return v->id < g->count && (g->wg[v->id] & UNIFORM_IV);
    case TIR_GET: return v->args[0]->op == TIR_VAR && tk_is_scalar(v->args[0]->type->kind) && uniform_sets(g, f, &f->body, v->args[0], depth);
    case TIR_BINARY: {
        /* x % 1 and x · 0 are 0 whatever x is: `warp.id % (BN / WN)` with one warp per row of the block */
        int64_t c;
        if (const_int(v->args[1], &c) && ((v->aux == TK_OP_MOD && c == 1) || (v->aux == TK_OP_MUL && c == 0))) return true;
    }
        /* fall through */
    case TIR_UNARY: case TIR_CAST: case TIR_CDIV: case TIR_MAP1: case TIR_MAP2: case TIR_MAP3:
        if (!tk_is_scalar(v->type->kind)) return false;
        for (unsigned a = 0; a < v->nargs; a++)
            if (!uniform(g, f, v->args[a], depth + 1)) return false;
        return true;
    default: return false;   /* warp.id, elements of tiles */
    }
}

static unsigned uses_in(const TirRegion *r, const TirInstr *x)
{
    unsigned n = 0;
    for (const TirInstr *i = r->first; i; i = i->next) {
        for (unsigned a = 0; a < i->nargs; a++) n += i->args[a] == x;
        n += uses_in(&i->body[0], x) + uses_in(&i->body[1], x);
    }
    return n;
}

/* The swizzle's row bytes W of st (128 for panels), or 0 if wgmma cannot
 * read it: rows of 128·k, 64 or 32 bytes of 16-bit elements. */
static int64_t desc_row_bytes(const TkType *st)
{
    return st->kind == TK_TY_ST && gpu_half(st->elem) ? tk_swizzle_nvidia_bytes(st->dims[1], 2) : 0;
}

/* The load of mma i's b: b itself, or the one value set into the variable
 * b reads (`rt<...> b = load(Bs, ...)` is a VAR, a SET and a GET), with
 * *set the SET (else NULL); NULL if b is neither. */
static const TirInstr *b_load(const TirFunc *f, const TirInstr *i, const TirInstr **set)
{
    const TirInstr *b = i->args[2];
    *set = NULL;
    if (b->op == TIR_LOAD) return uses_in(&f->body, b) == 1 ? b : NULL;
    if (b->op != TIR_GET || b->args[0]->op != TIR_VAR || uses_in(&f->body, b) != 1) return NULL;
    const TirInstr *var = b->args[0], *s = NULL;
    /* the variable: declared, set once and read once (here) */
    if (uses_in(&f->body, var) != 2) return NULL;
    for (const TirInstr *x = i->prev; x && !s; x = x->prev)
        if (x->op == TIR_SET && x->args[0] == var) s = x;
    if (!s || s->args[1]->op != TIR_LOAD || uses_in(&f->body, s->args[1]) != 1) return NULL;
    *set = s;
    return s->args[1];
}

/* Is mma i a warpgroup product? (see the top of the file) */
static bool eligible(GpuLower *g, const TirFunc *f, const TirInstr *i, const TirInstr **load, const TirInstr **set)
{
    const TkGpuMma *r = g->row;
    const TirInstr *acc = i->args[0], *a = i->args[1], *b = *load = b_load(f, i, set);
    if (!b || !r || r->m != 16 || r->n != 8 || r->k != 16 || !gpu_half(r->operand) || (i->aux & 2)) return false;
    if (gpu_role_of(a->type) != ROLE_A || gpu_role_of(acc->type) != ROLE_C || a->type->elem != r->operand) return false;
    if (b->type->kind != TK_TY_RT || b->type->elem != r->operand || b->parent != i->parent) return false;
    const TkType *st = b->args[0]->type, *bt = b->type;
    int64_t W = desc_row_bytes(st);
    if (!W || st->elem != bt->elem) return false;
    bool k_major = i->aux & 1;
    int64_t K = k_major ? bt->dims[1] : bt->dims[0], N = acc->type->dims[1];
    if (K % 16 || N % 8 || N > 256 || acc->type->dims[0] % 16) return false;
    /* N-major: a sub-tile starts at a swizzle row's first column */
    if (!k_major && (N % (W / 2) != 0 && N != st->dims[1])) return false;
    for (unsigned c = 1; c < b->nargs; c++)
        if (!uniform(g, f, b->args[c], 0)) return false;
    /* nothing between the load and the mma writes shared memory or waits */
    for (const TirInstr *x = b->next; x && x != i; x = x->next)
        if (x->op == TIR_SYNC || x->op == TIR_STORE || x->op == TIR_FOR || x->op == TIR_IF ||
            (x->op == TIR_SET && x != *set && tk_is_shared(x->args[0]->type->kind)))
            return false;
    return true;
}

static void plan(GpuLower *g, const TirFunc *f, const TirRegion *r, bool uniform_flow)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_FOR) {
            bool u = uniform_flow && uniform(g, f, i->args[0], 0) && uniform(g, f, i->args[1], 0);
            if (u && i->iv) g->wg[i->iv->id] |= UNIFORM_IV;
            plan(g, f, &i->body[0], u);
        } else if (i->op == TIR_IF) {
            bool u = uniform_flow && uniform(g, f, i->args[0], 0);
            plan(g, f, &i->body[0], u);
            plan(g, f, &i->body[1], u);
        } else if (i->op == TIR_MMA && uniform_flow) {
            const TirInstr *load, *set;
            if (!eligible(g, f, i, &load, &set)) continue;
            g->wg[i->id] |= AS_WGMMA;
            g->wg[load->id] |= SKIP_LOAD;
            if (set) g->wg[set->id] |= SKIP_LOAD;
            g->wgmma_any = true;
        }
    }
}

int gpu_wgmma_plan(GpuLower *g, const TirFunc *f)
{
    free(g->wg);
    g->wg = NULL;
    g->wgmma_any = false;
    int64_t warps = f->warps > 0 ? f->warps : 1;
    if (!g->v->wgmma || !g->v->wgmma_ok(g->cpu) || warps % 4 || g->wave != 32) return 0;
    g->wg = calloc(g->count ? g->count : 1, 1);
    if (!g->wg) {
        g->status = -1;
        snprintf(g->err, g->errlen, "out of memory");
        return -1;
    }
    plan(g, f, &f->body, true);
    return 0;
}

bool gpu_wgmma_skips(const GpuLower *g, const TirInstr *i) { return g->wg && i->id < g->count && (g->wg[i->id] & SKIP_LOAD); }
bool gpu_wgmma_takes(const GpuLower *g, const TirInstr *i) { return g->wg && i->id < g->count && (g->wg[i->id] & AS_WGMMA); }

static LLVMValueRef desc_of(GpuLower *g, LLVMValueRef start, int64_t lbo, int64_t sbo, int64_t W)
{
    LLVMBuilderRef B = g->e.b;
    int64_t mode = W == 128 ? 1 : W == 64 ? 2 : 3;
    uint64_t fixed = ((uint64_t)(lbo >> 4 & 0x3fff) << 16) | ((uint64_t)(sbo >> 4 & 0x3fff) << 32) | ((uint64_t)mode << 62);
    LLVMValueRef addr = LLVMBuildAnd(B, LLVMBuildLShr(B, start, c64(g, 4), ""), c64(g, 0x3fff), "");
    return LLVMBuildOr(B, addr, LLVMConstInt(g->e.i64, fixed, 0), "desc");
}

void gpu_wgmma(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *slot = i->args[0], *set, *b = b_load(g->f, i, &set);
    const TkType *ct = slot->type, *st = b->args[0]->type, *bt = b->type;
    bool k_major = i->aux & 1, f16 = g->row->operand == TK_TY_F16;
    int64_t W = desc_row_bytes(st), R = st->dims[0];
    int64_t M = ct->dims[0], N = ct->dims[1], K = k_major ? bt->dims[1] : bt->dims[0];
    int64_t mt = M / 16, nt = N / 8, kt = K / 16;
    /* the loaded sub-tile's first row and column in the shared tile */
    bool has = b->nargs > 2;
    LLVMValueRef r0 = has ? LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, b->args[1])), c64(g, bt->dims[0]), "") : c64(g, 0);
    LLVMValueRef c0 = has ? LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, b->args[2])), c64(g, bt->dims[1]), "") : c64(g, 0);
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    LLVMValueRef base = g->v->shared_address(&gb, g->slots[b->args[0]->id]);
    LLVMValueRef a = gpu_val(g, i->args[1]);   /* A fragments (16x16 each: frows = mt, fcols = kt) */
    LLVMTypeRef cty = gpu_tile_type(g, ct);
    LLVMValueRef acc = LLVMBuildLoad2(B, cty, g->slots[slot->id], "acc");
    LLVMValueRef d[128];
    g->v->wgmma_begin(&gb);
    for (int64_t fk = 0; fk < kt; fk++) {
        /* where this K slice starts: (n, k) or (k, n) of the shared tile (N ≤ 256: one wgmma wide) */
        LLVMValueRef row = LLVMBuildAdd(B, r0, c64(g, k_major ? 0 : 16 * fk), ""), col = LLVMBuildAdd(B, c0, c64(g, k_major ? 16 * fk : 0), "");
        LLVMValueRef start = LLVMBuildAdd(B, base, LLVMBuildMul(B, gpu_st_index(g, st, row, col), c64(g, 2), ""), "");
        LLVMValueRef desc = desc_of(g, start, k_major ? 16 : R * W, 8 * W, W);
        for (int64_t fi = 0; fi < mt; fi++) {
            LLVMValueRef fa = LLVMBuildBitCast(B, gpu_sub_vector(g, a, (fi * kt + fk) * 8, 8), LLVMVectorType(g->e.i32, 4), "");
            int64_t off = fi * nt * 4;
            for (int64_t q = 0; q < N / 2; q++) d[q] = LLVMBuildExtractElement(B, acc, c32(g, off + q), "");
            g->v->wgmma(&gb, (int)N, f16, !k_major, fa, desc, d);
            for (int64_t q = 0; q < N / 2; q++) acc = LLVMBuildInsertElement(B, acc, d[q], c32(g, off + q), "");
        }
    }
    g->v->wgmma_end(&gb);
    LLVMBuildStore(B, acc, g->slots[slot->id]);
}
