/* test_kernels.h — .tk source of small kernels that several unit suites
 * compile. TK_TEST_MM_KERNEL: C[M, N] = A[M, K]·B[K, N] in f32, 16×16 tiles,
 * one block per tile of C (edges masked). */
#ifndef TK_TESTS_COMMON_TEST_KERNELS_H
#define TK_TESTS_COMMON_TEST_KERNELS_H

#define TK_TEST_MM_KERNEL                                                                                   \
    "kernel mm(gl<f32, M, K> A, gl<f32, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 16), cdiv(M, 16)) {\n"       \
    "    rt<f32, 16, 16> acc = zeros();\n"                                                                  \
    "    for (k in 0 .. cdiv(K, 16)) {\n"                                                                   \
    "        rt<f32, 16, 16> a = load(A, block.y, k);\n"                                                    \
    "        rt<f32, 16, 16, col> b = load(B, k, block.x);\n"                                               \
    "        mma_ab(acc, a, b);\n"                                                                          \
    "    }\n"                                                                                               \
    "    store(C, acc, block.y, block.x);\n"                                                                \
    "}\n"

#endif
