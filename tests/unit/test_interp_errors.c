/* test_interp_errors.c — the TIR reference interpreter (lower/interp/tir_interp.c) on launch edge
 * cases and refusals: empty grids, bad arguments, the verifier on broken TIR, loads from undeclared
 * shared slots.
 *
 * Harness, method and tolerances: interp_harness.h. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_harness.h"

/* ---------------------------------------------------------------- launch edge cases */

START_TEST(empty_grid_and_errors)
{
    Prog p;
    ith_prog_load(&p,
              "kernel e(gl<f32, N> Y, i32 g) grid(g) {\n"
              "    store(Y, fill<rv<f32, 16>>(1.0), block.x);\n"
              "}\n");
    const TirFunc *f = ith_kernel(&p, "e");
    double *Y = ith_alloc_fill(40, 5);
    static const int gs[] = { 0, -1, -2147483647 };
    for (size_t c = 0; c < 3; c++) {
        LAUNCH(f, T1(Y, 40), SC(gs[c]));
        for (int i = 0; i < 40; i++) ck_assert_double_eq(Y[i], 5.0);   /* no block ran */
    }
    LAUNCH(f, T1(Y, 40), SC(2));
    for (int i = 0; i < 40; i++) ck_assert_double_eq(Y[i], i < 32 ? 1.0 : 5.0);

    /* missing scalars or tensor data: a clean error, not a crash */
    char err[256];
    int64_t sizes[1] = { 40 };
    double *tensors[2] = { Y, NULL };
    ck_assert_int_eq(tir_interp_run(f, tensors, NULL, sizes, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "g") != NULL, "%s", err);
    double scalars[2] = { 0, 1 };
    tensors[0] = NULL;
    ck_assert_int_eq(tir_interp_run(f, tensors, scalars, sizes, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "Y") != NULL, "%s", err);
    ck_assert_int_eq(tir_interp_run(f, tensors, scalars, NULL, err, sizeof err), -1);
    /* a tiny error buffer is fine */
    ck_assert_int_eq(tir_interp_run(f, tensors, scalars, sizes, err, 4), -1);
    ck_assert_uint_le(strlen(err), 3);
    /* zero-sized tensors need no data and read as zeros */
    sizes[0] = 0;
    ck_assert_int_eq(tir_interp_run(f, tensors, scalars, sizes, err, sizeof err), 0);
    free(Y);
    ith_prog_free(&p);
}
END_TEST

/* A grid with a dimension of 0 runs no block, even when another dimension
 * is past what an i32 block index holds; a non-empty one that large is a
 * clean error (tir_interp.c checks the limit only for grids that run). */
START_TEST(an_empty_grid_is_empty_whatever_its_other_dimensions)
{
    Prog p;
    ith_prog_load(&p,
              "kernel e(gl<f32, N> Y, i64 g, i64 h) grid(g, h) {\n"
              "    store(Y, fill<rv<f32, 16>>(1.0), block.x);\n"
              "}\n");
    const TirFunc *f = ith_kernel(&p, "e");
    double *Y = ith_alloc_fill(16, 5);
    char err[256];
    Arg empty[] = { T1(Y, 16), SC(0), SC(3e9) };
    ck_assert_msg(ith_launch_err(f, empty, 3, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < 16; i++) ck_assert_double_eq(Y[i], 5.0);
    Arg huge[] = { T1(Y, 16), SC(1), SC(3e9) };
    ck_assert_int_eq(ith_launch_err(f, huge, 3, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "grid dimension 1") != NULL, "%s", err);
    for (int i = 0; i < 16; i++) ck_assert_double_eq(Y[i], 5.0);
    free(Y);
    ith_prog_free(&p);
}
END_TEST

/* The verifier's MMA rule: an accumulator that is a slot but not an rt tile
 * (here its type is made an st tile's behind the checker's back) is named. */
START_TEST(verifier_names_an_accumulator_that_is_not_an_rt_slot)
{
    Prog p;
    ith_prog_load(&p,
              "kernel k(gl<f32, 16, 16> A, gl<f32, 16, 16> C) {\n"
              "    rt<f32, 16, 16> acc = zeros();\n"
              "    rt<f32, 16, 16> a = load(A, 0, 0);\n"
              "    rt<f32, 16, 16, col> b = load(A, 0, 0);\n"
              "    mma_ab(acc, a, b);\n"
              "    store(C, acc, 0, 0);\n"
              "}\n");
    ck_assert_uint_eq(tir_verify(&p.m, NULL), 0);
    TirInstr *mma = NULL;
    for (TirInstr *i = p.m.funcs->body.first; i; i = i->next)
        if (i->op == TIR_MMA) mma = i;
    ck_assert_ptr_nonnull(mma);
    TirInstr *acc = mma->args[0];
    ck_assert_int_eq(acc->op, TIR_VAR);
    const TkType *rt = acc->type;
    TkType st = *rt;
    st.kind = TK_TY_ST;
    acc->type = &st;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    unsigned problems = tir_verify(&p.m, out);
    fclose(out);
    acc->type = rt;
    ck_assert_uint_ge(problems, 1);
    ck_assert_msg(strstr(text, "accumulator must be an rt slot") != NULL, "%s", text);
    free(text);
    ith_prog_free(&p);
}
END_TEST

/* A LOAD from a shared slot whose declaration did not run (here: the VAR moved
 * by hand into an if not taken) is refused with a message, not a crash
 * (planted-bug seed 2, #49). */
START_TEST(load_from_an_undeclared_shared_slot_is_refused)
{
    Prog p;
    ith_prog_load(&p,
              "kernel k(gl<f32, 16, 16> Y, i32 n) {\n"
              "    if (n > 0) {\n"
              "        store(Y, fill<rt<f32, 16, 16>>(1.0), 0, 0);\n"
              "    }\n"
              "    st<f32, 16, 16> S;\n"
              "    rt<f32, 16, 16> t = load(S);\n"
              "    store(Y, t, 0, 0);\n"
              "}\n");
    TirFunc *f = (TirFunc *)ith_kernel(&p, "k");
    TirInstr *branch = NULL, *var = NULL;
    for (TirInstr *i = f->body.first; i; i = i->next) {
        if (i->op == TIR_IF) branch = i;
        if (i->op == TIR_VAR && i->type->kind == TK_TY_ST) var = i;
    }
    ck_assert_ptr_nonnull(branch);
    ck_assert_ptr_nonnull(var);
    /* unlink the declaration and put it at the end of the if's then-branch */
    if (var->prev) var->prev->next = var->next;
    else f->body.first = var->next;
    if (var->next) var->next->prev = var->prev;
    else f->body.last = var->prev;
    tir_append(&branch->body[0], var);

    double Y[256];
    char err[256];
    Arg args[] = { T2(Y, 16, 16), SC(0) };   /* n = 0: the declaration does not run */
    ck_assert_int_eq(ith_launch_err(f, args, 2, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "before its declaration") != NULL, "%s", err);
    args[1] = SC(1);   /* n = 1: it does, and S reads as zeros */
    ck_assert_int_eq(ith_launch_err(f, args, 2, err, sizeof err), 0);
    for (int i = 0; i < 256; i++) ck_assert_double_eq(Y[i], 0.0);
    ith_prog_free(&p);
}
END_TEST

/* TIR that breaks the invariants (here: the ELEM-before-its-indices lowering
 * bug, left unpatched) is refused with a message, never run. */
START_TEST(invalid_tir_is_refused)
{
    Prog p;
    ith_prog_load_raw(&p,
                  "kernel k(gl<f32, N> Y) {\n"
                  "    rv<f32, 16> r = zeros();\n"
                  "    r[0] = r[1] + 1.0;\n"
                  "    store(Y, r, 0);\n"
                  "}\n",
                  false);
    const TirFunc *f = ith_kernel(&p, "k");
    double Y[16];
    char err[256];
    Arg args[] = { T1(Y, 16) };
    int rc = ith_launch_err(f, args, 1, err, sizeof err);
    if (tir_verify(&p.m, NULL) != 0) {   /* with the lowering bug present */
        ck_assert_int_eq(rc, -1);
        ck_assert_msg(strstr(err, "before its definition") != NULL, "%s", err);
    } else {
        ck_assert_msg(rc == 0, "%s", err);
        ck_assert_double_eq(Y[0], 1.0);
    }
    ith_prog_free(&p);
}
END_TEST

Suite *tk_suite_interp_errors(void)
{
    Suite *s = suite_create("interp_errors");
    TCase *tc = tcase_create("errors");
    tcase_set_timeout(tc, 60);   /* generous for sanitizer builds */
    tcase_add_test(tc, an_empty_grid_is_empty_whatever_its_other_dimensions);
    tcase_add_test(tc, verifier_names_an_accumulator_that_is_not_an_rt_slot);
    tcase_add_test(tc, load_from_an_undeclared_shared_slot_is_refused);
    tcase_add_test(tc, empty_grid_and_errors);
    tcase_add_test(tc, invalid_tir_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
