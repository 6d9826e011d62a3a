/* test_cuda_driver.c — targets/nvptx/cuda.h against libtk_fake_cuda.so
 * (fake_cuda.c), no GPU needed: opening the driver and its failures, the
 * device's name and SM, memory and the three copies with their range checks,
 * PTX loading, the grid, block and parameter bytes a launch hands the
 * driver, a pointer no allocation holds, the primary context given back
 * on close, and TMA maps: what tk_cuda_encode_map hands cuTensorMapEncodeTiled,
 * the zeroed map of a tensor the TMA cannot describe, a driver that cannot
 * make maps or has no cuTensorMapEncodeTiled, and the fake's own refusals.
 * The fake's path is argv[1] (or TK_FAKE_CUDA_PATH at build time), one
 * without cuTensorMapEncodeTiled argv[2]; the test links the first, so it
 * reads the state cuda.c made. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "fake_cuda.h"

static const char *fake_path, *pre12_path;

/* The fake, with its default settings (one sm_90 device, no memory cap). */
static void use_fake(void)
{
    setenv("TK_CUDA_LIBRARY", fake_path, 1);
    unsetenv("TK_FAKE_CUDA_DEVICES");
    unsetenv("TK_FAKE_CUDA_SM");
    unsetenv("TK_FAKE_CUDA_MEMORY");
    unsetenv("TK_FAKE_CUDA_NO_TMA");
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

/* ---- TMA maps ---- */

/* cuda.h's numbering, written out here rather than taken from cuda.c */
enum { CU_F16 = 6, CU_F32 = 7, CU_BF16 = 9 };
enum { CU_SWIZZLE_NONE = 0, CU_SWIZZLE_32B = 1, CU_SWIZZLE_64B = 2, CU_SWIZZLE_128B = 3 };

/* One description to encode, and what the driver must be handed for it. */
typedef struct {
    const char *what;
    TkTmaPlan plan;
    int64_t shape[TK_TMA_MAX_RANK];   /* outermost first */
    uint64_t offset;                  /* bytes past the allocation's base */
    int dtype, swizzle;               /* the driver's enums */
    uint64_t dims[TK_TMA_MAX_RANK], strides[TK_TMA_MAX_RANK - 1];
    uint32_t box[TK_TMA_MAX_RANK];
} MapCase;

static void expect_encoding(const MapCase *c, const TkFakeTensorMap *m, uint64_t address)
{
    ck_assert_msg(m->dtype == c->dtype, "%s: dtype %d, want %d", c->what, m->dtype, c->dtype);
    ck_assert_msg((int)m->rank == c->plan.rank, "%s: rank %u", c->what, m->rank);
    ck_assert_msg(m->address == address, "%s: address %llx, want %llx", c->what, (unsigned long long)m->address, (unsigned long long)address);
    for (int k = 0; k < c->plan.rank; k++) {
        ck_assert_msg(m->dims[k] == c->dims[k], "%s: dims[%d] = %llu, want %llu", c->what, k, (unsigned long long)m->dims[k],
                      (unsigned long long)c->dims[k]);
        if (k + 1 < c->plan.rank)
            ck_assert_msg(m->strides[k] == c->strides[k], "%s: strides[%d] = %llu, want %llu", c->what, k,
                          (unsigned long long)m->strides[k], (unsigned long long)c->strides[k]);
        ck_assert_msg(m->box[k] == c->box[k], "%s: box[%d] = %u, want %u", c->what, k, m->box[k], c->box[k]);
        ck_assert_msg(m->element_strides[k] == 1, "%s: element_strides[%d] = %u", c->what, k, m->element_strides[k]);
    }
    ck_assert_msg(m->interleave == 0, "%s: interleave %d", c->what, m->interleave);
    ck_assert_msg(m->swizzle == c->swizzle, "%s: swizzle %d, want %d", c->what, m->swizzle, c->swizzle);
    ck_assert_msg(m->oob_fill == 0, "%s: oob fill %d: outside the tensor must read as zeros", c->what, m->oob_fill);
}

START_TEST(encode_map_hands_the_driver_the_tensor)
{
    TkCuda *cu = open_fake();
    char err[512] = "";
    uint64_t d = 0;
    ck_assert_msg(tk_cuda_alloc(cu, 1 << 20, &d, err, sizeof err) == 0, "%s", err);
    const MapCase cases[] = {
        /* bf16 [40, 200]: rows of 400 bytes; a 16 x 64 tile of 128-byte rows */
        { "bf16 rank 2", { 0, 2, TK_TMA_BF16, 2, 128, { 64, 16 } }, { 40, 200 }, 0, CU_BF16, CU_SWIZZLE_128B,
          { 200, 40 }, { 400 }, { 64, 16 } },
        /* f32 [3, 50, 36] at 4 KiB into the allocation: rows of 144 bytes, planes of 7200; 64-byte rows of 16 */
        { "f32 rank 3", { 1, 3, TK_TMA_F32, 4, 64, { 16, 32, 1 } }, { 3, 50, 36 }, 4096, CU_F32, CU_SWIZZLE_64B,
          { 36, 50, 3 }, { 144, 7200 }, { 16, 32, 1 } },
        /* f16 [70, 24]: 48-byte rows; 32-byte rows of 16 */
        { "f16 rank 2", { 0, 2, TK_TMA_F16, 2, 32, { 16, 64 } }, { 70, 24 }, 16, CU_F16, CU_SWIZZLE_32B,
          { 24, 70 }, { 48 }, { 16, 64 } },
        /* bf16 [5, 9, 40], rows of three chunks: no swizzle */
        { "bf16 rank 3 unswizzled", { 0, 3, TK_TMA_BF16, 2, 0, { 24, 8, 1 } }, { 5, 9, 40 }, 0, CU_BF16, CU_SWIZZLE_NONE,
          { 40, 9, 5 }, { 80, 720 }, { 24, 8, 1 } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const MapCase *c = &cases[i];
        TkTmaDesc desc;
        tk_tma_describe(&c->plan, d + c->offset, c->shape, &desc);
        _Alignas(64) unsigned char map[TK_CUDA_MAP_BYTES];
        memset(map, 0, sizeof map);
        int calls = tk_fake_cuda_tensor_map_calls(), count = tk_fake_cuda_tensor_map_count();
        ck_assert_msg(tk_cuda_encode_map(cu, &desc, map, err, sizeof err) == 0, "%s: %s", c->what, err);
        ck_assert_int_eq(tk_fake_cuda_tensor_map_calls(), calls + 1);
        ck_assert_int_eq(tk_fake_cuda_tensor_map_count(), count + 1);
        /* the driver wrote the map the caller gave it */
        TkFakeTensorMap m;
        ck_assert_msg(tk_fake_cuda_tensor_map(map, &m) == count, "%s: the map does not name the encoding just made", c->what);
        expect_encoding(c, &m, d + c->offset);
        TkFakeTensorMap again;
        ck_assert_int_eq(tk_fake_cuda_tensor_map_at(count, &again), 0);
        ck_assert_int_eq(memcmp(&again, &m, sizeof m), 0);
        ck_assert_int_eq(tk_fake_cuda_tensor_map_at(count + 1, &again), -1);
    }
    tk_cuda_free(cu, d);
    tk_cuda_close(cu);
}
END_TEST

/* what tk_tma_usable refuses: 128 zero bytes, 0, and the driver never asked */
START_TEST(encode_map_of_an_unusable_tensor_is_zeros)
{
    TkCuda *cu = open_fake();
    char err[512] = "";
    uint64_t d = 0;
    ck_assert_msg(tk_cuda_alloc(cu, 1 << 16, &d, err, sizeof err) == 0, "%s", err);
    const TkTmaPlan rows128 = { 0, 2, TK_TMA_BF16, 2, 128, { 64, 16 } };
    const struct {
        const char *what;
        uint64_t base;
        int64_t shape[2];
    } cases[] = {
        { "a base 2 bytes past 16", d + 2, { 40, 64 } },
        { "a base 8 bytes past 16", d + 24, { 40, 64 } },
        { "rows of 36 bf16 (72 bytes)", d, { 40, 36 } },
        { "rows of 100 bf16 (200 bytes)", d, { 4, 100 } },
        { "no rows", d, { 0, 64 } },
        { "no columns", d, { 40, 0 } },
        { "a row of 2^32 + 8 elements", d, { 1, (1ll << 32) + 8 } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TkTmaDesc desc;
        tk_tma_describe(&rows128, cases[i].base, cases[i].shape, &desc);
        _Alignas(64) unsigned char map[TK_CUDA_MAP_BYTES], zeros[TK_CUDA_MAP_BYTES] = { 0 };
        memset(map, 0x5c, sizeof map);
        int calls = tk_fake_cuda_tensor_map_calls();
        ck_assert_msg(tk_cuda_encode_map(cu, &desc, map, err, sizeof err) == 0, "%s: %s", cases[i].what, err);
        ck_assert_msg(memcmp(map, zeros, sizeof map) == 0, "%s: the map is not all zeros", cases[i].what);
        ck_assert_msg(tk_fake_cuda_tensor_map_calls() == calls, "%s: the driver was asked", cases[i].what);
    }
    /* the same tile of a describable tensor does reach it */
    TkTmaDesc ok;
    tk_tma_describe(&rows128, d + 32, (int64_t[]){ 40, 64 }, &ok);
    _Alignas(64) unsigned char map[TK_CUDA_MAP_BYTES];
    ck_assert_msg(tk_cuda_encode_map(cu, &ok, map, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(tk_fake_cuda_tensor_map_calls(), 1);
    ck_assert_int_ge(tk_fake_cuda_tensor_map(map, NULL), 0);
    tk_cuda_free(cu, d);
    tk_cuda_close(cu);
}
END_TEST

/* the driver's refusal comes back by name */
START_TEST(encode_map_failures_are_named)
{
    TkCuda *cu = open_fake();
    char err[512] = "";
    uint64_t d = 0;
    ck_assert_msg(tk_cuda_alloc(cu, 40 * 64 * 2, &d, err, sizeof err) == 0, "%s", err);
    const TkTmaPlan rows128 = { 0, 2, TK_TMA_BF16, 2, 128, { 64, 16 } };
    TkTmaDesc desc;
    _Alignas(64) unsigned char map[TK_CUDA_MAP_BYTES];
    /* a tensor running past its allocation: describable, but the driver (the fake) refuses it */
    tk_tma_describe(&rows128, d, (int64_t[]){ 41, 64 }, &desc);
    ck_assert_int_eq(tk_cuda_encode_map(cu, &desc, map, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cuTensorMapEncodeTiled") && strstr(err, "CUDA_ERROR_INVALID_VALUE"), "%s", err);
    tk_cuda_close(cu);

    /* a driver that cannot make maps */
    use_fake();
    setenv("TK_FAKE_CUDA_NO_TMA", "1", 1);
    ck_assert_msg(tk_cuda_open(&cu, err, sizeof err) == 0, "%s", err);
    tk_tma_describe(&rows128, d, (int64_t[]){ 40, 64 }, &desc);
    memset(map, 0x5c, sizeof map);
    err[0] = '\0';
    ck_assert_int_eq(tk_cuda_encode_map(cu, &desc, map, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cuTensorMapEncodeTiled") && strstr(err, "CUDA_ERROR_NOT_SUPPORTED"), "%s", err);
    ck_assert_int_eq(tk_fake_cuda_tensor_map_calls(), 1);
    ck_assert_int_eq(tk_fake_cuda_tensor_map_count(), 0);
    /* where no map is needed it is not asked, so nothing fails */
    tk_tma_describe(&rows128, d + 2, (int64_t[]){ 40, 64 }, &desc);
    ck_assert_msg(tk_cuda_encode_map(cu, &desc, map, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(tk_fake_cuda_tensor_map_calls(), 1);
    tk_cuda_free(cu, d);
    tk_cuda_close(cu);
    unsetenv("TK_FAKE_CUDA_NO_TMA");
}
END_TEST

/* A driver older than CUDA 12 has no cuTensorMapEncodeTiled: it still opens
 * (sm_80 kernels need no maps), and a map it cannot make is a message. */
START_TEST(a_driver_without_tensor_maps)
{
    ck_assert_msg(pre12_path, "no path of the fake without cuTensorMapEncodeTiled (argv[2])");
    use_fake();
    setenv("TK_CUDA_LIBRARY", pre12_path, 1);
    TkCuda *cu = NULL;
    char err[512] = "";
    ck_assert_msg(tk_cuda_open(&cu, err, sizeof err) == 0, "%s", err);
    uint64_t d = 0;
    ck_assert_msg(tk_cuda_alloc(cu, 40 * 64 * 2, &d, err, sizeof err) == 0, "%s", err);
    const TkTmaPlan rows128 = { 0, 2, TK_TMA_BF16, 2, 128, { 64, 16 } };
    TkTmaDesc desc;
    _Alignas(64) unsigned char map[TK_CUDA_MAP_BYTES];
    tk_tma_describe(&rows128, d, (int64_t[]){ 40, 64 }, &desc);
    ck_assert_int_eq(tk_cuda_encode_map(cu, &desc, map, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "no cuTensorMapEncodeTiled"), "%s", err);
    tk_tma_describe(&rows128, d, (int64_t[]){ 40, 36 }, &desc);   /* rows of 72 bytes: no map needed */
    ck_assert_msg(tk_cuda_encode_map(cu, &desc, map, err, sizeof err) == 0, "%s", err);
    tk_cuda_free(cu, d);
    tk_cuda_close(cu);
}
END_TEST

/* The fake's cuTensorMapEncodeTiled itself, called directly: the other tests
 * lean on its refusals, so each documented rule is broken once here. */
int cuTensorMapEncodeTiled(void *map, int dtype, uint32_t rank, void *address, const uint64_t *dim, const uint64_t *stride,
                           const uint32_t *box, const uint32_t *estride, int interleave, int swizzle, int l2, int oob);

typedef struct {
    void *map;
    int dtype;
    uint32_t rank;
    uint64_t address;
    uint64_t dim[5], stride[4];
    uint32_t box[5], estride[5];
    int interleave, swizzle, l2, oob;
} EncodeArgs;

static int encode(const EncodeArgs *a)
{
    return cuTensorMapEncodeTiled(a->map, a->dtype, a->rank, (void *)(uintptr_t)a->address, a->dim, a->stride, a->box, a->estride,
                                  a->interleave, a->swizzle, a->l2, a->oob);
}

START_TEST(fake_encoder_refuses_what_the_driver_does)
{
    TkCuda *cu = open_fake();
    char err[512] = "";
    uint64_t d = 0;
    const uint64_t bytes = 30 * 200 * 2;   /* bf16 [30, 200] */
    ck_assert_msg(tk_cuda_alloc(cu, bytes, &d, err, sizeof err) == 0, "%s", err);
    _Alignas(64) unsigned char map[128 + 64];
    const EncodeArgs good = { map, CU_BF16, 2, d, { 200, 30 }, { 400 }, { 64, 16 }, { 1, 1 }, 0, CU_SWIZZLE_128B, 3, 0 };
    ck_assert_int_eq(encode(&good), 0);
    TkFakeTensorMap m;
    ck_assert_int_eq(tk_fake_cuda_tensor_map(map, &m), 0);
    ck_assert_uint_eq(m.address, d);
    ck_assert_int_eq(m.l2_promotion, 3);
    for (int i = 16; i < 128; i++) ck_assert_msg(map[i] == 0xa5, "byte %d of the map is %#x", i, map[i]);
    /* a tensor just filling its allocation, a 3-D one with a padded stride, the largest box, f32 in 64B */
    EncodeArgs a = good;
    a.dim[1] = 30;
    ck_assert_int_eq(encode(&a), 0);
    a = (EncodeArgs){ map, CU_F32, 3, d, { 16, 10, 5 }, { 80, 1200 }, { 16, 8, 2 }, { 1, 1, 1 }, 0, CU_SWIZZLE_64B, 0, 1 };
    ck_assert_int_eq(encode(&a), 0);   /* 4 · 1200 + 9 · 80 + 64 = 5584 bytes: inside */
    ck_assert_int_eq(tk_fake_cuda_tensor_map_count(), 3);

#define REFUSED(change)                                                                    \
    do {                                                                                   \
        EncodeArgs b_ = good;                                                              \
        change;                                                                            \
        ck_assert_msg(encode(&b_) == 1, "accepted with %s", #change);                      \
    } while (0)
    REFUSED(b_.map = map + 32);                              /* not 64-byte aligned */
    REFUSED(b_.map = NULL);
    REFUSED(b_.dtype = 13);                                  /* a packed type the fake does not model */
    REFUSED(b_.dtype = -1);
    REFUSED(b_.rank = 0);
    REFUSED(b_.rank = 6);
    REFUSED(b_.address = d + 8);                             /* not 16-byte aligned */
    REFUSED(b_.address = d + 16);                            /* the last row runs past the allocation */
    REFUSED(b_.dim[1] = 31);                                 /* likewise */
    REFUSED(b_.address = (d & ~TK_FAKE_CUDA_DEVICE_BIT));    /* no device allocation */
    REFUSED(b_.dim[0] = 0);
    /* a row past 2^32 elements (past the allocation too: no 8 GiB here) */
    REFUSED((b_.dim[0] = (1ull << 32) + 1, b_.dim[1] = 1, b_.stride[0] = 1ull << 34));
    REFUSED((b_.stride[0] = 384, b_.dim[1] = 20));           /* shorter than a row (200 · 2) */
    REFUSED((b_.stride[0] = 408, b_.dim[1] = 20));           /* not a multiple of 16 */
    REFUSED((b_.dim[0] = 8, b_.dim[1] = 1, b_.stride[0] = 1ull << 40));   /* 16 bytes in all, but a stride of 2^40 */
    REFUSED(b_.box[0] = 0);
    REFUSED((b_.box[1] = 257));
    REFUSED((b_.box[0] = 60, b_.swizzle = CU_SWIZZLE_NONE)); /* 120-byte rows: not whole 16 bytes */
    REFUSED(b_.box[0] = 128);                                /* 256-byte rows: wider than the 128-byte swizzle */
    REFUSED(b_.swizzle = CU_SWIZZLE_64B);                    /* 128-byte rows in a 64-byte swizzle */
    REFUSED((b_.box[0] = 32, b_.swizzle = CU_SWIZZLE_32B));  /* 64-byte rows in a 32-byte swizzle */
    REFUSED(b_.swizzle = 4);                                 /* 128B_ATOM_32B: not modelled */
    REFUSED(b_.estride[0] = 0);
    REFUSED(b_.estride[1] = 9);
    REFUSED(b_.interleave = 1);                              /* interleaving needs rank 3 */
    REFUSED(b_.interleave = 3);
    REFUSED(b_.l2 = 4);
    REFUSED(b_.oob = 2);
    REFUSED((b_.dtype = 1, b_.oob = 1));                     /* a NaN fill for an integer type */
#undef REFUSED
    ck_assert_int_eq(tk_fake_cuda_tensor_map_count(), 3);
    /* a smaller box and no swizzle are fine with the same tensor */
    a = good;
    a.box[0] = 8, a.swizzle = CU_SWIZZLE_NONE;
    ck_assert_int_eq(encode(&a), 0);
    /* the stride and dims the refusals above broke, each kept in range */
    a = good;
    a.stride[0] = 416, a.dim[1] = 20;
    ck_assert_int_eq(encode(&a), 0);
    a = good;
    a.dim[0] = 8, a.dim[1] = 1, a.stride[0] = (1ull << 40) - 16;
    ck_assert_int_eq(encode(&a), 0);

    /* a reset forgets the encodings: an old map names none, a new one the first */
    unsigned char old[16];
    memcpy(old, map, 16);
    ck_assert_int_ge(tk_fake_cuda_tensor_map(old, NULL), 0);
    tk_fake_cuda_reset();
    ck_assert_int_eq(tk_fake_cuda_tensor_map_count(), 0);
    ck_assert_int_eq(tk_fake_cuda_tensor_map_calls(), 0);
    ck_assert_int_eq(tk_fake_cuda_tensor_map(old, NULL), -1);
    ck_assert_int_eq(encode(&good), 0);
    ck_assert_int_eq(tk_fake_cuda_tensor_map(map, NULL), 0);
    unsigned char zeros[16] = { 0 };
    ck_assert_int_eq(tk_fake_cuda_tensor_map(zeros, NULL), -1);
    tk_cuda_free(cu, d);
    tk_cuda_close(cu);
}
END_TEST

int main(int argc, char **argv)
{
#ifdef TK_FAKE_CUDA_PATH
    fake_path = TK_FAKE_CUDA_PATH;
#endif
    if (argc > 1) fake_path = argv[1];
    if (argc > 2) pre12_path = argv[2];
    if (!fake_path) {
        fprintf(stderr, "usage: %s /path/to/libtk_fake_cuda.so [/path/to/libtk_fake_cuda_pre12.so]\n", argv[0]);
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
    tcase_add_test(tc, encode_map_hands_the_driver_the_tensor);
    tcase_add_test(tc, encode_map_of_an_unusable_tensor_is_zeros);
    tcase_add_test(tc, encode_map_failures_are_named);
    tcase_add_test(tc, a_driver_without_tensor_maps);
    tcase_add_test(tc, fake_encoder_refuses_what_the_driver_does);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? 0 : 1;
}
