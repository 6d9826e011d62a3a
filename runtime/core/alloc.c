/* alloc.c — the caching allocator (device.h). Sizes are rounded up to a
 * class (64-byte steps up to 1 KiB, then eight steps per power of two, so at
 * most 12.5% is wasted) and a freed block waits in its class for the next
 * request of the same class. The cache is a plain array scanned linearly:
 * a model's step frees a few dozen distinct sizes, not thousands. Over the
 * byte limit the oldest cached blocks go back to the device. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"

typedef struct {
    void *p;
    size_t size;
} Block;

struct TkrAllocator {
    const TkrDevice *dev;
    pthread_mutex_t lock;
    size_t limit, max_bytes;
    Block *cache;
    size_t ncache, cap;
    size_t cached_bytes, current, peak;
    uint64_t system_allocs;
};

static size_t size_class(size_t bytes)
{
    if (bytes <= 1024) return bytes ? (bytes + 63) & ~(size_t)63 : 64;
    size_t pow = 1024;
    while (pow < bytes / 2 + 1 && pow < ((size_t)1 << 62)) pow <<= 1;   /* pow <= bytes < 2 pow */
    size_t step = pow / 8;
    return (bytes + step - 1) / step * step;
}

TkrAllocator *tkr_alloc_create(const TkrDevice *dev, size_t cache_limit, size_t max_bytes)
{
    TkrAllocator *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->dev = dev;
    a->limit = cache_limit;
    a->max_bytes = max_bytes;
    pthread_mutex_init(&a->lock, NULL);
    return a;
}

static void drop_oldest(TkrAllocator *a)
{
    Block b = a->cache[0];
    memmove(a->cache, a->cache + 1, (a->ncache - 1) * sizeof *a->cache);
    a->ncache--;
    a->cached_bytes -= b.size;
    a->dev->free(b.p, b.size);
}

void *tkr_alloc(TkrAllocator *a, size_t bytes, size_t *got)
{
    size_t size = size_class(bytes);
    if (size < bytes) return NULL;   /* overflow */
    pthread_mutex_lock(&a->lock);
    if (a->max_bytes && (size > a->max_bytes || a->current > a->max_bytes - size)) {
        pthread_mutex_unlock(&a->lock);
        return NULL;
    }
    void *p = NULL;
    for (size_t i = a->ncache; i-- > 0;) {   /* newest first: it is likelier to be in cache */
        if (a->cache[i].size != size) continue;
        p = a->cache[i].p;
        memmove(a->cache + i, a->cache + i + 1, (a->ncache - i - 1) * sizeof *a->cache);
        a->ncache--;
        a->cached_bytes -= size;
        break;
    }
    if (!p) {
        p = a->dev->alloc(size);
        if (!p && a->ncache) {   /* give the cache back and try once more */
            while (a->ncache) drop_oldest(a);
            p = a->dev->alloc(size);
        }
        if (p) a->system_allocs++;
    }
    if (p) {
        a->current += size;
        if (a->current > a->peak) a->peak = a->current;
        *got = size;
    }
    pthread_mutex_unlock(&a->lock);
    return p;
}

size_t tkr_alloc_max(const TkrAllocator *a) { return a->max_bytes; }

void tkr_free(TkrAllocator *a, void *p, size_t got)
{
    if (!p) return;
    pthread_mutex_lock(&a->lock);
    a->current -= got;
    if (got > a->limit) {
        a->dev->free(p, got);
    } else {
        if (a->ncache == a->cap) {
            size_t cap = a->cap ? 2 * a->cap : 32;
            Block *c = realloc(a->cache, cap * sizeof *c);
            if (!c) {
                a->dev->free(p, got);
                pthread_mutex_unlock(&a->lock);
                return;
            }
            a->cache = c;
            a->cap = cap;
        }
        a->cache[a->ncache++] = (Block){ p, got };
        a->cached_bytes += got;
        while (a->cached_bytes > a->limit) drop_oldest(a);
    }
    pthread_mutex_unlock(&a->lock);
}

void tkr_alloc_stats(TkrAllocator *a, tk_memory_stats *out)
{
    pthread_mutex_lock(&a->lock);
    out->current_bytes = a->current;
    out->peak_bytes = a->peak;
    out->cached_bytes = a->cached_bytes;
    out->system_allocs = a->system_allocs;
    pthread_mutex_unlock(&a->lock);
}

void tkr_alloc_empty(TkrAllocator *a)
{
    pthread_mutex_lock(&a->lock);
    while (a->ncache) drop_oldest(a);
    pthread_mutex_unlock(&a->lock);
}

void tkr_alloc_destroy(TkrAllocator *a)
{
    if (!a) return;
    tkr_alloc_empty(a);
    free(a->cache);
    pthread_mutex_destroy(&a->lock);
    free(a);
}
