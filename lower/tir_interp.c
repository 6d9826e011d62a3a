/* tir_interp.c — see tir_interp.h.
 *
 * This file holds the entry point, the compile step, the block/warp schedule,
 * control flow, slots and the scalar ops; the tile and vector ops are in
 * tir_interp_tiles.c, the state both share in tir_interp_internal.h.
 *
 * The function is first "compiled" into a flat table of nodes (one per
 * instruction, numbered like the TIR dump: grid region, then body, pre-order,
 * a FOR's induction value just before it) with operand indices, region lists,
 * per-node flags and, per region position, the list of values whose last use
 * is there (they are freed after it). Then the grid is evaluated and every
 * block runs the body under the segment rule described in tir_interp.h.
 *
 * Values live in one table per warp; slots in one table per warp (per-warp
 * slots) or one for the block (st/sv). A GET of a tile whose value is read
 * only by value ops right after it, with no statement in between, borrows the
 * slot's storage instead of copying it (element reads of big tiles stay cheap). */
#include "tir_interp.h"
#include "tir_interp_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "checker.h"

/* ------------------------------------------------------------------ rounding */

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

double tir_round_bf16(double x)
{
    float f = (float)x;
    if (isnan(f)) return (double)f;
    uint32_t u = f32_bits(f);
    u += 0x7FFFu + ((u >> 16) & 1u);   /* RNE to the top 16 bits; overflows into inf correctly */
    u &= 0xFFFF0000u;
    return (double)bits_f32(u);
}

static uint16_t f32_to_f16_bits(float f)
{
    uint32_t x = f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t a = x & 0x7FFFFFFFu;
    if (a >= 0x7F800000u) return (uint16_t)(sign | 0x7C00u | (a > 0x7F800000u ? 0x200u : 0u));   /* inf, NaN */
    if (a >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);   /* >= 65520: rounds to inf */
    uint32_t e = a >> 23;
    if (e < 113) {   /* below 2^-14: a subnormal half (or zero) */
        uint32_t shift = 126 - e;   /* value = m·2^(e-150), unit 2^-24 */
        if (shift > 24) return sign;
        uint32_t m = (a & 0x7FFFFFu) | 0x800000u;
        uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1u))) q++;
        return (uint16_t)(sign | q);
    }
    uint32_t mant = a & 0x7FFFFFu;
    uint32_t h = ((e - 112u) << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
    return (uint16_t)(sign | h);
}

static double f16_bits_to_double(uint16_t h)
{
    int sign = h & 0x8000 ? -1 : 1;
    unsigned e = (h >> 10) & 0x1F, m = h & 0x3FF;
    if (e == 0) return sign * ldexp((double)m, -24);
    if (e == 31) return m ? (double)NAN : sign * (double)INFINITY;
    return sign * ldexp((double)(m | 0x400), (int)e - 25);
}

double tir_round_f16(double x)
{
    float f = (float)x;
    if (isnan(f)) return (double)f;
    return f16_bits_to_double(f32_to_f16_bits(f));
}

/* ------------------------------------------------------------------ integers */

int64_t ti_u2i(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

int64_t ti_wrap_to(TkTypeKind k, int64_t v)
{
    if (k == TK_TY_I32) {
        uint32_t u = (uint32_t)(uint64_t)v;
        return u >= 0x80000000u ? (int64_t)u - 0x100000000LL : (int64_t)u;
    }
    if (k == TK_TY_BOOL) return v != 0;
    return v;
}

int64_t ti_int_div(int64_t a, int64_t b)
{
    if (b == 0) return 0;
    if (b == -1) return ti_u2i(0 - (uint64_t)a);
    return a / b;
}

static int64_t int_mod(int64_t a, int64_t b)
{
    if (b == 0 || b == -1) return 0;
    return a % b;
}

static int64_t float_to_int(TkTypeKind k, double v)
{
    if (isnan(v)) return 0;
    if (k == TK_TY_I32) {
        if (v >= 2147483647.0) return INT32_MAX;
        if (v <= -2147483648.0) return INT32_MIN;
        return (int64_t)v;
    }
    if (v >= 9223372036854775807.0) return INT64_MAX;   /* 2^63 */
    if (v <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)v;
}

/* ------------------------------------------------------------------ errors, memory */

void ti_fail(Interp *I, const Node *x, const char *fmt, ...)
{
    if (I->failed) return;
    I->failed = true;
    if (!I->err || !I->errlen) return;
    int n = 0;
    if (x) n = snprintf(I->err, I->errlen, "kernel %s: %%%u %s: ", I->f->name, x->id, tir_op_name(x->op));
    else n = snprintf(I->err, I->errlen, "kernel %s: ", I->f->name);
    if (n < 0) n = 0;
    if ((size_t)n < I->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(I->err + n, I->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
}

static void *xcalloc(Interp *I, size_t n, size_t size)
{
    if (n && size > SIZE_MAX / n) {
        ti_fail(I, NULL, "out of memory");
        return NULL;
    }
    size_t total = n * size;
    if (total > TIR_INTERP_MAX_BYTES - I->bytes) {
        ti_fail(I, NULL, "the interpreter needs more than %zu MiB", (size_t)(TIR_INTERP_MAX_BYTES >> 20));
        return NULL;
    }
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        ti_fail(I, NULL, "out of memory");
        return NULL;
    }
    I->bytes += total;
    return p;
}

static void xfree(Interp *I, void *p, size_t n, size_t size)
{
    if (!p) return;
    free(p);
    I->bytes -= n * size;
}

/* --------------------------------------------------------- pointer → node map */

static size_t hslot(const Interp *I, const TirInstr *p)
{
    uintptr_t h = (uintptr_t)p;
    h ^= h >> 17;
    h *= (uintptr_t)0x9E3779B97F4A7C15ull;
    return (size_t)(h ^ (h >> 29)) & (I->hcap - 1);
}

static bool hput(Interp *I, const TirInstr *p, uint32_t v)
{
    size_t k = hslot(I, p);
    while (I->hkeys[k]) {
        if (I->hkeys[k] == p) return false;   /* an instruction reached twice */
        k = (k + 1) & (I->hcap - 1);
    }
    I->hkeys[k] = p;
    I->hvals[k] = v;
    return true;
}

static uint32_t hget(const Interp *I, const TirInstr *p)
{
    size_t k = hslot(I, p);
    while (I->hkeys[k]) {
        if (I->hkeys[k] == p) return I->hvals[k];
        k = (k + 1) & (I->hcap - 1);
    }
    return NEVER;
}

/* ------------------------------------------------------------------ compile */

static uint32_t count_region(const TirRegion *r, int depth, bool *too_deep)
{
    uint32_t n = 0;
    if (depth > 1000) {
        *too_deep = true;
        return 0;
    }
    for (const TirInstr *i = r->first; i; i = i->next) {
        n += 1 + (i->iv ? 1 : 0);
        if (i->op == TIR_FOR || i->op == TIR_IF) {
            n += count_region(&i->body[0], depth + 1, too_deep);
            n += count_region(&i->body[1], depth + 1, too_deep);
        }
        if (n > 50000000) {
            *too_deep = true;
            return n;
        }
    }
    return n;
}

static void set_type(Interp *I, Node *x, const TkType *t)
{
    if (!t) {
        x->vk = VK_NONE;
        return;
    }
    switch (t->kind) {
    case TK_TY_BOOL: x->vk = VK_BOOL; x->elem = t->kind; break;
    case TK_TY_I32: case TK_TY_I64: x->vk = VK_INT; x->elem = t->kind; break;
    case TK_TY_F32: case TK_TY_F16: case TK_TY_BF16: x->vk = VK_FLOAT; x->elem = t->kind; break;
    case TK_TY_RT: case TK_TY_ST:
    case TK_TY_RV: case TK_TY_SV:
        x->vk = VK_TILE;
        x->elem = t->elem;
        x->vec = tk_is_vec(t->kind);
        x->rows = t->dims[0];
        x->cols = x->vec ? 1 : t->dims[1];
        x->shared_type = tk_is_shared(t->kind);
        if (x->rows <= 0 || x->cols <= 0 || x->rows > 65536 || x->cols > 65536 ||
            (x->elem != TK_TY_F32 && x->elem != TK_TY_F16 && x->elem != TK_TY_BF16)) {
            ti_fail(I, x, "unsupported tile type");
            return;
        }
        x->n = x->rows * x->cols;
        break;
    case TK_TY_GL: x->vk = VK_TENSOR; x->elem = t->elem; break;
    default:
        x->vk = VK_NONE;
        ti_fail(I, x, "value of unsupported type %s", tk_type_kind_name(t->kind));
        break;
    }
}


static uint32_t region_length(const TirRegion *r)
{
    uint32_t n = 0;
    for (const TirInstr *i = r->first; i; i = i->next) n++;
    return n;
}

/* Numbers the instructions of region r (id R, held by node `owner`) and the
 * regions below it; `*next` and `*nextr` are the next free node and region. */
static void number(Interp *I, const TirRegion *r, uint32_t R, uint32_t owner, uint32_t *next, uint32_t *nextr)
{
    Region *reg = &I->regions[R];
    reg->owner = owner;
    reg->count = region_length(r);
    reg->items = calloc(reg->count ? reg->count : 1, sizeof *reg->items);
    if (!reg->items) {
        ti_fail(I, NULL, "out of memory");
        return;
    }
    uint32_t p = 0;
    for (const TirInstr *i = r->first; i && !I->failed; i = i->next, p++) {
        uint32_t ivx = NEVER;
        if (i->iv) {
            ivx = (*next)++;
            I->nodes[ivx].ti = i->iv;
            if (!hput(I, i->iv, ivx)) ti_fail(I, NULL, "instruction %p reached twice", (const void *)i->iv);
        }
        uint32_t x = (*next)++;
        Node *n = &I->nodes[x];
        n->ti = i;
        n->region = R;
        n->pos = p;
        n->iv = ivx;
        n->body[0] = n->body[1] = NO_REGION;
        reg->items[p] = x;
        if (!hput(I, i, x)) ti_fail(I, NULL, "instruction %p reached twice", (const void *)i);
        if (i->op == TIR_FOR || i->op == TIR_IF) {
            n->body[0] = (*nextr)++;
            n->body[1] = (*nextr)++;
            if (ivx != NEVER) I->nodes[ivx].region = n->body[0];
            number(I, &i->body[0], n->body[0], x, next, nextr);
            number(I, &i->body[1], n->body[1], x, next, nextr);
        }
    }
}

static uint32_t count_regions(const TirRegion *r)
{
    uint32_t n = 0;
    for (const TirInstr *i = r->first; i; i = i->next)
        if (i->op == TIR_FOR || i->op == TIR_IF) n += 2 + count_regions(&i->body[0]) + count_regions(&i->body[1]);
    return n;
}

static bool is_value_op(TirOp op)
{
    return !tir_is_statement(op);
}

/* Position, in region R, of the instruction of R that contains node u (u itself
 * if it is in R); NEVER if R does not enclose u. */
static uint32_t ancestor_pos(const Interp *I, uint32_t u, uint32_t R)
{
    const Node *n = &I->nodes[u];
    uint32_t reg = n->region, pos = n->pos;
    if (n->op == TIR_LOOP_IV) return NEVER;
    while (reg != R) {
        uint32_t owner = I->regions[reg].owner;
        if (owner == NEVER) return NEVER;
        reg = I->nodes[owner].region;
        pos = I->nodes[owner].pos;
    }
    return pos;
}

static int compile(Interp *I)
{
    const TirFunc *f = I->f;
    bool too_deep = false;
    uint32_t n = count_region(&f->grid_region, 0, &too_deep);
    n += count_region(&f->body, 0, &too_deep);
    if (too_deep) {
        ti_fail(I, NULL, "the function is too large or nested too deeply");
        return -1;
    }
    I->nnodes = n;
    I->nregions = 2 + count_regions(&f->grid_region) + count_regions(&f->body);
    I->nodes = calloc(n ? n : 1, sizeof *I->nodes);
    I->regions = calloc(I->nregions, sizeof *I->regions);
    I->hcap = 16;
    while (I->hcap < 2 * (size_t)n + 2) I->hcap *= 2;
    I->hkeys = calloc(I->hcap, sizeof *I->hkeys);
    I->hvals = calloc(I->hcap, sizeof *I->hvals);
    if (!I->nodes || !I->regions || !I->hkeys || !I->hvals) {
        ti_fail(I, NULL, "out of memory");
        return -1;
    }
    uint32_t next = 0, nextr = 2;
    I->grid_region = 0;
    I->body_region = 1;
    number(I, &f->grid_region, 0, NEVER, &next, &nextr);
    number(I, &f->body, 1, NEVER, &next, &nextr);
    if (I->failed) return -1;

    /* operands, types, flags */
    uint32_t nusers = 0;
    for (uint32_t x = 0; x < n && !I->failed; x++) {
        Node *nd = &I->nodes[x];
        const TirInstr *ti = nd->ti;
        nd->id = x;
        nd->op = ti->op;
        nd->last = NEVER;
        if ((unsigned)ti->op >= TIR_NUM_OPS) {
            ti_fail(I, nd, "unknown op %d", (int)ti->op);
            break;
        }
        nd->nargs = ti->nargs > TIR_MAX_ARGS ? TIR_MAX_ARGS : ti->nargs;
        for (unsigned k = 0; k < nd->nargs; k++) {
            uint32_t a = ti->args[k] ? hget(I, ti->args[k]) : NEVER;
            if (a == NEVER) {
                ti_fail(I, nd, "operand %u is not an instruction of this function", k);
                break;
            }
            if (a >= x) {
                ti_fail(I, nd, "operand %%%u is used before its definition", a);
                break;
            }
            nd->args[k] = a;
            nusers++;
        }
        if (ti->op == TIR_VAR || is_value_op(ti->op)) set_type(I, nd, ti->type);
        if (is_value_op(ti->op)) nd->flags |= NF_VALUE;
        if (tir_is_barrier(ti)) nd->flags |= NF_BARRIER;
        if (ti->op == TIR_FOR && nd->iv == NEVER) ti_fail(I, nd, "FOR without an induction value");
        if (nd->op == TIR_VAR && nd->vk == VK_TILE && nd->shared_type) nd->flags |= NF_SHARED;
    }
    if (I->failed) return -1;
    for (uint32_t x = 0; x < n; x++)
        if (I->nodes[x].op == TIR_LOOP_IV && I->nodes[x].vk != VK_INT) {
            ti_fail(I, &I->nodes[x], "induction value must be an integer");
            return -1;
        }

    /* users (CSR) */
    I->users_off = calloc((size_t)n + 1, sizeof *I->users_off);
    I->users = calloc(nusers ? nusers : 1, sizeof *I->users);
    if (!I->users_off || !I->users) {
        ti_fail(I, NULL, "out of memory");
        return -1;
    }
    for (uint32_t x = 0; x < n; x++)
        for (unsigned k = 0; k < I->nodes[x].nargs; k++) I->users_off[I->nodes[x].args[k] + 1]++;
    for (uint32_t x = 0; x < n; x++) I->users_off[x + 1] += I->users_off[x];
    {
        uint32_t *fill = calloc(n ? n : 1, sizeof *fill);
        if (!fill) {
            ti_fail(I, NULL, "out of memory");
            return -1;
        }
        for (uint32_t x = 0; x < n; x++)
            for (unsigned k = 0; k < I->nodes[x].nargs; k++) {
                uint32_t a = I->nodes[x].args[k];
                I->users[I->users_off[a] + fill[a]++] = x;
            }
        free(fill);
    }

    /* liveness: a value dies after the instruction of its region holding its last use */
    for (uint32_t x = 0; x < n; x++) {
        Node *nd = &I->nodes[x];
        if (!(nd->flags & NF_VALUE) || nd->op == TIR_LOOP_IV) continue;
        nd->last = nd->pos;
        for (uint32_t u = I->users_off[x]; u < I->users_off[x + 1]; u++) {
            uint32_t p = ancestor_pos(I, I->users[u], nd->region);
            if (p == NEVER) {
                ti_fail(I, &I->nodes[I->users[u]], "operand %%%u is defined in a region that does not enclose this use", x);
                return -1;
            }
            if (p > nd->last) nd->last = p;
        }
    }
    for (unsigned k = 0; k < f->grid_rank; k++) {
        uint32_t g = f->grid[k] ? hget(I, f->grid[k]) : NEVER;
        if (g == NEVER || I->nodes[g].region != I->grid_region || I->nodes[g].vk != VK_INT) {
            ti_fail(I, NULL, "grid value %u is not an integer of the grid region", k);
            return -1;
        }
        I->nodes[g].last = NEVER;
    }
    for (uint32_t R = 0; R < I->nregions; R++) {
        Region *reg = &I->regions[R];
        reg->free_off = calloc((size_t)reg->count + 2, sizeof *reg->free_off);
        if (!reg->free_off) {
            ti_fail(I, NULL, "out of memory");
            return -1;
        }
        uint32_t total = 0;
        for (uint32_t p = 0; p < reg->count; p++) {
            const Node *nd = &I->nodes[reg->items[p]];
            if ((nd->flags & NF_VALUE) && nd->last != NEVER) {
                reg->free_off[nd->last + 1]++;
                total++;
            }
        }
        for (uint32_t p = 0; p < reg->count; p++) reg->free_off[p + 1] += reg->free_off[p];
        reg->free_nodes = calloc(total ? total : 1, sizeof *reg->free_nodes);
        uint32_t *fill = calloc((size_t)reg->count + 1, sizeof *fill);
        if (!reg->free_nodes || !fill) {
            free(fill);
            ti_fail(I, NULL, "out of memory");
            return -1;
        }
        for (uint32_t p = 0; p < reg->count; p++) {
            uint32_t x = reg->items[p];
            const Node *nd = &I->nodes[x];
            if ((nd->flags & NF_VALUE) && nd->last != NEVER) reg->free_nodes[reg->free_off[nd->last] + fill[nd->last]++] = x;
        }
        free(fill);
    }

    /* block-collective statements run in warp 0 only */
    for (uint32_t x = 0; x < n; x++) {
        Node *nd = &I->nodes[x];
        if (nd->op == TIR_VAR && (nd->flags & NF_SHARED)) nd->flags |= NF_W0ONLY;
        if (nd->op == TIR_SET && nd->nargs == 2) {
            const Node *slot = &I->nodes[nd->args[0]], *val = &I->nodes[nd->args[1]];
            if ((slot->flags & NF_SHARED) && (val->op == TIR_LOAD || val->op == TIR_FILL)) nd->flags |= NF_W0ONLY;
        }
        if (nd->op == TIR_STORE && nd->nargs >= 2) {
            const Node *dst = &I->nodes[nd->args[0]], *src = &I->nodes[nd->args[1]];
            if (dst->vk == VK_TENSOR && src->vk == VK_TILE && src->shared_type) nd->flags |= NF_W0ONLY;
        }
    }
    /* ... and so do the values only they (or barrier conditions/bounds) need */
    for (uint32_t x = n; x-- > 0;) {
        Node *nd = &I->nodes[x];
        if (!(nd->flags & NF_VALUE) || nd->op == TIR_LOOP_IV) continue;
        if (I->users_off[x] == I->users_off[x + 1]) continue;
        if (f->grid_rank && nd->region == I->grid_region) continue;
        bool only0 = true;
        for (uint32_t u = I->users_off[x]; u < I->users_off[x + 1] && only0; u++) {
            const Node *un = &I->nodes[I->users[u]];
            if (!(un->flags & NF_W0ONLY) && !((un->op == TIR_FOR || un->op == TIR_IF) && (un->flags & NF_BARRIER)))
                only0 = false;
        }
        if (only0) nd->flags |= NF_W0ONLY;
    }
    /* GETs of tiles read only by the value ops right after them borrow the slot */
    for (uint32_t x = 0; x < n; x++) {
        Node *nd = &I->nodes[x];
        if (nd->op != TIR_GET || nd->vk != VK_TILE || I->users_off[x] == I->users_off[x + 1]) continue;
        bool ok = true;
        uint32_t maxpos = nd->pos;
        for (uint32_t u = I->users_off[x]; u < I->users_off[x + 1] && ok; u++) {
            const Node *un = &I->nodes[I->users[u]];
            if (!(un->flags & NF_VALUE) || un->region != nd->region) ok = false;
            else if (un->pos > maxpos) maxpos = un->pos;
        }
        const Region *reg = &I->regions[nd->region];
        for (uint32_t p = nd->pos + 1; ok && p < maxpos; p++)
            if (!(I->nodes[reg->items[p]].flags & NF_VALUE)) ok = false;
        if (ok) nd->flags |= NF_BORROW;
    }
    return I->failed ? -1 : 0;
}

/* ------------------------------------------------------------------ values */

static void val_clear(Interp *I, Val *v, const Node *nd)
{
    if (v->owned && v->d) xfree(I, v->d, (size_t)nd->n, sizeof(double));
    v->d = NULL;
    v->owned = false;
    v->present = false;
}

Val *ti_out_val(Interp *I, const Node *x, int64_t w)
{
    Val *o = &I->vals[w][x - I->nodes];
    val_clear(I, o, x);
    if (x->vk == VK_TILE) {
        o->d = xcalloc(I, (size_t)x->n, sizeof(double));
        if (!o->d) return NULL;
        o->owned = true;
    }
    o->f = 0;
    o->i = 0;
    o->present = true;
    return o;
}

const Val *ti_opnd(Interp *I, const Node *x, unsigned k, int64_t w)
{
    if (k >= x->nargs) {
        ti_fail(I, x, "missing operand %u", k);
        return NULL;
    }
    const Val *v = &I->vals[w][x->args[k]];
    if (!v->present) {
        ti_fail(I, x, "operand %%%u has no value here (a value used across a barrier?)", I->nodes[x->args[k]].id);
        return NULL;
    }
    return v;
}

const Node *ti_arg_node(const Interp *I, const Node *x, unsigned k)
{
    return &I->nodes[x->args[k]];
}

double ti_as_f(const Node *n, const Val *v)
{
    return n->vk == VK_FLOAT ? v->f : (double)v->i;
}

/* An integer operand (coordinates, bounds, k/n of tri/mask). */
bool ti_int_opnd(Interp *I, const Node *x, unsigned k, int64_t w, int64_t *out)
{
    const Val *v = ti_opnd(I, x, k, w);
    if (!v) return false;
    const Node *a = ti_arg_node(I, x, k);
    if (a->vk != VK_INT && a->vk != VK_BOOL) {
        ti_fail(I, x, "operand %u must be an integer", k);
        return false;
    }
    *out = v->i;
    return true;
}

Val *ti_slot_of(Interp *I, const Node *x, unsigned k, int64_t w)
{
    if (k >= x->nargs) {
        ti_fail(I, x, "missing operand %u", k);
        return NULL;
    }
    uint32_t var = x->args[k];
    const Node *v = &I->nodes[var];
    if (v->op != TIR_VAR) {
        ti_fail(I, x, "operand %u must be a slot (VAR)", k);
        return NULL;
    }
    Val *s = (v->flags & NF_SHARED) ? &I->shared[var] : &I->slots[w][var];
    if (!s->present) {
        ti_fail(I, x, "slot %%%u is used before its declaration", v->id);
        return NULL;
    }
    return s;
}

static void store_scalar(Val *o, const Node *x, double f, int64_t i, bool is_float)
{
    if (x->vk == VK_FLOAT) o->f = ti_round_to(x->elem, is_float ? f : (double)i);
    else if (x->vk == VK_INT) o->i = is_float ? float_to_int(x->elem, f) : ti_wrap_to(x->elem, i);
    else o->i = is_float ? f != 0 : i != 0;
}

/* ------------------------------------------------------------------ execution */

static void exec_warp_region(Interp *I, uint32_t R, int64_t w);
static void exec_block_region(Interp *I, uint32_t R);

static void release(Interp *I, uint32_t R, uint32_t p, int64_t w)
{
    const Region *reg = &I->regions[R];
    for (uint32_t k = reg->free_off[p]; k < reg->free_off[p + 1]; k++) {
        uint32_t x = reg->free_nodes[k];
        val_clear(I, &I->vals[w][x], &I->nodes[x]);
    }
}

static void exec_node(Interp *I, uint32_t xi, int64_t w)
{
    const Node *x = &I->nodes[xi];
    const TirInstr *ti = x->ti;
    if (w != 0 && (x->flags & NF_W0ONLY)) return;
    switch (x->op) {
    case TIR_PARAM: {
        unsigned p = (unsigned)ti->aux;
        if (ti->aux < 0 || p >= I->f->nparams) {
            ti_fail(I, x, "no parameter #%d", ti->aux);
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        if (x->vk == VK_TENSOR) {
            if (I->f->params[p].type->kind != TK_TY_GL) ti_fail(I, x, "parameter #%u is not a tensor", p);
            o->i = p;
        } else {
            if (I->f->params[p].type->kind == TK_TY_GL) ti_fail(I, x, "parameter #%u is a tensor", p);
            else store_scalar(o, x, I->scalars[p], 0, true);
        }
        return;
    }
    case TIR_SIZE: {
        if (ti->aux < 0 || (unsigned)ti->aux >= I->nsizes) {
            ti_fail(I, x, "no size #%d", ti->aux);
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (o) store_scalar(o, x, 0, I->sizes[ti->aux], false);
        return;
    }
    case TIR_BLOCK_ID: {
        Val *o = ti_out_val(I, x, w);
        if (o) store_scalar(o, x, 0, I->block[ti->aux >= 0 && ti->aux < 3 ? ti->aux : 0], false);
        return;
    }
    case TIR_WARP_ID: {
        Val *o = ti_out_val(I, x, w);
        if (o) store_scalar(o, x, 0, w, false);
        return;
    }
    case TIR_CONST_INT: {
        Val *o = ti_out_val(I, x, w);
        if (o) store_scalar(o, x, 0, ti->imm, false);
        return;
    }
    case TIR_CONST_FLOAT: {
        Val *o = ti_out_val(I, x, w);
        if (o) store_scalar(o, x, ti->fimm, 0, true);
        return;
    }
    case TIR_BINARY: {
        const Val *a = ti_opnd(I, x, 0, w), *b = a ? ti_opnd(I, x, 1, w) : NULL;
        if (!b) return;
        const Node *an = ti_arg_node(I, x, 0), *bn = ti_arg_node(I, x, 1);
        if (an->vk == VK_TILE || bn->vk == VK_TILE || an->vk == VK_TENSOR || bn->vk == VK_TENSOR || x->vk == VK_TILE) {
            ti_fail(I, x, "BINARY on non-scalars");
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        bool fl = an->vk == VK_FLOAT || bn->vk == VK_FLOAT;
        if (fl) {
            double p = ti_as_f(an, a), q = ti_as_f(bn, b);
            switch ((TkOp)ti->aux) {
            case TK_OP_ADD: store_scalar(o, x, p + q, 0, true); return;
            case TK_OP_SUB: store_scalar(o, x, p - q, 0, true); return;
            case TK_OP_MUL: store_scalar(o, x, p * q, 0, true); return;
            case TK_OP_DIV: store_scalar(o, x, p / q, 0, true); return;
            case TK_OP_MOD: store_scalar(o, x, fmod(p, q), 0, true); return;
            case TK_OP_LT: o->i = p < q; return;
            case TK_OP_LE: o->i = p <= q; return;
            case TK_OP_GT: o->i = p > q; return;
            case TK_OP_GE: o->i = p >= q; return;
            case TK_OP_EQ: o->i = p == q; return;
            case TK_OP_NE: o->i = p != q; return;
            default: break;
            }
        } else {
            int64_t p = a->i, q = b->i;
            TkTypeKind k = an->elem;
            switch ((TkOp)ti->aux) {
            case TK_OP_ADD: store_scalar(o, x, 0, ti_wrap_to(k, ti_u2i((uint64_t)p + (uint64_t)q)), false); return;
            case TK_OP_SUB: store_scalar(o, x, 0, ti_wrap_to(k, ti_u2i((uint64_t)p - (uint64_t)q)), false); return;
            case TK_OP_MUL: store_scalar(o, x, 0, ti_wrap_to(k, ti_u2i((uint64_t)p * (uint64_t)q)), false); return;
            case TK_OP_DIV: store_scalar(o, x, 0, ti_wrap_to(k, ti_int_div(p, q)), false); return;
            case TK_OP_MOD: store_scalar(o, x, 0, ti_wrap_to(k, int_mod(p, q)), false); return;
            case TK_OP_LT: o->i = p < q; return;
            case TK_OP_LE: o->i = p <= q; return;
            case TK_OP_GT: o->i = p > q; return;
            case TK_OP_GE: o->i = p >= q; return;
            case TK_OP_EQ: o->i = p == q; return;
            case TK_OP_NE: o->i = p != q; return;
            case TK_OP_AND: o->i = p && q; return;
            case TK_OP_OR: o->i = p || q; return;
            default: break;
            }
        }
        ti_fail(I, x, "unsupported BINARY operator %d", ti->aux);
        return;
    }
    case TIR_UNARY: {
        const Val *a = ti_opnd(I, x, 0, w);
        if (!a) return;
        const Node *an = ti_arg_node(I, x, 0);
        if (an->vk != VK_FLOAT && an->vk != VK_INT && an->vk != VK_BOOL) {
            ti_fail(I, x, "UNARY on a non-scalar");
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        if (ti->aux == TK_OP_NEG) {
            if (an->vk == VK_FLOAT) store_scalar(o, x, -a->f, 0, true);
            else store_scalar(o, x, 0, ti_wrap_to(an->elem, ti_u2i(0 - (uint64_t)a->i)), false);
        } else if (ti->aux == TK_OP_NOT) {
            o->i = an->vk == VK_FLOAT ? a->f == 0 : a->i == 0;
        } else {
            ti_fail(I, x, "unsupported UNARY operator %d", ti->aux);
        }
        return;
    }
    case TIR_CAST: {
        const Val *a = ti_opnd(I, x, 0, w);
        if (!a) return;
        const Node *an = ti_arg_node(I, x, 0);
        if (an->vk == VK_TILE || an->vk == VK_TENSOR || x->vk == VK_TILE || x->vk == VK_TENSOR) {
            ti_fail(I, x, "CAST of a non-scalar");
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (o) store_scalar(o, x, a->f, a->i, an->vk == VK_FLOAT);
        return;
    }
    case TIR_CDIV: {
        int64_t p, q;
        if (!ti_int_opnd(I, x, 0, w, &p) || !ti_int_opnd(I, x, 1, w, &q)) return;
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        int64_t r = 0;
        if (q > 0) r = p / q + (p % q > 0 ? 1 : 0);
        store_scalar(o, x, 0, r, false);
        return;
    }
    case TIR_VAR: {
        Val *s = (x->flags & NF_SHARED) ? &I->shared[xi] : &I->slots[w][xi];
        if (x->vk == VK_TILE) {
            if (!s->d) {
                s->d = xcalloc(I, (size_t)x->n, sizeof(double));
                if (!s->d) return;
                s->owned = true;
            } else {
                memset(s->d, 0, (size_t)x->n * sizeof(double));
            }
        } else if (x->vk == VK_NONE || x->vk == VK_TENSOR) {
            ti_fail(I, x, "slot of unsupported type");
            return;
        }
        s->f = 0;
        s->i = 0;
        s->present = true;
        return;
    }
    case TIR_GET: {
        Val *s = ti_slot_of(I, x, 0, w);
        if (!s) return;
        const Node *sn = ti_arg_node(I, x, 0);
        if (sn->vk != x->vk || (x->vk == VK_TILE && sn->n != x->n)) {
            ti_fail(I, x, "GET type differs from the slot's");
            return;
        }
        if (x->vk == VK_TILE && (x->flags & NF_BORROW)) {
            Val *o = &I->vals[w][xi];
            val_clear(I, o, x);
            o->d = s->d;
            o->owned = false;
            o->present = true;
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        if (x->vk == VK_TILE) memcpy(o->d, s->d, (size_t)x->n * sizeof(double));
        o->f = s->f;
        o->i = s->i;
        return;
    }
    case TIR_SET: {
        Val *s = ti_slot_of(I, x, 0, w);
        const Val *v = s ? ti_opnd(I, x, 1, w) : NULL;
        if (!v) return;
        const Node *sn = ti_arg_node(I, x, 0), *vn = ti_arg_node(I, x, 1);
        if (sn->vk != vn->vk || (sn->vk == VK_TILE && sn->n != vn->n) || (sn->vk == VK_TILE && sn->rows != vn->rows)) {
            ti_fail(I, x, "stored value's type differs from the slot's");
            return;
        }
        if (sn->vk == VK_TILE) memmove(s->d, v->d, (size_t)sn->n * sizeof(double));
        s->f = v->f;
        s->i = v->i;
        return;
    }
    case TIR_SET_ELEM: {
        Val *s = ti_slot_of(I, x, 0, w);
        const Val *v = s ? ti_opnd(I, x, 1, w) : NULL;
        if (!v) return;
        const Node *sn = ti_arg_node(I, x, 0), *vn = ti_arg_node(I, x, 1);
        int64_t r = 0, c = 0;
        if (sn->vk != VK_TILE || x->nargs != (sn->vec ? 3 : 4)) {
            ti_fail(I, x, "SET_ELEM needs a tile slot and %s", sn->vec ? "one index" : "two indices");
            return;
        }
        if (!ti_int_opnd(I, x, 2, w, &r) || (!sn->vec && !ti_int_opnd(I, x, 3, w, &c))) return;
        if (r < 0 || r >= sn->rows || c < 0 || c >= sn->cols) {
            ti_fail(I, x, "element index (%lld, %lld) out of bounds", (long long)r, (long long)c);
            return;
        }
        s->d[r * sn->cols + c] = ti_round_to(sn->elem, ti_as_f(vn, v));
        return;
    }
    case TIR_FILL:
    case TIR_LOAD:
    case TIR_STORE:
    case TIR_MMA:
    case TIR_MAP1:
    case TIR_MAP2:
    case TIR_REDUCE:
    case TIR_BROADCAST:
    case TIR_CONVERT:
    case TIR_TRANSPOSE:
    case TIR_TRI:
    case TIR_MASK:
    case TIR_ELEM: ti_exec_tile_op(I, x, w); return;
    case TIR_FOR: {
        int64_t lo, hi;
        if (!ti_int_opnd(I, x, 0, w, &lo) || !ti_int_opnd(I, x, 1, w, &hi)) return;
        Val *iv = &I->vals[w][x->iv];
        for (int64_t k = lo; k < hi && !I->failed; k++) {
            iv->i = k;
            iv->present = true;
            exec_warp_region(I, x->body[0], w);
        }
        return;
    }
    case TIR_IF: {
        int64_t c;
        if (!ti_int_opnd(I, x, 0, w, &c)) return;
        exec_warp_region(I, x->body[c ? 0 : 1], w);
        return;
    }
    case TIR_SYNC: return;
    case TIR_LOOP_IV:
    default:
        ti_fail(I, x, "unexpected op in a region");
        return;
    }
}

static void exec_warp_region(Interp *I, uint32_t R, int64_t w)
{
    const Region *reg = &I->regions[R];
    for (uint32_t p = 0; p < reg->count && !I->failed; p++) {
        exec_node(I, reg->items[p], w);
        release(I, R, p, w);
    }
}

/* A barrier statement, run once for the block. */
static void exec_barrier(Interp *I, uint32_t xi)
{
    const Node *x = &I->nodes[xi];
    if (x->op == TIR_FOR) {
        int64_t lo, hi;
        if (!ti_int_opnd(I, x, 0, 0, &lo) || !ti_int_opnd(I, x, 1, 0, &hi)) return;
        for (int64_t k = lo; k < hi && !I->failed; k++) {
            for (int64_t w = 0; w < I->warps; w++) {
                I->vals[w][x->iv].i = k;
                I->vals[w][x->iv].present = true;
            }
            exec_block_region(I, x->body[0]);
        }
    } else if (x->op == TIR_IF) {
        int64_t c;
        if (!ti_int_opnd(I, x, 0, 0, &c)) return;
        exec_block_region(I, x->body[c ? 0 : 1]);
    }
}

static void exec_block_region(Interp *I, uint32_t R)
{
    const Region *reg = &I->regions[R];
    uint32_t p = 0;
    while (p < reg->count && !I->failed) {
        uint32_t q = p;
        while (q < reg->count && !(I->nodes[reg->items[q]].flags & NF_BARRIER)) q++;
        for (int64_t w = 0; w < I->warps && !I->failed && q > p; w++)
            for (uint32_t k = p; k < q && !I->failed; k++) {
                exec_node(I, reg->items[k], w);
                release(I, R, k, w);
            }
        if (q < reg->count && !I->failed) {
            exec_barrier(I, reg->items[q]);
            for (int64_t w = 0; w < I->warps; w++) release(I, R, q, w);
        }
        p = q + 1;
    }
}

static void clear_values(Interp *I, int64_t nwarps)
{
    for (int64_t w = 0; w < nwarps; w++)
        if (I->vals[w])
            for (uint32_t x = 0; x < I->nnodes; x++) val_clear(I, &I->vals[w][x], &I->nodes[x]);
}

/* ------------------------------------------------------------------ entry */

static void destroy(Interp *I)
{
    if (I->vals) {
        clear_values(I, I->warps);
        for (int64_t w = 0; w < I->warps; w++) xfree(I, I->vals[w], I->nnodes, sizeof(Val));
        free(I->vals);
    }
    if (I->slots) {
        for (int64_t w = 0; w < I->warps; w++) {
            if (!I->slots[w]) continue;
            for (uint32_t x = 0; x < I->nnodes; x++)
                if (I->slots[w][x].owned) xfree(I, I->slots[w][x].d, (size_t)I->nodes[x].n, sizeof(double));
            xfree(I, I->slots[w], I->nnodes, sizeof(Val));
        }
        free(I->slots);
    }
    if (I->shared) {
        for (uint32_t x = 0; x < I->nnodes; x++)
            if (I->shared[x].owned) xfree(I, I->shared[x].d, (size_t)I->nodes[x].n, sizeof(double));
        xfree(I, I->shared, I->nnodes, sizeof(Val));
    }
    if (I->regions)
        for (uint32_t R = 0; R < I->nregions; R++) {
            free(I->regions[R].items);
            free(I->regions[R].free_off);
            free(I->regions[R].free_nodes);
        }
    free(I->regions);
    free(I->nodes);
    free(I->users_off);
    free(I->users);
    free(I->hkeys);
    free(I->hvals);
    free(I->tdims);
}

static int setup(Interp *I)
{
    const TirFunc *f = I->f;
    if (f->warps < 1 || f->warps > 1024) {
        ti_fail(I, NULL, "unsupported warp count %lld", (long long)f->warps);
        return -1;
    }
    I->warps = f->warps;
    I->tdims = calloc(f->nparams ? f->nparams : 1, sizeof *I->tdims);
    if (!I->tdims) {
        ti_fail(I, NULL, "out of memory");
        return -1;
    }
    for (unsigned p = 0; p < f->nparams; p++) {
        const TkType *t = f->params[p].type;
        if (!t) {
            ti_fail(I, NULL, "parameter %u has no type", p);
            return -1;
        }
        if (t->kind != TK_TY_GL) {
            if (!I->scalars) {
                ti_fail(I, NULL, "no value for scalar parameter %s", f->params[p].name);
                return -1;
            }
            continue;
        }
        if (t->rank < 1 || t->rank > TK_GL_MAX_RANK) {
            ti_fail(I, NULL, "tensor %s has unsupported rank %u", f->params[p].name, t->rank);
            return -1;
        }
        int64_t total = 1;
        for (unsigned d = 0; d < t->rank; d++) {
            int64_t dim = 0;
            if (!tk_poly_eval(&t->gdims[d], I->sizes, I->nsizes, &dim) || dim < 0) {
                ti_fail(I, NULL, "tensor %s: dimension %u cannot be evaluated", f->params[p].name, d);
                return -1;
            }
            I->tdims[p][d] = dim;
            if (__builtin_mul_overflow(total, dim, &total)) {
                ti_fail(I, NULL, "tensor %s is too large", f->params[p].name);
                return -1;
            }
        }
        if (total > 0 && (!I->tensors || !I->tensors[p])) {
            ti_fail(I, NULL, "no data for tensor %s", f->params[p].name);
            return -1;
        }
    }
    if (compile(I) != 0) return -1;
    I->vals = calloc((size_t)I->warps, sizeof *I->vals);
    I->slots = calloc((size_t)I->warps, sizeof *I->slots);
    if (!I->vals || !I->slots) {
        ti_fail(I, NULL, "out of memory");
        return -1;
    }
    for (int64_t w = 0; w < I->warps; w++) {
        I->vals[w] = xcalloc(I, I->nnodes, sizeof(Val));
        I->slots[w] = xcalloc(I, I->nnodes, sizeof(Val));
        if (!I->vals[w] || !I->slots[w]) return -1;
    }
    I->shared = xcalloc(I, I->nnodes, sizeof(Val));
    return I->shared ? 0 : -1;
}

int tir_interp_run(const TirFunc *f, double **tensors, const double *scalars, const int64_t *sizes, char *err,
                   size_t errlen)
{
    Interp I;
    memset(&I, 0, sizeof I);
    I.f = f;
    I.err = err;
    I.errlen = errlen;
    if (err && errlen) err[0] = '\0';
    if (!f) {
        if (err && errlen) snprintf(err, errlen, "no kernel");
        return -1;
    }
    I.tensors = tensors;
    I.scalars = scalars;
    I.sizes = sizes;
    I.nsizes = f->sizes ? f->sizes->count : 0;
    if (I.nsizes && !sizes) {
        ti_fail(&I, NULL, "sizes are not bound");
        return -1;
    }
    if (setup(&I) == 0) {
        /* the grid */
        exec_warp_region(&I, I.grid_region, 0);
        int64_t grid[3] = { 1, 1, 1 };
        for (unsigned k = 0; k < f->grid_rank && k < 3 && !I.failed; k++) {
            uint32_t g = hget(&I, f->grid[k]);
            const Val *v = &I.vals[0][g];
            if (!v->present) ti_fail(&I, &I.nodes[g], "grid value not computed");
            else grid[k] = v->i;
        }
        clear_values(&I, I.warps);
        bool empty = grid[0] <= 0 || grid[1] <= 0 || grid[2] <= 0;
        for (int k = 0; k < 3 && !I.failed && !empty; k++)
            if (grid[k] > INT32_MAX) ti_fail(&I, NULL, "grid dimension %d is %lld, more than an i32 block index can hold", k, (long long)grid[k]);
        for (int64_t z = 0; z < grid[2] && !I.failed && !empty; z++)
            for (int64_t y = 0; y < grid[1] && !I.failed; y++)
                for (int64_t x = 0; x < grid[0] && !I.failed; x++) {
                    I.block[0] = x;
                    I.block[1] = y;
                    I.block[2] = z;
                    exec_block_region(&I, I.body_region);
                }
    }
    destroy(&I);
    return I.failed ? -1 : 0;
}
