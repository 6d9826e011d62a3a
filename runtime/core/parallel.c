/* parallel.c — runtime loops on the kernels' thread pool. A loop is cut into
 * pieces that depend on its length and grain only; the pool hands pieces to
 * threads as blocks of a one-dimensional grid (tk_cpu_launch), so the
 * runtime and the kernels never compete with two pools. */
#include "internal.h"
#include "launch.h"

#define TKR_MAX_PIECES 4096   /* more pieces than this only costs hand-outs */

int64_t tkr_pieces(int64_t n, int64_t grain)
{
    if (n <= 0) return 0;
    if (grain < 1) grain = 1;
    int64_t p = (n + grain - 1) / grain;
    return p > TKR_MAX_PIECES ? TKR_MAX_PIECES : p;
}

void tkr_piece_range(int64_t n, int64_t grain, int64_t i, int64_t *begin, int64_t *end)
{
    int64_t p = tkr_pieces(n, grain);
    /* the first n % p pieces take one more item */
    int64_t q = n / p, r = n % p;
    *begin = i * q + (i < r ? i : r);
    *end = *begin + q + (i < r);
}

typedef struct {
    TkrRangeFn fn;
    void *arg;
    int64_t n, grain, pieces;
} Loop;

static void loop_grid(void **args, const int64_t *sizes, int64_t grid[4])
{
    (void)sizes;
    const Loop *l = args[0];
    grid[0] = l->pieces;
    grid[1] = grid[2] = 1;
    grid[3] = 64 << 10;   /* runtime loops keep their data on the heap */
}

static void loop_block(void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz)
{
    (void)sizes, (void)by, (void)bz;
    const Loop *l = args[0];
    int64_t b, e;
    tkr_piece_range(l->n, l->grain, bx, &b, &e);
    l->fn(b, e, l->arg);
}

void tkr_parallel_for(tk_context *ctx, int64_t n, int64_t grain, TkrRangeFn fn, void *arg)
{
    int64_t pieces = tkr_pieces(n, grain);
    if (pieces == 0) return;
    if (pieces == 1 || ctx->threads <= 1) {
        for (int64_t i = 0; i < pieces; i++) {
            int64_t b, e;
            tkr_piece_range(n, grain, i, &b, &e);
            fn(b, e, arg);
        }
        return;
    }
    Loop l = { fn, arg, n, grain, pieces };
    void *args[1] = { &l };
    char err[128];
    if (tk_cpu_launch(loop_grid, loop_block, args, NULL, ctx->threads, err, sizeof err) != 0) {
        /* no worker could start: run here, the result is the same */
        for (int64_t i = 0; i < pieces; i++) loop_block(args, NULL, (int32_t)i, 0, 0);
    }
}
