/* tk/dtype.h — converting to and from the 16-bit float types of tensors on
 * the host: bf16 (the top half of an f32, rounded to nearest even) and IEEE
 * f16. Header-only, so plain C programs calling generated kernels (tk/rt.h)
 * can fill and read bf16/f16 tensors without linking anything. */
#ifndef TK_DTYPE_H
#define TK_DTYPE_H

#include <stdint.h>
#include <string.h>

/* f32 → bf16, round to nearest even; NaN stays a (quiet) NaN. */
static inline uint16_t tk_bf16_from_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static inline float tk_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* f32 ↔ IEEE half through the compiler's _Float16 (GCC ≥ 12 and Clang on
 * x86-64 and AArch64): round to nearest even, subnormals kept. */
static inline uint16_t tk_f16_from_f32(float f)
{
    _Float16 h = (_Float16)f;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}

static inline float tk_f16_to_f32(uint16_t u)
{
    _Float16 h;
    memcpy(&h, &u, 2);
    return (float)h;
}

#endif
