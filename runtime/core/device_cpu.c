/* device_cpu.c — the CPU device: memory from the system (big blocks in 2 MiB
 * pages), memcpy, and the kernels' thread pool (targets/cpu/launch.c); and
 * tkr_device_open, which picks a context's device. */
#define _DEFAULT_SOURCE   /* madvise, MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "device.h"

/* Above this a block is mapped on its own, 2 MiB aligned and advised to use
 * huge pages: first-touch faults cost 11–16 µs per 4 KiB page on these VMs
 * (shared/TOOLCHAIN.md), 512 times fewer faults with 2 MiB pages. */
#define TKR_HUGE_THRESHOLD (4u << 20)
#define TKR_HUGE_PAGE (2u << 20)

static size_t mapped_size(size_t bytes) { return (bytes + TKR_HUGE_PAGE - 1) & ~(size_t)(TKR_HUGE_PAGE - 1); }

void *tkr_host_alloc(const TkrDevice *d, size_t bytes)
{
    (void)d;
    if (bytes == 0) bytes = 1;
    if (bytes >= TKR_HUGE_THRESHOLD) {
        size_t n = mapped_size(bytes);
        /* over-map by one huge page and trim, so the block starts 2 MiB aligned */
        char *p = mmap(NULL, n + TKR_HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        char *a = (char *)(((uintptr_t)p + TKR_HUGE_PAGE - 1) & ~(uintptr_t)(TKR_HUGE_PAGE - 1));
        if (a > p) munmap(p, (size_t)(a - p));
        size_t tail = (size_t)(p + n + TKR_HUGE_PAGE - (a + n));
        if (tail) munmap(a + n, tail);
#ifdef MADV_HUGEPAGE
        madvise(a, n, MADV_HUGEPAGE);
#endif
        return a;
    }
    return aligned_alloc(64, (bytes + 63) & ~(size_t)63);
}

void tkr_host_free(const TkrDevice *d, void *p, size_t bytes)
{
    (void)d;
    if (!p) return;
    if (bytes >= TKR_HUGE_THRESHOLD) munmap(p, mapped_size(bytes));
    else free(p);
}

int tkr_host_copy(const TkrDevice *d, void *dst, const void *src, size_t bytes, char *err, size_t errlen)
{
    (void)d, (void)err, (void)errlen;
    if (bytes) memmove(dst, src, bytes);
    return 0;
}

tk_status tkr_host_run(const TkrDevice *d, tk_kernel *k, const tk_arg *args, unsigned nargs, int threads, char *err, size_t errlen)
{
    (void)d;
    tk_status s = tk_kernel_launch(k, args, nargs, threads);
    if (s != TK_OK) snprintf(err, errlen, "%s", tk_kernel_error(k));
    return s;
}

const TkrDevice tkr_cpu_device = {
    .name = "cpu",
    .type = TK_DEVICE_CPU,
    .host_ops = true,
    .alloc = tkr_host_alloc,
    .free = tkr_host_free,
    .copy = tkr_host_copy,
    .to_host = tkr_host_copy,
    .from_host = tkr_host_copy,
    .run = tkr_host_run,
};

tk_status tkr_device_open(tk_device_type type, const TkrDevice **out, char *err, size_t errlen)
{
    *out = NULL;
    TkrDevice *d = NULL;
    tk_status s;
    switch (type) {
    case TK_DEVICE_CPU: *out = &tkr_cpu_device; return TK_OK;
    case TK_DEVICE_CUDA_EMU: s = tkr_emu_device_open(&d, err, errlen); break;
    case TK_DEVICE_CUDA: s = tkr_cuda_device_open(&d, err, errlen); break;
    default:
        snprintf(err, errlen, "tk_context_create: device type %d is not one of TK_DEVICE_CPU, TK_DEVICE_CUDA, TK_DEVICE_CUDA_EMU", (int)type);
        return TK_ERR_TARGET;
    }
    *out = d;
    return s;
}

void tkr_device_close(const TkrDevice *d)
{
    if (d && d->close) d->close((TkrDevice *)d);
}
