/* tir_interp_compile.c — the interpreter's compile step (see tir_interp.c):
 * a function's TIR becomes a flat table of nodes, one per instruction,
 * numbered like the TIR dump (grid region, then body, pre-order, a FOR's
 * induction value just before it), with operand indices, region lists,
 * per-node flags and, per region position, the values whose last use is
 * there (freed after it). */
#include "tir_interp_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"

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

uint32_t ti_node_of(const Interp *I, const TirInstr *p)
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
            (x->elem != TK_TY_F32 && x->elem != TK_TY_F16 && x->elem != TK_TY_BF16 &&
             !(x->elem == TK_TY_BOOL && tk_is_register(t->kind)))) {   /* masks: elements 0 and 1 */
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

int ti_compile(Interp *I)
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
            uint32_t a = ti->args[k] ? ti_node_of(I, ti->args[k]) : NEVER;
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
        uint32_t g = f->grid[k] ? ti_node_of(I, f->grid[k]) : NEVER;
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
