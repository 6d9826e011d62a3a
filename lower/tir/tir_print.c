/* tir_print.c — the text form of TIR (`tkc --emit=tir`):
 *
 *   kernel gemm(A: gl<bf16, M, K>, ...) sizes(M, N, K) warps(4)
 *     grid(%3, %5)
 *     %7 = VAR st<bf16, 128, 32> As                      ; gemm.tk:17
 *     FOR %9 = %10 .. %12 {                              ; gemm.tk:24
 *
 * Values are numbered in order of appearance; with source lines on, each op
 * ends with the .tk file:line it came from. */
#include <string.h>

#include "tir.h"

typedef struct {
    FILE *out;
    const TkSource *src;
    bool with_source;
    uint32_t next_id;
} Printer;

static void number_region(Printer *p, const TirRegion *r)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->iv) i->iv->id = p->next_id++;
        i->id = p->next_id++;
        number_region(p, &i->body[0]);
        number_region(p, &i->body[1]);
    }
}

static void type_str(const TkType *t, char *buf, size_t n)
{
    if (!t) snprintf(buf, n, "-");
    else tk_type_format(t, buf, n);
}

static void end_line(Printer *p, const TirInstr *i, int col)
{
    if (p->with_source && p->src && i->loc.end > 0) {
        uint32_t line, c;
        tk_source_position(p->src, i->loc.begin, &line, &c);
        for (; col < 56; col++) fputc(' ', p->out);
        fprintf(p->out, " ; %s:%u", p->src->name, line);
    }
    fputc('\n', p->out);
}

static void print_region(Printer *p, const TirRegion *r, int depth);

static void print_instr(Printer *p, const TirInstr *i, int depth)
{
    int col = 0;
    char ts[160];
    for (int d = 0; d < depth; d++) col += fprintf(p->out, "  ");
    if (i->op == TIR_FOR) {
        col += fprintf(p->out, "FOR %%%u = %%%u .. %%%u {", i->iv ? i->iv->id : 0, i->args[0]->id, i->args[1]->id);
        end_line(p, i, col);
        print_region(p, &i->body[0], depth + 1);
        for (int d = 0; d < depth; d++) fputs("  ", p->out);
        fputs("}\n", p->out);
        return;
    }
    if (i->op == TIR_IF) {
        col += fprintf(p->out, "IF %%%u {", i->args[0]->id);
        end_line(p, i, col);
        print_region(p, &i->body[0], depth + 1);
        if (i->body[1].first) {
            for (int d = 0; d < depth; d++) fputs("  ", p->out);
            fputs("} ELSE {\n", p->out);
            print_region(p, &i->body[1], depth + 1);
        }
        for (int d = 0; d < depth; d++) fputs("  ", p->out);
        fputs("}\n", p->out);
        return;
    }
    if (!tir_is_statement(i->op) || i->op == TIR_VAR) col += fprintf(p->out, "%%%u = ", i->id);
    col += fprintf(p->out, "%s", tir_op_name(i->op));
    switch (i->op) {
    case TIR_MAP1: case TIR_MAP2: case TIR_MAP3: case TIR_REDUCE: case TIR_BROADCAST:
        col += fprintf(p->out, ".%s", tir_fn_name((TirFn)i->aux));
        break;
    case TIR_BINARY: case TIR_UNARY: {
        static const char *const ops[] = { "?", "add", "sub", "mul", "div", "mod", "lt", "le", "gt", "ge", "eq", "ne",
                                           "and", "or", "neg", "not" };
        col += fprintf(p->out, ".%s", (unsigned)i->aux < sizeof ops / sizeof ops[0] ? ops[i->aux] : "?");
        break;
    }
    case TIR_MMA: {
        static const char *const forms[] = { "ab", "abt", "atb", "atbt" };
        col += fprintf(p->out, ".%s", forms[i->aux & 3]);
        break;
    }
    default: break;
    }
    if (i->op == TIR_REDUCE || i->op == TIR_BROADCAST || i->op == TIR_MASK)
        col += fprintf(p->out, ".%s", i->imm == 2 ? "all" : i->imm ? "cols" : "rows");
    if (i->op == TIR_TRI) col += fprintf(p->out, ".%s", i->aux ? "upper" : "lower");
    if (i->op == TIR_LINE || i->op == TIR_SET_LINE) col += fprintf(p->out, ".%s", i->imm ? "col" : "row");
    if (i->op == TIR_SLICE || i->op == TIR_SET_SLICE) col += fprintf(p->out, " @[%d, %lld]", i->aux, (long long)i->imm);
    if (i->op == TIR_SET_LINE && i->aux) col += fprintf(p->out, " @%d", i->aux);
    if (i->op == TIR_BLOCK_ID) col += fprintf(p->out, ".%c", "xyz"[i->aux % 3]);
    if (i->op == TIR_PARAM || i->op == TIR_SIZE) col += fprintf(p->out, " #%d", i->aux);
    if (i->op == TIR_CONST_INT) col += fprintf(p->out, " %lld", (long long)i->imm);
    if (i->op == TIR_CONST_FLOAT) col += fprintf(p->out, " %.9g", i->fimm);
    for (unsigned k = 0; k < i->nargs; k++) col += fprintf(p->out, "%s%%%u", k ? ", " : " ", i->args[k] ? i->args[k]->id : 0);
    if (i->type && !tir_is_statement(i->op)) {
        type_str(i->type, ts, sizeof ts);
        col += fprintf(p->out, " : %s", ts);
    } else if (i->op == TIR_VAR) {
        type_str(i->type, ts, sizeof ts);
        col += fprintf(p->out, " %s", ts);
    }
    if (i->name) col += fprintf(p->out, "  \"%s\"", i->name);
    if (i->op == TIR_VAR && i->type && tk_is_shared(i->type->kind)) col += fprintf(p->out, " @shared+%lld", (long long)i->imm);
    if (i->op == TIR_MMA && i->base_name) col += fprintf(p->out, " base=%s", i->base_name);
    if (i->pack) {
        static const char *const packs[] = { "", "vnni_kn", "vnni_nk", "rows_kn", "rows_nk" };
        col += fprintf(p->out, " packed=%s", packs[i->pack % 5]);
    }
    end_line(p, i, col);
}

static void print_region(Printer *p, const TirRegion *r, int depth)
{
    for (TirInstr *i = r->first; i; i = i->next) print_instr(p, i, depth);
}

void tir_print_module(const TirModule *m, FILE *out, bool with_source)
{
    Printer p = { .out = out, .src = m->src, .with_source = with_source, .next_id = 0 };
    for (TirFunc *f = m->funcs; f; f = f->next) {
        p.next_id = 0;
        number_region(&p, &f->grid_region);
        number_region(&p, &f->body);
        char ts[160];
        fprintf(out, "kernel %s(", f->name);
        for (unsigned k = 0; k < f->nparams; k++) {
            type_str(f->params[k].type, ts, sizeof ts);
            fprintf(out, "%s%s: %s", k ? ", " : "", f->params[k].name, ts);
        }
        fputs(")", out);
        if (f->sizes && f->sizes->count) {
            fputs(" sizes(", out);
            for (unsigned k = 0; k < f->sizes->count; k++) fprintf(out, "%s%s", k ? ", " : "", f->sizes->names[k]);
            fputc(')', out);
        }
        fprintf(out, " warps(%lld)", (long long)f->warps);
        if (f->shared_bytes) fprintf(out, " shared(%lld bytes)", (long long)f->shared_bytes);
        fputc('\n', out);
        fputs("grid:\n", out);
        print_region(&p, &f->grid_region, 1);
        fputs("  => (", out);
        for (unsigned k = 0; k < f->grid_rank; k++) fprintf(out, "%s%%%u", k ? ", " : "", f->grid[k]->id);
        fputs(")\nbody:\n", out);
        print_region(&p, &f->body, 1);
        if (f->next) fputc('\n', out);
    }
}
