/* arena.h — bump allocator for everything that lives as long as one
 * compilation (AST nodes, names, types). Freed in one call; nothing inside
 * is freed individually, so the front end cannot leak piecemeal. */
#ifndef TK_LANG_ARENA_H
#define TK_LANG_ARENA_H

#include <stddef.h>

typedef struct TkArenaBlock TkArenaBlock;
typedef struct {
    TkArenaBlock *head;
} TkArena;

void tk_arena_init(TkArena *arena);
void tk_arena_free(TkArena *arena);
/* Zeroed memory, aligned for any scalar; NULL only when malloc fails. */
void *tk_arena_alloc(TkArena *arena, size_t size);
/* NUL-terminated copy of s[0..len). */
char *tk_arena_strndup(TkArena *arena, const char *s, size_t len);

#endif
