#include "numeric.h"
Suite *num_suite_scalar(void) { return suite_create("s"); }
Suite *num_suite_warps(void) { return suite_create("w"); }
Suite *num_suite_examples(void) { return suite_create("x"); }
