/* main.c — the numeric test suite of the CPU code generator (see numeric.h).
 * Prints only failures (CK_VERBOSITY=normal|verbose for Check's own output),
 * then a summary: tests run and failed, JIT launches checked and tensor
 * elements compared. NUM_KNOWN_FAILURES=1 adds the cases that reproduce the
 * code-generation bugs reported in /tmp/codegen_bugs; NUM_VERBOSE=1 prints
 * JIT compile times and how much of each error bound was used. Every group
 * that runs on the host is checked on the JIT (TCase GROUP) and again on its
 * AOT object linked by the system C compiler and loaded by dlopen (TCase
 * GROUP_aot; see numeric.h); NUM_AOT=0 leaves those out. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "numeric.h"

int main(void)
{
    /* every compile goes through LLVM: the disk cache of compiled objects is not what is tested */
    setenv("TK_CACHE", "0", 1);
    char stats[] = "/tmp/tk_numeric_stats_XXXXXX";
    int fd = mkstemp(stats);
    if (fd >= 0) {
        close(fd);
        setenv("NUM_STATS_FILE", stats, 1);
    }
    SRunner *sr = srunner_create(num_suite_memory());
    srunner_add_suite(sr, num_suite_elementwise());
    srunner_add_suite(sr, num_suite_fma());
    srunner_add_suite(sr, num_suite_fused_loads());
    srunner_add_suite(sr, num_suite_masks());
    srunner_add_suite(sr, num_suite_mma());
    srunner_add_suite(sr, num_suite_reduce());
    srunner_add_suite(sr, num_suite_layout());
    srunner_add_suite(sr, num_suite_scalar());
    srunner_add_suite(sr, num_suite_warps());
    srunner_add_suite(sr, num_suite_outview());
    srunner_add_suite(sr, num_suite_rowview());
    srunner_add_suite(sr, num_suite_coalesce());
    srunner_add_suite(sr, num_suite_generic());
    srunner_add_suite(sr, num_suite_stdlib_generic());
    srunner_add_suite(sr, num_suite_examples());
    srunner_add_suite(sr, num_suite_arrays());
    srunner_add_suite(sr, num_suite_subtile());
    srunner_add_suite(sr, num_suite_stream());
    /* quiet unless something fails (CK_VERBOSITY=verbose shows every test) */
    bool quiet = !getenv("CK_VERBOSITY");
    srunner_run_all(sr, quiet ? CK_SILENT : CK_ENV);
    int failed = srunner_ntests_failed(sr), run = srunner_ntests_run(sr);
    if (quiet) {
        TestResult **tr = srunner_failures(sr);
        for (int i = 0; i < failed; i++) {
            printf("%s:%d:%s:%s: %s\n", tr_lfile(tr[i]), tr_lno(tr[i]), tr_rtype(tr[i]) == CK_ERROR ? "E" : "F", tr_tcname(tr[i]),
                   tr_msg(tr[i]));
        }
        free(tr);
    }
    printf("numeric: %d tests, %d failed%s\n", run, failed,
           num_known_failures() ? " (known failures included)" : " (known failures skipped; NUM_KNOWN_FAILURES=1 runs them)");
    srunner_free(sr);
    if (fd >= 0) {
        unsigned long long launches = 0, elements = 0, aot = 0, a, b, c;
        FILE *fp = fopen(stats, "r");
        if (fp) {
            while (fscanf(fp, "%llu %llu %llu", &a, &b, &c) == 3) {
                launches += a;
                elements += b;
                aot += c;
            }
            fclose(fp);
        }
        remove(stats);
        printf("numeric: %llu JIT launches and %llu AOT launches checked, %llu tensor elements compared\n", launches, aot, elements);
    }
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
