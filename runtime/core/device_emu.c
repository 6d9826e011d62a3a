/* device_emu.c — the emulated GPU (TK_DEVICE_CUDA_EMU): a context whose ops
 * run the NVIDIA GPU lowering of their kernels on the CPU through the
 * emulation target sm_80-emu (targets/emu/emu.h: 32 lanes per warp, the
 * fragment layouts, shared memory, barriers). Its memory is host memory, but
 * it behaves as a GPU's does: the runtime's CPU ops refuse its tensors, and
 * only kernels compiled for sm_80-emu run here. So every path of the runtime
 * that a CUDA context takes can be tested on a machine without a GPU. */
#include <stdio.h>
#include <stdlib.h>

#include "compiler_gpu.h"
#include "device.h"

static tk_status emu_run(const TkrDevice *d, tk_kernel *k, const tk_arg *args, unsigned nargs, int threads, char *err, size_t errlen)
{
    if (tkr_kernel_target_kind(k) != TK_TARGET_EMU) {
        snprintf(err, errlen, "kernel %s was compiled for %s; a %s context runs kernels compiled for %s", tk_kernel_name(k),
                 tkr_kernel_target(k) ? tkr_kernel_target(k) : "the host", d->name, d->target);
        return TK_ERR_TARGET;
    }
    return tkr_host_run(d, k, args, nargs, threads, err, errlen);
}

static void emu_close(TkrDevice *d) { free(d); }

tk_status tkr_emu_device_open(TkrDevice **out, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    TkrDevice *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "tk_context_create: out of memory");
        return TK_ERR_OUT_OF_MEMORY;
    }
    *d = (TkrDevice){
        .name = "cuda-emu",
        .type = TK_DEVICE_CUDA_EMU,
        .host_ops = false,
        .target = "sm_80-emu",
        .alloc = tkr_host_alloc,
        .free = tkr_host_free,
        .copy = tkr_host_copy,
        .to_host = tkr_host_copy,
        .from_host = tkr_host_copy,
        .run = emu_run,
        .close = emu_close,
    };
    *out = d;
    return TK_OK;
}
