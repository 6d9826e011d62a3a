/* stdlib_aot.c — see stdlib_aot.h: the mode, the level and the lookup. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib_aot.h"
#include "target.h"

TkrAotMode tkr_aot_mode(void)
{
    const char *e = getenv("TK_STDLIB_AOT");
    if (e && strcmp(e, "0") == 0) return TKR_AOT_OFF;
    if (e && strcmp(e, "strict") == 0) return TKR_AOT_STRICT;
    return TKR_AOT_ON;
}

static pthread_once_t level_once = PTHREAD_ONCE_INIT;
static int level_index = -1;

/* The first level, best first, whose code this CPU (and for AMX, this
 * kernel's permission) runs: the check the JIT makes before running code. */
static void choose_level(void)
{
    for (int i = 0; tkr_aot_levels[i]; i++) {
        const TkTarget *t = tk_target_find(tkr_aot_levels[i]);
        TkResolvedTarget rt;
        char err[256];
        if (!t || tk_target_resolve(t, &rt, err, sizeof err) != 0) continue;
        bool runs = tk_target_runs_here(&rt);
        tk_target_resolved_free(&rt);
        if (runs) {
            level_index = i;
            return;
        }
    }
}

const char *tkr_aot_level(void)
{
    pthread_once(&level_once, choose_level);
    return level_index < 0 ? NULL : tkr_aot_levels[level_index];
}

int tkr_aot_find(void *file, const char *symbol, tk_grid_fn *grid, tk_block_fn *block)
{
    if (!tkr_aot_level()) return -1;
    return tkr_aot_find_at((unsigned)level_index, file, symbol, grid, block);
}

int tkr_aot_find_at(unsigned level, const char *file, const char *symbol, tk_grid_fn *grid, tk_block_fn *block)
{
    for (size_t i = 0; i < tkr_aot_nkernels; i++) {
        const TkrAotKernel *k = &tkr_aot_kernels[i];
        if (k->level == level && strcmp(k->symbol, symbol) == 0 && strcmp(k->file, file) == 0) {
            *grid = k->grid;
            *block = k->block;
            return 0;
        }
    }
    return -1;
}
