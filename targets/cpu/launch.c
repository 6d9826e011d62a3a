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
 *
 * A launch ends when its last block is done, not when every worker has seen
 * it. On this VM a sleeping worker takes 25–85 µs to wake (the vCPU must be
 * woken), and waking the launcher again when the worker finishes costs as
 * much: waiting for both was 5–9% of a two-thread decode step (1 ms). So the
 * launch's description lives in the pool, not on the launcher's stack; a
 * worker joins it only while it is open (the `inside`/`open` handshake below),
 * and the launcher spins briefly for the last block before it sleeps.
 * After a launch a worker polls for the next one for 30 µs
 * (TK_WORKER_SPIN_US; 0 turns it off), then sleeps: back-to-back launches (a
 * model's layers, a benchmark's loop) find it awake instead of paying the
 * wake-up, which was a median ~50 µs here. Alternating 2-thread rounds,
 * 2026-12-02: 256³ f32 (_m32) 0.070 → 0.067 ms (faster in 10 of 10), 512³
 * bf16 0.279 → 0.265 ms (7 of 10), a cold 1×4096² bf16 decode step 0.620 →
 * 0.575 ms (5 of 8); 1024³ and 2048³ within ±1%. A 200 µs spin with `pause`
 * (2026-12-01) had been dropped when 256³ launches jumped to 0.5–1 ms; this
 * VM shows such outliers without any polling too (bench/README.md). */
#define _GNU_SOURCE   /* pthread_getattr_np */
#include "launch.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__) && defined(__x86_64__)
#include <sys/syscall.h>
#endif

#define TK_MAX_THREADS 256
#define TK_WORKER_STACK (64u << 20)
#define TK_CALLER_STACK_MARGIN (64 << 10)   /* left free below a block run on the caller */
#define TK_LAUNCHER_SPIN_NS 200000L        /* the launcher polls this long for the last block, then sleeps */
#define TK_WORKER_SPIN_US 30                /* a worker polls this long for the next launch, then sleeps */

/* The open launch. Its plain fields are written by the launcher only while no
 * worker can read them: `open` is false and `inside` is zero. A worker raises
 * `inside` and then reads `open`; the launcher clears `open` and then waits
 * for `inside` to drop to zero. With sequentially consistent atomics either
 * the worker sees the launch closed or the launcher sees the worker inside. */
typedef struct {
    TkBlockFn block;
    void **args;
    const int64_t *sizes;
    int64_t gx, gy, total;
    int participants;          /* workers 0 .. participants-1 may join */
    atomic_llong next;         /* the next block to hand out */
    atomic_llong done;         /* blocks finished */
    atomic_bool open;
    atomic_int inside;         /* workers between joining and leaving */
} Job;

static struct {
    pthread_mutex_t lock;      /* guards generation, started, launcher_asleep */
    pthread_cond_t work, done;
    pthread_mutex_t launch;    /* one launch at a time */
    int started;               /* workers alive */
    unsigned long generation;  /* bumped for every launch */
    bool launcher_asleep;      /* waiting on `done` for the last block */
    Job job;
    atomic_ulong published;    /* `generation`, for workers polling without the lock */
    long worker_spin_ns;       /* set before the first worker starts */
} pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, 0, 0, false, { 0 }, 0, 0 };

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Runs blocks until none are left. The thread that finishes the last block
 * wakes the launcher if it went to sleep (the launcher itself never needs to). */
static void run_blocks(Job *j, bool is_launcher)
{
    for (;;) {
        long long b = atomic_fetch_add(&j->next, 1);
        if (b >= j->total) break;
        int64_t x = b % j->gx, y = (b / j->gx) % j->gy, z = b / (j->gx * j->gy);
        j->block(j->args, j->sizes, (int32_t)x, (int32_t)y, (int32_t)z);
        if (atomic_fetch_add(&j->done, 1) + 1 == j->total && !is_launcher) {
            pthread_mutex_lock(&pool.lock);
            if (pool.launcher_asleep) pthread_cond_signal(&pool.done);
            pthread_mutex_unlock(&pool.lock);
        }
    }
}

static long elapsed_ns(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

/* Polls for a launch after `seen` for up to spin_ns. No `pause` in the loop:
 * under KVM a run of pauses exits to the host (pause-loop exiting). */
static void poll_for_launch(unsigned long seen, long spin_ns)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int polls = 1; atomic_load_explicit(&pool.published, memory_order_acquire) == seen; polls++)
        if (polls % 256 == 0 && elapsed_ns(&t0) > spin_ns) return;
}

/* A worker woken for a launch that has already ended finds it closed and goes
 * back to sleep; one woken late may join the next launch instead, which is as
 * good. */
static void *worker(void *p)
{
    int index = (int)(intptr_t)p;
    unsigned long seen = 0;
    Job *j = &pool.job;
    for (;;) {
        if (seen && pool.worker_spin_ns > 0) poll_for_launch(seen, pool.worker_spin_ns);
        pthread_mutex_lock(&pool.lock);
        while (pool.generation == seen) pthread_cond_wait(&pool.work, &pool.lock);
        seen = pool.generation;
        pthread_mutex_unlock(&pool.lock);
        atomic_fetch_add(&j->inside, 1);
        if (atomic_load(&j->open) && index < j->participants) run_blocks(j, false);
        atomic_fetch_sub(&j->inside, 1);
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
    pool.launcher_asleep = false;
    atomic_store(&pool.job.open, false);
    atomic_store(&pool.job.inside, 0);
    atomic_store(&pool.published, pool.generation);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void register_atfork(void) { pthread_atfork(NULL, NULL, reset_after_fork); }

/* Grows the pool to n workers; returns how many exist. Call with pool.lock held. */
static int grow(int n)
{
    pthread_once(&atfork_once, register_atfork);
    if (pool.started == 0) {
        const char *env = getenv("TK_WORKER_SPIN_US");
        pool.worker_spin_ns = 1000L * (env && *env ? atol(env) : TK_WORKER_SPIN_US);
    }
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

/* Spins a while for the last block (waking a sleeping launcher costs as much
 * as waking a worker), then sleeps until the thread that finishes it signals. */
static void wait_for_blocks(Job *j)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int polls = 0; atomic_load(&j->done) < j->total; polls++) {
        cpu_relax();
        if (polls % 64 != 63 || elapsed_ns(&t0) < TK_LAUNCHER_SPIN_NS) continue;
        pthread_mutex_lock(&pool.lock);
        pool.launcher_asleep = true;
        while (atomic_load(&j->done) < j->total) pthread_cond_wait(&pool.done, &pool.lock);
        pool.launcher_asleep = false;
        pthread_mutex_unlock(&pool.lock);
        return;
    }
}

bool tk_cpu_amx_permit(void)
{
#if defined(__linux__) && defined(__x86_64__)
    static atomic_int state;   /* 0: not asked yet, 1: granted, -1: refused */
    int s = atomic_load_explicit(&state, memory_order_acquire);
    if (s == 0) {
        enum { ARCH_REQ_XCOMP_PERM = 0x1023, XFEATURE_XTILEDATA = 18 };
        s = syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) == 0 ? 1 : -1;
        atomic_store_explicit(&state, s, memory_order_release);
    }
    return s == 1;
#else
    return false;
#endif
}

int tk_cpu_launch(TkGridFn grid, TkBlockFn block, void **args, const int64_t *sizes, int nthreads, char *err, size_t errlen)
{
    (void)tk_cpu_amx_permit();   /* a kernel may use AMX tiles; without the state it would fault */
    int64_t g[4] = { 1, 1, 1, -1 };   /* g[3]: a grid function from before it was reported leaves "unknown" */
    grid(args, sizes, g);
    if (g[0] <= 0 || g[1] <= 0 || g[2] <= 0) return 0;   /* an empty grid runs nothing */
    if (g[0] > INT32_MAX || g[1] > INT32_MAX || g[2] > INT32_MAX || g[0] * g[1] > INT64_MAX / g[2]) {
        snprintf(err, errlen, "grid %lld×%lld×%lld is too large", (long long)g[0], (long long)g[1], (long long)g[2]);
        return -1;
    }
    int64_t total = g[0] * g[1] * g[2];
    int n = tk_cpu_threads(nthreads);
    if (n > total) n = (int)total;
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
    int started = grow(workers);
    pthread_mutex_unlock(&pool.lock);
    if (started == 0) {
        pthread_mutex_unlock(&pool.launch);
        snprintf(err, errlen, "cannot start a worker thread");
        return -1;
    }
    Job *job = &pool.job;   /* closed, and no worker inside, since the last launch returned */
    job->block = block;
    job->args = args;
    job->sizes = sizes;
    job->gx = g[0];
    job->gy = g[1];
    job->total = g[0] * g[1] * g[2];
    job->participants = workers < started ? workers : started;
    atomic_store(&job->next, 0);
    atomic_store(&job->done, 0);
    atomic_store(&job->open, true);
    pthread_mutex_lock(&pool.lock);
    pool.generation++;
    atomic_store_explicit(&pool.published, pool.generation, memory_order_release);
    pthread_cond_broadcast(&pool.work);
    pthread_mutex_unlock(&pool.lock);
    if (caller) run_blocks(job, true);
    wait_for_blocks(job);
    atomic_store(&job->open, false);
    for (int spins = 0; atomic_load(&job->inside) > 0; spins++) {   /* a worker between joining and leaving */
        if (spins < 1000) cpu_relax();
        else sched_yield();
    }
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

char *tk_rt_error_buffer(size_t *len)
{
    *len = sizeof last_error;
    return last_error;
}
