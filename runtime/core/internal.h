/* internal.h — what the runtime's files share and users never see: the
 * layout of contexts, storages and tensors, the error helper, the element
 * loaders, the strided iterator and the parallel loop. Internal names carry
 * the tkr_ prefix. */
#ifndef TK_RUNTIME_CORE_INTERNAL_H
#define TK_RUNTIME_CORE_INTERNAL_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "device.h"
#include "tk/tensor.h"

typedef struct TkrProfile TkrProfile;

/* A storage: one buffer, shared by every tensor that views it. */
typedef enum { TKR_STORAGE_POOL, TKR_STORAGE_BLOB } TkrStorageKind;
typedef struct TkrStorage {
    atomic_long refs;
    TkrStorageKind kind;
    void *data;
    size_t bytes;
    bool readonly;
    tk_context *ctx;                       /* whose allocator a POOL block returns to */
    void (*deleter)(void *data, void *arg);   /* BLOB: run when the last reference goes */
    void *deleter_arg;
} TkrStorage;

struct tk_tensor {
    atomic_long refs;
    TkrStorage *storage;
    tk_context *ctx;
    tk_dtype dtype;
    int ndim;
    int64_t shape[TK_MAX_DIMS];
    int64_t strides[TK_MAX_DIMS];   /* elements */
    int64_t offset;                 /* elements */
    bool weight;                    /* tk_mark_weight: a constant whose other layouts may be kept */
    struct tk_tensor *forms[4];     /* those layouts (TkrWeightForm), made on first use; owned */
};

struct tk_context {
    char error[8192];   /* room for a model check listing every unsupported node */
    int threads;
    const TkrDevice *device;
    TkrAllocator *alloc;
    TkrProfile *profile;        /* NULL unless profiling */
    tk_context *host;           /* a GPU context's CPU context, for staging through host memory (NULL on the CPU) */
    atomic_long live_tensors;   /* tensors not yet released, for the leak check at free */
};

/* ------------------------------------------------------------ hot loops */

/* libtk is built for baseline x86-64 (it must load on any x86-64 CPU), where
 * the compiler's vectoriser has SSE2 alone. Loops that are compute-bound at
 * that width (a float sum widened to double ran at 35% of the read
 * bandwidth) carry clones for AVX-512 and AVX2, chosen once at load time
 * (ifunc). Elsewhere it expands to nothing. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TKR_NO_CLONES   /* clang's ASan: keep ifunc resolvers out of instrumented builds */
#endif
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__) && !defined(TKR_NO_CLONES)
#define TKR_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TKR_VECTOR_CLONES
#endif

/* ------------------------------------------------------------ errors */

/* Sets ctx's message (printf-style) and returns s. ctx may be NULL. */
tk_status tkr_error(tk_context *ctx, tk_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Clears ctx's message; returns TK_OK. */
tk_status tkr_ok(tk_context *ctx);
/* "[2, 3, 4]" into buf. */
const char *tkr_shape_str(int ndim, const int64_t *shape, char *buf, size_t len);
#define TKR_SHAPE(t, buf) tkr_shape_str((t)->ndim, (t)->shape, (buf), sizeof(buf))
/* Checks a tensor argument is not NULL and lives on ctx's device, and that
 * ctx is a CPU context: the ops that run on the CPU alone call this. */
tk_status tkr_check_arg(tk_context *ctx, const char *op, const char *arg, const tk_tensor *t);
/* The same without the CPU's requirement, for the ops that run on any device. */
tk_status tkr_check_device_arg(tk_context *ctx, const char *op, const char *arg, const tk_tensor *t);
/* TK_OK on a CPU context; TK_ERR_UNSUPPORTED naming op and the device otherwise. */
tk_status tkr_host_only(tk_context *ctx, const char *op);
/* Normalises axis (negative counts from the end) into [0, ndim); an error naming op otherwise. */
tk_status tkr_axis(tk_context *ctx, const char *op, int axis, int ndim, int *out);

/* ------------------------------------------------------------ tensors */

/* A new contiguous tensor (uninitialised). shape may hold zeros. */
tk_status tkr_new(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out);
/* A view of base's storage with the given geometry (retains the storage). */
tk_status tkr_view(tk_context *ctx, const tk_tensor *base, int ndim, const int64_t *shape, const int64_t *strides,
                   int64_t offset, tk_tensor **out);
/* t itself (retained) if contiguous, else a contiguous copy. */
tk_status tkr_contiguous(tk_context *ctx, const tk_tensor *t, tk_tensor **out);
/* A new [N, C, H, W] tensor (shape4) whose memory is NHWC: channels-last. */
tk_status tkr_new_channels_last(tk_context *ctx, tk_dtype dtype, const int64_t *shape4, tk_tensor **out);
/* A new tensor for an element-wise result of (ndim, shape): channels-last
 * when `like` has that shape and is channels-last but not contiguous (the
 * result keeps its operand's layout, as PyTorch's memory format does), else
 * contiguous. like may be NULL. */
tk_status tkr_new_like(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, const tk_tensor *like, tk_tensor **out);
int64_t tkr_numel(int ndim, const int64_t *shape);
/* Sizes >= 0 whose element count and strides (the product of the non-zero
 * sizes) fit in int64 with room for the element size; the count into *numel. */
bool tkr_shape_fits(int ndim, const int64_t *shape, int64_t *numel);
void tkr_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides);
static inline char *tkr_ptr(const tk_tensor *t)
{
    return (char *)t->storage->data + t->offset * (int64_t)tk_dtype_size(t->dtype);
}

/* ------------------------------------------------------------ GPU staging (device_stage.c) */

/* A host copy of the storage span a GPU tensor t covers, viewed with t's
 * geometry (host, a tensor of ctx->host), for what the CPU alone does. */
typedef struct {
    const tk_tensor *t;
    tk_tensor *host;
    char *buf;
    void *at;       /* the span's start in device memory */
    size_t bytes;
} TkrMirror;
/* fetch: copy the span's values in (false: the caller overwrites all of it). */
tk_status tkr_mirror_open(tk_context *ctx, const tk_tensor *t, bool fetch, TkrMirror *m);
/* Writes the host copy back over the span. */
tk_status tkr_mirror_store(tk_context *ctx, TkrMirror *m);
void tkr_mirror_close(TkrMirror *m);
/* dst = src (src broadcast to dst's shape, dtypes converted), on the
 * context's threads or its GPU; the error names op if the shapes do not fit. */
tk_status tkr_copy_into(tk_context *ctx, const char *op, tk_tensor *dst, const tk_tensor *src);
/* For the calls that make a tensor on the host (loads, random numbers) on a
 * GPU context: s is the call's status on ctx->host, *h the tensor it made
 * (read after the call); a copy of it on ctx into *out, or the host's error. */
tk_status tkr_moved_from_host(tk_context *ctx, tk_status s, tk_tensor **h, tk_tensor **out);
/* tkr_copy_into for tensors of a GPU context (copy.c sends them here). */
tk_status tkr_device_copy_into(tk_context *ctx, const char *op, tk_tensor *dst, const tk_tensor *src);

/* ------------------------------------------------------------ weight layouts */

/* The layouts kernels want a weight in. A weight marked constant
 * (tk_mark_weight) keeps each one it was given in, so a model's later calls
 * skip the packing or transposing; an unmarked one is converted per call. */
typedef enum {
    TKR_FORM_GEMM_PACKED,   /* linear weight [N, K] packed as B = wᵀ for gemm_X_packed (matmul.c) */
    TKR_FORM_CONV_HWIO,     /* conv weight OIHW as HWIO (conv.c) */
    TKR_FORM_CONV_HWC,      /* depthwise conv weight [C, 1, KH, KW] as [KH, KW, C, 1] (conv.c) */
    TKR_FORM_MATMUL_PACKED, /* matmul B [K, N] packed for gemm_X_packed (matmul.c) */
    TKR_NUM_FORMS
} TkrWeightForm;
typedef tk_status (*TkrFormFn)(tk_context *ctx, const tk_tensor *w, tk_tensor **out);
/* w in layout `form` as a new reference: kept on w (and made by make on
 * first use) when w is marked constant, made afresh otherwise. */
tk_status tkr_weight_form(tk_context *ctx, const tk_tensor *w, TkrWeightForm form, TkrFormFn make, tk_tensor **out);
/* Drops every kept layout of w (tk_mark_weight does, so a re-marked weight is converted again). */
void tkr_weight_forms_clear(tk_tensor *w);

/* ------------------------------------------------------------ elements */

/* Reads or writes one element of any dtype as a double or an int64.
 * Stores round to nearest even (bf16, f16) and convert float → int by
 * truncation (NaN → 0, out-of-range values clamped first; u16/u32/u64
 * wrap instead, as NumPy). A u64 reads as its bit pattern through _i. */
double tkr_load_f(const void *p, tk_dtype t);
int64_t tkr_load_i(const void *p, tk_dtype t);
void tkr_store_f(void *p, tk_dtype t, double v);
void tkr_store_i(void *p, tk_dtype t, int64_t v);
/* The same for unsigned values: u64 needs them (its values >= 2^63 are not
 * int64s); a float reads as NumPy casts it (truncated, wrapped; NaN → 0). */
uint64_t tkr_load_u64(const void *p, tk_dtype t);
void tkr_store_u64(void *p, tk_dtype t, uint64_t v);
bool tkr_dtype_is_unsigned(tk_dtype t);   /* u8, u16, u32, u64 */

/* The low-precision storage types (dtype_lowp.c): f8*, f4e2m1, i4/u4/i2/u2,
 * one element per byte. Decoding is exact; encoding follows ONNX's Cast
 * (round to nearest even; saturate clips to the largest finite value; E8M0
 * rounds its float32 exponent by rm; floats into i4..u2 truncate, 0 when out
 * of range; integers wrap). tkr_load_f/tkr_store_f use them with
 * saturate=false (as ml_dtypes and PyTorch cast) and, for E8M0, ONNX's
 * default rounding up (ml_dtypes' E8M0 cast makes 0 and negatives NaN). */
typedef enum { TKR_ROUND_UP, TKR_ROUND_DOWN, TKR_ROUND_NEAREST } TkrRoundMode;
bool tkr_dtype_is_lowp(tk_dtype t);
bool tkr_dtype_is_lowp_float(tk_dtype t);   /* f8*, f4e2m1 */
double tkr_lowp_decode(tk_dtype t, uint8_t b);
int64_t tkr_lowp_decode_i(tk_dtype t, uint8_t b);
uint8_t tkr_lowp_encode(tk_dtype t, double v, bool saturate, TkrRoundMode rm);
uint8_t tkr_lowp_encode_i(tk_dtype t, int64_t v);
/* TK_OK unless t is a low-precision type (then TK_ERR_DTYPE naming op). */
tk_status tkr_lowp_no_arith(tk_context *ctx, const char *op, tk_dtype t);
/* x converted to dtype with Cast's options (any dtype: non-lowp targets are tk_to_dtype). */
tk_status tkr_to_lowp(tk_context *ctx, const tk_tensor *x, tk_dtype dtype, bool saturate, TkrRoundMode rm, tk_tensor **out);

/* ------------------------------------------------------------ iteration */

#define TKR_MAX_OPS 4

/* Broadcasting, coalescing N-d iteration over up to TKR_MAX_OPS operands
 * (operand 0 is usually the output). After tkr_iter_init the operands share
 * one shape (ndim dims, the innermost last) with byte strides per operand
 * (0 where broadcast). Adjacent dims every operand steps through
 * contiguously are merged, so a contiguous tensor is one dim. */
typedef struct {
    int nops;
    int ndim;
    int64_t shape[TK_MAX_DIMS];
    int64_t strides[TKR_MAX_OPS][TK_MAX_DIMS];   /* bytes */
    char *data[TKR_MAX_OPS];
    int64_t numel;
} TkrIter;

/* The broadcast shape of a and b (NumPy rules) into out/out_ndim; an error
 * naming op and both shapes if they do not broadcast. */
tk_status tkr_broadcast_shape(tk_context *ctx, const char *op, int an, const int64_t *as, int bn, const int64_t *bs,
                              int *out_ndim, int64_t *out);
/* Every operand is broadcast to (ndim, shape); an operand with more dims or
 * a size that is neither 1 nor equal is an error naming op. */
tk_status tkr_iter_init(tk_context *ctx, const char *op, TkrIter *it, int ndim, const int64_t *shape, int nops,
                        const tk_tensor *const *ops);

/* Called for one run of n elements along the innermost dim: ptrs[k] is
 * operand k's first element, strides[k] its byte stride. */
typedef void (*TkrLoopFn)(char **ptrs, const int64_t *strides, int64_t n, void *arg);
/* Runs fn over every element, split into pieces over the context's threads
 * (every element is visited once; the split never changes what an element
 * computes, so results do not depend on the thread count). */
void tkr_iter_run(tk_context *ctx, const TkrIter *it, TkrLoopFn fn, void *arg);

/* ------------------------------------------------------------ parallel loops */

/* Runs fn(begin, end, arg) over [0, n) in pieces of at least `grain` items
 * on the context's threads (the kernels' pool). The pieces are fixed by n and
 * grain alone, never by the thread count: a reduction that combines
 * per-piece partials in piece order is bit-identical on any thread count. */
typedef void (*TkrRangeFn)(int64_t begin, int64_t end, void *arg);
void tkr_parallel_for(tk_context *ctx, int64_t n, int64_t grain, TkrRangeFn fn, void *arg);
/* How many pieces tkr_parallel_for(n, grain) makes, and piece i's range. */
int64_t tkr_pieces(int64_t n, int64_t grain);
void tkr_piece_range(int64_t n, int64_t grain, int64_t i, int64_t *begin, int64_t *end);

/* ------------------------------------------------------------ profiling */

/* Records one op (kind "op") or kernel launch (kind "kernel") that took
 * seconds; a no-op unless the context profiles. */
double tkr_now(void);
void tkr_profile_record(tk_context *ctx, const char *kind, const char *name, double seconds);
void tkr_profile_print(tk_context *ctx);
void tkr_profile_free(tk_context *ctx);
/* An op's timing in two calls: t0 = tkr_op_start(ctx) as it begins (reads
 * the clock only when the context profiles), tkr_op_done(ctx, op, t0) once
 * it has succeeded (records kind "op"; a no-op unless profiling). */
static inline double tkr_op_start(const tk_context *ctx)
{
    return ctx && ctx->profile ? tkr_now() : 0;
}
void tkr_op_done(tk_context *ctx, const char *op, double t0);

#endif
