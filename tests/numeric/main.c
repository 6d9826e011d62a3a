/* main.c — the numeric test suite of the CPU code generator (see numeric.h).
 * Check prints only failures and one summary line; then one line counts the
 * JIT launches and tensor elements that were compared. */
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
    srunner_add_suite(sr, num_suite_mma());
    srunner_add_suite(sr, num_suite_reduce());
    srunner_add_suite(sr, num_suite_layout());
    srunner_add_suite(sr, num_suite_scalar());
    srunner_add_suite(sr, num_suite_warps());
    srunner_add_suite(sr, num_suite_examples());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (fd >= 0) {
        unsigned long long launches = 0, elements = 0, a, b;
        FILE *fp = fopen(stats, "r");
        if (fp) {
            while (fscanf(fp, "%llu %llu", &a, &b) == 2) {
                launches += a;
                elements += b;
            }
            fclose(fp);
        }
        remove(stats);
        printf("numeric: %llu JIT launches checked, %llu tensor elements compared\n", launches, elements);
    }
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
