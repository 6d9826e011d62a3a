/* launch.c — see launch.h.
 *
 * A persistent pool of worker threads runs the blocks, and the launching
 * thread runs blocks too when they fit in its stack: tiles live on the stack,
 * so workers have 64 MiB stacks (the emitter refuses kernels that need more)
 * whereas the caller's may be the 8 MiB default or less. NAME__grid reports
 * what one block needs. A one-thread launch that fits never touches the pool:
 * waking a worker and waiting for it costs ~10 µs here, more than a 32³
 * product takes. Blocks are handed out by an atomic counter, so a thread that
 * finishes early takes the next block; each block's result does not depend on
 * which thread ran it.
 * Workers sleep between launches. Spinning 200 µs first (as OpenMP does) made
 * short 2-thread launches up to 1.6× faster (a 256³ bf16 product), but on the
 * 2-vCPU VM a 256³ f32 launch then jumped from 0.15 ms to 0.5–1 ms after ~20
 * back-to-back launches, with or without `pause`: the host seems to throttle
 * a VM whose vCPUs are both busy. Measured 2026-12-01; not kept. */
#define _GNU_SOURCE   /* pthread_getattr_np */
#include "launch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TK_MAX_THREADS 256
#define TK_WORKER_STACK (64u << 20)
#define TK_CALLER_STACK_MARGIN (64 << 10)   /* left free below a block run on the caller */

typedef struct {
    TkBlockFn block;
    void **args;
    const int64_t *sizes;
    int64_t gx, gy, total;
    atomic_llong next;
} Job;

static struct {
    pthread_mutex_t lock;      /* guards everything below */
    pthread_cond_t work, done;
    pthread_mutex_t launch;    /* one launch at a time */
    int started;               /* workers alive */
    unsigned long generation;  /* bumped for every launch */
    int participants;          /* workers 0 .. participants-1 run the current launch */
    int finished;              /* participants done with it */
    Job *job;
} pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, NULL };

typedef struct {
    int index;
} WorkerArg;

static void run_blocks(Job *j)
{
    for (;;) {
        long long b = atomic_fetch_add(&j->next, 1);
        if (b >= j->total) break;
        int64_t x = b % j->gx, y = (b / j->gx) % j->gy, z = b / (j->gx * j->gy);
        j->block(j->args, j->sizes, (int32_t)x, (int32_t)y, (int32_t)z);
    }
}

/* A worker outside the current launch's participants goes back to sleep
 * without touching the job, which lives on the launcher's stack. */
static void *worker(void *p)
{
    int index = (int)(intptr_t)p;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (pool.generation == seen) pthread_cond_wait(&pool.work, &pool.lock);
        seen = pool.generation;
        if (index >= pool.participants) continue;
        Job *j = pool.job;
        pthread_mutex_unlock(&pool.lock);
        run_blocks(j);
        pthread_mutex_lock(&pool.lock);
        if (++pool.finished == pool.participants) pthread_cond_signal(&pool.done);
    }
    return NULL;
}

/* A forked child has none of the parent's threads: start over with an empty pool. */
static void reset_after_fork(void)
{
    pthread_mutex_init(&pool.lock, NULL);
    pthread_mutex_init(&pool.launch, NULL);
    pthread_cond_init(&pool.work, NULL);
    pthread_cond_init(&pool.done, NULL);
    pool.started = 0;
    pool.participants = 0;
    pool.finished = 0;
    pool.job = NULL;
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void register_atfork(void) { pthread_atfork(NULL, NULL, reset_after_fork); }

/* Grows the pool to n workers; returns how many exist. Call with pool.lock held. */
static int grow(int n)
{
    pthread_once(&atfork_once, register_atfork);
    while (pool.started < n) {
        pthread_attr_t attr;
        pthread_t t;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, TK_WORKER_STACK);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &attr, worker, (void *)(intptr_t)pool.started);
        pthread_attr_destroy(&attr);
        if (rc != 0) break;
        pool.started++;
    }
    return pool.started;
}

int tk_cpu_threads(int requested)
{
    if (requested > 0) return requested > TK_MAX_THREADS ? TK_MAX_THREADS : requested;
    const char *env = getenv("TK_NUM_THREADS");
    if (env && atoi(env) > 0) return atoi(env) > TK_MAX_THREADS ? TK_MAX_THREADS : atoi(env);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n > TK_MAX_THREADS ? TK_MAX_THREADS : n) : 1;
}

/* This thread's stack as [*low, *high) (NULL if unknown), asked once. */
static void thread_stack(char **low, char **high)
{
    static _Thread_local char *lo, *hi;
    static _Thread_local bool known;
    if (!known) {
        pthread_attr_t attr;
        void *addr = NULL;
        size_t size = 0;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &addr, &size) != 0) addr = NULL;
            pthread_attr_destroy(&attr);
        }
        lo = addr;
        hi = addr ? (char *)addr + size : NULL;
        known = true;
    }
    *low = lo;
    *high = hi;
}

/* Running on a stack that is not the thread's own (a coroutine's, say) we
 * cannot tell the room left, so the answer is no. */
bool tk_cpu_caller_fits(int64_t stack_bytes)
{
    char here, *low, *high;
    thread_stack(&low, &high);
    if (stack_bytes <= 0 || !low || &here <= low || &here >= high) return false;
    return (uint64_t)(&here - low) >= (uint64_t)stack_bytes + TK_CALLER_STACK_MARGIN;
}

int tk_cpu_launch(TkGridFn grid, TkBlockFn block, void **args, const int64_t *sizes, int nthreads, char *err, size_t errlen)
{
    int64_t g[4] = { 1, 1, 1, -1 };   /* g[3]: a grid function from before it was reported leaves "unknown" */
    grid(args, sizes, g);
    if (g[0] <= 0 || g[1] <= 0 || g[2] <= 0) return 0;   /* an empty grid runs nothing */
    if (g[0] > INT32_MAX || g[1] > INT32_MAX || g[2] > INT32_MAX || g[0] * g[1] > INT64_MAX / g[2]) {
        snprintf(err, errlen, "grid %lld×%lld×%lld is too large", (long long)g[0], (long long)g[1], (long long)g[2]);
        return -1;
    }
    Job j = { .block = block, .args = args, .sizes = sizes, .gx = g[0], .gy = g[1] };
    j.total = g[0] * g[1] * g[2];
    atomic_init(&j.next, 0);
    int n = tk_cpu_threads(nthreads);
    if (n > j.total) n = (int)j.total;
    bool caller = tk_cpu_caller_fits(g[3]);
    if (caller && n == 1) {   /* alone: no atomics, no divisions (a 32³ product is ~0.6 µs) */
        for (int64_t z = 0; z < g[2]; z++)
            for (int64_t y = 0; y < g[1]; y++)
                for (int64_t x = 0; x < g[0]; x++) block(args, sizes, (int32_t)x, (int32_t)y, (int32_t)z);
        return 0;
    }
    int workers = caller ? n - 1 : n;

    pthread_mutex_lock(&pool.launch);
    pthread_mutex_lock(&pool.lock);
    if (grow(workers) == 0) {
        pthread_mutex_unlock(&pool.lock);
        pthread_mutex_unlock(&pool.launch);
        snprintf(err, errlen, "cannot start a worker thread");
        return -1;
    }
    pool.participants = workers < pool.started ? workers : pool.started;
    pool.job = &j;
    pool.finished = 0;
    pool.generation++;
    pthread_cond_broadcast(&pool.work);
    pthread_mutex_unlock(&pool.lock);
    if (caller) run_blocks(&j);
    pthread_mutex_lock(&pool.lock);
    while (pool.finished < pool.participants) pthread_cond_wait(&pool.done, &pool.lock);
    pool.job = NULL;
    pthread_mutex_unlock(&pool.lock);
    pthread_mutex_unlock(&pool.launch);
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
