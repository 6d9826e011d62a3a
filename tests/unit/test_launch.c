/* test_launch.c — targets/cpu/launch.c with hand-written grid and block
 * functions: every block runs exactly once, and a launch returns only after
 * its last block has finished, whichever thread ran it — also when a worker
 * wakes after the caller has run every block, joins a later launch instead,
 * catches a launch while it polls for one or after it went to sleep, or the
 * blocks cannot run on the caller at all. */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "launch.h"

enum { MAX_BLOCKS = 64 };

/* sizes: [0..2] the grid, [3] the stack a block reports (-1: leave grid[3]
 * alone, so only workers run blocks), [4] the block that is slow, [5] its
 * delay in µs. args[0] is a Counts. */
typedef struct {
    atomic_int ran[MAX_BLOCKS];
    atomic_int on_caller;
    pthread_t caller;
} Counts;

static void grid_fn(void **args, const int64_t *sizes, int64_t grid[4])
{
    (void)args;
    grid[0] = sizes[0];
    grid[1] = sizes[1];
    grid[2] = sizes[2];
    if (sizes[3] >= 0) grid[3] = sizes[3];
}

static void sleep_us(int64_t us)
{
    struct timespec t = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000 };
    nanosleep(&t, NULL);
}

static void block_fn(void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz)
{
    Counts *c = args[0];
    int64_t id = ((int64_t)bz * sizes[1] + by) * sizes[0] + bx;
    if (id == sizes[4] && sizes[5] > 0) sleep_us(sizes[5]);
    if (pthread_equal(pthread_self(), c->caller)) atomic_fetch_add(&c->on_caller, 1);
    atomic_fetch_add(&c->ran[id], 1);
}

/* Launches and checks, right after the launch returns, that each block ran once. */
static void launch_and_check(int64_t gx, int64_t gy, int64_t gz, int64_t stack, int64_t slow, int64_t delay_us, int threads)
{
    static Counts c;
    memset(&c, 0, sizeof c);
    c.caller = pthread_self();
    int64_t sizes[6] = { gx, gy, gz, stack, slow, delay_us };
    void *args[1] = { &c };
    char err[256] = "";
    ck_assert_msg(tk_cpu_launch(grid_fn, block_fn, args, sizes, threads, err, sizeof err) == 0, "launch: %s", err);
    int64_t total = gx * gy * gz;
    for (int64_t b = 0; b < MAX_BLOCKS; b++)
        ck_assert_msg(atomic_load(&c.ran[b]) == (b < total ? 1 : 0), "grid %lldx%lldx%lld, %d threads, slow block %lld: block %lld ran %d times",
                      (long long)gx, (long long)gy, (long long)gz, threads, (long long)slow, (long long)b, atomic_load(&c.ran[b]));
    if (stack < 0) ck_assert_msg(atomic_load(&c.on_caller) == 0, "a block that does not fit ran on the caller");
}

/* Back-to-back launches of a few short blocks: the caller usually runs them
 * all before a worker wakes, and the worker then finds the launch closed or
 * joins the next one. A slow block now and then (on whichever thread took
 * it) must still be waited for. */
START_TEST(every_block_once_back_to_back)
{
    for (int i = 0; i < 3000; i++) {
        int64_t blocks = 1 + i % 37;
        int64_t slow = i % 7 == 0 ? (i / 7) % blocks : -1;
        launch_and_check(blocks, 1, 1, 4096, slow, i % 14 == 0 ? 300 : 20, 1 + i % 4);
    }
}
END_TEST

/* Three-dimensional grids, each block index mapped back. */
START_TEST(every_block_once_3d)
{
    for (int i = 0; i < 200; i++) launch_and_check(1 + i % 4, 1 + i % 3, 1 + i % 5, 4096, -1, 0, 2 + i % 2);
}
END_TEST

/* The last block to finish runs on a worker long after the caller is done:
 * the launcher must sleep for it (not just spin a while) and be woken. */
START_TEST(launch_waits_for_a_slow_worker)
{
    for (int i = 0; i < 5; i++) launch_and_check(2, 1, 1, 4096, i % 2, 20000, 2);
}
END_TEST

/* Blocks whose stack does not fit the caller run on workers only, even with one thread. */
START_TEST(workers_only_when_the_caller_cannot_fit)
{
    for (int i = 0; i < 300; i++) launch_and_check(1 + i % 9, 1, 1, -1, i % 3 == 0 ? 0 : -1, 50, 1 + i % 3);
}
END_TEST

/* A worker polls for the next launch a while (TK_WORKER_SPIN_US, 30 µs by
 * default), then sleeps: launches that come while it polls, just after it gave
 * up, and long after must all reach it. Blocks that do not fit the caller run
 * on workers only, so a launch the worker missed would never return. */
START_TEST(workers_catch_launches_while_polling_and_after_sleeping)
{
    /* checked without ck_assert between launches: each one writes to Check's
     * log, which alone outlasts the polling window */
    static const int64_t gaps_us[] = { 0, 0, 0, 5, 20, 45, 100, 400 };
    static Counts c;
    int wrong = 0, first_wrong = -1;
    for (int i = 0; i < 800; i++) {
        int64_t blocks = 1 + i % 5, sizes[6] = { blocks, 1, 1, -1, -1, 0 };
        memset(&c, 0, sizeof c);
        c.caller = pthread_self();
        void *args[1] = { &c };
        char err[256] = "";
        bool ok = tk_cpu_launch(grid_fn, block_fn, args, sizes, 1 + i % 2, err, sizeof err) == 0 && atomic_load(&c.on_caller) == 0;
        for (int64_t b = 0; b < blocks; b++) ok = ok && atomic_load(&c.ran[b]) == 1;
        if (!ok && wrong++ == 0) first_wrong = i;
        if (gaps_us[i % 8]) sleep_us(gaps_us[i % 8]);
    }
    ck_assert_msg(wrong == 0, "%d of 800 launches ran a block other than once, or on the caller (first: %d)", wrong, first_wrong);
}
END_TEST

/* An empty grid runs nothing and succeeds; an absurd one is refused by name. */
START_TEST(empty_and_oversized_grids)
{
    launch_and_check(0, 1, 1, 4096, -1, 0, 2);
    static Counts c;
    int64_t sizes[6] = { (int64_t)1 << 40, 1, 1, 4096, -1, 0 };
    void *args[1] = { &c };
    char err[256] = "";
    ck_assert_int_eq(tk_cpu_launch(grid_fn, block_fn, args, sizes, 2, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "too large") != NULL, "the error says why: %s", err);
}
END_TEST

/* The thread count: an explicit request wins over TK_NUM_THREADS, which wins
 * over the core count; every answer is at least 1 and at most 256. */
START_TEST(thread_count_request_then_environment_then_cores)
{
    const char *saved = getenv("TK_NUM_THREADS");
    char *keep = saved ? strdup(saved) : NULL;
    setenv("TK_NUM_THREADS", "5", 1);
    ck_assert_int_eq(tk_cpu_threads(3), 3);
    ck_assert_int_eq(tk_cpu_threads(1), 1);
    ck_assert_int_eq(tk_cpu_threads(100000), 256);
    ck_assert_int_eq(tk_cpu_threads(0), 5);
    ck_assert_int_eq(tk_cpu_threads(-2), 5);
    setenv("TK_NUM_THREADS", "junk", 1);
    int cores = tk_cpu_threads(0);
    ck_assert_int_ge(cores, 1);
    ck_assert_int_le(cores, 256);
    unsetenv("TK_NUM_THREADS");
    ck_assert_int_eq(tk_cpu_threads(0), cores);
    if (keep) setenv("TK_NUM_THREADS", keep, 1);
    free(keep);
}
END_TEST

Suite *tk_suite_launch(void)
{
    Suite *s = suite_create("launch");
    TCase *tc = tcase_create("launch");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_block_once_back_to_back);
    tcase_add_test(tc, every_block_once_3d);
    tcase_add_test(tc, launch_waits_for_a_slow_worker);
    tcase_add_test(tc, workers_only_when_the_caller_cannot_fit);
    tcase_add_test(tc, workers_catch_launches_while_polling_and_after_sleeping);
    tcase_add_test(tc, empty_and_oversized_grids);
    tcase_add_test(tc, thread_count_request_then_environment_then_cores);
    suite_add_tcase(s, tc);
    return s;
}
