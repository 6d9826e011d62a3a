/* test_io.c — tensor files and interop: ONNX TensorProto .pb, safetensors and
 * DLPack. Python writes the fixtures (fixtures/fx_io.py: .pb files by the
 * wire format and, when the onnx package is there, by onnx itself;
 * safetensors by hand) beside the .npy of what they hold; our readers must
 * give the same bits. Round trips write with ours and read with ours;
 * malformed files are written here byte by byte. The Python side of DLPack
 * (NumPy sharing memory with a tensor) is dlpack_numpy.py. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "tk/dlpack.h"

static const char *const DNAMES[] = { "f32", "u8", "i8", "i16", "i32", "i64", "bool", "f16", "f64", "bf16" };
static const tk_dtype DTYPES[] = { TK_DTYPE_F32, TK_DTYPE_U8,   TK_DTYPE_I8,  TK_DTYPE_I16, TK_DTYPE_I32,
                                   TK_DTYPE_I64, TK_DTYPE_BOOL, TK_DTYPE_F16, TK_DTYPE_F64, TK_DTYPE_BF16 };
#define NUM_DTYPES 10
#define NUM_SHAPES 5   /* fx_io.py's SHAPES */

/* ------------------------------------------------------------ files */

static char tmp_dir[256];

/* A scratch folder per test (each runs in its own process), emptied after. */
static void io_setup(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/tk_io_XXXXXX", base && *base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmp_dir));
}

static void io_teardown(void)
{
    DIR *d = opendir(tmp_dir);
    if (d) {
        struct dirent *e;
        char p[600];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(p, sizeof p, "%s/%s", tmp_dir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(tmp_dir);
}

static const char *tmp_path(const char *name)
{
    static char p[600];
    snprintf(p, sizeof p, "%s/%s", tmp_dir, name);
    return p;
}

static const char *fx_file(const char *fixture_case, const char *file)
{
    static char p[1024];
    const char *dir = getenv("TK_FIXTURES");
    snprintf(p, sizeof p, "%s/%s/%s", dir ? dir : "fixtures", fixture_case, file);
    return p;
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(data, 1, len, fp), len);
    fclose(fp);
}

/* A tensor of dtype with values that exercise it: signs, the range's ends, NaN and infinities. */
static tk_tensor *sample(tk_dtype dtype, int ndim, const int64_t *shape, uint64_t seed)
{
    tk_tensor *r, *t;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F64, ndim, shape, seed, &r));
    double *v = tk_tensor_data(r);
    int64_t n = tk_tensor_numel(r);
    for (int64_t i = 0; i < n; i++) v[i] *= 1000;
    if (tk_dtype_is_float(dtype) && n >= 3) v[0] = NAN, v[1] = INFINITY, v[2] = -0.0;
    TKT_OK(tk_to_dtype(tkt_ctx, r, dtype, &t));
    tk_tensor_release(r);
    return t;
}

static const int64_t ROUND_SHAPES[][3] = { { 3, 5, 2 }, { 7 }, { 0 }, { 0, 3 }, { 1, 1, 9 } };
static const int ROUND_NDIMS[] = { 3, 1, 0, 2, 3 };

/* A transposed view (non-contiguous) of a fresh 4 × 6 tensor, over its memory. */
static tk_tensor *transposed(tk_dtype dtype, tk_tensor **base)
{
    *base = sample(dtype, 2, (int64_t[]){ 4, 6 }, 7);
    tk_tensor *t;
    TKT_OK(tk_from_blob(tkt_ctx, tk_tensor_data(*base), dtype, 2, (int64_t[]){ 6, 4 }, (int64_t[]){ 1, 6 }, 0, NULL, NULL, &t));
    return t;
}

/* The expected tensor of a fixture case. gen_fixtures.py writes 0-d tensors
 * as shape [1] (np.ascontiguousarray makes 0-d arrays 1-d); for a 0-d `like`
 * the expected tensor is made 0-d again. */
static tk_tensor *want_of(const char *fixture_case, const tk_tensor *like)
{
    tk_tensor *w = tkt_fx(fixture_case, "want");
    if (tk_tensor_ndim(like) != 0 || tk_tensor_ndim(w) != 1 || tk_tensor_numel(w) != 1) return w;
    tk_tensor *v;
    TKT_OK(tk_from_data(tkt_ctx, tk_tensor_data(w), tk_tensor_dtype(w), 0, NULL, &v));
    tk_tensor_release(w);
    return v;
}

/* ------------------------------------------------------------ ONNX TensorProto */

START_TEST(onnx_reads_python_files)
{
    static const char *const files[] = { "raw.pb", "packed.pb", "unpacked.pb", "onnx_raw.pb", "onnx_typed.pb" };
    int onnx_made = 0;
    for (int d = 0; d < NUM_DTYPES; d++)
        for (int k = 0; k < NUM_SHAPES; k++) {
            char c[32], want_name[32];
            snprintf(c, sizeof c, "io_%s_%d", DNAMES[d], k);
            snprintf(want_name, sizeof want_name, "x_%s_%d", DNAMES[d], k);
            for (unsigned f = 0; f < sizeof files / sizeof files[0]; f++) {
                const char *path = fx_file(c, files[f]);
                if (f >= 3 && access(path, R_OK) != 0) continue;   /* onnx's own files: only with python3-onnx */
                onnx_made += f >= 3;
                tk_tensor *got, *want;
                char *name;
                TKT_OK(tk_load_onnx_tensor_named(tkt_ctx, path, &got, &name));
                want = want_of(c, got);
                ck_assert_int_eq(tk_tensor_dtype(want), DTYPES[d]);
                char label[96];
                snprintf(label, sizeof label, "%s/%s", c, files[f]);
                if (f == 4 && tk_dtype_is_float(DTYPES[d]))   /* onnx's make_tensor writes NaN as 0x7fc0 whatever its sign and payload */
                    tkt_expect_close(got, want, 0, 0, true, label);
                else
                    tkt_expect_equal(got, want, label);
                ck_assert_msg(tk_tensor_is_contiguous(got), "%s: not contiguous", label);
                ck_assert_str_eq(name, want_name);
                free(name);
                TKT_RELEASE(got, want);
            }
        }
    if (!onnx_made) fprintf(stderr, "test_io: python3-onnx is not installed; only hand-made TensorProto files were read\n");
}
END_TEST

START_TEST(onnx_round_trip_every_dtype)
{
    for (int d = 0; d < NUM_DTYPES; d++) {
        for (unsigned s = 0; s < sizeof ROUND_NDIMS / sizeof ROUND_NDIMS[0]; s++) {
            tk_tensor *t = sample(DTYPES[d], ROUND_NDIMS[s], ROUND_SHAPES[s], 100 + s), *got;
            const char *path = tmp_path("t.pb");
            TKT_OK(tk_save_onnx_tensor(tkt_ctx, t, path, "weights.0"));
            char *name;
            TKT_OK(tk_load_onnx_tensor_named(tkt_ctx, path, &got, &name));
            tkt_expect_equal(got, t, DNAMES[d]);
            ck_assert_str_eq(name, "weights.0");
            free(name);
            TKT_RELEASE(t, got);
        }
        /* a non-contiguous tensor is written in row-major order; no name → "" */
        tk_tensor *base, *t = transposed(DTYPES[d], &base), *got, *want;
        TKT_OK(tk_save_onnx_tensor(tkt_ctx, t, tmp_path("t.pb"), NULL));
        char *name;
        TKT_OK(tk_load_onnx_tensor_named(tkt_ctx, tmp_path("t.pb"), &got, &name));
        ck_assert_str_eq(name, "");
        free(name);
        TKT_OK(tk_clone(tkt_ctx, t, &want));
        tkt_expect_equal(got, want, DNAMES[d]);
        TKT_RELEASE(t, base, got, want);
    }
}
END_TEST

/* Loads bytes written to a file; returns the status, checking *out stays NULL on failure. */
static tk_status load_pb_bytes(const void *bytes, size_t len)
{
    write_bytes(tmp_path("bad.pb"), bytes, len);
    tk_tensor *t = (tk_tensor *)1;
    char *name = (char *)1;
    tk_status s = tk_load_onnx_tensor_named(tkt_ctx, tmp_path("bad.pb"), &t, &name);
    if (s) {
        ck_assert_ptr_null(t);
        ck_assert_ptr_null(name);
    } else {
        tk_tensor_release(t);
        free(name);
    }
    return s;
}

#define PB_FAILS(status, needle, ...)                                                                  \
    do {                                                                                               \
        static const uint8_t b_[] = { __VA_ARGS__ };                                                   \
        tkt_expect_fail(load_pb_bytes(b_, sizeof b_), (status), (needle), #__VA_ARGS__);               \
    } while (0)

START_TEST(onnx_rejects_malformed_files)
{
    /* every proper prefix of a valid file (raw_data comes last, so none is complete) */
    tk_tensor *t = sample(TK_DTYPE_F32, 2, (int64_t[]){ 3, 4 }, 1);
    TKT_OK(tk_save_onnx_tensor(tkt_ctx, t, tmp_path("ok.pb"), "a name"));
    tk_tensor_release(t);
    FILE *fp = fopen(tmp_path("ok.pb"), "rb");
    uint8_t buf[256];
    size_t len = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    ck_assert_uint_gt(len, 48);
    for (size_t cut = 0; cut < len; cut++) {
        tk_status s = load_pb_bytes(buf, cut);
        ck_assert_msg(s == TK_ERR_IO, "a file cut to %zu of %zu bytes: status %d (%s)", cut, len, (int)s, tk_last_error(tkt_ctx));
        ck_assert_ptr_nonnull(strstr(tk_last_error(tkt_ctx), "tk_load_onnx_tensor"));
    }
    ck_assert_int_eq(load_pb_bytes(buf, len), TK_OK);

    /* wire-level damage */
    PB_FAILS(TK_ERR_IO, "past the end", 0x08, 2, 0x10, 1, 0x4a, 0x10, 'a');               /* raw_data of 16 bytes holds 1 */
    PB_FAILS(TK_ERR_IO, "longer than 10", 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    PB_FAILS(TK_ERR_IO, "overflows 64", 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02);
    PB_FAILS(TK_ERR_IO, "runs past the end", 0x10, 0x81);                                  /* a varint cut short */
    PB_FAILS(TK_ERR_IO, "wire type 3", 0x10, 1, 0x1b);                                     /* a group */
    PB_FAILS(TK_ERR_IO, "field number", 0x00, 1);                                          /* field 0 */
    PB_FAILS(TK_ERR_IO, "fixed-width", 0x10, 1, 0x25, 0, 0);                               /* float_data cut */
    /* wrong wire types of known fields */
    PB_FAILS(TK_ERR_IO, "data_type", 0x12, 1, 1);                                          /* data_type as bytes */
    PB_FAILS(TK_ERR_IO, "name", 0x10, 1, 0x40, 5);                                         /* name as a varint */
    PB_FAILS(TK_ERR_IO, "dims", 0x0d, 1, 0, 0, 0, 0x10, 1);                                /* dims as fixed32 */
    PB_FAILS(TK_ERR_IO, "raw_data", 0x48, 1, 0x10, 1);                                     /* raw_data as a varint */
    PB_FAILS(TK_ERR_IO, "float_data", 0x10, 1, 0x20, 1);                                   /* float_data as a varint */
    PB_FAILS(TK_ERR_IO, "not a multiple of 4", 0x10, 1, 0x22, 3, 0, 0, 0);                 /* packed floats of 3 bytes */
    /* dims */
    PB_FAILS(TK_ERR_IO, "overflows", 0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x08, 0x80,
             0x80, 0x80, 0x80, 0x80, 0x20, 0x10, 1);                                       /* 2^40 three times */
    PB_FAILS(TK_ERR_IO, "negative", 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x10, 1);
    PB_FAILS(TK_ERR_UNSUPPORTED, "more than 8 dims", 0x0a, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0x10, 1);
    {
        uint8_t many[2 + 3 + 100000];   /* 100000 packed dims, then data_type */
        many[0] = 0x0a;
        many[1] = 0xa0, many[2] = 0x8d, many[3] = 0x06;   /* length 100000 */
        memset(many + 4, 1, 100000);
        many[4 + 100000] = 0x10;
        tkt_expect_fail(load_pb_bytes(many, 4 + 100000 + 1), TK_ERR_UNSUPPORTED, "more than 8 dims", "100000 dims");
    }
    /* data against dims and type */
    PB_FAILS(TK_ERR_IO, "need 24 bytes, raw_data has 20", 0x08, 2, 0x08, 3, 0x10, 1, 0x4a, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
             0, 0, 0, 0, 0, 0);
    PB_FAILS(TK_ERR_IO, "need 2 elements, float_data holds 1", 0x08, 2, 0x10, 1, 0x25, 0, 0, 0x80, 0x3f);
    PB_FAILS(TK_ERR_IO, "no raw_data", 0x08, 2, 0x10, 1);
    PB_FAILS(TK_ERR_IO, "both raw_data and float_data", 0x10, 1, 0x25, 0, 0, 0x80, 0x3f, 0x4a, 4, 0, 0, 0x80, 0x3f);
    PB_FAILS(TK_ERR_IO, "INT64 elements go in int64_data", 0x10, 7, 0x25, 0, 0, 0x80, 0x3f);
    PB_FAILS(TK_ERR_IO, "out of range for i8", 0x10, 3, 0x28, 0xac, 0x02);                    /* 300 in an INT8 */
    PB_FAILS(TK_ERR_IO, "out of range for bool", 0x10, 9, 0x28, 2);
    PB_FAILS(TK_ERR_IO, "not 0 or 1", 0x10, 9, 0x4a, 1, 7);
    PB_FAILS(TK_ERR_IO, "no data_type", 0x08, 1);
    tkt_expect_fail(load_pb_bytes("", 0), TK_ERR_IO, "no data_type", "an empty file");
    /* valid files we cannot hold */
    PB_FAILS(TK_ERR_UNSUPPORTED, "STRING", 0x10, 8, 0x32, 1, 'a');
    PB_FAILS(TK_ERR_UNSUPPORTED, "COMPLEX64", 0x10, 14);
    PB_FAILS(TK_ERR_UNSUPPORTED, "COMPLEX128", 0x10, 15);
    /* the packed 4-bit types: 3 elements need 2 bytes (test_lowp.c reads them) */
    PB_FAILS(TK_ERR_IO, "need 2 bytes, raw_data has 3", 0x08, 3, 0x10, 22, 0x4a, 3, 0, 0, 0);
    PB_FAILS(TK_ERR_IO, "need 2 packed bytes, int32_data holds 3", 0x08, 3, 0x10, 21, 0x28, 1, 0x28, 2, 0x28, 3);
    PB_FAILS(TK_ERR_IO, "out of range for u4", 0x08, 1, 0x10, 21, 0x28, 0x80, 0x02);   /* 256 in a packed byte */
    PB_FAILS(TK_ERR_UNSUPPORTED, "data_type 99", 0x10, 99);
    PB_FAILS(TK_ERR_IO, "names none", 0x10, 1, 0x70, 1);   /* EXTERNAL without a location */
    /* external_data { key: "location" value: "w.bin" }: only a model can resolve it */
    PB_FAILS(TK_ERR_UNSUPPORTED, "external file 'w.bin'", 0x10, 1, 0x6a, 17, 0x0a, 8, 'l', 'o', 'c', 'a', 't', 'i', 'o', 'n', 0x12,
             5, 'w', '.', 'b', 'i', 'n', 0x70, 1);
    PB_FAILS(TK_ERR_IO, "neither DEFAULT nor EXTERNAL", 0x10, 1, 0x70, 2);
    PB_FAILS(TK_ERR_UNSUPPORTED, "segment", 0x10, 1, 0x1a, 0);

    /* arguments and files */
    tk_tensor *out = (tk_tensor *)1;
    TKT_FAILS(tk_load_onnx_tensor(tkt_ctx, tmp_path("missing.pb"), &out), TK_ERR_IO, "cannot read");
    ck_assert_ptr_null(out);
    TKT_FAILS(tk_load_onnx_tensor(tkt_ctx, NULL, &out), TK_ERR_INVALID_ARGUMENT, "path");
    TKT_FAILS(tk_load_onnx_tensor(tkt_ctx, tmp_dir, &out), TK_ERR_IO, "not a regular file");
    TKT_FAILS(tk_save_onnx_tensor(tkt_ctx, NULL, tmp_path("x.pb"), NULL), TK_ERR_INVALID_ARGUMENT, "t");
    t = sample(TK_DTYPE_F32, 1, (int64_t[]){ 3 }, 2);
    TKT_FAILS(tk_save_onnx_tensor(tkt_ctx, t, "/nonexistent-dir/x.pb", NULL), TK_ERR_IO, "cannot write");
    tk_tensor_release(t);
}
END_TEST

/* ------------------------------------------------------------ safetensors */

/* Whether p lies in a mapping of a file whose path ends with suffix (/proc/self/maps). */
static bool in_file_mapping(const void *p, const char *suffix)
{
    FILE *fp = fopen("/proc/self/maps", "r");
    ck_assert_ptr_nonnull(fp);
    char line[1200];
    bool found = false;
    while (!found && fgets(line, sizeof line, fp)) {
        unsigned long lo, hi;
        int pos = 0;
        if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &pos) < 2 || !pos) continue;
        char *path = line + pos;
        path[strcspn(path, "\n")] = '\0';
        size_t n = strlen(path), m = strlen(suffix);
        found = (uintptr_t)p >= lo && (uintptr_t)p < hi && n >= m && strcmp(path + n - m, suffix) == 0;
    }
    fclose(fp);
    return found;
}

START_TEST(safetensors_reads_python_file)
{
    tk_safetensors *f;
    TKT_OK(tk_load_safetensors(tkt_ctx, fx_file("io_st", "all.safetensors"), &f));
    ck_assert_uint_eq(tk_safetensors_count(f), NUM_DTYPES * NUM_SHAPES + 2);
    ck_assert_ptr_null(tk_safetensors_name(f, NUM_DTYPES * NUM_SHAPES + 2));
    tk_tensor *keep = NULL, *keep_want = NULL;
    for (int d = 0; d < NUM_DTYPES; d++)
        for (int k = 0; k < NUM_SHAPES; k++) {
            char c[32], name[32];
            snprintf(c, sizeof c, "io_%s_%d", DNAMES[d], k);
            snprintf(name, sizeof name, "%s_%d", DNAMES[d], k);
            tk_tensor *got;
            TKT_OK(tk_safetensors_get(tkt_ctx, f, name, &got));
            tk_tensor *want = want_of(c, got);
            tkt_expect_equal(got, want, name);
            if (tk_tensor_numel(got)) {
                /* no copy: the elements are the file's pages */
                ck_assert_msg(in_file_mapping(tk_tensor_data(got), "/all.safetensors"), "%s: data is not in the mapping", name);
                TKT_FAILS(tk_fill_(tkt_ctx, got, 0), TK_ERR_INVALID_ARGUMENT, "read-only");
            }
            if (d == 0 && k == 0) {
                keep = got, keep_want = want;
                continue;
            }
            TKT_RELEASE(got, want);
        }
    /* metadata, escapes decoded */
    ck_assert_uint_eq(tk_safetensors_metadata_count(f), 2);
    ck_assert_str_eq(tk_safetensors_metadata(f, "format"), "pt");
    ck_assert_str_eq(tk_safetensors_metadata(f, "note"), "h\xc3\xa9llo \"quoted\"\n\xf0\x9f\x98\x80");
    ck_assert_ptr_null(tk_safetensors_metadata(f, "absent"));
    ck_assert_ptr_null(tk_safetensors_metadata_key(f, 2));
    /* a U16 tensor (written by the fixture as the bytes of 1, 2, 3) */
    tk_tensor *u16;
    TKT_OK(tk_safetensors_get(tkt_ctx, f, "unsigned16", &u16));
    ck_assert_int_eq(tk_tensor_dtype(u16), TK_DTYPE_U16);
    const uint16_t *uv = tk_tensor_data(u16);
    ck_assert(tk_tensor_numel(u16) == 3 && uv[0] == 1 && uv[1] == 2 && uv[2] == 3);
    tk_tensor_release(u16);
    /* an F8_E4M3 tensor (bytes 1, 2, 3): float8_e4m3fn subnormals 2^-9, 2^-8, 3·2^-9 */
    tk_tensor *f8, *f8f;
    TKT_OK(tk_safetensors_get(tkt_ctx, f, "float8", &f8));
    ck_assert_int_eq(tk_tensor_dtype(f8), TK_DTYPE_F8E4M3FN);
    TKT_OK(tk_to_dtype(tkt_ctx, f8, TK_DTYPE_F64, &f8f));
    const double *fv = tk_tensor_data(f8f);
    ck_assert(fv[0] == 0x1p-9 && fv[1] == 0x1p-8 && fv[2] == 0x3p-9);
    TKT_RELEASE(f8, f8f);
    /* a name that is not there */
    tk_tensor *out = (tk_tensor *)1;
    TKT_FAILS(tk_safetensors_get(tkt_ctx, f, "nope", &out), TK_ERR_NOT_FOUND, "nope");
    TKT_FAILS(tk_safetensors_get(tkt_ctx, f, NULL, &out), TK_ERR_INVALID_ARGUMENT, "name");
    /* the handle goes first: the tensor keeps the mapping */
    tk_safetensors_free(f);
    ck_assert(in_file_mapping(tk_tensor_data(keep), "/all.safetensors"));
    tkt_expect_equal(keep, keep_want, "after the handle was freed");
    void *p = tk_tensor_data(keep);
    TKT_RELEASE(keep, keep_want);
    ck_assert_msg(!in_file_mapping(p, "/all.safetensors"), "the mapping outlived its last tensor");
}
END_TEST

START_TEST(safetensors_misaligned_data_is_copied)
{
    tk_safetensors *f;
    TKT_OK(tk_load_safetensors(tkt_ctx, fx_file("io_st", "unaligned.safetensors"), &f));
    tk_tensor *got, *want;
    TKT_OK(tk_safetensors_get(tkt_ctx, f, "a", &got));
    TKT_OK(tk_arange(tkt_ctx, TK_DTYPE_F32, 0, 5, 1, &want));
    tkt_expect_equal(got, want, "unaligned");
    ck_assert_uint_eq((uintptr_t)tk_tensor_data(got) % 4, 0);
    ck_assert(!in_file_mapping(tk_tensor_data(got), "/unaligned.safetensors"));
    tk_safetensors_free(f);
    TKT_RELEASE(got, want);
}
END_TEST

START_TEST(safetensors_round_trip_every_dtype)
{
    enum { N = NUM_DTYPES * 6 };
    tk_tensor *ts[N], *bases[NUM_DTYPES];
    char names[N][32];
    const char *name_ptrs[N];
    for (int d = 0, i = 0; d < NUM_DTYPES; d++) {
        for (unsigned s = 0; s < 5; s++, i++) {
            ts[i] = sample(DTYPES[d], ROUND_NDIMS[s], ROUND_SHAPES[s], 10 * d + s);
            snprintf(names[i], sizeof names[i], "%s.layer%u \"q\"\\", DNAMES[d], s);   /* names needing JSON escapes */
        }
        ts[i] = transposed(DTYPES[d], &bases[d]);
        snprintf(names[i++], sizeof names[0], "%s.t", DNAMES[d]);
    }
    for (int i = 0; i < N; i++) name_ptrs[i] = names[i];
    const char *path = tmp_path("rt.safetensors");
    TKT_OK(tk_save_safetensors(tkt_ctx, path, name_ptrs, (const tk_tensor *const *)ts, N));
    tk_safetensors *f;
    TKT_OK(tk_load_safetensors(tkt_ctx, path, &f));
    ck_assert_uint_eq(tk_safetensors_count(f), N);
    ck_assert_uint_eq(tk_safetensors_metadata_count(f), 0);
    tk_tensor *first = NULL;
    for (int i = 0; i < N; i++) {
        tk_tensor *got, *want;
        TKT_OK(tk_safetensors_get(tkt_ctx, f, names[i], &got));
        TKT_OK(tk_clone(tkt_ctx, ts[i], &want));
        tkt_expect_equal(got, want, names[i]);
        if (tk_tensor_numel(got)) {   /* laid out aligned, so every one is a view of the mapping */
            ck_assert_msg(in_file_mapping(tk_tensor_data(got), "/rt.safetensors"), "%s: copied", names[i]);
            ck_assert_uint_eq((uintptr_t)tk_tensor_data(got) % tk_dtype_size(tk_tensor_dtype(got)), 0);
        }
        if (!first) first = got;
        else tk_tensor_release(got);
        tk_tensor_release(want);
    }
    tk_safetensors_free(f);
    /* replacing the file while a tensor maps it: the tensor keeps the old contents */
    tk_tensor *before;
    TKT_OK(tk_clone(tkt_ctx, first, &before));
    tk_tensor *zero;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 1000 }, &zero));
    TKT_OK(tk_save_safetensors(tkt_ctx, path, (const char *[]){ "z" }, (const tk_tensor *const[]){ zero }, 1));
    tkt_expect_equal(first, before, "a mapped tensor after its file was replaced");
    TKT_RELEASE(first, before, zero);
    /* an empty file list is a valid file */
    TKT_OK(tk_save_safetensors(tkt_ctx, path, NULL, NULL, 0));
    TKT_OK(tk_load_safetensors(tkt_ctx, path, &f));
    ck_assert_uint_eq(tk_safetensors_count(f), 0);
    tk_safetensors_free(f);
    for (int i = 0; i < N; i++) tk_tensor_release(ts[i]);
    for (int d = 0; d < NUM_DTYPES; d++) tk_tensor_release(bases[d]);
}
END_TEST

START_TEST(safetensors_save_rejects_bad_arguments)
{
    tk_tensor *a = sample(TK_DTYPE_F32, 1, (int64_t[]){ 3 }, 1);
    const tk_tensor *two[] = { a, a };
    const char *path = tmp_path("x.safetensors");
    TKT_FAILS(tk_save_safetensors(tkt_ctx, path, (const char *[]){ "w", "w" }, two, 2), TK_ERR_INVALID_ARGUMENT, "twice");
    TKT_FAILS(tk_save_safetensors(tkt_ctx, path, (const char *[]){ "w", "__metadata__" }, two, 2), TK_ERR_INVALID_ARGUMENT,
              "__metadata__");
    TKT_FAILS(tk_save_safetensors(tkt_ctx, path, (const char *[]){ "w", NULL }, two, 2), TK_ERR_INVALID_ARGUMENT, "names[1]");
    TKT_FAILS(tk_save_safetensors(tkt_ctx, path, (const char *[]){ "w", "" }, two, 2), TK_ERR_INVALID_ARGUMENT, "names[1]");
    TKT_FAILS(tk_save_safetensors(tkt_ctx, path, (const char *[]){ "w", "v" }, (const tk_tensor *const[]){ a, NULL }, 2),
              TK_ERR_INVALID_ARGUMENT, "tensors[1]");
    TKT_FAILS(tk_save_safetensors(tkt_ctx, path, NULL, two, 2), TK_ERR_INVALID_ARGUMENT, "names");
    TKT_FAILS(tk_save_safetensors(tkt_ctx, NULL, (const char *[]){ "w" }, two, 1), TK_ERR_INVALID_ARGUMENT, "path");
    TKT_FAILS(tk_save_safetensors(tkt_ctx, "/nonexistent-dir/x.safetensors", (const char *[]){ "w" }, two, 1), TK_ERR_IO, "cannot write");
    ck_assert_int_ne(access(path, F_OK), 0);   /* nothing written on failure */
    tk_tensor_release(a);
}
END_TEST

/* Writes an 8-byte length (hlen, or the header's own length if hlen is -1), the header and data. */
static tk_status load_st(const char *header, long long hlen, const void *data, size_t data_len)
{
    size_t h = strlen(header);
    uint64_t declared = hlen < 0 ? h : (uint64_t)hlen;
    uint8_t *buf = malloc(8 + h + data_len + 1);
    for (int i = 0; i < 8; i++) buf[i] = (uint8_t)(declared >> (8 * i));
    memcpy(buf + 8, header, h);
    if (data_len) memcpy(buf + 8 + h, data, data_len);
    write_bytes(tmp_path("bad.safetensors"), buf, 8 + h + data_len);
    free(buf);
    tk_safetensors *f = (tk_safetensors *)1;
    tk_status s = tk_load_safetensors(tkt_ctx, tmp_path("bad.safetensors"), &f);
    if (s) ck_assert_ptr_null(f);
    else tk_safetensors_free(f);
    return s;
}

#define ST_FAILS(needle, header) tkt_expect_fail(load_st((header), -1, zeros, sizeof zeros), TK_ERR_IO, (needle), (header))

START_TEST(safetensors_rejects_malformed_files)
{
    static const uint8_t zeros[64];
    const char *ok = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]}}";
    ck_assert_int_eq(load_st(ok, -1, zeros, sizeof zeros), TK_OK);
    /* the frame */
    write_bytes(tmp_path("short.safetensors"), "\x10\0\0", 3);
    tk_safetensors *f = (tk_safetensors *)1;
    TKT_FAILS(tk_load_safetensors(tkt_ctx, tmp_path("short.safetensors"), &f), TK_ERR_IO, "too short");
    ck_assert_ptr_null(f);
    tkt_expect_fail(load_st(ok, 1000, zeros, 8), TK_ERR_IO, "header length 1000", "a header length past the end");
    tkt_expect_fail(load_st(ok, (long long)1 << 62, zeros, 8), TK_ERR_IO, "does not fit", "a huge header length");
    tkt_expect_fail(load_st(ok, 20, zeros, 8), TK_ERR_IO, "JSON header", "a header cut short");
    /* the JSON */
    ST_FAILS("does not start with '{'", "[1, 2]");
    ST_FAILS("does not start with '{'", "");
    ST_FAILS("expected a string at byte 53", "{\"a\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4]},}");   /* a trailing comma */
    ST_FAILS("expected ',' or '}'", "{\"a\":{\"dtype\":\"F32\" \"shape\":[]}}");
    ST_FAILS("expected a string", "{'a': 1}");
    ST_FAILS("unterminated string", "{\"a");
    ST_FAILS("invalid escape", "{\"a\\q\":{}}");
    ST_FAILS("control character", "{\"a\tb\":{}}");
    ST_FAILS("leading zero", "{\"a\":{\"dtype\":\"F32\",\"shape\":[01],\"data_offsets\":[0,4]}}");
    ST_FAILS("after the value", "{} {}");
    ST_FAILS("low half", "{\"\\ud800\":1}");
    ST_FAILS("invalid literal", "{\"a\":nul}");
    {
        char deep[300] = "{\"__metadata__\":";
        size_t n = strlen(deep);
        for (int i = 0; i < 100; i++) deep[n++] = '[';
        deep[n] = '\0';
        ST_FAILS("nesting deeper than 64", deep);
    }
    /* entries */
    ST_FAILS("not an object", "{\"a\":[1]}");
    ST_FAILS("\"dtype\" is missing", "{\"a\":{\"shape\":[1],\"data_offsets\":[0,4]}}");
    ST_FAILS("unknown dtype \"F128\"", "{\"a\":{\"dtype\":\"F128\",\"shape\":[1],\"data_offsets\":[0,16]}}");
    ST_FAILS("\"shape\"", "{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}");
    ST_FAILS("\"shape\"", "{\"a\":{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,4]}}");
    ST_FAILS("\"shape\"", "{\"a\":{\"dtype\":\"F32\",\"shape\":[99999999999999999999],\"data_offsets\":[0,4]}}");
    ST_FAILS("\"data_offsets\"", "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4,8]}}");
    ST_FAILS("\"data_offsets\"", "{\"a\":{\"dtype\":\"F32\",\"shape\":[1]}}");
    ST_FAILS("end before they begin", "{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[8,4]}}");
    ST_FAILS("run past the end of the data (64 bytes)", "{\"a\":{\"dtype\":\"F32\",\"shape\":[20],\"data_offsets\":[0,80]}}");
    ST_FAILS("needs 24 bytes, data_offsets give 20", "{\"a\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,20]}}");
    ST_FAILS("element count overflows",
             "{\"a\":{\"dtype\":\"F32\",\"shape\":[1099511627776,1099511627776,1099511627776],\"data_offsets\":[0,4]}}");
    ST_FAILS("'a' [0, 24] and 'b' [16, 40] overlap", "{\"a\":{\"dtype\":\"F32\",\"shape\":[6],\"data_offsets\":[0,24]},"
                                                   "\"b\":{\"dtype\":\"I64\",\"shape\":[3],\"data_offsets\":[16,40]}}");
    ST_FAILS("appears twice", "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
                              "\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]}}");
    ST_FAILS("__metadata__ is not an object", "{\"__metadata__\":[1]}");
    ST_FAILS("not a string", "{\"__metadata__\":{\"k\":1}}");
    ST_FAILS("__metadata__ appears twice", "{\"__metadata__\":{},\"__metadata__\":{}}");
    /* valid: empty tensors anywhere, gaps, many dims (refused only when asked for) */
    ck_assert_int_eq(load_st("{\"e\":{\"dtype\":\"F32\",\"shape\":[0,5],\"data_offsets\":[4,4]},"
                             "\"a\":{\"dtype\":\"I32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                             "\"b\":{\"dtype\":\"I32\",\"shape\":[1,1,1,1,1,1,1,1,1],\"data_offsets\":[8,12]}}",
                             -1, zeros, sizeof zeros),
                     TK_OK);
    TKT_OK(tk_load_safetensors(tkt_ctx, tmp_path("bad.safetensors"), &f));
    tk_tensor *t = (tk_tensor *)1;
    TKT_FAILS(tk_safetensors_get(tkt_ctx, f, "b", &t), TK_ERR_UNSUPPORTED, "9 dims");
    ck_assert_ptr_null(t);
    TKT_OK(tk_safetensors_get(tkt_ctx, f, "e", &t));
    ck_assert_int_eq(tk_tensor_numel(t), 0);
    tk_tensor_release(t);
    tk_safetensors_free(f);
    /* bool bytes other than 0/1 */
    ck_assert_int_eq(load_st("{\"q\":{\"dtype\":\"BOOL\",\"shape\":[3],\"data_offsets\":[0,3]}}", -1, "\1\0\5", 3), TK_OK);
    TKT_OK(tk_load_safetensors(tkt_ctx, tmp_path("bad.safetensors"), &f));
    TKT_FAILS(tk_safetensors_get(tkt_ctx, f, "q", &t), TK_ERR_IO, "not 0 or 1");
    tk_safetensors_free(f);
    /* arguments and files */
    TKT_FAILS(tk_load_safetensors(tkt_ctx, tmp_path("missing"), &f), TK_ERR_IO, "cannot read");
    TKT_FAILS(tk_load_safetensors(tkt_ctx, tmp_dir, &f), TK_ERR_IO, "not a regular file");
    TKT_FAILS(tk_load_safetensors(tkt_ctx, NULL, &f), TK_ERR_INVALID_ARGUMENT, "path");
    TKT_FAILS(tk_safetensors_get(tkt_ctx, NULL, "a", &t), TK_ERR_INVALID_ARGUMENT, "file");
    ck_assert_uint_eq(tk_safetensors_count(NULL), 0);
    tk_safetensors_free(NULL);
}
END_TEST

/* ------------------------------------------------------------ DLPack */

static int producer_deletes;

static void count_delete(DLManagedTensorVersioned *self)
{
    producer_deletes++;
    free(self->dl_tensor.data);
}

/* A producer's managed tensor over fresh memory: n f32 values 0, 1, 2, ... */
static DLManagedTensorVersioned producer(int ndim, int64_t *shape, int64_t *strides, int64_t n)
{
    float *data = malloc((size_t)(n + 4) * sizeof *data);
    for (int64_t i = 0; i < n + 4; i++) data[i] = (float)i;
    return (DLManagedTensorVersioned){
        .version = { 1, 0 },
        .deleter = count_delete,
        .dl_tensor = { .data = data, .device = { kDLCPU, 0 }, .ndim = ndim, .dtype = { kDLFloat, 32, 1 }, .shape = shape, .strides = strides },
    };
}

START_TEST(dlpack_round_trip_shares_memory)
{
    for (int d = 0; d < NUM_DTYPES; d++) {
        tk_tensor *t = sample(DTYPES[d], 2, (int64_t[]){ 3, 5 }, d), *back;
        DLManagedTensorVersioned *m;
        TKT_OK(tk_to_dlpack(tkt_ctx, t, &m));
        ck_assert_ptr_eq(m->dl_tensor.data, tk_tensor_data(t));
        ck_assert_int_eq(m->version.major, 1);
        ck_assert_int_eq(m->flags, 0);
        ck_assert_int_eq(m->dl_tensor.device.device_type, kDLCPU);
        ck_assert_int_eq(m->dl_tensor.ndim, 2);
        ck_assert_int_eq(m->dl_tensor.shape[1], 5);
        ck_assert_int_eq(m->dl_tensor.strides[0], 5);   /* elements, not bytes */
        ck_assert_int_eq(m->dl_tensor.dtype.bits, 8 * tk_dtype_size(DTYPES[d]));
        ck_assert_int_eq(m->dl_tensor.dtype.lanes, 1);
        TKT_OK(tk_from_dlpack(tkt_ctx, m, &back));
        ck_assert_ptr_eq(tk_tensor_data(back), tk_tensor_data(t));
        tkt_expect_equal(back, t, DNAMES[d]);
        /* release order: ours first on even dtypes, the import first on odd ones */
        if (d % 2) TKT_RELEASE(back, t);
        else TKT_RELEASE(t, back);
    }
    /* legacy, and a transposed view: strides travel in elements */
    tk_tensor *base, *t = transposed(TK_DTYPE_F64, &base), *back;
    DLManagedTensor *m;
    TKT_OK(tk_to_dlpack_legacy(tkt_ctx, t, &m));
    ck_assert_int_eq(m->dl_tensor.strides[0], 1);
    ck_assert_int_eq(m->dl_tensor.strides[1], 6);
    ck_assert_int_eq(m->dl_tensor.dtype.code, kDLFloat);
    TKT_OK(tk_from_dlpack_legacy(tkt_ctx, m, &back));
    ck_assert(!tk_tensor_is_contiguous(back));
    tkt_expect_equal(back, t, "legacy transposed");
    TKT_RELEASE(t, base, back);
    /* an export nobody imports: its deleter alone gives the reference back (the harness counts tensors) */
    t = sample(TK_DTYPE_I32, 1, (int64_t[]){ 4 }, 3);
    DLManagedTensorVersioned *mv;
    TKT_OK(tk_to_dlpack(tkt_ctx, t, &mv));
    double first;
    TKT_OK(tk_item(tkt_ctx, t, (int64_t[]){ 0 }, &first));
    tk_tensor_release(t);
    ck_assert_int_eq(((int32_t *)mv->dl_tensor.data)[0], first);   /* still alive: the export holds it */
    mv->deleter(mv);
}
END_TEST

START_TEST(dlpack_import_runs_the_deleter_once)
{
    producer_deletes = 0;
    int64_t shape[2] = { 2, 3 };
    DLManagedTensorVersioned m = producer(2, shape, NULL, 6);
    m.dl_tensor.byte_offset = 8;   /* starts at element 2 */
    DLManagedTensorVersioned *heap = malloc(sizeof *heap);
    *heap = m;
    tk_tensor *t, *extra;
    TKT_OK(tk_from_dlpack(tkt_ctx, heap, &t));
    ck_assert_ptr_eq(tk_tensor_data(t), (char *)m.dl_tensor.data + 8);
    double v;
    TKT_OK(tk_item(tkt_ctx, t, (int64_t[]){ 1, 2 }, &v));
    ck_assert_double_eq(v, 7);   /* element 2 + 5 */
    TKT_OK(tk_fill_(tkt_ctx, t, 42));   /* writable, and written through to the producer's memory */
    ck_assert_float_eq(((float *)m.dl_tensor.data)[2], 42);
    extra = tk_tensor_retain(t);
    tk_tensor_release(t);
    ck_assert_int_eq(producer_deletes, 0);
    tk_tensor_release(extra);
    ck_assert_int_eq(producer_deletes, 1);
    free(heap);

    /* read-only flag → a read-only tensor; exported back, the flag survives */
    producer_deletes = 0;
    DLManagedTensorVersioned ro = producer(1, (int64_t[]){ 4 }, NULL, 4);
    ro.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
    TKT_OK(tk_from_dlpack(tkt_ctx, &ro, &t));
    TKT_FAILS(tk_fill_(tkt_ctx, t, 1), TK_ERR_INVALID_ARGUMENT, "read-only");
    DLManagedTensorVersioned *again;
    TKT_OK(tk_to_dlpack(tkt_ctx, t, &again));
    ck_assert_int_eq(again->flags & DLPACK_FLAG_BITMASK_READ_ONLY, DLPACK_FLAG_BITMASK_READ_ONLY);
    DLManagedTensor *legacy = (DLManagedTensor *)1;
    TKT_FAILS(tk_to_dlpack_legacy(tkt_ctx, t, &legacy), TK_ERR_UNSUPPORTED, "read-only");
    ck_assert_ptr_null(legacy);
    tk_tensor_release(t);
    ck_assert_int_eq(producer_deletes, 0);   /* the export still holds it */
    again->deleter(again);
    ck_assert_int_eq(producer_deletes, 1);
}
END_TEST

START_TEST(dlpack_import_rejects_what_it_cannot_hold)
{
    producer_deletes = 0;
    int64_t shape[9] = { 2, 3, 1, 1, 1, 1, 1, 1, 1 };
    tk_tensor *t = (tk_tensor *)1;
    DLManagedTensorVersioned m = producer(2, shape, NULL, 6);
    m.dl_tensor.device.device_type = kDLCUDA;
    TKT_FAILS(tk_from_dlpack(tkt_ctx, &m, &t), TK_ERR_UNSUPPORTED, "device type 2");
    ck_assert_ptr_null(t);
    m.dl_tensor.device.device_type = kDLCPU;
    m.dl_tensor.dtype.lanes = 4;
    TKT_FAILS(tk_from_dlpack(tkt_ctx, &m, &t), TK_ERR_UNSUPPORTED, "4 lanes");
    m.dl_tensor.dtype = (DLDataType){ kDLComplex, 64, 1 };
    TKT_FAILS(tk_from_dlpack(tkt_ctx, &m, &t), TK_ERR_UNSUPPORTED, "complex64");
    m.dl_tensor.dtype = (DLDataType){ kDLUInt, 128, 1 };
    TKT_FAILS(tk_from_dlpack(tkt_ctx, &m, &t), TK_ERR_UNSUPPORTED, "uint128");
    m.dl_tensor.dtype = (DLDataType){ kDLFloat, 32, 1 };
    int64_t neg[2] = { -3, 1 };
    m.dl_tensor.strides = neg;
    TKT_FAILS(tk_from_dlpack(tkt_ctx, &m, &t), TK_ERR_UNSUPPORTED, "stride -3 of dim 0");
    m.dl_tensor.strides = NULL;
    m.dl_tensor.byte_offset = 2;
    TKT_FAILS(tk_from_dlpack(tkt_ctx, &m, &t), TK_ERR_UNSUPPORTED, "not aligned");
    m.dl_tensor.byte_offset = 0;
    m.dl_tensor.ndim = 9;
    TKT_FAILS(tk_from_dlpack(tkt_ctx, &m, &t), TK_ERR_UNSUPPORTED, "9 dims");
    m.dl_tensor.ndim = 2;
    m.dl_tensor.shape = NULL;
    TKT_FAILS(tk_from_dlpack(tkt_ctx, &m, &t), TK_ERR_INVALID_ARGUMENT, "shape is NULL");
    m.dl_tensor.shape = shape;
    shape[0] = -2;
    TKT_FAILS(tk_from_dlpack(tkt_ctx, &m, &t), TK_ERR_INVALID_ARGUMENT, "negative");
    shape[0] = 2;
    m.version.major = 2;
    TKT_FAILS(tk_from_dlpack(tkt_ctx, &m, &t), TK_ERR_UNSUPPORTED, "version 2.0");
    TKT_FAILS(tk_from_dlpack(tkt_ctx, NULL, &t), TK_ERR_INVALID_ARGUMENT, "managed");
    TKT_FAILS(tk_to_dlpack(tkt_ctx, NULL, &(DLManagedTensorVersioned *){ 0 }), TK_ERR_INVALID_ARGUMENT, "t");
    ck_assert_int_eq(producer_deletes, 0);   /* a refused import leaves the managed tensor to its owner */
    m.version.major = 1;
    m.deleter(&m);
    ck_assert_int_eq(producer_deletes, 1);
}
END_TEST

static Suite *io_suite(void)
{
    Suite *s = suite_create("tensor_io");
    TCase *onnx = tkt_case("onnx"), *st = tkt_case("safetensors"), *dl = tkt_case("dlpack");
    TCase *cases[] = { onnx, st, dl };
    for (unsigned i = 0; i < 3; i++) tcase_add_checked_fixture(cases[i], io_setup, io_teardown);
    tcase_add_test(onnx, onnx_reads_python_files);
    tcase_add_test(onnx, onnx_round_trip_every_dtype);
    tcase_add_test(onnx, onnx_rejects_malformed_files);
    tcase_add_test(st, safetensors_reads_python_file);
    tcase_add_test(st, safetensors_misaligned_data_is_copied);
    tcase_add_test(st, safetensors_round_trip_every_dtype);
    tcase_add_test(st, safetensors_save_rejects_bad_arguments);
    tcase_add_test(st, safetensors_rejects_malformed_files);
    tcase_add_test(dl, dlpack_round_trip_shares_memory);
    tcase_add_test(dl, dlpack_import_runs_the_deleter_once);
    tcase_add_test(dl, dlpack_import_rejects_what_it_cannot_hold);
    for (unsigned i = 0; i < 3; i++) suite_add_tcase(s, cases[i]);
    return s;
}

TKT_MAIN(io_suite)
