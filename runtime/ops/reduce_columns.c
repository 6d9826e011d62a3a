/* reduce_columns.c — the column path of the reduction engine: a reduction
 * over one strided dim whose kept innermost dim is contiguous (a sum over
 * the rows of [R, C]), streamed row by row into vectors of partials. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "elementwise.h"   /* tkr_f32_unary: the vector exp of logsumexp's column loop */
#include "reduce_internal.h"
#include "tk/dtype.h"
#include "tk/ops.h"

/* Sums (of x, x², |x|, (x - mean)²: sum, mean, norm 1 and 2, var, std) and
 * max/min over one strided dim whose kept neighbours are contiguous (a sum
 * over the rows of [R, C]) stream like a sum over all of it: a task adds whole
 * row segments of up to COL_CHUNK columns into a vector of partials, so
 * memory is read in long sequential runs and the inner loop vectorises.
 * f32 and bf16 rows are added in f32 lanes for ROW_GROUP rows at a time,
 * then into double partials (f64 in double throughout). Long reductions are
 * cut into pieces of rows fixed by the shape (never by the thread count),
 * whose partial vectors are added in piece order: each output adds the
 * same values in the same order on any thread count. */
#define COL_CHUNK 2048        /* columns per task: 8 KiB of f32 per row, partials in L1 */
#define ROW_GROUP 64          /* rows added in f32 before the double partials take them */
#define ROW_PIECE 256         /* rows per piece of a long column reduction (a multiple of ROW_GROUP) */
#define PIECE_PARTIALS (4 << 20)   /* at most this many doubles of piece partials: pieces grow to fit */

typedef struct {
    const Job *J;
    int64_t inner, chunks, rows_per_piece, pieces;   /* columns of a kept row, column chunks per row, row pieces */
    double *dst;   /* pieces × M partials, or res_f when pieces == 1 (the float results) */
    int64_t *pos;  /* argmax/argmin: pieces × M positions beside dst's values */
} Columns;

/* The running max (up) or min of each of w columns over rows [r0, r1) into
 * ext, NaN once a NaN is seen (PyTorch's amax/amin): `x wins if it is
 * greater or NaN` keeps a NaN, since nothing compares greater than it;
 * f32/bf16 in f32 lanes. */
#define EXT_STEP(m, x, up) (((up) ? (x) > (m) : (x) < (m)) || (x) != (x) ? (x) : (m))

TKR_VECTOR_CLONES static void column_extremes(const Job *J, const char *base, int64_t rstep, int64_t r0, int64_t r1, int64_t w,
                                              bool up, double *ext)
{
    float m[COL_CHUNK], init = up ? -INFINITY : INFINITY;
    for (int64_t j = 0; j < w; j++) m[j] = init, ext[j] = init;
    for (int64_t r = r0; r < r1; r++) {
        const char *row = base + r * rstep;
        if (J->dt == TK_DTYPE_F64) {
            const double *x = (const double *)row;
            for (int64_t j = 0; j < w; j++) ext[j] = EXT_STEP(ext[j], x[j], up);
            continue;
        }
        float wide[COL_CHUNK];
        const float *x = (const float *)row;
        if (J->dt == TK_DTYPE_BF16) {
            const uint16_t *p = (const uint16_t *)row;
            for (int64_t j = 0; j < w; j++) {
                uint32_t u = (uint32_t)p[j] << 16;
                memcpy(&wide[j], &u, 4);
            }
            x = wide;
        }
        if (up)
            for (int64_t j = 0; j < w; j++) m[j] = EXT_STEP(m[j], x[j], true);
        else
            for (int64_t j = 0; j < w; j++) m[j] = EXT_STEP(m[j], x[j], false);
    }
    if (J->dt != TK_DTYPE_F64)
        for (int64_t j = 0; j < w; j++) ext[j] = m[j];
}

/* The first max (up) or min of each of w columns over rows [r0, r1), or its
 * first NaN, into val and its row into pos: row r0 starts each column, a
 * later row takes over only if strictly better (or the first NaN), so the
 * first of equals stays; f32/bf16 compared in f32. */
#define ARG_TAKE(m, x, up) ((((up) ? (x) > (m) : (x) < (m)) || (x) != (x)) && (m) == (m))

TKR_VECTOR_CLONES static void column_args(const Job *J, const char *base, int64_t rstep, int64_t r0, int64_t r1, int64_t w, bool up,
                                          double *val, int64_t *pos)
{
    if (J->dt == TK_DTYPE_F64) {
        for (int64_t j = 0; j < w; j++) val[j] = ((const double *)(base + r0 * rstep))[j], pos[j] = r0;
        for (int64_t r = r0 + 1; r < r1; r++) {
            const double *x = (const double *)(base + r * rstep);
            for (int64_t j = 0; j < w; j++) {
                bool take = ARG_TAKE(val[j], x[j], up);
                val[j] = take ? x[j] : val[j];
                pos[j] = take ? r : pos[j];
            }
        }
        return;
    }
    float m[COL_CHUNK], wide[COL_CHUNK];
    for (int64_t r = r0; r < r1; r++) {
        const float *x = (const float *)(base + r * rstep);
        if (J->dt == TK_DTYPE_BF16) {
            const uint16_t *h = (const uint16_t *)(base + r * rstep);
            for (int64_t j = 0; j < w; j++) {
                uint32_t u = (uint32_t)h[j] << 16;
                memcpy(&wide[j], &u, 4);
            }
            x = wide;
        }
        if (r == r0) {
            for (int64_t j = 0; j < w; j++) m[j] = x[j], pos[j] = r0;
        } else if (up) {
            for (int64_t j = 0; j < w; j++) {
                bool take = ARG_TAKE(m[j], x[j], true);
                m[j] = take ? x[j] : m[j];
                pos[j] = take ? r : pos[j];
            }
        } else {
            for (int64_t j = 0; j < w; j++) {
                bool take = ARG_TAKE(m[j], x[j], false);
                m[j] = take ? x[j] : m[j];
                pos[j] = take ? r : pos[j];
            }
        }
    }
    for (int64_t j = 0; j < w; j++) val[j] = m[j];
}

/* all (want_zero: is a zero among the rows?) or any (is a nonzero?) of each
 * of w columns over rows [r0, r1), elements of es bytes masked as
 * nonzero_mask says, into out as the op's 0/1 result. */
#define COLUMN_FIND(T)                                                                             \
    for (int64_t r = r0; r < r1; r++) {                                                            \
        const T *x = (const T *)(base + r * rstep);                                                \
        if (want_zero)                                                                             \
            for (int64_t j = 0; j < w; j++) found[j] |= (x[j] & (T)mask) == 0;                     \
        else                                                                                       \
            for (int64_t j = 0; j < w; j++) found[j] |= (x[j] & (T)mask) != 0;                     \
    }

TKR_VECTOR_CLONES static void column_logic(const Job *J, const char *base, int64_t rstep, int64_t r0, int64_t r1, int64_t w,
                                           double *out)
{
    bool want_zero = J->k == K_ALL;
    uint64_t mask = tkr_red_nonzero_mask(J->dt);
    uint8_t found[COL_CHUNK] = { 0 };
    switch (J->es) {
    case 1: COLUMN_FIND(uint8_t) break;
    case 2: COLUMN_FIND(uint16_t) break;
    case 4: COLUMN_FIND(uint32_t) break;
    default: COLUMN_FIND(uint64_t) break;
    }
    for (int64_t j = 0; j < w; j++) out[j] = want_zero ? !found[j] : found[j];
}

TKR_VECTOR_CLONES static void column_task(const Columns *C, int64_t task)
{
    const Job *J = C->J;
    const Geo *g = J->g;
    int64_t piece = task % C->pieces, chunk = task / C->pieces % C->chunks, outer = task / C->pieces / C->chunks;
    int64_t c0 = chunk * COL_CHUNK, w = C->inner - c0 < COL_CHUNK ? C->inner - c0 : COL_CHUNK, o = outer * C->inner + c0;
    int64_t r0 = piece * C->rows_per_piece, r1 = r0 + C->rows_per_piece < g->N ? r0 + C->rows_per_piece : g->N;
    const char *base = J->in + tkr_red_kept_offset(g, o) * J->es;
    int64_t rstep = g->rstride[0] * J->es;
    double acc[COL_CHUNK];
    if (J->k == K_MAX || J->k == K_MIN) {   /* exact, so any order; a NaN sticks */
        column_extremes(J, base, rstep, r0, r1, w, J->k == K_MAX, acc);
        memcpy(C->dst + piece * g->M + o, acc, (size_t)w * sizeof(double));
        return;
    }
    if (J->k == K_ARGMAX || J->k == K_ARGMIN) {   /* exact too: the first extreme of the piece */
        column_args(J, base, rstep, r0, r1, w, J->k == K_ARGMAX, C->dst + piece * g->M + o, C->pos + piece * g->M + o);
        return;
    }
    if (J->k == K_ALL || J->k == K_ANY) {
        column_logic(J, base, rstep, r0, r1, w, C->dst + piece * g->M + o);
        return;
    }
    if (J->k == K_PROD) {   /* in double, row after row (f32/bf16 widened) */
        for (int64_t j = 0; j < w; j++) acc[j] = 1;
        for (int64_t r = r0; r < r1; r++) {
            const char *row = base + r * rstep;
            if (J->dt == TK_DTYPE_F64)
                for (int64_t j = 0; j < w; j++) acc[j] *= ((const double *)row)[j];
            else if (J->dt == TK_DTYPE_F32)
                for (int64_t j = 0; j < w; j++) acc[j] *= ((const float *)row)[j];
            else
                for (int64_t j = 0; j < w; j++) acc[j] *= tk_bf16_to_f32(((const uint16_t *)row)[j]);
        }
        memcpy(C->dst + piece * g->M + o, acc, (size_t)w * sizeof(double));
        return;
    }
    /* the sums: of x, x², |x|, (x - the output's mean)² or exp(x - the output's max) */
    const double *shift = J->k == K_SQDEV || J->k == K_SUMEXP ? J->shift + o : NULL;
    for (int64_t j = 0; j < w; j++) acc[j] = 0;
    if (J->dt == TK_DTYPE_F64) {
        for (int64_t r = r0; r < r1; r++) {
            const double *x = (const double *)(base + r * rstep);
            switch (J->k) {
            case K_SUM: for (int64_t j = 0; j < w; j++) acc[j] += x[j]; break;
            case K_SQSUM: for (int64_t j = 0; j < w; j++) acc[j] += x[j] * x[j]; break;
            case K_ABSSUM: for (int64_t j = 0; j < w; j++) acc[j] += fabs(x[j]); break;
            case K_SUMEXP: for (int64_t j = 0; j < w; j++) acc[j] += exp(x[j] - shift[j]); break;
            default: for (int64_t j = 0; j < w; j++) acc[j] += (x[j] - shift[j]) * (x[j] - shift[j]); break;
            }
        }
        memcpy(C->dst + piece * g->M + o, acc, (size_t)w * sizeof(double));
        return;
    }
    float facc[COL_CHUNK], fshift[COL_CHUNK], wide[COL_CHUNK], ex[COL_CHUNK];
    if (shift)   /* rounded to f32 like the elements, as the row loops do */
        for (int64_t j = 0; j < w; j++) fshift[j] = (float)shift[j];
    for (int64_t r = r0; r < r1;) {
        int64_t rend = r + ROW_GROUP < r1 ? r + ROW_GROUP : r1;
        for (int64_t j = 0; j < w; j++) facc[j] = 0;
        for (; r < rend; r++) {
            const float *x = (const float *)(base + r * rstep);
            if (J->dt == TK_DTYPE_BF16) {   /* the top half of an f32 */
                const uint16_t *h = (const uint16_t *)(base + r * rstep);
                for (int64_t j = 0; j < w; j++) {
                    uint32_t u = (uint32_t)h[j] << 16;
                    memcpy(&wide[j], &u, 4);
                }
                x = wide;
            }
            switch (J->k) {
            case K_SUM: for (int64_t j = 0; j < w; j++) facc[j] += x[j]; break;
            case K_SQSUM: for (int64_t j = 0; j < w; j++) facc[j] += x[j] * x[j]; break;
            case K_ABSSUM: for (int64_t j = 0; j < w; j++) facc[j] += fabsf(x[j]); break;
            case K_SUMEXP:   /* the row's differences, then its exps 16 lanes at a time */
                for (int64_t j = 0; j < w; j++) ex[j] = x[j] - fshift[j];
                tkr_f32_unary(TK_EXP, ex, ex, w);
                for (int64_t j = 0; j < w; j++) facc[j] += ex[j];
                break;
            default: for (int64_t j = 0; j < w; j++) facc[j] += (x[j] - fshift[j]) * (x[j] - fshift[j]); break;
            }
        }
        for (int64_t j = 0; j < w; j++) acc[j] += facc[j];
    }
    memcpy(C->dst + piece * g->M + o, acc, (size_t)w * sizeof(double));
}

static void column_tasks(int64_t b, int64_t e, void *arg)
{
    for (int64_t t = b; t < e; t++) column_task(arg, t);
}

/* Every output of g over one strided dim, the kept innermost contiguous:
 * sums, products, max/min into J->res_f; argmax/argmin and all/any (whose
 * results are positions or bools) through piece partials and emit. */
tk_status tkr_red_column_sums(tk_context *ctx, const char *op, const Job *J)
{
    const Geo *g = J->g;
    bool to_res_i = J->k == K_ARGMAX || J->k == K_ARGMIN || J->k == K_ALL || J->k == K_ANY;
    Columns C = { J, g->kshape[g->nk - 1], 0, ROW_PIECE, 1, J->res_f, NULL };
    C.chunks = (C.inner + COL_CHUNK - 1) / COL_CHUNK;
    while ((g->N + C.rows_per_piece - 1) / C.rows_per_piece * g->M > PIECE_PARTIALS) C.rows_per_piece *= 2;
    C.pieces = (g->N + C.rows_per_piece - 1) / C.rows_per_piece;
    bool own_dst = C.pieces > 1 || to_res_i;
    if (own_dst && !(C.dst = malloc((size_t)(C.pieces * g->M) * sizeof(double))))
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld partial results", op, (long long)(C.pieces * g->M));
    if ((J->k == K_ARGMAX || J->k == K_ARGMIN) && !(C.pos = malloc((size_t)(C.pieces * g->M) * sizeof(int64_t)))) {
        free(C.dst);
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld partial positions", op, (long long)(C.pieces * g->M));
    }
    int64_t tasks = g->M / C.inner * C.chunks * C.pieces;
    int64_t work = (C.inner < COL_CHUNK ? C.inner : COL_CHUNK) * (g->N < C.rows_per_piece ? g->N : C.rows_per_piece);
    tkr_parallel_for(ctx, tasks, work >= PIECE_GRAIN ? 1 : PIECE_GRAIN / work, column_tasks, &C);
    if (own_dst) {
        for (int64_t o = 0; o < g->M; o++) {   /* in piece order: the same bits on any thread count */
            St s = { C.dst[o], (int64_t)C.dst[o], C.pos ? C.pos[o] : -1 };
            for (int64_t p = 1; p < C.pieces; p++) {
                int64_t at = p * g->M + o;
                St t = { C.dst[at], (int64_t)C.dst[at], C.pos ? C.pos[at] : -1 };
                tkr_red_st_combine(J->k, false, &s, &t);
            }
            if (to_res_i) tkr_red_emit(J, o, &s);
            else J->res_f[o] = s.a;
        }
        free(C.dst);
        free(C.pos);
    }
    return TK_OK;
}
