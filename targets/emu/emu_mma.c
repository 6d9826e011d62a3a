/* emu_mma.c — see emu_mma.h.
 *
 * PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type", for
 * .bf16 A and B and .f32 C/D. With groupID = laneid >> 2 and
 * threadID_in_group = laneid % 4 (g and t below):
 *   A, 16×16, registers a0..a3 each holding two elements: element i (0..7,
 *     the low half of register i/2 first) is at
 *       row = g for i in {0, 1, 4, 5}, g + 8 for i in {2, 3, 6, 7}
 *       col = 2t + (i & 1), plus 8 for i ≥ 4
 *   B, 16×8, registers b0, b1: element i (0..3) is at
 *       row = 2t + (i & 1), plus 8 for i ≥ 2;   col = g
 *   C and D, 16×8, registers c0..c3: element i is at
 *       row = g for i < 2, g + 8 for i ≥ 2;      col = 2t + (i & 1)
 * The products of bf16 values are exact in f32; the sum is taken in double
 * and rounded once (the hardware's order of f32 additions is unspecified).
 * .f16 A and B use the same figure; an element is an IEEE binary16 value.
 *
 * PTX ISA, "Matrix Fragments for mma.m16n8k8", .tf32 A and B (one element
 * per 32-bit register), .f32 C/D:
 *   A, 16×8, a0..a3: row = g for a0 and a2, g + 8 for a1 and a3;
 *                    col = t for a0 and a1, t + 4 for a2 and a3
 *   B, 8×8,  b0, b1: row = t for b0, t + 4 for b1;  col = g
 *   C and D as for m16n8k16.
 * A tf32 operand is read as its f32 bit pattern with the low 13 mantissa
 * bits cleared (what the lowering passes is already rounded to tf32, so the
 * choice does not show). */
#include "emu_mma.h"

#include <math.h>
#include <string.h>

static float bf16_value(uint32_t reg, int half)
{
    uint32_t bits = (half ? reg >> 16 : reg & 0xffffu) << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* IEEE binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits */
static float f16_value(uint32_t reg, int half)
{
    uint32_t h = half ? reg >> 16 : reg & 0xffffu;
    int e = (int)(h >> 10) & 0x1f;
    uint32_t m = h & 0x3ffu;
    float mag = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 0x400u), e - 25);
    return h & 0x8000u ? -mag : mag;
}

/* C and D of both instructions: 16×8 f32, c0..c3 at row g (+8 for c2, c3),
 * column 2t + (i & 1). D = A·B + C with A [16][K] and B [K][8] row-major,
 * the sum taken in double and rounded once. */
static void accumulate(const float *A, const float *B, int K, const float c[32][4], float d[32][4])
{
    float C[16][8];
    for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < 4; i++) C[i < 2 ? lane / 4 : lane / 4 + 8][2 * (lane % 4) + (i & 1)] = c[lane][i];
    for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < 4; i++) {
            int row = i < 2 ? lane / 4 : lane / 4 + 8, col = 2 * (lane % 4) + (i & 1);
            double s = C[row][col];
            for (int k = 0; k < K; k++) s += (double)A[row * K + k] * (double)B[k * 8 + col];
            d[lane][i] = (float)s;
        }
}

/* element value of a 16-bit operand: bf16 or f16 */
typedef float (*HalfValue)(uint32_t reg, int half);

static void mma_m16n8k16(HalfValue value, const uint32_t a[32][4], const uint32_t b[32][2], const float c[32][4], float d[32][4])
{
    float A[16][16], B[16][8];
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane % 4;
        for (int i = 0; i < 8; i++) {
            int row = (i == 2 || i == 3 || i == 6 || i == 7) ? g + 8 : g;
            int col = 2 * t + (i & 1) + (i >= 4 ? 8 : 0);
            A[row][col] = value(a[lane][i / 2], i & 1);
        }
        for (int i = 0; i < 4; i++) {
            int row = 2 * t + (i & 1) + (i >= 2 ? 8 : 0);
            B[row][g] = value(b[lane][i / 2], i & 1);
        }
    }
    accumulate(&A[0][0], &B[0][0], 16, c, d);
}

void tk_emu_mma_m16n8k16_bf16(const uint32_t a[32][4], const uint32_t b[32][2], const float c[32][4], float d[32][4])
{
    mma_m16n8k16(bf16_value, a, b, c, d);
}

void tk_emu_mma_m16n8k16_f16(const uint32_t a[32][4], const uint32_t b[32][2], const float c[32][4], float d[32][4])
{
    mma_m16n8k16(f16_value, a, b, c, d);
}

static float tf32_value(uint32_t reg)
{
    uint32_t bits = reg & 0xffffe000u;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

void tk_emu_mma_m16n8k8_tf32(const uint32_t a[32][4], const uint32_t b[32][2], const float c[32][4], float d[32][4])
{
    float A[16][8], B[8][8];
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane % 4;
        for (int i = 0; i < 4; i++) A[g + 8 * (i & 1)][t + 4 * (i >> 1)] = tf32_value(a[lane][i]);
        for (int i = 0; i < 2; i++) B[t + 4 * i][g] = tf32_value(b[lane][i]);
    }
    accumulate(&A[0][0], &B[0][0], 8, c, d);
}
