/* interp_harness.c — the shared harness of the interpreter tests
 * (interp_harness.h says what each part is for). */
#include "interp_harness.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lowering bug (reported): an element read `t[i, j]` is emitted as ELEM
 * *before* the instructions computing its indices (ast_to_tir.c, TK_N_INDEX
 * adds the index operands after appending the ELEM), so the TIR fails
 * tir_verify ("operand used before its definition"). Until that is fixed,
 * move each such ELEM just after its last operand, which is where the fixed
 * lowering will put it; with a correct lowering this does nothing. */
static bool moves_after_operands(TirInstr *i)
{
    TirInstr *after = NULL;
    for (TirInstr *x = i->next; x; x = x->next)
        for (unsigned k = 0; k < i->nargs; k++)
            if (i->args[k] == x) after = x;
    if (!after) return false;
    TirRegion *r = i->parent;
    /* unlink */
    if (i->prev) i->prev->next = i->next;
    else r->first = i->next;
    i->next->prev = i->prev;   /* i->next exists: `after` follows i */
    /* insert after `after` */
    i->prev = after;
    i->next = after->next;
    if (after->next) after->next->prev = i;
    else r->last = i;
    after->next = i;
    return true;
}

static void fix_region(TirRegion *r)
{
    for (TirInstr *i = r->first; i;) {
        TirInstr *next = i->next;
        if (i->op == TIR_ELEM && moves_after_operands(i)) {
            i = r->first;   /* restart: cheap for test programs */
            continue;
        }
        if (i->op == TIR_FOR || i->op == TIR_IF) {
            fix_region(&i->body[0]);
            fix_region(&i->body[1]);
        }
        i = next;
    }
}

static void work_around_elem_order(TirModule *m)
{
    for (TirFunc *f = m->funcs; f; f = f->next) fix_region(&f->body);
}

void ith_prog_load_raw(Prog *p, const char *src, bool fix)
{
    memset(p, 0, sizeof *p);
    ck_assert_int_eq(tk_front_load_memory(&p->fe, "test.tk", src, strlen(src)), 0);
    unsigned errors = tk_front_parse(&p->fe);
    if (errors == 0) errors = tk_front_check(&p->fe);
    if (errors) {
        tk_diags_print_text(&p->fe.diags, stderr);
        ck_abort_msg("the front end rejected the test program:\n%s", src);
    }
    if (tir_from_ast(&p->m, &p->fe.arena, &p->fe.src, &p->fe.diags, p->fe.items) != 0) {
        tk_diags_print_text(&p->fe.diags, stderr);
        ck_abort_msg("lowering failed:\n%s", src);
    }
    if (!fix) return;
    work_around_elem_order(&p->m);
    ck_assert_uint_eq(tir_verify(&p->m, stderr), 0);
}

void ith_prog_load(Prog *p, const char *src) { ith_prog_load_raw(p, src, true); }

void ith_prog_free(Prog *p) { tk_front_free(&p->fe); }

const TirFunc *ith_kernel(const Prog *p, const char *name)
{
    for (const TirFunc *f = p->m.funcs; f; f = f->next)
        if (strcmp(f->name, name) == 0) return f;
    ck_abort_msg("no kernel %s", name);
    return NULL;
}


/* Binds and runs; returns the interpreter's status, message in err. */
int ith_launch_err(const TirFunc *f, Arg *args, unsigned nargs, char *err, size_t errlen)
{
    TkArg targs[16];
    double *tensors[16];
    double scalars[16];
    int64_t sizes[TK_MAX_SIZES];
    static double dummy;
    ck_assert_uint_le(nargs, 16);
    for (unsigned p = 0; p < nargs; p++) {
        memset(&targs[p], 0, sizeof targs[p]);
        tensors[p] = NULL;
        scalars[p] = args[p].scalar;
        if (args[p].rank) {
            targs[p].data = args[p].data ? (void *)args[p].data : (void *)&dummy;
            memcpy(targs[p].shape, args[p].shape, sizeof targs[p].shape);
            targs[p].rank = args[p].rank;
            tensors[p] = args[p].data;
        } else {
            targs[p].data = &scalars[p];
        }
    }
    if (tir_bind_sizes(f, targs, nargs, sizes, err, errlen) != 0) return -2;
    return tir_interp_run(f, tensors, scalars, sizes, err, errlen);
}

void ith_launch(const TirFunc *f, Arg *args, unsigned nargs)
{
    char err[512];
    int rc = ith_launch_err(f, args, nargs, err, sizeof err);
    ck_assert_msg(rc == 0, "kernel %s failed (%d): %s", f->name, rc, err);
}

/* Seeded xorshift64*: every test sees the same inputs on every run. */
static uint64_t rng_state;
void ith_seed(uint64_t s) { rng_state = s * 0x9E3779B97F4A7C15ull + 1; }
double ith_uniform(double lo, double hi)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    uint64_t r = rng_state * 0x2545F4914F6CDD1Dull;
    return lo + (hi - lo) * ((double)(r >> 11) / 9007199254740992.0);
}

double *ith_alloc_fill(size_t n, double v)
{
    double *p = malloc((n ? n : 1) * sizeof *p);
    ck_assert_ptr_nonnull(p);
    for (size_t i = 0; i < n; i++) p[i] = v;
    return p;
}

/* bf16 rounding, written independently of the interpreter: the value is taken
 * to f32 (as kernels compute), then the nearer of the two bf16 neighbours that
 * bracket it wins, ties going to the even one. */
double ith_ref_bf16(double x)
{
    float f = (float)x;
    if (isnan(f) || isinf(f)) return f;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint32_t lo = u & 0xFFFF0000u, hi = lo + 0x10000u;   /* toward zero, and away */
    float flo, fhi;
    memcpy(&flo, &lo, sizeof flo);
    memcpy(&fhi, &hi, sizeof fhi);
    double dlo = fabs((double)f - flo), dhi = fabs((double)fhi - f);
    if ((hi & 0x7F800000u) == 0x7F800000u) {
        /* the upper neighbour is ±inf: round up past the last finite value + half an ulp */
        double maxf = 3.3895313892515355e38, halfulp = 0x1p120;
        return fabs((double)f) >= maxf + halfulp ? (f < 0 ? -INFINITY : INFINITY) : flo;
    }
    if (dlo < dhi) return flo;
    if (dhi < dlo) return fhi;
    return (lo & 0x10000u) ? fhi : flo;
}

/* binary16 rounding, independently: to f32 first, then to the nearest multiple
 * of the f16 ulp at that magnitude (2^(e-11), at least 2^-24), ties to even
 * through rint() in the default rounding mode. */
double ith_ref_f16(double x)
{
    double v = (float)x;
    if (isnan(v) || isinf(v)) return v;
    double a = fabs(v);
    if (a >= 65520.0) return copysign(INFINITY, v);
    int e;
    frexp(a, &e);   /* a = m·2^e, m in [0.5, 1) */
    double ulp = ldexp(1.0, e - 11 < -24 ? -24 : e - 11);
    return copysign(rint(a / ulp) * ulp, v);
}

/* The value of f16 bit pattern h. */
double ith_f16_value(uint16_t h)
{
    double sign = h & 0x8000 ? -1 : 1;
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    if (e == 31) return m ? NAN : sign * INFINITY;
    return e ? sign * ldexp(m + 1024, e - 25) : sign * ldexp(m, -24);
}

bool ith_close_enough(double got, double want, double rtol, double atol)
{
    if (isnan(got) || isnan(want)) return isnan(got) && isnan(want);
    if (isinf(got) || isinf(want)) return got == want;
    return fabs(got - want) <= atol + rtol * fabs(want);
}

void ith_expect_close_at(const double *got, const double *want, size_t n, double rtol, double atol, const char *what,
                            int line)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(ith_close_enough(got[i], want[i], rtol, atol), "line %d: %s[%zu] = %.17g, want %.17g", line, what, i,
                      got[i], want[i]);
}
#define expect_close(got, want, n, rtol, atol, what) ith_expect_close_at((got), (want), (n), (rtol), (atol), (what), __LINE__)

/* The text of examples/NAME (found from this file's path). */
char *ith_read_example(const char *name)
{
    char path[1024];
    const char *me = __FILE__;
    const char *cut = strstr(me, "tests/unit/interp_harness.c");
    ck_assert_msg(cut != NULL, "cannot locate the source tree from %s", me);
    snprintf(path, sizeof path, "%.*sexamples/%s", (int)(cut - me), me, name);
    FILE *fp = fopen(path, "rb");
    ck_assert_msg(fp != NULL, "cannot open %s", path);
    char *buf = malloc(1 << 16);
    ck_assert_ptr_nonnull(buf);
    size_t n = fread(buf, 1, (1 << 16) - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return buf;
}
