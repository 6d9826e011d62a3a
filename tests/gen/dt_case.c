/* dt_case.c — see dt_case.h. */
#include "dt_case.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_values.h"
#include "lower.h"
#include "tir_interp.h"
#include "tk/dtype.h"

/* ---------------------------------------------------------------- programs */

DtLoad dt_program_load(DtProgram *p, const char *name, const char *text, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (tk_front_load_memory(&p->fe, name, text, strlen(text)) != 0) {
        snprintf(err, errlen, "out of memory");
        return DT_LOAD_INTERNAL;
    }
    tk_front_parse(&p->fe);
    if (!p->fe.diags.errors) tk_front_check(&p->fe);
    if (p->fe.diags.errors) {
        /* the first diagnostic's text, for the report */
        char *buf = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&buf, &len);
        if (mem) {
            tk_diags_print_text(&p->fe.diags, mem);
            fclose(mem);
        }
        snprintf(err, errlen, "%.*s", (int)(buf ? strcspn(buf, "\n") : 0), buf ? buf : "");
        free(buf);
        return DT_LOAD_REJECTED;
    }
    char *vbuf = NULL;
    size_t vlen = 0;
    FILE *mem = open_memstream(&vbuf, &vlen);
    if (!mem) {
        snprintf(err, errlen, "out of memory");
        return DT_LOAD_INTERNAL;
    }
    int rc = tir_from_ast(&p->m, &p->fe.arena, &p->fe.src, &p->fe.diags, p->fe.items);
    unsigned problems = rc == 0 ? tir_verify(&p->m, mem) : 0;
    fclose(mem);
    if (rc != 0 || problems) {
        snprintf(err, errlen, "%s", rc != 0 ? "tir_from_ast failed on a program the checker accepted" : vbuf);
        free(vbuf);
        return DT_LOAD_INTERNAL;
    }
    free(vbuf);
    p->lowered = true;
    return DT_LOAD_OK;
}

void dt_program_free(DtProgram *p)
{
    tk_front_free(&p->fe);
    memset(p, 0, sizeof *p);
}

const TirFunc *dt_program_kernel(const DtProgram *p, const char *kernel)
{
    for (const TirFunc *f = p->m.funcs; f; f = f->next)
        if (strcmp(f->name, kernel) == 0) return f;
    return NULL;
}

/* ---------------------------------------------------------------- cases */

/* The value of NAME in a "A=1,B=2" list, copied into buf; NULL if absent. */
static const char *lookup(const char *list, const char *name, char *buf, size_t len)
{
    size_t nl = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        if ((size_t)(end - p) > nl && strncmp(p, name, nl) == 0 && p[nl] == '=') {
            snprintf(buf, len, "%.*s", (int)(end - p - (ptrdiff_t)nl - 1), p + nl + 1);
            return buf;
        }
        p = *end ? end + 1 : end;
    }
    return NULL;
}

int dt_case_make(DtCase *c, const TirFunc *f, const char *sizes, const char *scalars, uint64_t seed, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    if (f->nparams > DT_MAX_PARAMS) {
        snprintf(err, errlen, "too many parameters");
        return -1;
    }
    c->nparams = f->nparams;
    c->nsizes = f->sizes ? f->sizes->count : 0;
    char buf[128];
    for (unsigned k = 0; k < c->nsizes; k++) {
        const char *v = lookup(sizes, f->sizes->names[k], buf, sizeof buf);
        if (!v) {
            snprintf(err, errlen, "no value for size %s", f->sizes->names[k]);
            return -1;
        }
        c->sizes[k] = strtoll(v, NULL, 10);
    }
    double *vals[DT_MAX_PARAMS] = { 0 }, *errs[DT_MAX_PARAMS] = { 0 }, scal[DT_MAX_PARAMS] = { 0 };
    uint64_t rng = seed | 1;   /* as tk_cross_gen seeds a case with seed=N: the same inputs */
    Gen uniform = { .kind = GEN_UNIFORM, .lo = -1, .hi = 1 };
    int rc = -1;
    for (unsigned p = 0; p < f->nparams; p++) {
        DtParam *q = &c->p[p];
        const TkType *t = f->params[p].type;
        snprintf(q->name, sizeof q->name, "%s", f->params[p].name);
        if (t->kind == TK_TY_GL) {
            q->tensor = true;
            q->type = t->elem;
            q->rank = t->rank;
            q->count = 1;
            for (unsigned d = 0; d < t->rank; d++) {
                q->shape[d] = tir_tensor_dim(f, p, d, c->sizes);
                q->count *= q->shape[d];
            }
            if (q->count < 0 || q->count > ((int64_t)1 << 24)) {
                snprintf(err, errlen, "tensor %s has %lld elements", q->name, (long long)q->count);
                goto out;
            }
            size_t es = tir_elem_size(t->elem), n = (size_t)(q->count ? q->count : 1);
            q->init = malloc(n * es);
            q->data = malloc(n * es);
            q->want = malloc(n * sizeof(double));
            q->bound = calloc(n, sizeof(double));
            vals[p] = q->want;
            errs[p] = q->bound;
            if (!q->init || !q->data || !q->want || !q->bound) {
                snprintf(err, errlen, "out of memory");
                goto out;
            }
            for (int64_t i = 0; i < q->count; i++) {
                tir_elem_set(t->elem, q->init, i, gen_value(&uniform, i, &rng));
                q->want[i] = tir_elem_get(t->elem, q->init, i);   /* exactly what the kernel gets */
            }
            memcpy(q->data, q->init, n * es);
            c->args[p] = q->data;
            continue;
        }
        /* scalars: 1 (bool false) unless given */
        q->type = t->kind;
        const char *v = lookup(scalars, q->name, buf, sizeof buf);
        double x = t->kind == TK_TY_BOOL ? 0 : 1;
        if (v) x = strcmp(v, "true") == 0 ? 1 : strcmp(v, "false") == 0 ? 0 : strtod(v, NULL);
        switch (t->kind) {
        case TK_TY_BOOL: q->scalar[0] = x != 0; x = x != 0; break;
        case TK_TY_I32: { int32_t y = (int32_t)x; memcpy(q->scalar, &y, 4); x = y; break; }
        case TK_TY_I64: { int64_t y = (int64_t)x; memcpy(q->scalar, &y, 8); x = (double)y; break; }
        case TK_TY_F32: { float y = (float)x; memcpy(q->scalar, &y, 4); x = y; break; }
        case TK_TY_BF16: { uint16_t y = tk_bf16_from_f32((float)x); memcpy(q->scalar, &y, 2); x = tk_bf16_to_f32(y); break; }
        case TK_TY_F16: { uint16_t y = tk_f16_from_f32((float)x); memcpy(q->scalar, &y, 2); x = tk_f16_to_f32(y); break; }
        default: snprintf(err, errlen, "parameter %s has an unsupported type", q->name); goto out;
        }
        scal[p] = x;
        c->args[p] = q->scalar;
    }
    TirInterpBounds b = { .err = errs };
    if (tir_interp_run_bounded(f, vals, &b, scal, c->sizes, err, errlen) != 0) goto out;
    c->unreliable = b.unreliable;
    snprintf(c->why, sizeof c->why, "%s", b.why);
    for (unsigned p = 0; p < f->nparams; p++) {
        DtParam *q = &c->p[p];
        for (int64_t i = 0; q->tensor && i < q->count; i++) {
            if (isinf(q->bound[i])) c->unbounded++;
            else if (q->type == TK_TY_F32 && isfinite(q->want[i])) q->bound[i] += 0x1p-24 * fabs(q->want[i]);
        }
    }
    rc = 0;
out:
    if (rc != 0) dt_case_free(c);
    return rc;
}

void dt_case_reset(DtCase *c)
{
    for (unsigned p = 0; p < c->nparams; p++)
        if (c->p[p].tensor) memcpy(c->p[p].data, c->p[p].init, (size_t)(c->p[p].count ? c->p[p].count : 1) * tir_elem_size(c->p[p].type));
}

void dt_case_free(DtCase *c)
{
    for (unsigned p = 0; p < DT_MAX_PARAMS; p++) {
        free(c->p[p].init);
        free(c->p[p].data);
        free(c->p[p].want);
        free(c->p[p].bound);
    }
    memset(c, 0, sizeof *c);
}

/* "NAME[i, j]" of flat index i of tensor q. */
static void describe(const DtParam *q, int64_t i, char *buf, size_t len)
{
    int64_t idx[4], rest = i;
    for (int d = (int)q->rank - 1; d >= 0; d--) {
        int64_t e = q->shape[d] > 0 ? q->shape[d] : 1;
        idx[d] = rest % e;
        rest /= e;
    }
    size_t o = (size_t)snprintf(buf, len, "%s[", q->name);
    for (unsigned d = 0; d < q->rank && o < len; d++) o += (size_t)snprintf(buf + o, len - o, "%s%lld", d ? ", " : "", (long long)idx[d]);
    if (o < len) snprintf(buf + o, len - o, "]");
}

static double rounded(TkTypeKind t, double x)
{
    if (t == TK_TY_F32) return (float)x;
    if (t == TK_TY_BF16) return tk_bf16_to_f32(tk_bf16_from_f32((float)x));
    return tk_f16_to_f32(tk_f16_from_f32((float)x));
}

int64_t dt_case_compare(const DtCase *c, DtCompare *r)
{
    memset(r, 0, sizeof *r);
    for (unsigned p = 0; p < c->nparams; p++) {
        const DtParam *q = &c->p[p];
        for (int64_t i = 0; q->tensor && i < q->count; i++) {
            if (isinf(q->bound[i])) continue;
            double got = tir_elem_get(q->type, q->data, i), want = rounded(q->type, q->want[i]);
            bool ok = isnan(want) ? isnan(got) : !isfinite(want) ? got == want : isfinite(got) && fabs(got - want) <= q->bound[i];
            r->checked++;
            if (q->bound[i] == 0) r->exact++;
            else if (isfinite(got) && isfinite(want) && fabs(got - want) / q->bound[i] > r->use) r->use = fabs(got - want) / q->bound[i];
            if (ok) continue;
            if (!r->bad) {
                describe(q, i, r->where, sizeof r->where);
                r->got = got;
                r->want = want;
                r->allowed = q->bound[i];
            }
            r->bad++;
        }
    }
    return r->bad;
}

void *dt_case_save(const DtCase *c)
{
    size_t total = 0;
    for (unsigned p = 0; p < c->nparams; p++)
        if (c->p[p].tensor) total += (size_t)c->p[p].count * tir_elem_size(c->p[p].type);
    unsigned char *s = malloc(total ? total : 1), *o = s;
    if (!s) return NULL;
    for (unsigned p = 0; p < c->nparams; p++)
        if (c->p[p].tensor) {
            size_t n = (size_t)c->p[p].count * tir_elem_size(c->p[p].type);
            memcpy(o, c->p[p].data, n);
            o += n;
        }
    return s;
}

bool dt_case_same_bits(const DtCase *c, const void *saved, char *where, size_t len)
{
    const unsigned char *s = saved;
    for (unsigned p = 0; p < c->nparams; p++) {
        const DtParam *q = &c->p[p];
        if (!q->tensor) continue;
        size_t es = tir_elem_size(q->type);
        for (int64_t i = 0; i < q->count; i++, s += es)
            if (memcmp(s, (const unsigned char *)q->data + (size_t)i * es, es) != 0) {
                describe(q, i, where, len);
                return false;
            }
    }
    return true;
}
