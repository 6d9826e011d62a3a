/* tir_interp.c — see tir_interp.h.
 *
 * This file holds the entry point, the block/warp schedule, control flow,
 * slots and the scalar ops; the compile step is in tir_interp_compile.c, the
 * tile and vector ops in tir_interp_tiles.c, the state they share in
 * tir_interp_internal.h.
 *
 * The function is first "compiled" into a flat table of nodes (one per
 * instruction, with operand indices, region lists and last uses). Then the
 * grid is evaluated and every
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

void ti_unreliable(Interp *I, const Node *x, const char *fmt, ...)
{
    if (!I->bounds || I->bounds->unreliable) return;
    I->bounds->unreliable = 1;
    int n = x ? snprintf(I->bounds->why, sizeof I->bounds->why, "%%%u %s: ", x->id, tir_op_name(x->op)) : 0;
    if (n < 0) n = 0;
    if ((size_t)n < sizeof I->bounds->why) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(I->bounds->why + n, sizeof I->bounds->why - (size_t)n, fmt, ap);
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

/* ------------------------------------------------------------------ values */

static void val_clear(Interp *I, Val *v, const Node *nd)
{
    if (v->owned && v->d) xfree(I, v->d, ti_tile_len(I, nd), sizeof(double));
    v->d = NULL;
    v->owned = false;
    v->present = false;
}

Val *ti_out_val(Interp *I, const Node *x, int64_t w)
{
    Val *o = &I->vals[w][x - I->nodes];
    val_clear(I, o, x);
    if (x->vk == VK_TILE) {
        o->d = xcalloc(I, ti_tile_len(I, x), sizeof(double));
        if (!o->d) return NULL;
        o->owned = true;
    }
    o->f = 0;
    o->fe = 0;
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

/* ------------------------------------------------------------------ error bounds of scalars */

/* A float BINARY p OP q into o (whose value is stored after this). */
static void bound_binary(Interp *I, const Node *x, Val *o, double p, double ep, double q, double eq)
{
    TkOp op = (TkOp)x->ti->aux;
    if (op == TK_OP_LT || op == TK_OP_LE || op == TK_OP_GT || op == TK_OP_GE || op == TK_OP_EQ || op == TK_OP_NE) {
        if (!tb_compare_decided(op, p, ep, q, eq)) ti_unreliable(I, x, "comparing %g and %g, each within error %g / %g", p, q, ep, eq);
        return;
    }
    if (op == TK_OP_MOD) {
        if (ep + eq > 0) ti_unreliable(I, x, "remainder of inexact floats");
        return;
    }
    TirFn fn = op == TK_OP_ADD ? TIR_FN_ADD : op == TK_OP_SUB ? TIR_FN_SUB : op == TK_OP_MUL ? TIR_FN_MUL : TIR_FN_DIV;
    double exact = op == TK_OP_ADD ? p + q : op == TK_OP_SUB ? p - q : op == TK_OP_MUL ? p * q : p / q;
    bool bad = false;
    o->fe = tb_map2(fn, x->elem, p, ep, q, eq, ti_round_to(x->elem, exact), &bad);
    if (bad) ti_unreliable(I, x, "no error bound for %g %s %g", p, tir_fn_name(fn), q);
}

/* CAST of a (node an) into o, already stored. */
static void bound_cast(Interp *I, const Node *x, Val *o, const Node *an, const Val *a)
{
    if (an->vk == VK_FLOAT && x->vk == VK_FLOAT) {
        o->fe = tb_convert(x->elem, o->f, a->fe);
    } else if (an->vk == VK_FLOAT) {
        /* float → int/bool: exact only if truncation cannot land elsewhere */
        if (a->fe > 0 && (trunc(a->f - a->fe) != trunc(a->f + a->fe) || (x->vk == VK_BOOL && fabs(a->f) <= a->fe)))
            ti_unreliable(I, x, "converting %g (error %g) to an integer", a->f, a->fe);
    } else if (x->vk == VK_FLOAT && x->elem == TK_TY_F32) {
        o->fe = fabs(o->f - (double)(float)o->f);   /* integers above 2^24 round in f32 */
    }
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
            else {
                store_scalar(o, x, I->scalars[p], 0, true);
                if (x->vk == VK_FLOAT && x->elem == TK_TY_F32) o->fe = fabs(o->f - (double)(float)o->f);   /* the kernel gets an f32 */
            }
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
        if (!o) return;
        store_scalar(o, x, ti->fimm, 0, true);
        /* an f32 constant stays a double here; the kernel has it as an f32 */
        if (x->elem == TK_TY_F32 && isfinite(o->f)) o->fe = fabs(o->f - (double)(float)o->f);
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
            if (I->bounds) bound_binary(I, x, o, p, an->vk == VK_FLOAT ? a->fe : 0, q, bn->vk == VK_FLOAT ? b->fe : 0);
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
            o->fe = a->fe;
            if (an->vk == VK_FLOAT) store_scalar(o, x, -a->f, 0, true);
            else store_scalar(o, x, 0, ti_wrap_to(an->elem, ti_u2i(0 - (uint64_t)a->i)), false);
        } else if (ti->aux == TK_OP_NOT) {
            o->i = an->vk == VK_FLOAT ? a->f == 0 : a->i == 0;
            if (an->vk == VK_FLOAT && !tb_compare_decided(TK_OP_EQ, a->f, a->fe, 0, 0))
                ti_unreliable(I, x, "! of a float within its error bound of 0");
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
        if (!o) return;
        store_scalar(o, x, a->f, a->i, an->vk == VK_FLOAT);
        if (I->bounds) bound_cast(I, x, o, an, a);
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
                s->d = xcalloc(I, ti_tile_len(I, x), sizeof(double));
                if (!s->d) return;
                s->owned = true;
            } else {
                memset(s->d, 0, ti_tile_len(I, x) * sizeof(double));
            }
        } else if (x->vk == VK_NONE || x->vk == VK_TENSOR) {
            ti_fail(I, x, "slot of unsupported type");
            return;
        }
        s->f = 0;
        s->fe = 0;
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
        if (x->vk == VK_TILE) memcpy(o->d, s->d, ti_tile_len(I, x) * sizeof(double));
        o->f = s->f;
        o->fe = s->fe;
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
        if (sn->vk == VK_TILE) memmove(s->d, v->d, ti_tile_len(I, sn) * sizeof(double));
        s->f = v->f;
        s->fe = v->fe;
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
        if (I->bounds)
            ti_err(I, s->d, sn)[r * sn->cols + c] = sn->elem == TK_TY_BOOL ? 0 : tb_convert(sn->elem, s->d[r * sn->cols + c], vn->vk == VK_FLOAT ? v->fe : 0);
        return;
    }
    case TIR_FILL:
    case TIR_LOAD:
    case TIR_STORE:
    case TIR_MMA:
    case TIR_MAP1:
    case TIR_MAP2:
    case TIR_MAP3:
    case TIR_REDUCE:
    case TIR_BROADCAST:
    case TIR_CONVERT:
    case TIR_TRANSPOSE:
    case TIR_TRI:
    case TIR_MASK:
    case TIR_ELEM: ti_exec_tile_op(I, x, w); return;
    case TIR_SLICE:
    case TIR_LINE:
    case TIR_SET_SLICE:
    case TIR_SET_LINE: ti_exec_slice_op(I, x, w); return;
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
                if (I->slots[w][x].owned) xfree(I, I->slots[w][x].d, ti_tile_len(I, &I->nodes[x]), sizeof(double));
            xfree(I, I->slots[w], I->nnodes, sizeof(Val));
        }
        free(I->slots);
    }
    if (I->shared) {
        for (uint32_t x = 0; x < I->nnodes; x++)
            if (I->shared[x].owned) xfree(I, I->shared[x].d, ti_tile_len(I, &I->nodes[x]), sizeof(double));
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
        if (total > 0 && I->bounds && !I->bounds->err[p]) {
            ti_fail(I, NULL, "no error bounds for tensor %s", f->params[p].name);
            return -1;
        }
    }
    if (ti_compile(I) != 0) return -1;
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

/* grid_only: compute the grid into grid_only[0..2] and run no block */
static int run(const TirFunc *f, double **tensors, TirInterpBounds *bounds, const double *scalars, const int64_t *sizes, char *err,
               size_t errlen, int64_t *grid_only)
{
    Interp I;
    memset(&I, 0, sizeof I);
    I.f = f;
    I.bounds = bounds;
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
            uint32_t g = ti_node_of(&I, f->grid[k]);
            const Val *v = &I.vals[0][g];
            if (!v->present) ti_fail(&I, &I.nodes[g], "grid value not computed");
            else grid[k] = v->i;
        }
        clear_values(&I, I.warps);
        if (grid_only) {
            memcpy(grid_only, grid, sizeof grid);
            grid[0] = 0;   /* no block */
        }
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

int tir_interp_run(const TirFunc *f, double **tensors, const double *scalars, const int64_t *sizes, char *err,
                   size_t errlen)
{
    return run(f, tensors, NULL, scalars, sizes, err, errlen, NULL);
}

int tir_interp_run_bounded(const TirFunc *f, double **tensors, TirInterpBounds *bounds, const double *scalars,
                           const int64_t *sizes, char *err, size_t errlen)
{
    if (!bounds || !bounds->err) {
        if (err && errlen) snprintf(err, errlen, "no error bounds to fill");
        return -1;
    }
    bounds->unreliable = 0;
    bounds->why[0] = '\0';
    return run(f, tensors, bounds, scalars, sizes, err, errlen, NULL);
}

int tir_interp_grid(const TirFunc *f, const double *scalars, const int64_t *sizes, int64_t grid[3], char *err, size_t errlen)
{
    /* a grid reads no tensor (no block runs): every tensor is one placeholder */
    double placeholder = 0, *none[TIR_MAX_ARGS * 8];
    if (f && f->nparams > sizeof none / sizeof none[0]) {
        snprintf(err, errlen, "kernel %s has too many parameters", f->name);
        return -1;
    }
    for (size_t p = 0; p < sizeof none / sizeof none[0]; p++) none[p] = &placeholder;
    grid[0] = grid[1] = grid[2] = 1;
    return run(f, none, NULL, scalars, sizes, err, errlen, grid);
}
