/* test_masks.c — masks (LANGUAGE.md §6.8): comparisons of tiles, vectors and
 * scalars, && || ! (with a bool scalar too), where with tile, typed-scalar
 * and untyped-constant values, convert<T>(mask), a mask in a variable, a
 * helper, element reads and writes and a transpose, on f32, bf16 and f16 in
 * row and col layout, at sizes that are not multiples of the tiles.
 *
 * Every result is compared twice, both times exactly: with the interpreter
 * (num_run), and with a plain C loop over the initial values written here.
 * where only chooses, so nothing is rounded. Inputs come from a small set of
 * values (so == and != meet equal elements often) with NaNs in X: a NaN
 * compares false except with !=, as in C. */
#include <math.h>
#include <stdlib.h>

#include "numeric.h"

static const char *const TYPES[] = { "f32", "bf16", "f16" };
static NumProg prog;

static void build(void)
{
    NumStr s = { 0 };
    for (unsigned t = 0; t < 3; t++) {
        const char *T = TYPES[t];
        ns_printf(&s,
                  "kernel masks_%s(gl<%s, M, N> X, gl<%s, M, N> Y, gl<%s, M, N> PICK, gl<%s, M, N> RELU, gl<%s, M, N> LOGIC,\n"
                  "                gl<%s, M, N> UNT, gl<%s, M, N> NE, gl<%s, M, N> COLW, gl<f32, M> CNT, gl<%s, N> V, gl<%s, N> VW,\n"
                  "                %s s, bool flag) grid(cdiv(N, 32), cdiv(M, 16)) {\n"
                  "    rt<%s, 16, 32> x = load(X, block.y, block.x);\n"
                  "    rt<%s, 16, 32> y = load(Y, block.y, block.x);\n"
                  "    store(PICK, where(x > y, x, y), block.y, block.x);\n"
                  "    store(RELU, where(x < 0.0, 0.0, x), block.y, block.x);\n"
                  "    let m = (x >= s && !(y == x)) || (y <= -0.5 && flag);\n"
                  "    store(LOGIC, where(m, s, -s), block.y, block.x);\n"
                  "    store(UNT, convert<%s>(where(!m, 1.0, -1.0)), block.y, block.x);\n"
                  "    store(NE, convert<%s>(x != y), block.y, block.x);\n"
                  "    rt<%s, 16, 32, col> xc = load(X, block.y, block.x);\n"
                  "    rt<%s, 16, 32, col> yc = load(Y, block.y, block.x);\n"
                  "    store(COLW, where(xc <= yc, yc, s), block.y, block.x);\n"
                  "    if (block.x == 0) {\n"
                  "        store(CNT, row_sum(convert<f32>(x > y)), block.y);\n"
                  "    }\n"
                  "    if (block.y == 0) {\n"
                  "        rv<%s, 32> v = load(V, block.x);\n"
                  "        store(VW, where(v > s || flag, v, -v), block.x);\n"
                  "    }\n"
                  "}\n",
                  T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T);
    }
    ns_printf(&s, "fn keep(rt<bool, 16, 16> m, rt<f32, 16, 16> x) -> rt<f32, 16, 16> {\n"
                  "    return where(m, x, 0.0);\n"
                  "}\n"
                  "kernel mask_elems(gl<f32, M, N> X, gl<f32, M, N> Z) grid(cdiv(N, 16), cdiv(M, 16)) {\n"
                  "    rt<f32, 16, 16> x = load(X, block.y, block.x);\n"
                  "    rt<bool, 16, 16> m;\n"
                  "    m = x > 0.0;\n"
                  "    m[1, 1] = m[3, 4] && !m[2, 2];\n"
                  "    if (m[0, 5]) {\n"
                  "        m[0, 0] = true;\n"
                  "    }\n"
                  "    store(Z, keep(m, x) + convert<f32>(transpose(m)), block.y, block.x);\n"
                  "}\n");
    num_build(&prog, "masks", s.s);
    ns_free(&s);
}

static void teardown(void) { num_free(&prog); }

/* Values from {-1, -0.5, 0, 0.5, 1}; X (parameter 0) has a NaN at every
 * 13th element. Outputs get 7 (overwritten everywhere they are compared). */
static double gen_small(unsigned p, TkTypeKind elem, int64_t idx, uint64_t *rng, void *ctx)
{
    (void)elem, (void)ctx;
    if (p == 0 && idx % 13 == 5) return NAN;
    if (p > 1 && p != 9) return 7;   /* outputs; V is parameter 9 */
    return (double)(num_rng_next(rng) % 5) * 0.5 - 1.0;
}

static void expect_param(NumRun *r, const char *name, const double *want)
{
    unsigned p = num_param(r, name);
    char what[640];
    snprintf(what, sizeof what, "%s of %s (independent loop)", name, r->desc);
    num_expect(r->got[p], want, r->count[p], r->elem[p], TOL_EXACT, what);
}

/* The results of masks_T computed from the initial values. */
static void check_masks(NumRun *r, double s, bool flag)
{
    const double *X = r->init[num_param(r, "X")], *Y = r->init[num_param(r, "Y")], *V = r->init[num_param(r, "V")];
    int64_t M = r->shape[0][0], N = r->shape[0][1], n = M * N;
    double *pick = calloc((size_t)n, sizeof *pick), *relu = calloc((size_t)n, sizeof *relu), *logic = calloc((size_t)n, sizeof *logic);
    double *unt = calloc((size_t)n, sizeof *unt), *ne = calloc((size_t)n, sizeof *ne), *colw = calloc((size_t)n, sizeof *colw);
    double *cnt = calloc((size_t)M, sizeof *cnt), *vw = calloc((size_t)N, sizeof *vw);
    ck_assert(pick && relu && logic && unt && ne && colw && cnt && vw);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            int64_t k = i * N + j;
            double x = X[k], y = Y[k];
            bool m = (x >= s && !(y == x)) || (y <= -0.5 && flag);
            pick[k] = x > y ? x : y;
            relu[k] = x < 0 ? 0 : x;
            logic[k] = m ? s : -s;
            unt[k] = !m ? 1.0 : -1.0;
            ne[k] = x != y;
            colw[k] = x <= y ? y : s;
            if (j < 32) cnt[i] += x > y;   /* block.x == 0: the first 32 columns */
        }
    for (int64_t j = 0; j < N; j++) vw[j] = V[j] > s || flag ? V[j] : -V[j];
    expect_param(r, "PICK", pick);
    expect_param(r, "RELU", relu);
    expect_param(r, "LOGIC", logic);
    expect_param(r, "UNT", unt);
    expect_param(r, "NE", ne);
    expect_param(r, "COLW", colw);
    expect_param(r, "CNT", cnt);
    expect_param(r, "VW", vw);
    free(pick), free(relu), free(logic), free(unt), free(ne), free(colw), free(cnt), free(vw);
}

START_TEST(masks_all_forms)
{
    static const char *const sizes[] = { "M=40,N=70", "M=1,N=5", "M=16,N=32" };
    static const char *const sets[] = { "s=0.5,flag=false", "s=0,flag=true" };
    static const double svals[] = { 0.5, 0 };
    static const bool flags[] = { false, true };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned k = 0; k < 3; k++)
            for (unsigned v = 0; v < 2; v++) {
                char name[32];
                snprintf(name, sizeof name, "masks_%s", TYPES[t]);
                NumSpec spec = { .sizes = sizes[k], .sets = sets[v], .gen = gen_small, .seed = 11 + k, .tol = TOL_EXACT };
                NumRun r;
                num_run(&prog, name, &spec, &r);
                check_masks(&r, svals[v], flags[v]);
                num_run_free(&r);
            }
}
END_TEST

/* mask_elems per 16×16 tile: m = x > 0 (0 outside the tensor), then
 * m[1,1] = m[3,4] && !m[2,2], then m[0,0] = true if m[0,5];
 * Z = where(m, x, 0) + mᵀ as 1.0/0.0. */
START_TEST(masks_elements_helpers)
{
    static const char *const sizes[] = { "M=40,N=37", "M=16,N=16", "M=3,N=20" };
    for (unsigned k = 0; k < 3; k++) {
        NumSpec spec = { .sizes = sizes[k], .seed = 5 + k, .tol = TOL_EXACT };
        NumRun r;
        num_run(&prog, "mask_elems", &spec, &r);
        const double *X = r.init[0];
        int64_t M = r.shape[0][0], N = r.shape[0][1];
        double *z = calloc((size_t)(M * N), sizeof *z);
        ck_assert(z);
        for (int64_t bi = 0; bi < M; bi += 16)
            for (int64_t bj = 0; bj < N; bj += 16) {
                bool m[16][16];
                double x[16][16];
                for (int a = 0; a < 16; a++)
                    for (int b = 0; b < 16; b++) {
                        bool in = bi + a < M && bj + b < N;
                        x[a][b] = in ? X[(bi + a) * N + bj + b] : 0;
                        m[a][b] = x[a][b] > 0;
                    }
                m[1][1] = m[3][4] && !m[2][2];
                if (m[0][5]) m[0][0] = true;
                for (int a = 0; a < 16; a++)
                    for (int b = 0; b < 16; b++)
                        if (bi + a < M && bj + b < N) z[(bi + a) * N + bj + b] = (m[a][b] ? x[a][b] : 0) + (m[b][a] ? 1 : 0);
            }
        expect_param(&r, "Z", z);
        free(z);
        num_run_free(&r);
    }
}
END_TEST

Suite *num_suite_masks(void)
{
    Suite *s = suite_create("masks");
    for (unsigned p = 0; p < 2; p++) {
        unsigned paths = num_variant(p, NUM_AOT);
        if (!paths) continue;
        TCase *tc = num_tcase_paths("masks", build, teardown, paths);
        tcase_add_test(tc, masks_all_forms);
        tcase_add_test(tc, masks_elements_helpers);
        suite_add_tcase(s, tc);
    }
    return s;
}
