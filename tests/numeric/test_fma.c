/* test_fma.c — fma(x, y, z) (§6.6): every operand form (tile, vector,
 * scalar, untyped constant; rt in row and col layout) on f32, bf16 and f16,
 * at sizes that are not multiples of the tiles, against the interpreter,
 * and the one rounding itself.
 *
 * Tolerances: the interpreter computes fma in double (the product of two
 * f32, bf16 or f16 values is exact there) and rounds to the element type; a
 * kernel uses the f32 fma (one rounding) and rounds a bf16/f16 result from
 * there. The two may differ by one ulp where the double result lies next to
 * a rounding boundary: 1 ulp for every type.
 *
 * One rounding: with x = 1 + 2^-12 (f32; 1 + 2^-7 for bf16, 1 + 2^-10 for
 * f16) and z = -(1 + 2^-11) (resp. -(1 + 2^-6), -(1 + 2^-9)), x·x + z is
 * 2^-24 (2^-14, 2^-20), exactly representable, while x·x rounded to the
 * element type first gives 0 — these are compared exactly. */
#include <math.h>

#include "numeric.h"

static const char *const TYPES[] = { "f32", "bf16", "f16" };
static NumProg prog;

static void build(void)
{
    NumStr s = { 0 };
    for (unsigned t = 0; t < 3; t++) {
        const char *T = TYPES[t];
        ns_printf(&s,
                  "kernel fma_%s(gl<%s, M, N> X, gl<%s, M, N> Y, gl<%s, M, N> Z, gl<%s, M, N> TTT, gl<%s, M, N> CCC,\n"
                  "              gl<%s, M, N> TST, gl<%s, M, N> SCK, gl<%s, N> V, gl<%s, N> VVS, gl<%s, 16> Q, %s s, %s s2)\n"
                  "    grid(cdiv(N, 32), cdiv(M, 16)) {\n"
                  "    rt<%s, 16, 32> x = load(X, block.y, block.x);\n"
                  "    rt<%s, 16, 32> y = load(Y, block.y, block.x);\n"
                  "    rt<%s, 16, 32> z = load(Z, block.y, block.x);\n"
                  "    rt<%s, 16, 32, col> xc = load(X, block.y, block.x);\n"
                  "    rt<%s, 16, 32, col> yc = load(Y, block.y, block.x);\n"
                  "    rt<%s, 16, 32, col> zc = load(Z, block.y, block.x);\n"
                  "    store(TTT, fma(x, y, z), block.y, block.x);\n"
                  "    store(CCC, fma(xc, yc, zc), block.y, block.x);\n"
                  "    store(TST, fma(x, s, z), block.y, block.x);\n"
                  "    store(SCK, fma(s, yc, 0.5), block.y, block.x);\n"
                  "    if (block.y == 0) {\n"
                  "        rv<%s, 32> v = load(V, block.x);\n"
                  "        store(VVS, fma(v, v, s2), block.x);\n"
                  "    }\n"
                  "    if (block.x == 0 && block.y == 0) {\n"
                  "        %s r = fma(s, s2, s);\n"
                  "        rv<%s, 16> q = fill(r);\n"
                  "        store(Q, q, 0);\n"
                  "    }\n"
                  "}\n",
                  T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T);
        ns_printf(&s,
                  "kernel fma_exact_%s(gl<%s, N> X, gl<%s, N> Y, %s c) grid(cdiv(N, 16)) {\n"
                  "    rv<%s, 16> x = load(X, block.x);\n"
                  "    store(Y, fma(x, x, c), block.x);\n"
                  "}\n",
                  T, T, T, T, T);
    }
    num_build(&prog, "fma", s.s);
    ns_free(&s);
}

static void teardown(void) { num_free(&prog); }

START_TEST(fma_all_forms)
{
    static const char *const sizes[] = { "M=40,N=70", "M=1,N=5", "M=16,N=32" };
    static const char *const sets[] = { "s=0.75,s2=-1.25", "s=-3,s2=1e-3" };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned k = 0; k < 3; k++)
            for (unsigned v = 0; v < 2; v++) {
                char name[32];
                snprintf(name, sizeof name, "fma_%s", TYPES[t]);
                NumSpec spec = { .sizes = sizes[k], .sets = sets[v], .lo = -4, .hi = 4, .tol = (NumTol){ .ulps = 1 } };
                NumRun r;
                num_run(&prog, name, &spec, &r);
                num_run_free(&r);
            }
}
END_TEST

static double gen_x(unsigned p, TkTypeKind elem, int64_t idx, uint64_t *rng, void *ctx)
{
    (void)idx, (void)rng, (void)ctx;
    if (p != 0) return 0;   /* the output */
    return elem == TK_TY_F32 ? 1 + 0x1p-12 : elem == TK_TY_BF16 ? 1 + 0x1p-7 : 1 + 0x1p-10;
}

START_TEST(fma_rounds_once)
{
    static const char *const sets[] = { "c=-1.00048828125", "c=-1.015625", "c=-1.001953125" };
    static const double want[] = { 0x1p-24, 0x1p-14, 0x1p-20 };
    for (unsigned t = 0; t < 3; t++) {
        char name[32];
        snprintf(name, sizeof name, "fma_exact_%s", TYPES[t]);
        NumSpec spec = { .sizes = "N=21", .sets = sets[t], .gen = gen_x, .tol = TOL_EXACT };
        NumRun r;
        num_run(&prog, name, &spec, &r);
        /* the interpreter agreeing is not enough: both must be the exact value */
        for (int64_t k = 0; k < r.count[1]; k++)
            ck_assert_msg(r.got[1][k] == want[t], "%s: element %lld is %g, want %g (rounded twice?)", name, (long long)k, r.got[1][k],
                          want[t]);
        num_run_free(&r);
    }
}
END_TEST

Suite *num_suite_fma(void)
{
    Suite *s = suite_create("fma");
    for (unsigned p = 0; p < 2; p++) {
        unsigned paths = num_variant(p, NUM_AOT);
        if (!paths) continue;
        TCase *tc = num_tcase_paths("fma", build, teardown, paths);
        tcase_add_test(tc, fma_all_forms);
        tcase_add_test(tc, fma_rounds_once);
        suite_add_tcase(s, tc);
    }
    return s;
}
