/* driver.c — see driver.h. */
#define _GNU_SOURCE
#include "driver.h"

#include "../../tools/tkc/evict_caches.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int bench_read_request(BenchRequest *r)
{
    char line[512];
    for (;;) {
        if (!fgets(line, sizeof line, stdin)) return 0;
        if (line[0] != '\n' && line[0] != '#') break;
    }
    memset(r, 0, sizeof *r);
    char temp[8] = "warm";
    int got = sscanf(line, "%15s %7s %ld %ld %ld %31s %d %d %d %7s", r->op, r->dtype, &r->M, &r->N, &r->K, r->variant, &r->threads,
                     &r->reps, &r->warmup, temp);
    r->cold = strcmp(temp, "cold") == 0;
    if ((got != 9 && got != 10) || (!r->cold && strcmp(temp, "warm") != 0) || r->M < 1 || r->N < 1 || r->K < 1 || r->threads < 1 || r->reps < 1 || r->reps > 10000 || r->warmup < 0) {
        line[strcspn(line, "\n")] = 0;
        bench_reply_error("malformed request '%s' (want: gemm DTYPE M N K VARIANT THREADS REPS WARMUP [cold|warm])", line);
        return -1;
    }
    return 1;
}

static void put_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') putchar('\\');
        putchar((unsigned char)*s >= 0x20 ? *s : ' ');
    }
    putchar('"');
}

void bench_reply_times(const char *impl, const double *ms, int n, const char *extra)
{
    printf("{\"ok\":true,\"impl\":");
    put_json_string(impl);
    printf(",\"times_ms\":[");
    for (int i = 0; i < n; i++) printf("%s%.6g", i ? "," : "", ms[i]);
    printf("]%s%s}\n", extra && *extra ? "," : "", extra ? extra : "");
    fflush(stdout);
}

void bench_reply_error(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printf("{\"ok\":false,\"error\":");
    put_json_string(msg);
    printf("}\n");
    fflush(stdout);
}

static void *alloc_aligned(size_t bytes)
{
    void *p = NULL;
    size_t align = bytes >= (4u << 20) ? (2u << 20) : 64;
    if (posix_memalign(&p, align, bytes ? bytes : 64) != 0) return NULL;
    if (bytes >= (4u << 20)) madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

float *bench_alloc_f32(size_t n, uint64_t seed)
{
    float *p = alloc_aligned(n * sizeof(float));
    if (!p) return NULL;
    uint64_t s = seed | 1;
    for (size_t i = 0; i < n; i++) p[i] = (float)((double)(next(&s) >> 11) / 9007199254740992.0 * 2 - 1);
    return p;
}

uint16_t *bench_alloc_bf16(size_t n, uint64_t seed)
{
    uint16_t *p = alloc_aligned(n * sizeof(uint16_t));
    if (!p) return NULL;
    uint64_t s = seed | 1;
    for (size_t i = 0; i < n; i++) {
        float f = (float)((double)(next(&s) >> 11) / 9007199254740992.0 * 2 - 1);
        uint32_t u;
        memcpy(&u, &f, 4);
        p[i] = (uint16_t)(u >> 16);   /* truncation is fine for timing data */
    }
    return p;
}

void bench_free(void *p) { free(p); }

void bench_time(void (*call)(void *), void *ctx, const BenchRequest *r, double *out)
{
    int warmup = r->warmup, reps = r->reps;
    for (int i = 0; i < warmup; i++) call(ctx);
    if (r->cold) {
        for (int i = 0; i < reps; i++) {
            tk_evict_caches(r->threads);
            double t0 = now_ms();
            call(ctx);
            out[i] = now_ms() - t0;
        }
        return;
    }
    /* how many calls make a sample of ≥ 0.1 ms (one call if it is longer) */
    double t0 = now_ms();
    call(ctx);
    double one = now_ms() - t0;
    int inner = one >= 0.1 ? 1 : (int)(0.1 / (one > 1e-5 ? one : 1e-5)) + 1;
    if (inner > 100000) inner = 100000;
    for (int s = 0; s < reps; s++) {
        t0 = now_ms();
        for (int i = 0; i < inner; i++) call(ctx);
        out[s] = (now_ms() - t0) / inner;
    }
}
