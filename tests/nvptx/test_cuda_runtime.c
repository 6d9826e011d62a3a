/* test_cuda_runtime.c — the tensor runtime's CUDA device (TK_DEVICE_CUDA,
 * runtime/core/device_cuda.c) against the fake driver (fake_cuda.c): no GPU
 * runs anything, but everything the runtime hands the driver is checked —
 * the memory tensors live in, the bytes copied each way, which kernel is
 * launched on which grid with which parameters, and that the host never
 * touches device memory (the fake's device pointers fault if it does). And
 * the messages of a machine whose driver sees no GPU or an old one.
 * argv[1]: the fake driver library. */
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
