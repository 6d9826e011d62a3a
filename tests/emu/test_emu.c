/* test_emu.c — the emulator's own parts, without the compiler: its
 * mma.sync m16n8k16 (fed registers packed the way the PTX ISA's figures lay
 * them out, checked against a plain double-precision product), blocks of
 * several warps run as fibers, sync() across a block's shared buffer, warp
 * shuffles (each lane reads the lane it names, within its own warp, over
 * many rounds), ldmatrix in every shape against the PTX ISA's figure (and
 * its bank-conflict count and address checks), cp.async landing at the
 * thread's wait and not before, and a warp whose lanes do not all reach a matrix instruction,
 * or reach different collectives, which must end in a message, not a hang. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "gpu_emu_abi.h"

static uint16_t to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (uint16_t)(u >> 16);   /* the test values are exact in bf16 */
}

static float from_bf16(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* One warp's worth of operands: A 16×16, B 16×8, C 16×8 per warp of the block. */
typedef struct {
    float A[4][16][16], B[4][16][8], C[4][16][8], D[4][16][8];
    int silent_from;   /* lanes at or above it return without the mma */
} Case;

static Case *the_case;

static uint32_t pack(float lo, float hi) { return (uint32_t)to_bf16(lo) | (uint32_t)to_bf16(hi) << 16; }

/* a GPU thread: its registers as the PTX ISA lays out m16n8k16 (groupID
 * g = lane / 4, t = lane % 4), one mma, then its part of D written back */
static void thread(void **args, const int64_t *sizes, TkEmuEnv *env)
{
    (void)args;
    (void)sizes;
    Case *c = the_case;
    int lane = env->tid % 32, w = env->tid / 32, g = lane / 4, t = lane % 4;
    if (lane >= c->silent_from) return;
    uint32_t a[4] = { pack(c->A[w][g][2 * t], c->A[w][g][2 * t + 1]), pack(c->A[w][g + 8][2 * t], c->A[w][g + 8][2 * t + 1]),
                      pack(c->A[w][g][2 * t + 8], c->A[w][g][2 * t + 9]),
                      pack(c->A[w][g + 8][2 * t + 8], c->A[w][g + 8][2 * t + 9]) };
    uint32_t b[2] = { pack(c->B[w][2 * t][g], c->B[w][2 * t + 1][g]), pack(c->B[w][2 * t + 8][g], c->B[w][2 * t + 9][g]) };
    float cc[4] = { c->C[w][g][2 * t], c->C[w][g][2 * t + 1], c->C[w][g + 8][2 * t], c->C[w][g + 8][2 * t + 1] }, d[4];
    env->mma(env, TK_EMU_MMA_M16N8K16_BF16, a, b, cc, d);
    c->D[w][g][2 * t] = d[0];
    c->D[w][g][2 * t + 1] = d[1];
    c->D[w][g + 8][2 * t] = d[2];
    c->D[w][g + 8][2 * t + 1] = d[3];
}

static float small_value(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (float)((int)((*s >> 16) % 17) - 8) / 4.0f;   /* exact in bf16 */
}

START_TEST(mma_sync_matches_a_plain_product)
{
    Case *c = calloc(1, sizeof *c);
    ck_assert_ptr_nonnull(c);
    unsigned s = 7;
    for (int w = 0; w < 4; w++) {
        for (int i = 0; i < 16; i++)
            for (int k = 0; k < 16; k++) c->A[w][i][k] = small_value(&s);
        for (int k = 0; k < 16; k++)
            for (int j = 0; j < 8; j++) c->B[w][k][j] = small_value(&s);
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 8; j++) c->C[w][i][j] = small_value(&s);
    }
    c->silent_from = 32;
    the_case = c;
    char err[512];
    tk_emu_take_error(err, sizeof err);
    tk_emu_run_block(thread, NULL, NULL, 0, 0, 0, 128, 0);   /* 4 warps, each its own product */
    ck_assert_msg(!tk_emu_take_error(err, sizeof err), "%s", err);
    for (int w = 0; w < 4; w++)
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 8; j++) {
                double want = c->C[w][i][j];
                for (int k = 0; k < 16; k++) want += (double)from_bf16(to_bf16(c->A[w][i][k])) * c->B[w][k][j];
                ck_assert_msg(fabs(c->D[w][i][j] - want) <= 1e-6 * (1 + fabs(want)), "warp %d D[%d][%d] = %g, want %g", w, i, j,
                              c->D[w][i][j], want);
            }
    free(c);
}
END_TEST

START_TEST(a_warp_that_does_not_meet_is_reported)
{
    Case *c = calloc(1, sizeof *c);
    ck_assert_ptr_nonnull(c);
    c->silent_from = 16;   /* half the lanes leave before the mma */
    the_case = c;
    char err[512];
    tk_emu_take_error(err, sizeof err);
    tk_emu_run_block(thread, NULL, NULL, 3, 1, 0, 64, 0);
    ck_assert(tk_emu_take_error(err, sizeof err));
    ck_assert_msg(strstr(err, "block (3, 1, 0)") && strstr(err, "warp 0") && strstr(err, "16 of 32 lanes wait"), "%s", err);
    ck_assert(!tk_emu_take_error(err, sizeof err));   /* taken once */
    /* the next block on this thread runs normally */
    c->silent_from = 32;
    tk_emu_run_block(thread, NULL, NULL, 0, 0, 0, 32, 0);
    ck_assert_msg(!tk_emu_take_error(err, sizeof err), "%s", err);
    tk_emu_run_block(thread, NULL, NULL, 0, 0, 0, 48, 0);   /* not whole warps */
    ck_assert(tk_emu_take_error(err, sizeof err));
    ck_assert_msg(strstr(err, "48 threads"), "%s", err);
    free(c);
}
END_TEST

/* every thread writes its slot of the shared buffer, waits at sync(), then
 * reads its neighbour's: right only if the barrier holds every thread back
 * until all have written */
static int32_t neighbour[256];

static void barrier_thread(void **args, const int64_t *sizes, TkEmuEnv *env)
{
    (void)args;
    (void)sizes;
    int32_t *shared = env->shared;
    shared[env->tid] = 1000 + env->tid;
    env->barrier(env);
    neighbour[env->tid] = shared[(env->tid + 1) % 256];
}

START_TEST(sync_orders_shared_writes_before_reads)
{
    char err[512];
    tk_emu_take_error(err, sizeof err);
    memset(neighbour, 0, sizeof neighbour);
    tk_emu_run_block(barrier_thread, NULL, NULL, 0, 0, 0, 256, 256 * sizeof(int32_t));
    ck_assert_msg(!tk_emu_take_error(err, sizeof err), "%s", err);
    for (int t = 0; t < 256; t++) ck_assert_int_eq(neighbour[t], 1000 + (t + 1) % 256);
}
END_TEST

/* 4 warps, 3 rounds each: lane l of warp w offers 1000·round + 32·w + l and
 * reads lane (l·7 + round) mod 32 of its own warp; results of one round
 * must not be overwritten by a fast lane's next offer */
static uint32_t got[3][128];

static void shuffle_thread(void **args, const int64_t *sizes, TkEmuEnv *env)
{
    (void)args;
    (void)sizes;
    int lane = env->tid % 32, w = env->tid / 32;
    for (int round = 0; round < 3; round++)
        got[round][env->tid] = env->shuffle(env, (uint32_t)(1000 * round + 32 * w + lane), (lane * 7 + round) % 32);
}

START_TEST(shuffle_reads_the_named_lane_of_its_warp)
{
    char err[512];
    tk_emu_take_error(err, sizeof err);
    memset(got, 0, sizeof got);
    tk_emu_run_block(shuffle_thread, NULL, NULL, 0, 0, 0, 128, 0);
    ck_assert_msg(!tk_emu_take_error(err, sizeof err), "%s", err);
    for (int round = 0; round < 3; round++)
        for (int t = 0; t < 128; t++)
            ck_assert_uint_eq(got[round][t], (uint32_t)(1000 * round + 32 * (t / 32) + (t % 32 * 7 + round) % 32));
}
END_TEST

/* even lanes shuffle while odd lanes reach a matrix instruction */
static void mixed_thread(void **args, const int64_t *sizes, TkEmuEnv *env)
{
    (void)args;
    (void)sizes;
    uint32_t a[4] = { 0 }, b[2] = { 0 };
    float c[4] = { 0 }, d[4];
    if (env->tid % 2 == 0) env->shuffle(env, 1, 0);
    else env->mma(env, TK_EMU_MMA_M16N8K16_BF16, a, b, c, d);
}

START_TEST(lanes_at_different_collectives_are_reported)
{
    char err[512];
    tk_emu_take_error(err, sizeof err);
    tk_emu_run_block(mixed_thread, NULL, NULL, 0, 0, 0, 32, 0);
    ck_assert_msg(tk_emu_take_error(err, sizeof err), "lanes at a shuffle and an mma were not reported");
    ck_assert_msg(strstr(err, "different collectives") != NULL, "unclear message: %s", err);
}
END_TEST

/* ldmatrix: a 64x64 16-bit tile in shared memory whose element (r, c)
 * holds r·64 + c. Each lane addresses the rows the PTX ISA's figure names
 * (lane 8i + r: row r of matrix i, matrix i at rows 8·(i % 2) + 16·(i / 2)
 * of column block 8·i, to use several places) and checks what it gets
 * against the figure: row lane/4, columns 2(lane%4) + 0..1, low half first;
 * with .trans column lane/4, rows 2(lane%4) + 0..1. */
static int ldm_bad, ldm_trans, ldm_num;
static long ldm_offset;   /* added to every lane's address: misalignment */

static void ldmatrix_thread(void **args, const int64_t *sizes, TkEmuEnv *env)
{
    (void)args;
    (void)sizes;
    uint16_t *tile = env->shared;
    if (env->tid == 0)
        for (int e = 0; e < 64 * 64; e++) tile[e] = (uint16_t)e;
    env->barrier(env);
    int lane = env->tid % 32, i = lane / 8 % ldm_num, r = lane % 8;
    int row0[4] = { 0, 8, 16, 24 }, col0[4] = { 0, 8, 16, 24 };
    const char *at = (const char *)&tile[(row0[i] + r) * 64 + col0[i]] + ldm_offset;
    uint32_t out[4] = { 0 };
    env->ldmatrix(env, ldm_num, ldm_trans, at, out);
    for (int m = 0; m < ldm_num; m++) {
        int g = lane / 4, p = 2 * (lane % 4);
        int r_lo = ldm_trans ? p : g, c_lo = ldm_trans ? g : p, r_hi = ldm_trans ? p + 1 : g, c_hi = ldm_trans ? g : p + 1;
        uint32_t want = (uint32_t)((row0[m] + r_lo) * 64 + col0[m] + c_lo) | (uint32_t)((row0[m] + r_hi) * 64 + col0[m] + c_hi) << 16;
        if (out[m] != want) ldm_bad++;
    }
}

START_TEST(ldmatrix_gives_each_lane_the_ptx_isa_elements)
{
    char err[512];
    tk_emu_take_error(err, sizeof err);
    TkEmuCounts n;
    tk_emu_take_counts(&n);
    for (ldm_num = 1; ldm_num <= 4; ldm_num *= 2)
        for (ldm_trans = 0; ldm_trans < 2; ldm_trans++) {
            ldm_bad = 0;
            ldm_offset = 0;
            tk_emu_run_block(ldmatrix_thread, NULL, NULL, 0, 0, 0, 64, 64 * 64 * 2);
            ck_assert_msg(!tk_emu_take_error(err, sizeof err), "%s", err);
            ck_assert_msg(ldm_bad == 0, "x%d%s: %d registers differ from the PTX ISA's figure", ldm_num, ldm_trans ? ".trans" : "", ldm_bad);
        }
    /* two warps, 6 shapes: 12 instructions. Rows 128 bytes apart with no
     * swizzle: every matrix's 8 rows sit in the same 4 banks */
    tk_emu_take_counts(&n);
    ck_assert_uint_eq(n.ldmatrix, 12);
    ck_assert_uint_eq(n.ldmatrix_conflicts, 2 * (1 + 1 + 2 + 2 + 4 + 4));
    /* a row address off its 16-byte alignment is an error, as on a GPU */
    ldm_num = 4;
    ldm_trans = 0;
    ldm_offset = 4;
    tk_emu_run_block(ldmatrix_thread, NULL, NULL, 0, 0, 0, 32, 64 * 64 * 2);
    ck_assert(tk_emu_take_error(err, sizeof err));
    ck_assert_msg(strstr(err, "ldmatrix") && strstr(err, "not 16-byte aligned"), "%s", err);
    /* and one outside the shared tiles */
    ldm_offset = 64 * 64 * 2;
    tk_emu_run_block(ldmatrix_thread, NULL, NULL, 0, 0, 0, 32, 64 * 64 * 2);
    ck_assert(tk_emu_take_error(err, sizeof err));
    ck_assert_msg(strstr(err, "outside the shared tiles"), "%s", err);
}
END_TEST

/* cp.async: 16 bytes (or fewer, zero-filled) land at the thread's wait,
 * not before; a misaligned destination is an error */
static _Alignas(16) uint16_t cp_src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static uint16_t cp_before[8], cp_after[8];
static long cp_dst_offset;

static void cp_async_thread(void **args, const int64_t *sizes, TkEmuEnv *env)
{
    (void)args;
    (void)sizes;
    uint16_t *tile = env->shared;
    for (int k = 0; k < 8; k++) tile[k] = 99;
    env->cp_async(env, (char *)tile + cp_dst_offset, cp_src, 10);   /* 5 elements, 3 zeros */
    memcpy(cp_before, tile, sizeof cp_before);
    env->cp_async_wait(env);
    memcpy(cp_after, tile, sizeof cp_after);
}

START_TEST(cp_async_lands_at_the_wait)
{
    char err[512];
    tk_emu_take_error(err, sizeof err);
    cp_dst_offset = 0;
    tk_emu_run_block(cp_async_thread, NULL, NULL, 0, 0, 0, 32, 64);
    ck_assert_msg(!tk_emu_take_error(err, sizeof err), "%s", err);
    for (int k = 0; k < 8; k++) {
        ck_assert_uint_eq(cp_before[k], 99);                 /* nothing yet */
        ck_assert_uint_eq(cp_after[k], k < 5 ? k + 1 : 0);   /* 10 bytes, then zeros */
    }
    TkEmuCounts n;
    tk_emu_take_counts(&n);
    ck_assert_uint_eq(n.cp_async, 32);
    cp_dst_offset = 8;
    tk_emu_run_block(cp_async_thread, NULL, NULL, 0, 0, 0, 32, 64);
    ck_assert(tk_emu_take_error(err, sizeof err));
    ck_assert_msg(strstr(err, "cp.async") && strstr(err, "not 16-byte aligned"), "%s", err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("emu");
    TCase *tc = tcase_create("emulator");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, mma_sync_matches_a_plain_product);
    tcase_add_test(tc, a_warp_that_does_not_meet_is_reported);
    tcase_add_test(tc, sync_orders_shared_writes_before_reads);
    tcase_add_test(tc, shuffle_reads_the_named_lane_of_its_warp);
    tcase_add_test(tc, lanes_at_different_collectives_are_reported);
    tcase_add_test(tc, ldmatrix_gives_each_lane_the_ptx_isa_elements);
    tcase_add_test(tc, cp_async_lands_at_the_wait);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? 0 : 1;
}
