/* tk/tensor.h — the tensor runtime's core: contexts, tensors, creation,
 * dtype conversion. Ops live beside it, one header per concern:
 *   tk/shape.h  views and shape ops (reshape, permute, slice, cat, ...)
 *   tk/ops.h    element-wise ops with broadcasting, reductions
 *   tk/nn.h     matmul, linear, norms, softmax, activations (stdlib kernels)
 *   tk/io.h     .npy, ONNX TensorProto .pb and .safetensors files
 *   tk/dlpack.h DLPack import and export (NumPy, PyTorch share memory)
 *   tk/call.h   a user's .tk kernel called on tensors
 *   tk/tk.h     all of them
 *
 * OWNERSHIP — one rule for the whole API:
 *   Every call that produces a tensor hands the caller exactly one reference
 *   to it through an out-parameter (tk_tensor **out); the caller gives it
 *   back with tk_tensor_release(). Tensors passed in are borrowed for the
 *   call: no call keeps, releases or changes the caller's references. A view
 *   shares its base's storage, which lives until the last tensor viewing it
 *   is released (the base may be released first). A context must outlive the
 *   tensors made with it. tk_tensor_retain() adds a reference.
 *
 * ERRORS — every call returns a tk_status (TK_OK = 0), or NULL for the few
 * that return a pointer, and leaves a one-line message naming the op, the
 * argument and the shapes on the context: tk_last_error(ctx). On failure no
 * out-parameter is set to a new tensor (it is set to NULL) and nothing leaks.
 * Nothing aborts or exits.
 *
 * LAYOUT — a tensor is a dtype, a device, up to TK_MAX_DIMS dims, strides in
 * elements (may be 0 for an expanded dim; never negative: flip copies), an
 * offset in elements into a refcounted storage. Freshly made tensors are
 * contiguous row-major. bf16/f16 elements are 16-bit patterns (tk/dtype.h).
 *
 * THREADS — a context's ops run on one shared thread pool (the kernels' own);
 * results are bit-identical for every thread count (reductions use a fixed
 * order). A context is used from one thread at a time.
 *
 *   tk_context *ctx;
 *   tk_context_create(NULL, &ctx);
 *   tk_tensor *x, *y;
 *   tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ 128, 64 }, 42, &x);
 *   if (tk_softmax(ctx, x, -1, &y) != TK_OK) fprintf(stderr, "%s\n", tk_last_error(ctx));
 *   tk_tensor_release(y); tk_tensor_release(x);
 *   tk_context_free(ctx);
 */
#ifndef TK_TENSOR_H
#define TK_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tk/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_MAX_DIMS 8

typedef struct tk_context tk_context;
typedef struct tk_tensor tk_tensor;

/* Where a context's tensors live and its ops run.
 *   TK_DEVICE_CPU       this machine's memory and cores.
 *   TK_DEVICE_CUDA      an NVIDIA GPU (sm_80 or newer; device 0) through its
 *                       driver, opened at run time: tensors in GPU memory,
 *                       kernels compiled to PTX for it.
 *   TK_DEVICE_CUDA_EMU  an NVIDIA GPU emulated on the CPU (the sm_80-emu
 *                       target): it behaves as TK_DEVICE_CUDA does, and runs
 *                       the same GPU lowering, so a program can be tested
 *                       where there is no GPU. Slow: for tests.
 * On a GPU device (docs/TENSOR_API.md, "Devices"): tensors move with
 * tk_tensor_to and tk_from_data/tk_to_data; views (reshape, permute, slice,
 * ...) work; matmul, linear, softmax, layer_norm, rms_norm and tk_call run
 * their GPU kernels; any other op is refused with TK_ERR_UNSUPPORTED naming
 * it (copy the tensors to a CPU context for it). */
typedef enum { TK_DEVICE_CPU = 0, TK_DEVICE_CUDA = 1, TK_DEVICE_CUDA_EMU = 2 } tk_device_type;

/* ---------------------------------------------------------------- context */

typedef struct {
    tk_device_type device;   /* TK_DEVICE_CPU (0), TK_DEVICE_CUDA or TK_DEVICE_CUDA_EMU */
    int threads;             /* 0: $TK_NUM_THREADS, else one per core */
    int profile;             /* 1: record every op and kernel (also $TK_PROFILE=1) */
    size_t cache_bytes;      /* the caching allocator keeps at most this many free bytes; 0: 1 GiB */
    size_t max_bytes;        /* tensors of this context hold at most this many bytes at once (a request past it
                                is TK_ERR_OUT_OF_MEMORY naming the limit); 0: no limit but the machine's */
} tk_context_opts;

/* opts may be NULL (defaults). When it fails (no CUDA driver, no GPU, ...)
 * tk_last_error(NULL) says why, on the calling thread. */
tk_status tk_context_create(const tk_context_opts *opts, tk_context **out);
/* The context's device, and its name ("cpu", "cuda (NVIDIA H200, sm_90)", "cuda-emu"). */
tk_device_type tk_context_device(const tk_context *ctx);
const char *tk_context_device_name(const tk_context *ctx);
/* Frees the context, its cached memory and its compiled kernels. With
 * $TK_PROFILE=1 (or opts.profile) it prints the profile table first. */
void tk_context_free(tk_context *ctx);
/* The message of the last failed call on this context ("" after a success);
 * with ctx NULL, that of this thread's last failed tk_context_create. */
const char *tk_last_error(const tk_context *ctx);
int tk_context_threads(const tk_context *ctx);
tk_status tk_context_set_threads(tk_context *ctx, int threads);

/* Memory the context's allocator holds: bytes in live tensors now, the most
 * ever live, bytes cached for reuse, how many times it asked the system, and
 * how many tensors are alive (a leak check). */
typedef struct {
    size_t current_bytes, peak_bytes, cached_bytes;
    uint64_t system_allocs;
    int64_t live_tensors;   /* tensor handles not yet released */
} tk_memory_stats;
void tk_memory_stats_get(const tk_context *ctx, tk_memory_stats *out);
/* Returns every cached block to the system. */
void tk_memory_empty_cache(tk_context *ctx);

/* ---------------------------------------------------------------- profiling */

/* With profiling on (tk_context_opts.profile or $TK_PROFILE=1) the context
 * names, times and counts every op it ran and every kernel it launched;
 * $TK_PROFILE prints the table when the context is freed. */
typedef struct {
    const char *kind;     /* "op", "kernel", or "node" (a node of an ONNX model: "Conv 'conv1'") */
    const char *name;     /* "tk_add", "gemm_f32<256,256,256>", ... */
    uint64_t count;
    double total_ms, min_ms, max_ms;
} tk_profile_record;
void tk_profile_enable(tk_context *ctx, bool on);
/* How many records there are; fills up to max of them into out (NULL to count).
 * The names stay valid until tk_profile_reset or the context is freed. */
size_t tk_profile_records(const tk_context *ctx, tk_profile_record *out, size_t max);
void tk_profile_reset(tk_context *ctx);

/* ---------------------------------------------------------------- arenas */

/* One block of memory a planner places tensors into at offsets of its
 * choosing (by liveness: tensors whose lifetimes do not overlap may share
 * bytes). Placed tensors are contiguous views of the arena's storage and keep
 * it alive: tk_tensor_arena_free only drops the arena's own reference. */
typedef struct tk_tensor_arena tk_tensor_arena;
tk_status tk_tensor_arena_create(tk_context *ctx, size_t bytes, tk_tensor_arena **out);
void tk_tensor_arena_free(tk_tensor_arena *a);
size_t tk_tensor_arena_size(const tk_tensor_arena *a);
/* A tensor at byte `offset` (a multiple of the dtype's size; 64 keeps the
 * kernels' vector loads aligned); it must lie inside the arena. */
tk_status tk_tensor_arena_place(tk_context *ctx, tk_tensor_arena *a, size_t offset, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out);

/* ---------------------------------------------------------------- dtypes */

size_t tk_dtype_size(tk_dtype t);          /* bytes per element; 0 for a value out of range */
const char *tk_dtype_name(tk_dtype t);     /* "f32", "bf16", "i64", "bool", ... */
bool tk_dtype_is_float(tk_dtype t);
/* PyTorch's promotion of two tensor dtypes (bool < ints < floats; f16 with
 * bf16 gives f32); mixed-signedness ints as NumPy (u8 with i8 gives i16,
 * u32 with i32 i64, u64 with any signed int f64). */
tk_dtype tk_promote_types(tk_dtype a, tk_dtype b);

/* ---------------------------------------------------------------- tensors */

tk_tensor *tk_tensor_retain(tk_tensor *t);   /* returns t */
void tk_tensor_release(tk_tensor *t);        /* NULL is fine */

tk_dtype tk_tensor_dtype(const tk_tensor *t);
tk_device_type tk_tensor_device(const tk_tensor *t);
int tk_tensor_ndim(const tk_tensor *t);
const int64_t *tk_tensor_shape(const tk_tensor *t);     /* ndim entries */
const int64_t *tk_tensor_strides(const tk_tensor *t);   /* in elements */
int64_t tk_tensor_size(const tk_tensor *t, int dim);     /* negative dims count from the end; -1 if out of range */
int64_t tk_tensor_offset(const tk_tensor *t);           /* in elements, into the storage */
int64_t tk_tensor_numel(const tk_tensor *t);
bool tk_tensor_is_contiguous(const tk_tensor *t);
/* A 4-d [N, C, H, W] tensor whose memory is NHWC (PyTorch's channels_last):
 * strides [H·W·C, 1, W·C, C], size-1 dims' strides not counted. Convolutions
 * and pools read such a tensor in place and return channels-last results for
 * it; element-wise ops give results in their first full-size operand's
 * channels-last layout (docs/TENSOR_API.md, "Memory layout"). */
bool tk_tensor_is_channels_last(const tk_tensor *t);
/* The first element (storage + offset). Writable unless the tensor was made
 * from const caller memory (tk_from_blob with TK_BLOB_READONLY). */
void *tk_tensor_data(const tk_tensor *t);
/* True when a and b share storage. */
bool tk_tensor_shares_storage(const tk_tensor *a, const tk_tensor *b);

/* ---------------------------------------------------------------- creation */

/* shape has ndim entries (ndim 0 is a scalar tensor of one element); every
 * size must be >= 0. */
tk_status tk_empty(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out);
tk_status tk_zeros(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out);
tk_status tk_ones(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out);
/* value converted to dtype as tk_to_dtype would (ints truncate toward zero). */
tk_status tk_full(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, double value, tk_tensor **out);
tk_status tk_empty_like(tk_context *ctx, const tk_tensor *t, tk_tensor **out);
tk_status tk_zeros_like(tk_context *ctx, const tk_tensor *t, tk_tensor **out);
/* start, start+step, ... below end (above it for a negative step), as torch.arange. */
tk_status tk_arange(tk_context *ctx, tk_dtype dtype, double start, double end, double step, tk_tensor **out);
/* steps values from start to end inclusive, as torch.linspace. */
tk_status tk_linspace(tk_context *ctx, tk_dtype dtype, double start, double end, int64_t steps, tk_tensor **out);
/* n × m with ones on the diagonal (m < 0: square). */
tk_status tk_eye(tk_context *ctx, tk_dtype dtype, int64_t n, int64_t m, tk_tensor **out);
/* Uniform in [low, high) and normal(mean, std), from a counter-based
 * generator (Philox 4x32-10) keyed by seed: element i is a function of (seed,
 * i) alone, so the numbers are the same on every thread count. Float dtypes. */
tk_status tk_rand(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, uint64_t seed, double low, double high,
                  tk_tensor **out);
tk_status tk_randn(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, uint64_t seed, tk_tensor **out);

/* A tensor over caller memory. BORROWED: the caller keeps data alive until
 * the last tensor over it is released, then deleter(data, deleter_arg) runs
 * if it is not NULL. strides NULL: contiguous. */
typedef enum { TK_BLOB_WRITABLE = 0, TK_BLOB_READONLY = 1 } tk_blob_flags;
tk_status tk_from_blob(tk_context *ctx, void *data, tk_dtype dtype, int ndim, const int64_t *shape, const int64_t *strides,
                       unsigned flags, void (*deleter)(void *data, void *arg), void *deleter_arg, tk_tensor **out);
/* A new contiguous tensor holding a copy of contiguous caller memory. */
tk_status tk_from_data(tk_context *ctx, const void *data, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out);
/* Copies t's elements, in row-major order, into dst (bytes long). */
tk_status tk_to_data(tk_context *ctx, const tk_tensor *t, void *dst, size_t bytes);
/* A contiguous copy of t on ctx's device (t may live on any context's
 * device): the way tensors move between the CPU and a GPU, as PyTorch's
 * t.to(device). The result belongs to ctx. */
tk_status tk_tensor_to(tk_context *ctx, const tk_tensor *t, tk_tensor **out);

/* ---------------------------------------------------------------- copies and conversion */

/* A contiguous tensor of dtype (rounding to nearest even for bf16/f16,
 * truncation toward zero for float → int, saturation never: out-of-range
 * values follow C's conversion of the clamped value, NaN → 0 for ints). */
tk_status tk_to_dtype(tk_context *ctx, const tk_tensor *t, tk_dtype dtype, tk_tensor **out);
/* A contiguous copy (a new tensor even when t is contiguous). */
tk_status tk_clone(tk_context *ctx, const tk_tensor *t, tk_tensor **out);
/* Copies src into dst (shapes broadcastable to dst's, dtypes converted). */
tk_status tk_copy_(tk_context *ctx, tk_tensor *dst, const tk_tensor *src);
/* Fills every element of t. */
tk_status tk_fill_(tk_context *ctx, tk_tensor *t, double value);
/* The element at the multi-index as a double (ints exact up to 2^53). */
tk_status tk_item(tk_context *ctx, const tk_tensor *t, const int64_t *index, double *out);

/* Prints a short description (and up to `max_elems` elements) to a string the
 * caller frees with free(); NULL if out of memory. */
char *tk_tensor_describe(const tk_tensor *t, int max_elems);

#ifdef __cplusplus
}
#endif

#endif
