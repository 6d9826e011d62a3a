/* test_mma.c — the four matrix multiply-accumulate forms (§6.4) for bf16, f16
 * and f32 inputs, at several register-tile shapes (the CPU micro-kernels
 * block 8 rows × 32 columns with 16-lane vectors, so N = 16 is a remainder
 * only, N = 48 a full block plus a remainder, N = 64 two full blocks), over a
 * K loop with a ragged last step (masked loads give zeros), accumulating
 * onto C's previous contents (the accumulator starts as load(C)); operands
 * brought into the wanted layout by convert/transpose; the accumulator as an
 * operand too. For the host and for the other x86 targets this machine runs
 * (x86-64-avx512, x86-64-avx2, x86-64-avx512bf16, x86-64-amx: other
 * micro-kernels and register blocks).
 *
 * Each result is compared with the interpreter AND with a plain C double
 * loop written here. Tolerance, per element (i, j), with
 * mag = |c0| + Σ_k |a'[i,k]·b'[k,j]|:
 *   |got - ref| <= min(4·(√K + 2), K + 2) · 2^-24 · mag
 * K + 2 is the classic worst-case bound of recursive summation in f32 (unit
 * roundoff 2^-24) over the K products and the starting value, whatever order
 * the micro-kernel sums in; bf16/f16 products are exact in f32 and f32
 * products are rounded by the FMA together with the sum (vdpbf16ps rounds
 * once per pair of products), so it covers them. With random-signed inputs
 * the rounding errors add like a random walk: 4·(√K + 2) is a 4σ bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "numeric.h"

static const char *const TYPES[] = { "f32", "bf16", "f16" };
static const char *const FORMS[] = { "ab", "abt", "atb", "atbt" };

/* Register-tile shapes (BM, BN, BK) per kernel. */
static const int SHAPES[][3] = { { 16, 48, 32 }, { 32, 16, 48 }, { 64, 64, 16 }, { 48, 80, 64 } };
#define NSHAPES 4

/* The same kernels for the host (AVX512-BF16 here: vdpbf16ps for bf16, zmm
 * FMA for f32/f16) and for the other x86 targets this machine can run:
 * x86-64-avx512 (zmm FMA for everything, bf16 converted to f32) and
 * x86-64-avx2 (ymm FMA, 4×16 register blocks). A target the machine cannot
 * run is skipped. */
static const char *const TARGETS[] = { NULL, "x86-64-avx512", "x86-64-avx2", "x86-64-avx512bf16", "x86-64-amx" };
#define NTARGETS 5
static NumProg progs[NTARGETS];
static unsigned cur;
#define prog (progs[cur])

/* JIT time is ~0.2 s per mma kernel, so not every combination: every form on
 * every type at the first shape (the forms differ in how operands are packed
 * for the micro-kernel); the other shapes (which change the register
 * blocking) with mma_ab only — 64×64×16 for bf16 (dpbf16 micro-kernel) and
 * f32 (FMA micro-kernel); f16 runs through the f32 one after conversion.
 * On AMX (x86-64-amx, and the host where it has AMX) the bf16 products whose
 * K step is a multiple of 32 run on tiles: 16×48×32 (one 16-row block, a
 * whole panel and a 16-column one) and 48×80×64 (a 32-row block and a 16-row
 * one, two whole panels and a half, two k iterations); the others fall back
 * to vdpbf16ps. Both bf16 targets run where the CPU can, so neither kernel
 * loses its test on a machine whose host picks the other. */
static bool wanted(unsigned f, unsigned t, unsigned h)
{
    if (h == 0) return true;
    if (f != 0) return false;
    return h == 1 || t != 2;
}

static void build(void)
{
    NumStr s = { 0 };
    for (unsigned f = 0; f < 4; f++)
        for (unsigned t = 0; t < 3; t++)
            for (unsigned h = 0; h < NSHAPES; h++) {
                if (!wanted(f, t, h)) continue;
                const char *T = TYPES[t], *F = FORMS[f];
                int BM = SHAPES[h][0], BN = SHAPES[h][1], BK = SHAPES[h][2];
                bool at = f >= 2, bt = f == 1 || f == 3;
                char atype[64], btype[64], aload[64], bload[64];
                /* A is M×K for ab/abt, stored K×M (so that a is its transpose) for atb/atbt */
                if (at) {
                    snprintf(atype, sizeof atype, "gl<%s, K, M>", T);
                    snprintf(aload, sizeof aload, "rt<%s, %d, %d, col> a = load(A, k, block.y);", T, BK, BM);
                } else {
                    snprintf(atype, sizeof atype, "gl<%s, M, K>", T);
                    snprintf(aload, sizeof aload, "rt<%s, %d, %d> a = load(A, block.y, k);", T, BM, BK);
                }
                if (bt) {
                    snprintf(btype, sizeof btype, "gl<%s, N, K>", T);
                    snprintf(bload, sizeof bload, "rt<%s, %d, %d> b = load(B, block.x, k);", T, BN, BK);
                } else {
                    snprintf(btype, sizeof btype, "gl<%s, K, N>", T);
                    snprintf(bload, sizeof bload, "rt<%s, %d, %d, col> b = load(B, k, block.x);", T, BK, BN);
                }
                ns_printf(&s,
                          "kernel mma_%s_%s_%d(%s A, %s B, gl<f32, M, N> C) grid(cdiv(N, %d), cdiv(M, %d)) {\n"
                          "    rt<f32, %d, %d> acc = load(C, block.y, block.x);\n"
                          "    for (k in 0 .. cdiv(K, %d)) {\n"
                          "        %s\n"
                          "        %s\n"
                          "        mma_%s(acc, a, b);\n"
                          "    }\n"
                          "    store(C, acc, block.y, block.x);\n"
                          "}\n",
                          F, T, (int)h, atype, btype, BN, BM, BM, BN, BK, aload, bload, F);
            }
    /* operands brought into the layout an mma form wants by convert, and an
     * accumulator that is also an operand of the product (acc += acc·accᵀ).
     */
    ns_printf(&s,
              "kernel mma_converted(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
              "    rt<f32, 32, 32> acc = zeros();\n"
              "    for (k in 0 .. cdiv(K, 32)) {\n"
              "        rt<bf16, 32, 32, col> a = load(A, block.y, k);\n"
              "        rt<bf16, 32, 32> b = load(B, k, block.x);\n"
              "        mma_ab(acc, convert<rt<bf16, 32, 32, row>>(a), convert<rt<bf16, 32, 32, col>>(b));\n"
              "        mma_atbt(acc, convert<rt<bf16, 32, 32, col>>(transpose(a)), transpose(convert<rt<bf16, 32, 32, row>>(b)));\n"
              "    }\n"
              "    store(C, acc, block.y, block.x);\n"
              "}\n");
    ns_printf(&s,
              "kernel mma_self(gl<f32, M, N> X, gl<f32, M, N> C) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
              "    rt<f32, 32, 32> acc = load(X, block.y, block.x);\n"
              "    mma_abt(acc, acc, acc);\n"
              "    store(C, acc, block.y, block.x);\n"
              "}\n"
              "kernel mma_self64(gl<f32, M, N> X, gl<f32, M, N> C) grid(cdiv(N, 64), cdiv(M, 64)) {\n"
              "    rt<f32, 64, 64> acc = load(X, block.y, block.x);\n"
              "    mma_ab(acc, acc, convert<rt<f32, 64, 64, col>>(acc));\n"
              "    store(C, acc, block.y, block.x);\n"
              "}\n");
    static const char *const groups[] = { "mma", "mma_avx512", "mma_avx2", "mma_avx512bf16", "mma_amx" };
    num_build_target(&prog, groups[cur], s.s, TARGETS[cur]);
    ns_free(&s);
}

static void build_host(void) { cur = 0; build(); }
static void build_avx512(void) { cur = 1; build(); }
static void build_avx2(void) { cur = 2; build(); }
static void build_avx512bf16(void) { cur = 3; build(); }
static void build_amx(void) { cur = 4; build(); }
static void teardown(void) { num_free(&prog); }

/* C (M×N) += op(A)·op(B), in double, with the bound of the file comment. */
static void reference(unsigned form, const double *A, const double *B, const double *C0, int64_t M, int64_t N, int64_t K,
                      double *want, double *bound)
{
    bool at = form >= 2, bt = form == 1 || form == 3;
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = C0[i * N + j], mag = fabs(s);
            for (int64_t k = 0; k < K; k++) {
                double a = at ? A[k * M + i] : A[i * K + k];
                double b = bt ? B[j * K + k] : B[k * N + j];
                s += a * b;
                mag += fabs(a * b);
            }
            want[i * N + j] = s;
            bound[i * N + j] = fmin(4 * (sqrt((double)K) + 2), (double)(K + 2)) * 0x1p-24 * mag;
        }
}

static void expect_bound(const double *got, const double *want, const double *bound, int64_t n, const char *what)
{
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!(fabs(got[i] - want[i]) <= bound[i]) && !(got[i] == want[i]))
            ck_abort_msg("%s: element %lld: got %.9g, want %.9g (|diff| %.3g > bound %.3g)", what, (long long)i, got[i], want[i],
                         fabs(got[i] - want[i]), bound[i]);
        if (bound[i] > 0 && fabs(got[i] - want[i]) / bound[i] > worst) worst = fabs(got[i] - want[i]) / bound[i];
    }
    if (getenv("NUM_VERBOSE")) fprintf(stderr, "numeric: %s: worst |diff|/bound %.3g\n", what, worst);
    num_count(0, (uint64_t)n);
}

static void mma_case(unsigned f, unsigned t, unsigned h, int64_t M, int64_t N, int64_t K)
{
    char name[64], sizes[96];
    snprintf(name, sizeof name, "mma_%s_%s_%u", FORMS[f], TYPES[t], h);
    snprintf(sizes, sizeof sizes, "M=%lld,N=%lld,K=%lld", (long long)M, (long long)N, (long long)K);
    NumSpec spec = { .sizes = sizes, .seed = 1000 + 16 * f + 4 * t + h, .tol = { .skip = true } };
    NumRun r;
    num_run(&prog, name, &spec, &r);
    unsigned a = num_param(&r, "A"), b = num_param(&r, "B"), c = num_param(&r, "C");
    num_expect(r.got[a], r.init[a], r.count[a], r.elem[a], TOL_EXACT, "A (input, unchanged)");
    num_expect(r.got[b], r.init[b], r.count[b], r.elem[b], TOL_EXACT, "B (input, unchanged)");
    double *want = malloc(sizeof(double) * (size_t)(M * N > 0 ? M * N : 1));
    double *bound = malloc(sizeof(double) * (size_t)(M * N > 0 ? M * N : 1));
    ck_assert(want && bound);
    reference(f, r.init[a], r.init[b], r.init[c], M, N, K, want, bound);
    char what[600];
    snprintf(what, sizeof what, "%s: C vs plain C double loop", r.desc);
    expect_bound(r.got[c], want, bound, M * N, what);
    snprintf(what, sizeof what, "%s: C vs interpreter", r.desc);
    expect_bound(r.got[c], r.ref[c], bound, M * N, what);
    /* and the interpreter itself agrees with the plain loop (double vs double: 1e-12 relative) */
    for (int64_t i = 0; i < M * N; i++) bound[i] = 1e-12 * (1 + fabs(want[i]) + bound[i] / 0x1p-24);
    snprintf(what, sizeof what, "%s: interpreter vs plain C double loop", r.desc);
    expect_bound(r.ref[c], want, bound, M * N, what);
    free(want);
    free(bound);
    num_run_free(&r);
}

START_TEST(mma_forms_types_shapes)
{
    unsigned f = (unsigned)_i;
    if (prog.unavailable) return;   /* this machine cannot run the target */
    static const int64_t sizes[][3] = { { 16, 48, 32 }, { 40, 70, 100 }, { 1, 1, 1 }, { 65, 17, 33 }, { 100, 130, 16 } };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned h = 0; h < NSHAPES; h++) {
            if (!wanted(f, t, h)) continue;
            for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) mma_case(f, t, h, sizes[k][0], sizes[k][1], sizes[k][2]);
        }
}
END_TEST

START_TEST(mma_converted_operands)
{
    if (prog.unavailable) return;
    static const char *const sizes[] = { "M=32,N=32,K=32", "M=50,N=70,K=90" };
    for (unsigned k = 0; k < 2; k++) {
        NumRun r;
        /* two products per step, ≤ 2K = 180 terms of magnitude ≤ 1: the worst-case bound of
         * the file comment, (2K + 2)·2^-24·2K ≈ 182·2^-24·180 */
        NumSpec spec = { .sizes = sizes[k], .tol = { .atol = 182 * 0x1p-24 * 180 } };
        num_run(&prog, "mma_converted", &spec, &r);
        num_run_free(&r);
    }
}
END_TEST

/* The accumulator as the A operand too (acc += acc·accᵀ, acc += acc·B): every
 * operand is read before the update (§6.4). Regression test
 * (/tmp/codegen_bugs/mma_acc_is_operand.tk): mma_micro once passed the
 * accumulator's slot to the micro-kernel as the unpacked A while storing
 * finished register blocks of C into it — wrong as soon as N exceeds one
 * register block (64 wide on AVX-512, 32 wide on AVX2). */
START_TEST(mma_acc_is_operand)
{
    if (prog.unavailable) return;
    NumRun r;
    /* acc·accᵀ over K = 32 (64) terms of magnitude ≤ 1, plus acc: (K + 2)·2^-24·(K + 1) */
    NumSpec spec = { .sizes = "M=40,N=50", .tol = { .atol = 34 * 0x1p-24 * 33 } };
    num_run(&prog, "mma_self", &spec, &r);
    num_run_free(&r);
    NumSpec spec64 = { .sizes = "M=64,N=64", .tol = { .atol = 66 * 0x1p-24 * 65 } };
    num_run(&prog, "mma_self64", &spec64, &r);
    num_run_free(&r);
}
END_TEST

/* The host group's AOT twin (numeric.h): NUM_AOT, NUM_AOT | NUM_JIT (bit-compared with the JIT too), 0 for none.
 * The other targets run on the JIT only. */
static const unsigned AOT = NUM_AOT;

Suite *num_suite_mma(void)
{
    Suite *s = suite_create("mma");
    void (*setups[NTARGETS])(void) = { build_host, build_avx512, build_avx2, build_avx512bf16, build_amx };
    static const char *const names[] = { "mma_host", "mma_x86-64-avx512", "mma_x86-64-avx2", "mma_x86-64-avx512bf16",
                                         "mma_x86-64-amx" };
    for (unsigned t = 0; t < NTARGETS; t++)
        for (unsigned v = 0; v < (t == 0 ? 2u : 1u); v++) {
            unsigned paths = num_variant(v, AOT);
            if (!paths) continue;
            TCase *tc = num_tcase_paths(names[t], setups[t], teardown, paths);
            tcase_add_loop_test(tc, mma_forms_types_shapes, 0, 4);
            tcase_add_test(tc, mma_converted_operands);
            tcase_add_test(tc, mma_acc_is_operand);
            suite_add_tcase(s, tc);
        }
    return s;
}
