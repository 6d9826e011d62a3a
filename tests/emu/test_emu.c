/* test_emu.c — the emulator's own parts, without the compiler: its
 * mma.sync m16n8k16 (fed registers packed the way the PTX ISA's figures lay
 * them out, checked against a plain double-precision product), blocks of
 * several warps run as fibers, sync() across a block's shared buffer, warp
 * shuffles (each lane reads the lane it names, within its own warp, over
 * many rounds), ldmatrix in every shape against the PTX ISA's figure (and
 * its bank-conflict count and address checks), cp.async landing at the
 * thread's wait and not before, and a warp whose lanes do not all reach a matrix instruction,
 * or reach different collectives, which must end in a message, not a hang.
 * Then Hopper's wgmma (m64nNk16, A in registers, B in shared memory through a
 * descriptor) in every canonical layout of B, against the test's own
 * placement of B and addresses worked out by hand from the PTX ISA's
 * examples. Last, Hopper's TMA tensor copy (tile mode, ranks 1 to 5, every
 * swizzle) against the test's own placement of each box element, zeros
 * outside the tensor, and its refusals of maps and destinations the hardware
 * would not take. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "emu_tma.h"
#include "emu_wgmma.h"
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

/* wgmma.mma_async m64nNk16 with B from shared memory. The test keeps A
 * (64×16), B (16×N) and C (64×N) as plain matrices and moves them into
 * registers and shared memory its own way: registers by asking, for each
 * element, which thread and register the PTX ISA's Figures 148 and 149 give
 * it; B by rows of 16-byte chunks (wg_place), not by the canonical-layout
 * formulas the emulator evaluates. */
enum { WG_SHARED_BYTES = 96 << 10, WG_FILL = 0x55 };

typedef struct {
    int n_major;               /* imm-trans-b */
    int swizzle_bytes;         /* 0 (none), 32, 64 or 128 */
    int64_t start, lbo, sbo;   /* bytes */
    int k_column;              /* K-major swizzled: the tile column the instruction's k = 0 is at */
} WgLayout;

static unsigned char wg_shared[WG_SHARED_BYTES], wg_taken[WG_SHARED_BYTES];
static uint32_t wg_a[128][4];
static float wg_d[128][128], wg_d_before[128][128];
static float wg_A[64][16], wg_B[16][256], wg_C[64][256];

static uint64_t wg_descriptor(const WgLayout *l)
{
    uint64_t mode = l->swizzle_bytes == 128 ? 1 : l->swizzle_bytes == 64 ? 2 : l->swizzle_bytes == 32 ? 3 : 0;
    uint64_t start = (uint64_t)(l->start + 2 * l->k_column);
    return start >> 4 | (uint64_t)l->lbo >> 4 << 16 | (uint64_t)l->sbo >> 4 << 32 | mode << 62;
}

/* Where B[k][n] lives. Unswizzled: 8×8 core matrices of 8 rows of 16 bytes
 * (rows are k for N-major B, n for K-major), core (n/8, k/8) at
 * n/8·SBO + k/8·LBO. Swizzled: rows of swizzle_bytes (the k rows of N-major
 * panels swizzle_bytes/2 elements wide, panel p at p·LBO; the n rows of
 * K-major B), 8 rows, then the next 8 at SBO; a row's 16-byte chunks are
 * permuted by XOR with its row address / 128 mod (swizzle_bytes / 16). */
static int64_t wg_place(const WgLayout *l, int k, int n)
{
    if (l->swizzle_bytes == 0) {
        int64_t core = l->start + (n / 8) * l->sbo + (k / 8) * l->lbo;
        return l->n_major ? core + 16 * (k % 8) + 2 * (n % 8) : core + 16 * (n % 8) + 2 * (k % 8);
    }
    int width = l->swizzle_bytes, per_row = width / 2, chunks = width / 16, column;
    int64_t row;
    if (l->n_major) {
        row = l->start + (n / per_row) * l->lbo + (k / 8) * l->sbo + (k % 8) * width;
        column = n % per_row;
    } else {
        row = l->start + (n / 8) * l->sbo + (n % 8) * width;
        column = l->k_column + k;
    }
    int phase = (int)(row / 128 % chunks);
    return row + 16 * (column / 8 ^ phase) + 2 * (column % 8);
}

/* bf16, or IEEE half for the exact normal values (and zero) the tests use */
static uint16_t wg_bits(float f, int f16)
{
    if (!f16) return to_bf16(f);
    if (f == 0) return 0;
    int e;
    float m = frexpf(fabsf(f), &e);   /* |f| = m·2^e, m in [0.5, 1) */
    uint16_t h = (uint16_t)((e + 14) << 10 | ((int)(m * 2048) & 0x3ff));
    return f < 0 ? (uint16_t)(h | 0x8000) : h;
}

/* Element (r, c) of A or of C/D sits in warp r/16, lane 4·(r%8) + (c%8)/2;
 * in A's register (r%16)/8 + 2·(c/8), half c%2; in accumulator
 * 4·(c/8) + 2·((r%16)/8) + c%2. */
static int wg_thread(int r, int c) { return 32 * (r / 16) + 4 * (r % 8) + c % 8 / 2; }
static int wg_a_register(int r, int c) { return r % 16 / 8 + 2 * (c / 8); }
static int wg_d_register(int r, int c) { return 4 * (c / 8) + 2 * (r % 16 / 8) + c % 2; }

static void wg_load_registers(int n, int f16)
{
    memset(wg_a, 0, sizeof wg_a);
    for (int r = 0; r < 64; r++)
        for (int c = 0; c < 16; c++)
            wg_a[wg_thread(r, c)][wg_a_register(r, c)] |= (uint32_t)wg_bits(wg_A[r][c], f16) << 16 * (c % 2);
    memset(wg_d, 0, sizeof wg_d);
    for (int r = 0; r < 64; r++)
        for (int c = 0; c < n; c++) wg_d[wg_thread(r, c)][wg_d_register(r, c)] = wg_C[r][c];
}

/* B into shared memory over a fill no product here makes; false if an
 * element falls outside the buffer or on another's bytes */
static bool wg_store_b(const WgLayout *l, int n, int f16)
{
    memset(wg_shared, WG_FILL, sizeof wg_shared);
    memset(wg_taken, 0, sizeof wg_taken);
    bool ok = true;
    for (int k = 0; k < 16; k++)
        for (int c = 0; c < n; c++) {
            int64_t at = wg_place(l, k, c);
            if (at < 0 || at + 2 > WG_SHARED_BYTES || wg_taken[at]) {
                ok = false;
                continue;
            }
            uint16_t h = wg_bits(wg_B[k][c], f16);
            wg_shared[at] = (unsigned char)h;
            wg_shared[at + 1] = (unsigned char)(h >> 8);
            wg_taken[at] = wg_taken[at + 1] = 1;
        }
    return ok;
}

static void wg_random_operands(int n, unsigned *seed)
{
    for (int r = 0; r < 64; r++)
        for (int k = 0; k < 16; k++) wg_A[r][k] = small_value(seed);
    for (int k = 0; k < 16; k++)
        for (int c = 0; c < n; c++) wg_B[k][c] = small_value(seed);
    for (int r = 0; r < 64; r++)
        for (int c = 0; c < n; c++) wg_C[r][c] = small_value(seed);
}

/* How many of D's 64×n elements differ from (C +) A·B taken in double:
 * exactly, as every value here is exact at every step; NaN matches NaN. */
static int wg_mismatches(int n, int scale_d, char *first, size_t len)
{
    int bad = 0;
    for (int r = 0; r < 64; r++)
        for (int c = 0; c < n; c++) {
            double want = scale_d ? wg_C[r][c] : 0;
            for (int k = 0; k < 16; k++) want += (double)wg_A[r][k] * wg_B[k][c];
            float got = wg_d[wg_thread(r, c)][wg_d_register(r, c)];
            if (got != (float)want && !(isnan(got) && isnan(want)) && !bad++)
                snprintf(first, len, "D[%d][%d] = %g, want %g", r, c, got, want);
        }
    return bad;
}

/* Two arrangements of each layout. Variant 0: packed from a 1024-byte
 * boundary. Variant 1: the other natural order of the strides (or padding),
 * the start 640 bytes in for the swizzled layouts (address bits 7 and 9
 * set: the pattern starts at phase 5, 1 or 1 for 128, 64 or 32 bytes) and 48
 * bytes in otherwise, and K-major tiles read at their last 16 columns, the
 * descriptor's start inside the swizzle row. */
static WgLayout wg_layout(int n_major, int swizzle_bytes, int n, int variant)
{
    WgLayout l = { n_major, swizzle_bytes, 4096, 0, 0, 0 };
    if (swizzle_bytes == 0) {
        /* core (n/8, k/8): n groups side by side then the second k half, or
         * the two k halves side by side and n groups 384 apart */
        l.start += variant ? 48 : 0;
        l.sbo = variant ? 384 : 128;
        l.lbo = variant ? 128 : 128 * (n / 8);
        return l;
    }
    int atom = 8 * swizzle_bytes;   /* 8 rows: the period of the pattern */
    l.start += variant ? 640 : 0;
    if (n_major) {
        /* each panel's two k halves together, or every panel's first half
         * then every panel's second */
        int panels = (n + swizzle_bytes / 2 - 1) / (swizzle_bytes / 2);
        l.sbo = variant ? atom * panels : atom;
        l.lbo = variant ? atom : 2 * atom;
    } else {
        l.sbo = variant ? 2 * atom : atom;            /* groups of 8 n rows, padded to 16 rows in variant 1 */
        l.lbo = variant ? 0x3fff << 4 : 0;            /* unused by swizzled K-major: any value */
        l.k_column = variant ? swizzle_bytes / 2 - 16 : 0;
    }
    return l;
}

START_TEST(wgmma_reads_b_in_every_canonical_layout)
{
    static const int swizzles[4] = { 0, 32, 64, 128 }, widths[4] = { 8, 64, 128, 256 };
    char err[256], first[160] = "", failures[1024] = "";
    unsigned seed = 11;
    int cases = 0, failed = 0;
    for (int n_major = 0; n_major < 2; n_major++)
        for (int s = 0; s < 4; s++)
            for (int w = 0; w < 4; w++)
                for (int variant = 0; variant < 2; variant++) {
                    int n = widths[w], f16 = (s + w + variant) % 2;
                    WgLayout l = wg_layout(n_major, swizzles[s], n, variant);
                    wg_random_operands(n, &seed);
                    ck_assert_msg(wg_store_b(&l, n, f16), "the test's own placement overlaps or overflows");
                    wg_load_registers(n, f16);
                    cases++;
                    int rc = tk_emu_wgmma(n, f16, n_major, wg_descriptor(&l), wg_a, wg_d, 1, wg_shared, WG_SHARED_BYTES, err,
                                          sizeof err);
                    int bad = rc ? -1 : wg_mismatches(n, 1, first, sizeof first);
                    if (bad) {
                        size_t used = strlen(failures);
                        snprintf(failures + used, sizeof failures - used, "\n  %s-major %dB n=%d variant %d %s: %s",
                                 n_major ? "N" : "K", swizzles[s], n, variant, f16 ? "f16" : "bf16", rc ? err : first);
                        failed++;
                    }
                }
    ck_assert_msg(failed == 0, "%d of %d layouts read wrong:%s", failed, cases, failures);
}
END_TEST

/* Addresses worked out by hand from the PTX ISA's "Canonical Layouts"
 * examples (9.7.15.5.1.2.1.3, bf16 and the tf32 ones with bf16's T = 8),
 * in elements then bytes, the swizzle on the byte address:
 *   N-major 64B: Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512)),
 *     LBO 512, SBO 1024: (k 11, n 45) is 5+8+256 + 3·32+512 = 877, byte
 *     1754, whose bits 7-8 (1) flip bit 4: 1738
 *   N-major 32B: Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256)),
 *     LBO 256, SBO 512: (k 13, n 27) is 3+8+128 + 5·16+256 = 475, byte 950,
 *     bit 7 set flips bit 4: 934
 *   N-major none: ((8,1,2),(8,2)):((1,8,64),(8,128)), LBO 256, SBO 128:
 *     (k 10, n 13) is 5+64 + 2·8+128 = 213: byte 426
 *   K-major none: ((8,2),(8,2)):((8,64),(1,128)), LBO 256, SBO 128:
 *     (k 10, n 13) is 5·8+64 + 2+128 = 234: byte 468
 *   K-major 128B: ((8,2),(8,2)):((64,512),(1,8)), SBO 1024: (k 9, n 10) is
 *     2·64+512 + 1+8 = 649, byte 1298, bits 7-9 (2) flip bits 4-6: 1330;
 *     from start 64 (columns 32..47 of the rows) byte 1362, whose bits 4-6
 *     (5) XOR 2 make 7: 1394
 * Each puts a single 1 at its address, A[r][k] = k + 1, so the instruction
 * must give k + 1 in column n of every row, and 0 elsewhere. */
START_TEST(wgmma_finds_b_at_addresses_from_the_ptx_isa_examples)
{
    static const struct {
        WgLayout layout;
        int n, k0, n0;
        int64_t address;
    } examples[] = {
        { { 1, 64, 0, 512, 1024, 0 }, 64, 11, 45, 1738 }, { { 1, 32, 0, 256, 512, 0 }, 32, 13, 27, 934 },
        { { 1, 0, 0, 256, 128, 0 }, 16, 10, 13, 426 },    { { 0, 0, 0, 256, 128, 0 }, 16, 10, 13, 468 },
        { { 0, 128, 0, 0, 1024, 0 }, 16, 9, 10, 1330 },   { { 0, 128, 64, 0, 1024, 0 }, 16, 9, 10, 1394 },
    };
    char err[256], failures[1024] = "";
    int failed = 0;
    for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++) {
        int n = examples[e].n;
        for (int r = 0; r < 64; r++)
            for (int k = 0; k < 16; k++) wg_A[r][k] = (float)(k + 1);
        memset(wg_C, 0, sizeof wg_C);
        wg_load_registers(n, 0);
        memset(wg_shared, 0, sizeof wg_shared);
        wg_shared[examples[e].address] = 0x80;   /* bf16 1.0 = 0x3f80, little-endian */
        wg_shared[examples[e].address + 1] = 0x3f;
        int rc = tk_emu_wgmma(n, 0, examples[e].layout.n_major, wg_descriptor(&examples[e].layout), wg_a, wg_d, 1, wg_shared,
                              WG_SHARED_BYTES, err, sizeof err);
        int bad = 0;
        for (int r = 0; r < 64 && !rc; r++)
            for (int c = 0; c < n; c++)
                bad += wg_d[wg_thread(r, c)][wg_d_register(r, c)] != (c == examples[e].n0 ? examples[e].k0 + 1 : 0);
        if (rc || bad) {
            size_t used = strlen(failures);
            snprintf(failures + used, sizeof failures - used, "\n  example %zu (byte %lld): %s", e,
                     (long long)examples[e].address, rc ? err : "another element taken for it");
            failed++;
        }
    }
    ck_assert_msg(failed == 0, "%d examples wrong:%s", failed, failures);
}
END_TEST

START_TEST(wgmma_without_scale_d_ignores_c)
{
    char err[256], first[160] = "";
    unsigned seed = 5;
    WgLayout l = wg_layout(1, 128, 64, 0);
    wg_random_operands(64, &seed);
    for (int r = 0; r < 64; r++)
        for (int c = 0; c < 64; c++) wg_C[r][c] = NAN;
    ck_assert(wg_store_b(&l, 64, 0));
    wg_load_registers(64, 0);
    int rc = tk_emu_wgmma(64, 0, 1, wg_descriptor(&l), wg_a, wg_d, 0, wg_shared, WG_SHARED_BYTES, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    int bad = wg_mismatches(64, 0, first, sizeof first);
    ck_assert_msg(bad == 0, "%d elements wrong, first %s", bad, first);
}
END_TEST

/* f16 elements that are not plain normals: B's row k = 0 holds them, A's
 * column 0 is 1 (even rows) or 1/2 (odd rows), the rest 0 */
START_TEST(wgmma_reads_f16_subnormals_infinities_and_nans)
{
    static const uint16_t bits[8] = { 0x0001, 0x03ff, 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0xc000 };
    const double value[8] = { 0x1p-24, 1023 * 0x1p-24, 0x1p-14, 65504, INFINITY, -INFINITY, NAN, -2 };
    char err[256];
    WgLayout l = { 0, 0, 0, 128, 256, 0 };
    memset(wg_shared, 0, sizeof wg_shared);
    for (int c = 0; c < 8; c++) {
        int64_t at = wg_place(&l, 0, c);
        wg_shared[at] = (unsigned char)bits[c];
        wg_shared[at + 1] = (unsigned char)(bits[c] >> 8);
    }
    memset(wg_A, 0, sizeof wg_A);
    memset(wg_C, 0, sizeof wg_C);
    for (int r = 0; r < 64; r++) wg_A[r][0] = r % 2 ? 0.5f : 1.0f;
    wg_load_registers(8, 1);
    int rc = tk_emu_wgmma(8, 1, 0, wg_descriptor(&l), wg_a, wg_d, 1, wg_shared, WG_SHARED_BYTES, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    int bad = 0;
    for (int r = 0; r < 64; r++)
        for (int c = 0; c < 8; c++) {
            float got = wg_d[wg_thread(r, c)][wg_d_register(r, c)], want = (float)(value[c] * wg_A[r][0]);
            bad += !(got == want || (isnan(got) && isnan(want)));
        }
    ck_assert_msg(bad == 0, "%d f16 products wrong", bad);
}
END_TEST

/* a bad N, an element past the end of shared memory (one there only
 * because of the swizzle, too), a base offset: -1, a reason, d untouched */
START_TEST(wgmma_reports_bad_shapes_and_addresses)
{
    char err[256];
    for (int t = 0; t < 128; t++)
        for (int i = 0; i < 128; i++) wg_d[t][i] = wg_d_before[t][i] = (float)(t * 128 + i);
    memset(wg_a, 0, sizeof wg_a);
    memset(wg_shared, 0, sizeof wg_shared);
    WgLayout k_none = { 0, 0, 0, 128, 256, 0 }, n_128 = { 1, 128, 0, 2048, 1024, 0 };
    uint64_t k_none_desc = wg_descriptor(&k_none);
    static const int bad_n[3] = { 12, 0, 264 };
    for (int i = 0; i < 3; i++) {
        int rc = tk_emu_wgmma(bad_n[i], 0, 0, k_none_desc, wg_a, wg_d, 1, wg_shared, WG_SHARED_BYTES, err, sizeof err);
        ck_assert_int_eq(rc, -1);
        ck_assert_msg(strstr(err, "N = ") && strstr(err, "multiple of 8"), "%s", err);
    }
    /* K-major, no swizzle, N = 64 ends with (k 15, n 63) at bytes 2046..2047: its second byte is one too far */
    ck_assert_int_eq(tk_emu_wgmma(64, 0, 0, wg_descriptor(&k_none), wg_a, wg_d, 1, wg_shared, 2047, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "(k 15, n 63)") && strstr(err, "2046") && strstr(err, "outside"), "%s", err);
    /* N-major 128-byte, N = 8: row k = 15 is at 1920, its chunk 0 swizzled to 7, so n = 4 is at byte 2040
     * (unswizzled, every element would fit); the first element outside, k before n, is named */
    ck_assert_int_eq(tk_emu_wgmma(8, 0, 1, wg_descriptor(&n_128), wg_a, wg_d, 1, wg_shared, 2040, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "(k 15, n 4)") && strstr(err, "2040"), "%s", err);
    uint64_t with_base_offset = k_none_desc | 1ull << 49;
    ck_assert_int_eq(tk_emu_wgmma(64, 0, 0, with_base_offset, wg_a, wg_d, 1, wg_shared, WG_SHARED_BYTES, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "base offset"), "%s", err);
    ck_assert_msg(memcmp(wg_d, wg_d_before, sizeof wg_d) == 0, "d changed by a failed wgmma");
    /* exactly enough shared memory is enough */
    ck_assert_int_eq(tk_emu_wgmma(64, 0, 0, wg_descriptor(&k_none), wg_a, wg_d, 1, wg_shared, 2048, err, sizeof err), 0);
    ck_assert_int_eq(tk_emu_wgmma(8, 0, 1, wg_descriptor(&n_128), wg_a, wg_d, 1, wg_shared, 2048, err, sizeof err), 0);
}
END_TEST

/* TMA: a tensor in host memory, its bytes in an allocation of exactly the
 * tensor's extent (strides included), so that a read outside it shows under
 * AddressSanitizer. Element n (counting innermost first over the tensor's
 * own dimensions, padding not counted) holds tma_pattern(n): all different,
 * none zero, so a zero-filled element cannot pass for a read one. Padding
 * bytes are 0xEE. */
typedef struct {
    TkTmaDesc map;
    unsigned char *bytes;
} TmaTensor;

enum { TMA_SHARED_BYTES = 16384 };
static unsigned char tma_shared[TMA_SHARED_BYTES], tma_before[TMA_SHARED_BYTES];

static uint32_t tma_pattern(uint64_t n, int elem_bytes)
{
    if (elem_bytes == 2) return (uint32_t)((n + 1) * 40503u & 0xffffu);   /* odd factor: one-to-one on 16 bits */
    return (uint32_t)((n + 1) * 2654435761u);
}

static TmaTensor tma_tensor(int rank, int dtype, const uint64_t *dims, const uint64_t *strides)
{
    TmaTensor t;
    memset(&t, 0, sizeof t);
    int elem_bytes = dtype == TK_TMA_F32 ? 4 : 2;
    t.map.rank = rank;
    t.map.dtype = dtype;
    t.map.elem_bytes = elem_bytes;
    uint64_t elements = 1;
    for (int k = 0; k < rank; k++) {
        t.map.dims[k] = dims[k];
        t.map.strides[k] = strides[k];
        t.map.box[k] = 1;
        elements *= dims[k];
    }
    size_t size = (size_t)(rank == 1 ? dims[0] * (uint64_t)elem_bytes : strides[rank - 1] * dims[rank - 1]);
    size = (size + 15) / 16 * 16;
    t.bytes = aligned_alloc(16, size);
    ck_assert_ptr_nonnull(t.bytes);
    memset(t.bytes, 0xee, size);
    for (uint64_t n = 0; n < elements; n++) {
        uint64_t rest = n, offset = 0;
        for (int k = 0; k < rank; k++) {
            offset += rest % dims[k] * strides[k];
            rest /= dims[k];
        }
        uint32_t value = tma_pattern(n, elem_bytes);
        for (int b = 0; b < elem_bytes; b++) t.bytes[offset + (uint64_t)b] = (unsigned char)(value >> 8 * b);
    }
    t.map.base = (uint64_t)(uintptr_t)t.bytes;
    return t;
}

static int64_t tma_box_bytes(const TkTmaDesc *m)
{
    int64_t bytes = m->elem_bytes;
    for (int k = 0; k < m->rank; k++) bytes *= m->box[k];
    return bytes;
}

/* How many box elements are not where the PTX ISA's swizzle tables put them,
 * or not what they should hold, plus the bytes outside the box that changed.
 * The box is rows of box[0] elements; row r starts at s = dst + r · rowbytes;
 * the element's byte b = i0 · elem_bytes of that row is in 16-byte chunk
 * b / 16, which the swizzle exchanges with chunk (b / 16) XOR (s / 128 mod the
 * span's chunks): the tables number 128-byte lines of shared memory from an
 * aligned start, so the line of s itself picks the row of the table. */
static int tma_misplaced(const TmaTensor *t, const int32_t *coords, int64_t dst)
{
    const TkTmaDesc *m = &t->map;
    int elem_bytes = m->elem_bytes;
    int64_t row_bytes = (int64_t)m->box[0] * elem_bytes, rows = 1;
    for (int k = 1; k < m->rank; k++) rows *= m->box[k];
    int bad = 0;
    for (int64_t r = 0; r < rows; r++) {
        int64_t x[TK_TMA_MAX_RANK], rest = r;
        for (int k = 1; k < m->rank; k++) {
            x[k] = coords[k] + rest % m->box[k];
            rest /= m->box[k];
        }
        int64_t row_start = dst + r * row_bytes;
        for (int64_t i0 = 0; i0 < m->box[0]; i0++) {
            x[0] = coords[0] + i0;
            int64_t byte = i0 * elem_bytes, chunk = byte / 16;
            if (m->swizzle) chunk ^= row_start / 128 % (m->swizzle / 16);
            int64_t at = row_start + chunk * 16 + byte % 16;
            bool inside = true;
            uint64_t n = 0, scale = 1;
            for (int k = 0; k < m->rank; k++) {
                if (x[k] < 0 || x[k] >= (int64_t)m->dims[k]) inside = false;
                else n += (uint64_t)x[k] * scale;
                scale *= m->dims[k];
            }
            uint32_t expected = inside ? tma_pattern(n, elem_bytes) : 0, got = 0;
            for (int b = 0; b < elem_bytes; b++) got |= (uint32_t)tma_shared[at + b] << 8 * b;
            if (got != expected) bad++;
        }
    }
    for (int64_t a = 0; a < TMA_SHARED_BYTES; a++)
        if ((a < dst || a >= dst + rows * row_bytes) && tma_shared[a] != tma_before[a]) bad++;
    return bad;
}

/* one copy into shared memory full of noise: it delivers the whole box, every element in its place */
static void tma_check_copy(const TmaTensor *t, const int32_t *coords, int64_t dst)
{
    char err[256] = "";
    for (int a = 0; a < TMA_SHARED_BYTES; a++) tma_shared[a] = tma_before[a] = (unsigned char)(a * 7 + 0x5b);
    long delivered = tk_emu_tma_load(&t->map, coords, dst, tma_shared, TMA_SHARED_BYTES, err, sizeof err);
    ck_assert_msg(delivered == tma_box_bytes(&t->map), "rank %d swizzle %d box[0] %u at dst %lld: returned %ld (%s)",
                  t->map.rank, t->map.swizzle, t->map.box[0], (long long)dst, delivered, err);
    int bad = tma_misplaced(t, coords, dst);
    char corner[80] = "";
    for (int k = 0; k < t->map.rank; k++)
        snprintf(corner + strlen(corner), sizeof corner - strlen(corner), " %d", coords[k]);
    ck_assert_msg(bad == 0, "rank %d swizzle %d box[0] %u, box[1] %u from (%s ) at dst %lld: %d bytes or elements wrong",
                  t->map.rank, t->map.swizzle, t->map.box[0], t->map.box[1], corner, (long long)dst, bad);
}

static bool tma_box_is_zero(int64_t dst, int64_t bytes)
{
    for (int64_t a = dst; a < dst + bytes; a++)
        if (tma_shared[a] != 0) return false;
    return true;
}

/* a 200 × 40 bf16 tensor in every swizzle with its box widths, corners
 * inside, before and past the tensor, three destinations */
START_TEST(tma_places_bf16_boxes_in_every_swizzle)
{
    uint64_t dims[2] = { 200, 40 }, strides[2] = { 2, 400 };
    TmaTensor t = tma_tensor(2, TK_TMA_BF16, dims, strides);
    static const struct {
        int swizzle;
        uint32_t box0;
    } shapes[] = { { 0, 8 }, { 0, 24 }, { 0, 64 }, { 32, 16 }, { 64, 32 }, { 128, 64 } };
    static const uint32_t box1s[] = { 8, 16, 64 };
    static const int32_t corners[][2] = { { 0, 0 },     { 37, 11 }, { -5, -3 },   { 190, 35 }, { -70, 0 },
                                          { 150, 38 },  { 0, 40 },  { -64, -64 }, { 136, -60 } };
    static const int64_t dsts[] = { 0, 384, 2048 };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (size_t b = 0; b < sizeof box1s / sizeof box1s[0]; b++) {
            t.map.swizzle = shapes[s].swizzle;
            t.map.box[0] = shapes[s].box0;
            t.map.box[1] = box1s[b];
            for (size_t c = 0; c < sizeof corners / sizeof corners[0]; c++)
                for (size_t d = 0; d < sizeof dsts / sizeof dsts[0]; d++) tma_check_copy(&t, corners[c], dsts[d]);
        }
    /* (-70, 0) with 64-element rows is wholly before the tensor: all zeros, still the whole box delivered */
    t.map.swizzle = 128;
    t.map.box[0] = 64;
    t.map.box[1] = 8;
    tma_check_copy(&t, corners[4], 0);
    ck_assert(tma_box_is_zero(0, 1024));
    free(t.bytes);
}
END_TEST

/* f32 rows of 32 elements are 128 bytes: the 128-byte swizzle moves 4-byte elements as whole chunks of four */
START_TEST(tma_places_f32_boxes_in_the_128_byte_swizzle)
{
    uint64_t dims[2] = { 100, 30 }, strides[2] = { 4, 400 };
    TmaTensor t = tma_tensor(2, TK_TMA_F32, dims, strides);
    t.map.swizzle = 128;
    t.map.box[0] = 32;
    static const uint32_t box1s[] = { 8, 16 };
    static const int32_t corners[][2] = { { 0, 0 }, { -7, -2 }, { 80, 25 }, { 99, 29 }, { -32, 0 }, { 13, 3 } };
    static const int64_t dsts[] = { 0, 1152 };
    for (size_t b = 0; b < 2; b++) {
        t.map.box[1] = box1s[b];
        for (size_t c = 0; c < sizeof corners / sizeof corners[0]; c++)
            for (size_t d = 0; d < 2; d++) tma_check_copy(&t, corners[c], dsts[d]);
    }
    free(t.bytes);
}
END_TEST

/* ranks 1 (f16), 3, 4 and 5, one of them with padded rows (strides, not dims, find
 * the elements); an outer coordinate wholly outside its dimension makes the
 * whole box zeros */
START_TEST(tma_copies_boxes_of_every_rank)
{
    uint64_t dims1[1] = { 200 }, strides1[1] = { 2 };
    TmaTensor line = tma_tensor(1, TK_TMA_F16, dims1, strides1);
    line.map.box[0] = 64;
    int32_t from_before[1] = { -10 }, from_end[1] = { 180 };
    tma_check_copy(&line, from_before, 0);
    tma_check_copy(&line, from_end, 128);
    free(line.bytes);

    uint64_t dims3[3] = { 16, 6, 5 }, strides3[3] = { 2, 32, 192 };
    TmaTensor cube = tma_tensor(3, TK_TMA_BF16, dims3, strides3);
    cube.map.swizzle = 32;
    cube.map.box[0] = 16;
    cube.map.box[1] = 4;
    cube.map.box[2] = 2;
    static const int32_t cube_corners[][3] = { { 0, 0, 0 }, { 0, 3, 4 }, { -8, 4, 1 }, { 0, 1, 5 }, { 0, -2, -2 } };
    for (int c = 0; c < 5; c++) tma_check_copy(&cube, cube_corners[c], 256);
    ck_assert(tma_box_is_zero(256, 256));   /* the last corner's leading coordinates -2, -1 are outside */
    tma_check_copy(&cube, cube_corners[3], 0);   /* leading coordinates 5, 6 of a 5-deep tensor */
    ck_assert(tma_box_is_zero(0, 256));
    free(cube.bytes);

    uint64_t dims4[4] = { 24, 5, 3, 4 }, strides4[4] = { 2, 64, 320, 1024 };   /* rows padded from 48 to 64 bytes */
    TmaTensor padded = tma_tensor(4, TK_TMA_BF16, dims4, strides4);
    static const int32_t corners4[][4] = { { 0, 0, 0, 0 }, { 16, 3, 1, 3 }, { -4, -1, 2, 2 }, { 0, 0, 0, -1 }, { 0, 0, 0, 4 } };
    padded.map.box[0] = 8;
    padded.map.box[1] = 5;
    padded.map.box[2] = 2;
    padded.map.box[3] = 2;
    for (int c = 0; c < 5; c++) tma_check_copy(&padded, corners4[c], 128);
    ck_assert(tma_box_is_zero(128, 320));
    padded.map.swizzle = 64;
    padded.map.box[0] = 32;
    padded.map.box[1] = 2;
    padded.map.box[2] = 3;
    padded.map.box[3] = 1;
    for (int c = 0; c < 5; c++) tma_check_copy(&padded, corners4[c], 512);
    ck_assert(tma_box_is_zero(512, 384));
    free(padded.bytes);

    uint64_t dims5[5] = { 8, 2, 2, 2, 3 }, strides5[5] = { 2, 16, 32, 64, 128 };
    TmaTensor five = tma_tensor(5, TK_TMA_BF16, dims5, strides5);
    uint32_t box5[5] = { 8, 2, 1, 2, 2 };
    memcpy(five.map.box, box5, sizeof box5);
    static const int32_t corners5[][5] = { { 0, 0, 0, 0, 0 }, { 0, 1, 1, 1, 2 }, { 0, 0, 0, 0, 3 } };
    for (int c = 0; c < 3; c++) tma_check_copy(&five, corners5[c], 0);
    ck_assert(tma_box_is_zero(0, 128));
    free(five.bytes);
}
END_TEST

/* The 128-byte swizzle follows the shared address, not the box: a box at
 * byte 384 (128-aligned, not 1024-aligned) starts in line 3 of the pattern.
 * Worked by hand: its first row's chunk 0 (elements 0..7) goes to chunk 3,
 * byte 384 + 48; chunk 1 (elements 8..15) to chunk 2, byte 384 + 32; row 5
 * starts at byte 1024, line 8, where the pattern begins again. */
START_TEST(tma_swizzle_follows_the_shared_address)
{
    uint64_t dims[2] = { 200, 40 }, strides[2] = { 2, 400 };
    TmaTensor t = tma_tensor(2, TK_TMA_BF16, dims, strides);
    t.map.swizzle = 128;
    t.map.box[0] = 64;
    t.map.box[1] = 8;
    int32_t corner[2] = { 8, 4 };
    char err[256];
    static unsigned char at_0[1024];
    memset(tma_shared, 0, sizeof tma_shared);
    ck_assert_int_eq(tk_emu_tma_load(&t.map, corner, 0, tma_shared, TMA_SHARED_BYTES, err, sizeof err), 1024);
    memcpy(at_0, tma_shared, sizeof at_0);
    memset(tma_shared, 0, sizeof tma_shared);
    ck_assert_int_eq(tk_emu_tma_load(&t.map, corner, 384, tma_shared, TMA_SHARED_BYTES, err, sizeof err), 1024);
    ck_assert_msg(memcmp(at_0, tma_shared + 384, sizeof at_0) != 0, "the box at 384 has the pattern of the box at 0");

    uint16_t first, ninth, row5, at_0_first;
    memcpy(&first, tma_shared + 384 + 48, 2);
    memcpy(&ninth, tma_shared + 384 + 32, 2);
    memcpy(&row5, tma_shared + 1024, 2);
    memcpy(&at_0_first, at_0, 2);
    ck_assert_uint_eq(first, tma_pattern(4 * 200 + 8, 2));   /* tensor (x0 8, x1 4) */
    ck_assert_uint_eq(ninth, tma_pattern(4 * 200 + 16, 2));
    ck_assert_uint_eq(row5, tma_pattern(9 * 200 + 8, 2));
    ck_assert_uint_eq(at_0_first, tma_pattern(4 * 200 + 8, 2));
    free(t.bytes);
}
END_TEST

/* a copy that must be refused: -1, a message naming the problem, shared memory as it was */
static void tma_expect_refusal(const TkTmaDesc *m, int64_t dst, int64_t shared_bytes, const char *named)
{
    char err[256] = "";
    int32_t corner[TK_TMA_MAX_RANK] = { 0 };
    for (int a = 0; a < TMA_SHARED_BYTES; a++) tma_shared[a] = tma_before[a] = (unsigned char)(a * 13 + 1);
    long delivered = tk_emu_tma_load(m, corner, dst, tma_shared, shared_bytes, err, sizeof err);
    ck_assert_msg(delivered == -1, "expected a refusal naming \"%s\", got %ld", named, delivered);
    ck_assert_msg(strncmp(err, "TMA: ", 5) == 0 && strstr(err, named), "\"%s\" does not name \"%s\"", err, named);
    ck_assert_msg(!strchr(err, '\n'), "message of more than one line: %s", err);
    ck_assert_msg(memcmp(tma_shared, tma_before, TMA_SHARED_BYTES) == 0, "a refused copy (%s) wrote shared memory", err);
}

START_TEST(tma_reports_bad_maps_and_destinations)
{
    uint64_t dims[2] = { 200, 40 }, strides[2] = { 2, 400 };
    TmaTensor t = tma_tensor(2, TK_TMA_BF16, dims, strides);
    t.map.swizzle = 128;
    t.map.box[0] = 64;
    t.map.box[1] = 16;   /* 2048 bytes */
    const TkTmaDesc good = t.map;
    TkTmaDesc m;
#define TMA_REFUSED(change, dst, named)                          \
    do {                                                         \
        m = good;                                                \
        change;                                                  \
        tma_expect_refusal(&m, dst, TMA_SHARED_BYTES, named);    \
    } while (0)
    TMA_REFUSED(m.rank = 0, 0, "rank 0 is not 1..5");
    TMA_REFUSED(m.rank = 6, 0, "rank 6 is not 1..5");
    TMA_REFUSED(m.elem_bytes = 3, 0, "elem_bytes 3 is not 2 or 4");
    TMA_REFUSED(m.elem_bytes = 4, 0, "elem_bytes 4 does not match dtype 1");
    TMA_REFUSED((m.dtype = TK_TMA_F32, m.box[0] = 32), 0, "elem_bytes 2 does not match dtype 3");
    TMA_REFUSED(m.dtype = 7, 0, "dtype 7");
    TMA_REFUSED(m.box[1] = 0, 0, "box[1] = 0 is not 1..256");
    TMA_REFUSED(m.box[1] = 257, 0, "box[1] = 257 is not 1..256");
    TMA_REFUSED(m.box[0] = 0, 0, "box[0] = 0 is not 1..256");
    TMA_REFUSED((m.swizzle = 0, m.box[0] = 12), 0, "box[0] is 24 bytes, not a multiple of 16");
    TMA_REFUSED(m.swizzle = 64, 0, "swizzle 64 needs box[0] of exactly 64 bytes, not 128");
    TMA_REFUSED(m.box[0] = 32, 0, "swizzle 128 needs box[0] of exactly 128 bytes, not 64");
    TMA_REFUSED((m.swizzle = 32, m.box[0] = 8), 0, "swizzle 32 needs box[0] of exactly 32 bytes, not 16");
    TMA_REFUSED(m.swizzle = 96, 0, "swizzle 96 is not 0, 32, 64 or 128");
    TMA_REFUSED(m.swizzle = 16, 0, "swizzle 16 is not 0, 32, 64 or 128");
    TMA_REFUSED(m.strides[1] = 200, 0, "strides[1] = 200 bytes is not a multiple of 16");
    TMA_REFUSED(m.strides[0] = 4, 0, "strides[0] = 4");
    TMA_REFUSED(m.base += 2, 0, "is not 16-byte aligned");
    TMA_REFUSED(m.dims[1] = 0, 0, "dims[1] = 0");
    TMA_REFUSED((void)0, 64, "offset 64 is not 128-byte aligned");
    TMA_REFUSED((void)0, 1088, "offset 1088 is not 128-byte aligned");
    TMA_REFUSED((void)0, -128, "offset -128 is before the start of shared memory");
    TMA_REFUSED((void)0, TMA_SHARED_BYTES - 1024, "2048 bytes at shared offset 15360) runs past the 16384 bytes");
#undef TMA_REFUSED
    /* one byte short of the box is too short; exactly the box is enough */
    tma_expect_refusal(&good, 0, 2047, "runs past the 2047 bytes");
    int32_t corner[2] = { 0, 0 };
    char err[256];
    ck_assert_int_eq(tk_emu_tma_load(&good, corner, TMA_SHARED_BYTES - 2048, tma_shared, TMA_SHARED_BYTES, err, sizeof err),
                     2048);
    ck_assert_int_eq(tk_emu_tma_load(&good, corner, 0, tma_shared, 2048, err, sizeof err), 2048);
    free(t.bytes);
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
    tcase_add_test(tc, wgmma_reads_b_in_every_canonical_layout);
    tcase_add_test(tc, wgmma_finds_b_at_addresses_from_the_ptx_isa_examples);
    tcase_add_test(tc, wgmma_without_scale_d_ignores_c);
    tcase_add_test(tc, wgmma_reads_f16_subnormals_infinities_and_nans);
    tcase_add_test(tc, wgmma_reports_bad_shapes_and_addresses);
    suite_add_tcase(s, tc);
    TCase *tma = tcase_create("tma");
    tcase_set_timeout(tma, 60);
    tcase_add_test(tma, tma_places_bf16_boxes_in_every_swizzle);
    tcase_add_test(tma, tma_places_f32_boxes_in_the_128_byte_swizzle);
    tcase_add_test(tma, tma_copies_boxes_of_every_rank);
    tcase_add_test(tma, tma_swizzle_follows_the_shared_address);
    tcase_add_test(tma, tma_reports_bad_maps_and_destinations);
    suite_add_tcase(s, tma);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? 0 : 1;
}
