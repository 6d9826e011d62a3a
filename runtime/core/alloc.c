/* alloc.c — the caching allocator (device.h). Sizes are rounded up to a
 * class (64-byte steps up to 1 KiB, then eight steps per power of two, so at
 * most 12.5% is wasted) and a freed block waits in its class for the next
 * request of the same class. The cache is a plain array scanned linearly:
 * a model's step frees a few dozen distinct sizes, not thousands. Over the
 * byte limit the oldest cached blocks go back to the device.
 *
 * Arenas (device.h) sit beside the cache: a planner's block, carved at the
 * offsets it armed the calling thread with. The arming is per thread so that
 * another model running in the same context, or a kernel's worker, never
 * takes a planned place; a block carved from an arena is recognised on free
 * by its address (a model has one arena live at a time, rarely two). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"

typedef struct {
    void *p;
    size_t size;
} Block;

typedef struct {
    size_t bytes, offset;
    bool taken, live;
} Armed;

struct TkrArena {
    TkrAllocator *alloc;
    TkrArena *next;          /* the allocator's list of arenas */
    char *base;
    size_t bytes, got;       /* asked for, and the block's real size (for tkr_free) */
    size_t outstanding;      /* blocks handed out, not freed */
    bool released;           /* the planner let go: free with the last block */
    Armed armed[TKR_ARENA_MAX_ARMED];
    int narmed;
};

/* The arena this thread's next allocations are placed in (NULL: none). */
static _Thread_local TkrArena *armed_here;

struct TkrAllocator {
    const TkrDevice *dev;
    pthread_mutex_t lock;
    size_t limit, max_bytes;
    Block *cache;
    size_t ncache, cap;
    size_t cached_bytes, current, peak;
    uint64_t system_allocs;
    TkrArena *arenas;
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
    a->dev->free(a->dev, b.p, b.size);
}

/* An armed entry of exactly `bytes` (the size a planner computed for a value): its place, or NULL. */
static void *take_armed(TkrAllocator *a, TkrArena *r, size_t bytes, size_t *got)
{
    void *p = NULL;
    pthread_mutex_lock(&a->lock);
    for (int k = 0; k < r->narmed && !p; k++)
        if (!r->armed[k].taken && r->armed[k].bytes == bytes) {
            r->armed[k].taken = r->armed[k].live = true;
            r->outstanding++;
            p = r->base + r->armed[k].offset;
            *got = bytes;
        }
    pthread_mutex_unlock(&a->lock);
    return p;
}

void *tkr_alloc(TkrAllocator *a, size_t bytes, size_t *got)
{
    TkrArena *r = armed_here;
    if (r && r->alloc == a && bytes) {
        void *p = take_armed(a, r, bytes, got);
        if (p) return p;
    }
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
        p = a->dev->alloc(a->dev, size);
        if (!p && a->ncache) {   /* give the cache back and try once more */
            while (a->ncache) drop_oldest(a);
            p = a->dev->alloc(a->dev, size);
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

/* Under the lock: unlinks r from a's list. */
static void unlink_arena(TkrAllocator *a, TkrArena *r)
{
    for (TkrArena **at = &a->arenas; *at; at = &(*at)->next)
        if (*at == r) {
            *at = r->next;
            return;
        }
}

/* Under the lock: p's arena when p was carved from one; its block is given back there. */
static TkrArena *free_in_arena(TkrAllocator *a, void *p, bool *drop)
{
    for (TkrArena *r = a->arenas; r; r = r->next)
        if ((char *)p >= r->base && (char *)p < r->base + r->bytes) {
            r->outstanding--;
            for (int k = 0; k < r->narmed; k++)
                if (r->armed[k].live && r->base + r->armed[k].offset == (char *)p) r->armed[k].live = false;
            *drop = r->released && r->outstanding == 0;
            if (*drop) unlink_arena(a, r);
            return r;
        }
    return NULL;
}

void tkr_free(TkrAllocator *a, void *p, size_t got)
{
    if (!p) return;
    pthread_mutex_lock(&a->lock);
    bool drop = false;
    TkrArena *r = a->arenas ? free_in_arena(a, p, &drop) : NULL;
    if (r) {
        pthread_mutex_unlock(&a->lock);
        if (drop) {   /* the last block of a released arena: its memory goes back like any block */
            tkr_free(a, r->base, r->got);
            free(r);
        }
        return;
    }
    a->current -= got;
    if (got > a->limit) {
        a->dev->free(a->dev, p, got);
    } else {
        if (a->ncache == a->cap) {
            size_t cap = a->cap ? 2 * a->cap : 32;
            Block *c = realloc(a->cache, cap * sizeof *c);
            if (!c) {
                a->dev->free(a->dev, p, got);
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
    while (a->arenas) {   /* blocks still out (a leak the context reports): the memory goes anyway */
        TkrArena *r = a->arenas;
        a->arenas = r->next;
        a->dev->free(a->dev, r->base, r->got);
        free(r);
    }
    tkr_alloc_empty(a);
    free(a->cache);
    pthread_mutex_destroy(&a->lock);
    free(a);
}

/* ------------------------------------------------------------ arenas */

TkrArena *tkr_arena_suspend(void)
{
    TkrArena *r = armed_here;
    armed_here = NULL;
    return r;
}

void tkr_arena_resume(TkrArena *r) { armed_here = r; }

TkrArena *tkr_arena_new(TkrAllocator *a, size_t bytes)
{
    TkrArena *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->alloc = a;
    r->bytes = bytes;
    TkrArena *was = tkr_arena_suspend();   /* the arena's own block is never a planned place */
    r->base = bytes ? tkr_alloc(a, bytes, &r->got) : NULL;
    tkr_arena_resume(was);
    if (!r->base) {
        free(r);
        return NULL;
    }
    pthread_mutex_lock(&a->lock);
    r->next = a->arenas;
    a->arenas = r;
    pthread_mutex_unlock(&a->lock);
    return r;
}

void tkr_arena_release(TkrArena *r)
{
    if (!r) return;
    TkrAllocator *a = r->alloc;
    if (armed_here == r) armed_here = NULL;
    pthread_mutex_lock(&a->lock);
    r->released = true;
    r->narmed = 0;
    bool drop = r->outstanding == 0;
    if (drop) unlink_arena(a, r);
    pthread_mutex_unlock(&a->lock);
    if (drop) {
        tkr_free(a, r->base, r->got);
        free(r);
    }
}

size_t tkr_arena_bytes(const TkrArena *r) { return r ? r->bytes : 0; }
char *tkr_arena_base(const TkrArena *r) { return r ? r->base : NULL; }

bool tkr_arena_contains(const TkrArena *r, const void *p)
{
    return r && p && (const char *)p >= r->base && (const char *)p < r->base + r->bytes;
}

size_t tkr_arena_outstanding(TkrArena *r)
{
    pthread_mutex_lock(&r->alloc->lock);
    size_t n = r->outstanding;
    pthread_mutex_unlock(&r->alloc->lock);
    return n;
}

void tkr_arena_arm(TkrArena *r, int n, const size_t *sizes, const size_t *offsets)
{
    if (n > TKR_ARENA_MAX_ARMED) n = TKR_ARENA_MAX_ARMED;
    pthread_mutex_lock(&r->alloc->lock);
    for (int k = 0; k < n; k++) r->armed[k] = (Armed){ sizes[k], offsets[k], false, false };
    r->narmed = n;
    pthread_mutex_unlock(&r->alloc->lock);
    armed_here = r;
}

void tkr_arena_disarm(TkrArena *r, bool *taken, bool *live)
{
    if (armed_here == r) armed_here = NULL;
    pthread_mutex_lock(&r->alloc->lock);
    for (int k = 0; k < r->narmed; k++) {
        if (taken) taken[k] = r->armed[k].taken;
        if (live) live[k] = r->armed[k].live;
    }
    r->narmed = 0;
    pthread_mutex_unlock(&r->alloc->lock);
}
