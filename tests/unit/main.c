/* main.c — runs every suite listed in suites.h; exit status = failures > 0. */
#include <check.h>
#include <stdlib.h>

#define TK_SUITE(name) Suite *tk_suite_##name(void);
#include "suites.h"
#undef TK_SUITE

int main(void)
{
    SRunner *runner = srunner_create(NULL);
#define TK_SUITE(name) srunner_add_suite(runner, tk_suite_##name());
#include "suites.h"
#undef TK_SUITE
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
