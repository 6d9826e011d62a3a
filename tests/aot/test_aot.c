/* test_aot.c — the examples compiled ahead of time by `tkc -c` and called
 * through their generated headers, against plain double-precision loops.
 * Sizes are deliberately not multiples of the tiles. Prints
 * "aot_examples: N passed, M failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "gemm.h"
#include "softmax.h"

static int passed, failed;

static void expect(int ok, const char *what)
{
    if (ok) passed++;
    else {
        failed++;
        printf("FAIL %s\n", what);
    }
}

static unsigned long long rng = 0x2545F4914F6CDD1Dull;

static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static tk_bf16 to_bf16(float f)
{
    unsigned u;
    memcpy(&u, &f, 4);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (tk_bf16)(u >> 16);
}

static double from_bf16(tk_bf16 h)
{
    unsigned u = (unsigned)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* C = A·B with f32 accumulation: error bound 2^-22 · K · Σ|a·b| is loose
 * enough for any summation order and tight enough to catch a wrong element. */
static void check_gemm(int M, int N, int K)
{
    tk_bf16 *A = malloc(sizeof *A * (size_t)M * K), *B = malloc(sizeof *B * (size_t)K * N);
    float *C = malloc(sizeof *C * (size_t)M * N);
    for (long i = 0; i < (long)M * K; i++) A[i] = to_bf16((float)uniform());
    for (long i = 0; i < (long)K * N; i++) B[i] = to_bf16((float)uniform());
    for (long i = 0; i < (long)M * N; i++) C[i] = 12345.0f;   /* every element must be overwritten */
    int rc = gemm(A, B, C, M, K, N, 0);
    int ok = rc == 0;
    for (int i = 0; i < M && ok; i++)
        for (int j = 0; j < N && ok; j++) {
            double ref = 0, mag = 0;
            for (int k = 0; k < K; k++) {
                double p = from_bf16(A[(long)i * K + k]) * from_bf16(B[(long)k * N + j]);
                ref += p;
                mag += fabs(p);
            }
            if (fabs(C[(long)i * N + j] - ref) > 2.4e-7 * (K + 1) * (mag + 1e-30)) ok = 0;
        }
    char what[64];
    snprintf(what, sizeof what, "gemm M=%d N=%d K=%d", M, N, K);
    expect(ok, what);
    free(A);
    free(B);
    free(C);
}

static void check_softmax(int M, int N)
{
    float *X = malloc(sizeof *X * (size_t)M * N), *Y = malloc(sizeof *Y * (size_t)M * N);
    for (long i = 0; i < (long)M * N; i++) X[i] = (float)(4 * uniform());
    int ok = softmax(X, Y, M, N, 0) == 0;
    for (int i = 0; i < M && ok; i++) {
        double mx = -INFINITY, sum = 0;
        for (int j = 0; j < N; j++) mx = fmax(mx, X[(long)i * N + j]);
        for (int j = 0; j < N; j++) sum += exp(X[(long)i * N + j] - mx);
        for (int j = 0; j < N && ok; j++) {
            double ref = exp(X[(long)i * N + j] - mx) / sum;
            if (fabs(Y[(long)i * N + j] - ref) > 1e-6 * (1 + ref * N)) ok = 0;   /* f32 exp and sums */
        }
    }
    char what[64];
    snprintf(what, sizeof what, "softmax M=%d N=%d", M, N);
    expect(ok, what);
    free(X);
    free(Y);
}

/* O = softmax(Q·Kᵀ·scale [causal]) · V per (batch, head); D = 64. The kernel
 * rounds P to bf16 before P·V and O to bf16: 2^-7 of max|V| covers both. */
static void check_attention(int B, int H, int S, int causal)
{
    const int D = 64;
    size_t n = (size_t)B * H * S * D;
    tk_bf16 *Q = malloc(n * 2), *K = malloc(n * 2), *V = malloc(n * 2), *O = malloc(n * 2);
    for (size_t i = 0; i < n; i++) {
        Q[i] = to_bf16((float)uniform());
        K[i] = to_bf16((float)uniform());
        V[i] = to_bf16((float)uniform());
    }
    float scale = 0.125f;
    int ok = attention(Q, K, V, O, scale, (uint8_t)causal, B, H, S, 0) == 0;
    double *p = malloc(sizeof *p * (size_t)S);
    for (int b = 0; b < B && ok; b++)
        for (int h = 0; h < H && ok; h++)
            for (int i = 0; i < S && ok; i++) {
                size_t base = ((size_t)b * H + h) * S * D;
                double mx = -INFINITY, sum = 0;
                int last = causal ? i : S - 1;
                for (int j = 0; j <= last; j++) {
                    double s = 0;
                    for (int d = 0; d < D; d++) s += from_bf16(Q[base + (size_t)i * D + d]) * from_bf16(K[base + (size_t)j * D + d]);
                    p[j] = s * scale;
                    mx = fmax(mx, p[j]);
                }
                for (int j = 0; j <= last; j++) sum += (p[j] = exp(p[j] - mx));
                for (int d = 0; d < D && ok; d++) {
                    double ref = 0;
                    for (int j = 0; j <= last; j++) ref += p[j] / sum * from_bf16(V[base + (size_t)j * D + d]);
                    if (fabs(from_bf16(O[base + (size_t)i * D + d]) - ref) > 1.0 / 128) ok = 0;
                }
            }
    char what[80];
    snprintf(what, sizeof what, "attention B=%d H=%d S=%d causal=%d", B, H, S, causal);
    expect(ok, what);
    free(p);
    free(Q);
    free(K);
    free(V);
    free(O);
}

int main(void)
{
    const int sizes[] = { 1, 17, 63, 65, 127, 1000 };
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b += 2) check_gemm(sizes[a], sizes[(a + b + 1) % 6], sizes[(a + 2 * b + 2) % 6]);
    check_gemm(256, 256, 256);
    for (int a = 0; a < 6; a++) check_softmax(sizes[a], sizes[(a + 3) % 6]);
    const int seqs[] = { 1, 17, 65, 127 };
    for (int s = 0; s < 4; s++) {
        check_attention(1, 2, seqs[s], 0);
        check_attention(1, 2, seqs[s], 1);
    }
    printf("aot_examples: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
