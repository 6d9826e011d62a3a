/* epilogue_c.c — the hand-written C loop beside bench/fusion/epilogue.tk:
 * y = w·u − v with u = x·s + b (fma), v = u², w = v/2 + u, over an M×N f32
 * array, one thread, timed like `tkc run` (median of REPS after a warm-up).
 * Built with cc -O3 -march=native, so GCC vectorises it.
 * Usage: epilogue_c M N REPS [BM BN] → prints the median milliseconds. With
 * BM BN the same loop walks the array in BM×BN tiles in epilogue.tk's block
 * order (each tile row by row, tiles along a row of tiles first): the C
 * loop over the same data in the same order, which separates what the tile
 * traversal costs (BM separate row streams) from what the code costs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void epilogue(const float *restrict x, float *restrict y, long n, float s, float b)
{
    for (long k = 0; k < n; k++) {
        float u = fmaf(x[k], s, b), v = u * u, w = 0.5f * v + u;
        y[k] = w * u - v;
    }
}

static long rows, cols, tile_m, tile_n;   /* the tiled walk's shape (0: flat) */

static void epilogue_tiled(const float *restrict x, float *restrict y, float s, float b)
{
    for (long i0 = 0; i0 < rows; i0 += tile_m)
        for (long j0 = 0; j0 < cols; j0 += tile_n)
            for (long i = i0; i < i0 + tile_m && i < rows; i++) {
                long jn = j0 + tile_n < cols ? j0 + tile_n : cols;
                epilogue(x + i * cols + j0, y + i * cols + j0, jn - j0, s, b);
            }
}

static void run(const float *x, float *y, long n, float s, float b)
{
    if (tile_m) epilogue_tiled(x, y, s, b);
    else epilogue(x, y, n, s, b);
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 6) {
        fprintf(stderr, "usage: epilogue_c M N REPS [BM BN]\n");
        return 2;
    }
    rows = atol(argv[1]), cols = atol(argv[2]);
    if (argc == 6) tile_m = atol(argv[4]), tile_n = atol(argv[5]);
    if (argc == 6 && (tile_m <= 0 || tile_n <= 0)) return 2;
    long n = rows * cols;
    int reps = atoi(argv[3]);
    float *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
    double *t = malloc(sizeof *t * (size_t)(reps > 0 ? reps : 1));
    if (!x || !y || !t || n <= 0 || reps <= 0) return 1;
    for (long k = 0; k < n; k++) x[k] = (float)((k * 7919 % 2001) - 1000) / 1000.0f, y[k] = 0;
    run(x, y, n, 0.75f, 0.25f);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        run(x, y, n, 0.75f, 0.25f);
        t[r] = now_ms() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    double sum = 0;
    for (long k = 0; k < n; k += 4099) sum += y[k];   /* keeps the work observable */
    printf("%.6f %g\n", t[reps / 2], sum);
    free(x), free(y), free(t);
    return 0;
}
