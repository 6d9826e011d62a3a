/* onednn.c — oneDNN (Debian libdnnl 2.x, C API) matmul as a peer, over the
 * line protocol of driver.h.
 *
 *   gemm f32|bf16 M N K packed|plain THREADS REPS WARMUP
 *
 * C[M,N] (f32) = A[M,K] · B[K,N], A and C row-major; A and B f32, or both bf16.
 * "plain": B is a row-major memory as a caller has it; oneDNN may repack it
 *          inside every call, and that cost is part of what is timed.
 * "packed": B's memory descriptor is format_tag::any, so the primitive picks
 *          its preferred blocked layout; B is reordered into it ONCE, outside
 *          the timed calls — inference with pre-packed weights.
 * Threads: Debian builds oneDNN on OpenMP, so omp_set_num_threads() before the
 * primitive is created (it sizes its work split then). */
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>

#include "driver.h"

#define CHECK(call)                                                                            \
    do {                                                                                       \
        dnnl_status_t st_ = (call);                                                            \
        if (st_ != dnnl_success) {                                                             \
            bench_reply_error("oneDNN: %s failed (status %d)", #call, (int)st_);               \
            goto fail;                                                                         \
        }                                                                                      \
    } while (0)

typedef struct {
    BenchRequest req;   /* the case these objects were built for */
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    dnnl_primitive_t matmul;
    dnnl_memory_t a, b, c;
    void *a_buf, *b_buf, *c_buf;
    char impl[256];
} Case;

static void case_free(Case *c)
{
    if (c->matmul) dnnl_primitive_destroy(c->matmul);
    if (c->a) dnnl_memory_destroy(c->a);
    if (c->b) dnnl_memory_destroy(c->b);
    if (c->c) dnnl_memory_destroy(c->c);
    bench_free(c->a_buf);
    bench_free(c->b_buf);
    bench_free(c->c_buf);
    dnnl_engine_t e = c->engine;
    dnnl_stream_t s = c->stream;
    memset(c, 0, sizeof *c);
    c->engine = e;
    c->stream = s;
}

static int case_build(Case *c, const BenchRequest *r)
{
    bool bf16 = strcmp(r->dtype, "bf16") == 0;
    bool packed = strcmp(r->variant, "packed") == 0;
    dnnl_data_type_t in_t = bf16 ? dnnl_bf16 : dnnl_f32;
    size_t in_size = bf16 ? 2 : 4;
    dnnl_primitive_desc_t pd = NULL, rpd = NULL;
    dnnl_primitive_t reorder = NULL;
    dnnl_memory_t b_plain = NULL;
    dnnl_memory_desc_t a_md, b_md, b_plain_md, c_md;
    dnnl_matmul_desc_t desc;
    dnnl_dims_t a_dims = { r->M, r->K }, b_dims = { r->K, r->N }, c_dims = { r->M, r->N };

    c->req = *r;
    omp_set_num_threads(r->threads);
    CHECK(dnnl_memory_desc_init_by_tag(&a_md, 2, a_dims, in_t, dnnl_ab));
    CHECK(dnnl_memory_desc_init_by_tag(&b_plain_md, 2, b_dims, in_t, dnnl_ab));
    CHECK(dnnl_memory_desc_init_by_tag(&b_md, 2, b_dims, in_t, packed ? dnnl_format_tag_any : dnnl_ab));
    CHECK(dnnl_memory_desc_init_by_tag(&c_md, 2, c_dims, dnnl_f32, dnnl_ab));
    CHECK(dnnl_matmul_desc_init(&desc, &a_md, &b_md, NULL, &c_md));
    CHECK(dnnl_primitive_desc_create(&pd, &desc, NULL, c->engine, NULL));
    const char *impl = NULL;
    CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl));
    snprintf(c->impl, sizeof c->impl, "oneDNN %s", impl ? impl : "?");
    CHECK(dnnl_primitive_create(&c->matmul, pd));

    c->a_buf = bf16 ? (void *)bench_alloc_bf16((size_t)(r->M * r->K), 1) : (void *)bench_alloc_f32((size_t)(r->M * r->K), 1);
    c->c_buf = bench_alloc_f32((size_t)(r->M * r->N), 3);
    if (!c->a_buf || !c->c_buf) {
        bench_reply_error("out of memory");
        goto fail;
    }
    CHECK(dnnl_memory_create(&c->a, &a_md, c->engine, c->a_buf));
    CHECK(dnnl_memory_create(&c->c, &c_md, c->engine, c->c_buf));

    const dnnl_memory_desc_t *want_b = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
    size_t b_bytes = dnnl_memory_desc_get_size(want_b);
    if (b_bytes < (size_t)(r->K * r->N) * in_size) b_bytes = (size_t)(r->K * r->N) * in_size;
    c->b_buf = bench_alloc_f32((b_bytes + 3) / 4, 2);   /* touched; contents set below */
    if (!c->b_buf) {
        bench_reply_error("out of memory");
        goto fail;
    }
    if (packed) {
        /* the weights as the caller has them, reordered once into the primitive's layout */
        void *src = bf16 ? (void *)bench_alloc_bf16((size_t)(r->K * r->N), 2) : (void *)bench_alloc_f32((size_t)(r->K * r->N), 2);
        if (!src) {
            bench_reply_error("out of memory");
            goto fail;
        }
        CHECK(dnnl_memory_create(&b_plain, &b_plain_md, c->engine, src));
        CHECK(dnnl_memory_create(&c->b, want_b, c->engine, c->b_buf));
        CHECK(dnnl_reorder_primitive_desc_create(&rpd, &b_plain_md, c->engine, want_b, c->engine, NULL));
        CHECK(dnnl_primitive_create(&reorder, rpd));
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, b_plain }, { DNNL_ARG_TO, c->b } };
        CHECK(dnnl_primitive_execute(reorder, c->stream, 2, args));
        CHECK(dnnl_stream_wait(c->stream));
        dnnl_primitive_destroy(reorder);
        dnnl_primitive_desc_destroy(rpd);
        dnnl_memory_destroy(b_plain);
        bench_free(src);
    } else {
        if (bf16) {   /* bf16 bit patterns of values in [-1, 1) */
            uint16_t *src = bench_alloc_bf16((size_t)(r->K * r->N), 2);
            if (!src) {
                bench_reply_error("out of memory");
                goto fail;
            }
            memcpy(c->b_buf, src, (size_t)(r->K * r->N) * 2);
            bench_free(src);
        }
        CHECK(dnnl_memory_create(&c->b, &b_plain_md, c->engine, c->b_buf));
    }
    dnnl_primitive_desc_destroy(pd);
    return 0;
fail:
    if (reorder) dnnl_primitive_destroy(reorder);
    if (rpd) dnnl_primitive_desc_destroy(rpd);
    if (b_plain) dnnl_memory_destroy(b_plain);
    if (pd) dnnl_primitive_desc_destroy(pd);
    case_free(c);
    return -1;
}

static void run_matmul(void *ctx)
{
    Case *c = ctx;
    dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC, c->a }, { DNNL_ARG_WEIGHTS, c->b }, { DNNL_ARG_DST, c->c } };
    dnnl_primitive_execute(c->matmul, c->stream, 3, args);
    dnnl_stream_wait(c->stream);
}

static bool same_case(const BenchRequest *x, const BenchRequest *y)
{
    return strcmp(x->dtype, y->dtype) == 0 && x->M == y->M && x->N == y->N && x->K == y->K &&
           strcmp(x->variant, y->variant) == 0 && x->threads == y->threads;
}

int main(void)
{
    Case c;
    memset(&c, 0, sizeof c);
    if (dnnl_engine_create(&c.engine, dnnl_cpu, 0) != dnnl_success || dnnl_stream_create(&c.stream, c.engine, dnnl_stream_default_flags) != dnnl_success) {
        bench_reply_error("oneDNN: cannot create a CPU engine");
        return 1;
    }
    const dnnl_version_t *v = dnnl_version();
    BenchRequest r;
    int got;
    while ((got = bench_read_request(&r)) != 0) {
        if (got < 0) continue;
        if (strcmp(r.op, "gemm") != 0 || (strcmp(r.dtype, "f32") && strcmp(r.dtype, "bf16")) ||
            (strcmp(r.variant, "packed") && strcmp(r.variant, "plain"))) {
            bench_reply_error("oneDNN driver: wants gemm f32|bf16 ... packed|plain");
            continue;
        }
        if (!c.matmul || !same_case(&c.req, &r)) {
            case_free(&c);
            if (case_build(&c, &r) != 0) continue;
        }
        double *ms = malloc(sizeof(double) * (size_t)r.reps);
        if (!ms) return 1;
        omp_set_num_threads(r.threads);
        bench_time(run_matmul, &c, &r, ms);
        char extra[128];
        snprintf(extra, sizeof extra, "\"version\":\"%d.%d.%d\",\"threads\":%d", v->major, v->minor, v->patch, omp_get_max_threads());
        bench_reply_times(c.impl, ms, r.reps, extra);
        free(ms);
    }
    case_free(&c);
    dnnl_stream_destroy(c.stream);
    dnnl_engine_destroy(c.engine);
    return 0;
}
