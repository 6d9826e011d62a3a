/* suites.h — every Check suite of the unit-test binary, one line each.
 * Add a suite: write tests/unit/test_NAME.c defining `Suite *tk_suite_NAME(void)`,
 * then add TK_SUITE(NAME) below. */
TK_SUITE(shape)
TK_SUITE(types_api)
TK_SUITE(types_conversions)
TK_SUITE(types_shapes)
TK_SUITE(types_flow)
TK_SUITE(lexer)
TK_SUITE(interp_tiles)
TK_SUITE(interp_scalars)
TK_SUITE(interp_errors)
TK_SUITE(interp_kernels)
TK_SUITE(interp_bounds)
TK_SUITE(compiler)
TK_SUITE(jit)
TK_SUITE(layout)
TK_SUITE(launch)
TK_SUITE(arrays)
