/* test_cuda_driver.c — targets/nvptx/cuda.h against libtk_fake_cuda.so
 * (fake_cuda.c), no GPU needed: opening the driver and its failures, the
 * device's name and SM, memory and the three copies with their range checks,
 * PTX loading, the grid, block and parameter bytes a launch hands the
 * driver, a pointer no allocation holds, and the primary context given back
 * on close. The fake's path is argv[1] (or TK_FAKE_CUDA_PATH at build time);
 * the test links the same library, so it reads the state cuda.c made. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "fake_cuda.h"

static const char *fake_path;

/* The fake, with its default settings (one sm_90 device, no memory cap). */
static void use_fake(void)
{
    setenv("TK_CUDA_LIBRARY", fake_path, 1);
    unsetenv("TK_FAKE_CUDA_DEVICES");
    unsetenv("TK_FAKE_CUDA_SM");
    unsetenv("TK_FAKE_CUDA_MEMORY");
    tk_fake_cuda_reset();
}

static TkCuda *open_fake(void)
{
    use_fake();
    TkCuda *cu = NULL;
    char err[512];
    ck_assert_msg(tk_cuda_open(&cu, err, sizeof err) == 0, "%s", err);
    ck_assert_ptr_nonnull(cu);
    return cu;
}

/* k(u64, u32, f32) as a compiler writes it, with an empty body */
static const char ptx_k[] =
    "//\n"
    "// hand-written for test_cuda_driver.c\n"
    "//\n"
    ".version 7.8\n"
    ".target sm_80\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry k(\n"
    "    .param .u64 k_param_0,\n"
    "    .param .u32 k_param_1,\n"
    "    .param .f32 k_param_2\n"
    ")\n"
    "{\n"
    "    ret;\n"
    "}\n"
    "\n"
    "/* a struct by value and a byte; exactly 64 threads */\n"
    ".visible .entry s(.param .align 8 .b8 s_param_0[16], .param .u8 s_param_1)\n"
    ".reqntid 64, 1, 1\n"
    "{\n"
    "    ret;\n"
    "}\n";

START_TEST(no_device)
{
    use_fake();
    setenv("TK_FAKE_CUDA_DEVICES", "0", 1);
    TkCuda *cu = (TkCuda *)1;
    char err[512] = "";
    ck_assert_int_eq(tk_cuda_open(&cu, err, sizeof err), -1);
    ck_assert_ptr_null(cu);
    ck_assert_msg(strstr(err, "cuInit: CUDA_ERROR_NO_DEVICE"), "%s", err);
    ck_assert_int_eq(tk_fake_cuda_contexts_retained(), 0);
}
END_TEST

START_TEST(missing_library)
{
    setenv("TK_CUDA_LIBRARY", "/nonexistent/libtk_fake_cuda.so", 1);
    TkCuda *cu = (TkCuda *)1;
    char err[512] = "";
    ck_assert_int_eq(tk_cuda_open(&cu, err, sizeof err), -1);
    ck_assert_ptr_null(cu);
    ck_assert_msg(strstr(err, "no CUDA driver: cannot open /nonexistent/libtk_fake_cuda.so"), "%s", err);
}
END_TEST

START_TEST(device_name_and_sm)
{
    TkCuda *cu = open_fake();
    char name[128] = "", err[512] = "";
    int sm = 0;
    ck_assert_msg(tk_cuda_device(cu, name, sizeof name, &sm, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(strstr(name, "fake") && strstr(name, "sm_90"), "%s", name);
    ck_assert_int_eq(sm, 90);
    tk_cuda_close(cu);

    setenv("TK_FAKE_CUDA_SM", "80", 1);
    ck_assert_msg(tk_cuda_open(&cu, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(tk_cuda_device(cu, name, sizeof name, &sm, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(sm, 80);
    ck_assert_msg(strstr(name, "sm_80"), "%s", name);
    tk_cuda_close(cu);
}
END_TEST

START_TEST(memory_and_copies)
{
    TkCuda *cu = open_fake();
    char err[512] = "";
    unsigned char pattern[1000], back[1000];
    for (int i = 0; i < 1000; i++) pattern[i] = (unsigned char)(i * 7 + 3);

    uint64_t d = 0, d2 = 0;
    ck_assert_msg(tk_cuda_alloc(cu, 1000, &d, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(d & TK_FAKE_CUDA_DEVICE_BIT, "%llx is not a fake device pointer", (unsigned long long)d);
    ck_assert_uint_eq(tk_fake_cuda_live_bytes(), 1000);
    ck_assert_int_eq(tk_fake_cuda_live_allocations(), 1);

    ck_assert_msg(tk_cuda_copy_to(cu, d, pattern, sizeof pattern, err, sizeof err) == 0, "%s", err);
    const unsigned char *seen = tk_fake_cuda_host_view(d);
    ck_assert_ptr_nonnull(seen);
    ck_assert_int_eq(memcmp(seen, pattern, sizeof pattern), 0);
    memset(back, 0, sizeof back);
    ck_assert_msg(tk_cuda_copy_from(cu, back, d, sizeof back, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(memcmp(back, pattern, sizeof pattern), 0);

    /* a view: the last 100 bytes are in range, 200 bytes from there are not */
    ck_assert_msg(tk_cuda_copy_to(cu, d + 900, pattern, 100, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(tk_cuda_copy_to(cu, d + 900, pattern, 200, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cuMemcpyHtoD") && strstr(err, "CUDA_ERROR_INVALID_VALUE"), "%s", err);
    ck_assert_int_eq(tk_cuda_copy_from(cu, back, d + 1, 1000, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cuMemcpyDtoH"), "%s", err);

    /* device to device, between allocations at offsets, and out of range */
    ck_assert_msg(tk_cuda_alloc(cu, 1000, &d2, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(tk_fake_cuda_live_bytes(), 2000);
    ck_assert_msg(tk_cuda_copy_device(cu, d2 + 10, d + 100, 500, err, sizeof err) == 0, "%s", err);
    memset(back, 0, sizeof back);
    ck_assert_msg(tk_cuda_copy_from(cu, back, d2, sizeof back, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(memcmp(back + 10, pattern + 100, 500), 0);
    ck_assert_int_eq(back[9], 0);
    ck_assert_int_eq(back[510], 0);
    ck_assert_int_eq(tk_cuda_copy_device(cu, d2, d + 600, 500, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cuMemcpyDtoD"), "%s", err);

    tk_cuda_free(cu, d);
    tk_cuda_free(cu, d2);
    ck_assert_uint_eq(tk_fake_cuda_live_bytes(), 0);
    ck_assert_int_eq(tk_fake_cuda_live_allocations(), 0);
    ck_assert_ptr_null(tk_fake_cuda_host_view(d));
    /* freed memory is not a place to copy to */
    ck_assert_int_eq(tk_cuda_copy_to(cu, d, pattern, 10, err, sizeof err), -1);
    tk_cuda_close(cu);
}
END_TEST

START_TEST(memory_cap)
{
    TkCuda *cu = open_fake();
    tk_cuda_close(cu);
    setenv("TK_FAKE_CUDA_MEMORY", "1500", 1);
    char err[512] = "";
    ck_assert_msg(tk_cuda_open(&cu, err, sizeof err) == 0, "%s", err);
    uint64_t a = 0, b = 0;
    ck_assert_msg(tk_cuda_alloc(cu, 1000, &a, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(tk_cuda_alloc(cu, 1000, &b, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cuMemAlloc") && strstr(err, "CUDA_ERROR_OUT_OF_MEMORY"), "%s", err);
    tk_cuda_free(cu, a);
    ck_assert_msg(tk_cuda_alloc(cu, 1000, &b, err, sizeof err) == 0, "%s", err);
    tk_cuda_free(cu, b);
    tk_cuda_close(cu);
}
END_TEST

START_TEST(load_and_launch)
{
    TkCuda *cu = open_fake();
    char err[512] = "";
    TkCudaModule *m = NULL;
    ck_assert_msg(tk_cuda_load_ptx(cu, ptx_k, &m, err, sizeof err) == 0, "%s", err);

    uint64_t d = 0;
    ck_assert_msg(tk_cuda_alloc(cu, 256, &d, err, sizeof err) == 0, "%s", err);
    uint64_t view = d + 64;   /* kernels take views into allocations */
    uint32_t n = 0xdeadbeefu;
    float x = 2.5f;
    void *params[] = { &view, &n, &x };
    const int64_t grid[3] = { 3, 2, 1 };
    float ms = -1;
    ck_assert_msg(tk_cuda_launch(m, "k", grid, 128, params, &ms, err, sizeof err) == 0, "%s", err);
    ck_assert(ms > 0);

    ck_assert_int_eq(tk_fake_cuda_launch_count(), 1);
    TkFakeLaunch L;
    ck_assert_int_eq(tk_fake_cuda_launch(0, &L), 0);
    ck_assert_int_eq(tk_fake_cuda_launch(1, &L), -1);
    ck_assert_str_eq(L.name, "k");
    ck_assert_uint_eq(L.grid[0], 3);
    ck_assert_uint_eq(L.grid[1], 2);
    ck_assert_uint_eq(L.grid[2], 1);
    ck_assert_uint_eq(L.block[0], 128);
    ck_assert_uint_eq(L.block[1], 1);
    ck_assert_uint_eq(L.block[2], 1);
    ck_assert_uint_eq(L.shared, 0);
    ck_assert_int_eq(L.nparams, 3);
    ck_assert_int_eq(L.param_size[0], 8);
    ck_assert_int_eq(L.param_size[1], 4);
    ck_assert_int_eq(L.param_size[2], 4);
    uint64_t got_view;
    uint32_t got_n;
    float got_x;
    memcpy(&got_view, L.param[0], 8);
    memcpy(&got_n, L.param[1], 4);
    memcpy(&got_x, L.param[2], 4);
    ck_assert_uint_eq(got_view, view);
    ck_assert_uint_eq(got_n, 0xdeadbeefu);
    ck_assert(got_x == 2.5f);

    /* an empty grid launches nothing */
    const int64_t empty[3] = { 0, 2, 1 };
    ck_assert_msg(tk_cuda_launch(m, "k", empty, 128, params, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(tk_fake_cuda_launch_count(), 1);

    /* a struct by value: its size from the brackets; .reqntid holds the block to 64 */
    unsigned char blob[16], byte = 0x5a;
    for (int i = 0; i < 16; i++) blob[i] = (unsigned char)(0xa0 + i);
    void *sparams[] = { blob, &byte };
    const int64_t one[3] = { 1, 1, 1 };
    ck_assert_msg(tk_cuda_launch(m, "s", one, 64, sparams, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(tk_fake_cuda_launch(1, &L), 0);
    ck_assert_int_eq(L.nparams, 2);
    ck_assert_int_eq(L.param_size[0], 16);
    ck_assert_int_eq(L.param_size[1], 1);
    ck_assert_int_eq(memcmp(L.param[0], blob, 16), 0);
    ck_assert_int_eq(L.param[1][0], 0x5a);
    ck_assert_int_eq(tk_cuda_launch(m, "s", one, 128, sparams, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "CUDA_ERROR_INVALID_VALUE"), "%s", err);
    ck_assert_int_eq(tk_cuda_launch(m, "k", one, 2048, params, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "CUDA_ERROR_INVALID_VALUE"), "%s", err);
    ck_assert_int_eq(tk_fake_cuda_launch_count(), 2);

    ck_assert_int_eq(tk_cuda_launch(m, "nope", grid, 128, params, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "CUDA_ERROR_NOT_FOUND"), "%s", err);

    TkCudaModule *bad = (TkCudaModule *)1;
    ck_assert_int_eq(tk_cuda_load_ptx(cu, "garbage", &bad, err, sizeof err), -1);
    ck_assert_ptr_null(bad);
    ck_assert_msg(strstr(err, "CUDA_ERROR_INVALID_PTX") && strstr(err, "not PTX"), "%s", err);

    tk_cuda_free(cu, d);
    tk_cuda_unload(m);
    tk_cuda_close(cu);
}
END_TEST

START_TEST(pointer_no_allocation_holds)
{
    TkCuda *cu = open_fake();
    char err[512] = "";
    TkCudaModule *m = NULL;
    ck_assert_msg(tk_cuda_load_ptx(cu, ptx_k, &m, err, sizeof err) == 0, "%s", err);
    uint64_t stray = TK_FAKE_CUDA_DEVICE_BIT | 0x1000;
    uint32_t n = 1;
    float x = 0;
    void *params[] = { &stray, &n, &x };
    const int64_t grid[3] = { 1, 1, 1 };
    ck_assert_int_eq(tk_cuda_launch(m, "k", grid, 32, params, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "CUDA_ERROR_ILLEGAL_ADDRESS"), "%s", err);

    /* nor one that was freed */
    ck_assert_msg(tk_cuda_alloc(cu, 64, &stray, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(tk_cuda_launch(m, "k", grid, 32, params, NULL, err, sizeof err) == 0, "%s", err);
    tk_cuda_free(cu, stray);
    ck_assert_int_eq(tk_cuda_launch(m, "k", grid, 32, params, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "CUDA_ERROR_ILLEGAL_ADDRESS"), "%s", err);
    ck_assert_int_eq(tk_fake_cuda_launch_count(), 1);
    tk_cuda_unload(m);
    tk_cuda_close(cu);
}
END_TEST

START_TEST(close_releases_the_context)
{
    ck_assert_int_eq(tk_fake_cuda_contexts_retained(), 0);
    TkCuda *a = open_fake(), *b = open_fake();
    ck_assert_int_eq(tk_fake_cuda_contexts_retained(), 2);
    tk_cuda_close(a);
    ck_assert_int_eq(tk_fake_cuda_contexts_retained(), 1);
    tk_cuda_close(b);
    ck_assert_int_eq(tk_fake_cuda_contexts_retained(), 0);
}
END_TEST

int main(int argc, char **argv)
{
#ifdef TK_FAKE_CUDA_PATH
    fake_path = TK_FAKE_CUDA_PATH;
#endif
    if (argc > 1) fake_path = argv[1];
    if (!fake_path) {
        fprintf(stderr, "usage: %s /path/to/libtk_fake_cuda.so\n", argv[0]);
        return 2;
    }
    Suite *s = suite_create("cuda_driver");
    TCase *tc = tcase_create("fake");
    tcase_add_test(tc, no_device);
    tcase_add_test(tc, missing_library);
    tcase_add_test(tc, device_name_and_sm);
    tcase_add_test(tc, memory_and_copies);
    tcase_add_test(tc, memory_cap);
    tcase_add_test(tc, load_and_launch);
    tcase_add_test(tc, pointer_no_allocation_holds);
    tcase_add_test(tc, close_releases_the_context);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? 0 : 1;
}
