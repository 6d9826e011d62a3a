/* ast_print.c — prints the AST as .tk source in a canonical layout: four-space
 * indentation, one statement per line, parentheses only where precedence
 * needs them. The output parses back to the same AST (tested), so it doubles
 * as a formatter. Comments are not part of the AST and are dropped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"

static int precedence(TkOp op)
{
    switch (op) {
    case TK_OP_OR: return 1;
    case TK_OP_AND: return 2;
    case TK_OP_EQ: case TK_OP_NE: return 3;
    case TK_OP_LT: case TK_OP_LE: case TK_OP_GT: case TK_OP_GE: return 4;
    case TK_OP_ADD: case TK_OP_SUB: return 5;
    case TK_OP_MUL: case TK_OP_DIV: case TK_OP_MOD: return 6;
    default: return 7;
    }
}

static void print_expr(const TkNode *e, int min_prec, FILE *out);
static void print_type(const TkNode *t, FILE *out);

static void print_list(const TkNode *list, FILE *out)
{
    for (const TkNode *a = list; a; a = a->next) {
        print_expr(a, 0, out);
        if (a->next) fputs(", ", out);
    }
}

static void print_float(double v, FILE *out)
{
    if (isinf(v)) {
        fputs(v < 0 ? "-inf" : "inf", out);
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", v);
    /* shortest form that reads back exactly */
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, out);
    if (!strpbrk(buf, ".eEn")) fputs(".0", out);   /* keep it a float literal */
}

static void print_expr(const TkNode *e, int min_prec, FILE *out)
{
    switch (e->kind) {
    case TK_N_INT: fprintf(out, "%lld", (long long)e->ival); break;
    case TK_N_FLOAT: print_float(e->fval, out); break;
    case TK_N_BOOL: fputs(e->ival ? "true" : "false", out); break;
    case TK_N_NAME: fputs(e->name, out); break;
    case TK_N_BUILTIN_VAR: fprintf(out, "%s.%s", e->name, e->field); break;
    case TK_N_UNARY: {
        bool paren = min_prec > 7;
        if (paren) fputc('(', out);
        fputs(tk_op_spelling(e->op), out);
        /* "- -x" must not print as "--x"; and -(a+b) keeps its parentheses */
        print_expr(e->a, 7, out);
        if (paren) fputc(')', out);
        break;
    }
    case TK_N_BINARY: {
        int p = precedence(e->op);
        bool paren = p < min_prec;
        if (paren) fputc('(', out);
        print_expr(e->a, p, out);       /* left-associative: left side may share the level */
        fprintf(out, " %s ", tk_op_spelling(e->op));
        print_expr(e->b, p + 1, out);
        if (paren) fputc(')', out);
        break;
    }
    case TK_N_CALL:
        fputs(e->name, out);
        if (e->explicit_targs) {
            fputc('<', out);
            for (const TkNode *t = e->list2; t; t = t->next) {
                if (t->kind == TK_N_TYPE) print_type(t, out);
                else print_expr(t, 0, out);   /* a generic helper's compile-time value */
                if (t->next) fputs(", ", out);
            }
            fputc('>', out);
        }
        fputc('(', out);
        print_list(e->list, out);
        fputc(')', out);
        break;
    case TK_N_INDEX:
        print_expr(e->a, 8, out);
        fputc('[', out);
        print_list(e->list, out);
        fputc(']', out);
        break;
    case TK_N_RANGE:
        if (e->a) print_expr(e->a, 0, out), fputc(' ', out);
        fputs("..", out);
        if (e->b) fputc(' ', out), print_expr(e->b, 0, out);
        break;
    default: fputs("/* ? */", out); break;
    }
}

static void print_dim(const TkNode *d, int min_prec, FILE *out)
{
    if (d->kind == TK_N_BINARY) {
        int p = precedence(d->op);
        bool paren = p < min_prec;
        if (paren) fputc('(', out);
        print_dim(d->a, p, out);
        fprintf(out, " %s ", tk_op_spelling(d->op));
        print_dim(d->b, p + 1, out);
        if (paren) fputc(')', out);
    } else {
        print_expr(d, 8, out);
    }
}

static void print_type(const TkNode *t, FILE *out)
{
    fputs(tk_typecon_spelling(t->tycon), out);
    if (t->tycon <= TK_TC_BF16) return;
    fputc('<', out);
    print_type(t->a, out);
    for (const TkNode *d = t->list; d; d = d->next) {
        fputs(", ", out);
        print_dim(d, 0, out);
    }
    if (t->layout == TK_LAYOUT_ROW) fputs(", row", out);
    if (t->layout == TK_LAYOUT_COL) fputs(", col", out);
    if (t->layout == TK_LAYOUT_PACKED) fputs(", packed", out);
    fputc('>', out);
}

static void indent(int depth, FILE *out)
{
    for (int i = 0; i < depth; i++) fputs("    ", out);
}

static void print_block(const TkNode *b, int depth, FILE *out);

static void print_if_tail(const TkNode *s, int depth, FILE *out)
{
    fputs("if (", out);
    print_expr(s->a, 0, out);
    fputs(") ", out);
    print_block(s->b, depth, out);
    if (s->c) {
        fputs(" else ", out);
        if (s->c->kind == TK_N_IF) print_if_tail(s->c, depth, out);
        else print_block(s->c, depth, out);
    }
}

/* target(gpu: 64, else: 128): a per-target default or constant */
static void print_target_arms(const TkNode *arm, FILE *out)
{
    fputs("target(", out);
    for (; arm; arm = arm->next) {
        fprintf(out, "%s: ", arm->name);
        print_expr(arm->a, 0, out);
        if (arm->next) fputs(", ", out);
    }
    fputc(')', out);
}

static void print_stmt(const TkNode *s, int depth, FILE *out)
{
    indent(depth, out);
    switch (s->kind) {
    case TK_N_VAR:
        print_type(s->a, out);
        fprintf(out, " %s", s->name);
        if (s->c) {   /* an array as written (items keep their source form) */
            fputc('[', out);
            print_expr(s->c, 0, out);
            fputc(']', out);
        }
        if (s->b) {
            fputs(" = ", out);
            print_expr(s->b, 0, out);
        }
        fputs(";\n", out);
        break;
    case TK_N_LET:
        fprintf(out, "let %s = ", s->name);
        print_expr(s->b, 0, out);
        fputs(";\n", out);
        break;
    case TK_N_CONST:
        fprintf(out, "const %s = ", s->name);
        if (s->list) print_target_arms(s->list, out);   /* as written, whichever arm the target took */
        else print_expr(s->a, 0, out);
        fputs(";\n", out);
        break;
    case TK_N_ASSIGN:
        print_expr(s->a, 0, out);
        fprintf(out, " %s%s ", s->op == TK_OP_NONE ? "" : tk_op_spelling(s->op), "=");
        print_expr(s->b, 0, out);
        fputs(";\n", out);
        break;
    case TK_N_EXPR_STMT:
        print_expr(s->a, 0, out);
        fputs(";\n", out);
        break;
    case TK_N_IF:
        print_if_tail(s, depth, out);
        fputc('\n', out);
        break;
    case TK_N_FOR:
        fprintf(out, "for (%s in ", s->name);
        print_expr(s->a, 0, out);
        fputs(" .. ", out);
        print_expr(s->b, 0, out);
        fputs(") ", out);
        print_block(s->c, depth, out);
        fputc('\n', out);
        break;
    case TK_N_RETURN:
        fputs("return", out);
        if (s->a) {
            fputc(' ', out);
            print_expr(s->a, 0, out);
        }
        fputs(";\n", out);
        break;
    case TK_N_BLOCK:
        print_block(s, depth, out);
        fputc('\n', out);
        break;
    default: fputs("/* ? */\n", out); break;
    }
}

static void print_block(const TkNode *b, int depth, FILE *out)
{
    fputs("{\n", out);
    for (const TkNode *s = b->list; s; s = s->next) print_stmt(s, depth + 1, out);
    indent(depth, out);
    fputc('}', out);
}

static void print_params(const TkNode *params, FILE *out)
{
    fputc('(', out);
    for (const TkNode *p = params; p; p = p->next) {
        print_type(p->a, out);
        fprintf(out, " %s", p->name);
        if (p->c) {
            fputc('[', out);
            print_expr(p->c, 0, out);
            fputc(']', out);
        }
        if (p->next) fputs(", ", out);
    }
    fputc(')', out);
}

/* <BM = 128, BN = target(gpu: 64, else: 128), KC> */
static void print_generics(const TkNode *g, FILE *out)
{
    if (!g) return;
    fputc('<', out);
    for (; g; g = g->next) {
        fputs(g->name, out);
        if (g->list) {
            fputs(" = ", out);
            print_target_arms(g->list, out);
        } else if (g->a) {
            fputs(" = ", out);
            print_expr(g->a, 0, out);
        }
        if (g->next) fputs(", ", out);
    }
    fputc('>', out);
}

void tk_ast_print(const TkNode *items, FILE *out)
{
    for (const TkNode *it = items; it; it = it->next) {
        if (it->instance) continue;   /* made from its template, which is printed */
        /* An item whose parse failed is only a placeholder under its name
         * (front.c): there is nothing to print but that. */
        if (it->broken && (it->kind == TK_N_CONST ? !it->a : !it->b)) {
            fprintf(out, "/* %s %s: not printed, it has a syntax error */\n",
                    it->kind == TK_N_CONST ? "const" : it->kind == TK_N_FN ? "fn" : "kernel", it->name ? it->name : "?");
            if (it->next && (it->kind != TK_N_CONST || it->next->kind != TK_N_CONST)) fputc('\n', out);
            continue;
        }
        switch (it->kind) {
        case TK_N_CONST: print_stmt(it, 0, out); break;
        case TK_N_FN:
            fprintf(out, "fn %s", it->name);
            print_generics(it->generic ? it->c : NULL, out);
            print_params(it->list, out);
            if (it->a) {
                fputs(" -> ", out);
                print_type(it->a, out);
            }
            fputc(' ', out);
            print_block(it->source ? it->source : it->b, 0, out);
            fputc('\n', out);
            break;
        case TK_N_KERNEL:
            fprintf(out, "kernel %s", it->name);
            print_generics(it->generic ? it->c : NULL, out);
            print_params(it->list, out);
            for (const TkNode *a = it->list2; a; a = a->next) {
                fprintf(out, " %s(", a->name);
                print_list(a->list, out);
                fputc(')', out);
            }
            fputc('\n', out);
            print_block(it->source ? it->source : it->b, 0, out);
            fputc('\n', out);
            break;
        default: break;
        }
        const TkNode *next = it->next;
        while (next && next->instance) next = next->next;
        if (next && (it->kind != TK_N_CONST || next->kind != TK_N_CONST)) fputc('\n', out);
    }
}
