/* tir.h — TileKit's tile IR: typed SSA over scalars, tiles and vectors, with
 * structured control flow (FOR/IF regions) and variables as slots.
 *
 * Between the checked AST and LLVM IR. Helpers are inlined, constants folded,
 * and every op keeps the source span it came from, through every pass, so
 * dumps and debug info point at .tk lines.
 *
 * Invariants (checked by tir_verify):
 *  - an operand is defined earlier in the same region or an enclosing one;
 *  - no value is used across a barrier statement (a SYNC, or a FOR/IF whose
 *    body contains one): across barriers, data flows only through slots,
 *    loop induction values, constants and the function-level values (PARAM,
 *    SIZE, BLOCK_ID, WARP_ID) — so a backend can run the code between two
 *    barriers once per warp, warp after warp;
 *  - operand types match the op's typing rule (the checker's rules, restated). */
#ifndef TK_LOWER_TIR_H
#define TK_LOWER_TIR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "source.h"
#include "types.h"

typedef enum {
#define X(name, meaning) TIR_##name,
#include "tir_ops.h"
#undef X
    TIR_NUM_OPS
} TirOp;

/* Element-wise functions of MAP1/MAP2/REDUCE/BROADCAST. */
typedef enum {
    TIR_FN_NEG, TIR_FN_ABS, TIR_FN_EXP, TIR_FN_EXP2, TIR_FN_LOG, TIR_FN_SQRT, TIR_FN_RSQRT,
    TIR_FN_TANH, TIR_FN_SIGMOID, TIR_FN_RELU, TIR_FN_GELU, TIR_FN_SILU,
    TIR_FN_ADD, TIR_FN_SUB, TIR_FN_MUL, TIR_FN_DIV, TIR_FN_MAX, TIR_FN_MIN,
    TIR_FN_ERF, TIR_FN_GELU_ERF,   /* unary, added later: tir_fn_arity says which is which */
    TIR_FN_FMA,                    /* ternary: a(0)·a(1) + a(2), one rounding (MAP3) */
    /* masks: comparisons of numbers give bool elements (MAP2); and/or/not
     * combine bool elements; select picks a(1) where a(0) holds, else a(2) (MAP3) */
    TIR_FN_LT, TIR_FN_LE, TIR_FN_GT, TIR_FN_GE, TIR_FN_EQ, TIR_FN_NE,
    TIR_FN_AND, TIR_FN_OR, TIR_FN_NOT,
    TIR_FN_SELECT,
    TIR_NUM_FNS
} TirFn;

/* Physical layouts an rt tile can be given when it only feeds mma as B
 * (lower/passes/tir_layout.c): the micro-kernel's operand layout, written directly by
 * the load, so the mma copies nothing. K×N names the logical B(k, n); KN tiles
 * are B as stored for mma_ab (rows k), NK for mma_abt (rows n). */
typedef enum {
    TIR_PACK_NONE,      /* as the type says */
    TIR_PACK_VNNI_KN,   /* bf16 pairs [K/2][N][2] */
    TIR_PACK_VNNI_NK,
    TIR_PACK_ROWS_KN,   /* [K][N] row-major */
    TIR_PACK_ROWS_NK,
} TirPack;

typedef struct TirInstr TirInstr;
typedef struct TirRegion TirRegion;

struct TirRegion {
    TirInstr *first, *last;
};

#define TIR_MAX_ARGS 8

struct TirInstr {
    TirOp op;
    const TkType *type;         /* result type (value ops), slot type (VAR) */
    TkSpan loc;                 /* source span it came from */
    uint32_t id;                /* printing order number, set by tir_number */
    uint8_t nargs;
    uint8_t pack;               /* TirPack: physical layout chosen by tir_layout.c (VAR, LOAD) */
    TirInstr *args[TIR_MAX_ARGS];
    int aux;
    int64_t imm;                /* CONST_INT value; shared VAR: offset in the shared arena */
    double fimm;
    const char *name;           /* VAR/LOOP_IV: source name, for dumps */
    TirRegion body[2];          /* FOR: body[0]; IF: then body[0], else body[1] */
    TirInstr *iv;               /* FOR: its LOOP_IV */
    TirInstr *next, *prev;      /* within the region */
    TirRegion *parent;          /* region holding this instruction */
    const void *base_op;        /* MMA: the target's base operation (intrinsics table row), set by legalise */
    const char *base_name;      /* ... and its name, for dumps */
};

typedef enum { TIR_PARAM_TENSOR, TIR_PARAM_SCALAR } TirParamKind;

typedef struct {
    const char *name;
    TirParamKind kind;
    const TkType *type;         /* gl<...> or a scalar type */
} TirParam;

typedef struct TirFunc TirFunc;
struct TirFunc {
    const char *name;           /* the linkage name: gemm, or gemm__64_64_128 for an instance */
    const char *display;        /* as users name it: gemm, gemm<64,64,128> */
    TkSpan loc;
    TirParam *params;
    unsigned nparams;
    const TkSizeNames *sizes;   /* size variables, bound at launch */
    int64_t warps;
    /* grid: up to 3 values computed in `grid_region` from sizes, params and
     * constants (only value ops) */
    TirRegion grid_region;
    TirInstr *grid[3];
    unsigned grid_rank;
    TirRegion body;
    uint64_t flops_per_block;   /* 2·M·N·K summed over mma ops, if static (else 0) */
    int64_t shared_bytes;       /* tir_passes.c plan-shared: the block's shared arena (st/sv VARs at imm offsets) */
    TirFunc *next;
};

typedef struct {
    TkArena *arena;
    const TkSource *src;        /* for line numbers in dumps */
    TirFunc *funcs;
} TirModule;

const char *tir_op_name(TirOp op);
const char *tir_op_meaning(TirOp op);
const char *tir_fn_name(TirFn fn);
/* Operands of fn: 1 (MAP1), 2 (MAP2, REDUCE, BROADCAST) or 3 (MAP3); 0 if fn is no TirFn. */
unsigned tir_fn_arity(int fn);
/* fn compares numbers (LT..NE): its result elements are bool. */
bool tir_fn_is_compare(int fn);
/* fn works on bool elements (AND, OR, NOT). */
bool tir_fn_is_logic(int fn);
/* The comparison fn of a source operator (TK_OP_LT..TK_OP_NE, TkOp values), or -1. */
int tir_fn_of_compare_op(int op);
/* The TirFn called `name` in the language ("exp", "gelu_erf", "fma"), or -1. */
int tir_fn_by_name(const char *name);

/* Construction (tir.c). New instructions are appended to a region. */
TirInstr *tir_new(TkArena *a, TirOp op, const TkType *type, TkSpan loc);
void tir_append(TirRegion *r, TirInstr *i);
void tir_add_arg(TirInstr *i, TirInstr *arg);
bool tir_is_statement(TirOp op);
/* SYNC, or FOR/IF containing one (at any depth). */
bool tir_is_barrier(const TirInstr *i);

/* Numbering and printing (tir_print.c). With `src`, each line ends with the
 * .tk line it came from. */
void tir_print_module(const TirModule *m, FILE *out, bool with_source);

/* Verification (tir_verify.c): returns the number of problems, each written
 * to `out` as "tir: func: %id: problem". */
unsigned tir_verify(const TirModule *m, FILE *out);

#endif
