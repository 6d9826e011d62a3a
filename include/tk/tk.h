/* tk/tk.h — all of TileKit's C API: the compiler (tk/compiler.h) and the
 * tensor runtime (tensor, shape, ops, nn, io, dlpack, call) and the ONNX
 * loader (onnx). */
#ifndef TK_TK_H
#define TK_TK_H

#include "tk/call.h"
#include "tk/compiler.h"
#include "tk/dlpack.h"
#include "tk/io.h"
#include "tk/nn.h"
#include "tk/onnx.h"
#include "tk/ops.h"
#include "tk/shape.h"
#include "tk/tensor.h"

#endif
