/* arena.c — the model's bump allocator and the IR's small helpers (value
 * lookup by name, attribute getters), shared by every pass. */
#include <stdlib.h>
#include <string.h>

#include "onnx_ir.h"

struct TkoArenaBlock {
    TkoArenaBlock *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void *tko_alloc(TkoArena *a, size_t bytes)
{
    if (a->failed) return NULL;
    bytes = (bytes + 15) & ~(size_t)15;
    TkoArenaBlock *b = a->head;
    if (!b || b->cap - b->used < bytes) {
        size_t cap = bytes > 60000 ? bytes : 60000;
        b = malloc(sizeof *b + cap);
        if (!b) {
            a->failed = true;
            return NULL;
        }
        b->next = a->head, b->used = 0, b->cap = cap;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += bytes;
    memset(p, 0, bytes);
    return p;
}

char *tko_strndup(TkoArena *a, const void *s, size_t n)
{
    char *p = tko_alloc(a, n + 1);
    if (p && n) memcpy(p, s, n);
    return p;
}

void tko_arena_free(TkoArena *a)
{
    for (TkoArenaBlock *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    a->head = NULL;
}

/* ------------------------------------------------------------ values by name */

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;   /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int lookup(const TkoGraph *g, const char *name)
{
    if (!g->map_cap) return -1;
    for (uint32_t i = hash(name) & (uint32_t)(g->map_cap - 1);; i = (i + 1) & (uint32_t)(g->map_cap - 1)) {
        int v = g->map[i];
        if (v < 0) return -1;
        if (strcmp(g->values[v].name, name) == 0) return v;
    }
}

static bool insert(TkoArena *a, TkoGraph *g, int v)
{
    if (2 * (g->nvalues + 1) > g->map_cap) {   /* grow: load factor at most 1/2 */
        int cap = g->map_cap ? 2 * g->map_cap : 64;
        int *map = tko_alloc(a, (size_t)cap * sizeof *map);
        if (!map) return false;
        memset(map, 0xff, (size_t)cap * sizeof *map);
        for (int k = 0; k < g->map_cap; k++)
            if (g->map[k] >= 0) {
                uint32_t i = hash(g->values[g->map[k]].name) & (uint32_t)(cap - 1);
                while (map[i] >= 0) i = (i + 1) & (uint32_t)(cap - 1);
                map[i] = g->map[k];
            }
        g->map = map, g->map_cap = cap;   /* the old table stays in the arena */
    }
    uint32_t i = hash(g->values[v].name) & (uint32_t)(g->map_cap - 1);
    while (g->map[i] >= 0) i = (i + 1) & (uint32_t)(g->map_cap - 1);
    g->map[i] = v;
    return true;
}

int tko_value(TkoArena *a, TkoGraph *g, const char *name, bool create)
{
    int v = lookup(g, name);
    if (v >= 0 || !create) return v;
    if (g->nvalues == g->cap_values) {
        int cap = g->cap_values ? 2 * g->cap_values : 32;
        TkoValue *vals = tko_alloc(a, (size_t)cap * sizeof *vals);
        if (!vals) return -1;
        if (g->nvalues) memcpy(vals, g->values, (size_t)g->nvalues * sizeof *vals);
        g->values = vals, g->cap_values = cap;
    }
    v = g->nvalues;
    TkoValue *val = &g->values[v];
    memset(val, 0, sizeof *val);
    if (!(val->name = tko_strndup(a, name, strlen(name)))) return -1;
    val->producer = -1;
    val->type.ndim = -1;
    g->nvalues++;
    if (!insert(a, g, v)) {
        g->nvalues--;
        return -1;
    }
    return v;
}

/* ------------------------------------------------------------ attributes */

const TkoAttr *tko_attr(const TkoNode *n, const char *name)
{
    for (int i = 0; i < n->nattrs; i++)
        if (strcmp(n->attrs[i].name, name) == 0) return &n->attrs[i];
    return NULL;
}

int64_t tko_attr_int(const TkoNode *n, const char *name, int64_t dflt)
{
    const TkoAttr *a = tko_attr(n, name);
    return a && a->type == TKO_ATTR_INT ? a->i : dflt;
}

float tko_attr_float(const TkoNode *n, const char *name, float dflt)
{
    const TkoAttr *a = tko_attr(n, name);
    if (a && a->type == TKO_ATTR_FLOAT) return a->f;
    if (a && a->type == TKO_ATTR_INT) return (float)a->i;
    return dflt;
}

const char *tko_attr_string(const TkoNode *n, const char *name, const char *dflt)
{
    const TkoAttr *a = tko_attr(n, name);
    return a && a->type == TKO_ATTR_STRING ? a->s : dflt;
}

const int64_t *tko_attr_ints(const TkoNode *n, const char *name, int *count)
{
    const TkoAttr *a = tko_attr(n, name);
    if (!a || a->type != TKO_ATTR_INTS) {
        *count = 0;
        return NULL;
    }
    *count = a->n;
    return a->ints;
}

int tko_opset(const TkoModel *m, const char *domain)
{
    for (int i = 0; i < m->nopsets; i++)
        if (strcmp(m->opsets[i].domain, domain) == 0) return (int)m->opsets[i].version;
    return 0;
}

bool tko_listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && memcmp(p, name, n) == 0) return true;
        if (!e) break;
        p = e + 1;
    }
    return false;
}
