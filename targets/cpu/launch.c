/* launch.c — see launch.h. Blocks are handed out by an atomic counter, so a
 * thread that finishes early takes the next block (no static partition). */
#include "launch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
    TkBlockFn block;
    void **args;
    const int64_t *sizes;
    int64_t gx, gy, total;
    atomic_llong next;
} Work;

static void *worker(void *p)
{
    Work *w = p;
    for (;;) {
        long long b = atomic_fetch_add(&w->next, 1);
        if (b >= w->total) break;
        int64_t x = b % w->gx, y = (b / w->gx) % w->gy, z = b / (w->gx * w->gy);
        w->block(w->args, w->sizes, (int32_t)x, (int32_t)y, (int32_t)z);
    }
    return NULL;
}

int tk_cpu_threads(int requested)
{
    if (requested > 0) return requested;
    const char *env = getenv("TK_NUM_THREADS");
    if (env && atoi(env) > 0) return atoi(env);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int tk_cpu_launch(TkGridFn grid, TkBlockFn block, void **args, const int64_t *sizes, int nthreads, char *err, size_t errlen)
{
    int64_t g[3] = { 1, 1, 1 };
    grid(args, sizes, g);
    if (g[0] <= 0 || g[1] <= 0 || g[2] <= 0) return 0;   /* an empty grid runs nothing */
    if (g[0] > INT32_MAX || g[1] > INT32_MAX || g[2] > INT32_MAX) {
        snprintf(err, errlen, "grid %lld×%lld×%lld is too large", (long long)g[0], (long long)g[1], (long long)g[2]);
        return -1;
    }
    Work w = { .block = block, .args = args, .sizes = sizes, .gx = g[0], .gy = g[1] };
    w.total = g[0] * g[1] * g[2];
    atomic_init(&w.next, 0);
    int n = tk_cpu_threads(nthreads);
    if (n > 256) n = 256;
    if (n > w.total) n = (int)w.total;
    pthread_t threads[256];
    int started = 0;
    for (int t = 1; t < n; t++) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 64u << 20);   /* tiles live on the stack */
        if (pthread_create(&threads[started], &attr, worker, &w) == 0) started++;
        pthread_attr_destroy(&attr);
    }
    worker(&w);
    for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
    return 0;
}

/* ---------------------------------------------------------------- tk/rt.h */

static _Thread_local char last_error[256];

int tk_rt_threads(int threads) { return tk_cpu_threads(threads); }

int tk_rt_launch(tk_grid_fn grid, tk_block_fn block, void **args, const int64_t *sizes, int threads)
{
    last_error[0] = '\0';
    return tk_cpu_launch(grid, block, args, sizes, threads, last_error, sizeof last_error);
}

const char *tk_rt_error(void) { return last_error; }
