/* graph_infer_sym.c — the sizes graph_infer.c derives: a constant, a dim
 * name of the graph inputs, or a small expression of them kept in one
 * canonical form (a sum of terms, each a coefficient times a product of names
 * or floor quotients, terms and factors sorted by their text), so two sizes
 * are equal exactly when their texts are: "batch*16", "seq-1", "(H+1)/2".
 * Anything past the small fixed limits (terms, factors, 64-bit overflow) is
 * unknown (NULL), never wrong. Sizes live in the model's arena. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_infer_sym.h"

#define SYM_TERMS 8
#define SYM_ATOMS 4

typedef struct Atom Atom;
typedef struct {
    int64_t coef;
    int n;
    const Atom *a[SYM_ATOMS];   /* sorted by text */
} Term;

struct TkoSym {
    int n;                      /* terms; 0: the constant 0 */
    const char *text;
    Term t[];                   /* n of them (at most SYM_TERMS), the constant term (no atoms) last */
};

struct Atom {
    const char *name;           /* a dim name, or NULL for a quotient */
    const TkoSym *num;          /* floor(num / den) */
    int64_t den;
    const char *text;
};

static void *alloc(TkoSymMaker *c, size_t bytes)
{
    void *p = tko_alloc(c->arena, bytes);
    if (!p) c->oom = true;
    return p;
}

static char *dupstr(TkoSymMaker *c, const char *s)
{
    char *p = tko_strndup(c->arena, s, strlen(s));
    if (!p) c->oom = true;
    return p;
}

static int cmp_terms(const Term *x, const Term *y)
{
    if (!x->n || !y->n) return (x->n == 0) - (y->n == 0);   /* the constant last */
    for (int k = 0; k < x->n && k < y->n; k++) {
        int d = strcmp(x->a[k]->text, y->a[k]->text);
        if (d) return d;
    }
    return x->n - y->n;
}

static int cmp_atoms(const void *x, const void *y) { return strcmp((*(const Atom *const *)x)->text, (*(const Atom *const *)y)->text); }
static int cmp_terms_q(const void *x, const void *y) { return cmp_terms(x, y); }

void tko_sym_append(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    if (*at >= len) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (n > 0) *at += (size_t)n;
}

/* Sorts and merges terms[n] into a new size (NULL when too big or out of memory). */
static const TkoSym *make_sym(TkoSymMaker *c, Term *terms, int n)
{
    for (int i = 0; i < n; i++) qsort(terms[i].a, (size_t)terms[i].n, sizeof terms[i].a[0], cmp_atoms);
    qsort(terms, (size_t)n, sizeof *terms, cmp_terms_q);
    Term merged[SYM_TERMS];
    int nm = 0;
    for (int i = 0; i < n; i++) {
        if (nm && cmp_terms(&merged[nm - 1], &terms[i]) == 0) {
            if (__builtin_add_overflow(merged[nm - 1].coef, terms[i].coef, &merged[nm - 1].coef)) return NULL;
        } else {
            if (nm == SYM_TERMS) return NULL;
            merged[nm++] = terms[i];
        }
        if (merged[nm - 1].coef == 0) nm--;
    }
    char text[256];
    size_t at = 0;
    for (int i = 0; i < nm; i++) {
        const Term *t = &merged[i];
        int64_t coef = t->coef;
        if (i) tko_sym_append(text, sizeof text, &at, coef < 0 ? "-" : "+");
        else if (coef < 0) tko_sym_append(text, sizeof text, &at, "-");
        if (coef < 0) coef = -coef;
        for (int k = 0; k < t->n; k++) tko_sym_append(text, sizeof text, &at, k ? "*%s" : "%s", t->a[k]->text);
        if (!t->n) tko_sym_append(text, sizeof text, &at, "%lld", (long long)coef);
        else if (coef != 1) tko_sym_append(text, sizeof text, &at, "*%lld", (long long)coef);
    }
    if (!nm) tko_sym_append(text, sizeof text, &at, "0");
    if (at >= sizeof text) return NULL;
    TkoSym *r = alloc(c, sizeof *r + (size_t)nm * sizeof(Term));
    if (!r) return NULL;
    r->n = nm;
    memcpy(r->t, merged, (size_t)nm * sizeof(Term));
    r->text = dupstr(c, text);
    return r->text ? r : NULL;
}

const TkoSym *tko_sym_const(TkoSymMaker *c, int64_t v)
{
    if (v >= 0 && v < TKO_SMALL_SIZES && c->small[v]) return c->small[v];
    Term t = { v, 0, { 0 } };
    const TkoSym *s = make_sym(c, &t, 1);
    if (v >= 0 && v < TKO_SMALL_SIZES) c->small[v] = s;
    return s;
}

const TkoSym *tko_sym_name(TkoSymMaker *c, const char *name)
{
    Atom *a = alloc(c, sizeof *a);
    if (!a) return NULL;
    a->name = a->text = name;
    Term t = { 1, 1, { a } };
    return make_sym(c, &t, 1);
}

bool tko_sym_is_const(const TkoSym *s, int64_t *v)
{
    if (!s) return false;
    if (s->n == 0) return *v = 0, true;
    if (s->n == 1 && s->t[0].n == 0) return *v = s->t[0].coef, true;
    return false;
}

bool tko_sym_eq(const TkoSym *x, const TkoSym *y) { return x && y && strcmp(x->text, y->text) == 0; }

const TkoSym *tko_sym_add(TkoSymMaker *c, const TkoSym *x, const TkoSym *y, int64_t ysign)
{
    if (!x || !y) return NULL;
    Term t[2 * SYM_TERMS];
    int n = 0;
    for (int i = 0; i < x->n; i++) t[n++] = x->t[i];
    for (int i = 0; i < y->n; i++) {
        t[n] = y->t[i];
        if (__builtin_mul_overflow(t[n].coef, ysign, &t[n].coef)) return NULL;
        n++;
    }
    return make_sym(c, t, n);
}

const TkoSym *tko_sym_addc(TkoSymMaker *c, const TkoSym *x, int64_t k) { return tko_sym_add(c, x, tko_sym_const(c, k), 1); }

const TkoSym *tko_sym_mul(TkoSymMaker *c, const TkoSym *x, const TkoSym *y)
{
    if (!x || !y) return NULL;
    Term t[SYM_TERMS * SYM_TERMS];
    int n = 0;
    for (int i = 0; i < x->n; i++)
        for (int j = 0; j < y->n; j++) {
            Term p = x->t[i];
            if (p.n + y->t[j].n > SYM_ATOMS || __builtin_mul_overflow(p.coef, y->t[j].coef, &p.coef)) return NULL;
            for (int k = 0; k < y->t[j].n; k++) p.a[p.n++] = y->t[j].a[k];
            t[n++] = p;
        }
    return make_sym(c, t, n);
}

static int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
static int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

/* floor(x / d) for a constant d > 0: the terms whose coefficients d divides
 * come out of the quotient, so the form stays canonical (floor((2a+b)/2) = a + floor(b/2)). */
const TkoSym *tko_sym_divc(TkoSymMaker *c, const TkoSym *x, int64_t d)
{
    if (!x || d <= 0) return NULL;
    if (d == 1) return x;
    Term out[SYM_TERMS + 1], rest[SYM_TERMS];
    int no = 0, nr = 0;
    for (int i = 0; i < x->n; i++) {
        Term q = x->t[i], r = x->t[i];
        q.coef = floor_div(x->t[i].coef, d);
        r.coef = floor_mod(x->t[i].coef, d);
        if (q.coef) out[no++] = q;
        if (r.coef) rest[nr++] = r;
    }
    if (nr) {
        const TkoSym *rs = make_sym(c, rest, nr);
        int64_t k;
        if (!rs) return NULL;
        if (tko_sym_is_const(rs, &k)) {
            if (floor_div(k, d)) out[no++] = (Term){ floor_div(k, d), 0, { 0 } };
        } else {
            Atom *a = alloc(c, sizeof *a);
            if (!a) return NULL;
            a->num = rs, a->den = d;
            char text[300];
            bool bare = rs->n == 1 && rs->t[0].n == 1 && rs->t[0].coef == 1 && rs->t[0].a[0]->name;
            snprintf(text, sizeof text, bare ? "%s/%lld" : "(%s)/%lld", rs->text, (long long)d);
            if (!(a->text = dupstr(c, text))) return NULL;
            out[no++] = (Term){ 1, 1, { a } };
        }
    }
    return make_sym(c, out, no);
}

const TkoSym *tko_sym_ceildiv(TkoSymMaker *c, const TkoSym *x, int64_t d) { return tko_sym_divc(c, tko_sym_addc(c, x, d - 1), d); }

/* x / y when y divides x exactly as written (a constant, or a monomial every term of x contains); else unknown. */
const TkoSym *tko_sym_div(TkoSymMaker *c, const TkoSym *x, const TkoSym *y)
{
    int64_t k;
    if (!x || !y) return NULL;
    if (tko_sym_is_const(y, &k)) {
        if (k <= 0) return NULL;
        for (int i = 0; i < x->n; i++)
            if (x->t[i].coef % k) return NULL;
        return tko_sym_divc(c, x, k);
    }
    if (y->n != 1 || y->t[0].coef <= 0) return NULL;
    Term t[SYM_TERMS];
    for (int i = 0; i < x->n; i++) {
        t[i] = x->t[i];
        if (t[i].coef % y->t[0].coef) return NULL;
        t[i].coef /= y->t[0].coef;
        for (int j = 0; j < y->t[0].n; j++) {
            int k2 = 0;
            while (k2 < t[i].n && strcmp(t[i].a[k2]->text, y->t[0].a[j]->text) != 0) k2++;
            if (k2 == t[i].n) return NULL;
            t[i].a[k2] = t[i].a[--t[i].n];
        }
    }
    return make_sym(c, t, x->n);
}

const char *tko_sym_str(const TkoSym *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s", s ? s->text : "?");
    return buf;
}

/* The value of s, each name's size from lookup; false when a name has none. */
bool tko_sym_eval(const TkoSym *s, bool (*lookup)(void *arg, const char *name, int64_t *size), void *arg, int64_t *out)
{
    int64_t sum = 0;
    for (int i = 0; i < s->n; i++) {
        int64_t p = s->t[i].coef;
        for (int k = 0; k < s->t[i].n; k++) {
            const Atom *a = s->t[i].a[k];
            int64_t v;
            if (a->name) {
                if (!lookup(arg, a->name, &v)) return false;
            } else {
                if (!tko_sym_eval(a->num, lookup, arg, &v)) return false;
                v = floor_div(v, a->den);
            }
            p *= v;
        }
        sum += p;
    }
    *out = sum;
    return true;
}

const char *tko_sym_bare_name(const TkoSym *s)
{
    return s && s->n == 1 && s->t[0].n == 1 && s->t[0].coef == 1 ? s->t[0].a[0]->name : NULL;
}
