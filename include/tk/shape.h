/* tk/shape.h — views and shape ops. Ownership and errors as in tk/tensor.h.
 *
 * Calls marked VIEW never copy: the result shares the input's storage (a
 * write through one is seen through the other), as in PyTorch. The others
 * make new contiguous tensors. Axes may be negative (counted from the end). */
#ifndef TK_SHAPE_H
#define TK_SHAPE_H

#include "tk/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* VIEW when the strides allow it, else a copy (torch.reshape); one size may be -1. */
tk_status tk_reshape(tk_context *ctx, const tk_tensor *t, int ndim, const int64_t *shape, tk_tensor **out);
/* VIEW or an error naming why it cannot be one (torch.Tensor.view). */
tk_status tk_view(tk_context *ctx, const tk_tensor *t, int ndim, const int64_t *shape, tk_tensor **out);
/* VIEW: dims is a permutation of 0 .. ndim-1. */
tk_status tk_permute(tk_context *ctx, const tk_tensor *t, const int *dims, tk_tensor **out);
/* VIEW: swaps two dims. */
tk_status tk_transpose(tk_context *ctx, const tk_tensor *t, int dim0, int dim1, tk_tensor **out);
/* VIEW: t[..., start:end:step, ...] along dim with Python's rules (negative
 * start/end count from the end, both clamped); step >= 1. */
tk_status tk_slice(tk_context *ctx, const tk_tensor *t, int dim, int64_t start, int64_t end, int64_t step, tk_tensor **out);
/* VIEW: t[..., index, ...] along dim, dropping dim (negative index from the end). */
tk_status tk_select(tk_context *ctx, const tk_tensor *t, int dim, int64_t index, tk_tensor **out);
/* VIEW: size-1 dims broadcast to shape (stride 0); -1 keeps a size; new leading dims allowed. */
tk_status tk_expand(tk_context *ctx, const tk_tensor *t, int ndim, const int64_t *shape, tk_tensor **out);
/* VIEW: drops dim if its size is 1 (else returns a view of t unchanged, as PyTorch). */
tk_status tk_squeeze(tk_context *ctx, const tk_tensor *t, int dim, tk_tensor **out);
/* VIEW: drops every size-1 dim. */
tk_status tk_squeeze_all(tk_context *ctx, const tk_tensor *t, tk_tensor **out);
/* VIEW: inserts a size-1 dim at dim (in -(ndim+1) .. ndim). */
tk_status tk_unsqueeze(tk_context *ctx, const tk_tensor *t, int dim, tk_tensor **out);
/* dims start_dim .. end_dim merged into one (a VIEW when possible, as reshape). */
tk_status tk_flatten(tk_context *ctx, const tk_tensor *t, int start_dim, int end_dim, tk_tensor **out);
/* t itself (a new reference) if contiguous, else a contiguous copy. */
tk_status tk_contiguous(tk_context *ctx, const tk_tensor *t, tk_tensor **out);
/* x.contiguous(memory_format=torch.channels_last): t (4-d) itself (a new
 * reference) if channels-last already, else a copy whose memory is NHWC
 * under the same [N, C, H, W] shape (tk_tensor_is_channels_last). */
tk_status tk_to_channels_last(tk_context *ctx, const tk_tensor *t, tk_tensor **out);

/* Joins n tensors along an existing dim (cat) or a new one (stack); dtypes promote. */
tk_status tk_cat(tk_context *ctx, const tk_tensor *const *ts, int n, int dim, tk_tensor **out);
tk_status tk_stack(tk_context *ctx, const tk_tensor *const *ts, int n, int dim, tk_tensor **out);
/* VIEWs: n pieces of the given sizes along dim (each >= 0; they must add up
 * to its size); outs has n entries (all NULL on failure). */
tk_status tk_split(tk_context *ctx, const tk_tensor *t, const int64_t *sizes, int n, int dim, tk_tensor **outs);
/* VIEWs: torch.chunk — up to `chunks` pieces of ceil(size/chunks); *n_out
 * says how many were made (outs must have room for `chunks`; an empty dim
 * gives `chunks` empty pieces, as torch). */
tk_status tk_chunk(tk_context *ctx, const tk_tensor *t, int chunks, int dim, tk_tensor **outs, int *n_out);

/* out = t.index_select(dim, index): index is a 1-d (or one-entry 0-d) i32/i64
 * tensor; negative entries count from the end (torch.index_select rejects
 * them); out of range is an error naming the entry. */
tk_status tk_index_select(tk_context *ctx, const tk_tensor *t, int dim, const tk_tensor *index, tk_tensor **out);
/* torch.gather: out[i][j] = t[index[i][j]][j] for dim 0, and so on; index
 * (i32 or i64; torch takes i64 only) has t's ndim and is no larger than t
 * outside dim; entries are in [0, size of dim) (negatives are an error). */
tk_status tk_gather(tk_context *ctx, const tk_tensor *t, int dim, const tk_tensor *index, tk_tensor **out);
/* torch.scatter (out = a copy of t with src's values written at index along
 * dim) and its reductions (ADD, MUL: integers wrap; bool + is or, * is and).
 * index as for tk_gather, no larger than src anywhere; src has t's dtype.
 * Duplicate entries along dim apply in index order on any thread count: a
 * later one wins for TK_SCATTER_NONE (torch leaves that undefined). */
typedef enum { TK_SCATTER_NONE, TK_SCATTER_ADD, TK_SCATTER_MUL } tk_scatter_reduce;
tk_status tk_scatter(tk_context *ctx, const tk_tensor *t, int dim, const tk_tensor *index, const tk_tensor *src,
                     tk_scatter_reduce reduce, tk_tensor **out);

/* torch.nn.functional.pad: pads holds 2·n amounts, the last dim first
 * (left, right, then the dim before, ...); negative amounts crop. Every mode
 * pads any n <= ndim trailing dims (torch's non-constant modes want batch
 * dims); reflect needs amounts below the dim's size, circular at most it. */
typedef enum { TK_PAD_CONSTANT, TK_PAD_REFLECT, TK_PAD_REPLICATE, TK_PAD_CIRCULAR } tk_pad_mode;
tk_status tk_pad(tk_context *ctx, const tk_tensor *t, const int64_t *pads, int npads, tk_pad_mode mode, double value,
                 tk_tensor **out);
/* Reverses the given dims (a copy: strides are never negative). */
tk_status tk_flip(tk_context *ctx, const tk_tensor *t, const int *dims, int ndims, tk_tensor **out);
/* torch.roll: shifts[i] along dims[i]; ndims 0 rolls the flattened tensor by shifts[0]. */
tk_status tk_roll(tk_context *ctx, const tk_tensor *t, const int64_t *shifts, const int *dims, int ndims, tk_tensor **out);
/* torch.Tensor.repeat: tiles t repeats[i] times along dim i (ndim >= t's). */
tk_status tk_repeat(tk_context *ctx, const tk_tensor *t, int ndim, const int64_t *repeats, tk_tensor **out);
/* Lower / upper triangle of the last two dims, relative to `diagonal`. */
tk_status tk_tril(tk_context *ctx, const tk_tensor *t, int64_t diagonal, tk_tensor **out);
tk_status tk_triu(tk_context *ctx, const tk_tensor *t, int64_t diagonal, tk_tensor **out);

#ifdef __cplusplus
}
#endif

#endif
