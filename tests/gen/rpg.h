/* rpg.h — the random program generator of the differential test: valid
 * `.tk` kernels over the whole language, with the sizes and scalar values of
 * one case to run them on.
 *
 * Every choice comes from one stream of numbers: a seeded generator, or the
 * bytes of a fuzzer input (then a short input gives a small program), so the
 * same seed or bytes give the same program everywhere. A program is valid by
 * construction (tkc check accepts it; the differential test counts any
 * rejection as a bug of the generator or of the checker), free of races
 * (each output element is written by one warp of one block) and
 * well-conditioned on inputs in [-1, 1): magnitudes stay bounded, divisors,
 * logarithms and square roots keep away from their poles, so the
 * interpreter's error bounds (lower/interp/tir_interp.h) stay meaningful.
 *
 * Shape of a program: tile constants TR × TC (and TK, the depth of products),
 * optional helpers, and one kernel whose warps each own one TR × TC tile of
 * the outputs (warp w of block (x, y) the tile (y·W + w, x)), built from
 * random statements: element-wise maps and their fused chains, broadcasts,
 * reductions, masks (mask_rows/cols, tril/triu; comparisons, && || ! and
 * where), converts, transposes, products of every form and dtype
 * (from plain, transposed or packed tensors), loops with constant and
 * symbolic bounds, `if`, element writes, helpers (some generic, fn h<GR, GC,
 * GK>, called at a tile's shape and at its transpose's), shared tiles with sync()
 * across warps, rank-3 tensors, scalars, arrays of tiles and vectors with
 * constant-bound loops over them and constant indices, sub-tiles
 * (t[r0 .. r1, c0 .. c1], read and assigned, bounds that may follow a
 * constant loop's variable) and rows/columns (t[i, ..], t[.., j]) read and
 * assigned. */
#ifndef TK_TESTS_GEN_RPG_H
#define TK_TESTS_GEN_RPG_H

#include <stddef.h>
#include <stdint.h>

/* What a program uses, counted over a run ("ops covered"). */
#define RPG_FEATURES(X)                                                                                      \
    X(LOAD_RT, "load rt") X(LOAD_RV, "load rv") X(LOAD_COL, "col-layout tile") X(STORE, "store")              \
    X(FILL, "zeros/ones/fill") X(NEG, "neg") X(ABS, "abs") X(EXP, "exp") X(EXP2, "exp2") X(LOG, "log")        \
    X(SQRT, "sqrt") X(RSQRT, "rsqrt") X(TANH, "tanh") X(SIGMOID, "sigmoid") X(RELU, "relu") X(GELU, "gelu") X(ERF, "erf") X(GELU_ERF, "gelu_erf") X(FMA, "fma")  \
    X(SILU, "silu") X(ADD, "add") X(SUB, "sub") X(MUL, "mul") X(DIV, "div") X(MAX, "max") X(MIN, "min")      \
    X(SCALAR_OP, "tile-scalar op") X(BCAST_ROW, "*_row broadcast") X(BCAST_COL, "*_col broadcast")         \
    X(ROW_RED, "row_max/min/sum") X(COL_RED, "col_max/min/sum") X(TRIL, "tril/triu")                          \
    X(MASK, "mask_rows/cols") X(CONVERT_T, "convert dtype") X(CONVERT_L, "convert layout")                  \
    X(TRANSPOSE, "transpose") X(MMA_AB, "mma_ab") X(MMA_ABT, "mma_abt") X(MMA_ATB, "mma_atb")                \
    X(MMA_ATBT, "mma_atbt") X(MMA_BF16, "mma bf16") X(MMA_F16, "mma f16") X(MMA_F32, "mma f32")              \
    X(PACKED, "packed tensor") X(K_LOOP, "for (symbolic bounds)") X(CONST_LOOP, "for (constant bounds)")    \
    X(IF, "if/else") X(ELEM_READ, "element read") X(ELEM_WRITE, "element write") X(COMPOUND, "op= on tiles") \
    X(HELPER, "helper call") X(SHARED, "shared tile") X(SYNC, "sync") X(WARPS, "warps > 1")                  \
    X(RANK3, "rank-3 tensor") X(F16, "f16 values") X(BF16, "bf16 values") X(SCALAR_PARAM, "scalar parameter") \
    X(RV_OP, "vector op") X(OUT_VIEW, "mma stored straight to C") X(EPILOGUE, "mma accumulator read")      \
    X(COMPARE, "tile comparison") X(MASK_LOGIC, "&& || ! on masks") X(WHERE, "where") X(MASK_CONVERT, "convert mask") \
    X(ARRAY, "array of tiles") X(GENERIC, "generic helper at two shapes")                                   \
    X(SUBTILE, "sub-tile read/assign") X(ROW_COL, "row/column read/assign")                                 \
    X(VEC_RED, "row_max/min/sum of a vector")

#define RPG_FEATURE_ENUM(id, name) RPG_F_##id,
typedef enum { RPG_FEATURES(RPG_FEATURE_ENUM) RPG_NFEATURES } RpgFeature;
#undef RPG_FEATURE_ENUM

typedef struct {
    uint64_t seed;                 /* the choices, when bytes is NULL */
    const uint8_t *bytes;          /* or: a fuzzer's input, read choice by choice (0 past its end) */
    size_t nbytes;
    unsigned max_stmts;            /* top-level statements of the kernel body (0: 10) */
    const char *kernel_name;       /* NULL: "g" followed by the seed */
} RpgOptions;

typedef struct {
    char *source;                  /* the .tk text (malloc'd) */
    char kernel[64];
    char sizes[128];               /* the case: "M=17,N=65,K=33" */
    char scalars[256];             /* "s0=0.75,n0=5" ('-' when none) */
    unsigned features[RPG_NFEATURES];
} RpgProgram;

/* Generates one program. 0, or -1 when memory runs out. */
int rpg_generate(const RpgOptions *o, RpgProgram *out);
void rpg_free(RpgProgram *p);
const char *rpg_feature_name(unsigned f);

#endif
