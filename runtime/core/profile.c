/* profile.c — per-context records of ops and kernel launches: name, count,
 * total, min and max time. A linear table keyed by (kind, name pointer or
 * text): a model runs a few dozen distinct ops, and a record is touched once
 * per op call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

typedef struct {
    char *kind, *name;
    uint64_t count;
    double total, min, max;
} Rec;

struct TkrProfile {
    bool on;
    Rec *recs;
    size_t n, cap;
};

double tkr_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void tk_profile_enable(tk_context *ctx, bool on)
{
    if (!ctx) return;
    if (!ctx->profile) {
        if (!on) return;
        ctx->profile = calloc(1, sizeof *ctx->profile);
        if (!ctx->profile) return;
    }
    ctx->profile->on = on;
}

void tkr_profile_record(tk_context *ctx, const char *kind, const char *name, double seconds)
{
    TkrProfile *p = ctx ? ctx->profile : NULL;
    if (!p || !p->on) return;
    Rec *r = NULL;
    for (size_t i = 0; i < p->n && !r; i++)
        if (strcmp(p->recs[i].name, name) == 0 && strcmp(p->recs[i].kind, kind) == 0) r = &p->recs[i];
    if (!r) {
        if (p->n == p->cap) {
            size_t cap = p->cap ? 2 * p->cap : 32;
            Rec *recs = realloc(p->recs, cap * sizeof *recs);
            if (!recs) return;
            p->recs = recs;
            p->cap = cap;
        }
        r = &p->recs[p->n];
        *r = (Rec){ strdup(kind), strdup(name), 0, 0, 1e300, 0 };
        if (!r->kind || !r->name) {
            free(r->kind);
            free(r->name);
            return;
        }
        p->n++;
    }
    r->count++;
    r->total += seconds;
    if (seconds < r->min) r->min = seconds;
    if (seconds > r->max) r->max = seconds;
}

void tkr_op_done(tk_context *ctx, const char *op, double t0)
{
    if (ctx && ctx->profile) tkr_profile_record(ctx, "op", op, tkr_now() - t0);
}

size_t tk_profile_records(const tk_context *ctx, tk_profile_record *out, size_t max)
{
    const TkrProfile *p = ctx ? ctx->profile : NULL;
    if (!p) return 0;
    for (size_t i = 0; out && i < p->n && i < max; i++) {
        const Rec *r = &p->recs[i];
        out[i] = (tk_profile_record){ r->kind, r->name, r->count, 1e3 * r->total, 1e3 * r->min, 1e3 * r->max };
    }
    return p->n;
}

void tk_profile_reset(tk_context *ctx)
{
    TkrProfile *p = ctx ? ctx->profile : NULL;
    if (!p) return;
    for (size_t i = 0; i < p->n; i++) {
        free(p->recs[i].kind);
        free(p->recs[i].name);
    }
    p->n = 0;
}

static int by_total(const void *a, const void *b)
{
    double x = ((const Rec *)a)->total, y = ((const Rec *)b)->total;
    return x < y ? 1 : x > y ? -1 : 0;
}

void tkr_profile_print(tk_context *ctx)
{
    TkrProfile *p = ctx ? ctx->profile : NULL;
    if (!p || p->n == 0) return;
    qsort(p->recs, p->n, sizeof *p->recs, by_total);
    double all = 0;
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->recs[i].kind, "op") == 0) all += p->recs[i].total;
    fprintf(stderr, "TileKit profile (%zu entries; ops total %.3f ms)\n", p->n, 1e3 * all);
    fprintf(stderr, "  %-6s %-40s %8s %11s %10s %10s %10s\n", "kind", "name", "count", "total ms", "mean ms", "min ms", "max ms");
    for (size_t i = 0; i < p->n; i++) {
        const Rec *r = &p->recs[i];
        fprintf(stderr, "  %-6s %-40s %8llu %11.3f %10.4f %10.4f %10.4f\n", r->kind, r->name, (unsigned long long)r->count, 1e3 * r->total,
                1e3 * r->total / (double)r->count, 1e3 * r->min, 1e3 * r->max);
    }
}

void tkr_profile_free(tk_context *ctx)
{
    if (!ctx || !ctx->profile) return;
    tk_profile_reset(ctx);
    free(ctx->profile->recs);
    free(ctx->profile);
    ctx->profile = NULL;
}
