/* driver.h — what every C peer driver shares: the line protocol with
 * bench/bench.py, aligned touched buffers, and the timing loop.
 *
 * Protocol: the driver reads one request per line on stdin,
 *     gemm DTYPE M N K VARIANT THREADS REPS WARMUP [cold|warm]
 * and answers one JSON line on stdout,
 *     {"ok":true,"impl":"...","times_ms":[...]}   or   {"ok":false,"error":"..."}
 * so one process serves a whole run: the harness can interleave peers case by
 * case without paying library start-up (and JIT) each time. */
#ifndef BENCH_DRIVER_H
#define BENCH_DRIVER_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char op[16];        /* "gemm" */
    char dtype[8];      /* "f32" or "bf16" */
    long M, N, K;
    char variant[32];   /* driver-specific: "packed", "plain", "-" */
    int threads, reps, warmup;
    int cold;           /* 1: evict the caches before every timed call (bench_time) */
} BenchRequest;

/* 1: a request was read; 0: end of input; -1: a malformed line (already answered). */
int bench_read_request(BenchRequest *r);

/* Answers with the samples (ms per call) and an optional extra JSON member list
 * (without braces, e.g. "\"kernel\":\"avx512\""), or with an error. */
void bench_reply_times(const char *impl, const double *ms, int n, const char *extra);
void bench_reply_error(const char *fmt, ...);

/* 64-byte aligned, huge pages where possible, every page written: first-touch
 * faults are very slow on these VMs and must not land in a timed call. Values in
 * [-1, 1) from a fixed seed (so no denormals or NaNs skew the timings). */
float *bench_alloc_f32(size_t n, uint64_t seed);
uint16_t *bench_alloc_bf16(size_t n, uint64_t seed);   /* bf16 bit patterns */
void bench_free(void *p);

/* Times `call(ctx)` as request r asks: r->warmup untimed calls, then r->reps
 * samples. A sample is the mean of enough back-to-back calls to last ≥ 0.1 ms,
 * so a 32³ product is not lost in clock resolution. With r->cold, a sample is
 * one call made after the caches were evicted (tools/tkc/evict_caches.h), as a decode
 * step finds its weights in a real model. Writes ms per call into out[0..reps). */
void bench_time(void (*call)(void *), void *ctx, const BenchRequest *r, double *out);

#endif
