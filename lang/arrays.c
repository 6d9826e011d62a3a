/* arrays.c — expands arrays of constant length before the checker runs.
 *
 *   rt<f32, 16, 64> acc[4] = zeros();   becomes four declarations named
 *   `acc[0]` … `acc[3]` (names no user can write, and diagnostics print them
 *   as the user would), `acc[2]` with a constant index becomes that name,
 *   and a `for` with constant bounds whose body indexes an array with its
 *   loop variable is unrolled: one copy of the body per iteration, with the
 *   variable replaced by its value. Loops that index no array stay loops.
 *
 * Names are resolved by binding, not by spelling: a walk keeps a stack of
 * what every name in scope means here (array, constant, unrolled loop
 * variable, anything else), so a shadowing declaration is never substituted.
 * Shadowing is an error in the language anyway; where the checker could no
 * longer see it (the loop variable of an unrolled loop, an array's name), this
 * pass reports it with the checker's words. */
#include "arrays.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "checker.h"

#define MAX_LENGTH 256      /* elements of one array */
#define MAX_COPIES 1024     /* unrolled copies of loop bodies in one item */

typedef enum { B_PLAIN, B_CONST, B_ARRAY, B_LOOP } BindKind;

typedef struct Bind Bind;
struct Bind {
    Bind *next;             /* the binding below in the stack */
    BindKind kind;
    const char *name;
    const char *what;       /* "variable", "constant", ... as the checker says */
    TkSpan span;            /* of the declared name */
    unsigned depth;         /* scope depth, for "already declared in this scope" */
    int64_t value;          /* CONST (when known), LOOP */
    bool known;             /* CONST: value is a known integer */
    bool dep;               /* while scanning: a const computed from the scanned loop variable */
    bool bad;               /* ARRAY whose declaration was refused: its uses stay quiet */
    int64_t len;            /* ARRAY */
    const char **elems;     /* ARRAY: the element names */
    const TkNode *loop;     /* PLAIN loop variable of a loop that is not unrolled */
};

typedef struct {
    TkArena *arena;
    TkDiags *diags;
    const TkNode *item;
    Bind *env;
    unsigned depth;
    const Bind *scan_loop;  /* the loop variable scan_*() looks for */
    int64_t copies;         /* unrolled copies made in this item */
    int64_t mult;           /* copies of the enclosing unrolled loops */
    bool oom, stop;
} Ctx;

typedef enum { USE_VALUE, USE_ARG, USE_RETURN, USE_ASSIGN } Use;

/* ---------------------------------------------------------------- bindings */

static Bind *lookup(const Ctx *c, const char *name)
{
    for (Bind *b = c->env; b; b = b->next)
        if (strcmp(b->name, name) == 0) return b;
    return NULL;
}

static Bind *bind(Ctx *c, BindKind kind, const char *name, TkSpan span, const char *what)
{
    Bind *b = tk_arena_alloc(c->arena, sizeof *b);
    if (!b) {
        c->oom = true;
        return NULL;
    }
    b->kind = kind;
    b->name = name;
    b->span = span;
    b->what = what;
    b->depth = c->depth;
    b->next = c->env;
    c->env = b;
    return b;
}

static uint32_t line_of(const Ctx *c, TkSpan span)
{
    uint32_t line = 0, col = 0;
    tk_source_position(c->diags->src, span.begin, &line, &col);
    return line;
}

/* A declaration in the body. The checker reports clashes between plain
 * names; those it cannot see (an array's name, an unrolled loop's variable)
 * are reported here, in its words. */
static Bind *declare(Ctx *c, BindKind kind, const char *name, TkSpan span, const char *what)
{
    Bind *old = lookup(c, name);
    if (kind == B_ARRAY && tk_is_builtin_name(name)) {
        TkDiag *g = tk_error(c->diags, span, "'%s' is the name of a built-in", name);
        tk_diag_hint(g, "choose another name; built-in names are reserved");
    } else if (old && (kind == B_ARRAY || old->kind == B_ARRAY || old->kind == B_LOOP)) {
        bool same = old->depth == c->depth;
        TkDiag *g = same ? tk_error(c->diags, span, "'%s' is already declared in this scope", name)
                         : tk_error(c->diags, span, "'%s' shadows the %s declared at line %u", name, old->what,
                                    line_of(c, old->span));
        tk_diag_hint(g, same ? "rename one of them" : "shadowing is not allowed; choose another name");
        /* as the checker does: the first declaration stays (and a loop
         * variable visible), so the uses below mean what they did */
        if (same || old->kind == B_LOOP) return NULL;
    }
    return bind(c, kind, name, span, what);
}

/* ---------------------------------------------------------------- constants */

/* Integer value of a compile-time constant expression: literals, consts and
 * unrolled loop variables in scope, + - * / %, unary -, cdiv, min, max. */
static bool eval(const Ctx *c, const TkNode *e, int64_t *out)
{
    int64_t x, y;
    switch (e->kind) {
    case TK_N_INT:
        *out = e->ival;
        return !e->broken;
    case TK_N_NAME: {
        const Bind *b = lookup(c, e->name);
        if (!b || !(b->kind == B_LOOP || (b->kind == B_CONST && b->known))) return false;
        *out = b->value;
        return true;
    }
    case TK_N_UNARY:
        if (e->op != TK_OP_NEG || !eval(c, e->a, &x) || x == INT64_MIN) return false;
        *out = -x;
        return true;
    case TK_N_BINARY:
        if (!eval(c, e->a, &x) || !eval(c, e->b, &y)) return false;
        switch (e->op) {
        case TK_OP_ADD: return !__builtin_add_overflow(x, y, out);
        case TK_OP_SUB: return !__builtin_sub_overflow(x, y, out);
        case TK_OP_MUL: return !__builtin_mul_overflow(x, y, out);
        case TK_OP_DIV:
        case TK_OP_MOD:
            if (y == 0 || (x == INT64_MIN && y == -1)) return false;
            *out = e->op == TK_OP_DIV ? x / y : x % y;
            return true;
        default: return false;
        }
    case TK_N_CALL: {
        const TkNode *a = e->list, *b = a ? a->next : NULL;
        if (e->explicit_targs || !b || b->next || !eval(c, a, &x) || !eval(c, b, &y)) return false;
        if (strcmp(e->name, "min") == 0) *out = x < y ? x : y;
        else if (strcmp(e->name, "max") == 0) *out = x > y ? x : y;
        else if (strcmp(e->name, "cdiv") == 0 && y > 0 && x >= 0) *out = x / y + (x % y != 0);
        else return false;
        return true;
    }
    default: return false;
    }
}

/* ---------------------------------------------------------------- nodes */

static TkNode *node(Ctx *c, TkNodeKind kind, TkSpan span)
{
    TkNode *n = tk_node_new(c->arena, kind, span);
    if (!n) c->oom = true;
    return n;
}

static TkNode *clone_chain(Ctx *c, const TkNode *n);

static TkNode *clone1(Ctx *c, const TkNode *n)
{
    if (!n) return NULL;
    TkNode *m = tk_arena_alloc(c->arena, sizeof *m);
    if (!m) {
        c->oom = true;
        return NULL;
    }
    *m = *n;
    m->next = NULL;
    m->a = clone1(c, n->a);
    m->b = clone1(c, n->b);
    m->c = clone1(c, n->c);
    m->list = clone_chain(c, n->list);
    m->list2 = clone_chain(c, n->list2);
    return m;
}

static TkNode *clone_chain(Ctx *c, const TkNode *n)
{
    TkNode *head = NULL, **tail = &head;
    for (; n; n = n->next) {
        *tail = clone1(c, n);
        if (!*tail) break;
        tail = &(*tail)->next;
    }
    return head;
}

/* ---------------------------------------------------------------- scanning */

/* Does e mention the scanned loop variable (or a const computed from it)? */
static bool mentions(const Ctx *c, const TkNode *e)
{
    if (!e) return false;
    if (e->kind == TK_N_NAME) {
        const Bind *b = lookup(c, e->name);
        return b && (b == c->scan_loop || b->dep);
    }
    if (mentions(c, e->a) || mentions(c, e->b)) return true;
    for (const TkNode *x = e->list; x; x = x->next)
        if (mentions(c, x)) return true;
    return false;
}

/* Does e index an array with the scanned loop variable? */
static bool scan_expr(const Ctx *c, const TkNode *e)
{
    if (!e) return false;
    if (e->kind == TK_N_INDEX && e->a && e->a->kind == TK_N_NAME) {
        const Bind *b = lookup(c, e->a->name);
        if (b && b->kind == B_ARRAY)
            for (const TkNode *x = e->list; x; x = x->next)
                if (mentions(c, x)) return true;
    }
    /* sub-tile bounds must be compile-time integers (§5.13): a loop whose
     * variable bounds one is unrolled, like one that indexes an array */
    if (e->kind == TK_N_RANGE && (mentions(c, e->a) || mentions(c, e->b))) return true;
    if (scan_expr(c, e->a) || scan_expr(c, e->b)) return true;
    for (const TkNode *x = e->list; x; x = x->next)
        if (scan_expr(c, x)) return true;
    return false;
}

static bool scan_block(Ctx *c, const TkNode *blk);

static bool scan_stmt(Ctx *c, const TkNode *s)
{
    /* A declaration that shadows the loop variable: unrolling reports it as
     * the checker would for any loop (which it then no longer sees). */
    if ((s->kind == TK_N_VAR || s->kind == TK_N_LET || s->kind == TK_N_CONST || s->kind == TK_N_FOR) && s->name &&
        lookup(c, s->name) == c->scan_loop)
        return true;
    switch (s->kind) {
    case TK_N_VAR:
        if (scan_expr(c, s->b) || scan_expr(c, s->c)) return true;
        if (bind(c, s->c ? B_ARRAY : B_PLAIN, s->name, s->name_span, "variable")) c->env->bad = true;
        return false;
    case TK_N_LET:
        if (scan_expr(c, s->b)) return true;
        bind(c, B_PLAIN, s->name, s->name_span, "binding");
        return false;
    case TK_N_CONST: {
        if (scan_expr(c, s->a)) return true;
        bool dep = mentions(c, s->a);
        if (bind(c, B_CONST, s->name, s->name_span, "constant")) c->env->dep = dep;
        return false;
    }
    case TK_N_ASSIGN: return scan_expr(c, s->a) || scan_expr(c, s->b);
    case TK_N_EXPR_STMT:
    case TK_N_RETURN: return scan_expr(c, s->a);
    case TK_N_IF:
        if (scan_expr(c, s->a) || scan_block(c, s->b)) return true;
        return s->c && (s->c->kind == TK_N_IF ? scan_stmt(c, s->c) : scan_block(c, s->c));
    case TK_N_FOR: {
        if (scan_expr(c, s->a) || scan_expr(c, s->b)) return true;
        Bind *saved = c->env;
        bind(c, B_PLAIN, s->name, s->name_span, "loop variable");
        bool r = scan_block(c, s->c);
        c->env = saved;
        return r;
    }
    case TK_N_BLOCK: return scan_block(c, s);
    default: return false;
    }
}

static bool scan_block(Ctx *c, const TkNode *blk)
{
    Bind *saved = c->env;
    bool r = false;
    for (const TkNode *s = blk->list; s && !r && !c->oom; s = s->next) r = scan_stmt(c, s);
    c->env = saved;
    return r;
}

/* Should this loop be unrolled: does its body index an array with its variable? */
static bool indexes_arrays(Ctx *c, const TkNode *loop)
{
    Bind *saved = c->env;
    const Bind *saved_loop = c->scan_loop;
    c->scan_loop = bind(c, B_PLAIN, loop->name, loop->name_span, "loop variable");
    bool r = c->scan_loop && scan_block(c, loop->c);
    c->scan_loop = saved_loop;
    c->env = saved;
    return r;
}

/* ---------------------------------------------------------------- expressions */

static TkNode *expr(Ctx *c, TkNode *e, Use use, const char *callee);

static void type_dims(Ctx *c, TkNode *t)
{
    for (; t; t = t->a) {
        if (t->kind != TK_N_TYPE) return;
        TkNode **p = &t->list;
        while (*p) {
            TkNode *next = (*p)->next;
            *p = expr(c, *p, USE_VALUE, NULL);
            (*p)->next = next;
            p = &(*p)->next;
        }
    }
}

static void whole_array(Ctx *c, const TkNode *e, const Bind *b, Use use, const char *callee)
{
    if (b->bad) return;
    TkDiag *g;
    switch (use) {
    case USE_ARG: g = tk_error(c->diags, e->span, "array '%s' cannot be passed to '%s'", b->name, callee); break;
    case USE_RETURN: g = tk_error(c->diags, e->span, "array '%s' cannot be returned", b->name); break;
    case USE_ASSIGN: g = tk_error(c->diags, e->span, "array '%s' cannot be assigned as a whole", b->name); break;
    default: g = tk_error(c->diags, e->span, "array '%s' is not a value", b->name); break;
    }
    tk_diag_hint(g, "arrays are not values; use its elements %s[0] .. %s[%" PRId64 "], one at a time or in a `for` "
                    "loop with constant bounds", b->name, b->name, b->len - 1);
}

/* The plain loop variable (of a loop that is not unrolled) that e mentions, if any. */
static const Bind *dynamic_loop_var(const Ctx *c, const TkNode *e)
{
    if (!e) return NULL;
    if (e->kind == TK_N_NAME) {
        const Bind *b = lookup(c, e->name);
        return b && b->loop ? b : NULL;
    }
    const Bind *r = dynamic_loop_var(c, e->a);
    if (!r) r = dynamic_loop_var(c, e->b);
    for (const TkNode *x = e->list; x && !r; x = x->next) r = dynamic_loop_var(c, x);
    return r;
}

/* acc[i] with acc an array: the element's name. */
static TkNode *element(Ctx *c, TkNode *e, const Bind *b)
{
    if (b->bad) return e;
    if (!e->list || e->list->next) {
        TkDiag *g = tk_error(c->diags, e->span, "array '%s' takes one index", b->name);
        tk_diag_found(g, "%u indices", tk_list_length(e->list));
        tk_diag_hint(g, "an element is %s[i]; index the element's tile after that: %s[i][r, c]", b->name, b->name);
        return e;
    }
    TkNode *ix = e->list;
    int64_t v;
    if (!eval(c, ix, &v)) {
        TkDiag *g = tk_error(c->diags, ix->span, "index of array '%s' must be a compile-time constant", b->name);
        const Bind *lv = dynamic_loop_var(c, ix);
        if (lv)
            tk_diag_hint(g, "the loop over '%s' (line %u) is not unrolled because its bounds are not compile-time "
                            "constants; give it constant bounds", lv->name, line_of(c, lv->span));
        else
            tk_diag_hint(g, "use a constant or a `for` loop with constant bounds; loop variables of constant loops "
                            "are constants");
        return e;
    }
    if (v < 0 || v >= b->len) {
        TkDiag *g = tk_error(c->diags, ix->span, "index %" PRId64 " is out of range for %s[%" PRId64 "]", v, b->name,
                             b->len);
        tk_diag_expected(g, "an index in 0 .. %" PRId64, b->len - 1);
        tk_diag_found(g, "%" PRId64, v);
        return e;
    }
    TkNode *n = node(c, TK_N_NAME, e->span);
    if (!n) return e;
    n->name = b->elems[v];
    n->depth = e->depth;
    return n;
}

static void expr_list(Ctx *c, TkNode **head, Use use, const char *callee)
{
    for (TkNode **p = head; *p; p = &(*p)->next) {
        TkNode *next = (*p)->next;
        *p = expr(c, *p, use, callee);
        (*p)->next = next;
    }
}

static TkNode *expr(Ctx *c, TkNode *e, Use use, const char *callee)
{
    if (!e || c->oom) return e;
    switch (e->kind) {
    case TK_N_NAME: {
        const Bind *b = lookup(c, e->name);
        if (b && b->kind == B_ARRAY) whole_array(c, e, b, use, callee);
        if (b && b->kind == B_LOOP) {
            TkNode *n = node(c, TK_N_INT, e->span);
            if (!n) return e;
            n->ival = b->value;
            n->loop_value = true;
            n->depth = e->depth;
            return n;
        }
        return e;
    }
    case TK_N_INDEX:
        if (e->a && e->a->kind == TK_N_NAME) {
            const Bind *b = lookup(c, e->a->name);
            if (b && b->kind == B_ARRAY) {
                expr_list(c, &e->list, USE_VALUE, NULL);
                return element(c, e, b);
            }
        }
        e->a = expr(c, e->a, USE_VALUE, NULL);
        expr_list(c, &e->list, USE_VALUE, NULL);
        return e;
    case TK_N_UNARY:
    case TK_N_BINARY:
    case TK_N_RANGE:
        e->a = expr(c, e->a, USE_VALUE, NULL);
        e->b = expr(c, e->b, USE_VALUE, NULL);
        return e;
    case TK_N_CALL:
        expr_list(c, &e->list, USE_ARG, e->name);
        for (TkNode *t = e->list2; t; t = t->next) type_dims(c, t);
        return e;
    default: return e;
    }
}

/* ---------------------------------------------------------------- statements */

static void block(Ctx *c, TkNode *blk);
static TkNode *stmt(Ctx *c, TkNode *s);

static TkNode *stmts(Ctx *c, TkNode *list)
{
    TkNode *head = NULL, **tail = &head;
    for (TkNode *s = list, *next; s; s = next) {
        next = s->next;
        s->next = NULL;
        *tail = c->stop || c->oom ? s : stmt(c, s);
        while (*tail) tail = &(*tail)->next;
    }
    return head;
}

static void block(Ctx *c, TkNode *blk)
{
    Bind *saved = c->env;
    c->depth++;
    blk->list = stmts(c, blk->list);
    c->depth--;
    c->env = saved;
}

static const char *tile_kind_name(TkTypeCon tc)
{
    return tc == TK_TC_GL ? "global tensors" : tc == TK_TC_ST ? "shared tiles" : "shared vectors";
}

/* T a[N] (= init)?;  →  T a[0] (= init)?; … T a[N-1] (= init)?; */
static TkNode *array_decl(Ctx *c, TkNode *s)
{
    s->c = expr(c, s->c, USE_VALUE, NULL);
    bool ok = true;
    TkTypeCon tc = s->a->tycon;
    if (tc == TK_TC_ST || tc == TK_TC_SV || tc == TK_TC_GL) {
        TkDiag *g = tk_error(c->diags, s->a->span, "arrays of %s are not supported", tile_kind_name(tc));
        tk_diag_expected(g, "an array of rt<...>, rv<...> or scalars");
        tk_diag_hint(g, "declare each %s under its own name", tc == TK_TC_GL ? "tensor" : "shared tile");
        ok = false;
    }
    int64_t len = 0;
    if (!eval(c, s->c, &len)) {
        TkDiag *g = tk_error(c->diags, s->c->span, "the length of array '%s' is not known at compile time", s->name);
        tk_diag_hint(g, "use an integer literal or a `const`; loop variables of constant `for` loops are constants too");
        ok = false;
    } else if (len < 1 || len > MAX_LENGTH) {
        TkDiag *g = tk_error(c->diags, s->c->span, "array '%s' has length %" PRId64, s->name, len);
        tk_diag_expected(g, "a length in 1 .. %d", MAX_LENGTH);
        tk_diag_hint(g, len < 1 ? "an array holds at least one element"
                                : "arrays are unrolled into registers; split the work over several kernels or loops");
        ok = false;
    }
    unsigned before = c->diags->errors;
    Bind *b = declare(c, B_ARRAY, s->name, s->name_span, "variable");
    if (!b) return s;
    if (c->diags->errors > before) ok = false;   /* a clash of names: its uses stay quiet */
    b->len = ok ? len : 1;
    b->bad = !ok;
    if (!ok) return s;
    b->elems = tk_arena_alloc(c->arena, (size_t)len * sizeof *b->elems);
    if (!b->elems) {
        c->oom = true;
        return s;
    }
    TkNode *head = NULL, **tail = &head;
    const char *base = s->name;
    for (int64_t i = 0; i < len; i++) {
        size_t size = strlen(base) + 24;   /* "[" + up to 20 digits + "]" + NUL */
        char *name = tk_arena_alloc(c->arena, size);
        if (name) snprintf(name, size, "%s[%" PRId64 "]", base, i);
        b->elems[i] = name;
        TkNode *v = i == 0 ? s : clone1(c, s);
        if (!b->elems[i] || !v) {
            c->oom = true;
            return head ? head : s;
        }
        v->name = b->elems[i];
        v->c = NULL;
        *tail = v;
        tail = &v->next;
    }
    return head;
}

/* A loop to unroll: one copy of the body per iteration, each in its own block
 * with the loop variable bound to its value. */
static TkNode *unroll(Ctx *c, TkNode *s, int64_t lo, int64_t hi)
{
    int64_t n = 0, total = 0;
    if (hi > lo && __builtin_sub_overflow(hi, lo, &n)) n = INT64_MAX;
    if (__builtin_mul_overflow(n, c->mult, &total)) total = INT64_MAX;
    TkSpan kw = { s->span.begin, s->span.begin + 3 };
    if (total > MAX_COPIES || c->copies + n > MAX_COPIES) {
        TkDiag *g = total > MAX_COPIES
            ? tk_error(c->diags, kw, "this loop would unroll to %" PRId64 " copies", total)
            : tk_error(c->diags, kw, "this loop would bring the unrolled copies in '%s' to %" PRId64, c->item->name,
                       c->copies + n);
        tk_diag_expected(g, "at most %d unrolled copies in one kernel or helper", MAX_COPIES);
        tk_diag_hint(g, "a `for` with constant bounds that indexes an array with its variable is unrolled; "
                        "use fewer iterations or smaller arrays");
        c->stop = true;
        return s;
    }
    TkNode *out = node(c, TK_N_BLOCK, s->span);
    if (!out) return s;
    c->copies += n;
    int64_t saved_mult = c->mult;
    c->mult = total;
    unsigned errors = c->diags->errors;
    TkNode **tail = &out->list;
    for (int64_t i = 0; i < n && !c->stop && !c->oom; i++) {
        TkNode *body = clone1(c, s->c);
        if (!body) break;
        Bind *saved = c->env;
        c->depth++;
        Bind *v = bind(c, B_LOOP, s->name, s->name_span, "loop variable");
        if (v) v->value = lo + i;
        block(c, body);
        c->depth--;
        c->env = saved;
        *tail = body;
        tail = &body->next;
        if (c->diags->errors > errors) break;   /* the next copies would say the same again */
    }
    c->mult = saved_mult;
    return out;
}

static TkNode *for_stmt(Ctx *c, TkNode *s)
{
    s->a = expr(c, s->a, USE_VALUE, NULL);
    s->b = expr(c, s->b, USE_VALUE, NULL);
    int64_t lo, hi;
    if (indexes_arrays(c, s) && eval(c, s->a, &lo) && eval(c, s->b, &hi)) return unroll(c, s, lo, hi);
    Bind *saved = c->env;
    c->depth++;
    Bind *v = bind(c, B_PLAIN, s->name, s->name_span, "loop variable");
    if (v) v->loop = s;
    block(c, s->c);
    c->depth--;
    c->env = saved;
    return s;
}

static TkNode *stmt(Ctx *c, TkNode *s)
{
    switch (s->kind) {
    case TK_N_VAR:
        type_dims(c, s->a);
        s->b = expr(c, s->b, USE_ASSIGN, NULL);
        if (s->c) return array_decl(c, s);
        declare(c, B_PLAIN, s->name, s->name_span, "variable");
        return s;
    case TK_N_LET:
        s->b = expr(c, s->b, USE_ASSIGN, NULL);
        declare(c, B_PLAIN, s->name, s->name_span, "binding");
        return s;
    case TK_N_CONST: {
        s->a = expr(c, s->a, USE_ASSIGN, NULL);
        int64_t v = 0;
        bool known = eval(c, s->a, &v);
        Bind *b = declare(c, B_CONST, s->name, s->name_span, "constant");
        if (b) {
            b->known = known;
            b->value = v;
        }
        return s;
    }
    case TK_N_ASSIGN: {
        const TkNode *root = s->a;
        while (root && root->kind == TK_N_INDEX) root = root->a;
        const Bind *b = root && root->kind == TK_N_NAME ? lookup(c, root->name) : NULL;
        if (b && b->kind == B_LOOP) {   /* as the checker says it for any loop variable */
            TkDiag *g = tk_error(c->diags, s->a->span, "cannot assign to '%s'", b->name);
            tk_diag_hint(g, "it is a loop variable");
            return s;
        }
        s->a = expr(c, s->a, USE_ASSIGN, NULL);
        s->b = expr(c, s->b, USE_ASSIGN, NULL);
        return s;
    }
    case TK_N_EXPR_STMT: s->a = expr(c, s->a, USE_VALUE, NULL); return s;
    case TK_N_RETURN: s->a = expr(c, s->a, USE_RETURN, NULL); return s;
    case TK_N_IF:
        s->a = expr(c, s->a, USE_VALUE, NULL);
        block(c, s->b);
        if (s->c) {
            if (s->c->kind == TK_N_IF) stmt(c, s->c);
            else block(c, s->c);
        }
        return s;
    case TK_N_FOR: return for_stmt(c, s);
    case TK_N_BLOCK: block(c, s); return s;
    default: return s;
    }
}

/* ---------------------------------------------------------------- entry */

/* Does the tree n (with its siblings) hold a sub-tile range? */
static bool has_ranges(const TkNode *n)
{
    for (; n; n = n->next) {
        if (n->kind == TK_N_RANGE && (n->a || n->b)) return true;
        if (n->kind == TK_N_TYPE) continue;
        if ((n->a && has_ranges(n->a)) || (n->b && has_ranges(n->b)) || (n->c && has_ranges(n->c)) ||
            (n->list && has_ranges(n->list)))
            return true;
    }
    return false;
}

static bool has_arrays(const TkNode *n)
{
    for (; n; n = n->next) {
        if ((n->kind == TK_N_VAR || n->kind == TK_N_PARAM) && n->c) return true;
        if (n->kind == TK_N_BLOCK && has_arrays(n->list)) return true;
        if (n->kind == TK_N_IF && (has_arrays(n->b) || (n->c && has_arrays(n->c)))) return true;
        if (n->kind == TK_N_FOR && has_arrays(n->c)) return true;
        /* a loop over sub-tiles may have to be unrolled (§5.13) */
        if (n->kind == TK_N_FOR && has_ranges(n->c)) return true;
    }
    return false;
}

int tk_arrays_expand(TkArena *arena, TkDiags *diags, const TkNode *program, TkNode *item)
{
    /* a generic template is expanded per instance (its lengths may name a
     * compile-time parameter), never itself */
    if (!item || (item->kind != TK_N_FN && item->kind != TK_N_KERNEL) || item->broken || !item->b || item->generic) return 0;
    if (!has_arrays(item->list) && !has_arrays(item->b->list)) return 0;
    Ctx c = { .arena = arena, .diags = diags, .item = item, .mult = 1 };
    unsigned errors = diags->errors;
    if (!item->source) item->source = clone1(&c, item->b);
    /* Top-level names before the item: consts are constants here too; an
     * array may not take the name of any of them. */
    for (const TkNode *it = program; it && it != item && !c.oom; it = it->next) {
        if (!it->name) continue;
        if (it->kind == TK_N_CONST) {
            int64_t v = 0;
            bool known = it->a && !it->broken && eval(&c, it->a, &v);
            Bind *b = bind(&c, B_CONST, it->name, it->name_span, "constant");
            if (b) {
                b->known = known;
                b->value = v;
            }
        }
    }
    for (const TkNode *it = program; it && !c.oom; it = it->next)
        if ((it->kind == TK_N_FN || it->kind == TK_N_KERNEL) && it->name)
            bind(&c, B_PLAIN, it->name, it->name_span, it->kind == TK_N_FN ? "helper" : "kernel");
    /* an instance's compile-time parameters: `const P = v;` around the item (lang/generic.c) */
    for (const TkNode *k = item->instance ? item->c : NULL; k && !c.oom; k = k->next) {
        int64_t v = 0;
        bool known = k->kind == TK_N_CONST && k->a && eval(&c, k->a, &v);
        Bind *b = bind(&c, B_CONST, k->name, k->name_span, "compile-time parameter");
        if (b) {
            b->known = known;
            b->value = v;
        }
    }
    c.depth = 1;
    for (TkNode *p = item->list; p; p = p->next) {
        if (p->c) {
            TkDiag *g = tk_error(diags, tk_span_join(p->name_span, p->span), "parameter '%s' cannot be an array",
                                 p->name);
            tk_diag_hint(g, "%s take tiles, tensors and scalars; pass the elements as separate parameters, or "
                            "declare the array inside the body", item->kind == TK_N_FN ? "helpers" : "kernels");
        }
        bind(&c, B_PLAIN, p->name, p->name_span, "parameter");
    }
    block(&c, item->b);
    if (c.oom || diags->errors > errors) item->broken = true;   /* half expanded: the checker must not see it */
    if (c.oom) return -1;
    return (int)(diags->errors - errors);
}
