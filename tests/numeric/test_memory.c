/* test_memory.c — load and store (§6.1, §4.4) on every element type: gl ↔ rt
 * (row and col layouts, several tile shapes), gl ↔ rv, gl ↔ st/sv, shared
 * sub-tiles and sub-vectors, tensors of rank 1 to 4, and masked edges:
 * grids that overhang every side of the tensor so that tile coordinates are
 * negative or past the end, shifted loads and stores, huge i64 coordinates.
 *
 * Tolerance: EXACT everywhere. Loads and stores move bit patterns and masked
 * elements are 0 or untouched, so the JIT must equal the interpreter bit for
 * bit (NaN cannot occur: inputs are finite random values). Every tensor is
 * compared, outputs starting with random contents, so a store that writes an
 * element it must skip, or a load that does not zero-fill, is seen. */
#include "numeric.h"

static const char *const TYPES[] = { "f32", "bf16", "f16" };

static NumProg prog;

static void build(void)
{
    NumStr s = { 0 };
    for (unsigned t = 0; t < 3; t++) {
        const char *T = TYPES[t];
        /* gl → rt → gl, the grid overhanging by one tile on every side; the
         * load is shifted by (di, dj) tiles, so its coordinates run from
         * -1 + di to past the end. */
        ns_printf(&s,
                  "kernel copy_row_%s(gl<%s, M, N> X, gl<%s, M, N> Y, i32 di, i32 dj)\n"
                  "    grid(cdiv(N, 32) + 2, cdiv(M, 16) + 2) {\n"
                  "    rt<%s, 16, 32> t = load(X, block.y - 1 + di, block.x - 1 + dj);\n"
                  "    store(Y, t, block.y - 1, block.x - 1);\n"
                  "}\n",
                  T, T, T, T);
        ns_printf(&s,
                  "kernel copy_col_%s(gl<%s, M, N> X, gl<%s, M, N> Y, i32 di, i32 dj)\n"
                  "    grid(cdiv(N, 16) + 2, cdiv(M, 48) + 2) {\n"
                  "    rt<%s, 48, 16, col> t = load(X, block.y - 1 + di, block.x - 1 + dj);\n"
                  "    store(Y, t, block.y - 1, block.x - 1);\n"
                  "}\n",
                  T, T, T, T);
        /* the store is the shifted one */
        ns_printf(&s,
                  "kernel store_shift_%s(gl<%s, M, N> X, gl<%s, M, N> Y, i32 di, i32 dj)\n"
                  "    grid(cdiv(N, 16) + 2, cdiv(M, 16) + 2) {\n"
                  "    rt<%s, 16, 16, col> t = load(X, block.y - 1, block.x - 1);\n"
                  "    store(Y, t, block.y - 1 + di, block.x - 1 + dj);\n"
                  "}\n",
                  T, T, T, T);
        /* rank 1: rv */
        ns_printf(&s,
                  "kernel vec1_%s(gl<%s, N> X, gl<%s, N> Y, i32 d) grid(cdiv(N, 16) + 2) {\n"
                  "    rv<%s, 16> v = load(X, block.x - 1 + d);\n"
                  "    store(Y, v, block.x - 1);\n"
                  "}\n",
                  T, T, T, T);
        /* rank 2: rv along the last dim, the row an element index */
        ns_printf(&s,
                  "kernel vec2_%s(gl<%s, M, N> X, gl<%s, M, N> Y, i32 d) grid(cdiv(N, 32) + 1, M + 2) {\n"
                  "    rv<%s, 32> v = load(X, block.y - 1 + d, block.x);\n"
                  "    store(Y, v, block.y - 1, block.x);\n"
                  "}\n",
                  T, T, T, T);
        /* rank 3: the leading coordinate an element index (shifted by db) */
        ns_printf(&s,
                  "kernel rank3_%s(gl<%s, B, M, N> X, gl<%s, B, M, N> Y, i32 db)\n"
                  "    grid(cdiv(N, 16) + 1, cdiv(M, 32) + 1, B + 2) {\n"
                  "    rt<%s, 32, 16> t = load(X, block.z - 1 + db, block.y, block.x);\n"
                  "    store(Y, t, block.z - 1, block.y, block.x);\n"
                  "}\n",
                  T, T, T, T);
        /* rank 4: rt and rv, two leading element indices from block.z */
        ns_printf(&s,
                  "kernel rank4_%s(gl<%s, A, B, M, N> X, gl<%s, A, B, M, N> Y, gl<%s, A, B, M, N> Z, i32 da)\n"
                  "    grid(cdiv(N, 16), cdiv(M, 16), (A + 2) * (B + 2)) {\n"
                  "    let a = block.z / (B + 2) - 1;\n"
                  "    let b = block.z %% (B + 2) - 1;\n"
                  "    rt<%s, 16, 16, col> t = load(X, a + da, b, block.y, block.x);\n"
                  "    store(Y, t, a, b, block.y, block.x);\n"
                  "    for (r in 0 .. 16) {\n"
                  "        rv<%s, 16> v = load(X, a, b + da, 16 * block.y + r, block.x);\n"
                  "        store(Z, v, a, b, 16 * block.y + r, block.x);\n"
                  "    }\n"
                  "}\n",
                  T, T, T, T, T, T);
        /* shared tiles: collective load, sub-tiles of both layouts, whole-tile
         * load/store, per-warp stores into st, collective store of an st */
        ns_printf(&s,
                  "kernel shared_%s(gl<%s, M, N> X, gl<%s, M, N> Y, gl<%s, M, N> Z)\n"
                  "    grid(cdiv(N, 64), cdiv(M, 32)) warps(2) {\n"
                  "    st<%s, 32, 64> S = load(X, block.y, block.x);\n"
                  "    st<%s, 32, 64> U;\n"
                  "    sync();\n"
                  "    rt<%s, 16, 32, col> a = load(S, warp.id, 1);\n"
                  "    rt<%s, 16, 32> b = load(S, 1 - warp.id, 0);\n"
                  "    store(U, a, warp.id, 0);\n"
                  "    store(U, b, 1 - warp.id, 1);\n"
                  "    sync();\n"
                  "    store(Y, U, block.y, block.x);\n"
                  "    rt<%s, 32, 64, col> w = load(S);\n"
                  "    store(Z, w, block.y, block.x);\n"
                  "}\n",
                  T, T, T, T, T, T, T, T, T);
        /* shared vectors */
        ns_printf(&s,
                  "kernel sharedv_%s(gl<%s, N> X, gl<%s, N> Y, gl<%s, N> Z) grid(cdiv(N, 64)) warps(4) {\n"
                  "    sv<%s, 64> S = load(X, block.x);\n"
                  "    sv<%s, 64> U;\n"
                  "    sync();\n"
                  "    rv<%s, 16> p = load(S, 3 - warp.id);\n"
                  "    store(U, p, warp.id);\n"
                  "    sync();\n"
                  "    store(Y, U, block.x);\n"
                  "    rv<%s, 64> all = load(S);\n"
                  "    store(Z, all, block.x);\n"
                  "}\n",
                  T, T, T, T, T, T, T, T);
        /* a collective store of an st at shifted, possibly negative coordinates */
        ns_printf(&s,
                  "kernel shared_store_shift_%s(gl<%s, M, N> X, gl<%s, M, N> Y, i32 di, i32 dj)\n"
                  "    grid(cdiv(N, 32) + 2, cdiv(M, 16) + 2) warps(2) {\n"
                  "    st<%s, 16, 32> S = load(X, block.y - 1, block.x - 1);\n"
                  "    sync();\n"
                  "    store(Y, S, block.y - 1 + di, block.x - 1 + dj);\n"
                  "}\n",
                  T, T, T, T);
    }
    /* i64 coordinates, far outside the tensor (the index arithmetic must not wrap back inside) */
    ns_printf(&s,
              "kernel coord_i64(gl<f32, M, N> X, gl<f32, M, N> Y, i64 off) grid(cdiv(N, 16), cdiv(M, 16)) {\n"
              "    rt<f32, 16, 16> t = load(X, convert<i64>(block.y) + off, block.x);\n"
              "    store(Y, t, block.y, block.x);\n"
              "}\n"
              "kernel coord_i64_col(gl<f32, M, N> X, gl<f32, M, N> Y, i64 off) grid(cdiv(N, 16), cdiv(M, 16)) {\n"
              "    rt<f32, 16, 16> t = load(X, block.y, convert<i64>(block.x) + off);\n"
              "    store(Y, t, block.y, block.x);\n"
              "}\n"
              "kernel coord_i64_store(gl<f32, M, N> X, gl<f32, M, N> Y, i64 off) grid(cdiv(N, 16), cdiv(M, 16)) {\n"
              "    rt<f32, 16, 16> t = load(X, block.y, block.x);\n"
              "    store(Y, t, convert<i64>(block.y) + off, block.x);\n"
              "}\n"
              "kernel coord_i64_lead(gl<f32, B, M, N> X, gl<f32, B, M, N> Y, i64 off) grid(cdiv(N, 16), cdiv(M, 16), B) {\n"
              "    rt<f32, 16, 16> t = load(X, convert<i64>(block.z) + off, block.y, block.x);\n"
              "    store(Y, t, block.z, block.y, block.x);\n"
              "}\n"
              "kernel coord_i64_vec(gl<f32, N> X, gl<f32, N> Y, i64 off) grid(cdiv(N, 16)) {\n"
              "    rv<f32, 16> v = load(X, convert<i64>(block.x) + off);\n"
              "    store(Y, v, block.x);\n"
              "}\n");
    num_build(&prog, "memory", s.s);
    ns_free(&s);
}

static void teardown(void) { num_free(&prog); }

static void run(const char *kernel, const char *sizes, const char *sets)
{
    NumSpec spec = { .sizes = sizes, .sets = sets, .tol = TOL_EXACT };
    NumRun r;
    num_run(&prog, kernel, &spec, &r);
    num_run_free(&r);
}

static const char *const SHIFTS[] = { "di=0,dj=0", "di=1,dj=0", "di=0,dj=-1", "di=-2,dj=3", "di=5,dj=-7" };

START_TEST(gl_rt_both_layouts)
{
    static const char *const sizes[] = { "M=1,N=1", "M=17,N=33", "M=63,N=65", "M=100,N=7", "M=16,N=32" };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned k = 0; k < 5; k++)
            for (unsigned d = 0; d < 5; d++) {
                char name[64];
                snprintf(name, sizeof name, "copy_row_%s", TYPES[t]);
                run(name, sizes[k], SHIFTS[d]);
                snprintf(name, sizeof name, "copy_col_%s", TYPES[t]);
                run(name, sizes[k], SHIFTS[(d + 2) % 5]);
                snprintf(name, sizeof name, "store_shift_%s", TYPES[t]);
                run(name, sizes[k], SHIFTS[(d + 4) % 5]);
            }
}
END_TEST

START_TEST(gl_rv_rank1_and_rank2)
{
    static const char *const sets[] = { "d=0", "d=1", "d=-1", "d=3", "d=-40" };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned d = 0; d < 5; d++) {
            char name[64];
            snprintf(name, sizeof name, "vec1_%s", TYPES[t]);
            run(name, "N=1", sets[d]);
            run(name, "N=47", sets[d]);
            run(name, "N=160", sets[d]);
            snprintf(name, sizeof name, "vec2_%s", TYPES[t]);
            run(name, "M=5,N=70", sets[d]);
            run(name, "M=1,N=1", sets[d]);
        }
}
END_TEST

START_TEST(gl_rank3_and_rank4)
{
    static const char *const sets3[] = { "db=0", "db=1", "db=-1", "db=9" };
    static const char *const sets4[] = { "da=0", "da=1", "da=-1", "da=4" };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned d = 0; d < 4; d++) {
            char name[64];
            snprintf(name, sizeof name, "rank3_%s", TYPES[t]);
            run(name, "B=3,M=40,N=20", sets3[d]);
            run(name, "B=1,M=1,N=17", sets3[d]);
            snprintf(name, sizeof name, "rank4_%s", TYPES[t]);
            run(name, "A=2,B=3,M=18,N=33", sets4[d]);
            run(name, "A=1,B=1,M=16,N=16", sets4[d]);
        }
}
END_TEST

START_TEST(shared_tiles_and_vectors)
{
    static const char *const sizes[] = { "M=32,N=64", "M=17,N=100", "M=65,N=1", "M=1,N=129" };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned k = 0; k < 4; k++) {
            char name[64];
            snprintf(name, sizeof name, "shared_%s", TYPES[t]);
            run(name, sizes[k], NULL);
            snprintf(name, sizeof name, "sharedv_%s", TYPES[t]);
            run(name, k == 0 ? "N=64" : k == 1 ? "N=100" : k == 2 ? "N=1" : "N=200", NULL);
            snprintf(name, sizeof name, "shared_store_shift_%s", TYPES[t]);
            run(name, sizes[k], SHIFTS[k + 1]);
        }
}
END_TEST

/* i64 tile coordinates far outside the tensor, where coordinate × tile size
 * still fits in i64: everything masked. */
static const char *const I64_KERNELS[] = { "coord_i64", "coord_i64_col", "coord_i64_store", "coord_i64_vec" };

START_TEST(i64_coordinates_far_outside)
{
    static const char *const offs[] = { "off=0", "off=3", "off=-1", "off=1099511627776", "off=-1099511627776" };
    for (unsigned k = 0; k < 4; k++)
        for (unsigned o = 0; o < sizeof offs / sizeof offs[0]; o++) run(I64_KERNELS[k], k == 3 ? "N=40" : "M=40,N=33", offs[o]);
    for (unsigned o = 0; o < sizeof offs / sizeof offs[0]; o++) run("coord_i64_lead", "B=3,M=20,N=20", offs[o]);
    run("coord_i64_lead", "B=3,M=20,N=20", "off=9223372036854775807");   /* leading index: compared, no multiply */
}
END_TEST

/* |coordinate| >= 2^59: coordinate × 16 overflows i64; §4.4 says such an
 * index is out of range (nothing read, nothing written). Regression test
 * (/tmp/codegen_bugs/i64_coord_overflow.tk): the JIT used to multiply with
 * wrapping, so 2^60 × 16 wrapped to row 0 and loads read / stores wrote data. */
START_TEST(i64_coordinate_overflow_is_out_of_range)
{
    static const char *const offs[] = { "off=1152921504606846976", "off=-1152921504606846976", "off=4611686018427387904",
                                        "off=9223372036854775807" };
    for (unsigned k = 0; k < 4; k++)
        for (unsigned o = 0; o < sizeof offs / sizeof offs[0]; o++) run(I64_KERNELS[k], k == 3 ? "N=40" : "M=40,N=33", offs[o]);
}
END_TEST

/* The group's AOT twin (numeric.h): NUM_AOT, NUM_AOT | NUM_JIT (bit-compared with the JIT too), 0 for none. */
static const unsigned AOT = NUM_AOT;

Suite *num_suite_memory(void)
{
    Suite *s = suite_create("memory");
    for (unsigned v = 0; v < 2; v++) {
        unsigned paths = num_variant(v, AOT);
        if (!paths) continue;
        TCase *tc = num_tcase_paths("load_store", build, teardown, paths);
        tcase_add_test(tc, gl_rt_both_layouts);
        tcase_add_test(tc, gl_rv_rank1_and_rank2);
        tcase_add_test(tc, gl_rank3_and_rank4);
        tcase_add_test(tc, shared_tiles_and_vectors);
        tcase_add_test(tc, i64_coordinates_far_outside);
        tcase_add_test(tc, i64_coordinate_overflow_is_out_of_range);
        suite_add_tcase(s, tc);
    }
    return s;
}
