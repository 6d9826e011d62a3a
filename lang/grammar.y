/* grammar.y — the .tk grammar (lemon, LALR(1)). Builds the AST of one
 * top-level item at a time: front.c splits the token stream at item
 * boundaries so that a syntax error never cascades into the next item.
 * docs/LANGUAGE.md has the same grammar in EBNF. */

%name tk_parser
%token_prefix TK_T_
%token_type { TkToken }
%default_type { TkNode * }
%extra_argument { TkParseCtx *ctx }
%stack_size 600

%include {
#include <assert.h>
#include <math.h>
#include <string.h>
#include "parse.h"

static TkNode oom_node;   /* returned when the arena is exhausted; the parse is marked failed */

static TkNode *mk(TkParseCtx *ctx, TkNodeKind kind, TkSpan span)
{
    TkNode *n = tk_node_new(ctx->arena, kind, span);
    if (!n) {
        ctx->failed = true;
        memset(&oom_node, 0, sizeof oom_node);
        return &oom_node;
    }
    return n;
}

/* Nesting depth of a new expression node over its children; an expression
 * deeper than TK_MAX_EXPR_DEPTH fails the item (reported once). */
static void set_depth(TkParseCtx *ctx, TkNode *n, const TkNode *a, const TkNode *b, const TkNode *list)
{
    unsigned d = 0;
    if (a && a->depth > d) d = a->depth;
    if (b && b->depth > d) d = b->depth;
    for (const TkNode *x = list; x; x = x->next)
        if (x->depth > d) d = x->depth;
    n->depth = (uint16_t)(d + 1 > TK_MAX_EXPR_DEPTH ? TK_MAX_EXPR_DEPTH + 1 : d + 1);
    if (n->depth > TK_MAX_EXPR_DEPTH && !ctx->too_deep) {
        TkDiag *g = tk_error(ctx->diags, n->span, "expression is nested more than %d levels deep", TK_MAX_EXPR_DEPTH);
        tk_diag_hint(g, "split it into several `let` bindings");
        ctx->too_deep = true;
        ctx->had_error = true;
    }
}

static TkNode *binary(TkParseCtx *ctx, TkOp op, TkNode *l, TkNode *r)
{
    TkNode *n = mk(ctx, TK_N_BINARY, tk_span_join(l->span, r->span));
    n->op = op;
    n->a = l;
    n->b = r;
    set_depth(ctx, n, l, r, NULL);
    return n;
}

static TkNode *scalar_type(TkParseCtx *ctx, TkTypeCon tc, TkToken t)
{
    TkNode *n = mk(ctx, TK_N_TYPE, t.span);
    n->tycon = tc;
    return n;
}

static TkNode *tile_type(TkParseCtx *ctx, TkToken con, TkTypeCon tc, TkNode *elem, TkNode *dims, TkToken close)
{
    TkNode *n = mk(ctx, TK_N_TYPE, tk_span_join(con.span, close.span));
    n->tycon = tc;
    n->a = elem;
    n->list = dims;
    return n;
}

static void syntax_error_at(TkParseCtx *ctx, int major, TkToken tok, void *parser);
}

%syntax_error {
    syntax_error_at(ctx, yymajor, yyminor, yypParser);
}
%parse_failure { ctx->failed = true; }
%stack_overflow {
    ctx->overflow = true;
    ctx->failed = true;
}

%left OROR.
%left ANDAND.
%left EQ NE.
%left LT LE GT GE.
%left PLUS MINUS.
%left STAR SLASH PERCENT.
%right BANG.

/* ---------------------------------------------------------------- items */

program ::= items(L).                               { ctx->items = L; }

items(A) ::= .                                      { A = NULL; }
items(A) ::= items(L) item(I).                      { A = tk_list_append(L, I); }

item(A) ::= const_decl(C).                          { A = C; }
item(A) ::= FN(F) IDENT(N) LPAREN params(P) RPAREN result(R) block(B). {
    A = mk(ctx, TK_N_FN, tk_span_join(F.span, B->span));
    A->name = N.text; A->name_span = N.span; A->list = P; A->a = R; A->b = B;
}
/* a generic helper's name is a GIDENT wherever '<' follows it (front.c), so
 * that `act<16, 64>(x)` is not read as a comparison */
item(A) ::= FN(F) GIDENT(N) LT gparams(G) GT LPAREN params(P) RPAREN result(R) block(B). {
    A = mk(ctx, TK_N_FN, tk_span_join(F.span, B->span));
    A->name = N.text; A->name_span = N.span; A->list = P; A->a = R; A->b = B; A->c = G; A->generic = true;
}
item(A) ::= KERNEL(K) IDENT(N) LPAREN params(P) RPAREN kattrs(T) block(B). {
    A = mk(ctx, TK_N_KERNEL, tk_span_join(K.span, B->span));
    A->name = N.text; A->name_span = N.span; A->list = P; A->list2 = T; A->b = B;
}
item(A) ::= KERNEL(K) IDENT(N) LT gparams(G) GT LPAREN params(P) RPAREN kattrs(T) block(B). {
    A = mk(ctx, TK_N_KERNEL, tk_span_join(K.span, B->span));
    A->name = N.text; A->name_span = N.span; A->list = P; A->list2 = T; A->b = B; A->c = G; A->generic = true;
}

/* compile-time parameters: NAME, NAME = default, NAME = target(key: v, ..., else: v) */
gparams(A) ::= gparam(P).                           { A = P; }
gparams(A) ::= gparams(L) COMMA gparam(P).          { A = tk_list_append(L, P); }
gparam(A) ::= IDENT(N).                             { A = mk(ctx, TK_N_GENERIC, N.span); A->name = N.text; A->name_span = N.span; }
gparam(A) ::= IDENT(N) ASSIGN gvalue(V). {
    A = mk(ctx, TK_N_GENERIC, tk_span_join(N.span, V->span)); A->name = N.text; A->name_span = N.span; A->a = V;
}
gparam(A) ::= IDENT(N) ASSIGN IDENT(T) LPAREN tarms(L) RPAREN(R). {
    A = mk(ctx, TK_N_GENERIC, tk_span_join(N.span, R.span)); A->name = N.text; A->name_span = N.span; A->list = L;
    if (strcmp(T.text, "target") != 0) {
        TkDiag *g = tk_error(ctx->diags, T.span, "a per-target default is written target(...), not %s(...)", T.text);
        tk_diag_hint(g, "e.g. %s = target(gpu: 64, cpu: 128)", N.text);
        ctx->had_error = true;
    }
}
tarms(A) ::= tarm(T).                               { A = T; }
tarms(A) ::= tarms(L) COMMA tarm(T).                { A = tk_list_append(L, T); }
tarm(A) ::= IDENT(K) COLON gvalue(V).               { A = mk(ctx, TK_N_TARGET_ARM, tk_span_join(K.span, V->span)); A->name = K.text; A->name_span = K.span; A->a = V; }
tarm(A) ::= ELSE(K) COLON gvalue(V).                { A = mk(ctx, TK_N_TARGET_ARM, tk_span_join(K.span, V->span)); A->name = "else"; A->name_span = K.span; A->a = V; }

/* a compile-time value: a dimension expression (no comparisons, so '>'
 * closes the list), a negated one, or a bool */
gvalue(A) ::= dim(D).                               { A = D; }
gvalue(A) ::= MINUS(M) dim(D).                      { A = mk(ctx, TK_N_UNARY, tk_span_join(M.span, D->span)); A->op = TK_OP_NEG; A->a = D; set_depth(ctx, A, D, NULL, NULL); }
gvalue(A) ::= TRUE(T).                              { A = mk(ctx, TK_N_BOOL, T.span); A->ival = 1; }
gvalue(A) ::= FALSE(T).                             { A = mk(ctx, TK_N_BOOL, T.span); A->ival = 0; }
gvalues(A) ::= gvalue(V).                           { A = V; }
gvalues(A) ::= gvalues(L) COMMA gvalue(V).          { A = tk_list_append(L, V); }

const_decl(A) ::= CONST(C) IDENT(N) ASSIGN expr(E) SEMI(S). {
    A = mk(ctx, TK_N_CONST, tk_span_join(C.span, S.span));
    A->name = N.text; A->name_span = N.span; A->a = E;
}
/* a per-target constant, const KP = target(gpu: 16, else: 256);: the front end
 * picks the arm for the target before checking (generic.c) */
const_decl(A) ::= CONST(C) IDENT(N) ASSIGN IDENT(T) LPAREN tarms(L) RPAREN SEMI(S). {
    A = mk(ctx, TK_N_CONST, tk_span_join(C.span, S.span));
    A->name = N.text; A->name_span = N.span; A->list = L;
    if (strcmp(T.text, "target") != 0) {
        TkDiag *g = tk_error(ctx->diags, T.span, "a per-target constant is written target(...), not %s(...)", T.text);
        tk_diag_hint(g, "e.g. const %s = target(gpu: 64, else: 128);", N.text);
        ctx->had_error = true;
        A->broken = true;
    }
}

result(A) ::= .                                     { A = NULL; }
result(A) ::= ARROW type(T).                        { A = T; }

/* grid(...) and warps(...) in any order; the checker rejects repeats */
kattrs(A) ::= .                                     { A = NULL; }
kattrs(A) ::= kattrs(L) GRID(G) LPAREN args(X) RPAREN(R). {
    TkNode *n = mk(ctx, TK_N_CALL, tk_span_join(G.span, R.span));
    n->name = "grid"; n->name_span = G.span; n->list = X;
    A = tk_list_append(L, n);
}
kattrs(A) ::= kattrs(L) WARPS(W) LPAREN args(X) RPAREN(R). {
    TkNode *n = mk(ctx, TK_N_CALL, tk_span_join(W.span, R.span));
    n->name = "warps"; n->name_span = W.span; n->list = X;
    A = tk_list_append(L, n);
}

params(A) ::= .                                     { A = NULL; }
params(A) ::= param_list(L).                        { A = L; }
param_list(A) ::= param(P).                         { A = P; }
param_list(A) ::= param_list(L) COMMA param(P).     { A = tk_list_append(L, P); }
param(A) ::= type(T) IDENT(N). {
    A = mk(ctx, TK_N_PARAM, tk_span_join(T->span, N.span));
    A->name = N.text; A->name_span = N.span; A->a = T;
}
/* parsed so that arrays.c can say why it is refused, not a syntax error */
param(A) ::= type(T) IDENT(N) LBRACKET expr(L) RBRACKET(R). {
    A = mk(ctx, TK_N_PARAM, tk_span_join(T->span, R.span));
    A->name = N.text; A->name_span = N.span; A->a = T; A->c = L;
}

/* ---------------------------------------------------------------- types */

type(A) ::= BOOL(T).                                { A = scalar_type(ctx, TK_TC_BOOL, T); }
type(A) ::= I32(T).                                 { A = scalar_type(ctx, TK_TC_I32, T); }
type(A) ::= I64(T).                                 { A = scalar_type(ctx, TK_TC_I64, T); }
type(A) ::= F32(T).                                 { A = scalar_type(ctx, TK_TC_F32, T); }
type(A) ::= F16(T).                                 { A = scalar_type(ctx, TK_TC_F16, T); }
type(A) ::= BF16(T).                                { A = scalar_type(ctx, TK_TC_BF16, T); }
/* Tile types take any number of dims here; the checker says how many each
 * constructor wants, which reads better than a syntax error. */
type(A) ::= tilecon(C) LT type(E) COMMA dims(D) GT(G). {
    A = tile_type(ctx, C, (TkTypeCon)C.ival, E, D, G);
}
type(A) ::= tilecon(C) LT type(E) COMMA dims(D) COMMA ROW(L) GT(G). {
    A = tile_type(ctx, C, (TkTypeCon)C.ival, E, D, G);
    A->layout = TK_LAYOUT_ROW; A->name_span = L.span;
}
type(A) ::= tilecon(C) LT type(E) COMMA dims(D) COMMA COL(L) GT(G). {
    A = tile_type(ctx, C, (TkTypeCon)C.ival, E, D, G);
    A->layout = TK_LAYOUT_COL; A->name_span = L.span;
}
type(A) ::= tilecon(C) LT type(E) COMMA dims(D) COMMA PACKED(L) GT(G). {
    A = tile_type(ctx, C, (TkTypeCon)C.ival, E, D, G);
    A->layout = TK_LAYOUT_PACKED; A->name_span = L.span;
}

%type tilecon { TkToken }
tilecon(A) ::= RT(T).                               { A = T; A.ival = TK_TC_RT; }
tilecon(A) ::= ST(T).                               { A = T; A.ival = TK_TC_ST; }
tilecon(A) ::= RV(T).                               { A = T; A.ival = TK_TC_RV; }
tilecon(A) ::= SV(T).                               { A = T; A.ival = TK_TC_SV; }
tilecon(A) ::= GL(T).                               { A = T; A.ival = TK_TC_GL; }

dims(A) ::= dim(D).                                 { A = D; }
dims(A) ::= dims(L) COMMA dim(D).                   { A = tk_list_append(L, D); }

/* Dimension expressions: a restricted expression grammar without
 * comparisons, so that '>' always closes the type. */
dim(A) ::= dim(L) PLUS dim(R).                      { A = binary(ctx, TK_OP_ADD, L, R); }
dim(A) ::= dim(L) MINUS dim(R).                     { A = binary(ctx, TK_OP_SUB, L, R); }
dim(A) ::= dim(L) STAR dim(R).                      { A = binary(ctx, TK_OP_MUL, L, R); }
dim(A) ::= INT(T).                                  { A = mk(ctx, TK_N_INT, T.span); A->ival = T.ival; A->broken = T.bad; }
dim(A) ::= IDENT(T).                                { A = mk(ctx, TK_N_NAME, T.span); A->name = T.text; }
dim(A) ::= LPAREN(L) dim(D) RPAREN(R).              { A = D; A->span = tk_span_join(L.span, R.span); }

/* ---------------------------------------------------------------- statements */

block(A) ::= LBRACE(L) stmts(S) RBRACE(R).          { A = mk(ctx, TK_N_BLOCK, tk_span_join(L.span, R.span)); A->list = S; }

stmts(A) ::= .                                      { A = NULL; }
stmts(A) ::= stmts(L) stmt(S).                      { A = tk_list_append(L, S); }

stmt(A) ::= type(T) IDENT(N) SEMI(S). {
    A = mk(ctx, TK_N_VAR, tk_span_join(T->span, S.span));
    A->name = N.text; A->name_span = N.span; A->a = T;
}
stmt(A) ::= type(T) IDENT(N) ASSIGN expr(E) SEMI(S). {
    A = mk(ctx, TK_N_VAR, tk_span_join(T->span, S.span));
    A->name = N.text; A->name_span = N.span; A->a = T; A->b = E;
}
/* arrays of constant length: lang/arrays.c expands them before checking */
stmt(A) ::= type(T) IDENT(N) LBRACKET expr(L) RBRACKET SEMI(S). {
    A = mk(ctx, TK_N_VAR, tk_span_join(T->span, S.span));
    A->name = N.text; A->name_span = N.span; A->a = T; A->c = L;
}
stmt(A) ::= type(T) IDENT(N) LBRACKET expr(L) RBRACKET ASSIGN expr(E) SEMI(S). {
    A = mk(ctx, TK_N_VAR, tk_span_join(T->span, S.span));
    A->name = N.text; A->name_span = N.span; A->a = T; A->b = E; A->c = L;
}
stmt(A) ::= LET(L) IDENT(N) ASSIGN expr(E) SEMI(S). {
    A = mk(ctx, TK_N_LET, tk_span_join(L.span, S.span));
    A->name = N.text; A->name_span = N.span; A->b = E;
}
stmt(A) ::= const_decl(C).                          { A = C; }
stmt(A) ::= expr(L) assign_op(O) expr(R) SEMI(S). {
    A = mk(ctx, TK_N_ASSIGN, tk_span_join(L->span, S.span));
    A->op = (TkOp)O.ival; A->a = L; A->b = R; A->name_span = O.span;
}
stmt(A) ::= expr(E) SEMI(S).                        { A = mk(ctx, TK_N_EXPR_STMT, tk_span_join(E->span, S.span)); A->a = E; }
stmt(A) ::= if_stmt(I).                             { A = I; }
stmt(A) ::= FOR(F) LPAREN IDENT(N) IN expr(L) DOTDOT expr(H) RPAREN block(B). {
    A = mk(ctx, TK_N_FOR, tk_span_join(F.span, B->span));
    A->name = N.text; A->name_span = N.span; A->a = L; A->b = H; A->c = B;
}
stmt(A) ::= RETURN(R) SEMI(S).                      { A = mk(ctx, TK_N_RETURN, tk_span_join(R.span, S.span)); }
stmt(A) ::= RETURN(R) expr(E) SEMI(S).              { A = mk(ctx, TK_N_RETURN, tk_span_join(R.span, S.span)); A->a = E; }
stmt(A) ::= block(B).                               { A = B; }
/* recovery: skip to the end of the statement and go on. A statement that
 * ends in a block (for, if) ends at that block: `for (i in 0 .. 4 {` fails
 * at the '{', which then opens the block that `error block` skips, so the
 * braces stay balanced and the rest of the item parses normally. */
stmt(A) ::= error SEMI.                             { A = NULL; }
stmt(A) ::= error block.                            { A = NULL; }

%type assign_op { TkToken }
assign_op(A) ::= ASSIGN(T).                         { A = T; A.ival = TK_OP_NONE; }
assign_op(A) ::= PLUSEQ(T).                         { A = T; A.ival = TK_OP_ADD; }
assign_op(A) ::= MINUSEQ(T).                        { A = T; A.ival = TK_OP_SUB; }
assign_op(A) ::= STAREQ(T).                         { A = T; A.ival = TK_OP_MUL; }
assign_op(A) ::= SLASHEQ(T).                        { A = T; A.ival = TK_OP_DIV; }

if_stmt(A) ::= IF(I) LPAREN expr(C) RPAREN block(B). {
    A = mk(ctx, TK_N_IF, tk_span_join(I.span, B->span)); A->a = C; A->b = B;
}
if_stmt(A) ::= IF(I) LPAREN expr(C) RPAREN block(B) ELSE block(E). {
    A = mk(ctx, TK_N_IF, tk_span_join(I.span, E->span)); A->a = C; A->b = B; A->c = E;
}
if_stmt(A) ::= IF(I) LPAREN expr(C) RPAREN block(B) ELSE if_stmt(E). {
    A = mk(ctx, TK_N_IF, tk_span_join(I.span, E->span)); A->a = C; A->b = B; A->c = E;
}

/* ---------------------------------------------------------------- expressions */

expr(A) ::= expr(L) OROR expr(R).                   { A = binary(ctx, TK_OP_OR, L, R); }
expr(A) ::= expr(L) ANDAND expr(R).                 { A = binary(ctx, TK_OP_AND, L, R); }
expr(A) ::= expr(L) EQ expr(R).                     { A = binary(ctx, TK_OP_EQ, L, R); }
expr(A) ::= expr(L) NE expr(R).                     { A = binary(ctx, TK_OP_NE, L, R); }
expr(A) ::= expr(L) LT expr(R).                     { A = binary(ctx, TK_OP_LT, L, R); }
expr(A) ::= expr(L) LE expr(R).                     { A = binary(ctx, TK_OP_LE, L, R); }
expr(A) ::= expr(L) GT expr(R).                     { A = binary(ctx, TK_OP_GT, L, R); }
expr(A) ::= expr(L) GE expr(R).                     { A = binary(ctx, TK_OP_GE, L, R); }
expr(A) ::= expr(L) PLUS expr(R).                   { A = binary(ctx, TK_OP_ADD, L, R); }
expr(A) ::= expr(L) MINUS expr(R).                  { A = binary(ctx, TK_OP_SUB, L, R); }
expr(A) ::= expr(L) STAR expr(R).                   { A = binary(ctx, TK_OP_MUL, L, R); }
expr(A) ::= expr(L) SLASH expr(R).                  { A = binary(ctx, TK_OP_DIV, L, R); }
expr(A) ::= expr(L) PERCENT expr(R).                { A = binary(ctx, TK_OP_MOD, L, R); }
expr(A) ::= MINUS(M) expr(E). [BANG]                { A = mk(ctx, TK_N_UNARY, tk_span_join(M.span, E->span)); A->op = TK_OP_NEG; A->a = E; set_depth(ctx, A, E, NULL, NULL); }
expr(A) ::= BANG(M) expr(E).                        { A = mk(ctx, TK_N_UNARY, tk_span_join(M.span, E->span)); A->op = TK_OP_NOT; A->a = E; set_depth(ctx, A, E, NULL, NULL); }
expr(A) ::= postfix(P).                             { A = P; }

postfix(A) ::= primary(P).                          { A = P; }
postfix(A) ::= postfix(B) LBRACKET idx_args(I) RBRACKET(R). {
    A = mk(ctx, TK_N_INDEX, tk_span_join(B->span, R.span)); A->a = B; A->list = I;
    set_depth(ctx, A, B, NULL, I);
}

/* a literal the lexer reported (malformed, out of range) is `broken`: the
 * checker gives it the error type, so its stand-in value causes nothing */
primary(A) ::= INT(T).                              { A = mk(ctx, TK_N_INT, T.span); A->ival = T.ival; A->broken = T.bad; }
primary(A) ::= FLOAT(T).                            { A = mk(ctx, TK_N_FLOAT, T.span); A->fval = T.fval; A->broken = T.bad; }
primary(A) ::= INF(T).                              { A = mk(ctx, TK_N_FLOAT, T.span); A->fval = INFINITY; }
primary(A) ::= TRUE(T).                             { A = mk(ctx, TK_N_BOOL, T.span); A->ival = 1; }
primary(A) ::= FALSE(T).                            { A = mk(ctx, TK_N_BOOL, T.span); A->ival = 0; }
primary(A) ::= IDENT(T).                            { A = mk(ctx, TK_N_NAME, T.span); A->name = T.text; }
primary(A) ::= LPAREN(L) expr(E) RPAREN(R).         { A = E; A->span = tk_span_join(L.span, R.span); }
primary(A) ::= IDENT(N) LPAREN args(X) RPAREN(R). {
    A = mk(ctx, TK_N_CALL, tk_span_join(N.span, R.span));
    A->name = N.text; A->name_span = N.span; A->list = X;
    set_depth(ctx, A, NULL, NULL, X);
}
primary(A) ::= GIDENT(N) LPAREN args(X) RPAREN(R). {
    A = mk(ctx, TK_N_CALL, tk_span_join(N.span, R.span));
    A->name = N.text; A->name_span = N.span; A->list = X;
    set_depth(ctx, A, NULL, NULL, X);
}
primary(A) ::= GIDENT(N) LT gvalues(G) GT LPAREN args(X) RPAREN(R). {
    A = mk(ctx, TK_N_CALL, tk_span_join(N.span, R.span));
    A->name = N.text; A->name_span = N.span; A->list = X; A->list2 = G; A->explicit_targs = true;
    set_depth(ctx, A, NULL, NULL, X);
}
primary(A) ::= TBUILTIN(N) LPAREN args(X) RPAREN(R). {
    A = mk(ctx, TK_N_CALL, tk_span_join(N.span, R.span));
    A->name = N.text; A->name_span = N.span; A->list = X;
    set_depth(ctx, A, NULL, NULL, X);
}
primary(A) ::= TBUILTIN(N) LT types(T) GT LPAREN args(X) RPAREN(R). {
    A = mk(ctx, TK_N_CALL, tk_span_join(N.span, R.span));
    A->name = N.text; A->name_span = N.span; A->list = X; A->list2 = T; A->explicit_targs = true;
    set_depth(ctx, A, NULL, NULL, X);
}
primary(A) ::= BLOCK(B) DOT IDENT(F). {
    A = mk(ctx, TK_N_BUILTIN_VAR, tk_span_join(B.span, F.span)); A->name = "block"; A->field = F.text; A->name_span = F.span;
}
primary(A) ::= WARP(W) DOT IDENT(F). {
    A = mk(ctx, TK_N_BUILTIN_VAR, tk_span_join(W.span, F.span)); A->name = "warp"; A->field = F.text; A->name_span = F.span;
}

types(A) ::= type(T).                               { A = T; }
types(A) ::= types(L) COMMA type(T).                { A = tk_list_append(L, T); }

/* index lists may hold ranges: `t[0 .. 16, ..]` (a sub-tile, a row, §5.13) */
idx_args(A) ::= .                                   { A = NULL; }
idx_args(A) ::= idx_list(L).                        { A = L; }
idx_list(A) ::= idx_arg(E).                         { A = E; }
idx_list(A) ::= idx_list(L) COMMA idx_arg(E).       { A = tk_list_append(L, E); }
idx_arg(A) ::= expr(E).                             { A = E; }
idx_arg(A) ::= expr(L) DOTDOT expr(H). {
    A = mk(ctx, TK_N_RANGE, tk_span_join(L->span, H->span)); A->a = L; A->b = H;
    set_depth(ctx, A, L, H, NULL);
}
idx_arg(A) ::= DOTDOT(D).                           { A = mk(ctx, TK_N_RANGE, D.span); }

args(A) ::= .                                       { A = NULL; }
args(A) ::= arg_list(L).                            { A = L; }
arg_list(A) ::= expr(E).                            { A = E; }
arg_list(A) ::= arg_list(L) COMMA expr(E).          { A = tk_list_append(L, E); }

%code {
/* Which tokens could the parser accept in its current state? Simulates the
 * reductions lemon would do for each candidate, so the answer is exact. */
static bool accepts(yyParser *p, int token)
{
    YYACTIONTYPE stack[64];
    int depth = 0;
    int avail = (int)(p->yytos - p->yystack) + 1;
    int take = avail < 32 ? avail : 32;
    for (int i = 0; i < take; i++) stack[depth++] = p->yytos[-(take - 1) + i].stateno;
    for (int steps = 0; steps < 200; steps++) {
        YYACTIONTYPE act = yy_find_shift_action((YYCODETYPE)token, stack[depth - 1]);
        if (act <= YY_MAX_SHIFTREDUCE) return true;         /* shift or shift-reduce */
        if (act == YY_ACCEPT_ACTION) return true;
        if (act < YY_MIN_REDUCE) return false;              /* error or no action */
        unsigned rule = act - YY_MIN_REDUCE;
        int nrhs = -yyRuleInfoNRhs[rule];
        if (nrhs >= depth) return true;                     /* ran past what we copied: assume yes */
        depth -= nrhs;
        /* As in lemon's yy_reduce: the goto is a state, or a reduce action
         * stored as the state (found again by yy_find_shift_action). */
        YYACTIONTYPE g = yy_find_reduce_action(stack[depth - 1], yyRuleInfoLhs[rule]);
        if (depth >= 63) return true;
        stack[depth++] = g;
    }
    return false;
}

int tk_parser_accepts(void *parser, int code)
{
    return accepts(parser, code);
}

int tk_parser_recovering(void *parser)
{
    yyParser *p = parser;
    return p->yytos > p->yystack && p->yytos->major == YYERRORSYMBOL;
}

/* The expected/found lines of a syntax error at token `major` (0: end of
 * input): the tokens the parser would accept, when that list is short enough
 * to help, or "an expression" / "a type". */
static void describe_expected(yyParser *p, TkDiag *g, int major)
{
    const char *found = major == 0 ? "end of input" : tk_token_spelling(major);
    int expected[8], n = 0;
    bool too_many = false;
    for (int t = 1; t < YYNTOKEN; t++) {
        if (t == YYERRORSYMBOL) continue;
        if (accepts(p, t)) {
            if (n < 6) expected[n++] = t;
            else too_many = true;
        }
    }
    if (!g) return;
    /* Inside an unclosed '(' or '[' a token that can never continue an
     * expression ('{', '}', ';', the end) means the closer is missing: say
     * that rather than list every operator. */
    bool closes = major == 0 || major == TK_T_LBRACE || major == TK_T_RBRACE || major == TK_T_SEMI;
    if (too_many && closes && accepts(p, TK_T_RPAREN) != accepts(p, TK_T_RBRACKET)) {
        tk_diag_expected(g, "%s", accepts(p, TK_T_RPAREN) ? "')'" : "']'");
        tk_diag_found(g, "%s", found);
        return;
    }
    if (too_many && accepts(p, TK_T_IDENT) && accepts(p, TK_T_INT) && accepts(p, TK_T_LPAREN) && !accepts(p, TK_T_SEMI)) {
        tk_diag_expected(g, "an expression");
        tk_diag_found(g, "%s", found);
    } else if (too_many && accepts(p, TK_T_BOOL) && accepts(p, TK_T_RT) && !accepts(p, TK_T_IDENT)) {
        tk_diag_expected(g, "a type");
        tk_diag_found(g, "%s", found);
    }
    if (n > 0 && !too_many) {
        char buf[256];
        size_t len = 0;
        buf[0] = '\0';
        for (int i = 0; i < n; i++) {
            int w = snprintf(buf + len, sizeof buf - len, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
                             tk_token_spelling(expected[i]));
            if (w < 0 || (size_t)w >= sizeof buf - len) break;
            len += (size_t)w;
        }
        tk_diag_expected(g, "%s", buf);
        tk_diag_found(g, "%s", found);
        if (n == 1 && expected[0] == TK_T_SEMI) tk_diag_hint(g, "a statement ends with ';'");
    }
}

void tk_parser_describe_expected(void *parser, TkDiag *g, int major)
{
    describe_expected(parser, g, major);
}

static void syntax_error_at(TkParseCtx *ctx, int major, TkToken tok, void *parser)
{
    ctx->had_error = true;
    if (ctx->quiet) {   /* the lexer already reported what broke this statement */
        ctx->quiet = false;
        return;
    }
    TkSpan span = major == 0 ? ctx->last_span : tok.span;
    TkDiag *g = major == 0
        ? tk_error(ctx->diags, span, "unexpected end of input")
        : tk_error(ctx->diags, span, "unexpected %s", tk_token_spelling(major));
    describe_expected(parser, g, major);
    /* a keyword where a name would do: `row`, `col`, `grid`, ... are reserved */
    const char *sp = major ? tk_token_spelling(major) : "";
    if (g && sp[0] == '\'' && ((sp[1] >= 'a' && sp[1] <= 'z') || (sp[1] >= 'A' && sp[1] <= 'Z')) &&
        accepts(parser, TK_T_IDENT))
        tk_diag_hint(g, "%s is a keyword, so it cannot name a variable, parameter or function; pick another name", sp);
}
}
