/* openblas.c — OpenBLAS (Debian libopenblas, pthread build) cblas_sgemm as a
 * peer, over the line protocol of driver.h.
 *
 *   gemm f32 M N K - THREADS REPS WARMUP
 *
 * C[M,N] = A[M,K] · B[K,N], all f32, row-major. Debian's OpenBLAS has no bf16
 * gemm (sbgemm), so f32 only. Threads: OpenBLAS's own pthread pool,
 * openblas_set_num_threads(). Which kernel it runs depends on the environment
 * at load time (OPENBLAS_CORETYPE, OPENBLAS_L2_SIZE): bench.py starts this
 * driver twice, once with the environment as the machine has it and once with
 * both unset, and every answer names the core OpenBLAS chose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "driver.h"

typedef struct {
    BenchRequest req;
    float *a, *b, *c;
} Case;

static void run_sgemm(void *ctx)
{
    Case *c = ctx;
    const BenchRequest *r = &c->req;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)r->M, (blasint)r->N, (blasint)r->K, 1.0f, c->a,
                (blasint)r->K, c->b, (blasint)r->N, 0.0f, c->c, (blasint)r->N);
}

static void case_free(Case *c)
{
    bench_free(c->a);
    bench_free(c->b);
    bench_free(c->c);
    memset(c, 0, sizeof *c);
}

int main(void)
{
    Case c;
    memset(&c, 0, sizeof c);
    BenchRequest r;
    int got;
    while ((got = bench_read_request(&r)) != 0) {
        if (got < 0) continue;
        if (strcmp(r.op, "gemm") != 0 || strcmp(r.dtype, "f32") != 0) {
            bench_reply_error("OpenBLAS driver: f32 gemm only (Debian's OpenBLAS has no bf16 gemm)");
            continue;
        }
        if (!c.a || c.req.M != r.M || c.req.N != r.N || c.req.K != r.K) {
            case_free(&c);
            c.a = bench_alloc_f32((size_t)(r.M * r.K), 1);
            c.b = bench_alloc_f32((size_t)(r.K * r.N), 2);
            c.c = bench_alloc_f32((size_t)(r.M * r.N), 3);
            if (!c.a || !c.b || !c.c) {
                case_free(&c);
                bench_reply_error("out of memory");
                continue;
            }
        }
        c.req = r;
        openblas_set_num_threads(r.threads);
        double *ms = malloc(sizeof(double) * (size_t)r.reps);
        if (!ms) return 1;
        bench_time(run_sgemm, &c, &r, ms);
        const char *env_core = getenv("OPENBLAS_CORETYPE");
        const char *env_l2 = getenv("OPENBLAS_L2_SIZE");
        char impl[128], extra[512];
        snprintf(impl, sizeof impl, "OpenBLAS sgemm (%s kernel)", openblas_get_corename());
        snprintf(extra, sizeof extra,
                 "\"corename\":\"%s\",\"config\":\"%s\",\"threads\":%d,\"OPENBLAS_CORETYPE\":\"%s\",\"OPENBLAS_L2_SIZE\":\"%s\"",
                 openblas_get_corename(), openblas_get_config(), openblas_get_num_threads(), env_core ? env_core : "(unset)",
                 env_l2 ? env_l2 : "(unset)");
        bench_reply_times(impl, ms, r.reps, extra);
        free(ms);
    }
    case_free(&c);
    return 0;
}
