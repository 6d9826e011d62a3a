/* emu_tma.c — see emu_tma.h.
 *
 * Written from these parts of NVIDIA's documentation (PTX ISA 9.0; CUDA 13
 * driver API and programming guide):
 *
 * PTX ISA 5.5.3, "Tiled Mode": the box has the tensor's rank, the
 * instruction's coordinates are its first element, and its size must be a
 * multiple of 16 bytes. 5.5.3.3, "Out of Boundary Access": box elements
 * outside the tensor in any dimension are set to 0 (zero-fill mode).
 * 5.5 ("Tensors"): shared memory holds the box as linear data, here
 * innermost dimension first.
 *
 * PTX ISA 5.5.7, "Swizzling Modes": tables of 16-byte chunks, 8 to a row of
 * the table (128 bytes of shared memory). In the 32-, 64- and 128-byte modes
 * (16-byte swizzle atomicity) row r holds, at chunk position p, chunk
 * p XOR (r mod 2, 4, 8); the patterns start on 256-, 512- and 1024-byte
 * boundaries, and a destination not on its boundary has the "swizzle base
 * offset" (dstMem / 128) mod 2, 4, 8, i.e. the pattern follows the shared
 * address itself, not the box. As address bits: bits [4, 4+b) XOR bits
 * [7, 7+b), b = log2(swizzle bytes / 16). The CUDA programming guide 10.29.3.2
 * ("The Swizzle Modes", Table 11) gives the same rule as
 * smem[y][x] <-> smem[y][((y + offset) % n) ^ x] with 128-byte rows y.
 *
 * PTX ISA 9.7.9.25.5.2, cp.async.bulk.tensor: the mbarrier's complete-tx
 * count is the bytes the copy writes to shared memory (the whole box).
 *
 * CUDA driver API, cuTensorMapEncodeTiled (what makes a map valid): rank
 * 1..5; global address 16-byte aligned; dimensions 1..2^32; strides of the
 * outer dimensions multiples of 16 below 2^40 (dimension 0 has no stride of
 * its own: elements are contiguous); every box dimension 1..256;
 * boxDim[0] · element size a multiple of 16; with a swizzle, that inner
 * extent at most the swizzle's bytes. The emulator asks for exactly the
 * swizzle's bytes: the lowering always fills whole swizzle rows, and a
 * narrower row's placement is not spelled out by the documents.
 * CUDA programming guide 10.29.2, Table 10: the shared-memory destination
 * must be 128-byte aligned. */
#include "emu_tma.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum { MAX_BOX = 256, SHARED_ALIGNMENT = 128, CHUNK_BYTES = 16, LINE_BYTES = 128 };

static long fail(char *err, size_t errlen, const char *message)
{
    if (err && errlen) snprintf(err, errlen, "TMA: %s", message);
    return -1;
}

static int bytes_of_dtype(int32_t dtype)
{
    switch (dtype) {
    case TK_TMA_BF16:
    case TK_TMA_F16: return 2;
    case TK_TMA_F32: return 4;
    default: return 0;
    }
}

/* Why map m cannot be encoded (one line into why), or false when it can. */
static bool map_is_invalid(const TkTmaDesc *m, char *why, size_t size)
{
    if (m->rank < 1 || m->rank > TK_TMA_MAX_RANK) {
        snprintf(why, size, "rank %d is not 1..%d", (int)m->rank, TK_TMA_MAX_RANK);
        return true;
    }
    int dtype_bytes = bytes_of_dtype(m->dtype);
    if (dtype_bytes == 0) {
        snprintf(why, size, "dtype %d is none of bf16 (%d), f16 (%d), f32 (%d)", (int)m->dtype, TK_TMA_BF16, TK_TMA_F16,
                 TK_TMA_F32);
        return true;
    }
    if (m->elem_bytes != 2 && m->elem_bytes != 4) {
        snprintf(why, size, "elem_bytes %d is not 2 or 4", (int)m->elem_bytes);
        return true;
    }
    if (m->elem_bytes != dtype_bytes) {
        snprintf(why, size, "elem_bytes %d does not match dtype %d, whose elements are %d bytes", (int)m->elem_bytes,
                 (int)m->dtype, dtype_bytes);
        return true;
    }
    if (m->swizzle != 0 && m->swizzle != 32 && m->swizzle != 64 && m->swizzle != 128) {
        snprintf(why, size, "swizzle %d is not 0, 32, 64 or 128 bytes", (int)m->swizzle);
        return true;
    }
    for (int k = 0; k < m->rank; k++)
        if (m->box[k] < 1 || m->box[k] > MAX_BOX) {
            snprintf(why, size, "box[%d] = %u is not 1..%d", k, (unsigned)m->box[k], MAX_BOX);
            return true;
        }
    int64_t row_bytes = (int64_t)m->box[0] * m->elem_bytes;
    if (row_bytes % CHUNK_BYTES != 0) {
        snprintf(why, size, "box[0] is %lld bytes, not a multiple of 16", (long long)row_bytes);
        return true;
    }
    if (m->swizzle != 0 && row_bytes != m->swizzle) {
        snprintf(why, size, "swizzle %d needs box[0] of exactly %d bytes, not %lld", (int)m->swizzle, (int)m->swizzle,
                 (long long)row_bytes);
        return true;
    }
    if (m->base % 16 != 0) {
        snprintf(why, size, "base 0x%llx is not 16-byte aligned", (unsigned long long)m->base);
        return true;
    }
    if (m->strides[0] != (uint64_t)m->elem_bytes) {
        snprintf(why, size, "strides[0] = %llu is not elem_bytes %d (dimension 0 must be contiguous)",
                 (unsigned long long)m->strides[0], (int)m->elem_bytes);
        return true;
    }
    for (int k = 0; k < m->rank; k++) {
        if (m->dims[k] < 1 || m->dims[k] > ((uint64_t)1 << 32)) {
            snprintf(why, size, "dims[%d] = %llu is not 1..2^32", k, (unsigned long long)m->dims[k]);
            return true;
        }
        if (k > 0 && (m->strides[k] % 16 != 0 || m->strides[k] >= ((uint64_t)1 << 40))) {
            snprintf(why, size, "strides[%d] = %llu bytes is not a multiple of 16 below 2^40", k,
                     (unsigned long long)m->strides[k]);
            return true;
        }
    }
    return false;
}

/* Where the byte at shared address `address` of the unswizzled box lands:
 * its 16-byte chunk within the 128-byte line is XORed with the line number,
 * modulo the chunks in one swizzle span (PTX ISA 5.5.7). */
static int64_t swizzled(int64_t address, int swizzle_bytes)
{
    if (swizzle_bytes == 0) return address;
    int64_t chunks_in_span = swizzle_bytes / CHUNK_BYTES;   /* 2, 4 or 8 */
    int64_t line = address / LINE_BYTES;
    return address ^ ((line % chunks_in_span) * CHUNK_BYTES);
}

long tk_emu_tma_load(const TkTmaDesc *m, const int32_t *coords, int64_t dst, unsigned char *shared, int64_t shared_bytes,
                     char *err, size_t errlen)
{
    char why[240];
    if (!m) return fail(err, errlen, "no tensor map");
    if (map_is_invalid(m, why, sizeof why)) return fail(err, errlen, why);

    int64_t box_elements = 1;
    for (int k = 0; k < m->rank; k++) box_elements *= m->box[k];
    int64_t box_bytes = box_elements * m->elem_bytes;
    if (dst < 0) {
        snprintf(why, sizeof why, "destination offset %lld is before the start of shared memory", (long long)dst);
        return fail(err, errlen, why);
    }
    if (dst % SHARED_ALIGNMENT != 0) {
        snprintf(why, sizeof why, "destination offset %lld is not 128-byte aligned", (long long)dst);
        return fail(err, errlen, why);
    }
    if (!shared || dst > shared_bytes - box_bytes) {
        snprintf(why, sizeof why, "the box (%lld bytes at shared offset %lld) runs past the %lld bytes of shared memory",
                 (long long)box_bytes, (long long)dst, (long long)shared_bytes);
        return fail(err, errlen, why);
    }

    /* The box as rows of box[0] elements; a row's outer coordinates are
     * either all inside the tensor (then its elements are read one by one,
     * each only if its own x0 is inside) or the whole row is zeros. Rows are
     * whole swizzle spans at span-aligned addresses, so the swizzle never
     * moves a byte out of the box. */
    const unsigned char *tensor = (const unsigned char *)(uintptr_t)m->base;
    int elem_bytes = m->elem_bytes;
    int64_t row_elements = m->box[0], rows = box_elements / row_elements;
    for (int64_t row = 0; row < rows; row++) {
        bool row_inside = true;
        uint64_t row_offset = 0;
        int64_t rest = row;
        for (int k = 1; k < m->rank; k++) {
            int64_t x = (int64_t)coords[k] + rest % m->box[k];
            rest /= m->box[k];
            if (x < 0 || (uint64_t)x >= m->dims[k])
                row_inside = false;
            else
                row_offset += (uint64_t)x * m->strides[k];
        }
        for (int64_t i0 = 0; i0 < row_elements; i0++) {
            unsigned char *to = shared + swizzled(dst + (row * row_elements + i0) * elem_bytes, m->swizzle);
            int64_t x0 = (int64_t)coords[0] + i0;
            if (row_inside && x0 >= 0 && (uint64_t)x0 < m->dims[0])
                memcpy(to, tensor + row_offset + (uint64_t)x0 * (uint64_t)elem_bytes, (size_t)elem_bytes);
            else
                memset(to, 0, (size_t)elem_bytes);
        }
    }
    return (long)box_bytes;
}
