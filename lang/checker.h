/* checker.h — the checker's shared state. The checker is split by concern:
 *   check.c        program level: items, kernels, helpers, sizes, recursion
 *   check_stmt.c   statements, scopes, placement rules
 *   check_expr.c   expressions, constants, implicit conversions
 *   check_generic.c calls of generic helpers: binding, instances (generic.c clones)
 *   builtins.c     the built-in table and each built-in's typing rule
 *   interval.c     integer ranges, for bounds-safe element access
 *   uniform.c      block-uniform control flow for sync() and collectives
 * It reports through TkDiags and never stops at the first error: a bad
 * expression gets the error type, which silences errors that depend on it. */
#ifndef TK_LANG_CHECKER_H
#define TK_LANG_CHECKER_H

#include <stdbool.h>

#include "ast.h"
#include "diag.h"
#include "types.h"

typedef enum {
    TK_SYM_CONST,    /* compile-time constant; value in const_node */
    TK_SYM_VAR,      /* mutable local */
    TK_SYM_LET,      /* immutable local */
    TK_SYM_LOOP,     /* for-loop variable (immutable) */
    TK_SYM_PARAM,    /* kernel/helper parameter */
    TK_SYM_SIZE,     /* symbolic size of a kernel or helper */
    TK_SYM_FN,       /* helper function */
    TK_SYM_KERNEL,
} TkSymKind;

typedef struct TkSymbol TkSymbol;
struct TkSymbol {
    TkSymKind kind;
    const char *name;
    TkSpan span;
    TkType *type;
    TkNode *decl;            /* declaring node */
    TkNode *value;           /* CONST: the folded expression (is_const) */
    bool has_range;          /* integer value known to lie in [lo, hi] */
    int64_t lo, hi;
    bool varying;            /* may differ between the warps of a block */
    bool has_value;          /* CONST whose value folded without error */
    bool placeholder;        /* stands for an unknown name already reported */
    TkSizeVar size_index;    /* SIZE */
    TkSymbol *next;          /* next in its scope */
    /* FN: */
    bool fn_checking, fn_checked;
    bool fn_needs_uniform;   /* contains sync() or a block-collective op */
    bool fn_reads_varying;   /* result may differ between warps (touches warp.id or tiles) */
    /* FN template (generic): its instances so far (check_generic.c) */
    struct TkInstance *instances;
    unsigned ninstances;
};

typedef struct TkScope TkScope;
struct TkScope {
    TkScope *parent;
    TkSymbol *syms;
};

/* Constant values folded by check_expr live on the node: */
typedef struct {
    bool known;
    bool is_float;
    int64_t i;
    double f;
} TkConstVal;

/* the most warps a kernel may have: warps(N), 1 <= N <= TK_MAX_WARPS */
#define TK_MAX_WARPS 16

typedef struct {
    TkArena *arena;
    TkDiags *diags;
    TkScope *globals;
    TkNode *items;           /* the program, to explain names declared later */
    TkScope *scope;          /* innermost */
    /* the function being checked */
    TkNode *fn;              /* FN or KERNEL node */
    TkSymbol *fn_sym;        /* FN only */
    bool in_kernel;
    int64_t warps;           /* kernel's warps(N), 1 for helpers: warp.id in [0, warps) */
    bool warps_known;        /* false in helpers: warp.id is then in [0, TK_MAX_WARPS) */
    TkSizeNames *sizes;      /* of the current function */
    TkScope *size_scope;
    int loop_depth, if_depth, block_depth;
    int call_depth;          /* helper calls being checked (recursion guard) */
} TkChecker;

/* check.c */
int tk_check_program(TkArena *arena, TkDiags *diags, TkNode *items);

/* scope helpers (check_stmt.c) */
void tk_scope_push(TkChecker *c, TkScope *s);
void tk_scope_pop(TkChecker *c);
TkSymbol *tk_scope_lookup(TkChecker *c, const char *name);
TkSymbol *tk_scope_lookup_local(TkScope *s, const char *name);
/* Declares, reporting redeclaration/shadowing; returns the new symbol (never NULL
 * unless out of memory). */
TkSymbol *tk_declare(TkChecker *c, TkSymKind kind, const char *name, TkSpan span, TkType *type, TkNode *decl);

/* check_stmt.c */
void tk_check_block(TkChecker *c, TkNode *block, bool new_scope);
void tk_check_stmt(TkChecker *c, TkNode *s);
void tk_check_helper(TkChecker *c, TkSymbol *fs);
TkSymbol *tk_new_size(TkChecker *c, const char *name, TkSpan span);
TkType *tk_resolve_type(TkChecker *c, TkNode *type_node, bool allow_new_sizes);
bool tk_block_returns(const TkNode *block);

/* check_generic.c: a call of generic helper `tmpl` — binds its compile-time
 * parameters, makes or finds the instance, and checks the call against it. */
TkType *tk_check_generic_call(TkChecker *c, TkNode *e, TkSymbol *tmpl);

/* check_expr.c */
/* A call of helper fs; args_checked: the arguments' types are already set. */
TkType *tk_check_helper_call(TkChecker *c, TkNode *e, TkSymbol *fs, bool args_checked);
/* want: the type the context needs, for zeros()/ones()/fill()/load() without
 * a type argument. NULL: there is no context, and those report that their
 * result type is unknown. &tk_type_error: the context's type is itself an
 * error (already reported), and they fail quietly. */
TkType *tk_check_expr(TkChecker *c, TkNode *e, const TkType *want);
/* Can a value of type `from` (from node e, for constants) be used as `to`?
 * Reports at e with `what` ("initialiser", "argument 2 of mma_ab") if not. */
bool tk_coerce(TkChecker *c, TkNode *e, const TkType *to, const char *what);
TkConstVal tk_const_value(const TkNode *e);
bool tk_const_int(TkChecker *c, TkNode *e, const char *what, int64_t *out);
/* Symbolic dim of a type expression: ints, consts, sizes, + - *. */
bool tk_dim_poly(TkChecker *c, TkNode *e, bool allow_new_sizes, TkPoly *out);
void tk_type_str(const TkType *t, char *buf, size_t n);
bool tk_is_lvalue(TkChecker *c, TkNode *e, bool report);
TkSymbol *tk_root_symbol(TkNode *e);
/* Common type of two scalar operands of e (reports and returns NULL if none). */
TkType *tk_common_scalar(TkChecker *c, TkNode *e, TkNode *a, TkNode *b);
TkType *tk_check_elementwise(TkChecker *c, TkNode *e, const char *what, TkNode *a, TkNode *b);
TkType *tk_check_unary_map(TkChecker *c, TkNode *e, const char *what, TkNode *a);

/* check_mask.c */
/* A comparison or && || with a tile/vector operand (NULL for other operators). */
TkType *tk_check_mask_binary(TkChecker *c, TkNode *e);
/* ! of a tile/vector operand. */
TkType *tk_check_mask_not(TkChecker *c, TkNode *e);
TkType *tk_check_where(TkChecker *c, TkNode *call);
/* Reports (and returns true) if a's value is a mask, where `what` needs numbers. */
bool tk_mask_refused(TkChecker *c, TkNode *a, const char *what);
/* Does an index expression read warp.id (directly or through `let`s)? */
bool tk_uses_warp_id(const TkNode *e);
/* The hint of an index or sub-tile coordinate that is not provably in range:
 * what works (after `what: `, if not NULL), or why warp.id does not work in
 * a helper. */
void tk_bounds_hint(TkChecker *c, TkDiag *g, const TkNode *index, const char *what);
bool tk_check_index_bounds(TkChecker *c, TkNode *i, int64_t dim, const char *which, const char *ts);
/* check_slice.c: an index list with a range, `t[r0 .. r1, c0 .. c1]`, `t[i, ..]` (§5.13) */
TkType *tk_check_slice(TkChecker *c, TkNode *e);

/* builtins.c */
typedef struct TkBuiltin TkBuiltin;
/* Families of built-ins; the variant says which member (see builtins.c):
 * MMA: TkMmaForm; REDUCE/BROADCAST/MASK: 0 rows, 1 cols; INIT: 0 zeros,
 * 1 ones, 2 fill; TRI: 0 tril, 1 triu. */
typedef enum {
    F_LOAD, F_STORE, F_INIT, F_MMA, F_UNARY, F_BINARY, F_REDUCE, F_BROADCAST,
    F_CONVERT, F_TRANSPOSE, F_TRI, F_MASK, F_CDIV, F_SYNC, F_FMA, F_WHERE,
} TkBuiltinFamily;
typedef enum { TK_MMA_AB, TK_MMA_ABT, TK_MMA_ATB, TK_MMA_ATBT } TkMmaForm;
TkBuiltinFamily tk_builtin_family(const TkBuiltin *b);
int tk_builtin_variant(const TkBuiltin *b);
const TkBuiltin *tk_builtin_find(const char *name);
bool tk_is_builtin_name(const char *name);
TkType *tk_check_builtin_call(TkChecker *c, const TkBuiltin *b, TkNode *call, const TkType *want);
bool tk_builtin_is_collective(const TkBuiltin *b, const TkNode *call);
bool tk_builtin_is_sync(const TkBuiltin *b);
const char *tk_builtin_name(const TkBuiltin *b);

/* interval.c */
bool tk_interval(TkChecker *c, const TkNode *e, int64_t *lo, int64_t *hi);

/* uniform.c: run after typing a kernel or helper body. */
void tk_check_uniformity(TkChecker *c, TkNode *fn);

#endif
