/* test_plan.c — the memory plan (graph_plan.c, graph_plan_run.c): models
 * gen_plan_models.py writes ($TK_ONNX_PLAN_MODELS) judged against NumPy, and
 * the real architectures gen_real_models.py exports ($TK_ONNX_REAL_MODELS)
 * judged against PyTorch; every planned run must equal, bit for bit, the
 * same model run without a plan, and on 1 and 2 threads. The plan's size is
 * checked against bounds the test computes: at least the largest set of
 * values alive at once, and well below their sum. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "onnx_ir.h"   /* tk_model's insides: the planner's test knob */

static const char *models_dir(const char *var)
{
    const char *d = getenv(var);
    ck_assert_msg(d != NULL, "$%s is not set (ctest sets it)", var);
    return d;
}

static char *path_in(const char *dir, const char *name)
{
    static char buf[4][1024];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static tk_tensor *load_npy(const char *name)
{
    tk_tensor *t;
    TKT_OK(tk_load_npy(tkt_ctx, path_in(models_dir("TK_ONNX_PLAN_MODELS"), name), &t));
    return t;
}

static tk_model *load(const char *path, bool no_plan, bool no_fuse)
{
    tk_model *m;
    TKT_OK(tk_onnx_load(tkt_ctx, path, &(tk_onnx_opts){ .no_plan = no_plan, .no_fuse = no_fuse }, &m));
    return m;
}

static tk_model *load_plan_model(const char *name, bool no_plan)
{
    return load(path_in(models_dir("TK_ONNX_PLAN_MODELS"), name), no_plan, false);
}

static tk_tensor *run1(tk_model *m, tk_tensor *x)
{
    tk_tensor *y = NULL;
    TKT_OK(tk_model_run(m, &x, &y));
    return y;
}

static tk_model_memory_stats memory(const tk_model *m)
{
    tk_model_memory_stats s;
    TKT_OK(tk_model_memory(m, &s));
    return s;
}

static size_t align64(size_t x) { return (x + 63) / 64 * 64; }

/* 8 x (Mul, Add, Relu): 23 intermediates of N*64 floats, two alive at once at most. */
START_TEST(chain_reuses_memory)
{
    tk_model *m = load_plan_model("plan_chain.onnx", false), *off = load_plan_model("plan_chain.onnx", true);
    tk_tensor *x = load_npy("plan_chain_x5.npy"), *want = load_npy("plan_chain_y5.npy");
    tk_tensor *y = run1(m, x), *y_off = run1(off, x);
    tkt_expect_close(y, want, 1e-6, 1e-6, true, "plan_chain N=5 with a plan");
    tkt_expect_equal(y, y_off, "plan_chain: with the plan and without");
    TKT_OK(tk_context_set_threads(tkt_ctx, 1));
    tk_tensor *y1 = run1(m, x);
    TKT_OK(tk_context_set_threads(tkt_ctx, 2));
    tk_tensor *y2 = run1(m, x);
    tkt_expect_equal(y1, y2, "plan_chain: 1 thread and 2");
    tkt_expect_equal(y1, y, "plan_chain: a later run of the same plan");

    size_t value = 5 * 64 * sizeof(float);
    tk_model_memory_stats s = memory(m);
    ck_assert_int_eq(s.planned_values, 23);
    ck_assert_int_eq(s.plans, 1);
    ck_assert_int_eq(s.plan_misses, 0);
    ck_assert_uint_eq(s.planned_bytes, 23 * value);
    /* a node reads one value and makes one: no arena holds less than two, and two slots do */
    ck_assert_msg(s.arena_bytes >= 2 * value && s.arena_bytes <= 2 * align64(value), "arena %zu bytes for values of %zu", s.arena_bytes,
                  value);
    ck_assert_uint_ge(s.peak_bytes, s.arena_bytes);   /* the arena is allocated memory like any other */

    tk_model_memory_stats none = memory(off);
    ck_assert_uint_eq(none.arena_bytes, 0);
    ck_assert_int_eq(none.planned_values, 0);
    TKT_RELEASE(x, want, y, y_off, y1, y2);
    tk_model_free(m);
    tk_model_free(off);
}
END_TEST

/* N = 3, then 5, then 3 again: two plans, each the size its binding needs. */
START_TEST(one_plan_per_binding)
{
    tk_model *m = load_plan_model("plan_chain.onnx", false);
    tk_tensor *x3 = load_npy("plan_chain_x3.npy"), *y3 = load_npy("plan_chain_y3.npy");
    tk_tensor *x5 = load_npy("plan_chain_x5.npy"), *y5 = load_npy("plan_chain_y5.npy");
    tk_tensor *a = run1(m, x3);
    tk_model_memory_stats s3 = memory(m);
    tk_tensor *b = run1(m, x5);
    tk_model_memory_stats s5 = memory(m);
    tk_tensor *c = run1(m, x3);
    tk_model_memory_stats again = memory(m);
    tkt_expect_close(a, y3, 1e-6, 1e-6, true, "N=3");
    tkt_expect_close(b, y5, 1e-6, 1e-6, true, "N=5");
    tkt_expect_equal(c, a, "N=3 after N=5");
    ck_assert_int_eq(s3.plans, 1);
    ck_assert_int_eq(s5.plans, 2);
    ck_assert_int_eq(again.plans, 2);   /* the N=3 plan was kept */
    ck_assert_uint_eq(s3.planned_bytes, 23 * 3 * 64 * sizeof(float));
    ck_assert_uint_eq(s5.planned_bytes, 23 * 5 * 64 * sizeof(float));
    ck_assert_uint_lt(s3.arena_bytes, s5.arena_bytes);
    ck_assert_uint_eq(again.arena_bytes, s3.arena_bytes);
    ck_assert_int_eq(again.plan_misses, 0);
    TKT_RELEASE(x3, y3, x5, y5, a, b, c);
    tk_model_free(m);
}
END_TEST

/* a, b and c are read only through views while six new values of their size
 * are made: their memory must stay theirs until the views' last reader. */
START_TEST(views_keep_their_base)
{
    tk_model *m = load_plan_model("plan_views.onnx", false), *off = load_plan_model("plan_views.onnx", true);
    tk_tensor *x = load_npy("plan_views_x.npy"), *want = load_npy("plan_views_y.npy");
    tk_tensor *y = run1(m, x), *again = run1(m, x), *y_off = run1(off, x);
    tkt_expect_close(y, want, 1e-5, 1e-6, true, "plan_views");
    tkt_expect_equal(y, y_off, "plan_views: with the plan and without");
    tkt_expect_equal(again, y, "plan_views: second run");
    tk_model_memory_stats s = memory(m);
    /* a, b, c, the chain's six, and two sums; the views and Reshape's results are not placed */
    ck_assert_int_eq(s.planned_values, 11);
    ck_assert_int_eq(s.plan_misses, 0);
    ck_assert_uint_lt(s.arena_bytes, s.planned_bytes);
    TKT_RELEASE(x, want, y, again, y_off);
    tk_model_free(m);
    tk_model_free(off);
}
END_TEST

/* The conv's output has its weight's byte size: the weight's HWIO layout,
 * made on the first run and kept on the weight, is allocated while that
 * output's place is armed. Kept memory never comes from the arena
 * (tkr_weight_form suspends the arming); were it to, the run-time check
 * would leave the arena (a miss), and without the check the Relu placed over
 * the conv's slot would overwrite the layout: a wrong second run. */
START_TEST(kept_layout_stays_out_of_the_arena)
{
    tk_model *m = load_plan_model("plan_escape.onnx", false), *off = load_plan_model("plan_escape.onnx", true);
    tk_tensor *x = load_npy("plan_escape_x.npy"), *want = load_npy("plan_escape_y.npy");
    tk_tensor *y = run1(m, x), *y2 = run1(m, x), *y3 = run1(m, x), *y_off = run1(off, x);
    tkt_expect_close(y, want, 1e-5, 1e-6, true, "plan_escape, first run");
    tkt_expect_equal(y, y_off, "plan_escape: with the plan and without");
    tkt_expect_equal(y2, y, "plan_escape: second run (the kept layout intact)");
    tkt_expect_equal(y3, y, "plan_escape: third run");
    tk_model_memory_stats s = memory(m);
    ck_assert_int_eq(s.planned_values, 3);   /* c, n, r */
    ck_assert_int_eq(s.plan_misses, 0);
    TKT_RELEASE(x, want, y, y2, y3, y_off);
    tk_model_free(m);
    tk_model_free(off);
}
END_TEST

/* Reshape planned as if it made new memory (a test knob): its result is a
 * view of a, not its planned place. The run must notice, leave the arena
 * (a's memory stays a's) and replan with Reshape as aliasing: one miss, and
 * every run right. Without the check, the chain overwrites a under va. */
START_TEST(unexpected_view_is_caught)
{
    tk_model *m = load_plan_model("plan_views.onnx", false);
    m->plan_assume_fresh = "Reshape";
    tk_tensor *x = load_npy("plan_views_x.npy"), *want = load_npy("plan_views_y.npy");
    tk_tensor *y = run1(m, x);
    tk_model_memory_stats first = memory(m);
    tk_tensor *y2 = run1(m, x), *y3 = run1(m, x);
    tk_model_memory_stats later = memory(m);
    tkt_expect_close(y, want, 1e-5, 1e-6, true, "plan_views with Reshape taken as fresh, first run");
    tkt_expect_equal(y2, y, "second run, replanned");
    tkt_expect_equal(y3, y, "third run");
    ck_assert_int_eq(first.plan_misses, 1);
    ck_assert_int_eq(later.plan_misses, 1);        /* learned: no miss after the first */
    ck_assert_int_eq(later.planned_values, 11);    /* the plan views_keep_their_base checks */
    TKT_RELEASE(x, want, y, y2, y3);
    tk_model_free(m);
}
END_TEST

START_TEST(memory_query_arguments)
{
    tk_model_memory_stats s;
    ck_assert_int_eq(tk_model_memory(NULL, &s), TK_ERR_INVALID_ARGUMENT);
    tk_model *m = load_plan_model("plan_chain.onnx", false);
    TKT_FAILS(tk_model_memory(m, NULL), TK_ERR_INVALID_ARGUMENT, "tk_model_memory: stats is NULL");
    s = memory(m);   /* before any run: no plan yet */
    ck_assert_uint_eq(s.arena_bytes, 0);
    ck_assert_int_eq(s.plans, 0);
    tk_model_free(m);
}
END_TEST

/* ------------------------------------------------------------ the real models */

static double meta_value(const char *dir, const char *key, double dflt)
{
    FILE *f = fopen(path_in(dir, "meta.txt"), "r");
    if (!f) return dflt;
    char k[32];
    double v, got = dflt;
    while (fscanf(f, "%31s %lf", k, &v) == 2)
        if (strcmp(k, key) == 0) got = v;
    fclose(f);
    return got;
}

static tk_tensor *load_pb(const char *dir, const char *name)
{
    tk_tensor *t;
    TKT_OK(tk_load_onnx_tensor(tkt_ctx, path_in(dir, name), &t));
    return t;
}

/* One case folder: model.onnx with input_0.pb and output_0.pb (PyTorch's). */
static void check_real(const char *dir, bool no_fuse)
{
    char label[1200];
    tk_model *m = load(path_in(dir, "model.onnx"), false, no_fuse), *off = load(path_in(dir, "model.onnx"), true, no_fuse);
    tk_tensor *x = load_pb(dir, "test_data_set_0/input_0.pb"), *want = load_pb(dir, "test_data_set_0/output_0.pb");
    TKT_OK(tk_context_set_threads(tkt_ctx, 2));
    tk_tensor *y = run1(m, x), *y_off = run1(off, x);
    snprintf(label, sizeof label, "%s%s: with the plan against PyTorch", dir, no_fuse ? " (no fuse)" : "");
    tkt_expect_close(y, want, meta_value(dir, "rtol", 1e-4), meta_value(dir, "atol", 1e-4), false, label);
    snprintf(label, sizeof label, "%s%s: with the plan and without", dir, no_fuse ? " (no fuse)" : "");
    tkt_expect_equal(y, y_off, label);
    TKT_OK(tk_context_set_threads(tkt_ctx, 1));
    tk_tensor *y1 = run1(m, x);
    TKT_OK(tk_context_set_threads(tkt_ctx, 2));
    snprintf(label, sizeof label, "%s%s: 1 thread and 2, with the plan", dir, no_fuse ? " (no fuse)" : "");
    tkt_expect_equal(y1, y, label);
    tk_model_memory_stats s = memory(m);
    ck_assert_msg(s.planned_values > 0 && s.arena_bytes < s.planned_bytes, "%s: %d values planned, arena %zu of %zu bytes", dir,
                  s.planned_values, s.arena_bytes, s.planned_bytes);
    ck_assert_msg(s.plan_misses == 0, "%s: %d runs missed the plan", dir, s.plan_misses);
    TKT_RELEASE(x, want, y, y_off, y1);
    tk_model_free(m);
    tk_model_free(off);
}

START_TEST(real_models_bit_identical)
{
    const char *root = models_dir("TK_ONNX_REAL_MODELS");
    DIR *d = opendir(root);
    ck_assert_msg(d != NULL, "no folder %s", root);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, "test_", 5) != 0) continue;
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
        check_real(dir, false);
        check_real(dir, true);
        n++;
    }
    closedir(d);
    ck_assert_msg(n >= 10, "%d real models in %s, 10 expected (gen_real_models.py)", n, root);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("onnx_plan");
    TCase *tc = tkt_case("plan");
    tcase_add_test(tc, chain_reuses_memory);
    tcase_add_test(tc, one_plan_per_binding);
    tcase_add_test(tc, views_keep_their_base);
    tcase_add_test(tc, kept_layout_stays_out_of_the_arena);
    tcase_add_test(tc, unexpected_view_is_caught);
    tcase_add_test(tc, memory_query_arguments);
    suite_add_tcase(s, tc);
    TCase *real = tkt_case("real");
    tcase_set_timeout(real, 1500);   /* ten models, five runs each, twice */
    tcase_add_test(real, real_models_bit_identical);
    suite_add_tcase(s, real);
    return s;
}

TKT_MAIN(suite)
