/* cuda_aot.c — a program as a user writes it against `tkc -c --target=sm_80`
 * (aot_scale.tk → aot_scale.o + aot_scale.h) and libtkrt: device memory,
 * copies, scale2_cuda(...), copies back. Then the same for `tkc -c
 * --target=sm_90a` kernels whose shared tiles the TMA loads (aot_tma.tk):
 * their launches carry a tensor map per tile after the sizes, made by
 * libtkrt from the launch's pointers and sizes.
 *   cuda_aot FAKE.so   against the fake driver (fake_cuda.c, as an sm_90
 *                      device): no driver first (a message naming it), then
 *                      the launches checked in the fake's log — kernel, grid,
 *                      block, parameters, and the encoding each map names
 *   cuda_aot gpu       on a real GPU: the results checked (exit 77 without
 *                      one; the sm_90a TMA kernels on Hopper only)
 * Prints "cuda_aot: ok" and exits 0 when every check passed. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_scale.h"
#include "aot_tma.h"
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
static int (*tensor_map)(const void *, TkFakeTensorMap *);
static int (*tensor_map_calls)(void);

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

/* ---- the TMA kernels (aot_tma.tk, sm_90a) ---- */

/* the last launch the fake logged, which must be of kernel `name` with n parameters */
static bool last_launch(const char *name, int n, TkFakeLaunch *l)
{
    memset(l, 0, sizeof *l);
    bool ok = launch_at(launch_count() - 1, l) == 0 && strcmp(l->name, name) == 0 && l->nparams == n;
    CHECK(ok, "the last launch is %s with %d parameters, want %s with %d", l->name, l->nparams, name, n);
    return ok;
}

static uint64_t u64_of(const TkFakeLaunch *l, int i)
{
    uint64_t v;
    memcpy(&v, l->param[i], 8);
    return v;
}

/* parameter i names an encoding of what `want` holds (the driver's enums as cuda.h numbers them) */
static void check_map(const TkFakeLaunch *l, int i, const TkFakeTensorMap *want)
{
    TkFakeTensorMap m;
    CHECK(l->param_size[i] == 128, "parameter %d is %d bytes, not a map's 128", i, l->param_size[i]);
    if (tensor_map(l->param[i], &m) < 0) {
        CHECK(0, "%s: parameter %d names no encoding", l->name, i);
        return;
    }
    CHECK(m.dtype == want->dtype && m.rank == want->rank, "%s: dtype %d rank %u", l->name, m.dtype, m.rank);
    CHECK(m.address == want->address, "%s: address %llx, want %llx", l->name, (unsigned long long)m.address,
          (unsigned long long)want->address);
    for (unsigned k = 0; k < want->rank && k < 5; k++) {
        CHECK(m.dims[k] == want->dims[k], "%s: dims[%u] = %llu, want %llu", l->name, k, (unsigned long long)m.dims[k],
              (unsigned long long)want->dims[k]);
        CHECK(m.box[k] == want->box[k], "%s: box[%u] = %u, want %u", l->name, k, m.box[k], want->box[k]);
        CHECK(m.element_strides[k] == 1, "%s: element_strides[%u] = %u", l->name, k, m.element_strides[k]);
        if (k + 1 < want->rank)
            CHECK(m.strides[k] == want->strides[k], "%s: strides[%u] = %llu, want %llu", l->name, k, (unsigned long long)m.strides[k],
                  (unsigned long long)want->strides[k]);
    }
    CHECK(m.swizzle == want->swizzle && m.interleave == 0 && m.oob_fill == 0, "%s: swizzle %d interleave %d oob fill %d", l->name,
          m.swizzle, m.interleave, m.oob_fill);
}

static void check_zero_map(const TkFakeLaunch *l, int i)
{
    static const unsigned char zeros[TK_FAKE_CUDA_PARAM_BYTES];
    CHECK(l->param_size[i] == 128 && memcmp(l->param[i], zeros, sizeof zeros) == 0, "%s: parameter %d is not a zeroed map", l->name, i);
}

/* Y, read back, equals X (gpu) */
static void check_copied(tk_cuda_ptr dy, const void *x, size_t bytes, const char *what)
{
    void *y = malloc(bytes);
    CHECK(y && tk_rt_cuda_to_host(y, dy, bytes) == 0, "%s", tk_rt_error());
    CHECK(y && memcmp(y, x, bytes) == 0, "%s: Y differs from X", what);
    free(y);
}

static void tma_checks(bool gpu)
{
    enum { TM = 37, TN = 200, TN_ODD = 101 };   /* 3 x 4 tiles, partial at the edges; rows of 400 bytes, or 202 */
    static uint16_t x[TM * TN];
    for (int i = 0; i < TM * TN; i++) x[i] = (uint16_t)(0x3f80 + (i * 37) % 1000);   /* bf16 bit patterns */
    tk_cuda_ptr dx, dy;
    CHECK(tk_rt_cuda_malloc(&dx, sizeof x) == 0 && tk_rt_cuda_malloc(&dy, sizeof x) == 0, "%s", tk_rt_error());
    CHECK(tk_rt_cuda_to_device(dx, x, sizeof x) == 0, "%s", tk_rt_error());
    TkFakeLaunch l;

    /* the map describes X: 128-byte rows of a 16 x 64 tile */
    int calls = gpu ? 0 : tensor_map_calls();
    CHECK(tma_copy_cuda(dx, dy, TM, TN) == 0, "%s", tk_rt_error());
    if (gpu) {
        check_copied(dy, x, sizeof x, "tma_copy");
    } else if (last_launch("tma_copy", 5, &l)) {   /* X, Y, M, N, the map */
        CHECK(l.grid[0] == 4 && l.grid[1] == 3 && l.block[0] == 128, "grid %u %u block %u", l.grid[0], l.grid[1], l.block[0]);
        CHECK(u64_of(&l, 0) == dx && u64_of(&l, 1) == dy && u64_of(&l, 2) == TM && u64_of(&l, 3) == TN, "tma_copy's parameters");
        check_map(&l, 4, &(TkFakeTensorMap){ .dtype = 9, .rank = 2, .address = dx, .dims = { TN, TM }, .strides = { TN * 2 },
                                             .box = { 64, 16 }, .swizzle = 3 });
        CHECK(tensor_map_calls() == calls + 1, "%d encodings for one map", tensor_map_calls() - calls);
    }

    /* rows of 202 bytes, and a base 2 bytes past 16: zeroed maps, the driver not asked */
    CHECK(tma_copy_cuda(dx, dy, TM, TN_ODD) == 0, "%s", tk_rt_error());
    if (gpu) {
        check_copied(dy, x, (size_t)TM * TN_ODD * 2, "tma_copy of 101 columns");
    } else if (last_launch("tma_copy", 5, &l)) {
        CHECK(u64_of(&l, 3) == TN_ODD, "N = %llu", (unsigned long long)u64_of(&l, 3));
        check_zero_map(&l, 4);
    }
    CHECK(tma_copy_cuda(dx + 2, dy, TM - 1, TN) == 0, "%s", tk_rt_error());
    if (gpu) {
        check_copied(dy, x + 1, (size_t)(TM - 1) * TN * 2, "tma_copy from 2 bytes in");
    } else if (last_launch("tma_copy", 5, &l)) {
        CHECK(u64_of(&l, 0) == dx + 2, "X = %llx", (unsigned long long)u64_of(&l, 0));
        check_zero_map(&l, 4);
        CHECK(tensor_map_calls() == calls + 1, "the driver was asked for maps nobody reads");
    }

    /* two maps in the order of the loads: A's, then X's (rank 3, f32, rows of 2·K computed on the host) */
    enum { TB = 3, TM3 = 21, TK = 24, TW = 2 * TK, TN3 = 56 };   /* rows of 192 and 112 bytes */
    static float x3[TB * TM3 * TW];
    for (int i = 0; i < TB * TM3 * TW; i++) x3[i] = (float)(i % 29) - 14.5f;
    tk_cuda_ptr dx3, dy3, da, dc, dv;
    CHECK(tk_rt_cuda_malloc(&dx3, sizeof x3) == 0 && tk_rt_cuda_malloc(&dy3, sizeof x3) == 0 &&
              tk_rt_cuda_malloc(&da, TM3 * TN3 * 2) == 0 && tk_rt_cuda_malloc(&dc, TM3 * TN3 * 2) == 0 &&
              tk_rt_cuda_malloc(&dv, TK * sizeof(float)) == 0, "%s", tk_rt_error());
    CHECK(tk_rt_cuda_to_device(dx3, x3, sizeof x3) == 0 && tk_rt_cuda_to_device(da, x, TM3 * TN3 * 2) == 0, "%s", tk_rt_error());
    CHECK(tma_pair_cuda(dx3, da, dy3, dc, dv, TB, TM3, TK, TN3) == 0, "%s", tk_rt_error());
    if (gpu) {
        check_copied(dy3, x3, sizeof x3, "tma_pair's Y");
        check_copied(dc, x, TM3 * TN3 * 2, "tma_pair's C");
    } else if (last_launch("tma_pair", 11, &l)) {   /* X, A, Y, C, V, B, M, K, N, the two maps */
        CHECK(l.grid[0] == 3 && l.grid[1] == 2 && l.grid[2] == 3, "grid %u %u %u", l.grid[0], l.grid[1], l.grid[2]);
        CHECK(u64_of(&l, 5) == TB && u64_of(&l, 6) == TM3 && u64_of(&l, 7) == TK && u64_of(&l, 8) == TN3, "tma_pair's sizes");
        check_map(&l, 9, &(TkFakeTensorMap){ .dtype = 9, .rank = 2, .address = da, .dims = { TN3, TM3 }, .strides = { TN3 * 2 },
                                             .box = { 64, 16 }, .swizzle = 3 });
        check_map(&l, 10, &(TkFakeTensorMap){ .dtype = 7, .rank = 3, .address = dx3, .dims = { TW, TM3, TB },
                                              .strides = { TW * 4, TW * 4 * TM3 }, .box = { 16, 16, 1 }, .swizzle = 2 });
    }
    CHECK(tk_rt_cuda_free(dx) == 0 && tk_rt_cuda_free(dy) == 0 && tk_rt_cuda_free(dx3) == 0 && tk_rt_cuda_free(dy3) == 0 &&
              tk_rt_cuda_free(da) == 0 && tk_rt_cuda_free(dc) == 0 && tk_rt_cuda_free(dv) == 0, "%s", tk_rt_error());
}

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
        setenv("TK_FAKE_CUDA_SM", "90", 1);   /* a Hopper part: the TMA kernels run */
        void *fake = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
        if (!fake) {
            fprintf(stderr, "cuda_aot: cannot open %s: %s\n", argv[1], dlerror());
            return 1;
        }
        *(void **)&launch_count = dlsym(fake, "tk_fake_cuda_launch_count");
        *(void **)&launch_at = dlsym(fake, "tk_fake_cuda_launch");
        *(void **)&live_allocations = dlsym(fake, "tk_fake_cuda_live_allocations");
        *(void **)&host_view = dlsym(fake, "tk_fake_cuda_host_view");
        *(void **)&tensor_map = dlsym(fake, "tk_fake_cuda_tensor_map");
        *(void **)&tensor_map_calls = dlsym(fake, "tk_fake_cuda_tensor_map_calls");
        if (!launch_count || !launch_at || !live_allocations || !host_view || !tensor_map || !tensor_map_calls) {
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
    bool tma = !gpu || sm / 10 == 9;   /* sm_90a code runs on Hopper alone */
    if (tma) tma_checks(gpu);
    else printf("cuda_aot: the TMA kernels (sm_90a) not run: this GPU is sm_%d\n", sm);
    if (!gpu) CHECK(live_allocations() == 0, "%d allocations left", live_allocations());
    if (failed) return 1;
    printf("cuda_aot: ok (%s, sm_%d%s)\n", name, sm, tma ? ", TMA maps" : "");
    return 0;
}
