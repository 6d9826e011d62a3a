/* test_shape_profile.c — every call of tk/shape.h records itself in the
 * profile (tk_profile_enable) once per successful call, as kind "op" under
 * its own name, like the element-wise and reduction ops; a call that fails
 * records nothing. (Views cost next to nothing, but a model's table must
 * still show that they ran and how often; the copying ones, cat or pad or a
 * reshape that copies, can be real time.) */
#include <string.h>

#include "harness.h"

/* The count of records named `name` of kind "op" since the last reset. */
static uint64_t op_count(const char *name)
{
    tk_profile_record recs[64];
    size_t n = tk_profile_records(tkt_ctx, recs, 64);
    uint64_t count = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        if (!strcmp(recs[i].kind, "op") && !strcmp(recs[i].name, name)) count += recs[i].count;
    return count;
}

/* Runs call (which makes one tensor into *out, or several) under a fresh profile and checks `name` was recorded once. */
#define CHECK_RECORDS_ONCE(name, call)                                                                  \
    do {                                                                                                \
        tk_profile_reset(tkt_ctx);                                                                      \
        TKT_OK(call);                                                                                   \
        ck_assert_msg(op_count(name) == 1, "%s: %llu profile records, expected 1", name,               \
                      (unsigned long long)op_count(name));                                              \
    } while (0)

START_TEST(each_shape_op_records_once)
{
    tk_tensor *x, *x4, *idx, *idx1, *src, *r[40] = { NULL }, *parts[3] = { NULL }, *chunks[3] = { NULL };
    int k = 0, nchunks = 0;
    TKT_OK(tk_arange(tkt_ctx, TK_DTYPE_F32, 0, 24, 1, &x));
    TKT_OK(tk_reshape(tkt_ctx, x, 2, (int64_t[]){ 4, 6 }, &r[k]));
    tk_tensor *m = r[k++];   /* [4, 6] */
    TKT_OK(tk_reshape(tkt_ctx, x, 4, (int64_t[]){ 1, 2, 3, 4 }, &x4));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I64, 2, (int64_t[]){ 2, 6 }, &idx));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I64, 1, (int64_t[]){ 3 }, &idx1));
    TKT_OK(tk_ones(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 2, 6 }, &src));
    tk_profile_enable(tkt_ctx, true);

    CHECK_RECORDS_ONCE("tk_reshape", tk_reshape(tkt_ctx, m, 1, (int64_t[]){ -1 }, &r[k++]));
    CHECK_RECORDS_ONCE("tk_view", tk_view(tkt_ctx, m, 2, (int64_t[]){ 6, 4 }, &r[k++]));
    CHECK_RECORDS_ONCE("tk_flatten", tk_flatten(tkt_ctx, x4, 1, 2, &r[k++]));
    CHECK_RECORDS_ONCE("tk_permute", tk_permute(tkt_ctx, m, (int[]){ 1, 0 }, &r[k++]));
    CHECK_RECORDS_ONCE("tk_transpose", tk_transpose(tkt_ctx, m, 0, 1, &r[k]));
    tk_tensor *mt = r[k++];
    CHECK_RECORDS_ONCE("tk_contiguous", tk_contiguous(tkt_ctx, mt, &r[k++]));
    CHECK_RECORDS_ONCE("tk_to_channels_last", tk_to_channels_last(tkt_ctx, x4, &r[k++]));
    CHECK_RECORDS_ONCE("tk_expand", tk_expand(tkt_ctx, m, 3, (int64_t[]){ 2, 4, 6 }, &r[k++]));
    CHECK_RECORDS_ONCE("tk_slice", tk_slice(tkt_ctx, m, 1, 1, 5, 2, &r[k++]));
    CHECK_RECORDS_ONCE("tk_select", tk_select(tkt_ctx, m, 0, -1, &r[k++]));
    CHECK_RECORDS_ONCE("tk_squeeze", tk_squeeze(tkt_ctx, x4, 0, &r[k++]));
    CHECK_RECORDS_ONCE("tk_squeeze_all", tk_squeeze_all(tkt_ctx, x4, &r[k++]));
    CHECK_RECORDS_ONCE("tk_unsqueeze", tk_unsqueeze(tkt_ctx, m, 1, &r[k++]));
    CHECK_RECORDS_ONCE("tk_split", tk_split(tkt_ctx, m, (int64_t[]){ 1, 3 }, 2, 0, parts));
    CHECK_RECORDS_ONCE("tk_chunk", tk_chunk(tkt_ctx, m, 3, 1, chunks, &nchunks));
    CHECK_RECORDS_ONCE("tk_cat", tk_cat(tkt_ctx, (const tk_tensor *[]){ m, m }, 2, 0, &r[k++]));
    CHECK_RECORDS_ONCE("tk_stack", tk_stack(tkt_ctx, (const tk_tensor *[]){ m, m }, 2, 0, &r[k++]));
    CHECK_RECORDS_ONCE("tk_repeat", tk_repeat(tkt_ctx, m, 2, (int64_t[]){ 2, 1 }, &r[k++]));
    CHECK_RECORDS_ONCE("tk_repeat", tk_repeat(tkt_ctx, m, 2, (int64_t[]){ 0, 1 }, &r[k++]));   /* an empty result */
    CHECK_RECORDS_ONCE("tk_pad", tk_pad(tkt_ctx, m, (int64_t[]){ 1, 2 }, 2, TK_PAD_CONSTANT, 0, &r[k++]));
    CHECK_RECORDS_ONCE("tk_flip", tk_flip(tkt_ctx, m, (int[]){ 1 }, 1, &r[k++]));
    CHECK_RECORDS_ONCE("tk_roll", tk_roll(tkt_ctx, m, (int64_t[]){ 2 }, (int[]){ 1 }, 1, &r[k++]));
    CHECK_RECORDS_ONCE("tk_roll", tk_roll(tkt_ctx, m, (int64_t[]){ 5 }, NULL, 0, &r[k++]));   /* the flattened form */
    CHECK_RECORDS_ONCE("tk_tril", tk_tril(tkt_ctx, m, 0, &r[k++]));
    CHECK_RECORDS_ONCE("tk_triu", tk_triu(tkt_ctx, m, 1, &r[k++]));
    CHECK_RECORDS_ONCE("tk_index_select", tk_index_select(tkt_ctx, m, 1, idx1, &r[k++]));
    CHECK_RECORDS_ONCE("tk_gather", tk_gather(tkt_ctx, m, 0, idx, &r[k++]));
    CHECK_RECORDS_ONCE("tk_scatter", tk_scatter(tkt_ctx, m, 0, idx, src, TK_SCATTER_ADD, &r[k++]));

    /* a failing call records nothing: a transposed [6, 4] cannot be viewed as [24] */
    tk_profile_reset(tkt_ctx);
    tk_tensor *bad = NULL;
    TKT_FAILS(tk_view(tkt_ctx, mt, 1, (int64_t[]){ 24 }, &bad), TK_ERR_SHAPE, "cannot be viewed");
    ck_assert_int_eq(op_count("tk_view"), 0);

    tk_profile_enable(tkt_ctx, false);
    for (int i = 0; i < k; i++) tk_tensor_release(r[i]);
    for (int i = 0; i < 3; i++) TKT_RELEASE(parts[i], chunks[i]);
    TKT_RELEASE(src, idx1, idx, x4, x);
}
END_TEST

static Suite *shape_profile_suite(void)
{
    Suite *s = suite_create("tensor_shape_profile");
    TCase *tc = tkt_case("shape_profile");
    tcase_add_test(tc, each_shape_op_records_once);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(shape_profile_suite)
