/* emu_ldmatrix.c — see emu_ldmatrix.h.
 *
 * PTX ISA, "ldmatrix": each of the num 8×8 matrices is read as 8 rows of 8
 * 16-bit elements, row r of matrix i from the address thread 8i + r holds
 * (for .x1 threads 0–7, for .x2 threads 0–15 give addresses). The loaded
 * matrix i lands in register i of every thread: thread l holds row l / 4,
 * elements 2·(l % 4) and 2·(l % 4) + 1, the first in the low 16 bits. With
 * .trans the matrix is read in column-major order: thread l holds elements
 * (2·(l % 4), l / 4) and (2·(l % 4) + 1, l / 4) of the matrix as stored. */
#include "emu_ldmatrix.h"

void tk_emu_ldmatrix(int num, bool trans, const uint16_t *const rows[32], uint32_t out[32][4])
{
    for (int lane = 0; lane < 32; lane++) {
        int group = lane / 4, pair = 2 * (lane % 4);
        for (int i = 0; i < num; i++) {
            const uint16_t *const *m = &rows[8 * i];
            uint16_t lo = trans ? m[pair][group] : m[group][pair];
            uint16_t hi = trans ? m[pair + 1][group] : m[group][pair + 1];
            out[lane][i] = (uint32_t)lo | (uint32_t)hi << 16;
        }
    }
}

int tk_emu_ldmatrix_conflicts(int num, const uint16_t *const rows[32], const void *shared)
{
    int conflicted = 0;
    for (int i = 0; i < num; i++) {
        /* a 16-byte aligned row covers 4 banks: one of 8 groups */
        long group_addr[8];
        for (int g = 0; g < 8; g++) group_addr[g] = -1;
        bool clash = false;
        for (int r = 0; r < 8; r++) {
            long off = (long)((const char *)rows[8 * i + r] - (const char *)shared);
            int g = (int)((off / 16) % 8);
            if (group_addr[g] >= 0 && group_addr[g] != off) clash = true;
            group_addr[g] = off;
        }
        conflicted += clash;
    }
    return conflicted;
}
