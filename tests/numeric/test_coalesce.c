/* test_coalesce.c — tile variables that share storage (lower/cpu/emit_coalesce.c)
 * and declarations that skip their zero fill (emit_llvm.c set_before_read).
 *
 * `v = w;` copies nothing when w dies there and v is idle while w lives; a
 * declaration is not zeroed when its first mention is an assignment. Each
 * kernel below is a case where doing so would be WRONG, next to the case it
 * is made for; every result is compared with the interpreter within 2 ulps
 * (x·2 + 1 may be one fused multiply-add; a wrong copy is off by far more).
 *  - helper_chain: a helper returning a tile (the case it is for);
 *  - v_read_while_w_lives: v is read between w's declaration and `v = w`;
 *  - conditional_copy: `v = w` under an if; when it does not run v keeps its value;
 *  - w_used_after: w is read after `v = w`;
 *  - loop_carried: `w = f(v); v = w;` in a loop;
 *  - set_in_if: a declaration whose first assignment is under an if stays zero otherwise;
 *  - self_referencing_set: `t = t + x` as the first mention reads the zeroed t. */
#include "numeric.h"

static NumProg prog;

static const char *const SRC =
    "fn twice(rt<f32, 32, 32> x) -> rt<f32, 32, 32> {\n"
    "    rt<f32, 32, 32> s = x * 2.0;\n"
    "    s = s + 1.0;\n"
    "    return s;\n"
    "}\n"
    "kernel helper_chain(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> x = load(X, block.y, block.x);\n"
    "    let t = twice(x);\n"
    "    store(Y, twice(t), block.y, block.x);\n"
    "}\n"
    "kernel v_read_while_w_lives(gl<f32, M, N> X, gl<f32, M, N> Y, gl<f32, M, N> Z) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> v = load(X, block.y, block.x);\n"
    "    rt<f32, 32, 32> w = load(Y, block.y, block.x);\n"
    "    w = w + v;\n"
    "    store(Z, v, block.y, block.x);\n"
    "    v = w;\n"
    "    store(Y, v * 3.0, block.y, block.x);\n"
    "}\n"
    "kernel conditional_copy(gl<f32, M, N> X, gl<f32, M, N> Y, bool flag) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> v = load(X, block.y, block.x);\n"
    "    rt<f32, 32, 32> w = load<rt<f32, 32, 32>>(Y, block.y, block.x) * 2.0;\n"
    "    if (flag) {\n"
    "        v = w;\n"
    "    }\n"
    "    store(X, v, block.y, block.x);\n"
    "}\n"
    "kernel w_used_after(gl<f32, M, N> X, gl<f32, M, N> Y, gl<f32, M, N> Z) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> v = load(X, block.y, block.x);\n"
    "    store(Z, v, block.y, block.x);\n"
    "    rt<f32, 32, 32> w = load<rt<f32, 32, 32>>(Y, block.y, block.x) - 1.0;\n"
    "    v = w;\n"
    "    w = w * 3.0;\n"
    "    store(X, v, block.y, block.x);\n"
    "    store(Y, w, block.y, block.x);\n"
    "}\n"
    "kernel loop_carried(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> v = load(X, block.y, block.x);\n"
    "    for (i in 0 .. 3) {\n"
    "        rt<f32, 32, 32> w = v * 0.5 + 1.0;\n"
    "        v = w;\n"
    "    }\n"
    "    store(Y, v, block.y, block.x);\n"
    "}\n"
    "kernel set_in_if(gl<f32, M, N> X, gl<f32, M, N> Y, bool flag) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> t;\n"
    "    if (flag) {\n"
    "        t = load(X, block.y, block.x);\n"
    "    }\n"
    "    store(Y, t, block.y, block.x);\n"
    "}\n"
    "kernel self_referencing_set(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> t;\n"
    "    t = t + load<rt<f32, 32, 32>>(X, block.y, block.x);\n"
    "    store(Y, t, block.y, block.x);\n"
    "}\n";

static void build(void) { num_build(&prog, "coalesce", SRC); }
static void teardown(void) { num_free(&prog); }

static void run(const char *kernel, const char *sizes, const char *sets)
{
    NumRun r;
    NumSpec spec = { .sizes = sizes, .sets = sets, .tol = { .ulps = 2 } };
    num_run(&prog, kernel, &spec, &r);
    num_run_free(&r);
}

START_TEST(coalesce_where_it_may_and_may_not)
{
    NUM_NEED(&prog);
    static const char *const shapes[] = { "M=64,N=64", "M=37,N=70" };
    for (unsigned k = 0; k < 2; k++) {
        run("helper_chain", shapes[k], NULL);
        run("v_read_while_w_lives", shapes[k], NULL);
        run("conditional_copy", shapes[k], "flag=false");
        run("conditional_copy", shapes[k], "flag=true");
        run("w_used_after", shapes[k], NULL);
        run("loop_carried", shapes[k], NULL);
        run("set_in_if", shapes[k], "flag=false");
        run("set_in_if", shapes[k], "flag=true");
        run("self_referencing_set", shapes[k], NULL);
    }
}
END_TEST

Suite *num_suite_coalesce(void)
{
    Suite *s = suite_create("coalesce");
    TCase *tc = num_tcase_paths("coalesce", build, teardown, NUM_JIT);
    tcase_add_test(tc, coalesce_where_it_may_and_may_not);
    suite_add_tcase(s, tc);
    return s;
}
