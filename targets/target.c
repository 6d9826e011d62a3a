/* target.c — see target.h. */
#include "target.h"

#include "launch.h"
#include "cpu_mma.h"   /* tk_features_include */

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const TkTarget targets[] = {
    /* name                 kind            triple                       cpu          features          description */
    { "host",              TK_TARGET_CPU,  NULL,                        NULL,        NULL,
      "the CPU tkc runs on, with all its features" },
    { "x86-64-amx",        TK_TARGET_CPU,  "x86_64-unknown-linux-gnu",  "x86-64-v4",
      "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx512bf16,+amx-tile,+amx-bf16,+avx2,+fma",
      "x86-64 with AMX-BF16 (Sapphire Rapids and later): tdpbf16ps tile micro-kernels for bf16, zmm FMA for f32" },
    { "x86-64-avx512bf16", TK_TARGET_CPU,  "x86_64-unknown-linux-gnu",  "x86-64-v4",
      "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx512bf16,+avx2,+fma",
      "x86-64 with AVX-512 and AVX512-BF16 (Zen 4/5, Sapphire Rapids): vdpbf16ps micro-kernels" },
    { "x86-64-avx512",     TK_TARGET_CPU,  "x86_64-unknown-linux-gnu",  "x86-64-v4",
      "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma",
      "x86-64 with AVX-512 (Skylake-X and later): zmm FMA micro-kernels" },
    { "x86-64-avx2",       TK_TARGET_CPU,  "x86_64-unknown-linux-gnu",  "x86-64-v3", "+avx2,+fma",
      "x86-64 with AVX2 and FMA (Haswell and later): ymm FMA micro-kernels" },
    { "x86-64",            TK_TARGET_CPU,  "x86_64-unknown-linux-gnu",  "x86-64",    "+sse2",
      "any x86-64 (SSE2 only): LLVM generic-vector micro-kernels" },
    { "aarch64-neon",      TK_TARGET_CPU,  "aarch64-unknown-linux-gnu", "generic",   "+neon",
      "AArch64 with NEON: fmla micro-kernels" },
    { "aarch64-neon-bf16", TK_TARGET_CPU,  "aarch64-unknown-linux-gnu", "generic",   "+neon,+bf16",
      "AArch64 with NEON and BF16 (bfdot, bfmmla)" },
    { "gfx942",            TK_TARGET_AMDGPU, "amdgcn-amd-amdhsa",       "gfx942",    "",
      "AMD CDNA3 (MI300): MFMA 32x32x8 bf16, wave64 (code generation only, register-tile subset)" },
    { "gfx950",            TK_TARGET_AMDGPU, "amdgcn-amd-amdhsa",       "gfx950",    "",
      "AMD CDNA4 (MI350): MFMA 32x32x16 bf16, wave64 (code generation only, register-tile subset)" },
    { "gfx1100",           TK_TARGET_AMDGPU, "amdgcn-amd-amdhsa",       "gfx1100",   "",
      "AMD RDNA3: WMMA 16x16x16 bf16, wave32 (code generation only, register-tile subset)" },
    { "gfx1151",           TK_TARGET_AMDGPU, "amdgcn-amd-amdhsa",       "gfx1151",   "",
      "AMD RDNA3.5: WMMA 16x16x16 bf16, wave32 (code generation only, register-tile subset)" },
    { "gfx1201",           TK_TARGET_AMDGPU, "amdgcn-amd-amdhsa",       "gfx1201",   "",
      "AMD RDNA4: WMMA 16x16x16 bf16, wave32 (code generation only, register-tile subset; gfx12 A/B lane split unverified on hardware)" },
    { "sm_80",             TK_TARGET_NVPTX, "nvptx64-nvidia-cuda",      "sm_80",     "+ptx70",
      "NVIDIA Ampere (A100): PTX with mma.sync m16n8k16, ldmatrix, cp.async" },
    { "sm_90",             TK_TARGET_NVPTX, "nvptx64-nvidia-cuda",      "sm_90",     "+ptx80",
      "NVIDIA Hopper (H100, H200): PTX with mma.sync m16n8k16, ldmatrix, cp.async, TMA loads of shared tiles (sm_90a adds wgmma)" },
    { "sm_90a",            TK_TARGET_NVPTX, "nvptx64-nvidia-cuda",      "sm_90a",    "+ptx80",
      "NVIDIA Hopper, arch-specific PTX: wgmma.mma_async for products with B from a shared tile, mma.sync for the rest; TMA loads" },
    { "sm_80-emu",         TK_TARGET_EMU,   NULL,                       "sm_80",     NULL,
      "the sm_80 lowering run on this CPU with GPU semantics (32-lane warps, fragments, mma.sync from the PTX ISA): tkc run" },
    { "sm_90a-emu",        TK_TARGET_EMU,   NULL,                       "sm_90a",    NULL,
      "the sm_90a lowering (wgmma from the PTX ISA, warpgroups of 4 warps) run on this CPU: tkc run" },
};

const TkTarget *tk_target_table(unsigned *count)
{
    *count = sizeof targets / sizeof targets[0];
    return targets;
}

const TkTarget *tk_target_find(const char *name)
{
    for (unsigned i = 0; i < sizeof targets / sizeof targets[0]; i++)
        if (strcmp(targets[i].name, name) == 0) return &targets[i];
    return NULL;
}

static char *dup_llvm(char *s)
{
    char *d = strdup(s ? s : "");
    LLVMDisposeMessage(s);
    return d;
}

/* Turns every "+amx-..." of an LLVM feature list into "-amx-...": the host
 * has the tile unit but the system will not hand out its state. */
static void drop_amx(char *features)
{
    for (char *p = features; (p = strstr(p, "+amx-")) != NULL; p++) *p = '-';
}

int tk_target_resolve(const TkTarget *t, TkResolvedTarget *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->target = t;
    LLVMInitializeAllTargetInfos();
    LLVMInitializeAllTargets();
    LLVMInitializeAllTargetMCs();
    LLVMInitializeAllAsmPrinters();
    if (!t->triple) {
        out->triple = dup_llvm(LLVMGetDefaultTargetTriple());
        out->cpu = dup_llvm(LLVMGetHostCPUName());
        out->features = dup_llvm(LLVMGetHostCPUFeatures());
        if (out->features && !tk_cpu_amx_permit()) drop_amx(out->features);
    } else {
        out->triple = strdup(t->triple);
        out->cpu = strdup(t->cpu);
        out->features = strdup(t->features);   /* explicit: they also choose the micro-kernels */
    }
    if (!out->triple || !out->cpu || !out->features) {
        tk_target_resolved_free(out);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

void tk_target_resolved_free(TkResolvedTarget *r)
{
    free(r->triple);
    free(r->cpu);
    free(r->features);
    memset(r, 0, sizeof *r);
}

bool tk_target_runs_here(const TkResolvedTarget *r)
{
    if (r->target->kind != TK_TARGET_CPU) return false;
    char *host_triple = LLVMGetDefaultTargetTriple();
    bool same_arch = strncmp(host_triple, r->triple, strcspn(r->triple, "-")) == 0;
    LLVMDisposeMessage(host_triple);
    if (!same_arch) return false;
    char *host = LLVMGetHostCPUFeatures();
    bool ok = tk_features_include(host, r->features) && (!strstr(r->features, "+amx-") || tk_cpu_amx_permit());
    LLVMDisposeMessage(host);
    return ok;
}

unsigned tk_target_default_keys(const TkTarget *t, const char *keys[3])
{
    if (t && (t->kind == TK_TARGET_AMDGPU || t->kind == TK_TARGET_NVPTX || t->kind == TK_TARGET_EMU)) {
        keys[0] = t->cpu;   /* the processor: sm_90a, gfx942 (the emulation targets: the one they emulate) */
        keys[1] = t->kind == TK_TARGET_AMDGPU ? "amdgpu" : "nvptx";
        keys[2] = "gpu";
        return 3;
    }
    /* a CPU target without a triple is the host */
#if defined(__aarch64__)
    bool arm = !t || !t->triple || strncmp(t->triple, "aarch64", 7) == 0;
#else
    bool arm = t && t->triple && strncmp(t->triple, "aarch64", 7) == 0;
#endif
    keys[0] = arm ? "aarch64" : "x86";
    keys[1] = "cpu";
    return 2;
}
