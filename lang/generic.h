/* generic.h — compile-time parameters (`kernel gemm<BM = 128, BN>(...)`,
 * `fn act<R, C>(...)`). A generic item is a template: it is never checked or
 * lowered itself. An instance is the item cloned with each parameter bound
 * as a `const P = value;` in a scope around its parameters, attributes and
 * body, then checked and lowered like any other item. Kernel instances are
 * made here, before checking, from the requested names; helper instances
 * are made by the checker at each call (check_generic.c). */
#ifndef TK_LANG_GENERIC_H
#define TK_LANG_GENERIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"

/* Most instances one generic item may have (per compilation): a bound on
 * the work a runaway request list or a self-multiplying helper can cause. */
#define TK_MAX_INSTANCES 64
/* Most compile-time parameters of one item. */
#define TK_MAX_GENERIC_PARAMS 16

typedef struct {
    /* kernel instances to make, as "gemm<128,192,256>"; a plain name of a
     * generic kernel asks for its default instance (an error if some
     * parameter has no default) */
    const char *const *instances;
    unsigned ninstances;
    /* the target's keys for target(...) defaults, most specific first
     * (e.g. "x86", "cpu"); NULL: { "cpu" } */
    const char *const *target_keys;
    unsigned ntarget_keys;
    const char *target_name;   /* for messages; NULL: "the host" */
    /* keep only the kernels named in `instances` (libtk's on-demand instances) */
    bool only_requested;
} TkGenericOptions;

/* One compile-time value: an integer or a bool. */
typedef struct {
    int64_t v;
    bool is_bool;
} TkGenericValue;

/* Makes the requested kernel instances and every generic kernel's default
 * instance, and reports template errors. Every GENERIC node gets its default
 * for the target evaluated (is_const, ival, and fval 1 for a bool), which
 * the checker uses for helpers. 0, or -1 out of memory. */
int tk_generic_expand(TkArena *arena, TkDiags *diags, TkNode **items, const TkGenericOptions *opts);

/* Parses "gemm< 1, -2, true >" into the name and values; 0, or -1 if it is
 * not of that form (a plain name has n = 0 and *has_args false). */
int tk_generic_parse_request(const char *request, char *name, size_t namelen, TkGenericValue *vals, unsigned max,
                             unsigned *n, bool *has_args);
/* "gemm<1,-2,true>" (display) and "gemm__1_m2_true" (linkage). */
void tk_generic_display(const char *name, const TkGenericValue *vals, unsigned n, char *out, size_t outlen);
void tk_generic_mangle(const char *name, const TkGenericValue *vals, unsigned n, char *out, size_t outlen);
/* The canonical spelling of a kernel request (spaces dropped): 0, or -1 if malformed. */
int tk_generic_canonical(const char *request, char *out, size_t outlen);

/* The default of a compile-time parameter for the target (its target(...)
 * arm, or the plain default, chosen by tk_generic_expand), evaluated; false
 * if there is none. `earlier` holds the values of the parameters before it,
 * `items` the program (for consts). */
bool tk_generic_default(const TkNode *gparam, const TkNode *items, const TkNode *tmpl, const TkGenericValue *earlier,
                        TkGenericValue *out);

/* The instance of template `tmpl` with the given values: a deep copy whose
 * `c` holds one CONST per parameter (its value node spanning `at[i]`, or the
 * parameter when at is NULL). plain: named like the template (the default
 * instance). NULL out of memory. */
TkNode *tk_generic_instantiate(TkArena *arena, const TkNode *tmpl, const TkGenericValue *vals, const TkSpan *at, bool plain);

/* Adds "in instance NAME<...>" to the diagnostics from index `from` on that
 * point inside the instance's source (not to those in other items it uses). */
void tk_generic_note(TkDiags *diags, unsigned from, const TkNode *inst);

/* A deep copy of a syntax tree (checker fields cleared). */
TkNode *tk_ast_clone(TkArena *arena, const TkNode *n);

#endif
