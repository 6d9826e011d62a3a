/* graph_check.c — every node of every graph looked up in the op table
 * before anything runs: an unknown op, an opset outside what we implement,
 * an attribute the implementation does not read, a wrong input count, a
 * value of a dtype we do not have, or what the op's own check refuses. All
 * problems are gathered into one message (a line per node), so a user sees
 * everything a model needs at once rather than one failure per attempt. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "onnx_tensor.h"

#define MAX_LINES 40

typedef struct {
    TkoModel *m;
    char *text;
    size_t len, cap;
    int problems;
    bool oom;
} Report;

static void add(Report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(Report *r, const char *fmt, ...)
{
    if (++r->problems > MAX_LINES || r->oom) return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= sizeof line) n = sizeof line - 1;
    if (r->len + (size_t)n + 4 > r->cap) {
        size_t cap = r->cap ? 2 * r->cap + (size_t)n : 1024;
        char *t = realloc(r->text, cap);
        if (!t) {
            r->oom = true;
            return;
        }
        r->text = t, r->cap = cap;
    }
    r->text[r->len++] = '\n';
    r->text[r->len++] = ' ';
    r->text[r->len++] = ' ';
    memcpy(r->text + r->len, line, (size_t)n);
    r->len += (size_t)n;
    r->text[r->len] = 0;
}

static const char *domain_name(const char *d) { return *d ? d : "ai.onnx"; }

/* Is `name` in the comma-separated list? */
static bool listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && memcmp(p, name, n) == 0) return true;
        if (!e) break;
        p = e + 1;
    }
    return false;
}

static void check_type(Report *r, const char *what, const TkoValue *v)
{
    if (!v->type.kind) return;
    if (strcmp(v->type.kind, "sequence") == 0 || strcmp(v->type.kind, "optional") == 0) return;   /* of tensors: checked when used */
    if (strcmp(v->type.kind, "tensor") != 0) {
        add(r, "%s '%s' is a %s; tensors, sequences of tensors and optionals are supported", what, v->name, v->type.kind);
        return;
    }
    if (v->type.elem_type && tkr_onnx_dtype(v->type.elem_type) < 0)
        add(r, "%s '%s' has elements of type %s, which the runtime does not have", what, v->name,
            tkr_onnx_type_name(v->type.elem_type));
}

static void check_graph(Report *r, TkoGraph *g)
{
    TkoModel *m = r->m;
    for (int i = 0; i < g->nin; i++) check_type(r, g->parent ? "subgraph input" : "input", &g->values[g->inputs[i]]);
    for (int i = 0; i < g->nout; i++) check_type(r, g->parent ? "subgraph output" : "output", &g->values[g->outputs[i]]);
    for (int i = 0; i < g->nnodes; i++) {
        TkoNode *n = &g->nodes[i];
        n->opset = tko_opset(m, n->domain);
        bool imported = false;
        for (int k = 0; k < m->nopsets; k++) imported |= strcmp(m->opsets[k].domain, n->domain) == 0;
        if (!imported) {
            add(r, "node '%s': op %s of domain '%s', which the model does not import (no opset_import for it)", n->name, n->op,
                domain_name(n->domain));
            continue;
        }
        const char *why = NULL;
        n->def = tko_find_op(n->domain, n->op, n->opset, &why);
        if (!n->def) {
            add(r, "node '%s': op %s (domain %s, opset %d): %s", n->name, n->op, domain_name(n->domain), n->opset, why);
            continue;
        }
        for (int a = 0; a < n->nattrs; a++)
            if (!listed(n->def->attrs, n->attrs[a].name))
                add(r, "node '%s': op %s (opset %d): attribute '%s' is not supported", n->name, n->op, n->opset, n->attrs[a].name);
        if (n->nout == 0) add(r, "node '%s': op %s has no outputs", n->name, n->op);
        if (n->nin < n->def->min_inputs || (n->def->max_inputs >= 0 && n->nin > n->def->max_inputs))
            add(r, "node '%s': op %s (opset %d) has %d inputs; it takes %d to %d", n->name, n->op, n->opset, n->nin,
                n->def->min_inputs, n->def->max_inputs);
        char whybuf[256];
        if (n->def->check && n->def->check(m, n, whybuf, sizeof whybuf))
            add(r, "node '%s': op %s (opset %d): %s", n->name, n->op, n->opset, whybuf);
        for (int a = 0; a < n->nattrs; a++) {
            if (n->attrs[a].g) check_graph(r, n->attrs[a].g);
            for (int k = 0; k < n->attrs[a].n && n->attrs[a].type == TKO_ATTR_GRAPHS; k++) check_graph(r, n->attrs[a].graphs[k]);
        }
    }
}

tk_status tko_check_graph(TkoModel *m)
{
    Report r = { m, NULL, 0, 0, 0, false };
    check_graph(&r, m->graph);
    tk_status s = TK_OK;
    if (r.oom) s = tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory checking '%s'", m->path);
    else if (r.problems)
        s = tkr_error(m->ctx, TK_ERR_UNSUPPORTED, "tk_onnx_load: '%s' uses what this runtime does not support (%d problem%s):%s%s",
                      m->path, r.problems, r.problems == 1 ? "" : "s", r.text ? r.text : "",
                      r.problems > MAX_LINES ? "\n  ... (the rest are of the same kinds)" : "");
    free(r.text);
    return s;
}
