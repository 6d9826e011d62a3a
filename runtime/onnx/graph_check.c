/* graph_check.c — every node of every graph looked up in the op table
 * before anything runs: an unknown op, an opset outside what we implement,
 * an attribute the implementation does not read, a wrong input count, a
 * value of a dtype we do not have, or what the op's own check refuses. All
 * problems are gathered into one message (a line per node), so a user sees
 * everything a model needs at once rather than one failure per attempt.
 * graph_infer.c adds the type problems it finds to the same list;
 * tko_report_problems makes the message once both have run. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "onnx_tensor.h"

#define MAX_LINES 40

/* Appends one problem line to the model's list (the first MAX_LINES kept). */
void tko_problem(TkoModel *m, const char *fmt, ...)
{
    if (++m->nproblems > MAX_LINES || m->problems_oom) return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= sizeof line) n = sizeof line - 1;
    if (m->problems_len + (size_t)n + 4 > m->problems_cap) {
        size_t cap = m->problems_cap ? 2 * m->problems_cap + (size_t)n : 1024;
        char *t = realloc(m->problems, cap);
        if (!t) {
            m->problems_oom = true;
            return;
        }
        m->problems = t, m->problems_cap = cap;
    }
    char *p = m->problems + m->problems_len;
    p[0] = '\n', p[1] = ' ', p[2] = ' ';
    memcpy(p + 3, line, (size_t)n);
    m->problems_len += (size_t)n + 3;
    m->problems[m->problems_len] = 0;
}

typedef struct {
    TkoModel *m;
} Report;

#define add(r, ...) tko_problem((r)->m, __VA_ARGS__)

static const char *domain_name(const char *d) { return *d ? d : "ai.onnx"; }

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
            if (!tko_listed(n->def->attrs, n->attrs[a].name))
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
    Report r = { m };
    check_graph(&r, m->graph);
    return m->problems_oom ? tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory checking '%s'", m->path) : TK_OK;
}

tk_status tko_report_problems(TkoModel *m)
{
    if (m->problems_oom) return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory checking '%s'", m->path);
    if (!m->nproblems) return TK_OK;
    return tkr_error(m->ctx, TK_ERR_UNSUPPORTED, "tk_onnx_load: '%s' uses what this runtime does not support (%d problem%s):%s%s",
                     m->path, m->nproblems, m->nproblems == 1 ? "" : "s", m->problems ? m->problems : "",
                     m->nproblems > MAX_LINES ? "\n  ... (the rest are of the same kinds)" : "");
}
