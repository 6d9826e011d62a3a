/* types.c — see types.h. */
#include "types.h"

#include <stdio.h>
#include <string.h>

#define SCALAR(name, k) TkType name = { .kind = k }
SCALAR(tk_type_error, TK_TY_ERROR);
SCALAR(tk_type_void, TK_TY_VOID);
SCALAR(tk_type_bool, TK_TY_BOOL);
SCALAR(tk_type_i32, TK_TY_I32);
SCALAR(tk_type_i64, TK_TY_I64);
SCALAR(tk_type_f32, TK_TY_F32);
SCALAR(tk_type_f16, TK_TY_F16);
SCALAR(tk_type_bf16, TK_TY_BF16);
SCALAR(tk_type_uint, TK_TY_UINT);
SCALAR(tk_type_ufloat, TK_TY_UFLOAT);
#undef SCALAR

TkType *tk_type_scalar(TkTypeKind kind)
{
    switch (kind) {
    case TK_TY_VOID: return &tk_type_void;
    case TK_TY_BOOL: return &tk_type_bool;
    case TK_TY_I32: return &tk_type_i32;
    case TK_TY_I64: return &tk_type_i64;
    case TK_TY_F32: return &tk_type_f32;
    case TK_TY_F16: return &tk_type_f16;
    case TK_TY_BF16: return &tk_type_bf16;
    case TK_TY_UINT: return &tk_type_uint;
    case TK_TY_UFLOAT: return &tk_type_ufloat;
    default: return &tk_type_error;
    }
}

TkType *tk_type_tile(TkArena *a, TkTypeKind kind, TkTypeKind elem, int64_t rows, int64_t cols, TkLayout layout)
{
    TkType *t = tk_arena_alloc(a, sizeof *t);
    if (!t) return &tk_type_error;
    t->kind = kind;
    t->elem = elem;
    t->rank = 2;
    t->dims[0] = rows;
    t->dims[1] = cols;
    t->layout = kind == TK_TY_RT ? layout : TK_ROW;
    return t;
}

TkType *tk_type_vec(TkArena *a, TkTypeKind kind, TkTypeKind elem, int64_t n)
{
    TkType *t = tk_arena_alloc(a, sizeof *t);
    if (!t) return &tk_type_error;
    t->kind = kind;
    t->elem = elem;
    t->rank = 1;
    t->dims[0] = n;
    return t;
}

TkType *tk_type_with_elem(TkArena *a, const TkType *t, TkTypeKind elem)
{
    if (tk_is_scalar(t->kind)) return tk_type_scalar(elem);
    TkType *n = tk_arena_alloc(a, sizeof *n);
    if (!n) return &tk_type_error;
    *n = *t;
    n->elem = elem;
    return n;
}

bool tk_type_equal(const TkType *a, const TkType *b)
{
    if (a == b) return true;
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case TK_TY_RT:
        return a->elem == b->elem && a->dims[0] == b->dims[0] && a->dims[1] == b->dims[1] && a->layout == b->layout;
    case TK_TY_ST:
        return a->elem == b->elem && a->dims[0] == b->dims[0] && a->dims[1] == b->dims[1];
    case TK_TY_RV:
    case TK_TY_SV:
        return a->elem == b->elem && a->dims[0] == b->dims[0];
    case TK_TY_GL:
        if (a->elem != b->elem || a->rank != b->rank || a->layout != b->layout) return false;
        for (unsigned i = 0; i < a->rank; i++)
            if (!tk_poly_eq(&a->gdims[i], &b->gdims[i])) return false;
        return true;
    default:
        return true;   /* scalars are singletons, but copies compare by kind */
    }
}

const char *tk_type_kind_name(TkTypeKind k)
{
    switch (k) {
    case TK_TY_ERROR: return "<error>";
    case TK_TY_VOID: return "nothing";
    case TK_TY_BOOL: return "bool";
    case TK_TY_I32: return "i32";
    case TK_TY_I64: return "i64";
    case TK_TY_F32: return "f32";
    case TK_TY_F16: return "f16";
    case TK_TY_BF16: return "bf16";
    case TK_TY_UINT: return "integer constant";
    case TK_TY_UFLOAT: return "float constant";
    case TK_TY_RT: return "rt";
    case TK_TY_ST: return "st";
    case TK_TY_RV: return "rv";
    case TK_TY_SV: return "sv";
    case TK_TY_GL: return "gl";
    }
    return "?";
}

static const char *size_name(void *ctx, TkSizeVar v)
{
    const TkSizeNames *names = ctx;
    return names && v < names->count ? names->names[v] : "?";
}

int tk_type_format(const TkType *t, char *buf, size_t size)
{
    const char *k = tk_type_kind_name(t->kind);
    const char *e = tk_type_kind_name(t->elem);
    switch (t->kind) {
    case TK_TY_RT:
        return snprintf(buf, size, "rt<%s, %lld, %lld, %s>", e, (long long)t->dims[0], (long long)t->dims[1],
                        t->layout == TK_COL ? "col" : "row");
    case TK_TY_ST:
        return snprintf(buf, size, "st<%s, %lld, %lld>", e, (long long)t->dims[0], (long long)t->dims[1]);
    case TK_TY_RV:
    case TK_TY_SV:
        return snprintf(buf, size, "%s<%s, %lld>", k, e, (long long)t->dims[0]);
    case TK_TY_GL: {
        size_t len = 0;
        int n = snprintf(buf, size, "gl<%s", e);
        if (n < 0) return n;
        len = (size_t)n;
        for (unsigned i = 0; i < t->rank; i++) {
            n = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, ", ");
            len += (size_t)n;
            n = tk_poly_format(&t->gdims[i], size_name, (void *)t->size_names, len < size ? buf + len : NULL,
                               len < size ? size - len : 0);
            len += (size_t)n;
        }
        n = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, "%s>", t->layout == TK_PACKED ? ", packed" : "");
        return (int)(len + (size_t)n);
    }
    default:
        return snprintf(buf, size, "%s", k);
    }
}
