/* fuzz_onnx_model.c — libFuzzer over the ONNX loader (tk_onnx_load_bytes):
 * the protobuf reader, graph sort, the load-time check, constant folding
 * (which runs ops on the model's constants) — and then one run of the model
 * on zero inputs of its declared shapes. The context's memory is capped at
 * 256 MiB, so a model asking for a huge tensor must fail with a message,
 * not exhaust the machine. Seeds: tests/fuzz/corpus-onnx/ (node-suite
 * models). Any crash, sanitizer report or leak fails the run. */
#include <stdint.h>
#include <stdlib.h>

#include "tk/onnx.h"
#include "tk/tensor.h"

static void run_once(tk_context *ctx, tk_model *m)
{
    int nin = tk_model_num_inputs(m), nout = tk_model_num_outputs(m);
    if (nin > 16 || nout > 16) return;
    tk_tensor *in[16] = { 0 }, *out[16] = { 0 };
    bool ok = true;
    for (int i = 0; i < nin && ok; i++) {
        tk_value_info info;
        if (tk_model_input(m, i, &info) != TK_OK || info.ndim < 0) ok = false;
        int64_t shape[TK_MAX_DIMS];
        for (int d = 0; ok && d < info.ndim; d++) shape[d] = info.dims[d] < 0 ? 1 : info.dims[d];
        if (ok && tk_zeros(ctx, info.dtype, info.ndim, shape, &in[i]) != TK_OK) ok = false;
    }
    if (ok && tk_model_run(m, in, out) == TK_OK)
        for (int k = 0; k < nout; k++) tk_tensor_release(out[k]);
    for (int i = 0; i < nin; i++) tk_tensor_release(in[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tk_context *ctx;
    if (tk_context_create(&(tk_context_opts){ .threads = 1, .max_bytes = (size_t)256 << 20 }, &ctx) != TK_OK) return 0;
    tk_model *m = NULL;
    if (tk_onnx_load_bytes(ctx, data, size, "fuzz", NULL, &m) == TK_OK) {
        run_once(ctx, m);
        tk_model_free(m);
    }
    tk_context_free(ctx);
    return 0;
}
