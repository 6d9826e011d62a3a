/* test_shape.c — views and shape ops (tk/shape.h) against PyTorch
 * (fixtures/fx_shape.py): ragged shapes, negative dims, non-contiguous
 * inputs made with the view ops themselves, 0-d and zero-size tensors,
 * several dtypes, views' aliasing and lifetimes, one and two threads, and a
 * bad-argument test per op family. Everything here moves elements without
 * arithmetic, so results must be bit-exact (tkt_expect_equal), except
 * scatter's reductions (see there). */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define END INT64_MAX

/* Compares got with fixture <fx>/<name> bit for bit, then releases got. */
static void expect_fx(tk_tensor *got, const char *fx, const char *name)
{
    tk_tensor *want = tkt_fx(fx, name);
    char label[128];
    snprintf(label, sizeof label, "%s/%s", fx, name);
    tkt_expect_equal(got, want, label);
    TKT_RELEASE(got, want);
}

/* The non-contiguous inputs the fixtures name: xt = x.transpose(0, 2), xs = x[:, 1::2, ::3]. */
static tk_tensor *make_xt(tk_tensor *x)
{
    tk_tensor *t;
    TKT_OK(tk_transpose(tkt_ctx, x, 0, 2, &t));
    ck_assert(!tk_tensor_is_contiguous(t));
    return t;
}

static tk_tensor *make_xs(tk_tensor *x)
{
    tk_tensor *a, *b;
    TKT_OK(tk_slice(tkt_ctx, x, 1, 1, END, 2, &a));
    TKT_OK(tk_slice(tkt_ctx, a, 2, 0, END, 3, &b));
    tk_tensor_release(a);
    return b;
}

static tk_tensor *shape_of(const tk_tensor *t, int ndim, const int64_t *want)
{
    ck_assert_int_eq(tk_tensor_ndim(t), ndim);
    for (int i = 0; i < ndim; i++) ck_assert_int_eq(tk_tensor_shape(t)[i], want[i]);
    return (tk_tensor *)t;
}

START_TEST(views_match_torch)
{
    const char *F = "views";
    tk_tensor *x = tkt_fx(F, "x"), *y = tkt_fx(F, "y"), *xt = make_xt(x), *xs = make_xs(x), *t, *ye;
    TKT_OK(tk_expand(tkt_ctx, y, 4, (int64_t[]){ 2, 3, 4, 7 }, &ye));
    TKT_OK(tk_permute(tkt_ctx, x, (int[]){ 2, 0, 1 }, &t));
    ck_assert(tk_tensor_shares_storage(t, x));
    expect_fx(t, F, "permute");
    TKT_OK(tk_transpose(tkt_ctx, x, -1, 0, &t));
    expect_fx(t, F, "transpose");
    TKT_OK(tk_slice(tkt_ctx, x, 1, 1, -1, 2, &t));
    expect_fx(t, F, "slice");
    tk_tensor *a;
    TKT_OK(tk_slice(tkt_ctx, x, 1, -100, -2, 1, &a));
    TKT_OK(tk_slice(tkt_ctx, a, 2, 5, 100, 4, &t));
    tk_tensor_release(a);
    expect_fx(t, F, "slice_neg");
    TKT_OK(tk_select(tkt_ctx, x, -2, -1, &t));
    expect_fx(t, F, "select");
    TKT_OK(tk_expand(tkt_ctx, y, 4, (int64_t[]){ 2, -1, 5, -1 }, &t));
    ck_assert_int_eq(tk_tensor_strides(t)[0], 0);
    ck_assert_int_eq(tk_tensor_strides(t)[2], 0);
    expect_fx(t, F, "expand");
    TKT_OK(tk_squeeze(tkt_ctx, y, 1, &t));
    expect_fx(t, F, "squeeze");
    TKT_OK(tk_squeeze(tkt_ctx, x, 1, &t));   /* not size 1: the same shape */
    shape_of(t, 3, (int64_t[]){ 3, 5, 7 });
    tk_tensor_release(t);
    tk_tensor *w = tkt_fx(F, "squeeze_all");
    TKT_OK(tk_unsqueeze(tkt_ctx, w, 0, &a));
    TKT_OK(tk_unsqueeze(tkt_ctx, a, -1, &t));
    tk_tensor_release(a);
    TKT_OK(tk_squeeze_all(tkt_ctx, t, &a));
    tk_tensor_release(t);
    tkt_expect_equal(a, w, "squeeze_all");
    TKT_RELEASE(a, w);
    TKT_OK(tk_unsqueeze(tkt_ctx, x, -1, &t));
    expect_fx(t, F, "unsqueeze");
    TKT_OK(tk_unsqueeze(tkt_ctx, x, 0, &t));
    expect_fx(t, F, "unsqueeze0");
    TKT_OK(tk_flatten(tkt_ctx, x, 0, 1, &t));
    ck_assert(tk_tensor_shares_storage(t, x));
    expect_fx(t, F, "flatten");
    TKT_OK(tk_flatten(tkt_ctx, xt, 1, -1, &t));   /* [7, 5, 3] with strides [1, 7, 35]: must copy */
    ck_assert(!tk_tensor_shares_storage(t, x));
    expect_fx(t, F, "flatten_t");
    TKT_OK(tk_permute(tkt_ctx, x, (int[]){ 2, 0, 1 }, &a));
    TKT_OK(tk_view(tkt_ctx, a, 2, (int64_t[]){ 7, 15 }, &t));   /* dims 1, 2 of the permuted view are contiguous together */
    ck_assert(tk_tensor_shares_storage(t, x));
    TKT_FAILS(tk_view(tkt_ctx, a, 2, (int64_t[]){ 21, 5 }, &w), TK_ERR_SHAPE, "use tk_reshape");
    ck_assert_ptr_null(w);
    tk_tensor_release(a);
    expect_fx(t, F, "view_perm");
    TKT_OK(tk_reshape(tkt_ctx, xt, 2, (int64_t[]){ -1, 5 }, &t));
    expect_fx(t, F, "reshape_t");
    TKT_OK(tk_reshape(tkt_ctx, xs, 2, (int64_t[]){ 9, 2 }, &t));
    expect_fx(t, F, "reshape_s");
    TKT_OK(tk_reshape(tkt_ctx, ye, 2, (int64_t[]){ 6, 28 }, &t));
    expect_fx(t, F, "reshape_e");
    /* an expanded dim splits into a size-1 dim and itself without a copy */
    TKT_OK(tk_view(tkt_ctx, ye, 5, (int64_t[]){ 2, 3, 4, 7, 1 }, &a));
    ck_assert(tk_tensor_shares_storage(a, y));
    TKT_OK(tk_select(tkt_ctx, a, 4, 0, &t));
    tk_tensor_release(a);
    expect_fx(t, F, "view_e");
    TKT_OK(tk_contiguous(tkt_ctx, xt, &t));
    ck_assert(tk_tensor_is_contiguous(t));
    expect_fx(t, F, "contiguous_t");
    TKT_OK(tk_contiguous(tkt_ctx, x, &t));
    ck_assert_ptr_eq(t, x);   /* already contiguous: a new reference to t itself */
    tk_tensor_release(t);
    TKT_RELEASE(x, y, xt, xs, ye);
}
END_TEST

/* A write through a view is seen in the base, and a view outlives its base. */
START_TEST(views_alias_their_base)
{
    tk_tensor *base, *v, *sel, *col;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 3, 5, 7 }, &base));
    TKT_OK(tk_permute(tkt_ctx, base, (int[]){ 1, 2, 0 }, &v));
    TKT_OK(tk_select(tkt_ctx, v, 1, 6, &sel));    /* base[:, :, 6] as [5, 3] */
    TKT_OK(tk_slice(tkt_ctx, sel, 0, 1, END, 3, &col));   /* base[:, 1::3, 6] as [2, 3] */
    TKT_OK(tk_fill_(tkt_ctx, col, 4));
    double val;
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 5; j++)
            for (int64_t k = 0; k < 7; k++) {
                TKT_OK(tk_item(tkt_ctx, base, (int64_t[]){ i, j, k }, &val));
                ck_assert_double_eq(val, k == 6 && (j == 1 || j == 4) ? 4 : 0);
            }
    tk_tensor_release(base);
    tk_tensor_release(v);
    /* the storage lives on in sel and col */
    TKT_OK(tk_fill_(tkt_ctx, sel, -1));
    TKT_OK(tk_item(tkt_ctx, col, (int64_t[]){ 1, 2 }, &val));
    ck_assert_double_eq(val, -1);
    tk_tensor *e, *r;
    TKT_OK(tk_expand(tkt_ctx, col, 3, (int64_t[]){ 4, 2, 3 }, &e));
    TKT_OK(tk_reshape(tkt_ctx, e, 1, (int64_t[]){ -1 }, &r));   /* stride-0 dims cannot be merged: a copy */
    ck_assert(!tk_tensor_shares_storage(r, e));
    ck_assert_int_eq(tk_tensor_numel(r), 24);
    TKT_RELEASE(sel, col, e, r);
}
END_TEST

START_TEST(dtypes_match_torch)
{
    const char *names[] = { "f32", "bf16", "i64", "bool", "u8" };
    for (int k = 0; k < 5; k++) {
        char F[32];
        snprintf(F, sizeof F, "dtype_%s", names[k]);
        tk_tensor *a = tkt_fx(F, "a"), *at, *t, *idx;
        TKT_OK(tk_transpose(tkt_ctx, a, 0, 1, &at));
        TKT_OK(tk_reshape(tkt_ctx, at, 2, (int64_t[]){ 3, 8 }, &t));
        expect_fx(t, F, "reshape_t");
        tk_tensor *head;
        TKT_OK(tk_slice(tkt_ctx, at, 0, 0, 4, 1, &head));
        TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ a, head }, 2, 1, &t));
        tk_tensor_release(head);
        expect_fx(t, F, "cat");
        TKT_OK(tk_flip(tkt_ctx, at, (int[]){ 0, 1 }, 2, &t));
        expect_fx(t, F, "flip");
        TKT_OK(tk_roll(tkt_ctx, a, (int64_t[]){ 3 }, (int[]){ 1 }, 1, &t));
        expect_fx(t, F, "roll");
        TKT_OK(tk_pad(tkt_ctx, a, (int64_t[]){ 1, 2, 0, 1 }, 4, TK_PAD_CONSTANT, 1, &t));
        expect_fx(t, F, "pad");
        TKT_OK(tk_from_data(tkt_ctx, (int32_t[]){ 5, 0, 1, 1, 2, 3, 0, 0 }, TK_DTYPE_I32, 2, (int64_t[]){ 4, 2 }, &idx));
        TKT_OK(tk_gather(tkt_ctx, a, 1, idx, &t));
        tk_tensor_release(idx);
        expect_fx(t, F, "gather");
        TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ 3, 0, -1 }, TK_DTYPE_I64, 1, (int64_t[]){ 3 }, &idx));
        TKT_OK(tk_index_select(tkt_ctx, a, 0, idx, &t));
        tk_tensor_release(idx);
        expect_fx(t, F, "index_select");
        TKT_OK(tk_tril(tkt_ctx, a, 1, &t));
        expect_fx(t, F, "tril");
        TKT_RELEASE(a, at);
    }
}
END_TEST

START_TEST(cat_stack_match_torch)
{
    const char *F = "cat";
    tk_tensor *x = tkt_fx(F, "x"), *b = tkt_fx(F, "b"), *i = tkt_fx(F, "i"), *xt = make_xt(x), *t, *a, *e, *z;
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ x, b, i }, 3, 1, &t));   /* f32 with i32: f32 */
    expect_fx(t, F, "cat1");
    TKT_OK(tk_slice(tkt_ctx, x, 1, 0, END, 2, &a));
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ x, a }, 2, -2, &t));
    tk_tensor_release(a);
    expect_fx(t, F, "cat_neg");
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 0, 5, 7 }, &z));
    TKT_OK(tk_transpose(tkt_ctx, xt, 0, 2, &a));   /* x again, through two transposes */
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ x, z, a }, 3, 0, &t));
    TKT_RELEASE(a, z);
    expect_fx(t, F, "cat0");
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 0 }, &e));
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ e, x, e }, 3, 2, &t));   /* a [0] beside 3-d tensors is skipped */
    expect_fx(t, F, "cat_legacy");
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ e, e }, 2, 0, &t));
    expect_fx(t, F, "cat_empty");
    TKT_OK(tk_to_dtype(tkt_ctx, x, TK_DTYPE_BF16, &a));
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ a, b }, 2, 1, &t));   /* bf16 with f32: f32 */
    tk_tensor_release(a);
    expect_fx(t, F, "cat_bf16");
    TKT_RELEASE(x, b, i, xt, e);

    F = "stack";
    tk_tensor *m = tkt_fx(F, "m"), *n = tkt_fx(F, "n"), *k = tkt_fx(F, "k"), *nt;
    TKT_OK(tk_transpose(tkt_ctx, n, 0, 1, &nt));
    TKT_OK(tk_stack(tkt_ctx, (const tk_tensor *[]){ m, nt, m }, 3, 0, &t));
    expect_fx(t, F, "s0");
    TKT_OK(tk_stack(tkt_ctx, (const tk_tensor *[]){ m, nt }, 2, 1, &t));
    expect_fx(t, F, "s1");
    TKT_OK(tk_stack(tkt_ctx, (const tk_tensor *[]){ m, k }, 2, -1, &t));   /* f32 with i32 */
    expect_fx(t, F, "s_last");
    tk_tensor *s1, *s2;
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 0, NULL, 2.5, &s1));
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 0, NULL, -1, &s2));
    TKT_OK(tk_stack(tkt_ctx, (const tk_tensor *[]){ s1, s2 }, 2, 0, &t));
    expect_fx(t, F, "s_scalar");
    TKT_RELEASE(m, n, k, nt, s1, s2);
}
END_TEST

START_TEST(split_chunk_match_torch)
{
    const char *F = "split";
    tk_tensor *x = tkt_fx(F, "x"), *outs[4], *r;
    char name[32];
    int n;
    TKT_OK(tk_chunk(tkt_ctx, x, 3, 1, outs, &n));
    ck_assert_int_eq(n, 3);
    for (int k = 0; k < n; k++) {
        ck_assert(tk_tensor_shares_storage(outs[k], x));
        snprintf(name, sizeof name, "chunk3_%d", k);
        expect_fx(outs[k], F, name);
    }
    TKT_OK(tk_arange(tkt_ctx, TK_DTYPE_F32, 0, 6, 1, &r));
    TKT_OK(tk_chunk(tkt_ctx, r, 4, 0, outs, &n));
    ck_assert_int_eq(n, 3);   /* pieces of 2: only three */
    for (int k = 0; k < n; k++) {
        snprintf(name, sizeof name, "chunk4_%d", k);
        expect_fx(outs[k], F, name);
    }
    TKT_OK(tk_split(tkt_ctx, x, (int64_t[]){ 3, 0, 4 }, 3, -1, outs));
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "split_%d", k);
        expect_fx(outs[k], F, name);
    }
    tk_tensor *e;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 0 }, &e));
    TKT_OK(tk_chunk(tkt_ctx, e, 3, 0, outs, &n));   /* as torch: `chunks` empty pieces */
    ck_assert_int_eq(n, 3);
    for (int k = 0; k < n; k++) ck_assert_int_eq(tk_tensor_numel(outs[k]), 0);
    TKT_RELEASE(outs[0], outs[1], outs[2], e, r, x);
}
END_TEST

START_TEST(index_select_gather_match_torch)
{
    const char *F = "index_select";
    tk_tensor *x = tkt_fx(F, "x"), *idx = tkt_fx(F, "idx"), *xt = make_xt(x), *xs = make_xs(x), *t, *i;
    TKT_OK(tk_index_select(tkt_ctx, x, 1, idx, &t));   /* with a -1 entry */
    expect_fx(t, F, "out");
    TKT_OK(tk_from_data(tkt_ctx, (int32_t[]){ 2, 2, 0 }, TK_DTYPE_I32, 1, (int64_t[]){ 3 }, &i));
    TKT_OK(tk_index_select(tkt_ctx, xt, -1, i, &t));
    tk_tensor_release(i);
    expect_fx(t, F, "out_t");
    TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ 1 }, TK_DTYPE_I64, 1, (int64_t[]){ 1 }, &i));
    TKT_OK(tk_index_select(tkt_ctx, xs, 0, i, &t));
    tk_tensor_release(i);
    expect_fx(t, F, "out_s");
    TKT_OK(tk_empty(tkt_ctx, TK_DTYPE_I64, 1, (int64_t[]){ 0 }, &i));
    TKT_OK(tk_index_select(tkt_ctx, x, 0, i, &t));
    tk_tensor_release(i);
    expect_fx(t, F, "out_empty");
    tk_tensor *s;
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 0, NULL, 3.5, &s));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I64, 1, (int64_t[]){ 1 }, &i));
    TKT_OK(tk_index_select(tkt_ctx, s, 0, i, &t));   /* as torch: a 0-d result (not a fixture: gen_fixtures saves 0-d as [1]) */
    double v;
    ck_assert_int_eq(tk_tensor_ndim(t), 0);
    TKT_OK(tk_item(tkt_ctx, t, NULL, &v));
    ck_assert_double_eq(v, 3.5);
    TKT_RELEASE(i, s, t);
    TKT_RELEASE(x, idx, xs);

    F = "gather";
    x = tkt_fx(F, "x");
    tk_tensor *gi = tkt_fx(F, "gi"), *gs = tkt_fx(F, "gs"), *ti = tkt_fx(F, "ti"), *gi32;
    TKT_OK(tk_gather(tkt_ctx, x, 1, gi, &t));
    expect_fx(t, F, "out");
    TKT_OK(tk_to_dtype(tkt_ctx, gs, TK_DTYPE_I32, &gi32));
    TKT_OK(tk_gather(tkt_ctx, x, -1, gi32, &t));   /* an index smaller than t in the other dims */
    expect_fx(t, F, "out_small");
    TKT_OK(tk_gather(tkt_ctx, xt, 0, ti, &t));
    expect_fx(t, F, "out_t");
    TKT_RELEASE(x, xt, gi, gs, ti, gi32);
}
END_TEST

/* scatter: NONE against torch where no entry repeats along dim, ADD and MUL
 * with duplicates (they apply in index order, the same order as PyTorch's
 * CPU loop, so f32 matches exactly; bf16 rounds per update as PyTorch does). */
START_TEST(scatter_matches_torch)
{
    const char *F = "scatter";
    tk_tensor *t = tkt_fx(F, "t"), *si = tkt_fx(F, "si"), *src = tkt_fx(F, "src"), *perm = tkt_fx(F, "perm"), *ti = tkt_fx(F, "ti"),
              *tsrc = tkt_fx(F, "tsrc"), *r, *a, *b;
    TKT_OK(tk_scatter(tkt_ctx, t, 1, perm, src, TK_SCATTER_NONE, &r));
    expect_fx(r, F, "none");
    TKT_OK(tk_scatter(tkt_ctx, t, 1, si, src, TK_SCATTER_ADD, &r));
    expect_fx(r, F, "add");
    TKT_OK(tk_scatter(tkt_ctx, t, 1, si, src, TK_SCATTER_MUL, &r));
    expect_fx(r, F, "mul");
    TKT_OK(tk_to_dtype(tkt_ctx, t, TK_DTYPE_BF16, &a));
    TKT_OK(tk_to_dtype(tkt_ctx, src, TK_DTYPE_BF16, &b));
    TKT_OK(tk_scatter(tkt_ctx, a, 1, si, b, TK_SCATTER_ADD, &r));
    TKT_RELEASE(a, b);
    expect_fx(r, F, "add_bf16");
    TKT_OK(tk_scatter(tkt_ctx, ti, 1, si, tsrc, TK_SCATTER_MUL, &r));
    expect_fx(r, F, "mul_i64");
    tk_tensor *sl;
    TKT_OK(tk_slice(tkt_ctx, si, 2, 0, 5, 1, &sl));   /* a non-contiguous index */
    TKT_OK(tk_scatter(tkt_ctx, t, -1, sl, src, TK_SCATTER_ADD, &r));
    tk_tensor_release(sl);
    expect_fx(r, F, "add_last");
    tk_tensor *zero, *pos, *spos;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I64, 0, NULL, &zero));
    /* bools from the fixtures' ints: ti > 0 as (ti clamped to [0, 1]) converted */
    tk_tensor *tib, *tsb;
    TKT_OK(tk_to_dtype(tkt_ctx, ti, TK_DTYPE_F64, &pos));
    {
        double *p = tk_tensor_data(pos);
        for (int64_t k = 0; k < tk_tensor_numel(pos); k++) p[k] = p[k] > 0;
    }
    TKT_OK(tk_to_dtype(tkt_ctx, pos, TK_DTYPE_BOOL, &tib));
    TKT_OK(tk_to_dtype(tkt_ctx, tsrc, TK_DTYPE_F64, &spos));
    {
        double *p = tk_tensor_data(spos);
        for (int64_t k = 0; k < tk_tensor_numel(spos); k++) p[k] = p[k] > 0;
    }
    TKT_OK(tk_to_dtype(tkt_ctx, spos, TK_DTYPE_BOOL, &tsb));
    TKT_OK(tk_scatter(tkt_ctx, tib, 1, si, tsb, TK_SCATTER_ADD, &r));
    expect_fx(r, F, "add_bool");
    TKT_RELEASE(zero, pos, spos, tib, tsb);

    /* duplicates under NONE: the later entry wins */
    tk_tensor *d, *dv, *base;
    TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ 2, 0, 2, 2 }, TK_DTYPE_I64, 1, (int64_t[]){ 4 }, &d));
    TKT_OK(tk_from_data(tkt_ctx, (float[]){ 1, 2, 3, 4 }, TK_DTYPE_F32, 1, (int64_t[]){ 4 }, &dv));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 3 }, &base));
    TKT_OK(tk_scatter(tkt_ctx, base, 0, d, dv, TK_SCATTER_NONE, &r));
    const float *rp = tk_tensor_data(r);
    ck_assert(rp[0] == 2 && rp[1] == 0 && rp[2] == 4);
    TKT_RELEASE(r, d, dv, base, t, si, src, perm, ti, tsrc);
}
END_TEST

START_TEST(pad_flip_roll_match_torch)
{
    const char *F = "pad";
    tk_tensor *x = tkt_fx(F, "x"), *z = tkt_fx(F, "z"), *xt = make_xt(x), *xs = make_xs(x), *t;
    TKT_OK(tk_pad(tkt_ctx, x, (int64_t[]){ 1, 2, 0, 3 }, 4, TK_PAD_CONSTANT, 1.5, &t));
    expect_fx(t, F, "constant");
    TKT_OK(tk_pad(tkt_ctx, x, (int64_t[]){ -1, 2, 3, -2 }, 4, TK_PAD_CONSTANT, 0, &t));
    expect_fx(t, F, "crop");
    TKT_OK(tk_pad(tkt_ctx, x, (int64_t[]){ 1, 1, 0, 0, 2, 0 }, 6, TK_PAD_CONSTANT, -2, &t));
    expect_fx(t, F, "constant3");
    TKT_OK(tk_pad(tkt_ctx, x, (int64_t[]){ 2, 3, 4, 1 }, 4, TK_PAD_REFLECT, 0, &t));
    expect_fx(t, F, "reflect");
    TKT_OK(tk_pad(tkt_ctx, xt, (int64_t[]){ 2, 1 }, 2, TK_PAD_REFLECT, 0, &t));
    expect_fx(t, F, "reflect_t");
    TKT_OK(tk_pad(tkt_ctx, x, (int64_t[]){ -2, 6, 1, -1 }, 4, TK_PAD_REFLECT, 0, &t));
    expect_fx(t, F, "reflect_neg");
    TKT_OK(tk_pad(tkt_ctx, x, (int64_t[]){ 3, 0, -1, 2 }, 4, TK_PAD_REPLICATE, 0, &t));
    expect_fx(t, F, "replicate");
    TKT_OK(tk_pad(tkt_ctx, x, (int64_t[]){ 3, 7, 5, 2 }, 4, TK_PAD_CIRCULAR, 0, &t));
    expect_fx(t, F, "circular");
    TKT_OK(tk_pad(tkt_ctx, x, (int64_t[]){ -2, 3, 3, 0 }, 4, TK_PAD_CIRCULAR, 0, &t));
    expect_fx(t, F, "circular_neg");
    TKT_OK(tk_pad(tkt_ctx, xs, (int64_t[]){ 2, 2, 1, 0 }, 4, TK_PAD_CIRCULAR, 0, &t));
    expect_fx(t, F, "circular_s");
    TKT_OK(tk_pad(tkt_ctx, z, (int64_t[]){ 0, 0, 1, 1 }, 4, TK_PAD_CONSTANT, 4, &t));
    expect_fx(t, F, "zero");

    F = "flip";
    TKT_OK(tk_flip(tkt_ctx, x, (int[]){ 0, 2 }, 2, &t));
    expect_fx(t, F, "f02");
    TKT_OK(tk_flip(tkt_ctx, x, (int[]){ -1 }, 1, &t));
    expect_fx(t, F, "f_last");
    TKT_OK(tk_flip(tkt_ctx, xt, (int[]){ 1 }, 1, &t));
    expect_fx(t, F, "f_t");
    TKT_OK(tk_flip(tkt_ctx, xs, (int[]){ 0, 1, 2 }, 3, &t));
    expect_fx(t, F, "f_s");
    TKT_OK(tk_flip(tkt_ctx, z, (int[]){ 1 }, 1, &t));
    expect_fx(t, F, "f_z");

    F = "roll";
    TKT_OK(tk_roll(tkt_ctx, x, (int64_t[]){ 2, -3 }, (int[]){ 0, 2 }, 2, &t));
    expect_fx(t, F, "r2");
    TKT_OK(tk_roll(tkt_ctx, x, (int64_t[]){ 11 }, NULL, 0, &t));
    expect_fx(t, F, "r_flat");
    TKT_OK(tk_roll(tkt_ctx, x, (int64_t[]){ 1, 1 }, (int[]){ 1, 1 }, 2, &t));
    expect_fx(t, F, "r_twice");
    TKT_OK(tk_roll(tkt_ctx, xt, (int64_t[]){ -4 }, (int[]){ 0 }, 1, &t));
    expect_fx(t, F, "r_t");
    TKT_OK(tk_roll(tkt_ctx, x, (int64_t[]){ 1000003 }, (int[]){ 2 }, 1, &t));
    expect_fx(t, F, "r_big");
    TKT_RELEASE(x, z, xt, xs);
}
END_TEST

START_TEST(repeat_triangle_match_torch)
{
    const char *F = "repeat";
    tk_tensor *r = tkt_fx(F, "r"), *h = tkt_fx(F, "h"), *x = tkt_fx(F, "x"), *xt = make_xt(x), *t, *s;
    TKT_OK(tk_repeat(tkt_ctx, r, 4, (int64_t[]){ 2, 1, 3, 2 }, &t));
    expect_fx(t, F, "rep");
    TKT_OK(tk_repeat(tkt_ctx, h, 5, (int64_t[]){ 2, 3, 2, 2, 2 }, &t));   /* 9 split dims: more than the iterator takes */
    expect_fx(t, F, "rep_h");
    TKT_OK(tk_repeat(tkt_ctx, xt, 3, (int64_t[]){ 1, 2, 1 }, &t));
    expect_fx(t, F, "rep_t");
    TKT_OK(tk_repeat(tkt_ctx, r, 3, (int64_t[]){ 2, 0, 1 }, &t));
    expect_fx(t, F, "rep_zero");
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 0, NULL, 7, &s));
    TKT_OK(tk_repeat(tkt_ctx, s, 2, (int64_t[]){ 3, 2 }, &t));
    expect_fx(t, F, "rep_scalar");
    TKT_RELEASE(r, h, x, xt, s);

    F = "triangle";
    tk_tensor *q = tkt_fx(F, "q"), *qt;
    TKT_OK(tk_tril(tkt_ctx, q, 0, &t));
    expect_fx(t, F, "tril");
    TKT_OK(tk_tril(tkt_ctx, q, -1, &t));
    expect_fx(t, F, "tril_m1");
    TKT_OK(tk_triu(tkt_ctx, q, 2, &t));
    expect_fx(t, F, "triu2");
    TKT_OK(tk_triu(tkt_ctx, q, -2, &t));
    expect_fx(t, F, "triu_m2");
    TKT_OK(tk_transpose(tkt_ctx, q, 1, 2, &qt));
    TKT_OK(tk_tril(tkt_ctx, qt, 1, &t));
    expect_fx(t, F, "tril_t");
    TKT_OK(tk_triu(tkt_ctx, q, INT64_MAX, &t));
    expect_fx(t, F, "triu_big");
    TKT_OK(tk_tril(tkt_ctx, q, INT64_MIN, &t));
    expect_fx(t, F, "tril_big");
    TKT_RELEASE(q, qt);
}
END_TEST

/* 0-d tensors and zero-size dims through every family (shapes as torch gives them). */
START_TEST(scalars_and_empty)
{
    tk_tensor *s, *t, *u, *e;
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 0, NULL, 2, &s));
    TKT_OK(tk_reshape(tkt_ctx, s, 2, (int64_t[]){ 1, -1 }, &t));
    shape_of(t, 2, (int64_t[]){ 1, 1 });
    TKT_OK(tk_view(tkt_ctx, t, 0, NULL, &u));
    ck_assert_int_eq(tk_tensor_ndim(u), 0);
    TKT_RELEASE(t, u);
    TKT_OK(tk_flatten(tkt_ctx, s, 0, -1, &t));
    shape_of(t, 1, (int64_t[]){ 1 });
    tk_tensor_release(t);
    TKT_OK(tk_transpose(tkt_ctx, s, 0, -1, &t));
    ck_assert_int_eq(tk_tensor_ndim(t), 0);
    tk_tensor_release(t);
    TKT_OK(tk_squeeze(tkt_ctx, s, 0, &t));
    ck_assert_int_eq(tk_tensor_ndim(t), 0);
    tk_tensor_release(t);
    TKT_OK(tk_unsqueeze(tkt_ctx, s, 0, &t));
    shape_of(t, 1, (int64_t[]){ 1 });
    tk_tensor_release(t);
    TKT_OK(tk_permute(tkt_ctx, s, NULL, &t));
    tk_tensor_release(t);
    TKT_OK(tk_expand(tkt_ctx, s, 2, (int64_t[]){ 3, 2 }, &t));
    shape_of(t, 2, (int64_t[]){ 3, 2 });
    tk_tensor_release(t);
    double v;
    TKT_OK(tk_flip(tkt_ctx, s, (int[]){ 0 }, 1, &t));
    TKT_OK(tk_item(tkt_ctx, t, NULL, &v));
    ck_assert_double_eq(v, 2);
    tk_tensor_release(t);
    TKT_OK(tk_roll(tkt_ctx, s, (int64_t[]){ 5 }, NULL, 0, &t));
    ck_assert_int_eq(tk_tensor_ndim(t), 0);
    tk_tensor_release(t);
    TKT_OK(tk_pad(tkt_ctx, s, NULL, 0, TK_PAD_CONSTANT, 0, &t));
    TKT_OK(tk_item(tkt_ctx, t, NULL, &v));
    ck_assert_double_eq(v, 2);
    tk_tensor_release(t);
    tk_tensor *i0;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I64, 0, NULL, &i0));
    TKT_OK(tk_gather(tkt_ctx, s, 0, i0, &t));
    TKT_OK(tk_item(tkt_ctx, t, NULL, &v));
    ck_assert_double_eq(v, 2);
    tk_tensor_release(t);
    TKT_FAILS(tk_scatter(tkt_ctx, s, 0, i0, NULL, TK_SCATTER_NONE, &u), TK_ERR_INVALID_ARGUMENT, "src is NULL");
    tk_tensor *five;
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 0, NULL, 5, &five));
    TKT_OK(tk_scatter(tkt_ctx, s, 0, i0, five, TK_SCATTER_ADD, &u));
    TKT_OK(tk_item(tkt_ctx, u, NULL, &v));
    ck_assert_double_eq(v, 7);
    TKT_RELEASE(u, five, i0);
    /* zero-size dims */
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 3, 0, 7 }, &e));
    TKT_OK(tk_reshape(tkt_ctx, e, 2, (int64_t[]){ 0, 5 }, &t));
    tk_tensor_release(t);
    TKT_FAILS(tk_reshape(tkt_ctx, e, 2, (int64_t[]){ -1, 0 }, &t), TK_ERR_SHAPE, "could be any size");
    TKT_OK(tk_permute(tkt_ctx, e, (int[]){ 2, 1, 0 }, &t));
    TKT_OK(tk_contiguous(tkt_ctx, t, &u));
    TKT_RELEASE(t, u);
    TKT_OK(tk_repeat(tkt_ctx, e, 3, (int64_t[]){ 2, 2, 2 }, &t));
    shape_of(t, 3, (int64_t[]){ 6, 0, 14 });
    tk_tensor_release(t);
    TKT_OK(tk_tril(tkt_ctx, e, 0, &t));
    tk_tensor_release(t);
    TKT_OK(tk_roll(tkt_ctx, e, (int64_t[]){ 3 }, (int[]){ 1 }, 1, &t));
    tk_tensor_release(t);
    TKT_OK(tk_stack(tkt_ctx, (const tk_tensor *[]){ e, e }, 2, 1, &t));
    shape_of(t, 4, (int64_t[]){ 3, 2, 0, 7 });
    TKT_RELEASE(t, e, s);
}
END_TEST

/* The copies split over threads by size alone: 1 and 2 threads agree bit for bit. */
START_TEST(thread_count_does_not_change_results)
{
    tk_tensor *x, *xt, *idx, *src, *res[2][7];
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 37, 129, 65 }, 5, &x));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 37, 300, 65 }, 6, &src));
    xt = make_xt(x);
    TKT_OK(tk_rand(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 37, 300, 65 }, 7, 0, 129, &idx));
    tk_tensor *idx64;
    TKT_OK(tk_to_dtype(tkt_ctx, idx, TK_DTYPE_I64, &idx64));   /* many duplicates along dim 1 */
    for (int th = 0; th < 2; th++) {
        TKT_OK(tk_context_set_threads(tkt_ctx, th + 1));
        TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ x, x }, 2, 1, &res[th][0]));
        TKT_OK(tk_pad(tkt_ctx, xt, (int64_t[]){ 5, 3, -2, 4 }, 4, TK_PAD_REFLECT, 0, &res[th][1]));
        TKT_OK(tk_repeat(tkt_ctx, xt, 3, (int64_t[]){ 2, 1, 3 }, &res[th][2]));
        TKT_OK(tk_scatter(tkt_ctx, x, 1, idx64, src, TK_SCATTER_ADD, &res[th][3]));
        TKT_OK(tk_gather(tkt_ctx, x, 1, idx64, &res[th][4]));   /* entries < 129, x's dim 1 */
        TKT_OK(tk_flip(tkt_ctx, xt, (int[]){ 0, 2 }, 2, &res[th][5]));
        TKT_OK(tk_triu(tkt_ctx, xt, 1, &res[th][6]));
    }
    for (int k = 0; k < 7; k++) tkt_expect_equal(res[0][k], res[1][k], "1 vs 2 threads");
    for (int th = 0; th < 2; th++)
        for (int k = 0; k < 7; k++) tk_tensor_release(res[th][k]);
    TKT_RELEASE(x, xt, idx, idx64, src);
}
END_TEST

START_TEST(bad_arguments_are_named)
{
    tk_tensor *x, *t = NULL, *outs[3], *f, *i, *s;
    int n;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 3, 5, 7 }, &x));
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 0, NULL, 1, &s));
    /* views */
    TKT_FAILS(tk_reshape(tkt_ctx, x, 2, (int64_t[]){ 4, -1 }, &t), TK_ERR_SHAPE, "[3, 5, 7]");
    ck_assert_ptr_null(t);
    TKT_FAILS(tk_reshape(tkt_ctx, x, 2, (int64_t[]){ 4, 26 }, &t), TK_ERR_SHAPE, "[4, 26] is invalid");
    TKT_FAILS(tk_reshape(tkt_ctx, x, 3, (int64_t[]){ -1, -1, 7 }, &t), TK_ERR_SHAPE, "more than one -1");
    TKT_FAILS(tk_view(tkt_ctx, x, 2, (int64_t[]){ -3, 35 }, &t), TK_ERR_SHAPE, "negative");
    TKT_FAILS(tk_reshape(tkt_ctx, NULL, 1, (int64_t[]){ 1 }, &t), TK_ERR_INVALID_ARGUMENT, "t is NULL");
    TKT_FAILS(tk_permute(tkt_ctx, x, (int[]){ 0, 2, 0 }, &t), TK_ERR_INVALID_ARGUMENT, "not a permutation");
    TKT_FAILS(tk_permute(tkt_ctx, x, (int[]){ 0, 3, 1 }, &t), TK_ERR_INDEX, "axis 3");
    TKT_FAILS(tk_transpose(tkt_ctx, x, 0, -4, &t), TK_ERR_INDEX, "out of range");
    TKT_FAILS(tk_slice(tkt_ctx, x, 1, 0, 5, 0, &t), TK_ERR_INVALID_ARGUMENT, "step 0");
    TKT_FAILS(tk_slice(tkt_ctx, s, 0, 0, 1, 1, &t), TK_ERR_INDEX, "0-d");
    TKT_FAILS(tk_select(tkt_ctx, x, 1, 5, &t), TK_ERR_INDEX, "index 5 is out of range for dim 1");
    TKT_FAILS(tk_select(tkt_ctx, x, 2, -8, &t), TK_ERR_INDEX, "index -8");
    TKT_FAILS(tk_expand(tkt_ctx, x, 3, (int64_t[]){ 3, 6, 7 }, &t), TK_ERR_SHAPE, "not 1");
    TKT_FAILS(tk_expand(tkt_ctx, x, 2, (int64_t[]){ 5, 7 }, &t), TK_ERR_SHAPE, "2 sizes");
    TKT_FAILS(tk_expand(tkt_ctx, x, 4, (int64_t[]){ -1, 3, 5, 7 }, &t), TK_ERR_SHAPE, "new leading dim");
    TKT_FAILS(tk_unsqueeze(tkt_ctx, x, 4, &t), TK_ERR_INDEX, "axis 4");
    TKT_FAILS(tk_squeeze(tkt_ctx, x, 3, &t), TK_ERR_INDEX, "axis 3");
    TKT_FAILS(tk_flatten(tkt_ctx, x, 2, 1, &t), TK_ERR_INDEX, "start_dim");
    TKT_FAILS(tk_split(tkt_ctx, x, (int64_t[]){ 2, 2 }, 2, 1, outs), TK_ERR_SHAPE, "add up to 4");
    ck_assert_ptr_null(outs[0]);
    TKT_FAILS(tk_split(tkt_ctx, x, (int64_t[]){ 4, -1, 2 }, 3, 1, outs), TK_ERR_SHAPE, "negative");
    TKT_FAILS(tk_chunk(tkt_ctx, x, 0, 1, outs, &n), TK_ERR_INVALID_ARGUMENT, "chunks is 0");
    /* joins */
    tk_tensor *y;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 3, 4, 7 }, &y));
    TKT_FAILS(tk_cat(tkt_ctx, (const tk_tensor *[]){ x, y }, 2, 2, &t), TK_ERR_SHAPE, "ts[1] of shape [3, 4, 7]");
    TKT_FAILS(tk_cat(tkt_ctx, (const tk_tensor *[]){ x, s }, 2, 0, &t), TK_ERR_SHAPE, "ts[1]");
    TKT_FAILS(tk_cat(tkt_ctx, (const tk_tensor *[]){ s, s }, 2, 0, &t), TK_ERR_SHAPE, "0-d");
    TKT_FAILS(tk_cat(tkt_ctx, (const tk_tensor *[]){ x, NULL }, 2, 0, &t), TK_ERR_INVALID_ARGUMENT, "ts[1] is NULL");
    TKT_FAILS(tk_cat(tkt_ctx, (const tk_tensor *[]){ x }, 0, 0, &t), TK_ERR_INVALID_ARGUMENT, "n is 0");
    TKT_FAILS(tk_stack(tkt_ctx, (const tk_tensor *[]){ x, y }, 2, 0, &t), TK_ERR_SHAPE, "one shape");
    TKT_FAILS(tk_stack(tkt_ctx, (const tk_tensor *[]){ x, x }, 2, 4, &t), TK_ERR_INDEX, "axis 4");
    TKT_FAILS(tk_repeat(tkt_ctx, x, 2, (int64_t[]){ 2, 2 }, &t), TK_ERR_SHAPE, "2 repeats");
    TKT_FAILS(tk_repeat(tkt_ctx, x, 3, (int64_t[]){ 2, -1, 2 }, &t), TK_ERR_SHAPE, "negative");
    /* index ops */
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 2 }, &f));
    TKT_FAILS(tk_index_select(tkt_ctx, x, 0, f, &t), TK_ERR_DTYPE, "i32 or i64");
    TKT_FAILS(tk_gather(tkt_ctx, x, 0, f, &t), TK_ERR_DTYPE, "f32");
    TKT_OK(tk_from_data(tkt_ctx, (int32_t[]){ 0, 2, 5, 1 }, TK_DTYPE_I32, 1, (int64_t[]){ 4 }, &i));
    TKT_FAILS(tk_index_select(tkt_ctx, x, 1, i, &t), TK_ERR_INDEX, "index[2] = 5");
    TKT_OK(tk_index_select(tkt_ctx, x, 2, i, &t));
    tk_tensor_release(t);
    TKT_FAILS(tk_gather(tkt_ctx, x, 1, i, &t), TK_ERR_SHAPE, "1 dims, t of shape [3, 5, 7] has 3");
    tk_tensor_release(i);
    TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ 0, 1, 2, 3, -1, 0 }, TK_DTYPE_I64, 3, (int64_t[]){ 1, 3, 2 }, &i));
    TKT_FAILS(tk_gather(tkt_ctx, x, 1, i, &t), TK_ERR_INDEX, "index[0, 2, 0] = -1");
    TKT_FAILS(tk_scatter(tkt_ctx, x, 1, i, x, TK_SCATTER_ADD, &t), TK_ERR_INDEX, "= -1");
    TKT_FAILS(tk_scatter(tkt_ctx, x, 1, i, y, 7, &t), TK_ERR_INVALID_ARGUMENT, "reduce 7");
    tk_tensor *xi, *small;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I64, 3, (int64_t[]){ 3, 5, 7 }, &xi));
    TKT_FAILS(tk_scatter(tkt_ctx, x, 1, xi, xi, TK_SCATTER_NONE, &t), TK_ERR_DTYPE, "src has dtype i64");
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 3, 2, 7 }, &small));
    TKT_FAILS(tk_scatter(tkt_ctx, x, 1, xi, small, TK_SCATTER_NONE, &t), TK_ERR_SHAPE, "larger than src's");
    TKT_FAILS(tk_gather(tkt_ctx, small, 0, xi, &t), TK_ERR_SHAPE, "larger than t's");
    /* pad, flip, roll, triangles */
    TKT_FAILS(tk_pad(tkt_ctx, x, (int64_t[]){ 7, 0 }, 2, TK_PAD_REFLECT, 0, &t), TK_ERR_SHAPE, "below the size for reflect");
    TKT_FAILS(tk_pad(tkt_ctx, x, (int64_t[]){ 0, 8 }, 2, TK_PAD_CIRCULAR, 0, &t), TK_ERR_SHAPE, "more than once");
    TKT_FAILS(tk_pad(tkt_ctx, x, (int64_t[]){ -4, -4 }, 2, TK_PAD_CONSTANT, 0, &t), TK_ERR_SHAPE, "negative size");
    TKT_FAILS(tk_pad(tkt_ctx, x, (int64_t[]){ 1, 1, 1 }, 3, TK_PAD_CONSTANT, 0, &t), TK_ERR_INVALID_ARGUMENT, "3 pad amounts");
    TKT_FAILS(tk_pad(tkt_ctx, x, (int64_t[]){ 1, 1, 1, 1, 1, 1, 1, 1 }, 8, TK_PAD_CONSTANT, 0, &t), TK_ERR_INVALID_ARGUMENT, "8 pad");
    TKT_FAILS(tk_pad(tkt_ctx, x, (int64_t[]){ 1, 1 }, 2, (tk_pad_mode)9, 0, &t), TK_ERR_INVALID_ARGUMENT, "mode 9");
    TKT_FAILS(tk_flip(tkt_ctx, x, (int[]){ 1, -2 }, 2, &t), TK_ERR_INVALID_ARGUMENT, "more than once");
    TKT_FAILS(tk_flip(tkt_ctx, x, (int[]){ 3 }, 1, &t), TK_ERR_INDEX, "axis 3");
    TKT_FAILS(tk_roll(tkt_ctx, x, NULL, (int[]){ 0 }, 1, &t), TK_ERR_INVALID_ARGUMENT, "shifts is NULL");
    TKT_FAILS(tk_roll(tkt_ctx, x, (int64_t[]){ 1 }, (int[]){ -4 }, 1, &t), TK_ERR_INDEX, "axis -4");
    TKT_FAILS(tk_tril(tkt_ctx, f, 0, &t), TK_ERR_SHAPE, "at least 2");
    TKT_FAILS(tk_triu(tkt_ctx, NULL, 0, &t), TK_ERR_INVALID_ARGUMENT, "t is NULL");
    ck_assert_ptr_null(t);
    TKT_RELEASE(x, y, f, i, s, xi, small);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tensor_shape");
    TCase *tc = tkt_case("shape");
    tcase_add_test(tc, views_match_torch);
    tcase_add_test(tc, views_alias_their_base);
    tcase_add_test(tc, dtypes_match_torch);
    tcase_add_test(tc, cat_stack_match_torch);
    tcase_add_test(tc, split_chunk_match_torch);
    tcase_add_test(tc, index_select_gather_match_torch);
    tcase_add_test(tc, scatter_matches_torch);
    tcase_add_test(tc, pad_flip_roll_match_torch);
    tcase_add_test(tc, repeat_triangle_match_torch);
    tcase_add_test(tc, scalars_and_empty);
    tcase_add_test(tc, thread_count_does_not_change_results);
    tcase_add_test(tc, bad_arguments_are_named);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(suite)
