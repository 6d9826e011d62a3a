/* tir_passes.c — the pass pipeline (see tir_passes.h) and plan-shared. */
#include "tir_passes.h"

#include <string.h>

static bool wants_dump(const TirPassOptions *o, const char *pass)
{
    if (!o || !o->dump || !o->dump_after) return false;
    if (strcmp(o->dump_after, "all") == 0) return true;
    size_t n = strlen(pass);
    for (const char *p = o->dump_after; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, pass, n) == 0) return true;
        p = e ? e + 1 : p + len;
    }
    return false;
}

void tir_dump_after(const TirModule *m, const TirPassOptions *o, const char *pass)
{
    if (!wants_dump(o, pass)) return;
    fprintf(o->dump, ";; ---- TIR after %s ----\n", pass);
    tir_print_module(m, o->dump, o->with_source);
}

static int64_t elem_bytes(TkTypeKind k) { return k == TK_TY_F32 ? 4 : 2; }

/* st/sv tiles live for the whole kernel (they are declared at its top), so
 * planning is placement without reuse: 64-byte aligned, in declaration order. */
static void plan_region(TirRegion *r, int64_t *next)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_VAR && i->type && tk_is_shared(i->type->kind)) {
            int64_t n = i->type->rank == 2 ? i->type->dims[0] * i->type->dims[1] : i->type->dims[0];
            *next = (*next + 63) & ~(int64_t)63;
            i->imm = *next;
            *next += n * elem_bytes(i->type->elem);
        }
        plan_region(&i->body[0], next);
        plan_region(&i->body[1], next);
    }
}

static int plan_shared(TirModule *m, const TirPassOptions *o, char *err, size_t errlen)
{
    for (TirFunc *f = m->funcs; f; f = f->next) {
        int64_t bytes = 0;
        plan_region(&f->body, &bytes);
        f->shared_bytes = bytes;
        if (o && o->shared_limit > 0 && bytes > o->shared_limit) {
            uint32_t line = 0, col = 0;
            if (m->src) tk_source_position(m->src, f->loc.begin, &line, &col);
            snprintf(err, errlen, "%s:%u: kernel %s needs %lld bytes of shared tiles; the target's %s holds %lld per block",
                     m->src ? m->src->name : "?", line, f->name, (long long)bytes, o->shared_what ? o->shared_what : "shared memory",
                     (long long)o->shared_limit);
            return -1;
        }
    }
    return 0;
}

static int verify(const TirModule *m, const char *after, char *err, size_t errlen)
{
    if (tir_verify(m, stderr) == 0) return 0;
    snprintf(err, errlen, "internal error: TIR does not verify after %s", after);
    return -1;
}

int tir_run_passes(TirModule *m, const TirPassOptions *o, char *err, size_t errlen)
{
    tir_dump_after(m, o, "lower");
    if (verify(m, "lower", err, errlen) != 0) return -1;
    for (TirFunc *f = m->funcs; f; f = f->next)
        if (tir_forward_lets(f) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    tir_dump_after(m, o, "forward");
    if (verify(m, "forward", err, errlen) != 0) return -1;
    if (plan_shared(m, o, err, errlen) != 0) return -1;
    tir_dump_after(m, o, "plan-shared");
    if (verify(m, "plan-shared", err, errlen) != 0) return -1;
    for (TirFunc *f = m->funcs; f; f = f->next)
        if (tir_legalise(f, o ? o->select_mma : NULL, o ? o->select_ctx : NULL, err, errlen) != 0) return -1;
    tir_dump_after(m, o, "legalise");
    if (verify(m, "legalise", err, errlen) != 0) return -1;
    for (TirFunc *f = m->funcs; f; f = f->next) tir_assign_layouts(f, o ? o->choose_pack : NULL, o ? o->choose_ctx : NULL);
    tir_dump_after(m, o, "layout");
    return verify(m, "layout", err, errlen);
}
