/* evict_caches.h — empties the caches before a timed call: `tkc run --cold`
 * and the bench's C peers (bench/peers/driver.c includes this file, so every
 * implementation in a cold case is timed after the same eviction).
 *
 * tk_evict_caches(threads) reads a buffer of 4× the last-level cache (at least
 * 128 MiB), so nothing the previous call touched is left in L2 or L3. Reading
 * leaves no dirty lines to be written back during the timed call. Every
 * thread of the call reads its share: a core left idle through the eviction
 * is slow to wake (on these VMs the timed call then ran at one core's
 * bandwidth). Header-only, so the peers need not link TileKit; the buffer is
 * allocated once and kept. */
#ifndef TK_EVICT_CACHES_H
#define TK_EVICT_CACHES_H

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
    const float *p;
    size_t n;
} TkEvictShare;

static void *tk_evict_share(void *arg)
{
    const TkEvictShare *s = arg;
    float sum = 0;
    for (size_t i = 0; i < s->n; i += 16) sum += s->p[i];   /* one load per 64-byte line */
    volatile float sink = sum;
    (void)sink;
    return NULL;
}

static void tk_evict_caches(int threads)
{
    static float *buf;
    static size_t n;
    if (!buf) {
        long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
        size_t bytes = llc > 0 ? 4 * (size_t)llc : 0;
        if (bytes < (128u << 20)) bytes = 128u << 20;
        if (!(buf = malloc(bytes))) return;
        n = bytes / sizeof(float);
        for (size_t i = 0; i < n; i++) buf[i] = (float)(i & 7);   /* touched once, here */
    }
    enum { MAX_EVICTORS = 64 };
    if (threads < 1) threads = 1;
    if (threads > MAX_EVICTORS) threads = MAX_EVICTORS;
    pthread_t tid[MAX_EVICTORS];
    bool started[MAX_EVICTORS];
    TkEvictShare share[MAX_EVICTORS];
    size_t per = (n / (size_t)threads + 15) & ~(size_t)15;
    for (int t = 0; t < threads; t++) {
        size_t lo = (size_t)t * per < n ? (size_t)t * per : n;
        share[t] = (TkEvictShare){ buf + lo, n - lo < per ? n - lo : per };
        /* thread 0 is this one; a thread that cannot start has its share read here */
        started[t] = t > 0 && pthread_create(&tid[t], NULL, tk_evict_share, &share[t]) == 0;
    }
    for (int t = 0; t < threads; t++)
        if (!started[t]) tk_evict_share(&share[t]);
    for (int t = 1; t < threads; t++)
        if (started[t]) pthread_join(tid[t], NULL);
}

#endif
