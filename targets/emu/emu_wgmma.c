/* emu_wgmma.c — see emu_wgmma.h.
 *
 * PTX ISA 9.7.15.5.1.1.1, "Matrix Fragments for wgmma.mma_async.m64nNk16"
 * (Figures 148 and 149). Warp w of the warpgroup owns rows 16w..16w+15; in
 * it, with g = lane / 4 and q = lane % 4, the pattern is mma.m16n8k16's:
 *   A, 64×16, registers a0..a3 of two elements each (low half first):
 *     register j: row 16w + g + 8·(j % 2), columns 8·(j / 2) + 2q + {0, 1}
 *   D, 64×N f32, registers d0..d(N/2-1):
 *     register i: row 16w + g + 8·((i / 2) % 2), column 8·(i / 4) + 2q + i % 2
 *
 * PTX ISA 9.7.15.5.1.2.2, "Matrix Descriptor Format": bits 0-13 start
 * address, 16-29 leading dimension byte offset (LBO), 32-45 stride
 * dimension byte offset (SBO), each stored as (x & 0x3FFFF) >> 4; bits 49-51
 * base offset; bits 62-63 swizzle: 0 none, 1 128-byte, 2 64-byte, 3 32-byte.
 *
 * PTX ISA 9.7.15.5.1.2.1.3, "Canonical Layouts", as CuTe layouts in
 * elements (T = 8 16-bit elements = 16 bytes), first mode N, second K:
 *   N-major (imm-trans-b = 1):
 *     none      ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))   LBO and SBO swap roles here
 *     32/64/128 ((T,c,m),(8,k)):((1,T,LBO),(cT,SBO))   c = 2, 4, 8
 *   K-major (imm-trans-b = 0):
 *     none      ((8,m),(T,2k)):((1T,SBO),(1,LBO))
 *     32/64/128 ((8,m),(T,2k)):((cT,SBO),(1,T))        LBO unused
 * then Swizzle<B,4,3> (B = 0, 1, 2, 3 for none, 32, 64, 128 bytes) on the
 * byte address: bits [7, 7+B) XORed into bits [4, 4+B). With base offset 0
 * the swizzle pattern repeats on 256/512/1024-byte boundaries of the shared
 * address itself, so the XOR uses the whole address (start + offset). */
#include "emu_wgmma.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { WARPGROUP = 128, M = 64, K = 16, MAX_N = 256 };

/* The descriptor's fields, in bytes. */
typedef struct {
    int64_t start, leading, stride;
    int base_offset;
    int swizzle_bits;   /* B of Swizzle<B,4,3>: 0 none, 1 32-byte, 2 64-byte, 3 128-byte */
} Descriptor;

static Descriptor decode(uint64_t desc)
{
    static const int bits_of_mode[4] = { 0, 3, 2, 1 };   /* field value 1 is 128-byte, 3 is 32-byte */
    Descriptor d;
    d.start = (int64_t)(desc & 0x3fff) << 4;
    d.leading = (int64_t)(desc >> 16 & 0x3fff) << 4;
    d.stride = (int64_t)(desc >> 32 & 0x3fff) << 4;
    d.base_offset = (int)(desc >> 49 & 7);
    d.swizzle_bits = bits_of_mode[desc >> 62];
    return d;
}

/* Byte offset of B[k][n] from the start address, before the swizzle: the
 * canonical layout above with its strides turned into bytes (an element
 * stride s is 2s bytes; LBO and SBO are already bytes). */
static int64_t canonical_offset(const Descriptor *d, int n_major, int k, int n)
{
    int chunks = 1 << d->swizzle_bits;   /* 16-byte chunks in one swizzle row */
    if (n_major) {
        if (d->swizzle_bits == 0) return 2 * (n % 8) + (n / 8) * d->stride + 16 * (k % 8) + (k / 8) * d->leading;
        return 2 * (n % 8) + 16 * (n / 8 % chunks) + (n / (8 * chunks)) * d->leading + 16 * chunks * (k % 8) +
               (k / 8) * d->stride;
    }
    int64_t second_half_of_k = d->swizzle_bits == 0 ? d->leading : 16;
    return 16 * chunks * (n % 8) + (n / 8) * d->stride + 2 * (k % 8) + (k / 8) * second_half_of_k;
}

/* Swizzle<B,4,3> on a shared-memory byte address */
static int64_t swizzle(int64_t address, int bits)
{
    return address ^ ((address >> 7 & ((1 << bits) - 1)) << 4);
}

static float bf16_value(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* IEEE binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits; exponent 0
 * is zero or subnormal (fraction · 2^-24), 31 infinity or NaN */
static float f16_value(uint16_t h)
{
    int exponent = h >> 10 & 0x1f;
    int fraction = h & 0x3ff;
    float magnitude = exponent == 0    ? ldexpf((float)fraction, -24)
                      : exponent == 31 ? (fraction ? NAN : INFINITY)
                                       : ldexpf((float)(fraction | 0x400), exponent - 25);
    return h & 0x8000 ? -magnitude : magnitude;
}

static float element_value(uint16_t h, int f16) { return f16 ? f16_value(h) : bf16_value(h); }

static int fail(char *err, size_t errlen, const char *message)
{
    if (err && errlen) snprintf(err, errlen, "wgmma: %s", message);
    return -1;
}

int tk_emu_wgmma(int n, int f16, int trans_b, uint64_t desc, const uint32_t a[128][4], float d[128][128], int scale_d,
                 const unsigned char *shared, int64_t shared_bytes, char *err, size_t errlen)
{
    char why[200];
    if (n < 8 || n > MAX_N || n % 8) {
        snprintf(why, sizeof why, "N = %d is not a multiple of 8 in 8..256", n);
        return fail(err, errlen, why);
    }
    Descriptor desc_fields = decode(desc);
    if (desc_fields.base_offset) {
        snprintf(why, sizeof why, "matrix base offset %d in descriptor 0x%016llx is not supported (only 0)",
                 desc_fields.base_offset, (unsigned long long)desc);
        return fail(err, errlen, why);
    }

    /* B first, so that a bad address leaves d untouched */
    float B[K][MAX_N];
    for (int k = 0; k < K; k++)
        for (int col = 0; col < n; col++) {
            int64_t at = swizzle(desc_fields.start + canonical_offset(&desc_fields, trans_b != 0, k, col),
                                 desc_fields.swizzle_bits);
            if (!shared || at < 0 || at + 2 > shared_bytes) {
                snprintf(why, sizeof why, "B element (k %d, n %d) at shared byte %lld is outside the %lld bytes of shared memory",
                         k, col, (long long)at, (long long)shared_bytes);
                return fail(err, errlen, why);
            }
            B[k][col] = element_value((uint16_t)(shared[at] | shared[at + 1] << 8), f16);   /* little-endian */
        }

    float A[M][K];
    for (int t = 0; t < WARPGROUP; t++) {
        int w = t / 32, lane = t % 32;
        for (int j = 0; j < 4; j++)
            for (int half = 0; half < 2; half++) {
                int row = 16 * w + lane / 4 + 8 * (j % 2), col = 8 * (j / 2) + 2 * (lane % 4) + half;
                A[row][col] = element_value((uint16_t)(a[t][j] >> 16 * half), f16);
            }
    }

    /* each accumulator depends on its own C only, so D overwrites C in place */
    for (int t = 0; t < WARPGROUP; t++) {
        int w = t / 32, lane = t % 32;
        for (int i = 0; i < n / 2; i++) {
            int row = 16 * w + lane / 4 + 8 * (i / 2 % 2), col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
            double sum = scale_d ? d[t][i] : 0.0;
            for (int k = 0; k < K; k++) sum += (double)A[row][k] * (double)B[k][col];
            d[t][i] = (float)sum;
        }
    }
    return 0;
}
