/* tkc — the TileKit compiler driver. The pipeline reads top to bottom:
 *   load → lex → parse → check → (emit)
 * Exit status: 0 clean, 1 errors in the input, 2 usage or I/O problems. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "front.h"
#include "amdgpu.h"
#include "compile_cuda.h"
#include "nvptx.h"
#include "emu.h"
#include "cpu_jit.h"
#include "header.h"
#include "llvm_emit.h"
#include "target.h"
#include "tir_passes.h"
#include "lower.h"
#include "run.h"
#include "stats.h"

#ifndef TK_VERSION
#define TK_VERSION "dev"
#endif

enum { EXIT_CLEAN = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2 };

typedef enum { EMIT_NONE, EMIT_TOKENS, EMIT_AST, EMIT_TIR, EMIT_LLVM, EMIT_ASM, EMIT_OBJ, EMIT_PTX } Emit;

typedef struct {
    bool check;
    bool compile;         /* -c: object + header */
    bool debug;           /* -g: DWARF line tables pointing at the .tk source */
    int opt_level;        /* -O0 .. -O3 (default 3) */
    const char *dump;     /* --emit=tir: "all" (-d) or pass names (--dump=a,b) to print after */
    const char *target;
    Emit emit;
    bool json;
    bool stats;           /* --stats: GPU resource usage per kernel */
    const char *output;
    const char **files;
    int nfiles;
    const char **instances;   /* --instance NAME<...> (repeatable) */
    int ninstances;
} Options;

static void usage(FILE *out)
{
    fputs("usage: tkc check [options] FILE.tk...   check kernels, print diagnostics\n"
          "       tkc run FILE.tk [--kernel NAME] --size M=..,N=.. [--check] [--json] [--threads N] ...\n"
          "                                        run a kernel on the CPU, check it against a reference, time it\n"
          "                                        (every option, the pass rule and the JSON: `tkc help run`)\n"
          "       tkc --emit=STAGE [options] FILE.tk\n"
          "\n"
          "stages:\n"
          "  tokens   one token per line: line:col kind 'text'\n"
          "  ast      the parsed program printed back as canonical .tk source\n"
          "  tir      the tile IR of every kernel, each op with its .tk line\n"
          "  llvm     LLVM IR for the target, optimised at O3\n"
          "  asm      assembly for the target\n"
          "  ptx      PTX for an NVIDIA target (sm_80, sm_90, sm_90a): its assembly\n"
          "  obj      an object file (-c also writes a C header beside it)\n"
          "\n"
          "options:\n"
          "  --diagnostics=text|json  diagnostics as text (default) or one JSON object per line\n"
          "  -o FILE                  write the emitted stage to FILE instead of stdout\n"
          "  -c FILE.tk -o FILE.o     compile to an object and write FILE.h with a typed launch function per kernel\n"
          "                           (for sm_*: the PTX, a cubin where ptxas is, and NAME_cuda(...) over libtkrt)\n"
          "  --target=NAME            generate code for NAME (default: host); see --list-targets\n"
          "  --instance 'K<V,...>'    also compile that instance of generic kernel K (repeatable; --kernel is the same)\n"
          "  -g                       DWARF line tables: gdb, perf and valgrind show .tk file:line\n"
          "  -O0 .. -O3               LLVM optimisation level (default -O3)\n"
          "  -d, --dump=PASS,...      with --emit=tir: print the TIR after every pass (lower, forward, plan-shared, legalise, layout)\n"
          "  --list-targets           print the targets and what each one uses\n"
          "  --stats                  with an NVIDIA --target: registers, shared memory, spills, occupancy\n"
          "                           (ptxas -v where the CUDA toolkit is installed) and mma per K step\n"
          "  --version                print the version\n"
          "  --help                   print this help (`tkc help run`: the help of tkc run)\n"
          "\n"
          "exit status: 0 no errors, 1 errors in the input, 2 usage or I/O problem\n",
          out);
}

static int parse_args(int argc, char **argv, Options *o)
{
    memset(o, 0, sizeof *o);
    o->opt_level = 3;
    o->files = calloc((size_t)argc, sizeof *o->files);
    o->instances = calloc((size_t)argc, sizeof *o->instances);
    if (!o->files || !o->instances) return -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "check") == 0 && i == 1) o->check = true;
        else if (strcmp(a, "--emit=tokens") == 0) o->emit = EMIT_TOKENS;
        else if (strcmp(a, "--emit=ast") == 0) o->emit = EMIT_AST;
        else if (strcmp(a, "--emit=tir") == 0) o->emit = EMIT_TIR;
        else if (strcmp(a, "--emit=llvm") == 0) o->emit = EMIT_LLVM;
        else if (strcmp(a, "--emit=asm") == 0) o->emit = EMIT_ASM;
        else if (strcmp(a, "--emit=obj") == 0) o->emit = EMIT_OBJ;
        else if (strcmp(a, "--emit=ptx") == 0) o->emit = EMIT_PTX;
        else if (strcmp(a, "--stats") == 0) {
            o->stats = true;
            o->emit = EMIT_PTX;
        }
        else if (strcmp(a, "-g") == 0) o->debug = true;
        else if (strcmp(a, "-d") == 0) o->dump = "all";
        else if (strncmp(a, "--dump=", 7) == 0) o->dump = a + 7;
        else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && a[3] == '\0') o->opt_level = a[2] - '0';
        else if (strcmp(a, "-c") == 0) {
            o->compile = true;
            o->emit = EMIT_OBJ;
        } else if (strncmp(a, "--target=", 9) == 0) {
            o->target = a + 9;
            if (!tk_target_find(o->target)) {
                fprintf(stderr, "tkc: unknown target '%s' (see tkc --list-targets)\n", o->target);
                return -1;
            }
        }
        else if (strncmp(a, "--emit=", 7) == 0) {
            fprintf(stderr, "tkc: unknown stage '%s' (this build emits: tokens, ast, tir, llvm, asm, obj, ptx)\n", a + 7);
            return -1;
        } else if (strcmp(a, "--diagnostics=json") == 0) o->json = true;
        else if (strcmp(a, "--diagnostics=text") == 0) o->json = false;
        else if (strcmp(a, "--instance") == 0 || strcmp(a, "--kernel") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "tkc: %s needs a kernel instance name, e.g. 'gemm<64,64,128>'\n", a);
                return -1;
            }
            o->instances[o->ninstances++] = argv[++i];
        } else if (strncmp(a, "--instance=", 11) == 0) o->instances[o->ninstances++] = a + 11;
        else if (strcmp(a, "-o") == 0) {
            if (i + 1 >= argc) {
                fputs("tkc: -o needs a file name\n", stderr);
                return -1;
            }
            o->output = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "tkc: unknown option '%s'\n", a);
            return -1;
        } else {
            o->files[o->nfiles++] = a;
        }
    }
    if (!o->check && o->emit == EMIT_NONE) {
        fputs("tkc: say what to do: `tkc check FILE...` or `tkc --emit=tokens|ast|tir|llvm|asm|obj [--target=T] FILE`\n", stderr);
        return -1;
    }
    if (o->check && o->emit != EMIT_NONE) {
        fputs("tkc: `check` and --emit cannot be combined\n", stderr);
        return -1;
    }
    if (o->nfiles == 0) {
        fputs("tkc: no input files\n", stderr);
        return -1;
    }
    if (o->compile && !o->output) {
        fputs("tkc: -c needs -o FILE.o\n", stderr);
        return -1;
    }
    if (o->emit == EMIT_OBJ && !o->output) {
        fputs("tkc: --emit=obj writes a binary file: give -o FILE.o\n", stderr);
        return -1;
    }
    if (o->emit == EMIT_PTX) {
        const TkTarget *t = tk_target_find(o->target ? o->target : "host");
        if (!t || t->kind != TK_TARGET_NVPTX) {
            fprintf(stderr, "tkc: %s needs an NVIDIA target (--target=sm_80, sm_90 or sm_90a)%s%s\n", o->stats ? "--stats" : "--emit=ptx",
                    o->stats ? "" : "; for this target use --emit=asm", o->stats ? "" : "");
            return -1;
        }
    }
    if (o->emit != EMIT_NONE && o->nfiles != 1) {
        fputs("tkc: --emit takes exactly one input file\n", stderr);
        return -1;
    }
    return 0;
}

/* --emit=tir: the target's passes (see lower/passes/tir_passes.h), printing the TIR
 * after the last one, or after each one asked for with -d / --dump=. */
static int run_passes(TirModule *m, const Options *o, FILE *out)
{
    const TkTarget *t = tk_target_find(o->target ? o->target : "host");
    TkResolvedTarget rt;
    char err[512];
    if (tk_target_resolve(t, &rt, err, sizeof err) != 0) {
        fprintf(stderr, "tkc: %s\n", err);
        return -1;
    }
    TirPassOptions po = {
        .select_mma = t->kind == TK_TARGET_CPU      ? emit_select_mma
                      : t->kind == TK_TARGET_AMDGPU ? tk_amdgpu_select_mma
                                                    : tk_nvptx_select_mma,
        .select_ctx = t->kind == TK_TARGET_CPU ? (void *)rt.features : t->kind == TK_TARGET_EMU ? (void *)t->cpu : (void *)rt.cpu,
        .choose_pack = t->kind == TK_TARGET_CPU ? emit_choose_pack : NULL,
        .choose_ctx = rt.features,
        .shared_limit = t->kind == TK_TARGET_AMDGPU ? 65536 : t->kind == TK_TARGET_CPU ? 0 : 49152,
        .shared_what = t->kind == TK_TARGET_AMDGPU ? "LDS" : "static shared memory",
        .dump = o->dump ? out : NULL,
        .dump_after = o->dump,
        .with_source = true,
    };
    int rc = tir_run_passes(m, &po, err, sizeof err);
    if (rc != 0) fprintf(stderr, "tkc: %s\n", err);
    else if (!o->dump) tir_print_module(m, out, true);
    tk_target_resolved_free(&rt);
    return rc;
}

static void remove_regular(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) remove(path);
}

/* FILE.o -> FILE.h: where -c puts the header beside the object */
static bool header_path(const char *object, char *path, size_t len)
{
    const char *dot = strrchr(object, '.');
    size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - object) : strlen(object);
    if (stem + 3 >= len) return false;
    memcpy(path, object, stem);
    strcpy(path + stem, ".h");
    return true;
}

/* -c FILE.tk -o FILE.o also writes FILE.h (for an NVIDIA target, its NAME_cuda form) */
static bool write_header(const TirModule *m, const char *object, const char *cuda_target)
{
    char path[4096];
    if (!header_path(object, path, sizeof path)) return false;
    FILE *h = fopen(path, "w");
    if (!h) {
        fprintf(stderr, "tkc: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    const char *base = strrchr(path, '/');
    char guard[256];
    snprintf(guard, sizeof guard, "%.*s", (int)strcspn(base ? base + 1 : path, "."), base ? base + 1 : path);
    if (cuda_target) tkc_write_cuda_header(m, guard, cuda_target, h);
    else tkc_write_header(m, guard, h);
    return fclose(h) == 0;
}

static void list_targets(void)
{
    unsigned n;
    const TkTarget *t = tk_target_table(&n);
    for (unsigned i = 0; i < n; i++) printf("%-18s %s\n", t[i].name, t[i].description);
}

static void report(TkFront *f, const Options *o)
{
    if (o->json) tk_diags_print_json(&f->diags, stderr);
    else tk_diags_print_text(&f->diags, stderr);
}

/* Runs the pipeline on one file; returns its exit status. */
static int run_file(const char *path, const Options *o, FILE *out)
{
    TkFront f;
    if (tk_front_load(&f, path) != 0) {
        fprintf(stderr, "tkc: cannot read '%s': %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    int status = EXIT_CLEAN;
    const char *keys[3];
    unsigned nkeys = tk_target_default_keys(tk_target_find(o->target ? o->target : "host"), keys);
    f.generic = (TkGenericOptions){ .instances = (const char *const *)o->instances, .ninstances = (unsigned)o->ninstances,
                                    .target_keys = keys, .ntarget_keys = nkeys, .target_name = o->target ? o->target : "host" };
    if (o->emit == EMIT_TOKENS) {
        tk_front_dump_tokens(&f, out);
    } else {
        tk_front_parse(&f);
        tk_front_check(&f);
        if (o->emit == EMIT_AST) tk_ast_print(f.items, out);
        if (o->emit >= EMIT_TIR && f.diags.errors == 0) {
            TirModule m;
            char err[512];
            if (tir_from_ast(&m, &f.arena, &f.src, &f.diags, f.items) != 0 || tir_verify(&m, stderr) != 0) {
                status = EXIT_ERRORS;
            } else if (o->emit == EMIT_TIR) {
                if (run_passes(&m, o, out) != 0) status = EXIT_ERRORS;
            } else {
                TkCpuJitOptions jo = { .target = o->target, .opt_level = o->opt_level, .debug_info = o->debug };
                TkEmitKind kind = o->emit == EMIT_LLVM                         ? TK_EMIT_LLVM_IR
                                  : o->emit == EMIT_ASM || o->emit == EMIT_PTX ? TK_EMIT_ASM
                                                                               : TK_EMIT_OBJ;
                const TkTarget *tt = tk_target_find(o->target ? o->target : "host");
                if (tt && tt->kind == TK_TARGET_AMDGPU) {
                    /* 1: the kernel is outside what the AMDGPU backend does (an input error) */
                    int rc = o->compile ? -2 : tk_amdgpu_emit(&m, tt->name, kind, out, err, sizeof err);
                    if (rc == -2) snprintf(err, sizeof err, "-c writes a CPU object and C header; for %s use --emit=obj", tt->name);
                    if (rc != 0) {
                        fprintf(stderr, "tkc: %s\n", err);
                        status = rc == 1 ? EXIT_ERRORS : EXIT_USAGE;
                    }
                } else if (o->stats) {
                    int rc = tkc_stats(&m, o->target, out, err, sizeof err);
                    if (rc != 0) {
                        fprintf(stderr, "tkc: %s\n", err);
                        status = rc == 1 ? EXIT_ERRORS : EXIT_USAGE;
                    }
                } else if (tt && tt->kind == TK_TARGET_NVPTX) {
                    /* 1: the kernel is outside what the NVPTX backend does (an input error) */
                    int rc;
                    if (!o->compile) rc = tk_nvptx_emit(&m, tt->name, kind, out, err, sizeof err);
                    else if (!write_header(&m, o->output, tt->name)) rc = -1, snprintf(err, sizeof err, "the header was not written");
                    else rc = tkc_compile_cuda(&m, tt->name, out, err, sizeof err);   /* after the header: it empties m */
                    if (rc != 0) {
                        fprintf(stderr, "tkc: %s\n", err);
                        status = rc == 1 ? EXIT_ERRORS : EXIT_USAGE;
                    }
                } else if (tt && tt->kind == TK_TARGET_EMU) {
                    int rc = o->compile ? -2 : tk_emu_emit(&m, tt->name, kind, out, err, sizeof err);
                    if (rc == -2) snprintf(err, sizeof err, "%s runs in this process: tkc run --target=%s", tt->name, tt->name);
                    if (rc != 0) {
                        fprintf(stderr, "tkc: %s\n", err);
                        status = rc == 1 ? EXIT_ERRORS : EXIT_USAGE;
                    }
                } else if (tk_cpu_emit(&m, &jo, kind, out, err, sizeof err) != 0) {
                    fprintf(stderr, "tkc: %s\n", err);
                    status = EXIT_USAGE;
                } else if (o->compile && !write_header(&m, o->output, NULL)) {
                    status = EXIT_USAGE;
                }
            }
        }
    }
    if (f.diags.errors) status = EXIT_ERRORS;
    report(&f, o);
    tk_front_free(&f);
    return status;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "run") == 0) return tkc_run(argc, argv);
    if (argc > 1 && strcmp(argv[1], "help") == 0) {
        if (argc == 2) {
            usage(stdout);
            return EXIT_CLEAN;
        }
        if (argc == 3 && strcmp(argv[2], "run") == 0) {
            tkc_run_help();
            return EXIT_CLEAN;
        }
        fprintf(stderr, "tkc: no help on '%s' (try `tkc help` or `tkc help run`)\n", argv[2]);
        return EXIT_USAGE;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return EXIT_CLEAN;
        }
        if (strcmp(argv[i], "--list-targets") == 0) {
            list_targets();
            return EXIT_CLEAN;
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("tkc %s (TileKit)\n", TK_VERSION);
            return EXIT_CLEAN;
        }
    }
    Options o;
    if (parse_args(argc, argv, &o) != 0) {
        fputs("run `tkc --help` for usage\n", stderr);
        free(o.files);
        free(o.instances);
        return EXIT_USAGE;
    }
    FILE *out = stdout;
    if (o.output && !(out = fopen(o.output, "wb"))) {
        fprintf(stderr, "tkc: cannot write '%s': %s\n", o.output, strerror(errno));
        free(o.files);
        free(o.instances);
        return EXIT_USAGE;
    }
    int status = EXIT_CLEAN;
    for (int i = 0; i < o.nfiles; i++) {
        int s = run_file(o.files[i], &o, out);
        if (s > status) status = s;
    }
    if (out != stdout && fclose(out) != 0) status = EXIT_USAGE;
    if (out != stdout && status != EXIT_CLEAN) {
        /* no half-written object (or a header without its object) for make to
         * take as up to date; only regular files (-o /dev/null stays) */
        remove_regular(o.output);
        char h[4096];
        if (o.compile && header_path(o.output, h, sizeof h)) remove_regular(h);
    }
    free(o.files);
    free(o.instances);
    return status;
}
