/* run_check.c — `tkc run --check`: what the kernel's results are compared
 * with (its own interpretation, another kernel through --reference, files
 * through --expect) and the pass rule, per element:
 *
 *     |x - ref| <= atol + rtol·|ref|        (NaN meets NaN, inf the same inf)
 *     rtol = 2·eps + 8·sqrt(D)·2^-24,  atol = rtol·s
 *
 * eps: machine epsilon of the narrowest type the result passed through (the
 * tensor's own, or any bf16/f16 the kernel rounds to): a correct kernel may
 * round the other way from the reference wherever its f32 value differs
 * slightly, and the difference then is one ulp, carried through what follows
 * at the size of that value (hence relative to s, too).
 * D: mma multiply-adds per stored element. An f32 dot product of depth D
 * has a random-walk rounding error of about 0.4·sqrt(D)·2^-24 of its typical
 * size; 8·sqrt(D) leaves room for the largest of millions of elements (~6
 * standard deviations) with a margin of 3, where a real bug (a missing k
 * tile, a wrong row) is a sizeable fraction of s.
 * s: the RMS of the reference values of the tensor: absolute errors of an
 * accumulation scale with its typical size, not with each element (which can
 * be near 0 by cancellation).
 * Plain --check can do better than a statistical rule: the interpreter's
 * proven per-element bounds (lower/interp/tir_interp_bounds.c) also hold every
 * element, and where they are tighter (exact data movement: 0) they decide. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "lower.h"
#include "run_internal.h"
#include "tir_flops.h"
#include "tir_interp.h"

static const double U_F32 = 0x1p-24;   /* unit roundoff of f32 */

/* ---------------------------------------------------------------- what a kernel touches */

static void scan_use(const TirRegion *r, bool *loaded, bool *stored)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if ((i->op == TIR_LOAD || i->op == TIR_STORE) && i->nargs > 0 && i->args[0]->op == TIR_PARAM &&
            i->args[0]->type->kind == TK_TY_GL && i->args[0]->aux >= 0 && i->args[0]->aux < RUN_MAX_PARAMS)
            (i->op == TIR_LOAD ? loaded : stored)[i->args[0]->aux] = true;
        scan_use(&i->body[0], loaded, stored);
        scan_use(&i->body[1], loaded, stored);
    }
}

void run_tensor_use(const TirFunc *f, bool *loaded, bool *stored)
{
    memset(loaded, 0, sizeof(bool) * RUN_MAX_PARAMS);
    memset(stored, 0, sizeof(bool) * RUN_MAX_PARAMS);
    scan_use(&f->body, loaded, stored);
}

static TkTypeKind elem_of(const TkType *t) { return tk_is_scalar(t->kind) ? t->kind : t->elem; }

static double eps_of(TkTypeKind k) { return k == TK_TY_BF16 ? 0x1p-7 : k == TK_TY_F16 ? 0x1p-10 : 0x1p-23; }

/* The largest epsilon of a bf16/f16 value the kernel computes (not merely
 * loads or moves): converts, casts and arithmetic whose result is 16-bit. */
static double rounding_eps(const TirRegion *r)
{
    double eps = 0x1p-23;
    for (const TirInstr *i = r->first; i; i = i->next) {
        bool computes = i->op == TIR_CONVERT || i->op == TIR_CAST || i->op == TIR_MAP1 || i->op == TIR_MAP2 ||
                        i->op == TIR_REDUCE || i->op == TIR_BROADCAST || i->op == TIR_BINARY;
        if (computes && i->type) {
            TkTypeKind k = elem_of(i->type);
            bool same = i->op == TIR_CONVERT && i->nargs > 0 && elem_of(i->args[0]->type) == k;   /* a layout change */
            if ((k == TK_TY_BF16 || k == TK_TY_F16) && !same && eps_of(k) > eps) eps = eps_of(k);
        }
        double e0 = rounding_eps(&i->body[0]), e1 = rounding_eps(&i->body[1]);
        if (e0 > eps) eps = e0;
        if (e1 > eps) eps = e1;
    }
    return eps;
}

/* slot := slot ± x (or fma(a, b, slot)): a running sum, which a loop may
 * carry over any number of iterations (acc = acc + x over the rows). */
static bool accumulates(const TirInstr *i)
{
    if (i->op != TIR_SET || i->nargs < 2) return false;
    const TirInstr *v = i->args[1];
    bool sum = (v->op == TIR_MAP2 && (v->aux == TIR_FN_ADD || v->aux == TIR_FN_SUB)) ||
               (v->op == TIR_MAP3 && v->aux == TIR_FN_FMA) ||
               (v->op == TIR_BINARY && (v->aux == TK_OP_ADD || v->aux == TK_OP_SUB) && tk_is_float(v->type->kind));
    if (!sum) return false;
    for (unsigned a = 0; a < v->nargs; a++)
        if (v->args[a]->op == TIR_GET && v->args[a]->args[0] == i->args[0]) return true;
    return false;
}

static bool has_sum(const TirRegion *r, bool in_loop)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        bool loop = in_loop || i->op == TIR_FOR;
        if ((i->op == TIR_REDUCE && i->aux == TIR_FN_ADD) || (in_loop && accumulates(i)) || has_sum(&i->body[0], loop) ||
            has_sum(&i->body[1], loop))
            return true;
    }
    return false;
}

/* The accumulation depth D of the kernel's results, at least 1: mma
 * multiply-adds per stored element, or — for a kernel with row/column sums
 * or a running sum in a loop (acc = acc + x), which may run over any number
 * of tiles — the
 * longest dimension of the tensors it loads (the longest a sum can run
 * without nesting), whichever is larger. */
static double depth_of(const TirFunc *f, double macs, const int64_t *sizes)
{
    bool loaded[RUN_MAX_PARAMS], stored[RUN_MAX_PARAMS];
    run_tensor_use(f, loaded, stored);
    double elems = 0, longest = 1;
    for (unsigned p = 0; p < f->nparams && p < RUN_MAX_PARAMS; p++) {
        if (stored[p]) elems += (double)tir_tensor_elements(f, p, sizes);
        if (loaded[p])
            for (unsigned d = 0; d < f->params[p].type->rank; d++)
                if ((double)tir_tensor_dim(f, p, d, sizes) > longest) longest = (double)tir_tensor_dim(f, p, d, sizes);
    }
    double d = elems > 0 && macs > 0 ? macs / elems : 1;
    if (has_sum(&f->body, false) && longest > d) d = longest;
    return d > 1 ? d : 1;
}

/* ---------------------------------------------------------------- the reference kernel */

typedef struct {
    TkFront front;
    bool loaded;
    TirModule m;
    const TirFunc *f;
    int of_kernel[RUN_MAX_PARAMS];   /* reference parameter q is the kernel's parameter of_kernel[q] */
    int64_t sizes[TK_MAX_SIZES];
} Reference;

static void reference_free(Reference *r)
{
    if (r->loaded) tk_front_free(&r->front);
    r->loaded = false;
}

static bool same_type(const TkType *a, const TkType *b)
{
    if (a->kind != b->kind) return false;
    if (a->kind != TK_TY_GL) return true;
    return a->elem == b->elem && a->rank == b->rank && a->layout == b->layout;
}

/* Loads FILE.tk[:KERNEL] and matches its parameters to the kernel's by name. */
static int reference_load(const char *spec, const TirFunc *kernel, const int64_t *sizes, const RunArgs *A, Reference *r,
                          char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    char path[4096];
    const char *colon = strrchr(spec, ':');
    const char *want = NULL;
    if (colon && colon[1] && !strchr(colon, '/')) {
        snprintf(path, sizeof path, "%.*s", (int)(colon - spec), spec);
        want = colon + 1;
    } else {
        snprintf(path, sizeof path, "%s", spec);
    }
    if (tk_front_load(&r->front, path) != 0) {
        snprintf(err, errlen, "--reference: cannot read '%s'", path);
        return RUN_USAGE;
    }
    r->loaded = true;
    tk_front_parse(&r->front);
    tk_front_check(&r->front);
    if (r->front.diags.errors) {
        tk_diags_print_text(&r->front.diags, stderr);
        snprintf(err, errlen, "--reference: %s has errors", path);
        return RUN_USAGE;
    }
    if (tir_from_ast(&r->m, &r->front.arena, &r->front.src, &r->front.diags, r->front.items) != 0 || tir_verify(&r->m, stderr) != 0) {
        snprintf(err, errlen, "--reference: internal error while lowering %s", path);
        return RUN_FAILED;
    }
    unsigned nk = 0;
    const TirFunc *same_name = NULL, *only = NULL;
    for (const TirFunc *k = r->m.funcs; k; k = k->next) {
        nk++;
        only = k;
        if (want && strcmp(k->name, want) == 0) r->f = k;
        if (strcmp(k->name, kernel->name) == 0) same_name = k;
    }
    if (!want) r->f = same_name ? same_name : nk == 1 ? only : NULL;
    if (!r->f) {
        if (want) snprintf(err, errlen, "--reference: no kernel named '%s' in %s", want, path);
        else snprintf(err, errlen, "--reference: %s has %u kernels and none is named %s; write %s:KERNEL", path, nk, kernel->name, path);
        return RUN_USAGE;
    }
    if (r->f->nparams > RUN_MAX_PARAMS) {
        snprintf(err, errlen, "--reference: kernel %s has too many parameters", r->f->name);
        return RUN_USAGE;
    }
    TkArg args[RUN_MAX_PARAMS];
    for (unsigned q = 0; q < r->f->nparams; q++) {
        const TirParam *rp = &r->f->params[q];
        int found = -1;
        for (unsigned p = 0; p < kernel->nparams; p++)
            if (strcmp(kernel->params[p].name, rp->name) == 0) found = (int)p;
        if (found < 0 || !same_type(kernel->params[found].type, rp->type)) {
            char have[96] = "nothing", need[96];
            if (found >= 0) tk_type_format(kernel->params[found].type, have, sizeof have);
            tk_type_format(rp->type, need, sizeof need);
            snprintf(err, errlen, "--reference: parameter %s of %s is %s, but kernel %s has %s of that name", rp->name, r->f->name,
                     need, kernel->name, have);
            return RUN_USAGE;
        }
        r->of_kernel[q] = found;
        args[q] = A->args[found];
    }
    char why[400];
    if (tir_bind_sizes(r->f, args, r->f->nparams, r->sizes, why, sizeof why) != 0) {
        snprintf(err, errlen, "--reference %s: %s", r->f->name, why);
        return RUN_USAGE;
    }
    (void)sizes;
    return RUN_OK;
}

/* ---------------------------------------------------------------- comparing */

typedef struct {
    double rtol, atol_given, rtol_given;
    double depth;
    double eps_kernel;             /* narrowest rounding inside the kernel(s) */
    const double *bound;           /* per element, or NULL */
} Rule;

static void compare_tensor(const RunArgs *A, unsigned p, TkTypeKind elem, const double *ref, const Rule *rule, RunTensorCheck *t)
{
    int64_t n = A->count[p];
    double sum2 = 0;
    int64_t finite = 0;
    for (int64_t i = 0; i < n; i++)
        if (isfinite(ref[i])) {
            sum2 += ref[i] * ref[i];
            finite++;
        }
    double scale = finite && sum2 > 0 ? sqrt(sum2 / (double)finite) : 1;
    double eps = eps_of(elem) > rule->eps_kernel ? eps_of(elem) : rule->eps_kernel;
    double rtol_default = 2 * eps + 8 * sqrt(rule->depth) * U_F32;
    t->elem = elem;
    t->scale = scale;
    t->depth = rule->depth;
    t->rtol = rule->rtol_given >= 0 ? rule->rtol_given : rtol_default;
    t->atol = rule->atol_given >= 0 ? rule->atol_given : rtol_default * scale;
    t->bounds = rule->bound != NULL;
    t->worst = -1;
    t->worst_ratio = -1;
    for (int64_t i = 0; i < n; i++) {
        double x = tir_elem_get(elem, A->data[p], i), r = ref[i];
        double allowed = t->atol + t->rtol * fabs(r);
        if (rule->bound && !isinf(rule->bound[i])) {
            /* a bound of 0 is an exact chain of moves: the value must be the same. Otherwise the
             * kernel's f32 result may also lie on the other side of the interpreter's double:
             * 2^-23·|ref| covers that rounding both ways */
            double b = rule->bound[i] + (elem == TK_TY_F32 && rule->bound[i] > 0 ? 2 * U_F32 * fabs(r) : 0);
            if (b < allowed) allowed = b;
        }
        double d, ratio;
        bool ok;
        if (isnan(r) || isnan(x)) {
            ok = isnan(r) && isnan(x);
            t->nan_both += ok;
            d = ok ? 0 : INFINITY;
            ratio = ok ? 0 : INFINITY;
        } else if (isinf(r) || isinf(x)) {
            ok = x == r;
            d = ok ? 0 : INFINITY;
            ratio = ok ? 0 : INFINITY;
        } else {
            d = fabs(x - r);
            ok = d <= allowed;
            ratio = d == 0 ? 0 : allowed > 0 ? d / allowed : INFINITY;
            if (d > t->max_abs) t->max_abs = d;
            if (fabs(r) >= scale && d / fabs(r) > t->max_rel) t->max_rel = d / fabs(r);
        }
        t->checked++;
        if (!ok) t->bad++;
        if (ratio > t->max_ratio) t->max_ratio = ratio;
        if (ratio > t->worst_ratio) {
            t->worst = i;
            t->worst_ratio = ratio;
            t->worst_value = x;
            t->worst_ref = r;
            t->worst_abs = d;
            t->worst_allowed = allowed;
        }
    }
}

int run_check(const RunCheckInput *in, RunArgs *A, RunCheck *c, char *err, size_t errlen)
{
    const RunOptions *o = in->o;
    const TirFunc *f = in->f;
    memset(c, 0, sizeof *c);
    c->worst_tensor = -1;
    double *ref[RUN_MAX_PARAMS] = { 0 }, *bound[RUN_MAX_PARAMS] = { 0 };
    bool compare[RUN_MAX_PARAMS] = { false };
    const char *against[RUN_MAX_PARAMS] = { 0 };
    Reference R;
    memset(&R, 0, sizeof R);
    int rc = RUN_OK;
    bool loaded[RUN_MAX_PARAMS], stored[RUN_MAX_PARAMS];
    run_tensor_use(f, loaded, stored);
    Rule rule = { .atol_given = o->atol, .rtol_given = o->rtol, .eps_kernel = rounding_eps(&f->body) };
    rule.depth = depth_of(f, in->macs, in->sizes);
    bool want_bounds = !o->reference && !o->nexpects && o->atol < 0 && o->rtol < 0;

    for (unsigned p = 0; p < f->nparams; p++) {
        if (f->params[p].type->kind != TK_TY_GL) continue;
        size_t n = (size_t)(A->count[p] > 0 ? A->count[p] : 1);
        ref[p] = malloc(sizeof(double) * n);
        if (want_bounds) bound[p] = calloc(n, sizeof(double));   /* the inputs are exact */
        if (!ref[p] || (want_bounds && !bound[p])) {
            snprintf(err, errlen, "out of memory for the reference");
            rc = RUN_FAILED;
            goto out;
        }
        for (int64_t i = 0; i < A->count[p]; i++) ref[p][i] = tir_elem_get(f->params[p].type->elem, A->initial[p], i);
    }

    if (o->reference) {
        if ((rc = reference_load(o->reference, f, in->sizes, A, &R, err, errlen)) != RUN_OK) goto out;
        double *rt[RUN_MAX_PARAMS] = { 0 }, rs[RUN_MAX_PARAMS] = { 0 };
        for (unsigned q = 0; q < R.f->nparams; q++) {
            rt[q] = ref[R.of_kernel[q]];
            rs[q] = A->scalar[R.of_kernel[q]];
        }
        char why[400];
        if (tir_interp_run(R.f, rt, rs, R.sizes, why, sizeof why) != 0) {
            snprintf(err, errlen, "--reference %s: the interpreter failed: %s", R.f->name, why);
            rc = RUN_FAILED;
            goto out;
        }
        double flops = 0;
        /* both count whole tiles, so padding at ragged edges only ever adds: the smaller count is the closer */
        if (tir_count_flops(R.f, rs, R.sizes, &flops)) {
            double rdepth = depth_of(R.f, flops / 2, R.sizes);
            if (rdepth < rule.depth) rule.depth = rdepth;
        }
        double reps = rounding_eps(&R.f->body);
        if (reps > rule.eps_kernel) rule.eps_kernel = reps;
        bool rloaded[RUN_MAX_PARAMS], rstored[RUN_MAX_PARAMS];
        run_tensor_use(R.f, rloaded, rstored);
        for (unsigned q = 0; q < R.f->nparams; q++) {
            unsigned p = (unsigned)R.of_kernel[q];
            if (f->params[p].type->kind != TK_TY_GL) continue;
            compare[p] = true;
            against[p] = "reference";
            if (rstored[q]) stored[p] = true;
        }
        snprintf(c->reference_name, sizeof c->reference_name, "%s", o->reference);
        c->basis = "a reference kernel interpreted in double precision";
    } else if (!o->nexpects) {
        TirInterpBounds b = { .err = bound };
        char why[400];
        int irc = want_bounds ? tir_interp_run_bounded(f, ref, &b, A->scalar, in->sizes, why, sizeof why)
                              : tir_interp_run(f, ref, A->scalar, in->sizes, why, sizeof why);
        if (irc != 0) {
            snprintf(err, errlen, "the interpreter failed: %s", why);
            rc = RUN_FAILED;
            goto out;
        }
        if (want_bounds && b.unreliable) {
            snprintf(c->bounds_note, sizeof c->bounds_note, "error bounds unreliable (%s): the default rule alone decides", b.why);
            want_bounds = false;
        }
        for (unsigned p = 0; p < f->nparams; p++)
            if (f->params[p].type->kind == TK_TY_GL) {
                compare[p] = true;
                against[p] = "interpreter";
            }
        c->basis = want_bounds ? "the kernel's own interpretation in double precision, with its error bounds"
                               : "the kernel's own interpretation in double precision";
    } else {
        c->basis = "expected values from files (--expect)";
    }
    for (int e = 0; e < o->nexpects; e++) {
        int p = run_find_tensor(f, o->expects[e].name, "--expect", err, errlen);
        if (p < 0) {
            rc = RUN_USAGE;
            goto out;
        }
        if (run_read_npy_values(o->expects[e].value, f, (unsigned)p, in->sizes, ref[p], err, errlen) != 0) {
            rc = RUN_USAGE;
            goto out;
        }
        compare[p] = true;
        against[p] = o->expects[e].value;
    }

    c->ran = true;
    c->correct = true;
    double worst = -1;
    for (unsigned p = 0; p < f->nparams; p++) {
        if (!compare[p]) continue;
        RunTensorCheck *t = &c->t[c->ntensors];
        t->name = f->params[p].name;
        t->param = p;
        t->against = against[p];
        t->output = stored[p];
        Rule r = rule;
        r.bound = want_bounds ? bound[p] : NULL;
        compare_tensor(A, p, f->params[p].type->elem, ref[p], &r, t);
        if (t->bad) c->correct = false;
        if (t->max_abs > c->max_abs) c->max_abs = t->max_abs;
        if (t->max_rel > c->max_rel) c->max_rel = t->max_rel;
        if (t->worst >= 0 && t->worst_ratio > worst) {
            worst = t->worst_ratio;
            c->worst_tensor = (int)c->ntensors;
        }
        c->ntensors++;
    }
out:
    reference_free(&R);
    for (unsigned p = 0; p < RUN_MAX_PARAMS; p++) {
        free(ref[p]);
        free(bound[p]);
    }
    return rc;
}
