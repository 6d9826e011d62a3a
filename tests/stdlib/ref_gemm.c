/* ref_gemm.c — double-precision references of the gemm kernels (stdlib-kernels/gemm.tk).
 * See reference.h. Written from the definitions in gemm.tk's header:
 *   C[b][i][j] = act(Σ_k A[b][i][k]·B'[b][k][j] + bias[j]) + R[i][j]
 * with B' = B (nn) or Bᵀ (nt), and for the packed kernels B' read from
 * P[NB, KT, KC, BN] (plane (nb, kt): B's rows kt·KC .. and columns nb·BN ..;
 * KC = BN = 256 for the gemm kernels, 64 and 32 for the small and tiny ones)
 * in the packed plane layout of docs/LANGUAGE.md "Packed tensors": panels of
 * 32 columns, one after the other; inside a panel, bf16 rows interleave in
 * pairs, f32 rows are plain. */
#include "reference.h"

typedef struct {
    bool nt;         /* B is [N, K] */
    bool batched;    /* leading dim BT on A, B, C */
    bool packed;     /* B comes as P[NB, KT, KC, BN, packed] */
    bool pairs;      /* ... of 2-byte elements: rows interleave in pairs */
    bool epilogue;   /* bias / act / residual */
} GemmForm;

static double act_apply(int act, double x)
{
    switch (act) {
    case 1: return tk_ref_relu(x);
    case 2: return tk_ref_gelu(x);
    case 3: return tk_ref_silu(x);
    default: return x;
    }
}

/* element (k, j) of batch b of the (logical) right operand */
static double b_at(const GemmForm *f, const TkRefTensor *B, int64_t b, int64_t k, int64_t j, int64_t K, int64_t N)
{
    if (f->packed) return B->data[tk_ref_packed_b_index(B, k, j, f->pairs)];   /* in range: checked in gemm() */
    int64_t base = b * K * N;
    return f->nt ? B->data[base + j * K + k] : B->data[base + k * N + j];
}

static const char *gemm(TkRefCall *c, GemmForm f)
{
    TkRefTensor *A = tk_ref_tensor(c, "A"), *C = tk_ref_tensor(c, "C");
    TkRefTensor *B = f.packed ? tk_ref_tensor_rank(c, "P", 4) : tk_ref_tensor(c, "B");
    int64_t M = tk_ref_size(c, "M"), K = tk_ref_size(c, "K"), N = tk_ref_size(c, "N");
    int64_t BT = f.batched ? tk_ref_size(c, "BT") : 1;
    if (f.packed && (B->shape[2] <= 0 || B->shape[3] <= 0 || B->shape[0] * B->shape[3] < N || B->shape[1] * B->shape[2] < K))
        return "packed P too small for N, K (NB·BN >= N and KT·KC >= K are required)";
    int act = 0;
    bool use_bias = false, use_res = false;
    const double *bias = NULL, *R = NULL;
    if (f.epilogue) {
        act = (int)tk_ref_scalar(c, "act");
        use_bias = tk_ref_scalar(c, "use_bias") != 0;
        use_res = tk_ref_scalar(c, "use_residual") != 0;
        bias = tk_ref_data(c, "bias");
        R = tk_ref_data(c, "R");
    }
    for (int64_t b = 0; b < BT; b++)
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) {
                double s = 0;
                for (int64_t k = 0; k < K; k++) s += A->data[(b * M + i) * K + k] * b_at(&f, B, b, k, j, K, N);
                if (f.epilogue) {
                    if (use_bias) s += bias[j];
                    s = act_apply(act, s);
                    if (use_res) s += R[i * N + j];
                }
                C->data[(b * M + i) * N + j] = s;
            }
    return NULL;
}

/* Every element of P[NB, KT, KC, BN] is B's (k, j) at tk_ref_packed_b_index, zero past K and N (the pack kernels). */
static const char *pack_b(TkRefCall *c, bool pairs)
{
    TkRefTensor *B = tk_ref_tensor(c, "B"), *P = tk_ref_tensor_rank(c, "P", 4);
    int64_t K = B->shape[0], N = B->shape[1];
    for (int64_t k = 0; k < P->shape[1] * P->shape[2]; k++)
        for (int64_t j = 0; j < P->shape[0] * P->shape[3]; j++)
            P->data[tk_ref_packed_b_index(P, k, j, pairs)] = k < K && j < N ? B->data[k * N + j] : 0.0;
    return NULL;
}

static const char *pack_b_pairs(TkRefCall *c) { return pack_b(c, true); }
static const char *pack_b_rows(TkRefCall *c) { return pack_b(c, false); }

#define FORM(name, ...) \
    static const char *name(TkRefCall *c) { return gemm(c, (GemmForm){ __VA_ARGS__ }); }
FORM(ref_nn, .nt = false)
FORM(ref_nt, .nt = true)
FORM(ref_nn_ep, .epilogue = true)
FORM(ref_nt_ep, .nt = true, .epilogue = true)
FORM(ref_nn_batched, .batched = true)
FORM(ref_nt_batched, .nt = true, .batched = true)
FORM(ref_packed_bf16, .packed = true, .pairs = true)
FORM(ref_packed_f32, .packed = true)

const TkRefKernel tk_ref_gemm[] = {
    { "gemm_bf16", ref_nn },
    { "gemm_f32", ref_nn },
    { "gemv_bf16", ref_nn },
    { "gemv_f32", ref_nn },
    { "gemm_bf16_nt", ref_nt },
    { "gemm_f32_nt", ref_nt },
    { "gemm_bf16_ep", ref_nn_ep },
    { "gemm_bf16_ep_bf16", ref_nn_ep },
    { "gemm_f32_ep", ref_nn_ep },
    { "gemm_bf16_nt_ep", ref_nt_ep },
    { "gemm_bf16_nt_ep_bf16", ref_nt_ep },
    { "gemm_f32_nt_ep", ref_nt_ep },
    { "gemm_bf16_batched", ref_nn_batched },
    { "gemm_f32_batched", ref_nn_batched },
    { "gemm_bf16_nt_batched", ref_nt_batched },
    { "pack_b_bf16", pack_b_pairs },
    { "pack_b_f32", pack_b_rows },
    { "gemm_bf16_packed", ref_packed_bf16 },
    { "gemm_f32_packed", ref_packed_f32 },
    { "gemv_bf16_packed", ref_packed_bf16 },
    { "gemm_bf16_packed_m32", ref_packed_bf16 },
    { "gemm_f32_packed_m32", ref_packed_f32 },
    { "gemv_f32_packed", ref_packed_f32 },
    { "gemm_bf16_small", ref_nn },
    { "gemm_f32_small", ref_nn },
    { "gemm_bf16_tiny", ref_nn },
    { "gemm_f32_tiny", ref_nn },
    { "pack_b_bf16_small", pack_b_pairs },
    { "gemm_bf16_small_packed", ref_packed_bf16 },
    { "pack_b_bf16_tiny", pack_b_pairs },
    { "gemm_bf16_tiny_packed", ref_packed_bf16 },
    { 0, 0 },
};
