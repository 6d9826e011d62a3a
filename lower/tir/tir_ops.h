/* tir_ops.h — the TIR opcode table: one row per op, with its operands and a
 * one-line meaning. Included with X(NAME, meaning) defined.
 *
 * Conventions: a(i) is operand i. Statement ops (S) produce no value and sit
 * directly in a region; value ops (V) produce the instruction's own value.
 * `aux` and `imm` carry small op-specific fields as noted. */

/* function-level values (computed once per block, valid everywhere) */
X(PARAM,      "V  value of kernel parameter #aux (gl: tensor base; scalar: its value)")
X(SIZE,       "V  i32 value of size variable #aux, bound at launch")
X(BLOCK_ID,   "V  i32 block index along axis aux (0 = x, 1 = y, 2 = z)")
X(WARP_ID,    "V  i32 index of the executing warp in [0, warps)")
/* constants */
X(CONST_INT,  "V  integer or bool constant imm of the instruction's type")
X(CONST_FLOAT,"V  float constant fimm of the instruction's type")
/* scalar arithmetic */
X(BINARY,     "V  a(0) <aux: TkOp> a(1) on scalars of one type (comparisons give bool)")
X(UNARY,      "V  <aux: TkOp NEG|NOT> a(0) on a scalar")
X(CAST,       "V  scalar a(0) converted to the instruction's type (RNE for floats, trunc toward 0 for float→int)")
X(CDIV,       "V  ceiling division a(0) / a(1) of integers (a(1) > 0)")
/* variables: slots owned per warp (scalars, rt, rv) or per block (st, sv) */
X(VAR,        "S  declares a slot of the instruction's type, zero-filled; its value is the slot handle")
X(GET,        "V  current value of slot a(0)")
X(SET,        "S  slot a(0) := a(1)")
X(SET_ELEM,   "S  slot a(0)[a(2)(, a(3))] := a(1) (one element of a tile/vector slot)")
/* tiles and vectors */
X(FILL,       "V  tile/vector of the instruction's type with every element a(0)")
X(LOAD,       "V  tile/vector read from a(0) (gl tensor or st/sv slot) at coordinates a(1..); gl reads are masked (0 outside)")
X(STORE,      "S  write tile/vector a(1) into a(0) (gl tensor or st/sv slot) at coordinates a(2..); gl writes are masked")
X(MMA,        "S  slot a(0) += A·B with A = a(1), B = a(2); aux = form (0 ab, 1 abt, 2 atb, 3 atbt)")
X(MAP1,       "V  element-wise aux:TirFn of a(0)")
X(MAP2,       "V  element-wise aux:TirFn of a(0), a(1) (tile⊕tile, tile⊕scalar, scalar⊕tile, scalar⊕scalar); LT..NE give bool elements")
X(MAP3,       "V  element-wise aux:TirFn of a(0), a(1), a(2), each a tile of the result's shape or a scalar: FMA, or SELECT (a(0) bool)")
X(REDUCE,     "V  aux:TirFn (MAX/MIN/ADD) over each row (imm = 0) or column (imm = 1) of tile a(0) → rv; imm = 2: over all of rv a(0) → scalar")
X(BROADCAST,  "V  t[i,j] aux:TirFn v[i] (imm = 0, rows) or v[j] (imm = 1, cols); t = a(0), v = a(1)")
X(CONVERT,    "V  tile/vector a(0) with elements converted (RNE) and/or layout changed to the instruction's type")
X(TRANSPOSE,  "V  element [j, i] of the result = a(0)[i, j]")
X(TRI,        "V  tril (aux 0: keep j - i <= a(1)) or triu (aux 1: keep j - i >= a(1)) of a(0); others := a(2)")
X(MASK,       "V  rows (imm 0) or columns (imm 1) with index >= a(1) of a(0) set to a(2)")
X(ELEM,       "V  element a(1)(, a(2)) of tile/vector a(0)")
/* sub-tiles and rows (docs/LANGUAGE.md §5.13): element-wise reads that fuse, region writes */
X(SLICE,      "V  sub-tile of rt a(0): result[i, j] = a(0)[i + aux, j + imm]; sub-vector of rv a(0): result[j] = a(0)[j + imm]")
X(LINE,       "V  rv from rt a(0): row a(1) (imm 0: result[j] = a(0)[a(1), j]) or column a(1) (imm 1: result[j] = a(0)[j, a(1)])")
X(SET_SLICE,  "S  slot a(0)[i + aux, j + imm] := a(1)[i, j] (rt), slot a(0)[j + imm] := a(1)[j] (rv): a region of the slot")
X(SET_LINE,   "S  row (imm 0) or column (imm 1) a(2) of rt slot a(0), from element aux on, := rv a(1)")
/* control */
X(FOR,        "S  for iv in [a(0), a(1)): region 0, whose induction value is the instruction held in `iv`")
X(LOOP_IV,    "V  induction value of the enclosing FOR (lives in the FOR's iv field)")
X(IF,         "S  if a(0) then region 0 else region 1")
X(SYNC,       "S  block barrier")
