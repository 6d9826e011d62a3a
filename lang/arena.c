/* arena.c — see arena.h. Blocks grow geometrically up to 1 MiB. */
#include "arena.h"

#include <stdlib.h>
#include <string.h>

struct TkArenaBlock {
    TkArenaBlock *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
};

void tk_arena_init(TkArena *arena) { arena->head = NULL; }

void tk_arena_free(TkArena *arena)
{
    TkArenaBlock *b = arena->head;
    while (b) {
        TkArenaBlock *next = b->next;
        free(b);
        b = next;
    }
    arena->head = NULL;
}

void *tk_arena_alloc(TkArena *arena, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    TkArenaBlock *b = arena->head;
    if (!b || b->size - b->used < size) {
        size_t cap = b ? b->size * 2 : 16384;
        if (cap > (1u << 20)) cap = 1u << 20;
        if (cap < size) cap = size;
        TkArenaBlock *nb = malloc(sizeof *nb + cap);
        if (!nb) return NULL;
        nb->next = b;
        nb->used = 0;
        nb->size = cap;
        arena->head = b = nb;
    }
    void *p = b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *tk_arena_strndup(TkArena *arena, const char *s, size_t len)
{
    char *p = tk_arena_alloc(arena, len + 1);
    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}
