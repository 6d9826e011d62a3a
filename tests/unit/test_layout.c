/* test_layout.c — operand layout assignment (lower/passes/tir_layout.c) below the
 * public API: B of an mma is loaded in the micro-kernel's packing only when
 * legalise gave that mma a micro-kernel. The portable loop reads B as a plain
 * tile, so packing B for it would give wrong answers, not slow ones. */
#include <check.h>
#include <string.h>

#include "../common/test_kernels.h"
#include "front.h"
#include "lower.h"
#include "tir_passes.h"

typedef struct {
    TkFront fe;
    TirModule m;
} Prog;

static void load(Prog *p)
{
    static const char *src = TK_TEST_MM_KERNEL;
    memset(p, 0, sizeof *p);
    ck_assert_int_eq(tk_front_load_memory(&p->fe, "mm.tk", src, strlen(src)), 0);
    ck_assert_uint_eq(tk_front_parse(&p->fe), 0);
    ck_assert_uint_eq(tk_front_check(&p->fe), 0);
    ck_assert_int_eq(tir_from_ast(&p->m, &p->fe.arena, &p->fe.src, &p->fe.diags, p->fe.items), 0);
}

/* Any non-NULL row stands for a micro-kernel: layout only asks whether there is one. */
static const int some_kernel_row;

static int select_kernel(void *ctx, const TirInstr *mma, const void **row, const char **name, char *err, size_t errlen)
{
    (void)ctx, (void)mma, (void)err, (void)errlen;
    *row = &some_kernel_row;
    *name = "test.kernel";
    return 0;
}

static int select_portable(void *ctx, const TirInstr *mma, const void **row, const char **name, char *err, size_t errlen)
{
    (void)ctx, (void)mma, (void)err, (void)errlen;
    *row = NULL;
    *name = "portable";
    return 0;
}

static TirPack rows_packing(void *ctx, TkTypeKind elem)
{
    (void)ctx, (void)elem;
    return TIR_PACK_ROWS_KN;
}

/* The packing of the B operand of the one mma in the region (TIR_PACK_NONE if none). */
static int b_packing(const TirRegion *r, bool *found)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_MMA) {
            *found = true;
            const TirInstr *b = i->args[2];
            return b->op == TIR_GET ? b->args[0]->pack : b->pack;
        }
        for (int k = 0; k < 2; k++) {
            int p = b_packing(&i->body[k], found);
            if (*found) return p;
        }
    }
    return TIR_PACK_NONE;
}

static int packing_after_passes(TirMmaSelector select)
{
    Prog p;
    load(&p);
    TirPassOptions o = { .select_mma = select, .choose_pack = rows_packing };
    char err[256] = "";
    ck_assert_msg(tir_run_passes(&p.m, &o, err, sizeof err) == 0, "passes: %s", err);
    bool found = false;
    int pack = b_packing(&p.m.funcs->body, &found);
    ck_assert_msg(found, "the mm kernel has an mma");
    tk_front_free(&p.fe);
    return pack;
}

START_TEST(b_packed_for_a_micro_kernel)
{
    /* the control: with a micro-kernel the chooser's packing is applied, so the next test can fail */
    ck_assert_int_eq(packing_after_passes(select_kernel), TIR_PACK_ROWS_KN);
}
END_TEST

START_TEST(b_plain_for_the_portable_loop)
{
    ck_assert_int_eq(packing_after_passes(select_portable), TIR_PACK_NONE);
}
END_TEST

Suite *tk_suite_layout(void)
{
    Suite *s = suite_create("layout");
    TCase *tc = tcase_create("layout");
    tcase_add_test(tc, b_packed_for_a_micro_kernel);
    tcase_add_test(tc, b_plain_for_the_portable_loop);
    suite_add_tcase(s, tc);
    return s;
}
