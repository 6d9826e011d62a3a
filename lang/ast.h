/* ast.h — the syntax tree. One node struct for every kind; which fields a
 * kind uses is listed beside the kind. Every node carries the source span it
 * came from, and the checker fills `type` (and `sym` for names). */
#ifndef TK_LANG_AST_H
#define TK_LANG_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "source.h"

typedef enum {
    /* items */
    TK_N_CONST,        /* name, a = value */
    TK_N_FN,           /* name, list = params, a = result TYPE or NULL, b = body BLOCK,
                          source = the body as written when arrays.c rewrote b, else NULL;
                          c = compile-time parameters (GENERIC; in an instance, their CONSTs) */
    TK_N_KERNEL,       /* name, list = params, list2 = grid/warps attrs (CALL), b = body, c and source as FN */
    TK_N_PARAM,        /* name, a = TYPE, c = array length (an error: arrays.c reports it) or NULL */
    TK_N_TYPE,         /* tycon, a = element TYPE (tiles), list = dim exprs, layout */
    TK_N_GENERIC,      /* compile-time parameter: name, a = default or NULL, list = per-target
                          defaults (TARGET_ARM) when written target(...); generic.c sets
                          is_const, ival (and fval 1 for a bool) to the target's default */
    TK_N_TARGET_ARM,   /* name = target key ("cpu", "amdgpu", ...; "else" the fallback), a = value */
    /* statements */
    TK_N_BLOCK,        /* list = statements */
    TK_N_VAR,          /* name, a = TYPE, b = initialiser or NULL, c = array length or NULL (arrays.c expands it) */
    TK_N_LET,          /* name, b = initialiser */
    TK_N_ASSIGN,       /* op (TK_OP_NONE for '=', else the compound op), a = target, b = value */
    TK_N_EXPR_STMT,    /* a = expression */
    TK_N_IF,           /* a = condition, b = then BLOCK, c = else BLOCK / IF / NULL */
    TK_N_FOR,          /* name = loop variable, a = low, b = high, c = body BLOCK */
    TK_N_RETURN,       /* a = value or NULL */
    /* expressions */
    TK_N_INT,          /* ival; loop_value: an unrolled loop's variable (arrays.c), typed i32 like it */
    TK_N_FLOAT,        /* fval (inf for the keyword `inf`) */
    TK_N_BOOL,         /* ival 0/1 */
    TK_N_NAME,         /* name */
    TK_N_UNARY,        /* op, a */
    TK_N_BINARY,       /* op, a, b */
    TK_N_CALL,         /* name, list = arguments, list2 = type arguments (TYPE) of a built-in, or
                          compile-time arguments (expressions) of a generic helper; explicit_targs */
    TK_N_INDEX,        /* a = indexed expression, list = indices (expressions or RANGEs) */
    TK_N_RANGE,        /* an index `a .. b` (a sub-tile's bounds), or `..` alone (a = b = NULL: a whole row/column) */
    TK_N_BUILTIN_VAR,  /* name = "block" | "warp", field = "x" | "y" | "z" | "id" */
} TkNodeKind;

typedef enum {
    TK_OP_NONE,
    TK_OP_ADD, TK_OP_SUB, TK_OP_MUL, TK_OP_DIV, TK_OP_MOD,
    TK_OP_LT, TK_OP_LE, TK_OP_GT, TK_OP_GE, TK_OP_EQ, TK_OP_NE,
    TK_OP_AND, TK_OP_OR,
    TK_OP_NEG, TK_OP_NOT,
} TkOp;

/* Type constructors as written in source. */
typedef enum {
    TK_TC_BOOL, TK_TC_I32, TK_TC_I64, TK_TC_F32, TK_TC_F16, TK_TC_BF16,
    TK_TC_RT, TK_TC_ST, TK_TC_RV, TK_TC_SV, TK_TC_GL,
} TkTypeCon;

typedef enum { TK_LAYOUT_DEFAULT, TK_LAYOUT_ROW, TK_LAYOUT_COL, TK_LAYOUT_PACKED } TkLayoutSyntax;

struct TkType;

typedef struct TkNode TkNode;
struct TkNode {
    TkNodeKind kind;
    TkSpan span;            /* the whole construct */
    TkSpan name_span;       /* just the name, where there is one */
    TkNode *next;           /* next sibling in a list */
    const char *name;
    const char *field;      /* BUILTIN_VAR */
    TkNode *a, *b, *c;
    TkNode *list, *list2;
    TkOp op;
    TkTypeCon tycon;
    TkLayoutSyntax layout;
    bool explicit_targs;    /* CALL written with <...> */
    bool broken;            /* item with a syntax error: the checker skips its body */
    bool loop_value;        /* INT standing for an unrolled loop variable */
    TkNode *source;         /* FN/KERNEL: body before arrays.c expanded it (printed) */
    bool generic;           /* FN/KERNEL with compile-time parameters: a template, never checked
                               or lowered itself (lang/generic.c makes its instances) */
    bool instance;          /* FN/KERNEL cloned from a template with its parameters bound */
    bool too_many;          /* template: "too many instances" was reported */
    const char *display;    /* instance: "gemm<128,192,256>" (name is the linkage name) */
    const char *values;     /* instance: "<128,192,256>", for "note: in instance ..." */
    const struct TkNode *origin;   /* instance: its template */
    uint16_t depth;         /* expression nesting depth (bounded by the parser) */
    int64_t ival;
    double fval;
    /* filled by the checker */
    struct TkType *type;
    void *sym;
    bool is_const;          /* folded: value in ival (ints, bools) or fval (floats) */
    bool varying;           /* uniform.c: value may differ between warps */
};

/* Deeper expressions are rejected by the parser, which bounds every recursive
 * walk over expressions in later passes. */
#define TK_MAX_EXPR_DEPTH 256

typedef struct {
    TkNode *items;          /* CONST / FN / KERNEL, in source order */
} TkProgram;

TkNode *tk_node_new(TkArena *arena, TkNodeKind kind, TkSpan span);
/* Append `item` to the list whose head is *head; returns the head. */
TkNode *tk_list_append(TkNode *head, TkNode *item);
unsigned tk_list_length(const TkNode *head);

const char *tk_op_spelling(TkOp op);
const char *tk_typecon_spelling(TkTypeCon tc);

#endif
