/* generic.c — see generic.h: templates, their defaults, instance names, and
 * the kernel instances made before checking. */
#include "generic.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- clone */

static TkNode *clone_list(TkArena *arena, const TkNode *l, bool *oom);

static TkNode *clone_one(TkArena *arena, const TkNode *n, bool *oom)
{
    if (!n || *oom) return NULL;
    TkNode *c = tk_arena_alloc(arena, sizeof *c);
    if (!c) {
        *oom = true;
        return NULL;
    }
    *c = *n;
    c->next = NULL;
    c->type = NULL;
    c->sym = NULL;
    c->varying = false;
    if (n->kind != TK_N_GENERIC) c->is_const = false;
    c->a = clone_one(arena, n->a, oom);
    c->b = clone_one(arena, n->b, oom);
    c->c = clone_list(arena, n->c, oom);
    c->list = clone_list(arena, n->list, oom);
    c->list2 = clone_list(arena, n->list2, oom);
    return c;
}

static TkNode *clone_list(TkArena *arena, const TkNode *l, bool *oom)
{
    TkNode *head = NULL, **tail = &head;
    for (; l && !*oom; l = l->next) {
        *tail = clone_one(arena, l, oom);
        if (*tail) tail = &(*tail)->next;
    }
    return head;
}

TkNode *tk_ast_clone(TkArena *arena, const TkNode *n)
{
    bool oom = false;
    TkNode *c = clone_one(arena, n, &oom);
    return oom ? NULL : c;
}

/* ---------------------------------------------------------------- names */

void tk_generic_display(const char *name, const TkGenericValue *vals, unsigned n, char *out, size_t outlen)
{
    size_t len = (size_t)snprintf(out, outlen, "%s<", name);
    for (unsigned i = 0; i < n && len < outlen; i++) {
        if (vals[i].is_bool) len += (size_t)snprintf(out + len, outlen - len, "%s%s", i ? "," : "", vals[i].v ? "true" : "false");
        else len += (size_t)snprintf(out + len, outlen - len, "%s%lld", i ? "," : "", (long long)vals[i].v);
    }
    if (len < outlen) snprintf(out + len, outlen - len, ">");
}

/* NAME__V_V_V: a negative value is m and its magnitude (-4 → m4), a bool
 * true or false; docs/LANGUAGE.md "Instance names". */
void tk_generic_mangle(const char *name, const TkGenericValue *vals, unsigned n, char *out, size_t outlen)
{
    size_t len = (size_t)snprintf(out, outlen, "%s_", name);
    for (unsigned i = 0; i < n && len < outlen; i++) {
        if (vals[i].is_bool) len += (size_t)snprintf(out + len, outlen - len, "_%s", vals[i].v ? "true" : "false");
        else if (vals[i].v < 0) len += (size_t)snprintf(out + len, outlen - len, "_m%llu", 0ull - (unsigned long long)vals[i].v);
        else len += (size_t)snprintf(out + len, outlen - len, "_%lld", (long long)vals[i].v);
    }
}

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

int tk_generic_parse_request(const char *request, char *name, size_t namelen, TkGenericValue *vals, unsigned max,
                             unsigned *n, bool *has_args)
{
    const char *p = skip_space(request);
    size_t len = 0;
    *n = 0;
    *has_args = false;
    if (!isalpha((unsigned char)*p) && *p != '_') return -1;
    while (isalnum((unsigned char)p[len]) || p[len] == '_') len++;
    if (len + 1 > namelen) return -1;
    memcpy(name, p, len);
    name[len] = '\0';
    p = skip_space(p + len);
    if (*p == '\0') return 0;
    if (*p != '<') return -1;
    *has_args = true;
    p = skip_space(p + 1);
    for (;;) {
        if (*n >= max) return -1;
        TkGenericValue v = { 0, false };
        if (strncmp(p, "true", 4) == 0 && !isalnum((unsigned char)p[4])) {
            v = (TkGenericValue){ 1, true };
            p += 4;
        } else if (strncmp(p, "false", 5) == 0 && !isalnum((unsigned char)p[5])) {
            v = (TkGenericValue){ 0, true };
            p += 5;
        } else {
            bool neg = *p == '-';
            if (neg) p = skip_space(p + 1);
            if (!isdigit((unsigned char)*p)) return -1;
            unsigned long long mag = 0;
            while (isdigit((unsigned char)*p)) {
                unsigned d = (unsigned)(*p++ - '0');
                if (mag > (9223372036854775807ull - d) / 10) return -1;   /* beyond ±(2^63 − 1) */
                mag = mag * 10 + d;
            }
            v.v = neg ? -(int64_t)mag : (int64_t)mag;
        }
        vals[(*n)++] = v;
        p = skip_space(p);
        if (*p == ',') {
            p = skip_space(p + 1);
            continue;
        }
        if (*p != '>') return -1;
        p = skip_space(p + 1);
        return *p == '\0' ? 0 : -1;
    }
}

int tk_generic_canonical(const char *request, char *out, size_t outlen)
{
    char name[128];
    TkGenericValue vals[TK_MAX_GENERIC_PARAMS];
    unsigned n;
    bool has_args;
    if (tk_generic_parse_request(request, name, sizeof name, vals, TK_MAX_GENERIC_PARAMS, &n, &has_args) != 0) return -1;
    if (has_args) tk_generic_display(name, vals, n, out, outlen);
    else snprintf(out, outlen, "%s", name);
    return 0;
}

/* ---------------------------------------------------------------- defaults */

static const TkNode *find_const(const TkNode *items, const char *name)
{
    for (const TkNode *it = items; it; it = it->next)
        if (it->kind == TK_N_CONST && !it->broken && it->name && strcmp(it->name, name) == 0) return it;
    return NULL;
}

/* A default: literals, bools, + - * and unary minus over them, global
 * consts and earlier parameters. Reports at `report` (NULL: quietly). */
static bool eval(const TkNode *e, const TkNode *items, const TkNode *tmpl, const TkNode *upto, const TkGenericValue *earlier,
                 TkDiags *report, int depth, TkGenericValue *out)
{
    if (!e || depth > 32) return false;
    TkGenericValue x, y;
    switch (e->kind) {
    case TK_N_INT:
        if (e->broken) return false;
        *out = (TkGenericValue){ e->ival, false };
        return true;
    case TK_N_BOOL: *out = (TkGenericValue){ e->ival, true }; return true;
    case TK_N_UNARY:
        if (!eval(e->a, items, tmpl, upto, earlier, report, depth + 1, &x)) return false;
        if (x.is_bool || x.v == INT64_MIN) break;
        *out = (TkGenericValue){ -x.v, false };
        return true;
    case TK_N_BINARY: {
        if (!eval(e->a, items, tmpl, upto, earlier, report, depth + 1, &x) ||
            !eval(e->b, items, tmpl, upto, earlier, report, depth + 1, &y))
            return false;
        if (x.is_bool || y.is_bool) break;
        int64_t r;
        bool ovf = e->op == TK_OP_ADD ? __builtin_add_overflow(x.v, y.v, &r)
                 : e->op == TK_OP_SUB ? __builtin_sub_overflow(x.v, y.v, &r)
                                      : __builtin_mul_overflow(x.v, y.v, &r);
        if (ovf) {
            TkDiag *g = report ? tk_error(report, e->span, "this default overflows a 64-bit integer") : NULL;
            tk_diag_hint(g, "compile-time values are 64-bit integers");
            return false;
        }
        *out = (TkGenericValue){ r, false };
        return true;
    }
    case TK_N_NAME: {
        unsigned i = 0;
        for (const TkNode *p = tmpl->c; p && p != upto; p = p->next, i++)
            if (strcmp(p->name, e->name) == 0) {
                if (!earlier) return false;
                *out = earlier[i];
                return true;
            }
        const TkNode *k = find_const(items, e->name);
        if (k) return eval(k->a, items, tmpl, tmpl->c, NULL, NULL, depth + 1, out);
        TkDiag *g = report ? tk_error(report, e->span, "'%s' is not a constant or an earlier compile-time parameter", e->name) : NULL;
        tk_diag_hint(g, "a default is made of literals, `const` names and the parameters before it");
        return false;
    }
    default: break;
    }
    TkDiag *g = report ? tk_error(report, e->span, "this default is not an integer expression") : NULL;
    tk_diag_hint(g, "a default is an integer (with + - *) or true/false");
    return false;
}

bool tk_generic_default(const TkNode *gparam, const TkNode *items, const TkNode *tmpl, const TkGenericValue *earlier,
                        TkGenericValue *out)
{
    return gparam->b && eval(gparam->b, items, tmpl, gparam, earlier, NULL, 0, out);
}

/* The keys target(...) accepts: the target families tkc --list-targets
 * prints, the two classes, the fallback, and GPU processors (sm_<digits>[a],
 * gfx<digits and a-f>: a key for a processor no target has simply never
 * matches). */
static const char *const known_keys[] = { "x86", "aarch64", "amdgpu", "nvptx", "cpu", "gpu", "else" };

static bool processor_key(const char *k)
{
    const char *d = strncmp(k, "sm_", 3) == 0 ? k + 3 : strncmp(k, "gfx", 3) == 0 ? k + 3 : NULL;
    if (!d || !*d) return false;
    bool sm = k[0] == 's';
    for (const char *c = d; *c; c++) {
        bool ok = (*c >= '0' && *c <= '9') || (!sm && *c >= 'a' && *c <= 'f') || (sm && *c == 'a' && c[1] == '\0' && c != d);
        if (!ok) return false;
    }
    return true;
}

/* Checks the arms of one target(...) list (known keys, none twice) and picks
 * the one for the target: the first of `keys` present (processor, family, then class),
 * else the `else` arm, else NULL. */
static TkNode *pick_arm(TkDiags *diags, TkNode *arms, const char *const *keys, unsigned nkeys)
{
    for (TkNode *arm = arms; arm; arm = arm->next) {
        bool known = processor_key(arm->name);
        for (size_t k = 0; k < sizeof known_keys / sizeof *known_keys; k++) known |= strcmp(arm->name, known_keys[k]) == 0;
        if (!known) {
            TkDiag *g = tk_error(diags, arm->name_span, "unknown target key '%s'", arm->name);
            tk_diag_expected(g, "x86, aarch64, amdgpu, nvptx, cpu, gpu, a GPU processor (sm_90a, gfx942) or else");
            tk_diag_hint(g, "a key is a GPU processor, a target family (tkc --list-targets) or cpu/gpu; `else` is the fallback");
        }
        for (TkNode *o = arms; o != arm; o = o->next)
            if (strcmp(o->name, arm->name) == 0) {
                TkDiag *g = tk_error(diags, arm->name_span, "target key '%s' is given twice", arm->name);
                tk_diag_hint(g, "keep one value per key");
                break;
            }
    }
    TkNode *best = NULL;
    for (unsigned k = 0; k < nkeys && !best; k++)
        for (TkNode *arm = arms; arm && !best; arm = arm->next)
            if (strcmp(arm->name, keys[k]) == 0) best = arm;
    for (TkNode *arm = arms; arm && !best; arm = arm->next)
        if (strcmp(arm->name, "else") == 0) best = arm;
    return best;
}

static const char *const host_keys[] = { "cpu" };

static const char *const *target_keys(const TkGenericOptions *opts, unsigned *n)
{
    *n = opts && opts->target_keys ? opts->ntarget_keys : 1;
    return opts && opts->target_keys ? opts->target_keys : host_keys;
}

/* Picks each parameter's default for the target into gparam->b. */
static void choose_defaults(TkDiags *diags, TkNode *tmpl, const TkGenericOptions *opts)
{
    unsigned nkeys;
    const char *const *keys = target_keys(opts, &nkeys);
    for (TkNode *p = tmpl->c; p; p = p->next) {
        p->b = p->a;
        if (!p->list) continue;
        TkNode *best = pick_arm(diags, p->list, keys, nkeys);
        p->b = best ? best->a : NULL;
    }
}

/* Gives each file-level per-target constant (const X = target(...);) the
 * value of its arm for the target, before anything reads it. One without an
 * arm for the target is an error at its name. */
static void choose_constants(TkDiags *diags, TkNode *items, const TkGenericOptions *opts)
{
    unsigned nkeys;
    const char *const *keys = target_keys(opts, &nkeys);
    for (TkNode *it = items; it; it = it->next) {
        if (it->kind != TK_N_CONST || !it->list || it->a || it->broken) continue;
        TkNode *best = pick_arm(diags, it->list, keys, nkeys);
        if (best) {
            it->a = best->a;
            continue;
        }
        TkDiag *g = tk_error(diags, it->name_span, "constant '%s' has no value for target %s", it->name,
                             opts && opts->target_name ? opts->target_name : "host");
        tk_diag_hint(g, "add an arm for it, or an `else:` arm");
        it->broken = true;
    }
}

/* ---------------------------------------------------------------- templates */

/* Reports each use of a compile-time parameter inside gl dimension e. */
static void size_uses(TkDiags *diags, const TkNode *e, const TkNode *tmpl)
{
    if (!e) return;
    if (e->kind == TK_N_BINARY) {
        size_uses(diags, e->a, tmpl);
        size_uses(diags, e->b, tmpl);
        return;
    }
    if (e->kind != TK_N_NAME) return;
    for (const TkNode *p = tmpl->c; p; p = p->next)
        if (strcmp(p->name, e->name) == 0) {
            TkDiag *g = tk_error(diags, e->span, "compile-time parameter '%s' cannot be a size of a tensor", e->name);
            tk_diag_hint(g, "a gl dimension is a size bound at launch from the tensor's shape; give the size another "
                            "name and use '%s' in tile dimensions", e->name);
        }
}

/* Errors of the template itself, reported once: too many parameters, one
 * given twice, one used as a gl size, a default that does not evaluate. */
static bool check_template(TkDiags *diags, const TkNode *items, TkNode *tmpl)
{
    bool ok = true;
    unsigned n = tk_list_length(tmpl->c);
    if (n > TK_MAX_GENERIC_PARAMS) {
        TkDiag *g = tk_error(diags, tmpl->name_span, "'%s' has %u compile-time parameters; the limit is %d", tmpl->name, n,
                             TK_MAX_GENERIC_PARAMS);
        tk_diag_hint(g, "group related values into one parameter");
        return false;
    }
    for (TkNode *p = tmpl->c; p; p = p->next)
        for (TkNode *q = tmpl->c; q != p; q = q->next)
            if (strcmp(p->name, q->name) == 0) {
                TkDiag *g = tk_error(diags, p->name_span, "compile-time parameter '%s' is declared twice", p->name);
                tk_diag_hint(g, "rename one of them");
                ok = false;
            }
    for (TkNode *prm = tmpl->list; prm; prm = prm->next)
        if (prm->a && prm->a->kind == TK_N_TYPE && prm->a->tycon == TK_TC_GL) {
            unsigned before = diags->errors;
            for (const TkNode *d = prm->a->list; d; d = d->next) size_uses(diags, d, tmpl);
            if (diags->errors != before) ok = false;
        }
    TkGenericValue vals[TK_MAX_GENERIC_PARAMS];
    bool known[TK_MAX_GENERIC_PARAMS] = { false };
    unsigned i = 0;
    for (TkNode *p = tmpl->c; p; p = p->next, i++) {
        if (!p->b) continue;
        /* a default naming an earlier parameter without a default can only be
         * judged per instance */
        bool earlier_known = true;
        for (unsigned j = 0; j < i; j++) earlier_known &= known[j];
        if (earlier_known) {
            known[i] = eval(p->b, items, tmpl, p, vals, diags, 0, &vals[i]);
            if (!known[i]) ok = false;
        }
        p->is_const = known[i];
        if (known[i]) {
            p->ival = vals[i].v;
            p->fval = vals[i].is_bool;
        }
    }
    return ok;
}

/* ---------------------------------------------------------------- instances */

TkNode *tk_generic_instantiate(TkArena *arena, const TkNode *tmpl, const TkGenericValue *vals, const TkSpan *at, bool plain)
{
    TkNode *inst = tk_ast_clone(arena, tmpl);
    if (!inst) return NULL;
    inst->generic = false;
    inst->instance = true;
    inst->origin = tmpl;
    inst->next = NULL;
    unsigned n = tk_list_length(tmpl->c);
    TkNode *consts = NULL, **tail = &consts;
    unsigned i = 0;
    for (const TkNode *p = tmpl->c; p; p = p->next, i++) {
        TkSpan vs = at ? at[i] : p->span;
        TkNode *k = tk_node_new(arena, TK_N_CONST, p->span);
        TkNode *v = tk_node_new(arena, vals[i].is_bool ? TK_N_BOOL : TK_N_INT, vs);
        if (!k || !v) return NULL;
        k->name = p->name;
        k->name_span = p->name_span;
        if (!vals[i].is_bool && vals[i].v < 0) {   /* written as source writes it: -(magnitude) */
            TkNode *m = tk_node_new(arena, TK_N_UNARY, vs);
            if (!m) return NULL;
            m->op = TK_OP_NEG;
            m->a = v;
            v->ival = -vals[i].v;
            v->depth = 1;
            m->depth = 2;
            v = m;
        } else {
            v->ival = vals[i].v;
            v->depth = 1;
        }
        k->a = v;
        *tail = k;
        tail = &k->next;
    }
    inst->c = consts;
    /* Arrays in the clone are expanded by its users before it is checked
     * (lang/arrays.c binds inst->c): front.c for kernel instances, which join
     * the item list, check_generic.c for helper instances. */
    char buf[512];
    tk_generic_display("", vals, n, buf, sizeof buf);
    inst->values = tk_arena_strndup(arena, buf, strlen(buf));
    tk_generic_display(tmpl->name, vals, n, buf, sizeof buf);
    inst->display = plain ? NULL : tk_arena_strndup(arena, buf, strlen(buf));
    if (plain) {
        inst->name = tmpl->name;
    } else if (tmpl->kind == TK_N_KERNEL) {
        tk_generic_mangle(tmpl->name, vals, n, buf, sizeof buf);
        inst->name = tk_arena_strndup(arena, buf, strlen(buf));
    } else {
        inst->name = inst->display;   /* helpers are inlined: they have no linkage name */
    }
    if (!inst->values || !inst->name) return NULL;
    return inst;
}

void tk_generic_note(TkDiags *diags, unsigned from, const TkNode *inst)
{
    for (unsigned i = from; i < diags->count; i++) {
        TkDiag *g = &diags->items[i];
        if (g->note || g->span.begin < inst->span.begin || g->span.end > inst->span.end) continue;
        if (inst->display) tk_diag_note(g, "in instance %s", inst->display);
        else tk_diag_note(g, "in instance %s%s, the default '%s'", inst->name, inst->values, inst->name);
    }
}

typedef struct {
    TkNode *tmpl;
    unsigned count;
} Made;

static TkNode *find_kernel(TkNode *items, const char *name)
{
    for (TkNode *it = items; it; it = it->next)
        if (it->kind == TK_N_KERNEL && !it->instance && it->name && strcmp(it->name, name) == 0) return it;
    return NULL;
}

static bool name_taken(TkNode *items, TkNode *made, const char *name)
{
    for (TkNode *it = items; it; it = it->next)
        if (it->kind != TK_N_CONST && it->name && strcmp(it->name, name) == 0) return true;
    for (TkNode *it = made; it; it = it->next)
        if (strcmp(it->name, name) == 0) return true;
    return false;
}

/* "gemm<BM, BN, KC>", for hints */
static void signature(const TkNode *tmpl, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s<", tmpl->name);
    for (const TkNode *p = tmpl->c; p && len < n; p = p->next)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", p == tmpl->c ? "" : ", ", p->name);
    if (len < n) snprintf(buf + len, n - len, ">");
}

typedef struct {
    TkArena *arena;
    TkDiags *diags;
    TkNode *items;
    TkNode *made, **made_tail;   /* new instances, appended to the program at the end */
    bool oom;
} Expander;

/* Adds the instance of kernel template t with these values, unless it
 * exists; returns it (NULL after an error). */
static TkNode *make_instance(Expander *x, TkNode *t, const TkGenericValue *vals, bool plain)
{
    unsigned n = tk_list_length(t->c);
    char name[512];
    if (plain) snprintf(name, sizeof name, "%s", t->name);
    else tk_generic_mangle(t->name, vals, n, name, sizeof name);
    for (TkNode *m = x->made; m; m = m->next)
        if (strcmp(m->name, name) == 0) return m;
    unsigned count = 0;
    for (TkNode *m = x->made; m; m = m->next) count += m->origin == t;
    if (count >= TK_MAX_INSTANCES) {
        if (!t->too_many) {   /* once, however many more are asked for */
            TkDiag *g = tk_error(x->diags, t->name_span, "too many instances of '%s'", t->name);
            tk_diag_hint(g, "the limit is %d instances of one generic item per compilation", TK_MAX_INSTANCES);
            t->too_many = true;
        }
        return NULL;
    }
    if (!plain && name_taken(x->items, NULL, name)) {
        TkDiag *g = tk_error(x->diags, t->name_span, "an instance of '%s' would be linked as '%s', the name of another item",
                             t->name, name);
        tk_diag_hint(g, "rename the other item; instance symbols are NAME__V_V (docs/LANGUAGE.md)");
        return NULL;
    }
    TkNode *inst = tk_generic_instantiate(x->arena, t, vals, NULL, plain);
    if (!inst) {
        x->oom = true;
        return NULL;
    }
    *x->made_tail = inst;
    x->made_tail = &inst->next;
    return inst;
}

/* One requested kernel (tkc --instance/--kernel, libtk): makes the instance
 * and adds the kernel it names to `kept`. A request that names no kernel has
 * no source position: it is reported at the start of the file. */
static void request(Expander *x, const char *req, TkNode **kept, unsigned *nkept)
{
    char name[128];
    TkGenericValue vals[TK_MAX_GENERIC_PARAMS];
    unsigned n;
    bool has_args;
    TkSpan nowhere = { 0, 0 };
    if (tk_generic_parse_request(req, name, sizeof name, vals, TK_MAX_GENERIC_PARAMS, &n, &has_args) != 0) {
        TkDiag *g = tk_error(x->diags, nowhere, "'%s' is not a kernel or kernel instance name", req);
        tk_diag_expected(g, "NAME or NAME<V, ...> with integer or true/false values");
        tk_diag_hint(g, "e.g. --kernel 'gemm<64,64,128>' (quote it: the shell reads < and >)");
        return;
    }
    TkNode *t = find_kernel(x->items, name);
    if (!t) {
        if (!has_args) return;   /* the driver reports an unknown plain name itself */
        char list[512] = "";
        size_t len = 0;
        for (TkNode *it = x->items; it; it = it->next)
            if (it->kind == TK_N_KERNEL && it->generic && len < sizeof list) {
                char sig[256];
                signature(it, sig, sizeof sig);
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", sig);
            }
        TkDiag *g = tk_error(x->diags, nowhere, "no kernel named '%s' for the instance '%s'", name, req);
        if (len) tk_diag_hint(g, "the generic kernels here are %s", list);
        else tk_diag_hint(g, "this file has no generic kernel (declared as kernel NAME<P, ...>(...))");
        return;
    }
    if (!t->generic) {
        if (has_args) {
            TkDiag *g = tk_error(x->diags, t->name_span, "kernel '%s' has no compile-time parameters", name);
            tk_diag_hint(g, "ask for it as plain '%s'", name);
        }
        if (*nkept < 64) kept[(*nkept)++] = t;
        return;
    }
    if (t->broken) return;
    unsigned want = tk_list_length(t->c);
    char sig[256];
    signature(t, sig, sizeof sig);
    if (!has_args) {
        /* the default instance: every parameter needs a default here */
        for (TkNode *p = t->c; p; p = p->next)
            if (!p->is_const) {
                TkDiag *g = tk_error(x->diags, p->name_span, "'%s' has no default for '%s', so there is no plain '%s'", name,
                                     p->name, name);
                tk_diag_hint(g, "ask for an instance that gives every value of %s, or give %s a default (%s = ...)", sig,
                             p->name, p->name);
                return;
            }
        for (TkNode *m = x->made; m; m = m->next)
            if (strcmp(m->name, name) == 0 && *nkept < 64) kept[(*nkept)++] = m;
        return;
    }
    if (n != want) {
        TkDiag *g = tk_error(x->diags, t->name_span, "'%s' takes %u compile-time argument%s, not %u", name, want,
                             want == 1 ? "" : "s", n);
        tk_diag_expected(g, "%s", sig);
        tk_diag_found(g, "%s", req);
        return;
    }
    TkNode *inst = make_instance(x, t, vals, false);
    if (inst && *nkept < 64) kept[(*nkept)++] = inst;
}

int tk_generic_expand(TkArena *arena, TkDiags *diags, TkNode **items, const TkGenericOptions *opts)
{
    Expander x;
    memset(&x, 0, sizeof x);
    x.arena = arena;
    x.diags = diags;
    x.items = *items;
    x.made_tail = &x.made;
    choose_constants(diags, *items, opts);
    for (TkNode *it = *items; it; it = it->next) {
        if (!it->generic || it->broken) continue;
        choose_defaults(diags, it, opts);
        if (!check_template(diags, *items, it)) it->broken = true;
    }
    /* every generic kernel with a default for each parameter has its default
     * instance under its plain name */
    for (TkNode *it = *items; it; it = it->next) {
        if (it->kind != TK_N_KERNEL || !it->generic || it->broken) continue;
        TkGenericValue vals[TK_MAX_GENERIC_PARAMS];
        unsigned i = 0;
        bool all = true;
        for (TkNode *p = it->c; p; p = p->next, i++) {
            all &= p->is_const;
            vals[i] = (TkGenericValue){ p->ival, p->fval != 0 };
        }
        if (all) make_instance(&x, it, vals, true);
    }
    TkNode *kept[64];
    unsigned nkept = 0;
    for (unsigned r = 0; opts && r < opts->ninstances; r++) request(&x, opts->instances[r], kept, &nkept);
    if (x.oom) return -1;
    /* the instances follow the program, in the order they were made */
    TkNode **tail = items;
    while (*tail) tail = &(*tail)->next;
    *tail = x.made;
    if (opts && opts->only_requested) {
        TkNode **p = items;
        while (*p) {
            bool keep = (*p)->kind != TK_N_KERNEL;
            for (unsigned k = 0; k < nkept && !keep; k++) keep = kept[k] == *p;
            if (keep) p = &(*p)->next;
            else *p = (*p)->next;
        }
    }
    return 0;
}
