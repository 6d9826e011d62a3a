/* test_loader.c — the ONNX loader's own behaviour on models gen_models.py
 * writes at test time ($TK_ONNX_MODELS): symbolic dims, unsorted graphs,
 * cycles, every unsupported thing listed in one message, external data
 * viewed in place, If branches reading outer values, constant folding, and
 * malformed bytes (every truncation, random corruption) that must give an
 * error and never a crash or a leak; inferred types and shapes with symbolic
 * dims against a reviewed text (infer_symbolic.txt) and against what runs make,
 * value_info conflicts and intermediate types refused at load, dead nodes.
 * Values are compared with NumPy's. */
#define _GNU_SOURCE   /* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "onnx_ir.h"

static const char *dir(void)
{
    const char *d = getenv("TK_ONNX_MODELS");
    return d ? d : "onnx-models";
}

static char *path_of(const char *name)
{
    static char buf[4][1024];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir(), name);
    return buf[k];
}

static tk_tensor *load_npy(const char *name)
{
    tk_tensor *t;
    TKT_OK(tk_load_npy(tkt_ctx, path_of(name), &t));
    return t;
}

START_TEST(symbolic_batch)
{
    tk_model *m;
    TKT_OK(tk_onnx_load(tkt_ctx, path_of("chain.onnx"), NULL, &m));
    ck_assert_int_eq(tk_model_num_inputs(m), 1);   /* the initializers are not inputs */
    ck_assert_int_eq(tk_model_num_outputs(m), 1);
    tk_value_info in;
    TKT_OK(tk_model_input(m, 0, &in));
    ck_assert_str_eq(in.name, "x");
    ck_assert(in.known_dtype && in.dtype == TK_DTYPE_F32);
    ck_assert_int_eq(in.ndim, 3);
    ck_assert_int_eq(in.dims[0], -1);
    ck_assert_str_eq(in.dim_names[0], "N");
    ck_assert_int_eq(in.dims[2], 7);
    TKT_FAILS(tk_model_input(m, 1, &in), TK_ERR_INDEX, "1 inputs");

    tk_tensor *x = load_npy("chain_x.npy"), *want = load_npy("chain_y.npy"), *y = NULL;
    TKT_OK(tk_model_run(m, &x, &y));
    tkt_expect_close(y, want, 1e-6, 1e-6, true, "chain N=3");
    tk_tensor_release(y);
    /* another batch size through the same model: N = 2 */
    tk_tensor *x2, *want2, *y2;
    TKT_OK(tk_slice(tkt_ctx, x, 0, 1, 3, 1, &x2));
    TKT_OK(tk_slice(tkt_ctx, want, 0, 1, 3, 1, &want2));
    TKT_OK(tk_model_run(m, &x2, &y2));
    tkt_expect_close(y2, want2, 1e-6, 1e-6, true, "chain N=2");
    /* a fixed dim that disagrees, and a wrong dtype */
    tk_tensor *bad, *bad_dt;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 3, 4, 7 }, &bad));
    TKT_FAILS(tk_model_run(m, &bad, &y), TK_ERR_SHAPE, "input 'x' must have shape [N, 5, 7], it has [3, 4, 7]");
    ck_assert_ptr_null(y);
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F64, 3, (int64_t[]){ 3, 5, 7 }, &bad_dt));
    TKT_FAILS(tk_model_run(m, &bad_dt, &y), TK_ERR_DTYPE, "must be f32");
    TKT_RELEASE(x, want, x2, want2, y2, bad, bad_dt);
    tk_model_free(m);
}
END_TEST

START_TEST(unsorted_graph_runs_in_dependency_order)
{
    tk_model *m;
    TKT_OK(tk_onnx_load(tkt_ctx, path_of("unsorted.onnx"), NULL, &m));
    tk_tensor *x = load_npy("chain_x.npy"), *want = load_npy("chain_y.npy"), *y;
    TKT_OK(tk_model_run(m, &x, &y));
    tkt_expect_close(y, want, 1e-6, 1e-6, true, "unsorted");
    TKT_RELEASE(x, want, y);
    tk_model_free(m);
}
END_TEST

START_TEST(cycles_are_refused)
{
    tk_model *m = (tk_model *)1;
    TKT_FAILS(tk_onnx_load(tkt_ctx, path_of("cycle.onnx"), NULL, &m), TK_ERR_IO, "has a cycle through node");
    ck_assert_ptr_null(m);
}
END_TEST

START_TEST(every_unsupported_thing_in_one_message)
{
    tk_model *m;
    TKT_FAILS(tk_onnx_load(tkt_ctx, path_of("unsupported.onnx"), NULL, &m), TK_ERR_UNSUPPORTED, "4 problems");
    const char *msg = tk_last_error(tkt_ctx);
    ck_assert_msg(strstr(msg, "node 'fa': op FrobnicateA (domain ai.onnx, opset 17): no such op"), "%s", msg);
    ck_assert_msg(strstr(msg, "node 'fb': op FrobnicateB (domain com.example, opset 1)"), "%s", msg);
    ck_assert_msg(strstr(msg, "node 'relu_attr': op Relu (opset 17): attribute 'sharpness' is not supported"), "%s", msg);
    ck_assert_msg(strstr(msg, "input 'u' has elements of type COMPLEX64"), "%s", msg);
}
END_TEST

START_TEST(external_data_is_viewed_in_place)
{
    tk_model *m;
    TKT_OK(tk_onnx_load(tkt_ctx, path_of("external.onnx"), NULL, &m));
    /* the initializer's bytes are the mapping's: no copy */
    TkoGraph *g = m->graph;
    int v = tko_value(&m->arena, g, "big", false);
    ck_assert_int_ge(v, 0);
    ck_assert_int_eq(m->n_ext, 1);
    const uint8_t *p = tk_tensor_data(g->values[v].constant);
    ck_assert_ptr_eq(p, m->ext_maps[0]->data + 4096);

    tk_tensor *big = load_npy("external_big.npy"), *x, *y, *want;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 64, 64 }, 3, &x));
    TKT_OK(tk_add(tkt_ctx, x, big, &want));
    TKT_OK(tk_model_run(m, &x, &y));
    tkt_expect_equal(y, want, "x + external");
    ck_assert(!tk_tensor_shares_storage(y, x));
    tk_model_free(m);   /* y does not depend on the model: it outlives it */
    tkt_expect_equal(y, want, "after free");
    TKT_RELEASE(big, x, y, want);
}
END_TEST

static void run_if(tk_model *m, bool c, bool c2, const tk_tensor *x, tk_tensor **y)
{
    tk_tensor *tc, *tc2;
    TKT_OK(tk_from_data(tkt_ctx, &c, TK_DTYPE_BOOL, 0, NULL, &tc));
    TKT_OK(tk_from_data(tkt_ctx, &c2, TK_DTYPE_BOOL, 0, NULL, &tc2));
    tk_tensor *in[3] = { tc, tc2, (tk_tensor *)x };
    TKT_OK(tk_model_run(m, in, y));
    TKT_RELEASE(tc, tc2);
}

START_TEST(if_branches_read_outer_values)
{
    tk_model *m;
    TKT_OK(tk_onnx_load(tkt_ctx, path_of("if_outer.onnx"), NULL, &m));
    float xv[3] = { 1.5f, -2.0f, 0.25f };
    tk_tensor *x, *y;
    TKT_OK(tk_from_data(tkt_ctx, xv, TK_DTYPE_F32, 1, (int64_t[]){ 3 }, &x));
    float want[3][3];
    for (int i = 0; i < 3; i++) {
        float s = 2 * xv[i];
        want[0][i] = s * s, want[1][i] = -s, want[2][i] = s + xv[i];
    }
    bool cs[3][2] = { { true, true }, { true, false }, { false, true } };
    for (int k = 0; k < 3; k++) {
        run_if(m, cs[k][0], cs[k][1], x, &y);
        float got[3];
        TKT_OK(tk_to_data(tkt_ctx, y, got, sizeof got));
        for (int i = 0; i < 3; i++) ck_assert_float_eq(got[i], want[k][i]);
        tk_tensor_release(y);
    }
    tk_tensor_release(x);
    tk_model_free(m);
}
END_TEST

START_TEST(constants_fold_at_load)
{
    tk_model *m;
    TKT_OK(tk_onnx_load(tkt_ctx, path_of("fold.onnx"), NULL, &m));
    ck_assert_int_eq(m->graph->nnodes, 1);   /* Constant and Mul ran once, at load */
    const char *dump = tk_model_dump(m);
    ck_assert_msg(strstr(dump, "%y = Add(%x, %k2)") && strstr(dump, "const  %k2: f32[2]"), "%s", dump);
    float xv[2] = { 1, 2 }, got[2];
    tk_tensor *x, *y;
    TKT_OK(tk_from_data(tkt_ctx, xv, TK_DTYPE_F32, 1, (int64_t[]){ 2 }, &x));
    TKT_OK(tk_model_run(m, &x, &y));
    TKT_OK(tk_to_data(tkt_ctx, y, got, sizeof got));
    ck_assert_float_eq(got[0], 1 + 1.5f * 1.5f);
    ck_assert_float_eq(got[1], 2 + 4.0f);
    TKT_RELEASE(x, y);
    tk_model_free(m);
}
END_TEST

START_TEST(outputs_never_alias_inputs_or_weights)
{
    tk_model *m;
    TKT_OK(tk_onnx_load(tkt_ctx, path_of("alias.onnx"), NULL, &m));
    float xv[2] = { 1, 2 };
    tk_tensor *x, *out[2], *again[2];
    TKT_OK(tk_from_data(tkt_ctx, xv, TK_DTYPE_F32, 1, (int64_t[]){ 2 }, &x));
    TKT_OK(tk_model_run(m, &x, out));
    ck_assert(!tk_tensor_shares_storage(out[0], x));
    TKT_OK(tk_fill_(tkt_ctx, out[1], -7.0));   /* the caller owns its outputs: writing must not reach the constant */
    TKT_OK(tk_model_run(m, &x, again));
    float got[6];
    TKT_OK(tk_to_data(tkt_ctx, again[1], got, sizeof got));
    for (int i = 0; i < 6; i++) ck_assert_float_eq(got[i], (float)i);
    TKT_RELEASE(x, out[0], out[1], again[0], again[1]);
    tk_model_free(m);
}
END_TEST

/* Conv -> BN -> Relu, Conv -> Clip, a residual, pools: with fusion the BN is
 * folded (no BatchNormalization left), the activations are fused into
 * FusedConv nodes, the conv results stay channels-last between them, and the
 * outputs (one of them a conv's) come back row-major with NumPy's values;
 * without fusion the same values node by node. */
START_TEST(cnn_block_fuses_and_matches)
{
    tk_tensor *x = load_npy("cnn_block_x.npy"), *want[2] = { load_npy("cnn_block_gap.npy"), load_npy("cnn_block_c3.npy") };
    for (int no_fuse = 0; no_fuse < 2; no_fuse++) {
        tk_model *m;
        tk_onnx_opts o = { .no_fuse = no_fuse };
        TKT_OK(tk_onnx_load(tkt_ctx, path_of("cnn_block.onnx"), &o, &m));
        const char *dump = tk_model_dump(m);
        if (!no_fuse) {
            ck_assert_msg(!strstr(dump, "BatchNormalization") && !strstr(dump, "Relu(") && !strstr(dump, "Clip("), "%s", dump);
            ck_assert_msg(strstr(dump, "FusedConv"), "%s", dump);
        }
        tk_tensor *out[2];
        TKT_OK(tk_model_run(m, &x, out));
        for (int k = 0; k < 2; k++) {
            ck_assert(tk_tensor_is_contiguous(out[k]));
            tkt_expect_close(out[k], want[k], 1e-4, 1e-4, true, no_fuse ? "cnn block, no fusion" : "cnn block, fused");
        }
        TKT_RELEASE(out[0], out[1]);
        tk_model_free(m);
    }
    TKT_RELEASE(x, want[0], want[1]);
}
END_TEST

/* MobileNetV2's block with ReLU6 (gen_models.py part 18), Clip's bounds as
 * opset-10 attributes and as opset-13 constant inputs (one with only a max):
 * fused, each Conv -> BN -> Clip is one FusedConv with the clamp in the conv
 * kernels' store (no Clip or BatchNormalization left in the dump); fused and
 * not, NumPy's float64 values within f32 accumulation error (1e-4); fused on
 * 1 and 2 threads, the same bits. */
START_TEST(relu6_block_clamps_in_the_conv_store)
{
    tk_tensor *x = load_npy("relu6_block_x.npy"), *want = load_npy("relu6_block_y.npy");
    const char *files[] = { "relu6_block_opset10.onnx", "relu6_block_opset13.onnx" };
    for (int f = 0; f < 2; f++)
        for (int no_fuse = 0; no_fuse < 2; no_fuse++) {
            tk_model *m;
            tk_onnx_opts o = { .no_fuse = no_fuse };
            TKT_OK(tk_onnx_load(tkt_ctx, path_of(files[f]), &o, &m));
            const char *dump = tk_model_dump(m);
            int fused = 0;
            for (const char *p = dump; (p = strstr(p, "FusedConv")); p++) fused++;
            if (no_fuse) ck_assert_msg(fused == 0 && strstr(dump, "Clip("), "%s", dump);
            else ck_assert_msg(fused == 3 && !strstr(dump, "Clip(") && !strstr(dump, "BatchNormalization"), "%s: %s", files[f], dump);
            char label[96];
            snprintf(label, sizeof label, "%s%s", files[f], no_fuse ? ", no fusion" : ", fused");
            tk_tensor *y[1], *y2[1];
            TKT_OK(tk_context_set_threads(tkt_ctx, 1));
            TKT_OK(tk_model_run(m, &x, y));
            tkt_expect_close(y[0], want, 1e-4, 1e-4, true, label);
            TKT_OK(tk_context_set_threads(tkt_ctx, 2));
            TKT_OK(tk_model_run(m, &x, y2));
            tkt_expect_equal(y2[0], y[0], label);
            TKT_RELEASE(y[0], y2[0]);
            tk_model_free(m);
        }
    TKT_RELEASE(x, want);
}
END_TEST

/* Largest |a - b| over two f32 tensors of one shape. */
static double max_abs_diff(const tk_tensor *a, const tk_tensor *b)
{
    int64_t n = tk_tensor_numel(a);
    float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    ck_assert(x && y && n == tk_tensor_numel(b));
    TKT_OK(tk_to_data(tkt_ctx, a, x, (size_t)n * sizeof *x));
    TKT_OK(tk_to_data(tkt_ctx, b, y, (size_t)n * sizeof *y));
    double m = 0;
    for (int64_t i = 0; i < n; i++) m = fabs((double)x[i] - y[i]) > m ? fabs((double)x[i] - y[i]) : m;
    free(x);
    free(y);
    return m;
}

/* tk_onnx_opts.bf16 (gen_models.py part 19): exactly the two dense convs with
 * K >= 256 get bf16 weights (the depthwise and the 24-channel 1×1 stay f32),
 * the outputs come back f32 and row-major, within bf16 error of NumPy's
 * float64 values, not equal to the f32 run's (so bf16 did run), and the same
 * bits on 1 and 2 threads; the first conv's result, read only by the second,
 * stays bf16 between them (bf16_out). The f32 run of the same model within 1e-4. The
 * bf16 error: x and W rounded to bf16 (2^-9 relative each) in sums of up to
 * 360 products that partly cancel, and the two convs' results rounded to
 * bf16; measured 0.023 at most on outputs up to 5.3 (AMX, Xeon), so
 * |got - want| <= 5e-2 + 3e-2·|want|; and somewhere more than 1e-4 from
 * the f32 run's (which is within 1e-4 of NumPy's). */
START_TEST(bf16_mode_runs_the_dense_convs_in_bf16)
{
    tk_tensor *x = load_npy("bf16_convs_x.npy"), *want[2] = { load_npy("bf16_convs_y.npy"), load_npy("bf16_convs_gap.npy") };
    tk_tensor *f32[2], *bf[2], *bf2[2];
    for (int mode = 0; mode < 2; mode++) {
        tk_model *m;
        TKT_OK(tk_onnx_load(tkt_ctx, path_of("bf16_convs.onnx"), &(tk_onnx_opts){ .bf16 = mode == 1 }, &m));
        const char *dump = tk_model_dump(m);
        int converted = 0;
        for (const char *p = dump; (p = strstr(p, "__bf16_weight:")); p++) converted++;   /* its "const" line */
        ck_assert_msg(converted == (mode ? 2 : 0) && !strstr(dump, "narrow__bf16") && !strstr(dump, "depthwise__bf16"), "%s", dump);
        /* dense_a's result is read by dense_b alone: it stays bf16 (one bf16_out); dense_b's is not */
        const char *keep = strstr(dump, "bf16_out=1");
        ck_assert_msg(mode ? keep && !strstr(keep + 1, "bf16_out=1") && strstr(dump, "%ra = tk.FusedConv") < keep &&
                                 keep < strstr(dump, "%cb = tk.FusedConv")
                           : !keep,
                      "%s", dump);
        TKT_OK(tk_context_set_threads(tkt_ctx, 1));
        TKT_OK(tk_model_run(m, &x, mode ? bf : f32));
        for (int k = 0; k < 2; k++) {
            tk_tensor *got = mode ? bf[k] : f32[k];
            ck_assert(tk_tensor_dtype(got) == TK_DTYPE_F32 && tk_tensor_is_contiguous(got));
            tkt_expect_close(got, want[k], mode ? 3e-2 : 1e-4, mode ? 5e-2 : 1e-4, true, mode ? "bf16 mode" : "f32");
        }
        if (mode) {
            TKT_OK(tk_context_set_threads(tkt_ctx, 2));
            TKT_OK(tk_model_run(m, &x, bf2));
            for (int k = 0; k < 2; k++) tkt_expect_equal(bf2[k], bf[k], "bf16 mode, 2 threads");
        }
        tk_model_free(m);
    }
    ck_assert_msg(max_abs_diff(bf[0], f32[0]) > 1e-4, "bf16 mode gave the f32 result: %g", max_abs_diff(bf[0], f32[0]));
    TKT_RELEASE(x, want[0], want[1], f32[0], f32[1], bf[0], bf[1], bf2[0], bf2[1]);
    /* an image stem (C = 3, K = 27) converts too; cnn_block's 24-channel 3×3 (K = 216) and 1×1 do not */
    tk_tensor *xc = load_npy("cnn_block_x.npy"), *wc[2] = { load_npy("cnn_block_gap.npy"), load_npy("cnn_block_c3.npy") }, *oc[2];
    tk_model *m;
    TKT_OK(tk_onnx_load(tkt_ctx, path_of("cnn_block.onnx"), &(tk_onnx_opts){ .bf16 = true }, &m));
    const char *dump = tk_model_dump(m);
    ck_assert_msg(strstr(dump, "conv1__bf16_weight:") && !strstr(dump, "conv2__bf16") && !strstr(dump, "conv3__bf16"), "%s", dump);
    TKT_OK(tk_model_run(m, &xc, oc));
    for (int k = 0; k < 2; k++) tkt_expect_close(oc[k], wc[k], 3e-2, 5e-2, true, "cnn block, bf16 stem");
    TKT_RELEASE(xc, wc[0], wc[1], oc[0], oc[1]);
    tk_model_free(m);
}
END_TEST

/* Gemm heads become FusedLinear (transB 0 through a transposed weight view,
 * C [1, N] as a bias); NumPy's values fused and not. */
START_TEST(gemm_heads_fuse_and_match)
{
    tk_tensor *x = load_npy("gemm_heads_x.npy"), *want[2] = { load_npy("gemm_heads_y.npy"), load_npy("gemm_heads_y2.npy") };
    for (int no_fuse = 0; no_fuse < 2; no_fuse++) {
        tk_model *m;
        tk_onnx_opts o = { .no_fuse = no_fuse };
        TKT_OK(tk_onnx_load(tkt_ctx, path_of("gemm_heads.onnx"), &o, &m));
        const char *dump = tk_model_dump(m);
        ck_assert_msg(no_fuse ? strstr(dump, "Gemm(") != NULL : strstr(dump, "Gemm(") == NULL && strstr(dump, "FusedLinear"), "%s", dump);
        tk_tensor *out[2];
        TKT_OK(tk_model_run(m, &x, out));
        for (int k = 0; k < 2; k++) tkt_expect_close(out[k], want[k], 1e-5, 1e-5, true, no_fuse ? "Gemm" : "Gemm as FusedLinear");
        TKT_RELEASE(out[0], out[1]);
        tk_model_free(m);
    }
    TKT_RELEASE(x, want[0], want[1]);
}
END_TEST

static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*len);
    ck_assert_uint_eq(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

START_TEST(malformed_bytes_never_crash)
{
    static const char *const models[] = { "chain.onnx", "if_outer.onnx", "fold.onnx" };
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++) {
        size_t len;
        unsigned char *b = read_all(path_of(models[k]), &len);
        int failed = 0;
        for (size_t cut = 0; cut < len; cut++) {   /* every truncation */
            tk_model *m = NULL;
            tk_status s = tk_onnx_load_bytes(tkt_ctx, b, cut, models[k], NULL, &m);
            if (s == TK_OK) tk_model_free(m);
            else {
                failed++;
                ck_assert_msg(tk_last_error(tkt_ctx)[0], "a failure without a message at %zu bytes", cut);
            }
        }
        ck_assert_int_gt(failed, (int)len / 2);
        unsigned char *c = malloc(len);
        srand(42);
        for (int trial = 0; trial < 3000; trial++) {   /* random corruption of 1 to 4 bytes */
            memcpy(c, b, len);
            for (int f = 0, nf = 1 + rand() % 4; f < nf; f++) c[(size_t)rand() % len] = (unsigned char)rand();
            tk_model *m = NULL;
            if (tk_onnx_load_bytes(tkt_ctx, c, len, models[k], NULL, &m) == TK_OK) tk_model_free(m);
        }
        free(c);
        free(b);
    }
}
END_TEST

START_TEST(bad_arguments)
{
    tk_model *m;
    TKT_FAILS(tk_onnx_load(tkt_ctx, NULL, NULL, &m), TK_ERR_INVALID_ARGUMENT, "path is NULL");
    TKT_FAILS(tk_onnx_load(tkt_ctx, path_of("no-such.onnx"), NULL, &m), TK_ERR_IO, "cannot read");
    TKT_FAILS(tk_onnx_load_bytes(tkt_ctx, "\x08\x07", 2, "tiny", NULL, &m), TK_ERR_IO, "no graph");
    TKT_FAILS(tk_onnx_load_bytes(tkt_ctx, "\xff\xff", 2, "junk", NULL, &m), TK_ERR_IO, "not a valid ONNX model");
    ck_assert_int_eq(tk_onnx_load(NULL, "x", NULL, &m), TK_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(tk_model_run(NULL, NULL, NULL), TK_ERR_INVALID_ARGUMENT);
    tk_model_free(NULL);
}
END_TEST

/* ------------------------------------------------------------ inference (graph_infer.c) */

/* The text the "infer" dump writes after "## inferred types" (malloc'ed). */
static char *inferred_dump(const char *model, tk_status *status, tk_model **out, bool check)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    *status = tk_onnx_load(tkt_ctx, path_of(model), &(tk_onnx_opts){ .dump = "infer", .dump_file = f, .check_infer = check }, out);
    fclose(f);
    const char *at = text ? strstr(text, "## inferred types\n") : NULL;
    char *section = strdup(at ? at + strlen("## inferred types\n") : "");
    free(text);
    return section;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strdup(buf);
}

static void run_symbolic(tk_model *m, int64_t batch, int64_t seq, int64_t h, int64_t w)
{
    tk_tensor *in[2], *out[5];
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ batch, seq, 16 }, 1, &in[0]));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ batch, 3, h, w }, 2, &in[1]));
    TKT_OK(tk_model_run(m, in, out));   /* with check_infer: every value against its inferred shape */
    ck_assert_int_eq(tk_tensor_shape(out[0])[1], seq * 32);
    ck_assert_int_eq(tk_tensor_shape(out[1])[1], 24);
    ck_assert_int_eq(tk_tensor_shape(out[2])[1], seq - 1);
    ck_assert_int_eq(tk_tensor_shape(out[3])[2], (h + 1) / 2);
    for (int k = 0; k < 5; k++) tk_tensor_release(out[k]);
    TKT_RELEASE(in[0], in[1]);
}

START_TEST(inferred_types_with_symbolic_dims)
{
    tk_model *m;
    tk_status s;
    char *got = inferred_dump("infer_symbolic.onnx", &s, &m, true);
    TKT_OK(s);
    const char *src = getenv("TK_ONNX_SRC");
    char golden[1024];
    snprintf(golden, sizeof golden, "%s/infer_symbolic.txt", src ? src : ".");
    char *want = read_text(golden);
    ck_assert_msg(strcmp(got, want) == 0, "inferred types differ from %s:\n--- got\n%s--- want\n%s", golden, got, want);
    /* the dump of the graph shows them too */
    const char *dump = tk_model_dump(m);
    ck_assert_msg(strstr(dump, "# node 'flat' -> FLOAT[batch, seq*32]"), "%s", dump);
    /* odd sizes, twice through one model: the check compares every value a run makes */
    run_symbolic(m, 2, 5, 9, 10);
    run_symbolic(m, 1, 3, 7, 8);
    tk_model_free(m);
    free(got), free(want);
}
END_TEST

START_TEST(unnamed_dims_are_sizes_of_their_own)
{
    tk_model *m;
    tk_status s;
    char *got = inferred_dump("infer_unnamed.onnx", &s, &m, true);
    TKT_OK(s);
    ck_assert_msg(strstr(got, "%flat: FLOAT[x.0, x.2*3]   (node 'flat')"), "%s", got);
    tk_tensor *x, *y;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 5, 3, 7 }, 3, &x));
    TKT_OK(tk_model_run(m, &x, &y));   /* checked: x.0 = 5, x.2 = 7 */
    ck_assert_int_eq(tk_tensor_shape(y)[0], 5);
    ck_assert_int_eq(tk_tensor_shape(y)[1], 21);
    TKT_RELEASE(x, y);
    tk_model_free(m);
    free(got);
}
END_TEST

START_TEST(value_info_conflicts_are_refused)
{
    tk_model *m;
    TKT_FAILS(tk_onnx_load(tkt_ctx, path_of("value_info_conflict.onnx"), NULL, &m), TK_ERR_UNSUPPORTED, "2 problems");
    const char *msg = tk_last_error(tkt_ctx);
    ck_assert_msg(strstr(msg, "node 'add': op Add makes 's' with dim 1 = 3, the model says 4"), "%s", msg);
    ck_assert_msg(strstr(msg, "node 'relu': op Relu makes 'r' of type FLOAT, the model says INT64"), "%s", msg);
}
END_TEST

START_TEST(intermediate_types_checked_in_the_one_message)
{
    tk_model *m;
    TKT_FAILS(tk_onnx_load(tkt_ctx, path_of("bad_intermediate.onnx"), NULL, &m), TK_ERR_UNSUPPORTED, "2 problems");
    const char *msg = tk_last_error(tkt_ctx);
    ck_assert_msg(strstr(msg, "node 'relu_attr': op Relu (opset 17): attribute 'sharpness' is not supported"), "%s", msg);
    ck_assert_msg(strstr(msg, "node 'sin': op Sin does not take input 0 'am' of type INT64"), "%s", msg);
}
END_TEST

START_TEST(dead_nodes_are_removed)
{
    tk_model *m;
    TKT_OK(tk_onnx_load(tkt_ctx, path_of("dead.onnx"), NULL, &m));
    ck_assert_int_eq(m->graph->nnodes, 1);   /* Exp -> Log made what nobody reads */
    ck_assert_str_eq(m->graph->nodes[0].op, "Neg");
    float xv[2] = { 1, -2 }, got[2];
    tk_tensor *x, *y;
    TKT_OK(tk_from_data(tkt_ctx, xv, TK_DTYPE_F32, 1, (int64_t[]){ 2 }, &x));
    TKT_OK(tk_model_run(m, &x, &y));
    TKT_OK(tk_to_data(tkt_ctx, y, got, sizeof got));
    ck_assert_float_eq(got[0], -1.0f);
    ck_assert_float_eq(got[1], 2.0f);
    TKT_RELEASE(x, y);
    tk_model_free(m);
}
END_TEST

START_TEST(check_infer_catches_a_wrong_shape)
{
    float xv[4] = { 1, 2, 3, 4 };
    tk_tensor *x, *y = NULL;
    TKT_OK(tk_from_data(tkt_ctx, xv, TK_DTYPE_F32, 1, (int64_t[]){ 4 }, &x));
    tk_model *m;
    tk_status s;
    char *got = inferred_dump("wrong_value_info.onnx", &s, &m, true);
    TKT_OK(s);
    ck_assert_msg(strstr(got, "%nz: INT64[1, 3] (value_info)"), "%s", got);   /* not derived: taken from the model */
    TKT_FAILS(tk_model_run(m, &x, &y), TK_ERR_INTERNAL,
              "inference check: node 'nonzero' (NonZero) made 'nz' of shape [1, 4], inferred [1, 3]");
    ck_assert_ptr_null(y);
    tk_model_free(m);
    free(got);
    TKT_OK(tk_onnx_load(tkt_ctx, path_of("wrong_value_info.onnx"), NULL, &m));   /* without the check the run is fine */
    TKT_OK(tk_model_run(m, &x, &y));
    ck_assert_int_eq(tk_tensor_shape(y)[1], 4);
    TKT_RELEASE(x, y);
    tk_model_free(m);
}
END_TEST

static Suite *loader_suite(void)
{
    Suite *s = suite_create("onnx_loader");
    TCase *tc = tkt_case("loader");
    tcase_add_test(tc, symbolic_batch);
    tcase_add_test(tc, unsorted_graph_runs_in_dependency_order);
    tcase_add_test(tc, cycles_are_refused);
    tcase_add_test(tc, every_unsupported_thing_in_one_message);
    tcase_add_test(tc, external_data_is_viewed_in_place);
    tcase_add_test(tc, if_branches_read_outer_values);
    tcase_add_test(tc, constants_fold_at_load);
    tcase_add_test(tc, outputs_never_alias_inputs_or_weights);
    tcase_add_test(tc, cnn_block_fuses_and_matches);
    tcase_add_test(tc, relu6_block_clamps_in_the_conv_store);
    tcase_add_test(tc, bf16_mode_runs_the_dense_convs_in_bf16);
    tcase_add_test(tc, gemm_heads_fuse_and_match);
    tcase_add_test(tc, malformed_bytes_never_crash);
    tcase_add_test(tc, bad_arguments);
    tcase_add_test(tc, inferred_types_with_symbolic_dims);
    tcase_add_test(tc, unnamed_dims_are_sizes_of_their_own);
    tcase_add_test(tc, value_info_conflicts_are_refused);
    tcase_add_test(tc, intermediate_types_checked_in_the_one_message);
    tcase_add_test(tc, dead_nodes_are_removed);
    tcase_add_test(tc, check_infer_catches_a_wrong_shape);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(loader_suite)
