/* cuda_aot.c — a program as a user writes it against `tkc -c --target=sm_80`
 * (aot_scale.tk → aot_scale.o + aot_scale.h) and libtkrt: device memory,
 * copies, scale2_cuda(...), copies back.
 *   cuda_aot FAKE.so   against the fake driver (fake_cuda.c): no driver first
 *                      (a message naming it), then the launch checked in the
 *                      fake's log — kernel, grid, block, parameters
 *   cuda_aot gpu       on a real GPU: the results checked (exit 77 without one)
 * Prints "cuda_aot: ok" and exits 0 when every check passed. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_scale.h"
#include "fake_cuda.h"

#define M 21
#define N 37

/* The fake's own calls, looked up in the same library the driver calls reach
 * (dlopen of one path gives one handle): the program links nothing but libtkrt,
 * so the same binary runs on a GPU machine. */
static int (*launch_count)(void);
static int (*launch_at)(int, TkFakeLaunch *);
static int (*live_allocations)(void);
static const void *(*host_view)(uint64_t);

static int failed;
#define CHECK(c, ...)                                            \
    do {                                                         \
        if (!(c)) {                                              \
            fprintf(stderr, "cuda_aot: FAIL %s: ", #c);          \
            fprintf(stderr, __VA_ARGS__);                        \
            fputc('\n', stderr);                                 \
            failed = 1;                                          \
        }                                                        \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cuda_aot FAKE_LIBCUDA | gpu\n");
        return 2;
    }
    bool gpu = strcmp(argv[1], "gpu") == 0;
    float x[M * N], y[M * N];
    for (int i = 0; i < M * N; i++) x[i] = (float)(i % 17) - 8.25f;
    if (!gpu) {
        /* no driver: every call says so, nothing crashes */
        setenv("TK_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
        tk_cuda_ptr p = 0;
        CHECK(tk_rt_cuda_malloc(&p, 64) == -1, "malloc without a driver succeeded");
        CHECK(strstr(tk_rt_error(), "no CUDA driver: cannot open /nonexistent/libcuda.so.1"), "'%s'", tk_rt_error());
        CHECK(scale2_cuda(0, 0, 1.0f, M, N) == -1, "a launch without a driver succeeded");
        setenv("TK_CUDA_LIBRARY", argv[1], 1);
        void *fake = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
        if (!fake) {
            fprintf(stderr, "cuda_aot: cannot open %s: %s\n", argv[1], dlerror());
            return 1;
        }
        *(void **)&launch_count = dlsym(fake, "tk_fake_cuda_launch_count");
        *(void **)&launch_at = dlsym(fake, "tk_fake_cuda_launch");
        *(void **)&live_allocations = dlsym(fake, "tk_fake_cuda_live_allocations");
        *(void **)&host_view = dlsym(fake, "tk_fake_cuda_host_view");
        if (!launch_count || !launch_at || !live_allocations || !host_view) {
            fprintf(stderr, "cuda_aot: %s is not the fake driver\n", argv[1]);
            return 1;
        }
    }
    char name[128];
    int sm;
    if (tk_rt_cuda_device(name, sizeof name, &sm) != 0) {
        if (gpu) {
            printf("SKIP: no NVIDIA GPU here: %s\n", tk_rt_error());
            return 77;
        }
        CHECK(0, "%s", tk_rt_error());
        return 1;
    }
    tk_cuda_ptr dx, dy;
    CHECK(tk_rt_cuda_malloc(&dx, sizeof x) == 0 && tk_rt_cuda_malloc(&dy, sizeof y) == 0, "%s", tk_rt_error());
    CHECK(tk_rt_cuda_to_device(dx, x, sizeof x) == 0, "%s", tk_rt_error());
    CHECK(scale2_cuda(dx, dy, -1.5f, M, N) == 0, "%s", tk_rt_error());
    CHECK(scale2_cuda(dx, dy, -1.5f, M, N) == 0, "%s", tk_rt_error());   /* the module is loaded once */
    if (gpu) {
        CHECK(tk_rt_cuda_to_host(y, dy, sizeof y) == 0, "%s", tk_rt_error());
        for (int i = 0; i < M * N; i++) CHECK(y[i] == -1.5f * x[i], "y[%d] = %g, want %g", i, y[i], -1.5f * x[i]);
    } else {
        CHECK(memcmp(host_view(dx), x, sizeof x) == 0, "the device copy of x differs");
        CHECK(launch_count() == 2, "%d launches", launch_count());
        TkFakeLaunch l;
        CHECK(launch_at(1, &l) == 0, "no launch recorded");
        CHECK(strcmp(l.name, "scale2") == 0, "kernel %s", l.name);
        CHECK(l.grid[0] == 2 && l.grid[1] == 3 && l.grid[2] == 1, "grid %u %u %u, want 2 3 1", l.grid[0], l.grid[1], l.grid[2]);
        CHECK(l.block[0] == 32 && l.block[1] == 1, "block %u %u", l.block[0], l.block[1]);
        uint64_t p0, p1, m, n;
        float s;
        memcpy(&p0, l.param[0], 8), memcpy(&p1, l.param[1], 8), memcpy(&s, l.param[2], 4), memcpy(&m, l.param[3], 8), memcpy(&n, l.param[4], 8);
        CHECK(l.nparams == 5 && p0 == dx && p1 == dy && s == -1.5f && m == M && n == N, "parameters %d: %llx %llx %g %llu %llu", l.nparams,
              (unsigned long long)p0, (unsigned long long)p1, s, (unsigned long long)m, (unsigned long long)n);
        /* a kernel record for a newer GPU than this one is refused by name */
        tk_rt_cuda_kernel newer = scale2__cuda_kernel;
        newer.sm = sm + 10;
        int64_t grid[3] = { 1, 1, 1 };
        void *params[5] = { &dx, &dy, &s, &m, &n };
        CHECK(tk_rt_cuda_launch(&newer, grid, params) == -1 && strstr(tk_rt_error(), "compiled for sm_"), "'%s'", tk_rt_error());
    }
    CHECK(tk_rt_cuda_free(dx) == 0 && tk_rt_cuda_free(dy) == 0, "%s", tk_rt_error());
    if (!gpu) CHECK(live_allocations() == 0, "%d allocations left", live_allocations());
    if (failed) return 1;
    printf("cuda_aot: ok (%s, sm_%d)\n", name, sm);
    return 0;
}
