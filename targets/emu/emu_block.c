/* emu_block.c — running one block of an emulated kernel: every GPU thread a
 * fiber (ucontext) on its own stack, switched only where a thread must wait
 * for others: the lanes of its warp at a matrix instruction or a shuffle,
 * or the whole block at a sync(). A scheduler runs
 * the fibers round-robin until all have finished; a round in which nothing
 * happens (lanes waiting at a collective that the rest of the warp never
 * reaches) is a failure with a message, not a hang.
 *
 * Fibers and their stacks belong to the host thread that runs the block
 * (blocks of one launch may run on several host threads at once). Under
 * AddressSanitizer every switch is announced to it (the fiber API of
 * sanitizer/common_interface_defs.h), so that it knows which stack is live. */
#define _GNU_SOURCE   /* MAP_ANONYMOUS, ucontext */
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "emu.h"
#include "emu_ldmatrix.h"
#include "emu_mma.h"
#include "emu_tma.h"
#include "emu_wgmma.h"
#include "gpu_emu_abi.h"

#if defined(__SANITIZE_ADDRESS__)
#define TK_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TK_EMU_ASAN 1
#endif
#endif
#ifdef TK_EMU_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

enum { WARP = 32, STACK_BYTES = 256 << 10, MAX_THREADS = 1024, MAX_COPIES = 64, GROUP = 128, MAX_MBARS = 32, MAX_TMA = 16 };

/* a cp.async in flight: the 16 bytes it will write, read when issued */
typedef struct {
    char *dst;
    unsigned char data[16];
} Copy;

typedef enum { FIBER_NEW, FIBER_READY, FIBER_DONE } FiberState;

typedef struct {
    ucontext_t uc;
    char *stack;              /* STACK_BYTES, above a guard page */
    FiberState state;
    int warp, lane;
    TkEmuEnv env;
    void *fake_stack;         /* AddressSanitizer's per-fiber state */
    Copy copies[MAX_COPIES];  /* cp.async issued, not landed */
    int ncopies;
} Fiber;

/* What a warp's lanes meet at: a matrix instruction (TK_EMU_MMA_*), a
 * shuffle, or an ldmatrix of some shape (COLLECTIVE_LDMATRIX - 2·num - trans). */
enum { COLLECTIVE_SHUFFLE = -1, COLLECTIVE_LDMATRIX = -2 };

static const char *collective_name(int32_t op)
{
    return op == COLLECTIVE_SHUFFLE ? "a shuffle" : op <= COLLECTIVE_LDMATRIX ? "an ldmatrix" : "a matrix instruction";
}

/* A warp's meeting point for collectives. The results (d, got) are written
 * when the last lane arrives and read by each lane after; the next
 * collective cannot complete before every lane has read them. */
typedef struct {
    int arrived, exited;
    uint32_t gen;             /* completed collectives */
    int32_t op;
    uint32_t a[WARP][4], b[WARP][2];
    float c[WARP][4], d[WARP][4];
    uint32_t offer[WARP], got[WARP];
    int32_t src[WARP];
    const void *row[WARP];    /* ldmatrix: each lane's row address */
    uint32_t ldm[WARP][4];
} Warp;

/* A warpgroup's meeting point for wgmma: the instruction's shape, each
 * thread's registers; D is written when the last thread arrives. */
typedef struct {
    int arrived;
    uint32_t gen;             /* completed wgmmas */
    int32_t n, f16, trans_b;
    uint64_t desc;
    uint32_t a[GROUP][4];
    float d[GROUP][128];
} Group;

/* A TMA copy issued and not landed: its map (copied: the thread's is on
 * its stack), the box's coordinates and where it goes. */
typedef struct {
    TkTmaDesc map;
    int32_t coords[TK_TMA_MAX_RANK];
    int64_t dst;
} TmaCopy;

/* An mbarrier, by its offset in the shared tiles: arrivals per phase and
 * still to come in this one, bytes announced and not yet delivered (it may
 * dip below zero while copies overtake their announcement), completed
 * phases, and the copies that will deliver. */
typedef struct {
    int64_t off;
    int count, pending;
    int64_t tx;
    uint32_t phase;
    TmaCopy copies[MAX_TMA];
    int ncopies;
    int waiting;
} Mbar;

typedef struct {
    TkEmuThreadFn fn;
    void **args;
    const int64_t *sizes;
    Fiber *fibers;            /* MAX_THREADS, stacks mapped on first use */
    Warp warps[MAX_THREADS / WARP];
    Group groups[MAX_THREADS / GROUP];
    Mbar mbars[MAX_MBARS];
    int nmbars;
    int n;
    int exited;               /* threads of the block that have returned */
    int bar_arrived;          /* threads waiting at sync() */
    uint32_t bar_gen;         /* completed sync()s */
    char *shared;             /* the block's shared tiles */
    size_t shared_cap;
    int64_t shared_bytes;     /* this kernel's */
    Fiber *cur;
    ucontext_t main;
    const void *main_bottom;  /* the scheduler's stack, for AddressSanitizer */
    size_t main_size;
    unsigned long events;     /* arrivals, completions, exits: progress */
    bool failed;
    char why[256];
} Block;

static __thread Block *tls_block;   /* this host thread's fibers, reused by its blocks */

/* ---------------------------------------------------------------- errors */

static pthread_mutex_t error_lock = PTHREAD_MUTEX_INITIALIZER;
static char first_error[512];
static int have_error;

static void report(const char *msg)
{
    pthread_mutex_lock(&error_lock);
    if (!have_error) {
        snprintf(first_error, sizeof first_error, "%s", msg);
        have_error = 1;
    }
    pthread_mutex_unlock(&error_lock);
}

int tk_emu_take_error(char *err, size_t errlen)
{
    pthread_mutex_lock(&error_lock);
    int had = have_error;
    if (had) snprintf(err, errlen, "%s", first_error);
    have_error = 0;
    first_error[0] = '\0';
    pthread_mutex_unlock(&error_lock);
    return had;
}

static void fail(Block *b, const char *fmt, ...)
{
    if (b->failed) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->why, sizeof b->why, fmt, ap);
    va_end(ap);
    b->failed = true;
}

/* ---------------------------------------------------------------- switching */

static void to_fiber(Block *b, Fiber *f)
{
    b->cur = f;
#ifdef TK_EMU_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, f->stack, STACK_BYTES);
    swapcontext(&b->main, &f->uc);
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#else
    swapcontext(&b->main, &f->uc);
#endif
}

/* From fiber f back to the scheduler; returns when f is resumed. */
static void to_scheduler(Block *b, Fiber *f)
{
#ifdef TK_EMU_ASAN
    __sanitizer_start_switch_fiber(&f->fake_stack, b->main_bottom, b->main_size);
    swapcontext(&f->uc, &b->main);
    __sanitizer_finish_switch_fiber(f->fake_stack, &b->main_bottom, &b->main_size);
#else
    swapcontext(&f->uc, &b->main);
#endif
}

static void fiber_main(void)
{
    Block *b = tls_block;
    Fiber *f = b->cur;
#ifdef TK_EMU_ASAN
    __sanitizer_finish_switch_fiber(NULL, &b->main_bottom, &b->main_size);
#endif
    b->fn(b->args, b->sizes, &f->env);
    f->env.cp_async_wait(&f->env);   /* what a thread copied lands even if it never waits */
    f->state = FIBER_DONE;
    b->warps[f->warp].exited++;
    b->exited++;
    b->events++;
#ifdef TK_EMU_ASAN
    __sanitizer_start_switch_fiber(NULL, b->main_bottom, b->main_size);   /* this fiber ends */
#endif
    /* returning resumes uc_link: the scheduler */
}

/* ---------------------------------------------------------------- collectives */

/* A lane arrives at a warp collective of kind op; the last one completes it. */
static bool arrive(Block *b, Fiber *f, Warp *w, int32_t op)
{
    if (w->arrived == 0) w->op = op;
    else if (w->op != op)
        fail(b, "warp %d: its lanes reached different collectives (%s and %s)", f->warp, collective_name(w->op),
             collective_name(op));
    w->arrived++;
    b->events++;
    return w->arrived == WARP && !b->failed;
}

static void complete(Block *b, Warp *w)
{
    w->arrived = 0;
    w->gen++;
    b->events++;
}

static void emu_mma(TkEmuEnv *env, int32_t op, const uint32_t *a, const uint32_t *bregs, const float *c, float *d)
{
    Block *b = tls_block;
    Fiber *f = env->fiber;
    Warp *w = &b->warps[f->warp];
    if (op != TK_EMU_MMA_M16N8K16_BF16 && op != TK_EMU_MMA_M16N8K8_TF32 && op != TK_EMU_MMA_M16N8K16_F16)
        fail(b, "warp %d: unknown matrix instruction %d", f->warp, op);
    memcpy(w->a[f->lane], a, sizeof w->a[0]);
    memcpy(w->b[f->lane], bregs, sizeof w->b[0]);
    memcpy(w->c[f->lane], c, sizeof w->c[0]);
    uint32_t gen = w->gen;
    if (arrive(b, f, w, op)) {
        const uint32_t(*ra)[4] = (const uint32_t(*)[4])w->a, (*rb)[2] = (const uint32_t(*)[2])w->b;
        const float(*rc)[4] = (const float(*)[4])w->c;
        if (op == TK_EMU_MMA_M16N8K8_TF32) tk_emu_mma_m16n8k8_tf32(ra, rb, rc, w->d);
        else if (op == TK_EMU_MMA_M16N8K16_F16) tk_emu_mma_m16n8k16_f16(ra, rb, rc, w->d);
        else tk_emu_mma_m16n8k16_bf16(ra, rb, rc, w->d);
        complete(b, w);
    }
    while (w->gen == gen && !b->failed) to_scheduler(b, f);
    memcpy(d, w->d[f->lane], sizeof w->d[0]);
}

/* wgmma over the warpgroup: every thread of it must reach one with the same
 * shape and B; the emulator's own wgmma (emu_wgmma.c) reads B from the
 * block's shared tiles through the descriptor */
static _Atomic unsigned long wgmma_count;

static void emu_wgmma(TkEmuEnv *env, int32_t n, int32_t f16, int32_t trans_b, const uint32_t *a, uint64_t desc, float *d)
{
    Block *b = tls_block;
    Fiber *f = env->fiber;
    int t = env->tid % GROUP;
    Group *gr = &b->groups[env->tid / GROUP];
    if (n < 8 || n > 256 || n % 8) {
        fail(b, "thread %d: wgmma with N = %d", env->tid, n);
        return;
    }
    if (gr->arrived == 0) {
        gr->n = n;
        gr->f16 = f16;
        gr->trans_b = trans_b;
        gr->desc = desc;
    } else if (gr->n != n || gr->f16 != f16 || gr->trans_b != trans_b || gr->desc != desc) {
        fail(b, "warpgroup %d: its threads reached different wgmmas (thread %d: N = %d, B descriptor %#llx; an earlier one: N = %d, %#llx)",
             env->tid / GROUP, env->tid, n, (unsigned long long)desc, gr->n, (unsigned long long)gr->desc);
    }
    memcpy(gr->a[t], a, sizeof gr->a[0]);
    memcpy(gr->d[t], d, sizeof(float) * (size_t)(n / 2));
    uint32_t gen = gr->gen;
    gr->arrived++;
    b->events++;
    if (gr->arrived == GROUP && !b->failed) {
        char why[200];
        if (tk_emu_wgmma(gr->n, gr->f16, gr->trans_b, gr->desc, (const uint32_t(*)[4])gr->a, gr->d, 1, (const unsigned char *)b->shared,
                         b->shared_bytes, why, sizeof why) != 0)
            fail(b, "warpgroup %d: %s", env->tid / GROUP, why);
        wgmma_count++;
        gr->arrived = 0;
        gr->gen++;
        b->events++;
    }
    while (gr->gen == gen && !b->failed) to_scheduler(b, f);
    memcpy(d, gr->d[t], sizeof(float) * (size_t)(n / 2));
}

/* shfl.sync.idx over the whole warp */
static uint32_t emu_shuffle(TkEmuEnv *env, uint32_t x, int32_t src)
{
    Block *b = tls_block;
    Fiber *f = env->fiber;
    Warp *w = &b->warps[f->warp];
    w->offer[f->lane] = x;
    w->src[f->lane] = src;
    uint32_t gen = w->gen;
    if (arrive(b, f, w, COLLECTIVE_SHUFFLE)) {
        for (int l = 0; l < WARP; l++) w->got[l] = w->offer[w->src[l] & (WARP - 1)];   /* c = 0x1f: the lane index mod 32 */
        complete(b, w);
    }
    while (w->gen == gen && !b->failed) to_scheduler(b, f);
    return w->got[f->lane];
}

/* ldmatrix over the whole warp: the rows the lanes address must be
 * 16-byte aligned and inside the block's shared tiles, as on a GPU (where
 * anything else is undefined) */
static _Atomic unsigned long ldmatrix_count, ldmatrix_conflicts;

static void emu_ldmatrix(TkEmuEnv *env, int32_t num, int32_t trans, const void *row, uint32_t *out)
{
    Block *b = tls_block;
    Fiber *f = env->fiber;
    Warp *w = &b->warps[f->warp];
    if ((num != 1 && num != 2 && num != 4) || (trans != 0 && trans != 1)) fail(b, "warp %d: ldmatrix of shape x%d", f->warp, num);
    w->row[f->lane] = row;
    uint32_t gen = w->gen;
    if (arrive(b, f, w, COLLECTIVE_LDMATRIX - 2 * num - trans)) {
        const uint16_t *rows[WARP];
        for (int l = 0; l < WARP; l++) {
            const char *p = w->row[l < 8 * num ? l : l % (8 * num)];
            long off = (long)(p - b->shared);
            if (off < 0 || off + 16 > b->shared_bytes || off % 16)
                fail(b, "warp %d: ldmatrix row address of lane %d is %s (offset %ld of %lld bytes of shared tiles)", f->warp,
                     l % (8 * num), off % 16 ? "not 16-byte aligned" : "outside the shared tiles", off, (long long)b->shared_bytes);
            rows[l] = (const uint16_t *)(const void *)p;
        }
        if (!b->failed) {
            tk_emu_ldmatrix(num, trans, rows, w->ldm);
            ldmatrix_count++;
            ldmatrix_conflicts += (unsigned long)tk_emu_ldmatrix_conflicts(num, rows, b->shared);
        }
        complete(b, w);
    }
    while (w->gen == gen && !b->failed) to_scheduler(b, f);
    memcpy(out, w->ldm[f->lane], sizeof w->ldm[0]);
}

/* cp.async: checked and read now, written at the thread's next wait, so
 * that shared memory keeps its old contents until then — a read the
 * lowering forgot to wait for sees them */
static _Atomic unsigned long cp_async_count;
static _Atomic unsigned long tma_count;   /* TMA copies (below) */

static void land(Fiber *f)
{
    for (int k = 0; k < f->ncopies; k++) memcpy(f->copies[k].dst, f->copies[k].data, 16);
    f->ncopies = 0;
}

static void emu_cp_async(TkEmuEnv *env, void *dst, const void *src, int32_t bytes)
{
    Block *b = tls_block;
    Fiber *f = env->fiber;
    long off = (long)((char *)dst - b->shared);
    if (off < 0 || off + 16 > b->shared_bytes || off % 16) {
        fail(b, "thread %d: cp.async to %s (offset %ld of %lld bytes of shared tiles)", env->tid,
             off % 16 ? "an address that is not 16-byte aligned" : "outside the shared tiles", off, (long long)b->shared_bytes);
        return;
    }
    if (bytes < 0 || bytes > 16 || (bytes > 0 && (uintptr_t)src % 16)) {
        fail(b, "thread %d: cp.async of %d bytes from %s", env->tid, bytes, bytes < 0 || bytes > 16 ? "a copy of 16" : "an unaligned source");
        return;
    }
    if (f->ncopies == MAX_COPIES) land(f);   /* a copy may land early, never late */
    Copy *c = &f->copies[f->ncopies++];
    c->dst = dst;
    memset(c->data, 0, sizeof c->data);
    if (bytes > 0) memcpy(c->data, src, (size_t)bytes);
    cp_async_count++;
}

static void emu_cp_async_wait(TkEmuEnv *env)
{
    land(env->fiber);
}

void tk_emu_take_counts(TkEmuCounts *c)
{
    c->ldmatrix = ldmatrix_count;
    c->ldmatrix_conflicts = ldmatrix_conflicts;
    c->cp_async = cp_async_count;
    c->wgmma = wgmma_count;
    c->tma = tma_count;
    tma_count = 0;
    wgmma_count = 0;
    ldmatrix_count = 0;
    ldmatrix_conflicts = 0;
    cp_async_count = 0;
}

/* ---------------------------------------------------------------- TMA and mbarriers
 * The copies of a barrier land when a thread first waits on it (so a read
 * the lowering did not make wait sees the tile's old contents), each by the
 * emulator's own TMA (emu_tma.c); the phase completes once every arrival
 * has come and the bytes delivered match those announced. */
static Mbar *mbar_at(Block *b, const void *bar, int tid, bool create)
{
    long off = (long)((const char *)bar - b->shared);
    if (off < 0 || off + 8 > b->shared_bytes || off % 8) {
        fail(b, "thread %d: an mbarrier at offset %ld of %lld bytes of shared tiles%s", tid, off, (long long)b->shared_bytes,
             off % 8 ? " (not 8-byte aligned)" : "");
        return NULL;
    }
    for (int k = 0; k < b->nmbars; k++)
        if (b->mbars[k].off == off) return &b->mbars[k];
    if (!create) {
        fail(b, "thread %d: an mbarrier at offset %ld that was never initialised", tid, off);
        return NULL;
    }
    if (b->nmbars == MAX_MBARS) {
        fail(b, "thread %d: more than %d mbarriers", tid, MAX_MBARS);
        return NULL;
    }
    Mbar *m = &b->mbars[b->nmbars++];
    memset(m, 0, sizeof *m);
    m->off = off;
    return m;
}

static void mbar_settle(Block *b, Mbar *m)
{
    if (m->pending == 0 && m->tx == 0) {
        m->phase++;
        m->pending = m->count;
        b->events++;
    }
}

/* the barrier's copies land */
static void mbar_land(Block *b, Mbar *m)
{
    char why[256];
    for (int k = 0; k < m->ncopies && !b->failed; k++) {
        TmaCopy *c = &m->copies[k];
        long got = tk_emu_tma_load(&c->map, c->coords, c->dst, (unsigned char *)b->shared, b->shared_bytes, why, sizeof why);
        if (got < 0) fail(b, "a TMA copy to offset %lld: %s", (long long)c->dst, why);
        else m->tx -= got;
    }
    if (m->ncopies) b->events++;
    m->ncopies = 0;
    mbar_settle(b, m);
}

static void emu_mbar_init(TkEmuEnv *env, void *bar, int32_t count)
{
    Block *b = tls_block;
    Mbar *m = mbar_at(b, bar, env->tid, true);
    if (!m) return;
    if (m->ncopies || m->tx || (m->count && m->pending != m->count)) {
        fail(b, "thread %d: an mbarrier initialised again in the middle of a phase", env->tid);
        return;
    }
    if (count < 1) fail(b, "thread %d: an mbarrier initialised with %d arrivals", env->tid, count);
    m->count = m->pending = count;
    b->events++;
}

static void emu_mbar_expect(TkEmuEnv *env, void *bar, int32_t bytes)
{
    Block *b = tls_block;
    Mbar *m = mbar_at(b, bar, env->tid, false);
    if (!m) return;
    if (m->pending == 0) {
        fail(b, "thread %d: an arrival at an mbarrier whose %d arrivals have all come", env->tid, m->count);
        return;
    }
    m->pending--;
    m->tx += bytes;
    b->events++;
    mbar_settle(b, m);
}

static void emu_tma_load(TkEmuEnv *env, const void *map, void *dst, const int32_t *coords, int32_t rank, void *bar)
{
    Block *b = tls_block;
    Mbar *m = mbar_at(b, bar, env->tid, false);
    if (!m) return;
    const TkTmaDesc *d = map;
    if (rank != d->rank || rank < 1 || rank > TK_TMA_MAX_RANK) {
        fail(b, "thread %d: a %d-d TMA copy with a map of rank %d", env->tid, rank, d->rank);
        return;
    }
    if (m->ncopies == MAX_TMA) mbar_land(b, m);   /* a copy may land early, never late */
    TmaCopy *c = &m->copies[m->ncopies++];
    c->map = *d;
    memset(c->coords, 0, sizeof c->coords);
    memcpy(c->coords, coords, (size_t)rank * sizeof *coords);
    c->dst = (int64_t)((char *)dst - b->shared);
    tma_count++;
}

static void emu_mbar_wait(TkEmuEnv *env, void *bar, int32_t parity)
{
    Block *b = tls_block;
    Fiber *f = env->fiber;
    Mbar *m = mbar_at(b, bar, env->tid, false);
    if (!m) return;
    /* the phase of that parity is complete when the current one has the other parity */
    while (!b->failed && (m->phase & 1u) == (uint32_t)(parity & 1)) {
        if (m->ncopies) mbar_land(b, m);
        if ((m->phase & 1u) != (uint32_t)(parity & 1)) break;
        m->waiting++;
        to_scheduler(b, f);
        m->waiting--;
    }
}

/* sync(): every thread of the block that has not returned */
static void emu_barrier(TkEmuEnv *env)
{
    Block *b = tls_block;
    Fiber *f = env->fiber;
    uint32_t gen = b->bar_gen;
    b->bar_arrived++;
    b->events++;
    if (b->bar_arrived == b->n - b->exited) {
        b->bar_arrived = 0;
        b->bar_gen++;
        b->events++;
    }
    while (b->bar_gen == gen && !b->failed) to_scheduler(b, f);
}

/* ---------------------------------------------------------------- blocks */

static Block *block_for_thread(void)
{
    if (tls_block) return tls_block;
    Block *b = calloc(1, sizeof *b);
    Fiber *fs = b ? calloc(MAX_THREADS, sizeof *fs) : NULL;
    if (!fs) {
        free(b);
        return NULL;
    }
    b->fibers = fs;
    tls_block = b;
    return b;
}

/* A stack with a guard page below it, mapped once per fiber slot. */
static bool ensure_stack(Fiber *f)
{
    if (f->stack) return true;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *m = mmap(NULL, STACK_BYTES + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return false;
    mprotect(m, page, PROT_NONE);
    f->stack = m + page;
    return true;
}

/* Why the block cannot go on: a sync() some threads never reach, or the
 * first warp with lanes left waiting. */
static void describe_stall(Block *b)
{
    if (b->bar_arrived > 0) {
        fail(b, "%d of %d threads wait at sync() while %d have returned and %d wait at a warp collective",
             b->bar_arrived, b->n, b->exited, b->n - b->exited - b->bar_arrived);
        return;
    }
    for (int w = 0; w < b->n / WARP; w++) {
        Warp *x = &b->warps[w];
        if (x->arrived > 0) {
            fail(b, "warp %d: %d of %d lanes wait at %s that %d exited lanes never reach", w, x->arrived, WARP,
                 collective_name(x->op), x->exited);
            return;
        }
    }
    for (int g = 0; g < b->n / GROUP; g++)
        if (b->groups[g].arrived > 0) {
            fail(b, "warpgroup %d: %d of %d threads wait at a wgmma that the others never reach", g, b->groups[g].arrived, GROUP);
            return;
        }
    for (int k = 0; k < b->nmbars; k++)
        if (b->mbars[k].waiting > 0) {
            Mbar *m = &b->mbars[k];
            fail(b, "%d threads wait on the mbarrier at offset %lld, whose phase never completes (%d of %d arrivals and %lld bytes still to come)",
                 m->waiting, (long long)m->off, m->pending, m->count, (long long)m->tx);
            return;
        }
    fail(b, "no thread of the block can make progress");
}

void tk_emu_run_block(TkEmuThreadFn fn, void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz, int32_t threads,
                      int64_t shared_bytes)
{
    char msg[400];
    Block *b = block_for_thread();
    if (!b || threads <= 0 || threads > MAX_THREADS || threads % WARP) {
        snprintf(msg, sizeof msg, "block (%d, %d, %d): cannot run %d threads (at most %d, whole warps)", bx, by, bz, threads,
                 MAX_THREADS);
        report(msg);
        return;
    }
    if (shared_bytes < 0 || (size_t)shared_bytes > b->shared_cap) {
        char *m = shared_bytes < 0 ? NULL : realloc(b->shared, (size_t)shared_bytes);
        if (!m) {
            snprintf(msg, sizeof msg, "block (%d, %d, %d): no memory for %lld bytes of shared tiles", bx, by, bz, (long long)shared_bytes);
            report(msg);
            return;
        }
        b->shared = m;
        b->shared_cap = (size_t)shared_bytes;
    }
    b->fn = fn;
    b->args = args;
    b->sizes = sizes;
    b->shared_bytes = shared_bytes;
    b->n = threads;
    b->exited = 0;
    b->bar_arrived = 0;
    b->events = 0;
    b->failed = false;
    b->nmbars = 0;
    memset(b->warps, 0, sizeof b->warps);
    for (int g = 0; g < MAX_THREADS / GROUP; g++) b->groups[g].arrived = 0;
    for (int t = 0; t < threads; t++) {
        Fiber *f = &b->fibers[t];
        if (!ensure_stack(f)) {
            snprintf(msg, sizeof msg, "block (%d, %d, %d): no memory for the stack of thread %d", bx, by, bz, t);
            report(msg);
            return;
        }
        f->state = FIBER_NEW;
        f->warp = t / WARP;
        f->lane = t % WARP;
        f->fake_stack = NULL;
        f->ncopies = 0;
        f->env = (TkEmuEnv){ .mma = emu_mma, .tid = t, .ctaid = { bx, by, bz }, .fiber = f, .barrier = emu_barrier,
                             .shared = b->shared, .shuffle = emu_shuffle, .ldmatrix = emu_ldmatrix,
                             .cp_async = emu_cp_async, .cp_async_wait = emu_cp_async_wait, .wgmma = emu_wgmma,
                             .tma_load = emu_tma_load, .mbar_init = emu_mbar_init, .mbar_expect = emu_mbar_expect,
                             .mbar_wait = emu_mbar_wait };
        getcontext(&f->uc);
        f->uc.uc_stack.ss_sp = f->stack;
        f->uc.uc_stack.ss_size = STACK_BYTES;
        f->uc.uc_link = &b->main;
        makecontext(&f->uc, fiber_main, 0);
    }
    for (;;) {
        unsigned long before = b->events;
        bool live = false;
        for (int t = 0; t < threads && !b->failed; t++) {
            Fiber *f = &b->fibers[t];
            if (f->state == FIBER_DONE) continue;
            live = true;
            f->state = FIBER_READY;
            to_fiber(b, f);
        }
        if (b->failed || !live) break;
        if (b->events == before) describe_stall(b);
    }
    /* the lowering waits for its copies before a kernel returns (gpu_tma.c) */
    for (int k = 0; k < b->nmbars && !b->failed; k++)
        if (b->mbars[k].ncopies)
            fail(b, "the block returned with %d TMA copies in flight on the mbarrier at offset %lld", b->mbars[k].ncopies,
                 (long long)b->mbars[k].off);
    if (b->failed) {
        snprintf(msg, sizeof msg, "block (%d, %d, %d): %s", bx, by, bz, b->why);
        report(msg);
    }
}
