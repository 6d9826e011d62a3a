/* xsmm.c — libxsmm (Debian libxsmm-dev 1.17) JIT small-matrix kernels as a
 * peer, over the line protocol of driver.h.
 *
 *   gemm f32|bf16 M N K - 1 REPS WARMUP
 *
 * libxsmm is column-major; the row-major product C[M,N] = A[M,K]·B[K,N] is the
 * column-major C^T = B^T·A^T, i.e. a kernel (m, n, k) = (N, M, K) called with
 * (B, A, C). One call is one small product on the calling thread: libxsmm's
 * small kernels have no threading, so 1 thread only. bf16: libxsmm_bsmmdispatch
 * (bf16 inputs, f32 output); libxsmm 1.17 wants the first operand in its VNNI
 * (pairs of k) layout — the data is random, so the layout is set once and
 * costs nothing in the timed calls. The JIT chooses its code for the CPU it
 * detects, reported as "arch". */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxsmm.h>

#include "driver.h"

typedef struct {
    BenchRequest req;
    void *a, *b;
    float *c;
    libxsmm_smmfunction f32;
    libxsmm_bsmmfunction bf16;
    const char *flags;
} Case;

static void run_f32(void *ctx)
{
    Case *c = ctx;
    c->f32(c->b, c->a, c->c);
}

static void run_bf16(void *ctx)
{
    Case *c = ctx;
    c->bf16(c->b, c->a, c->c);
}

static void case_free(Case *c)
{
    bench_free(c->a);
    bench_free(c->b);
    bench_free(c->c);
    memset(c, 0, sizeof *c);
}

static int case_build(Case *c, const BenchRequest *r)
{
    bool bf16 = strcmp(r->dtype, "bf16") == 0;
    libxsmm_blasint m = (libxsmm_blasint)r->N, n = (libxsmm_blasint)r->M, k = (libxsmm_blasint)r->K;
    float alpha = 1, beta = 0;
    int prefetch = LIBXSMM_GEMM_PREFETCH_NONE;
    c->req = *r;
    if (bf16) {
        int flags = 0;
        c->flags = "plain";
        c->bf16 = libxsmm_bsmmdispatch(m, n, k, NULL, NULL, NULL, &alpha, &beta, &flags, &prefetch);
        if (!c->bf16) {
            flags = LIBXSMM_GEMM_FLAG_VNNI_A;
            c->flags = "VNNI_A";
            c->bf16 = libxsmm_bsmmdispatch(m, n, k, NULL, NULL, NULL, &alpha, &beta, &flags, &prefetch);
        }
        if (!c->bf16) {
            bench_reply_error("libxsmm: no bf16 kernel for %ldx%ldx%ld on arch %s", r->M, r->N, r->K, libxsmm_get_target_arch());
            return -1;
        }
        c->a = bench_alloc_bf16((size_t)(r->M * r->K), 1);
        c->b = bench_alloc_bf16((size_t)(r->K * r->N), 2);
    } else {
        int flags = 0;
        c->flags = "plain";
        c->f32 = libxsmm_smmdispatch(m, n, k, NULL, NULL, NULL, &alpha, &beta, &flags, &prefetch);
        if (!c->f32) {
            bench_reply_error("libxsmm: no f32 kernel for %ldx%ldx%ld on arch %s", r->M, r->N, r->K, libxsmm_get_target_arch());
            return -1;
        }
        c->a = bench_alloc_f32((size_t)(r->M * r->K), 1);
        c->b = bench_alloc_f32((size_t)(r->K * r->N), 2);
    }
    c->c = bench_alloc_f32((size_t)(r->M * r->N), 3);
    if (!c->a || !c->b || !c->c) {
        bench_reply_error("out of memory");
        return -1;
    }
    return 0;
}

int main(void)
{
    libxsmm_init();
    Case c;
    memset(&c, 0, sizeof c);
    BenchRequest r;
    int got;
    while ((got = bench_read_request(&r)) != 0) {
        if (got < 0) continue;
        if (strcmp(r.op, "gemm") != 0 || (strcmp(r.dtype, "f32") && strcmp(r.dtype, "bf16"))) {
            bench_reply_error("libxsmm driver: wants gemm f32|bf16");
            continue;
        }
        if (r.threads != 1) {
            bench_reply_error("libxsmm: small kernels run on the calling thread; 1 thread only");
            continue;
        }
        case_free(&c);
        if (case_build(&c, &r) != 0) {
            case_free(&c);
            continue;
        }
        double *ms = malloc(sizeof(double) * (size_t)r.reps);
        if (!ms) return 1;
        bench_time(c.bf16 ? run_bf16 : run_f32, &c, &r, ms);
        char impl[128], extra[256];
        snprintf(impl, sizeof impl, "libxsmm %s (%s)", c.bf16 ? "bsmm" : "smm", libxsmm_get_target_arch());
        snprintf(extra, sizeof extra, "\"version\":\"%s\",\"arch\":\"%s\",\"flags\":\"%s\"", LIBXSMM_VERSION, libxsmm_get_target_arch(),
                 c.flags);
        bench_reply_times(impl, ms, r.reps, extra);
        free(ms);
    }
    case_free(&c);
    libxsmm_finalize();
    return 0;
}
