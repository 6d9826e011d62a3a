/* test_cuda_runtime.c — the tensor runtime's CUDA device (TK_DEVICE_CUDA,
 * runtime/core/device_cuda.c) against the fake driver (fake_cuda.c): no GPU
 * runs anything, but everything the runtime hands the driver is checked —
 * the memory tensors live in, the bytes copied each way, which kernel is
 * launched on which grid with which parameters, and that the host never
 * touches device memory (the fake's device pointers fault if it does); on
 * sm_90, the TMA maps a launch carries after the sizes (which tensor, dims,
 * strides, box, swizzle), and the zeroed map of a tensor the TMA cannot
 * describe. And the messages of a machine whose driver sees no GPU or an old
 * one. argv[1]: the fake driver library. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cuda.h"
#include "tk/tk.h"

static tk_context *cpu, *gpu;

static void setup(void)
{
    tk_fake_cuda_reset();
    ck_assert_int_eq(tk_context_create(NULL, &cpu), TK_OK);
    tk_context_opts o = { .device = TK_DEVICE_CUDA };
    ck_assert_msg(tk_context_create(&o, &gpu) == TK_OK, "%s", tk_last_error(NULL));
}

static void teardown(void)
{
    tk_context_free(gpu);
    tk_context_free(cpu);
    /* every block went back to the driver, and the device's context was released */
    ck_assert_int_eq(tk_fake_cuda_live_allocations(), 0);
    ck_assert_int_eq(tk_fake_cuda_contexts_retained(), 0);
}

#define OK(ctx, call)                                                                                         \
    do {                                                                                                      \
        tk_status s_ = (call);                                                                                \
        ck_assert_msg(s_ == TK_OK, "%s failed (status %d): %s", #call, (int)s_, tk_last_error(ctx));          \
    } while (0)

#define expect_fail(ctx, call, want, needle) expect_fail_at((ctx), (call), (want), (needle), #call)
static void expect_fail_at(tk_context *ctx, tk_status got, tk_status want, const char *needle, const char *what)
{
    const char *msg = tk_last_error(ctx);
    ck_assert_msg(got == want, "%s: expected status %d, got %d (%s)", what, (int)want, (int)got, msg);
    ck_assert_msg(strstr(msg, needle), "%s: message '%s' does not mention '%s'", what, msg, needle);
}

static bool same_bytes(const tk_tensor *a, const tk_tensor *b)
{
    size_t n = (size_t)tk_tensor_numel(a) * tk_dtype_size(tk_tensor_dtype(a));
    return n == (size_t)tk_tensor_numel(b) * tk_dtype_size(tk_tensor_dtype(b)) && memcmp(tk_tensor_data(a), tk_tensor_data(b), n) == 0;
}

START_TEST(tensors_live_in_device_memory)
{
    ck_assert_int_eq(tk_context_device(gpu), TK_DEVICE_CUDA);
    ck_assert_msg(strstr(tk_context_device_name(gpu), "fake GPU") && strstr(tk_context_device_name(gpu), "sm_90"), "%s",
                  tk_context_device_name(gpu));
    tk_tensor *x, *g, *back;
    OK(cpu, tk_randn(cpu, TK_DTYPE_F32, 2, (int64_t[]){ 37, 53 }, 1, &x));
    OK(gpu, tk_tensor_to(gpu, x, &g));
    /* the tensor's data is a device address holding x's bytes */
    uint64_t d = (uint64_t)(uintptr_t)tk_tensor_data(g);
    ck_assert(d & TK_FAKE_CUDA_DEVICE_BIT);
    ck_assert(tk_fake_cuda_live_bytes() >= 37 * 53 * 4);
    ck_assert_mem_eq(tk_fake_cuda_host_view(d), tk_tensor_data(x), 37 * 53 * 4);
    OK(cpu, tk_tensor_to(cpu, g, &back));
    ck_assert(same_bytes(back, x));
    /* a transposed view made contiguous on the device: staged through the host, right values */
    tk_tensor *gt, *gtc, *xt, *xtc, *gtc_back;
    OK(gpu, tk_transpose(gpu, g, 0, 1, &gt));
    OK(gpu, tk_contiguous(gpu, gt, &gtc));
    OK(cpu, tk_transpose(cpu, x, 0, 1, &xt));
    OK(cpu, tk_contiguous(cpu, xt, &xtc));
    OK(cpu, tk_tensor_to(cpu, gtc, &gtc_back));
    ck_assert(same_bytes(gtc_back, xtc));
    /* CPU ops refuse it instead of reading device memory */
    tk_tensor *y = NULL;
    expect_fail(gpu, tk_add(gpu, g, g, &y), TK_ERR_UNSUPPORTED, "does not run on device cuda (TileKit fake GPU");
    expect_fail(cpu, tk_add(cpu, x, g, &y), TK_ERR_INVALID_ARGUMENT, "lives on device cuda");
    ck_assert_ptr_null(y);
    tk_tensor *all[] = { x, g, back, gt, gtc, xt, xtc, gtc_back };
    for (unsigned i = 0; i < sizeof all / sizeof *all; i++) tk_tensor_release(all[i]);
}
END_TEST

static const char scale_src[] = "kernel scale2(gl<f32, M, N> X, gl<f32, M, N> Y, f32 s) grid(cdiv(M, 16), cdiv(N, 16)) warps(1)\n"
                                "{\n"
                                "    rt<f32, 16, 16> x = load(X, block.x, block.y);\n"
                                "    store(Y, mul(x, s), block.x, block.y);\n"
                                "}\n";

static uint64_t u64_at(const TkFakeLaunch *l, int i)
{
    uint64_t v;
    memcpy(&v, l->param[i], 8);
    return v;
}

START_TEST(tk_call_hands_the_driver_the_launch)
{
    tk_program *p, *emu;
    tk_compile_options o = { .target = "sm_90" }, eo = { .target = "sm_80-emu" };
    ck_assert_int_eq(tk_compile_source("scale.tk", scale_src, sizeof scale_src - 1, &o, &p, NULL), TK_OK);
    ck_assert_int_eq(tk_compile_source("scale.tk", scale_src, sizeof scale_src - 1, &eo, &emu, NULL), TK_OK);
    tk_tensor *x, *y;
    OK(gpu, tk_randn(gpu, TK_DTYPE_F32, 2, (int64_t[]){ 21, 37 }, 3, &x));
    OK(gpu, tk_empty(gpu, TK_DTYPE_F32, 2, (int64_t[]){ 21, 37 }, &y));
    tk_call_arg args[3] = { TK_CALL_TENSOR(x), TK_CALL_TENSOR(y), TK_CALL_F32(-1.5) };
    tk_fake_cuda_reset();
    OK(gpu, tk_call(gpu, tk_program_kernel(p, "scale2"), args, 3));
    OK(gpu, tk_call(gpu, tk_program_kernel(p, "scale2"), args, 3));   /* the module is loaded once, launched twice */
    ck_assert_int_eq(tk_fake_cuda_launch_count(), 2);
    TkFakeLaunch l;
    ck_assert_int_eq(tk_fake_cuda_launch(1, &l), 0);
    ck_assert_str_eq(l.name, "scale2");
    ck_assert_uint_eq(l.grid[0], 2);   /* cdiv(21, 16) */
    ck_assert_uint_eq(l.grid[1], 3);   /* cdiv(37, 16) */
    ck_assert_uint_eq(l.grid[2], 1);
    ck_assert_uint_eq(l.block[0], 32);   /* warps(1) */
    /* parameters: X, Y, s, then the sizes M and N */
    ck_assert_int_eq(l.nparams, 5);
    ck_assert(u64_at(&l, 0) == (uint64_t)(uintptr_t)tk_tensor_data(x));
    ck_assert(u64_at(&l, 1) == (uint64_t)(uintptr_t)tk_tensor_data(y));
    float s;
    memcpy(&s, l.param[2], 4);
    ck_assert(s == -1.5f);
    ck_assert(u64_at(&l, 3) == 21 && u64_at(&l, 4) == 37);
    /* a kernel for the emulator is named and refused */
    tk_status st = tk_call(gpu, tk_program_kernel(emu, "scale2"), args, 3);
    expect_fail(gpu, st, TK_ERR_TARGET, "compiled for sm_80-emu");
    tk_tensor_release(x);
    tk_tensor_release(y);
    tk_program_free(p);
    tk_program_free(emu);
}
END_TEST

START_TEST(matmul_launches_the_stdlib_gemm)
{
    tk_tensor *a, *b, *c;
    OK(gpu, tk_randn(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ 100, 70 }, 4, &a));
    OK(gpu, tk_randn(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ 70, 90 }, 5, &b));
    tk_fake_cuda_reset();
    OK(gpu, tk_matmul(gpu, a, b, &c));
    ck_assert_int_eq(tk_tensor_dtype(c), TK_DTYPE_BF16);
    ck_assert_int_eq(tk_fake_cuda_launch_count(), 1);
    TkFakeLaunch l;
    tk_fake_cuda_launch(0, &l);
    ck_assert_msg(strncmp(l.name, "gemm_bf16_ep_bf16", 17) == 0, "%s", l.name);
    /* the bf16 GPU configuration: 128x128 per block, staged through shared
     * tiles by 8 warps of 32x64 (docs/stdlib/gemm.md) */
    ck_assert_uint_eq(l.grid[0], 1);   /* cdiv(90, 128) */
    ck_assert_uint_eq(l.grid[1], 1);   /* cdiv(100, 128) */
    ck_assert_uint_eq(l.block[0], 256);
    ck_assert(u64_at(&l, 0) == (uint64_t)(uintptr_t)tk_tensor_data(a));
    ck_assert(u64_at(&l, 4) == (uint64_t)(uintptr_t)tk_tensor_data(c));
    tk_tensor_release(a);
    tk_tensor_release(b);
    tk_tensor_release(c);
}
END_TEST

/* ---- TMA maps (sm_90: lower/gpu/gpu_tma.c) ---- */

static void setup_sm90(void)
{
    setenv("TK_FAKE_CUDA_SM", "90", 1);
    setup();
    ck_assert_msg(strstr(tk_context_device_name(gpu), "sm_90"), "%s", tk_context_device_name(gpu));
}

static void teardown_sm90(void)
{
    teardown();
    unsetenv("TK_FAKE_CUDA_SM");
}

/* a 16 x 64 bf16 tile: 128-byte rows, one SWIZZLE_128B box of {64, 16} */
static const char copy_src[] = "kernel copy(gl<bf16, M, N> X, gl<bf16, M, N> Y) grid(cdiv(N, 64), cdiv(M, 16)) warps(4)\n"
                               "{\n"
                               "    st<bf16, 16, 64> s;\n"
                               "    s = load(X, block.y, block.x);\n"
                               "    sync();\n"
                               "    store(Y, s, block.y, block.x);\n"
                               "}\n";

/* three maps in the order of the loads: W's (f32, rank 3, 64-byte rows),
 * then X's 16 x 64 and X's 32 x 64 box; c reuses a's map */
static const char maps_src[] =
    "kernel maps(gl<bf16, M, N> X, gl<f32, B, M, K> W, gl<bf16, M, N> Y, gl<f32, B, M, K> Z)\n"
    "    grid(cdiv(N, 64), cdiv(M, 32), B) warps(4)\n"
    "{\n"
    "    st<f32, 16, 16> w;\n"
    "    st<bf16, 16, 64> a;\n"
    "    st<bf16, 32, 64> b;\n"
    "    st<bf16, 16, 64> c;\n"
    "    w = load(W, block.z, block.y, block.x);\n"
    "    a = load(X, block.y, block.x);\n"
    "    b = load(X, block.y, block.x);\n"
    "    c = load(X, block.y, block.x);\n"
    "    sync();\n"
    "    store(Z, w, block.z, block.y, block.x);\n"
    "    store(Y, a, block.y, block.x);\n"
    "    store(Y, b, block.y, block.x);\n"
    "    store(Y, c, block.y, block.x);\n"
    "}\n";

static tk_kernel *compile_sm90(const char *name, const char *src, size_t len, tk_program **p)
{
    tk_compile_options o = { .target = "sm_90" };
    char *diags = NULL;
    tk_status st = tk_compile_source(name, src, len, &o, p, &diags);
    ck_assert_msg(st == TK_OK, "%s: %s", name, diags ? diags : "");
    tk_free(diags);
    tk_kernel *k = tk_program_kernel(*p, name);
    ck_assert_ptr_nonnull(k);
    return k;
}

static uint64_t dev(const tk_tensor *t) { return (uint64_t)(uintptr_t)tk_tensor_data(t); }

/* What launch parameter i must name: the driver's enums as cuda.h numbers them. */
typedef struct {
    int dtype;   /* BFLOAT16 9, FLOAT32 7 */
    unsigned rank;
    uint64_t address, dims[3], strides[2];
    uint32_t box[3];
    int swizzle;   /* 64B 2, 128B 3 */
} WantMap;

static void expect_map(const TkFakeLaunch *l, int i, const WantMap *w)
{
    ck_assert_int_eq(l->param_size[i], 128);
    TkFakeTensorMap m;
    ck_assert_msg(tk_fake_cuda_tensor_map(l->param[i], &m) >= 0, "parameter %d names no encoding", i);
    ck_assert_msg(m.dtype == w->dtype && m.rank == w->rank, "parameter %d: dtype %d rank %u, want %d %u", i, m.dtype, m.rank, w->dtype,
                  w->rank);
    ck_assert_msg(m.address == w->address, "parameter %d: address %llx, want %llx", i, (unsigned long long)m.address,
                  (unsigned long long)w->address);
    for (unsigned k = 0; k < w->rank; k++) {
        ck_assert_msg(m.dims[k] == w->dims[k], "parameter %d: dims[%u] = %llu, want %llu", i, k, (unsigned long long)m.dims[k],
                      (unsigned long long)w->dims[k]);
        ck_assert_msg(m.box[k] == w->box[k], "parameter %d: box[%u] = %u, want %u", i, k, m.box[k], w->box[k]);
        ck_assert_int_eq(m.element_strides[k], 1);
        if (k + 1 < w->rank)
            ck_assert_msg(m.strides[k] == w->strides[k], "parameter %d: strides[%u] = %llu, want %llu", i, k,
                          (unsigned long long)m.strides[k], (unsigned long long)w->strides[k]);
    }
    ck_assert_msg(m.swizzle == w->swizzle, "parameter %d: swizzle %d, want %d", i, m.swizzle, w->swizzle);
    ck_assert_int_eq(m.interleave, 0);
    ck_assert_int_eq(m.oob_fill, 0);   /* outside the tensor reads as zeros */
}

static void expect_zero_map(const TkFakeLaunch *l, int i)
{
    static const unsigned char zeros[TK_FAKE_CUDA_PARAM_BYTES];
    ck_assert_int_eq(l->param_size[i], 128);
    ck_assert_msg(memcmp(l->param[i], zeros, sizeof zeros) == 0, "parameter %d is not a zeroed map", i);
}

START_TEST(tk_call_hands_a_tma_kernel_its_map)
{
    tk_program *p;
    tk_kernel *k = compile_sm90("copy", copy_src, sizeof copy_src - 1, &p);
    const int64_t M = 37, N = 200;   /* 3 x 4 tiles, the last ones partial; rows of 400 bytes */
    tk_tensor *x, *y;
    OK(gpu, tk_randn(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ M, N }, 7, &x));
    OK(gpu, tk_empty(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ M, N }, &y));
    tk_call_arg args[2] = { TK_CALL_TENSOR(x), TK_CALL_TENSOR(y) };
    tk_fake_cuda_reset();
    OK(gpu, tk_call(gpu, k, args, 2));
    ck_assert_int_eq(tk_fake_cuda_launch_count(), 1);
    ck_assert_int_eq(tk_fake_cuda_tensor_map_calls(), 1);
    TkFakeLaunch l;
    ck_assert_int_eq(tk_fake_cuda_launch(0, &l), 0);
    ck_assert_str_eq(l.name, "copy");
    ck_assert_uint_eq(l.grid[0], 4);   /* cdiv(200, 64) */
    ck_assert_uint_eq(l.grid[1], 3);   /* cdiv(37, 16) */
    ck_assert_uint_eq(l.block[0], 128);
    /* X, Y, M, N, then the map */
    ck_assert_int_eq(l.nparams, 5);
    ck_assert(u64_at(&l, 0) == dev(x) && u64_at(&l, 1) == dev(y));
    ck_assert(u64_at(&l, 2) == (uint64_t)M && u64_at(&l, 3) == (uint64_t)N);
    expect_map(&l, 4, &(WantMap){ 9, 2, dev(x), { N, M }, { N * 2 }, { 64, 16 }, 3 });

    /* rows of 202 bytes are not whole 16-byte chunks: the kernel loads element by element, its map is zeros */
    tk_tensor *x2, *y2;
    const int64_t N2 = 101;
    OK(gpu, tk_randn(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ M, N2 }, 8, &x2));
    OK(gpu, tk_empty(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ M, N2 }, &y2));
    tk_call_arg args2[2] = { TK_CALL_TENSOR(x2), TK_CALL_TENSOR(y2) };
    OK(gpu, tk_call(gpu, k, args2, 2));
    ck_assert_int_eq(tk_fake_cuda_launch_count(), 2);
    ck_assert_int_eq(tk_fake_cuda_tensor_map_calls(), 1);   /* the driver was not asked */
    ck_assert_int_eq(tk_fake_cuda_launch(1, &l), 0);
    ck_assert_int_eq(l.nparams, 5);
    ck_assert(u64_at(&l, 0) == dev(x2) && u64_at(&l, 3) == (uint64_t)N2);
    expect_zero_map(&l, 4);

    /* a view 2 bytes into its storage: rows of 400 bytes, but the base is not 16-byte aligned */
    tk_tensor *flat, *tail, *xv;
    OK(gpu, tk_empty(gpu, TK_DTYPE_BF16, 1, (int64_t[]){ 1 + M * N }, &flat));
    OK(gpu, tk_slice(gpu, flat, 0, 1, 1 + M * N, 1, &tail));
    OK(gpu, tk_view(gpu, tail, 2, (int64_t[]){ M, N }, &xv));
    ck_assert_uint_eq(dev(xv), dev(flat) + 2);
    tk_call_arg args3[2] = { TK_CALL_TENSOR(xv), TK_CALL_TENSOR(y) };
    OK(gpu, tk_call(gpu, k, args3, 2));
    ck_assert_int_eq(tk_fake_cuda_tensor_map_calls(), 1);
    ck_assert_int_eq(tk_fake_cuda_launch(2, &l), 0);
    ck_assert(u64_at(&l, 0) == dev(flat) + 2);
    expect_zero_map(&l, 4);

    tk_tensor *all[] = { x, y, x2, y2, flat, tail, xv };
    for (unsigned i = 0; i < sizeof all / sizeof *all; i++) tk_tensor_release(all[i]);
    tk_program_free(p);
}
END_TEST

START_TEST(tk_call_hands_the_maps_in_the_plans_order)
{
    tk_program *p;
    tk_kernel *k = compile_sm90("maps", maps_src, sizeof maps_src - 1, &p);
    const int64_t B = 3, M = 37, N = 200, K = 20;   /* rows of 400 and 80 bytes */
    tk_tensor *x, *w, *y, *z;
    OK(gpu, tk_randn(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ M, N }, 9, &x));
    OK(gpu, tk_randn(gpu, TK_DTYPE_F32, 3, (int64_t[]){ B, M, K }, 10, &w));
    OK(gpu, tk_empty(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ M, N }, &y));
    OK(gpu, tk_empty(gpu, TK_DTYPE_F32, 3, (int64_t[]){ B, M, K }, &z));
    tk_call_arg args[4] = { TK_CALL_TENSOR(x), TK_CALL_TENSOR(w), TK_CALL_TENSOR(y), TK_CALL_TENSOR(z) };
    tk_fake_cuda_reset();
    OK(gpu, tk_call(gpu, k, args, 4));
    TkFakeLaunch l;
    ck_assert_int_eq(tk_fake_cuda_launch(0, &l), 0);
    ck_assert_uint_eq(l.grid[0], 4);
    ck_assert_uint_eq(l.grid[1], 2);
    ck_assert_uint_eq(l.grid[2], 3);
    /* X, W, Y, Z, the sizes M, N, B, K (first seen in that order), three maps */
    ck_assert_int_eq(l.nparams, 4 + 4 + 3);
    ck_assert(u64_at(&l, 0) == dev(x) && u64_at(&l, 1) == dev(w));
    ck_assert(u64_at(&l, 4) == (uint64_t)M && u64_at(&l, 5) == (uint64_t)N && u64_at(&l, 6) == (uint64_t)B && u64_at(&l, 7) == (uint64_t)K);
    ck_assert_int_eq(tk_fake_cuda_tensor_map_calls(), 3);
    expect_map(&l, 8, &(WantMap){ 7, 3, dev(w), { K, M, B }, { K * 4, K * 4 * M }, { 16, 16, 1 }, 2 });
    expect_map(&l, 9, &(WantMap){ 9, 2, dev(x), { N, M }, { N * 2 }, { 64, 16 }, 3 });
    expect_map(&l, 10, &(WantMap){ 9, 2, dev(x), { N, M }, { N * 2 }, { 64, 32 }, 3 });

    /* W with rows of 72 bytes: its map alone is zeros */
    tk_tensor *w2, *z2;
    const int64_t K2 = 18;
    OK(gpu, tk_randn(gpu, TK_DTYPE_F32, 3, (int64_t[]){ B, M, K2 }, 11, &w2));
    OK(gpu, tk_empty(gpu, TK_DTYPE_F32, 3, (int64_t[]){ B, M, K2 }, &z2));
    tk_call_arg args2[4] = { TK_CALL_TENSOR(x), TK_CALL_TENSOR(w2), TK_CALL_TENSOR(y), TK_CALL_TENSOR(z2) };
    OK(gpu, tk_call(gpu, k, args2, 4));
    ck_assert_int_eq(tk_fake_cuda_launch(1, &l), 0);
    ck_assert_int_eq(l.nparams, 11);
    ck_assert(u64_at(&l, 7) == (uint64_t)K2);
    ck_assert_int_eq(tk_fake_cuda_tensor_map_calls(), 5);
    expect_zero_map(&l, 8);
    expect_map(&l, 9, &(WantMap){ 9, 2, dev(x), { N, M }, { N * 2 }, { 64, 16 }, 3 });
    expect_map(&l, 10, &(WantMap){ 9, 2, dev(x), { N, M }, { N * 2 }, { 64, 32 }, 3 });

    tk_tensor *all[] = { x, w, y, z, w2, z2 };
    for (unsigned i = 0; i < sizeof all / sizeof *all; i++) tk_tensor_release(all[i]);
    tk_program_free(p);
}
END_TEST

/* a driver that cannot make maps: the launch fails, naming the call, and nothing runs */
START_TEST(tk_call_without_tensor_maps)
{
    tk_program *p;
    tk_kernel *k = compile_sm90("copy", copy_src, sizeof copy_src - 1, &p);
    tk_context_free(gpu);
    setenv("TK_FAKE_CUDA_NO_TMA", "1", 1);
    tk_context_opts o = { .device = TK_DEVICE_CUDA };
    ck_assert_msg(tk_context_create(&o, &gpu) == TK_OK, "%s", tk_last_error(NULL));
    unsetenv("TK_FAKE_CUDA_NO_TMA");
    tk_tensor *x, *y;
    OK(gpu, tk_zeros(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ 37, 200 }, &x));
    OK(gpu, tk_empty(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ 37, 200 }, &y));
    tk_call_arg args[2] = { TK_CALL_TENSOR(x), TK_CALL_TENSOR(y) };
    tk_fake_cuda_reset();
    expect_fail(gpu, tk_call(gpu, k, args, 2), TK_ERR_TARGET, "cuTensorMapEncodeTiled: CUDA_ERROR_NOT_SUPPORTED");
    ck_assert_int_eq(tk_fake_cuda_launch_count(), 0);
    tk_tensor_release(x);
    tk_tensor_release(y);
    tk_program_free(p);
}
END_TEST

/* the stdlib's gemm on sm_90 (the device's own target) takes maps too: for
 * A [100, 64] and B [64, 96] (rows of 128 and 192 bytes), one of each (in
 * whichever order its body loads them), after everything else */
START_TEST(matmul_hands_the_stdlib_gemm_its_maps)
{
    const int64_t M = 100, K = 64, N = 96;
    tk_tensor *a, *b, *c;
    OK(gpu, tk_randn(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ M, K }, 4, &a));
    OK(gpu, tk_randn(gpu, TK_DTYPE_BF16, 2, (int64_t[]){ K, N }, 5, &b));
    tk_fake_cuda_reset();
    OK(gpu, tk_matmul(gpu, a, b, &c));
    ck_assert_int_eq(tk_fake_cuda_launch_count(), 1);
    ck_assert_int_eq(tk_fake_cuda_tensor_map_calls(), 2);
    TkFakeLaunch l;
    ck_assert_int_eq(tk_fake_cuda_launch(0, &l), 0);
    ck_assert_int_ge(l.nparams, 3);
    for (int i = 0; i < l.nparams - 2; i++) ck_assert_msg(l.param_size[i] != 128, "parameter %d looks like a map", i);
    bool seen_a = false, seen_b = false;
    for (int at = l.nparams - 2; at < l.nparams; at++) {
        TkFakeTensorMap m;
        ck_assert_int_eq(l.param_size[at], 128);
        ck_assert_msg(tk_fake_cuda_tensor_map(l.param[at], &m) >= 0, "parameter %d names no encoding", at);
        bool is_a = m.address == dev(a);
        ck_assert_msg(is_a || m.address == dev(b), "parameter %d: address %llx is neither A's nor B's", at, (unsigned long long)m.address);
        seen_a |= is_a, seen_b |= !is_a;
        ck_assert_int_eq(m.dtype, 9);
        ck_assert_int_eq(m.rank, 2);
        ck_assert_uint_eq(m.dims[0], (uint64_t)(is_a ? K : N));
        ck_assert_uint_eq(m.dims[1], (uint64_t)(is_a ? M : K));
        ck_assert_uint_eq(m.strides[0], (uint64_t)(is_a ? K : N) * 2);
        ck_assert_int_eq(m.oob_fill, 0);
    }
    ck_assert(seen_a && seen_b);
    tk_tensor_release(a);
    tk_tensor_release(b);
    tk_tensor_release(c);
}
END_TEST

static void create_fails(const char *env, const char *value, const char *needle)
{
    setenv(env, value, 1);
    tk_context_opts o = { .device = TK_DEVICE_CUDA };
    tk_context *c = NULL;
    ck_assert_int_eq(tk_context_create(&o, &c), TK_ERR_TARGET);
    ck_assert_ptr_null(c);
    ck_assert_msg(strstr(tk_last_error(NULL), needle), "%s=%s: '%s' lacks '%s'", env, value, tk_last_error(NULL), needle);
    unsetenv(env);
}

START_TEST(machines_it_cannot_use)
{
    create_fails("TK_FAKE_CUDA_DEVICES", "0", "CUDA_ERROR_NO_DEVICE");
    create_fails("TK_FAKE_CUDA_SM", "75", "needs sm_80 or newer");
    create_fails("TK_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", "no CUDA driver");
    ck_assert_int_eq(tk_fake_cuda_contexts_retained(), 0);
}
END_TEST

START_TEST(a_kernel_newer_than_the_gpu)
{
    setenv("TK_FAKE_CUDA_SM", "80", 1);
    tk_context_opts o = { .device = TK_DEVICE_CUDA };
    tk_context *c;
    ck_assert_int_eq(tk_context_create(&o, &c), TK_OK);
    unsetenv("TK_FAKE_CUDA_SM");
    tk_program *p;
    tk_compile_options co = { .target = "sm_90" };
    ck_assert_int_eq(tk_compile_source("scale.tk", scale_src, sizeof scale_src - 1, &co, &p, NULL), TK_OK);
    tk_tensor *x;
    ck_assert_int_eq(tk_zeros(c, TK_DTYPE_F32, 2, (int64_t[]){ 4, 4 }, &x), TK_OK);
    tk_call_arg args[3] = { TK_CALL_TENSOR(x), TK_CALL_TENSOR(x), TK_CALL_F32(2) };
    expect_fail(c, tk_call(c, tk_program_kernel(p, "scale2"), args, 3), TK_ERR_TARGET, "is sm_80");
    tk_tensor_release(x);
    tk_program_free(p);
    tk_context_free(c);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s LIBTK_FAKE_CUDA\n", argv[0]);
        return 2;
    }
    setenv("TK_CUDA_LIBRARY", argv[1], 1);
    Suite *s = suite_create("cuda_runtime");
    TCase *tc = tcase_create("fake driver");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, tensors_live_in_device_memory);
    tcase_add_test(tc, tk_call_hands_the_driver_the_launch);
    tcase_add_test(tc, matmul_launches_the_stdlib_gemm);
    suite_add_tcase(s, tc);
    TCase *tma = tcase_create("tma maps");
    tcase_add_checked_fixture(tma, setup_sm90, teardown_sm90);
    tcase_set_timeout(tma, 600);
    tcase_add_test(tma, tk_call_hands_a_tma_kernel_its_map);
    tcase_add_test(tma, tk_call_hands_the_maps_in_the_plans_order);
    tcase_add_test(tma, tk_call_without_tensor_maps);
    tcase_add_test(tma, matmul_hands_the_stdlib_gemm_its_maps);
    suite_add_tcase(s, tma);
    TCase *bad = tcase_create("machines");
    tcase_set_timeout(bad, 600);
    tcase_add_test(bad, machines_it_cannot_use);
    tcase_add_test(bad, a_kernel_newer_than_the_gpu);
    suite_add_tcase(s, bad);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
