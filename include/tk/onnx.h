/* tk/onnx.h — ONNX models loaded at run time and executed on the tensor
 * runtime: MatMul/Gemm, attention, FFN, convolution and norms run on the
 * stdlib .tk kernels, the rest on the runtime's ops.
 *
 *   tk_model *m;
 *   if (tk_onnx_load(ctx, "model.onnx", NULL, &m) != TK_OK) { fprintf(stderr, "%s\n", tk_last_error(ctx)); ... }
 *   tk_tensor *in[1] = { x }, *out[1];
 *   tk_model_run(m, in, out);          // out[0]: one reference, the caller's
 *   tk_tensor_release(out[0]);
 *   tk_model_free(m);
 *
 * Loading maps the file (and external-data files) and points initializers
 * into the mapping: weights are not copied. Every node is checked at load:
 * a model with ops, attributes or dtypes we do not support fails to load with
 * one message listing all of them (node, op, domain, opset, what is missing).
 * A malformed file is an error naming what is wrong and where; nothing
 * crashes. Ownership follows tk/tensor.h: inputs are borrowed, each output is
 * one new reference for the caller. A model is used from one thread at a time
 * and must not outlive its context.
 */
#ifndef TK_ONNX_H
#define TK_ONNX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tk/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_model tk_model;

/* The FFN rewrite (Linear -> Relu | Gelu -> Linear, and SwiGLU, to one tk_ffn).
 * AUTO: only where the ffn kernels' 256-wide tiles are mostly filled (D and F
 * padded to 256 at most doubling the work): at D = 64 two linears on the gemm
 * kernels' small tiles do a quarter of the work. ALWAYS: wherever the shapes
 * and dtypes fit (for testing, timing). NEVER: leave the linears. */
typedef enum { TK_ONNX_FFN_AUTO = 0, TK_ONNX_FFN_ALWAYS = 1, TK_ONNX_FFN_NEVER = 2 } tk_onnx_ffn_mode;

typedef struct {
    bool no_fuse;        /* run the graph node by node: no rewrites to fused kernels (for comparing) */
    const char *dump;    /* print the graph after these passes ("read,sort,fold,infer,fuse" or "all"); NULL: none */
    FILE *dump_file;     /* where to (NULL: stderr) */
    bool check_infer;    /* debug: compare every value a run makes with its inferred type and shape (a mismatch
                          * fails the run naming the node); not for concurrent runs of one model */
    bool no_plan;        /* no memory plan: every intermediate from the context's allocator (for comparing) */
    tk_onnx_ffn_mode fuse_ffn;   /* the FFN rewrite, unless no_fuse (above) */
    bool bf16;           /* opt-in: 2-d convolutions in bf16 (their f32 weights and biases rounded to bf16
                          * once at load, each input rounded to bf16 at the conv, the f32 accumulator
                          * rounded to bf16 and widened back to f32 unless only such convs read it), on
                          * the bf16 conv kernels (AMX where the CPU has it); every other op stays f32.
                          * Unless no_fuse. */
} tk_onnx_opts;

/* opts may be NULL (defaults). */
tk_status tk_onnx_load(tk_context *ctx, const char *path, const tk_onnx_opts *opts, tk_model **out);
/* The same from bytes in memory (borrowed for the call; initializers are
 * copied). External data is refused. `name` names the model in messages. */
tk_status tk_onnx_load_bytes(tk_context *ctx, const void *data, size_t len, const char *name, const tk_onnx_opts *opts,
                             tk_model **out);
void tk_model_free(tk_model *m);

/* A graph input or output. dims[i] is -1 where the size is symbolic
 * (dim_names[i] then names it, or is NULL for an unnamed one); ndim is -1
 * where the model does not say the rank. dtype is TK_DTYPE_F32 with
 * known_dtype false where the model does not say. */
typedef struct {
    const char *name;
    tk_dtype dtype;
    bool known_dtype;
    int ndim;
    const int64_t *dims;
    const char *const *dim_names;
    const char *kind;    /* "tensor", "sequence" (of tensors) or "optional"; run such models with tk_model_run_values */
} tk_value_info;

int tk_model_num_inputs(const tk_model *m);
int tk_model_num_outputs(const tk_model *m);
tk_status tk_model_input(const tk_model *m, int i, tk_value_info *info);
tk_status tk_model_output(const tk_model *m, int i, tk_value_info *info);

/* Runs the model: inputs[i] for graph input i (NULL for an omitted optional
 * one); outputs[i] receives one reference to output i. Symbolic sizes come
 * from the inputs' shapes and may differ between calls; a size that
 * disagrees with the model (a fixed dim, or one symbol bound to two sizes)
 * is an error naming the input. On failure every outputs[i] is NULL. An
 * output is contiguous (row-major) and never shares memory with an input or
 * a weight of the model (such an output — an Identity, a Reshape of a
 * constant — is copied). */
tk_status tk_model_run(tk_model *m, tk_tensor *const *inputs, tk_tensor **outputs);

/* ---------------------------------------------------------------- sequences and optionals
 *
 * For models whose inputs or outputs are sequences of tensors or optionals.
 * A tk_seq is immutable and refcounted: tk_seq_new retains the items it is
 * given, tk_seq_release gives one reference back. An optional holding a value
 * is passed as that value; an empty one is a tk_seq made with none = true. */
typedef struct tk_seq tk_seq;
tk_status tk_seq_new(tk_context *ctx, tk_tensor *const *items, int n, bool none, tk_seq **out);
int tk_seq_length(const tk_seq *s);                  /* -1 for an empty optional */
tk_tensor *tk_seq_item(const tk_seq *s, int i);      /* borrowed; NULL out of range */
void tk_seq_release(tk_seq *s);

/* One input or output: a tensor, or a sequence / empty optional (seq), or
 * neither (an omitted optional input; an output never is). */
typedef struct {
    tk_tensor *tensor;
    tk_seq *seq;
} tk_value;

/* tk_model_run for any kind of value: outputs[i] receives one new reference
 * in .tensor or .seq. tk_model_run is this for all-tensor models. */
tk_status tk_model_run_values(tk_model *m, const tk_value *inputs, tk_value *outputs);

/* Memory of a model's runs. Intermediates whose size inference knows are
 * planned into one arena by liveness (a plan per binding of the symbolic
 * dims, made on the first run with it): arena_bytes is that plan's size,
 * planned_bytes what the same values would take side by side. peak_bytes is
 * measured: the context's peak of tensor memory (tk_memory_stats), arena
 * included. */
typedef struct {
    size_t arena_bytes;      /* the last run's plan (0: none, or opts.no_plan) */
    size_t planned_bytes;    /* the sum of the planned values' sizes */
    int planned_values;      /* how many values the plan placed */
    int plans;               /* plans cached (one per binding seen) */
    int plan_misses;         /* runs that found an op aliasing memory the plan did not expect (the arena was
                              * left for the rest of that run and the op is planned around from then on) */
    size_t peak_bytes;       /* measured peak of the context's tensor memory */
} tk_model_memory_stats;
tk_status tk_model_memory(const tk_model *m, tk_model_memory_stats *out);

/* The graph after preparation, one node per line ("%out = Op(%a, %b) {attrs}"),
 * for `tkrun --dump`. The string belongs to the model. */
const char *tk_model_dump(tk_model *m);

/* Every op the loader implements, one line each ("Conv\topset 1+"), with the
 * domain for non-default ones ("com.microsoft.Gelu"). */
void tk_onnx_list_ops(FILE *f);

/* Per-node timings (with profiling on): tk_profile_records of tk/tensor.h,
 * kind "node", named "<op> '<node name>'". */

#ifdef __cplusplus
}
#endif

#endif
