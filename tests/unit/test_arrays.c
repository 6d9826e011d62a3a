/* test_arrays.c — lang/arrays.c on its own: the shape of the AST it leaves
 * (one declaration per element, constant indices as element names, which
 * loops are unrolled and which stay loops), the scoping of the constants it
 * evaluates, and its API run directly on a parsed item, as a later pass
 * (generic kernels) will run it on an instance. */
#include <check.h>
#include <string.h>

#include "arrays.h"
#include "front.h"

static TkFront fe;

static unsigned check_src(const char *src)
{
    ck_assert_int_eq(tk_front_load_memory(&fe, "arrays.tk", src, strlen(src)), 0);
    ck_assert_uint_eq(tk_front_parse(&fe), 0);
    return tk_front_check(&fe);
}

static const TkNode *item(const char *name)
{
    for (const TkNode *it = fe.items; it; it = it->next)
        if (it->name && strcmp(it->name, name) == 0) return it;
    ck_abort_msg("no item %s", name);
    return NULL;
}

static const TkNode *nth(const TkNode *list, unsigned n)
{
    while (list && n--) list = list->next;
    ck_assert_ptr_nonnull(list);
    return list;
}

START_TEST(elements_and_constant_indices)
{
    ck_assert_uint_eq(check_src("kernel k(gl<f32, M, N> X) {\n"
                                "    rt<f32, 16, 16> acc[3] = zeros();\n"
                                "    acc[1] = acc[2];\n"
                                "    store(X, acc[1], 0, 0);\n"
                                "}\n"),
                      0);
    const TkNode *k = item("k"), *body = k->b->list;
    ck_assert_uint_eq(tk_list_length(body), 5);
    for (unsigned i = 0; i < 3; i++) {
        const TkNode *v = nth(body, i);
        char want[16];
        snprintf(want, sizeof want, "acc[%u]", i);
        ck_assert_int_eq(v->kind, TK_N_VAR);
        ck_assert_str_eq(v->name, want);
        ck_assert_ptr_null(v->c);
        ck_assert_ptr_nonnull(v->b);   /* each element has its own initialiser */
    }
    ck_assert_ptr_ne(nth(body, 0)->b, nth(body, 1)->b);
    const TkNode *as = nth(body, 3);
    ck_assert_int_eq(as->a->kind, TK_N_NAME);
    ck_assert_str_eq(as->a->name, "acc[1]");
    ck_assert_str_eq(as->b->name, "acc[2]");
    /* the printer's copy keeps the source form */
    ck_assert_ptr_nonnull(k->source);
    ck_assert_uint_eq(tk_list_length(k->source->list), 3);
    ck_assert_ptr_nonnull(k->source->list->c);
    tk_front_free(&fe);
}
END_TEST

START_TEST(which_loops_unroll)
{
    ck_assert_uint_eq(check_src("kernel k(gl<f32, M, N> X) {\n"
                                "    rt<f32, 16, 16> t[2];\n"
                                "    f32 s = 0.0;\n"
                                "    for (i in 0 .. 4) {\n"          /* no array indexed with i: a loop */
                                "        s = s + 1.0;\n"
                                "        t[0] = t[0] * s;\n"
                                "    }\n"
                                "    for (j in 0 .. 2) {\n"          /* unrolled */
                                "        t[j] = load(X, 0, j);\n"
                                "        for (r in 0 .. 3) {\n"      /* indexes with j only: a loop */
                                "            t[j] = t[j] * 2.0;\n"
                                "        }\n"
                                "    }\n"
                                "}\n"),
                      0);
    const TkNode *body = item("k")->b->list;
    ck_assert_int_eq(nth(body, 3)->kind, TK_N_FOR);
    const TkNode *un = nth(body, 4);
    ck_assert_int_eq(un->kind, TK_N_BLOCK);
    ck_assert_uint_eq(tk_list_length(un->list), 2);
    for (unsigned i = 0; i < 2; i++) {
        const TkNode *copy = nth(un->list, i);
        ck_assert_int_eq(copy->kind, TK_N_BLOCK);
        const TkNode *st = copy->list;
        char want[8];
        snprintf(want, sizeof want, "t[%u]", i);
        ck_assert_str_eq(st->a->name, want);
        /* j became its value, typed i32 like the loop variable */
        const TkNode *j = nth(st->b->list, 2);
        ck_assert_int_eq(j->kind, TK_N_INT);
        ck_assert(j->loop_value);
        ck_assert_int_eq(j->ival, i);
        const TkNode *inner = st->next;
        ck_assert_int_eq(inner->kind, TK_N_FOR);
        ck_assert_str_eq(inner->c->list->a->name, want);
    }
    tk_front_free(&fe);
}
END_TEST

START_TEST(constants_are_scoped)
{
    /* a block's const is gone after the block; a top-level const counts only
     * after its declaration; a const computed from an unrolled loop's variable
     * is a constant in that copy */
    ck_assert_uint_eq(check_src("const EARLY = 2;\n"
                                "kernel k(gl<f32, M, N> X) {\n"
                                "    { const L = 2; }\n"
                                "    rt<f32, 16, 16> a[L];\n"
                                "    rt<f32, 16, 16> b[EARLY];\n"
                                "    rt<f32, 16, 16> c[LATE];\n"
                                "    for (j in 0 .. EARLY) {\n"
                                "        const q = EARLY - 1 - j;\n"
                                "        b[q] = zeros();\n"
                                "    }\n"
                                "}\n"
                                "const LATE = 2;\n"),
                      2);
    ck_assert_str_eq(fe.diags.items[0].message, "the length of array 'a' is not known at compile time");
    ck_assert_str_eq(fe.diags.items[1].message, "the length of array 'c' is not known at compile time");
    ck_assert(item("k")->broken);   /* the checker skips it: no follow-on errors */
    tk_front_free(&fe);
}
END_TEST

START_TEST(expand_runs_on_a_parsed_item)
{
    const char *src = "const NB = 2;\n"
                      "fn f(rt<f32, 16, 16> x) -> rt<f32, 16, 16> {\n"
                      "    rt<f32, 16, 16> p[NB] = x;\n"
                      "    for (j in 0 .. NB) { p[j] = p[j] * 2.0; }\n"
                      "    return p[0] + p[1];\n"
                      "}\n";
    ck_assert_int_eq(tk_front_load_memory(&fe, "arrays.tk", src, strlen(src)), 0);
    ck_assert_uint_eq(tk_front_parse(&fe), 0);
    TkNode *fn = fe.items->next;
    ck_assert_int_eq(tk_arrays_expand(&fe.arena, &fe.diags, fe.items, fn), 0);
    ck_assert_str_eq(fn->b->list->name, "p[0]");
    ck_assert_int_eq(nth(fn->b->list, 2)->kind, TK_N_BLOCK);
    /* a second run finds nothing left to expand and changes nothing */
    const TkNode *first = fn->b->list;
    ck_assert_int_eq(tk_arrays_expand(&fe.arena, &fe.diags, fe.items, fn), 0);
    ck_assert_ptr_eq(fn->b->list, first);
    /* without the program, NB is unknown: an error, the item marked broken */
    TkNode *copy = fe.items->next;
    copy->b = copy->source;
    copy->source = NULL;
    ck_assert_int_eq(tk_arrays_expand(&fe.arena, &fe.diags, NULL, copy), 1);
    ck_assert(copy->broken);
    tk_front_free(&fe);
}
END_TEST

Suite *tk_suite_arrays(void)
{
    Suite *s = suite_create("arrays");
    TCase *tc = tcase_create("arrays");
    tcase_add_test(tc, elements_and_constant_indices);
    tcase_add_test(tc, which_loops_unroll);
    tcase_add_test(tc, constants_are_scoped);
    tcase_add_test(tc, expand_runs_on_a_parsed_item);
    suite_add_tcase(s, tc);
    return s;
}
