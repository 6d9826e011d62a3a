/* run_time.c — timing a kernel on a shared machine. Other work only ever
 * makes a launch slower, so the minimum is the best estimate of what the code
 * can do, the median of what it usually does, and the spread (p90 − p10)
 * says how much to trust either; the whole sample list is there for
 * harnesses that pool runs (--times). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evict_caches.h"
#include "run_internal.h"

double run_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Percentile q of n sorted values, interpolating linearly between ranks. */
static double percentile(const double *sorted, int n, double q)
{
    double pos = q * (n - 1);
    int lo = (int)pos;
    if (lo >= n - 1) return sorted[n - 1];
    return sorted[lo] + (pos - lo) * (sorted[lo + 1] - sorted[lo]);
}

void run_timing_stats(RunTiming *t)
{
    if (t->n <= 0) return;
    static double sorted[RUN_MAX_SAMPLES];
    memcpy(sorted, t->samples, sizeof(double) * (size_t)t->n);
    qsort(sorted, (size_t)t->n, sizeof sorted[0], cmp_double);
    t->min = sorted[0];
    t->median = percentile(sorted, t->n, 0.5);
    t->p10 = percentile(sorted, t->n, 0.1);
    t->p90 = percentile(sorted, t->n, 0.9);
    t->spread = t->p90 - t->p10;
}

/* Samples until --repeat N, or at least 3 and ~0.5 s. A sample of a launch
 * shorter than 0.1 ms is the mean of as many back-to-back launches as make
 * 0.1 ms, as the bench's peers are timed (bench/peers/driver.c); --cold: one
 * launch per sample, after evicting the caches. */
int run_time_kernel(const RunOptions *o, int threads, RunLaunchFn launch, void *ctx, RunTiming *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->inner = 1;
    for (int w = 0; w < o->warmup; w++)
        if (launch(ctx, err, errlen) != 0) return -1;
    if (!o->cold) {
        double t0 = run_now_ms();
        if (launch(ctx, err, errlen) != 0) return -1;
        double one = run_now_ms() - t0;
        if (one < 0.1) t->inner = (int)(0.1 / (one > 1e-5 ? one : 1e-5)) + 1;
        if (t->inner > 100000) t->inner = 100000;
    }
    int want = o->repeat > 0 ? o->repeat : RUN_MAX_SAMPLES;
    double start = run_now_ms();
    while (t->n < want && t->n < RUN_MAX_SAMPLES) {
        if (o->cold) tk_evict_caches(threads);
        double t0 = run_now_ms();
        for (int r = 0; r < t->inner; r++)
            if (launch(ctx, err, errlen) != 0) return -1;
        t->samples[t->n++] = (run_now_ms() - t0) / t->inner;
        if (o->repeat <= 0 && t->n >= 3 && run_now_ms() - start > 500) break;
    }
    run_timing_stats(t);
    return 0;
}
