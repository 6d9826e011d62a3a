/* link_shared.h — `CC -shared -o SO OBJ -lm`, for tests that load AOT objects
 * with dlopen (tests/numeric, tests/gen). The compiler's output goes to a log
 * file, quoted in the error message when the link fails. */
#ifndef TK_TESTS_COMMON_LINK_SHARED_H
#define TK_TESTS_COMMON_LINK_SHARED_H

#include <stddef.h>

/* 0, or -1 with a one-line message in err. */
int tk_test_link_shared(const char *cc, const char *obj, const char *so, const char *log, char *err, size_t errlen);

#endif
