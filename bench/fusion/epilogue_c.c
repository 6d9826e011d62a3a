/* epilogue_c.c — the hand-written C loop beside bench/fusion/epilogue.tk:
 * y = w·u − v with u = x·s + b (fma), v = u², w = v/2 + u, over an M×N f32
 * array, one thread, timed like `tkc run` (median of REPS after a warm-up).
 * Built with cc -O3 -march=native, so GCC vectorises it.
 * Usage: epilogue_c M N REPS → prints the median milliseconds. */
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

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: epilogue_c M N REPS\n");
        return 2;
    }
    long n = atol(argv[1]) * atol(argv[2]);
    int reps = atoi(argv[3]);
    float *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
    double *t = malloc(sizeof *t * (size_t)(reps > 0 ? reps : 1));
    if (!x || !y || !t || n <= 0 || reps <= 0) return 1;
    for (long k = 0; k < n; k++) x[k] = (float)((k * 7919 % 2001) - 1000) / 1000.0f, y[k] = 0;
    epilogue(x, y, n, 0.75f, 0.25f);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        epilogue(x, y, n, 0.75f, 0.25f);
        t[r] = now_ms() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    double sum = 0;
    for (long k = 0; k < n; k += 4099) sum += y[k];   /* keeps the work observable */
    printf("%.6f %g\n", t[reps / 2], sum);
    free(x), free(y), free(t);
    return 0;
}
