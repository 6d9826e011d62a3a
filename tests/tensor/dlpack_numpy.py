#!/usr/bin/env python3
"""dlpack_numpy.py SHIM — NumPy and the tensor runtime share memory through DLPack.

SHIM is the shared library built from dlpack_shim.c (the runtime behind a few
plain C functions, loaded with ctypes). Checked, each way:
  tk -> NumPy: a tensor exported with tk_to_dlpack(_legacy) in a PyCapsule
      ("dltensor" for NumPy < 2.1, "dltensor_versioned" when NumPy asks for
      max_version >= 1.0) and taken by np.from_dlpack: the array's address is
      the tensor's, a write through our tensor shows in the array (and one
      through the array shows in the tensor where NumPy makes it writable:
      NumPy < 2 marks from_dlpack arrays read-only), strides survive.
  NumPy -> tk: an array's __dlpack__() capsule taken by tk_from_dlpack(_legacy):
      same address, writes both ways, NumPy's deleter runs when our last
      reference goes (the array is freed then, not before).
  Both release orders, capsules nobody consumes, and refused imports (negative
  strides) that leave the capsule to NumPy. No tensor may be left alive.

Run with the system interpreter (/usr/bin/python3, NumPy >= 1.22 for np.from_dlpack)."""
import ctypes
import gc
import sys
import weakref

import numpy as np

if len(sys.argv) != 2:
    sys.exit(__doc__)
if not hasattr(np, "from_dlpack"):
    sys.exit(f"dlpack_numpy.py: NumPy {np.__version__} has no from_dlpack (1.22 or later has)")

lib = ctypes.CDLL(sys.argv[1])
P, I64 = ctypes.c_void_p, ctypes.c_int64
for name, res, args in [
    ("shim_ctx_new", P, []), ("shim_ctx_free", None, [P]), ("shim_error", ctypes.c_char_p, [P]),
    ("shim_live_tensors", I64, [P]), ("shim_arange", P, [P, ctypes.c_int, I64]),
    ("shim_view", P, [P, P, ctypes.c_int, ctypes.POINTER(I64), ctypes.POINTER(I64)]),
    ("shim_release", None, [P]), ("shim_data", P, [P]), ("shim_dtype", ctypes.c_int, [P]),
    ("shim_ndim", ctypes.c_int, [P]), ("shim_size", I64, [P, ctypes.c_int]), ("shim_stride", I64, [P, ctypes.c_int]),
    ("shim_get", ctypes.c_double, [P, P, ctypes.POINTER(I64)]), ("shim_fill", ctypes.c_int, [P, P, ctypes.c_double]),
    ("shim_to_dlpack", P, [P, P, ctypes.c_int]), ("shim_from_dlpack", P, [P, P, ctypes.c_int]),
    ("shim_delete_managed", None, [P, ctypes.c_int]), ("shim_unconsumed_capsules", ctypes.c_int, []),
]:
    fn = getattr(lib, name)
    fn.restype, fn.argtypes = res, args

# tk_dtype values (tk/types.h) and the NumPy dtypes DLPack gives them
TK = {"bool": 0, "i32": 1, "i64": 2, "f32": 3, "f16": 4, "bf16": 5, "f64": 6, "i8": 7, "i16": 8, "u8": 9,
      "u16": 10, "u32": 11, "u64": 12}
NP = {"i32": np.int32, "i64": np.int64, "f32": np.float32, "f16": np.float16, "f64": np.float64, "i8": np.int8,
      "i16": np.int16, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "bool": np.bool_}

# ---------------------------------------------------------------- capsules through the C API
api = ctypes.pythonapi
Destructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
capsule_new = api.PyCapsule_New
capsule_new.restype, capsule_new.argtypes = ctypes.py_object, [P, ctypes.c_char_p, Destructor]
capsule_get = api.PyCapsule_GetPointer
capsule_get.restype, capsule_get.argtypes = P, [ctypes.py_object, ctypes.c_char_p]
capsule_set_name = api.PyCapsule_SetName
capsule_set_name.restype, capsule_set_name.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]
LEGACY, VERSIONED = b"dltensor", b"dltensor_versioned"
# the destructor of exported capsules is C (dlpack_shim.c): it runs while the
# capsule is freed, maybe with an exception pending, when no Python may run
destroy_capsule = ctypes.cast(lib.shim_capsule_destructor, Destructor)


class Exported:
    """A tk tensor behind the __dlpack__ protocol (what a Python binding of the runtime would do)."""

    def __init__(self, ctx, t):
        self.ctx, self.t = ctx, t

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        versioned = max_version is not None and max_version[0] >= 1
        m = lib.shim_to_dlpack(self.ctx, self.t, int(versioned))
        if not m:
            raise BufferError(lib.shim_error(self.ctx).decode())
        return capsule_new(m, VERSIONED if versioned else LEGACY, destroy_capsule)

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


def index(*ix):
    return (I64 * max(len(ix), 1))(*ix)


def check(cond, what):
    if not cond:
        sys.exit(f"dlpack_numpy.py: FAILED: {what}")


ctx = lib.shim_ctx_new()
check(ctx, "a context")


def live():
    gc.collect()
    return lib.shim_live_tensors(ctx)


# ---------------------------------------------------------------- tk -> NumPy
for dname, npdt in NP.items():
    t = lib.shim_arange(ctx, TK[dname], 10)
    check(t, f"arange {dname}")
    try:
        arr = np.from_dlpack(Exported(ctx, t))
    except (BufferError, TypeError, RuntimeError) as e:
        # NumPy 1.24 takes no bool through DLPack; newer ones do
        check(dname == "bool", f"np.from_dlpack of {dname}: {e}")
        lib.shim_release(t)
        continue
    check(arr.dtype == npdt and arr.shape == (10,), f"{dname}: dtype {arr.dtype} shape {arr.shape}")
    check(arr.ctypes.data == lib.shim_data(t), f"{dname}: NumPy's array is a copy (address differs)")
    check(np.array_equal(arr, np.arange(10).astype(npdt)), f"{dname}: values")
    check(lib.shim_fill(ctx, t, 1) == 0, f"{dname}: fill")  # write through ours, read through NumPy
    check((arr == 1).all(), f"{dname}: a write through the tensor does not show in NumPy")
    want = np.ones(10, npdt)
    if arr.flags.writeable:  # NumPy >= 2: write through NumPy, read through ours
        arr[3] = want[3] = 0
        check(lib.shim_get(ctx, t, index(3)) == 0, f"{dname}: a write through NumPy does not show in the tensor")
    if dname == "f32":  # release order: our tensor first; the array keeps the memory
        lib.shim_release(t)
        gc.collect()
        check(np.array_equal(arr, want), "f32: the array after the tensor's release")
        check(live() == 1, "the export holds one reference while NumPy's array lives")
        del arr
        check(live() == 0, "NumPy's array died but the tensor lives on")
    else:  # the array first, then the tensor
        del arr
        check(live() == 1, f"{dname}: the exported reference was not given back")
        check(lib.shim_get(ctx, t, index(0)) == 1, f"{dname}: the tensor after the array's death")
        lib.shim_release(t)
check(live() == 0, "tensors left alive after tk -> NumPy")

# a transposed view: strides (elements in DLPack, bytes in NumPy)
base = lib.shim_arange(ctx, TK["f64"], 24)
view = lib.shim_view(ctx, base, 2, index(6, 4), index(1, 6))
arr = np.from_dlpack(Exported(ctx, view))
check(arr.shape == (6, 4) and arr.strides == (8, 48), f"transposed view: shape {arr.shape} strides {arr.strides}")
check(np.array_equal(arr, np.arange(24.0).reshape(4, 6).T), "transposed view: values")
del arr
lib.shim_release(view)
lib.shim_release(base)

# a capsule nobody consumes: its destructor calls the deleter, the reference comes back
t = lib.shim_arange(ctx, TK["i32"], 5)
unconsumed = lib.shim_unconsumed_capsules()  # NumPy may have refused one above (bool)
cap = Exported(ctx, t).__dlpack__()
check(live() == 1, "the unconsumed capsule holds no reference")
del cap
gc.collect()
check(lib.shim_unconsumed_capsules() == unconsumed + 1, "the unconsumed capsule's deleter did not run")
lib.shim_release(t)
check(live() == 0, "an unconsumed capsule leaked its tensor reference")

# the versioned capsule, consumed by us (NumPy >= 2.1 takes it itself above when it passes max_version)
t = lib.shim_arange(ctx, TK["f32"], 6)
cap = Exported(ctx, t).__dlpack__(max_version=(1, 0))
m = capsule_get(cap, VERSIONED)
back = lib.shim_from_dlpack(ctx, m, 1)
check(back, f"tk_from_dlpack of our own versioned capsule: {lib.shim_error(ctx)}")
capsule_set_name(cap, b"used_dltensor_versioned")
check(lib.shim_data(back) == lib.shim_data(t), "versioned round trip: a copy")
del cap
lib.shim_release(t)
lib.shim_release(back)
check(live() == 0 and lib.shim_unconsumed_capsules() == unconsumed + 1, "versioned capsule: references")

# ---------------------------------------------------------------- NumPy -> tk


def take(a, name=LEGACY):
    """a's memory as a tk tensor, the capsule marked used as the protocol says; None if refused."""
    cap = a.__dlpack__()
    t = lib.shim_from_dlpack(ctx, capsule_get(cap, name), 0)
    if t:
        capsule_set_name(cap, b"used_dltensor")
    return t  # a refused capsule keeps its name: NumPy's destructor frees it


for dname, npdt in NP.items():
    if dname == "bool":
        continue  # NumPy 1.24 exports no bool
    for order in ("tk first", "numpy first"):
        a = np.arange(12).astype(npdt).reshape(3, 4)
        alive = weakref.ref(a)
        t = take(a)
        check(t, f"{dname}: tk_from_dlpack_legacy: {lib.shim_error(ctx)}")
        check(lib.shim_data(t) == a.ctypes.data, f"{dname}: the tensor is a copy (address differs)")
        check(lib.shim_dtype(t) == TK[dname] and lib.shim_ndim(t) == 2 and lib.shim_size(t, 1) == 4, f"{dname}: geometry")
        a[2, 3] = 7  # write through NumPy, read through ours
        check(lib.shim_get(ctx, t, index(2, 3)) == 7, f"{dname}: a write through NumPy does not show in the tensor")
        check(lib.shim_fill(ctx, t, 5) == 0, f"{dname}: fill")  # write through ours, read through NumPy
        check((a == 5).all(), f"{dname}: a write through the tensor does not show in NumPy")
        if order == "tk first":
            lib.shim_release(t)
            check((a == 5).all(), f"{dname}: the array after the tensor's release")
            del a
        else:
            del a
            gc.collect()
            check(alive() is not None, f"{dname}: NumPy freed the array while our tensor uses it")
            check(lib.shim_get(ctx, t, index(1, 1)) == 5, f"{dname}: the tensor after NumPy let go")
            lib.shim_release(t)  # NumPy's deleter runs: the array goes now
        gc.collect()
        check(alive() is None, f"{dname} ({order}): the array outlived every user (NumPy's deleter did not run)")

# a strided slice keeps its strides; a reversed one is refused and stays NumPy's
a = np.arange(20, dtype=np.float32).reshape(4, 5)
t = take(a[:, ::2])
check(t and lib.shim_stride(t, 0) == 5 and lib.shim_stride(t, 1) == 2, "a strided slice's strides (in elements)")
check(lib.shim_get(ctx, t, index(3, 2)) == 19, "a strided slice's values")
lib.shim_release(t)
r = a[::-1]
alive = weakref.ref(a)
check(take(r) is None, "a reversed array was imported")
msg = lib.shim_error(ctx).decode()
check("negative" in msg and "stride" in msg, f"the refusal's message: {msg}")
del a, r
gc.collect()
check(alive() is None, "a refused capsule was not freed by NumPy")

check(live() == 0, "tensors left alive at the end")
lib.shim_ctx_free(ctx)
print(f"dlpack_numpy.py: ok (NumPy {np.__version__})")
