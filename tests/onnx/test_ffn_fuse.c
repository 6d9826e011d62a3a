/* test_ffn_fuse.c — the loader's FFN and linear-epilogue rewrites
 * (runtime/onnx/graph_fuse_ffn.c) on the models gen_models.py writes (part
 * 16: x [2, 7, 33], D = 33, F = 70): Linear -> Relu | Gelu (the erf and
 * tanh expansions, ONNX Gelu exact and tanh, com.microsoft FastGelu) -> Linear
 * [+ x], SwiGLU [+ x], and one head per activation of a linear. Each model
 * runs fused (the FFN rewrite forced: these sizes are below AUTO's), with
 * AUTO, and with no_fuse; every run against NumPy's float64 result rounded
 * to f32, and the fused runs bit-identical on 1 and 2 threads. The fused
 * graph's nodes are counted from the dump: an FFN is one FusedFfn node, and
 * a hidden value with a second reader is left alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* f32 products over K <= 70 of values ~1, against float64: ~1e-5 apart */
#define RTOL 1e-4
#define ATOL 1e-4

static char *path_of(const char *name)
{
    static char buf[4][1024];
    static int k;
    const char *d = getenv("TK_ONNX_MODELS");
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", d ? d : "onnx-models", name);
    return buf[k];
}

static tk_tensor *load_npy(const char *name)
{
    tk_tensor *t;
    TKT_OK(tk_load_npy(tkt_ctx, path_of(name), &t));
    return t;
}

/* Nodes in a dump ("%y = Op(...)" lines), and how many run op `op`. */
static int count_nodes(const char *dump, const char *op, int *of_op)
{
    int n = 0, k = 0;
    char pat[64];
    snprintf(pat, sizeof pat, " = %s(", op);
    for (const char *line = dump; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (*line != '%') continue;
        n++;
        const char *hit = strstr(line, pat);
        k += hit && hit < line + len;
    }
    *of_op = k;
    return n;
}

static tk_model *load(const char *model, bool no_fuse, tk_onnx_ffn_mode mode)
{
    char file[128];
    snprintf(file, sizeof file, "%s.onnx", model);
    tk_model *m;
    tk_onnx_opts o = { .no_fuse = no_fuse, .fuse_ffn = mode };
    TKT_OK(tk_onnx_load(tkt_ctx, path_of(file), &o, &m));
    return m;
}

/* Runs m on x with 1 and 2 threads: the same bits; the outputs in out[] (1 thread's). */
static void run_both_thread_counts(tk_model *m, tk_tensor *x, tk_tensor **out, int nout, const char *what)
{
    tk_tensor *again[8];
    ck_assert_int_le(nout, 8);
    TKT_OK(tk_context_set_threads(tkt_ctx, 1));
    TKT_OK(tk_model_run(m, &x, out));
    TKT_OK(tk_context_set_threads(tkt_ctx, 2));
    TKT_OK(tk_model_run(m, &x, again));
    for (int k = 0; k < nout; k++) {
        tkt_expect_equal(again[k], out[k], what);
        tk_tensor_release(again[k]);
    }
}

/* One FFN model: fused (ALWAYS) to `want_nodes` nodes, one of them FusedFfn
 * (0 for the negative case); AUTO leaves the FFN (these sizes are below its
 * bar) but not the epilogues; no_fuse; each against NumPy's y. */
static void check_ffn(const char *model, int want_nodes, int want_ffn)
{
    char yname[128];
    snprintf(yname, sizeof yname, "%s_y.npy", model);
    tk_tensor *x = load_npy("ffn_x.npy"), *want = load_npy(yname);
    const struct {
        bool no_fuse;
        tk_onnx_ffn_mode mode;
        const char *label;
    } runs[] = { { false, TK_ONNX_FFN_ALWAYS, "fused" }, { false, TK_ONNX_FFN_AUTO, "auto" }, { true, TK_ONNX_FFN_ALWAYS, "no_fuse" } };
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        tk_model *m = load(model, runs[r].no_fuse, runs[r].mode);
        const char *dump = tk_model_dump(m);
        int nffn, nodes = count_nodes(dump, "tk.FusedFfn", &nffn);
        if (nffn == 0 && nodes > 0) count_nodes(dump, "FusedFfn", &nffn);   /* the dump may leave the domain off */
        if (r == 0) {
            ck_assert_msg(nodes == want_nodes && nffn == want_ffn, "%s fused: %d nodes (%d FusedFfn), want %d (%d):\n%s", model, nodes,
                          nffn, want_nodes, want_ffn, dump);
        } else
            ck_assert_msg(nffn == 0, "%s %s: no FusedFfn expected:\n%s", model, runs[r].label, dump);
        tk_tensor *y[2] = { 0 };
        int nout = tk_model_num_outputs(m);
        char what[160];
        snprintf(what, sizeof what, "%s %s", model, runs[r].label);
        run_both_thread_counts(m, x, y, nout, what);
        tkt_expect_close(y[0], want, RTOL, ATOL, true, what);
        for (int k = 0; k < nout; k++) tk_tensor_release(y[k]);
        tk_model_free(m);
    }
    TKT_RELEASE(x, want);
}

START_TEST(ffn_relu_with_residual_is_one_node)
{
    check_ffn("ffn_relu", 1, 1);
}
END_TEST

START_TEST(ffn_gelu_erf_expansion_is_one_node)
{
    check_ffn("ffn_gelu_erf", 1, 1);
}
END_TEST

START_TEST(ffn_onnx_gelu_is_one_node)
{
    check_ffn("ffn_gelu_onnx", 1, 1);
}
END_TEST

START_TEST(ffn_onnx_gelu_tanh_is_one_node)
{
    check_ffn("ffn_gelu_tanh", 1, 1);
}
END_TEST

/* gelu(approximate='tanh') spelled out (PyTorch below opset 20; x³ as x·(x·x) and as Pow) */
START_TEST(ffn_tanh_gelu_expansions_are_one_node)
{
    check_ffn("ffn_gelu_tanh_expanded", 1, 1);
    check_ffn("ffn_gelu_tanh_pow", 1, 1);
}
END_TEST

/* The tanh expansion with no linear before it: FusedGelu (tanh) alone, fused and not. */
START_TEST(tanh_gelu_expansion_alone_is_one_node)
{
    tk_tensor *x = load_npy("ffn_x.npy"), *want = load_npy("gelu_tanh_alone_y.npy");
    for (int no_fuse = 0; no_fuse < 2; no_fuse++) {
        tk_model *m = load("gelu_tanh_alone", no_fuse, TK_ONNX_FFN_AUTO);
        const char *dump = tk_model_dump(m);
        int ngelu, nodes = count_nodes(dump, "tk.FusedGelu", &ngelu);
        if (!no_fuse) ck_assert_msg(nodes == 1 && ngelu == 1 && strstr(dump, "tanh=1"), "gelu_tanh_alone fused:\n%s", dump);
        tk_tensor *y;
        run_both_thread_counts(m, x, &y, 1, no_fuse ? "gelu tanh alone, no_fuse" : "gelu tanh alone");
        tkt_expect_close(y, want, 1e-5, 1e-5, true, no_fuse ? "gelu tanh alone, no_fuse" : "gelu tanh alone");
        tk_tensor_release(y);
        tk_model_free(m);
    }
    TKT_RELEASE(x, want);
}
END_TEST

START_TEST(ffn_fastgelu_is_one_node)
{
    check_ffn("ffn_fastgelu", 1, 1);
}
END_TEST

START_TEST(ffn_swiglu_with_residual_is_one_node)
{
    check_ffn("ffn_swiglu", 1, 1);
}
END_TEST

/* The hidden relu(h) is also a graph output: it must be made, so no FFN:
 * two FusedLinear nodes (the relu and the residual in their epilogues). */
START_TEST(ffn_hidden_with_second_reader_is_not_fused)
{
    check_ffn("ffn_relu_shared", 2, 0);
}
END_TEST

/* One linear per activation, some with a residual: six FusedLinear nodes and
 * the Identity of the sigmoid head, no activation or Add left; the same values fused and not. */
START_TEST(linear_epilogues_fuse_and_match)
{
    static const char *const heads[] = { "sig", "tanh", "relu", "silu", "gelu", "plain" };
    tk_tensor *x = load_npy("ffn_x.npy"), *want[6];
    for (int k = 0; k < 6; k++) {
        char n[64];
        snprintf(n, sizeof n, "epilogues_%s.npy", heads[k]);
        want[k] = load_npy(n);
    }
    for (int no_fuse = 0; no_fuse < 2; no_fuse++) {
        tk_model *m = load("epilogues", no_fuse, TK_ONNX_FFN_AUTO);
        const char *dump = tk_model_dump(m);
        int nlin, nodes = count_nodes(dump, "tk.FusedLinear", &nlin);
        if (nlin == 0) count_nodes(dump, "FusedLinear", &nlin);
        if (!no_fuse) {
            ck_assert_msg(nodes == 7 && nlin == 6, "epilogues fused: %d nodes, %d FusedLinear:\n%s", nodes, nlin, dump);
            static const char *const gone[] = { "Sigmoid(", "Tanh(", "Relu(", "Gelu(", "Mul(", "Add(", "MatMul(" };
            for (size_t g = 0; g < sizeof gone / sizeof *gone; g++) ck_assert_msg(!strstr(dump, gone[g]), "%s left:\n%s", gone[g], dump);
        }
        tk_tensor *y[6];
        run_both_thread_counts(m, x, y, 6, no_fuse ? "epilogues, no_fuse" : "epilogues, fused");
        for (int k = 0; k < 6; k++) {
            char what[64];
            snprintf(what, sizeof what, "epilogue %s%s", heads[k], no_fuse ? ", no_fuse" : "");
            tkt_expect_close(y[k], want[k], RTOL, ATOL, true, what);
            tk_tensor_release(y[k]);
        }
        tk_model_free(m);
    }
    TKT_RELEASE(x, want[0], want[1], want[2], want[3], want[4], want[5]);
}
END_TEST

static Suite *ffn_fuse_suite(void)
{
    Suite *s = suite_create("onnx_ffn_fuse");
    TCase *tc = tkt_case("ffn_fuse");
    tcase_add_test(tc, ffn_relu_with_residual_is_one_node);
    tcase_add_test(tc, ffn_gelu_erf_expansion_is_one_node);
    tcase_add_test(tc, ffn_onnx_gelu_is_one_node);
    tcase_add_test(tc, ffn_onnx_gelu_tanh_is_one_node);
    tcase_add_test(tc, ffn_tanh_gelu_expansions_are_one_node);
    tcase_add_test(tc, tanh_gelu_expansion_alone_is_one_node);
    tcase_add_test(tc, ffn_fastgelu_is_one_node);
    tcase_add_test(tc, ffn_swiglu_with_residual_is_one_node);
    tcase_add_test(tc, ffn_hidden_with_second_reader_is_not_fused);
    tcase_add_test(tc, linear_epilogues_fuse_and_match);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(ffn_fuse_suite)
