/* device_cpu.c — the CPU device: memory from the system (big blocks in 2 MiB
 * pages), memcpy, and the kernels' thread pool (targets/cpu/launch.c). */
#define _DEFAULT_SOURCE   /* madvise, MAP_ANONYMOUS */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "device.h"
#include "launch.h"

/* Above this a block is mapped on its own, 2 MiB aligned and advised to use
 * huge pages: first-touch faults cost 11–16 µs per 4 KiB page on these VMs
 * (shared/TOOLCHAIN.md), 512 times fewer faults with 2 MiB pages. */
#define TKR_HUGE_THRESHOLD (4u << 20)
#define TKR_HUGE_PAGE (2u << 20)

static size_t mapped_size(size_t bytes) { return (bytes + TKR_HUGE_PAGE - 1) & ~(size_t)(TKR_HUGE_PAGE - 1); }

static void *cpu_alloc(size_t bytes)
{
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

static void cpu_free(void *p, size_t bytes)
{
    if (!p) return;
    if (bytes >= TKR_HUGE_THRESHOLD) munmap(p, mapped_size(bytes));
    else free(p);
}

static void cpu_copy(void *dst, const void *src, size_t bytes)
{
    if (bytes) memmove(dst, src, bytes);
}

static int cpu_launch(tk_grid_fn grid, tk_block_fn block, void **args, const int64_t *sizes, int threads, char *err,
                      size_t errlen)
{
    return tk_cpu_launch(grid, block, args, sizes, threads, err, errlen);
}

static void cpu_synchronize(void) {}

const TkrDevice tkr_cpu_device = {
    .name = "cpu",
    .type = TK_DEVICE_CPU,
    .alloc = cpu_alloc,
    .free = cpu_free,
    .copy = cpu_copy,
    .to_host = cpu_copy,
    .from_host = cpu_copy,
    .launch = cpu_launch,
    .synchronize = cpu_synchronize,
};
