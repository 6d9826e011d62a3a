/* harness.h — what the tensor runtime's tests share: a context per test,
 * PyTorch fixtures (written by gen_fixtures.py at test time, one folder per
 * case holding NAME.npy files), and comparisons that name the worst element.
 *
 * A test binary is one Check suite file; it ends with TKT_MAIN(suite_fn). The
 * fixture folder comes from $TK_FIXTURES (ctest sets it). */
#ifndef TK_TESTS_TENSOR_HARNESS_H
#define TK_TESTS_TENSOR_HARNESS_H

#include <check.h>
#include <stdbool.h>
#include <stdint.h>

#include "tk/tk.h"

extern tk_context *tkt_ctx;   /* made before each test, freed after (fails the test if tensors leak) */
void tkt_setup(void);
void tkt_teardown(void);
/* A TCase with tkt_setup/teardown as checked fixtures and a generous timeout. */
TCase *tkt_case(const char *name);

/* Loads fixture <case>/<name>.npy (fails the test if missing). */
tk_tensor *tkt_fx(const char *fixture_case, const char *name);
bool tkt_fx_exists(const char *fixture_case, const char *name);

/* Asserts the call succeeded, printing the context's message if not. */
#define TKT_OK(call)                                                                                         \
    do {                                                                                                     \
        tk_status tkt_s_ = (call);                                                                           \
        ck_assert_msg(tkt_s_ == TK_OK, "%s failed (status %d): %s", #call, (int)tkt_s_, tk_last_error(tkt_ctx)); \
    } while (0)
/* Asserts the call fails with `status` and its message contains `needle`. */
#define TKT_FAILS(call, status, needle) tkt_expect_fail((call), (status), (needle), #call)
void tkt_expect_fail(tk_status got, tk_status want, const char *needle, const char *what);

/* |got - want| <= atol + rtol·|want| for every element (NaN matches NaN,
 * infinities must match), same shape; dtypes may differ only if
 * check_dtype is false. Fails naming the worst element. */
void tkt_expect_close(const tk_tensor *got, const tk_tensor *want, double rtol, double atol, bool check_dtype, const char *label);
/* Bit-for-bit the same values (and shape and dtype). */
void tkt_expect_equal(const tk_tensor *got, const tk_tensor *want, const char *label);
/* Tolerances by dtype: f32 1e-5/1e-6, f64 1e-12/1e-14, f16 1e-3/1e-4, bf16 1e-2/1e-3, ints exact. */
void tkt_tolerance(tk_dtype t, double *rtol, double *atol);

/* Releases every tensor named (NULLs are fine). */
#define TKT_RELEASE(...)                                                          \
    do {                                                                          \
        tk_tensor *tkt_r_[] = { __VA_ARGS__ };                                     \
        for (unsigned tkt_i_ = 0; tkt_i_ < sizeof tkt_r_ / sizeof *tkt_r_; tkt_i_++) \
            tk_tensor_release(tkt_r_[tkt_i_]);                                     \
    } while (0)

#define TKT_MAIN(suite_fn)                                    \
    int main(void)                                            \
    {                                                         \
        SRunner *r = srunner_create(suite_fn());              \
        srunner_run_all(r, CK_NORMAL);                        \
        int failed = srunner_ntests_failed(r);                \
        srunner_free(r);                                      \
        return failed == 0 ? 0 : 1;                           \
    }

#endif
