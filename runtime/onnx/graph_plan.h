/* graph_plan.h — memory plans of a model's main graph (graph_plan.c), and
 * what the executor needs of them: where each planned value goes in the
 * arena, and which nodes may return views of their inputs. */
#ifndef TK_RUNTIME_ONNX_GRAPH_PLAN_H
#define TK_RUNTIME_ONNX_GRAPH_PLAN_H

#include "device.h"
#include "onnx_ir.h"

#define TKO_PLAN_ALIGN 64        /* every offset: the kernels' widest vector loads stay aligned */
#define TKO_PLAN_MAX_SYMS 64     /* dim names one binding holds */

/* Per node, what runs taught the planner (TkoModel.plan_learned). */
enum {
    TKO_LEARN_ESCAPED = 1,   /* a block placed for it stayed held outside its outputs once (a weight layout made
                              * on first use, say); a second time makes it TKO_LEARN_ALIAS */
    TKO_LEARN_ALIAS = 2,     /* it returned memory of an input, or kept a placed block: planned as may-alias */
};

/* One plan: the binding of the dim names it was made for, and where each
 * value of the main graph goes. */
typedef struct TkoPlan {
    struct TkoPlan *next;
    int nsyms;
    const char *sym_names[TKO_PLAN_MAX_SYMS];
    int64_t sym_sizes[TKO_PLAN_MAX_SYMS];
    int64_t *offset;         /* per value: its place in the arena, -1 when it is not planned */
    size_t *bytes;           /* per value: its size when planned */
    bool *may_alias;         /* per node: its outputs may be (views of) its inputs, so they are not placed */
    size_t arena_bytes;      /* the highest end of a placement */
    size_t planned_bytes;    /* the planned values' sizes added up */
    size_t live_peak;        /* the most planned bytes live at one node: no arena can be smaller */
    int nplanned;
} TkoPlan;

/* The plan for the binding the main graph's bound inputs (vals) make: a
 * cached one, or a new one (printed with opts.dump "plan"). *out is NULL
 * when nothing is planned. Fails only when out of memory. */
tk_status tko_plan_for_run(TkoModel *m, tk_tensor *const *vals, const TkoPlan **out);
/* Drops every cached plan (after a run taught the planner something). */
void tko_plans_free(TkoModel *m);

/* graph_plan_run.c: the executor's side, for the run's plan (m->run_plan, m->arena). */
typedef struct {
    int n;
    int value[TKR_ARENA_MAX_ARMED];
    size_t bytes[TKR_ARENA_MAX_ARMED], offset[TKR_ARENA_MAX_ARMED];
} TkoPlacing;
/* Before node `node` of g: arms the calling thread with its planned outputs (nothing for a subgraph). */
void tko_plan_arm(TkoModel *m, const TkoGraph *g, int node, TkoPlacing *pl);
/* After it failed: disarms. */
void tko_plan_disarm(TkoModel *m, TkoPlacing *pl);
/* After it ran, its outputs in vals: disarms and checks what the op did against the plan; a surprise
 * leaves the arena for the rest of the run and is remembered for the next plan. */
void tko_plan_check(TkoModel *m, const TkoGraph *g, int node, TkoPlacing *pl, tk_tensor *const *in, int nin, tk_tensor *const *vals);

#endif
