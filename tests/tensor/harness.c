/* harness.c — see harness.h. */
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

tk_context *tkt_ctx;

void tkt_setup(void)
{
    ck_assert_int_eq(tk_context_create(NULL, &tkt_ctx), TK_OK);
}

void tkt_teardown(void)
{
    tk_memory_stats m;
    tk_memory_stats_get(tkt_ctx, &m);
    int64_t live = m.live_tensors;
    tk_context_free(tkt_ctx);
    tkt_ctx = NULL;
    ck_assert_msg(live == 0, "%lld tensors were not released", (long long)live);
}

TCase *tkt_case(const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, tkt_setup, tkt_teardown);
    tcase_set_timeout(tc, 300);
    return tc;
}

static void fx_path(const char *c, const char *name, char *buf, size_t len)
{
    const char *dir = getenv("TK_FIXTURES");
    snprintf(buf, len, "%s/%s/%s.npy", dir ? dir : "fixtures", c, name);
}

bool tkt_fx_exists(const char *c, const char *name)
{
    char path[1024];
    fx_path(c, name, path, sizeof path);
    return access(path, R_OK) == 0;
}

tk_tensor *tkt_fx(const char *c, const char *name)
{
    char path[1024];
    fx_path(c, name, path, sizeof path);
    tk_tensor *t = NULL;
    tk_status s = tk_load_npy(tkt_ctx, path, &t);
    ck_assert_msg(s == TK_OK, "fixture %s: %s (run gen_fixtures.py; ctest does)", path, tk_last_error(tkt_ctx));
    return t;
}

void tkt_expect_fail(tk_status got, tk_status want, const char *needle, const char *what)
{
    const char *msg = tk_last_error(tkt_ctx);
    ck_assert_msg(got == want, "%s: expected status %d, got %d (%s)", what, (int)want, (int)got, msg);
    ck_assert_msg(!needle || strstr(msg, needle), "%s: message '%s' does not mention '%s'", what, msg, needle);
}

void tkt_tolerance(tk_dtype t, double *rtol, double *atol)
{
    switch (t) {
    case TK_DTYPE_F32: *rtol = 1e-5, *atol = 1e-6; break;
    case TK_DTYPE_F64: *rtol = 1e-12, *atol = 1e-14; break;
    case TK_DTYPE_F16: *rtol = 1e-3, *atol = 1e-4; break;
    case TK_DTYPE_BF16: *rtol = 1e-2, *atol = 1e-3; break;
    default: *rtol = 0, *atol = 0; break;
    }
}

/* Both as contiguous f64 arrays of the same length; the caller frees. */
static double *as_doubles(const tk_tensor *t, int64_t *n)
{
    tk_tensor *d = NULL;
    ck_assert_int_eq(tk_to_dtype(tkt_ctx, t, TK_DTYPE_F64, &d), TK_OK);
    *n = tk_tensor_numel(d);
    double *v = malloc((size_t)(*n ? *n : 1) * sizeof *v);
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(tk_to_data(tkt_ctx, d, v, (size_t)*n * sizeof *v), TK_OK);
    tk_tensor_release(d);
    return v;
}

static void expect_same_shape(const tk_tensor *got, const tk_tensor *want, const char *label)
{
    char *g = tk_tensor_describe(got, 0), *w = tk_tensor_describe(want, 0);
    bool same = tk_tensor_ndim(got) == tk_tensor_ndim(want);
    for (int d = 0; same && d < tk_tensor_ndim(got); d++) same = tk_tensor_shape(got)[d] == tk_tensor_shape(want)[d];
    if (!same) ck_abort_msg("%s: shape differs: got %s, want %s", label, g, w);
    free(g);
    free(w);
}

void tkt_expect_close(const tk_tensor *got, const tk_tensor *want, double rtol, double atol, bool check_dtype, const char *label)
{
    ck_assert_msg(got && want, "%s: NULL tensor", label);
    expect_same_shape(got, want, label);
    if (check_dtype)
        ck_assert_msg(tk_tensor_dtype(got) == tk_tensor_dtype(want), "%s: dtype %s, want %s", label,
                      tk_dtype_name(tk_tensor_dtype(got)), tk_dtype_name(tk_tensor_dtype(want)));
    int64_t n, m;
    double *g = as_doubles(got, &n), *w = as_doubles(want, &m);
    int64_t worst = -1, bad = 0;
    double worst_ratio = 0;
    for (int64_t i = 0; i < n; i++) {
        double a = g[i], b = w[i];
        bool ok;
        double ratio = 0;
        if (isnan(b)) ok = isnan(a);
        else if (isinf(b)) ok = a == b;
        else {
            double allowed = atol + rtol * fabs(b);
            ok = fabs(a - b) <= allowed;   /* false for a NaN a */
            ratio = allowed > 0 ? fabs(a - b) / allowed : (a == b ? 0 : INFINITY);
        }
        if (!ok) {
            bad++;
            if (worst < 0 || ratio > worst_ratio || isnan(ratio)) worst = i, worst_ratio = ratio;
        }
    }
    if (bad) {
        double a = g[worst], b = w[worst];
        free(g);
        free(w);
        ck_abort_msg("%s: %lld of %lld elements differ; worst at flat index %lld: got %.9g, want %.9g (rtol %g, atol %g)", label,
                     (long long)bad, (long long)n, (long long)worst, a, b, rtol, atol);
    }
    free(g);
    free(w);
}

void tkt_expect_equal(const tk_tensor *got, const tk_tensor *want, const char *label)
{
    ck_assert_msg(got && want, "%s: NULL tensor", label);
    ck_assert_msg(tk_tensor_dtype(got) == tk_tensor_dtype(want), "%s: dtype %s, want %s", label, tk_dtype_name(tk_tensor_dtype(got)),
                  tk_dtype_name(tk_tensor_dtype(want)));
    expect_same_shape(got, want, label);
    size_t es = tk_dtype_size(tk_tensor_dtype(got));
    size_t bytes = (size_t)tk_tensor_numel(got) * es;
    unsigned char *a = malloc(bytes + 1), *b = malloc(bytes + 1);
    ck_assert_int_eq(tk_to_data(tkt_ctx, got, a, bytes), TK_OK);
    ck_assert_int_eq(tk_to_data(tkt_ctx, want, b, bytes), TK_OK);
    for (size_t i = 0; i < bytes; i += es)
        if (memcmp(a + i, b + i, es) != 0) {
            long long idx = (long long)(i / es);
            free(a);
            free(b);
            ck_abort_msg("%s: element %lld differs bit for bit", label, idx);
        }
    free(a);
    free(b);
}
