/* model_read.c — an ONNX ModelProto (onnx.proto, proto2) read into the IR
 * of onnx_ir.h with the bounds-checked wire reader of runtime/io/pb_wire.h.
 * Fields read (others are skipped, as protobuf allows):
 *
 *   ModelProto      1 ir_version  7 graph  8 opset_import {1 domain, 2 version}
 *   GraphProto      1 node  2 name  5 initializer  11 input  12 output  13 value_info
 *                   (15 sparse_initializer: refused)
 *   NodeProto       1 input  2 output  3 name  4 op_type  5 attribute  7 domain
 *   AttributeProto  1 name  20 type  2 f  3 i  4 s  5 t  6 g  7 floats  8 ints
 *                   9 strings  10 tensors  11 graphs  (21 ref_attr_name: functions only, refused)
 *   ValueInfoProto  1 name  2 type: TypeProto {1 tensor_type {1 elem_type,
 *                   2 shape {1 dim {1 dim_value, 2 dim_param}}}, 4 sequence,
 *                   5 map, 7 opaque, 8 sparse_tensor, 9 optional}
 *
 * A graph is read in two sweeps over its bytes: first the values it defines
 * (inputs, initializers, node outputs), then the nodes' inputs, so a name a
 * subgraph does not define is looked up in the enclosing graphs (an outer
 * value) whatever order the nodes come in. Initializers are decoded by
 * runtime/io/onnx_tensor.c straight from the mapped file: aligned raw_data
 * becomes a view of the mapping, not a copy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "onnx_ir.h"
#include "onnx_tensor.h"
#include "pb_wire.h"

#define MAX_GRAPH_DEPTH 32   /* subgraphs nested deeper are refused (a crafted file could recurse without end) */

typedef struct {
    TkoModel *m;
    const uint8_t *base;
    size_t len;
    TkrOnnxSource src;
    int depth;
} Reader;

static tk_status bad(Reader *rd, const char *what, size_t at)
{
    return tkr_error(rd->m->ctx, TK_ERR_IO, "tk_onnx_load: '%s' is not a valid ONNX model: %s at byte %zu", rd->m->path, what, at);
}

static tk_status malformed(Reader *rd, const TkrPbReader *r)
{
    return bad(rd, r->error, r->error_at);
}

static tk_status oom(Reader *rd)
{
    return tkr_error(rd->m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory reading '%s'", rd->m->path);
}

static tk_status want(Reader *rd, const TkrPbField *f, TkrPbWireType w, const char *field)
{
    if (f->wire == w) return TK_OK;
    char msg[160];
    snprintf(msg, sizeof msg, "%s has wire type %s", field, tkr_pb_wire_name(f->wire));
    return bad(rd, msg, f->offset);
}

static char *str_of(Reader *rd, const TkrPbField *f)
{
    return tko_strndup(&rd->m->arena, f->bytes, f->len);
}

/* ------------------------------------------------------------ external data */

static tk_status resolve_external(void *arg, const char *location, TkrFileMap **out)
{
    TkoModel *m = arg;
    for (int i = 0; i < m->n_ext; i++)
        if (strcmp(m->ext_names[i], location) == 0) {
            *out = m->ext_maps[i];
            return TK_OK;
        }
    if (!m->dir)
        return tkr_error(m->ctx, TK_ERR_UNSUPPORTED, "tk_onnx_load: '%s' refers to external data '%s', but a model loaded from memory has no folder",
                         m->path, location);
    size_t n = strlen(m->dir) + strlen(location) + 2;
    char *path = malloc(n);
    TkrFileMap **maps = realloc(m->ext_maps, (size_t)(m->n_ext + 1) * sizeof *maps);
    if (maps) m->ext_maps = maps;
    char **names = realloc(m->ext_names, (size_t)(m->n_ext + 1) * sizeof *names);
    if (names) m->ext_names = names;
    char *name = strdup(location);
    if (!path || !maps || !names || !name) {
        free(path), free(name);
        return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory");
    }
    snprintf(path, n, "%s/%s", m->dir, location);
    tk_status s = tkr_file_map(m->ctx, "tk_onnx_load (external data)", path, out);
    free(path);
    if (s) {
        free(name);
        return s;
    }
    m->ext_maps[m->n_ext] = *out;
    m->ext_names[m->n_ext++] = name;
    return TK_OK;
}

/* ------------------------------------------------------------ types */

static tk_status read_shape(Reader *rd, const TkrPbReader *parent, const TkrPbField *sf, TkoType *t)
{
    TkoArena *a = &rd->m->arena;
    TkrPbReader r = tkr_pb_sub_reader(parent, sf);
    TkrPbField f;
    int n = 0;
    while (tkr_pb_next(&r, &f))
        if (f.number == 1) n++;
    if (r.error) return malformed(rd, &r);
    if (n > TK_MAX_DIMS) {
        char msg[96];
        snprintf(msg, sizeof msg, "a value type of rank %d (at most %d is supported)", n, TK_MAX_DIMS);
        return tkr_error(rd->m->ctx, TK_ERR_UNSUPPORTED, "tk_onnx_load: '%s': %s at byte %zu", rd->m->path, msg, sf->offset);
    }
    t->ndim = n;
    t->dims = tko_alloc(a, (size_t)(n ? n : 1) * sizeof *t->dims);
    t->dim_names = tko_alloc(a, (size_t)(n ? n : 1) * sizeof *t->dim_names);
    if (!t->dims || !t->dim_names) return oom(rd);
    r = tkr_pb_sub_reader(parent, sf);
    int d = 0;
    while (tkr_pb_next(&r, &f)) {
        if (f.number != 1) continue;
        tk_status s = want(rd, &f, TKR_PB_BYTES, "TensorShapeProto.dim");
        if (s) return s;
        t->dims[d] = -1;
        TkrPbReader dr = tkr_pb_sub_reader(&r, &f);
        TkrPbField df;
        while (tkr_pb_next(&dr, &df)) {
            if (df.number == 1 && df.wire == TKR_PB_VARINT) {
                /* some exporters (Paddle's) write -1 for a size they do not know: read it as symbolic */
                t->dims[d] = (int64_t)df.varint < 0 ? -1 : (int64_t)df.varint;
            } else if (df.number == 2 && df.wire == TKR_PB_BYTES) {
                if (!(t->dim_names[d] = str_of(rd, &df))) return oom(rd);
            }
        }
        if (dr.error) return malformed(rd, &dr);
        d++;
    }
    return TK_OK;
}

static tk_status read_type(Reader *rd, const TkrPbReader *parent, const TkrPbField *tf, TkoType *t)
{
    TkrPbReader r = tkr_pb_sub_reader(parent, tf);
    TkrPbField f;
    tk_status s = TK_OK;
    while (!s && tkr_pb_next(&r, &f)) {
        switch (f.number) {
        case 1: {   /* tensor_type */
            if ((s = want(rd, &f, TKR_PB_BYTES, "TypeProto.tensor_type"))) break;
            t->known = true, t->kind = "tensor";
            TkrPbReader tr = tkr_pb_sub_reader(&r, &f);
            TkrPbField ff;
            while (!s && tkr_pb_next(&tr, &ff)) {
                if (ff.number == 1 && ff.wire == TKR_PB_VARINT) t->elem_type = (int)ff.varint;
                else if (ff.number == 2 && ff.wire == TKR_PB_BYTES) s = read_shape(rd, &tr, &ff, t);
            }
            if (!s && tr.error) s = malformed(rd, &tr);
            break;
        }
        case 4: t->kind = "sequence"; break;
        case 5: t->kind = "map"; break;
        case 7: t->kind = "opaque"; break;
        case 8: t->kind = "sparse_tensor"; break;
        case 9: t->kind = "optional"; break;
        default: break;
        }
    }
    if (!s && r.error) s = malformed(rd, &r);
    return s;
}

/* ValueInfoProto: its name and type; *name_out may be NULL (nameless). */
static tk_status read_value_info(Reader *rd, const TkrPbReader *parent, const TkrPbField *vf, const char **name_out, TkoType *t)
{
    TkrPbReader r = tkr_pb_sub_reader(parent, vf);
    TkrPbField f;
    tk_status s = TK_OK;
    *name_out = NULL;
    memset(t, 0, sizeof *t);
    t->ndim = -1;
    while (!s && tkr_pb_next(&r, &f)) {
        if (f.number == 1) {
            if (!(s = want(rd, &f, TKR_PB_BYTES, "ValueInfoProto.name")) && !(*name_out = str_of(rd, &f))) s = oom(rd);
        } else if (f.number == 2) {
            if (!(s = want(rd, &f, TKR_PB_BYTES, "ValueInfoProto.type"))) s = read_type(rd, &r, &f, t);
        }
    }
    if (!s && r.error) s = malformed(rd, &r);
    return s;
}

/* ------------------------------------------------------------ tensors */

static tk_status read_tensor(Reader *rd, const TkrPbField *f, const char *what, tk_tensor **out, const uint8_t **name,
                             size_t *name_len)
{
    return tkr_onnx_tensor_decode(rd->m->ctx, "tk_onnx_load", what, &rd->src, f->bytes, f->len, out, name, name_len);
}

/* ------------------------------------------------------------ attributes and nodes */

static tk_status read_graph(Reader *rd, const uint8_t *bytes, size_t len, size_t offset, TkoGraph *parent, TkoGraph **out);

static tk_status count_repeated(Reader *rd, const TkrPbReader *r, const TkrPbField *f, int *n, size_t width)
{
    if (f->wire == TKR_PB_BYTES && width) {
        if (f->len % width) return bad(rd, "a packed float list whose length is not a multiple of 4", f->offset);
        *n += (int)(f->len / width);
    } else if (f->wire == TKR_PB_BYTES) {
        TkrPbReader run = tkr_pb_sub_reader(r, f);
        int64_t k = tkr_pb_count_varints(&run);
        if (k < 0) return malformed(rd, &run);
        *n += (int)k;
    } else (*n)++;
    if (*n > (1 << 24)) return bad(rd, "an attribute list of more than 16M elements", f->offset);
    return TK_OK;
}

static tk_status read_attr(Reader *rd, TkoGraph *g, const TkrPbReader *parent, const TkrPbField *af, TkoAttr *at)
{
    TkoArena *a = &rd->m->arena;
    TkrPbReader r = tkr_pb_sub_reader(parent, af);
    TkrPbField f;
    tk_status s = TK_OK;
    int nf = 0, ni = 0, ns = 0, ng = 0, nt = 0;
    bool has_type = false;
    /* sweep 1: scalars and counts */
    while (!s && tkr_pb_next(&r, &f)) {
        switch (f.number) {
        case 1:
            if (!(s = want(rd, &f, TKR_PB_BYTES, "AttributeProto.name")) && !(at->name = str_of(rd, &f))) s = oom(rd);
            break;
        case 20:
            if (!(s = want(rd, &f, TKR_PB_VARINT, "AttributeProto.type"))) at->type = (TkoAttrType)f.varint, has_type = true;
            break;
        case 2:
            if (!(s = want(rd, &f, TKR_PB_FIXED32, "AttributeProto.f"))) memcpy(&at->f, &f.varint, 4);
            break;
        case 3:
            if (!(s = want(rd, &f, TKR_PB_VARINT, "AttributeProto.i"))) at->i = (int64_t)f.varint;
            break;
        case 4:
            if (!(s = want(rd, &f, TKR_PB_BYTES, "AttributeProto.s"))) {
                if (!(at->s = str_of(rd, &f))) s = oom(rd);
                at->slen = f.len;
            }
            break;
        case 5:
            if (at->t) s = bad(rd, "AttributeProto.t given twice", f.offset);
            else if (!(s = want(rd, &f, TKR_PB_BYTES, "AttributeProto.t")))
                s = read_tensor(rd, &f, "a tensor attribute", &at->t, NULL, NULL);
            break;
        case 6:
            if (at->g) s = bad(rd, "AttributeProto.g given twice", f.offset);
            else if (!(s = want(rd, &f, TKR_PB_BYTES, "AttributeProto.g"))) s = read_graph(rd, f.bytes, f.len, f.offset, g, &at->g);
            break;
        case 7: s = count_repeated(rd, &r, &f, &nf, 4); break;
        case 8: s = count_repeated(rd, &r, &f, &ni, 0); break;
        case 9: ns++; break;
        case 10: nt++; break;
        case 11: ng++; break;
        case 21: return tkr_error(rd->m->ctx, TK_ERR_UNSUPPORTED, "tk_onnx_load: '%s': attribute refers to a function attribute (ref_attr_name) outside a function",
                                  rd->m->path);
        default: break;
        }
    }
    if (!s && r.error) s = malformed(rd, &r);
    if (s) return s;
    if (!at->name) return bad(rd, "an attribute without a name", af->offset);
    if (!has_type) {   /* IR < 3 wrote no type: infer it from the field present */
        at->type = nf ? TKO_ATTR_FLOATS : ni ? TKO_ATTR_INTS : ns ? TKO_ATTR_STRINGS : ng ? TKO_ATTR_GRAPHS : at->g ? TKO_ATTR_GRAPH
                 : at->t ? TKO_ATTR_TENSOR : at->s ? TKO_ATTR_STRING : TKO_ATTR_INT;
    }
    if (nt) return tkr_error(rd->m->ctx, TK_ERR_UNSUPPORTED, "tk_onnx_load: '%s': attribute '%s' is a list of tensors (TENSORS), which no supported op takes",
                             rd->m->path, at->name);
    at->floats = tko_alloc(a, (size_t)(nf ? nf : 1) * sizeof(float));
    at->ints = tko_alloc(a, (size_t)(ni ? ni : 1) * sizeof(int64_t));
    at->strings = tko_alloc(a, (size_t)(ns ? ns : 1) * sizeof(char *));
    at->graphs = tko_alloc(a, (size_t)(ng ? ng : 1) * sizeof(TkoGraph *));
    if (!at->floats || !at->ints || !at->strings || !at->graphs) return oom(rd);
    at->n = at->type == TKO_ATTR_FLOATS ? nf : at->type == TKO_ATTR_INTS ? ni : at->type == TKO_ATTR_STRINGS ? ns
          : at->type == TKO_ATTR_GRAPHS ? ng : 0;
    /* sweep 2: the lists */
    r = tkr_pb_sub_reader(parent, af);
    int kf = 0, ki = 0, ks = 0, kg = 0;
    while (!s && tkr_pb_next(&r, &f)) {
        if (f.number == 7) {
            if (f.wire == TKR_PB_BYTES) memcpy(at->floats + kf, f.bytes, f.len), kf += (int)(f.len / 4);
            else if (f.wire == TKR_PB_FIXED32) memcpy(at->floats + kf++, &f.varint, 4);
            else s = want(rd, &f, TKR_PB_FIXED32, "AttributeProto.floats");
        } else if (f.number == 8) {
            if (f.wire == TKR_PB_VARINT) at->ints[ki++] = (int64_t)f.varint;
            else if (f.wire == TKR_PB_BYTES) {
                TkrPbReader run = tkr_pb_sub_reader(&r, &f);
                uint64_t v;
                while (run.p < run.end && tkr_pb_read_varint(&run, &v)) at->ints[ki++] = (int64_t)v;
            } else s = want(rd, &f, TKR_PB_VARINT, "AttributeProto.ints");
        } else if (f.number == 9) {
            if (!(s = want(rd, &f, TKR_PB_BYTES, "AttributeProto.strings")) && !(at->strings[ks++] = str_of(rd, &f))) s = oom(rd);
        } else if (f.number == 11) {
            if (!(s = want(rd, &f, TKR_PB_BYTES, "AttributeProto.graphs")))
                s = read_graph(rd, f.bytes, f.len, f.offset, g, &at->graphs[kg++]), at->ngraphs = kg;   /* owned even if s */
        }
    }
    return s;
}

/* The index of `name` in g: a local value, or an outer one made in g and in
 * every graph between g and the one that defines it (so each level can bind
 * it from its parent). -1 when no graph defines it, -2 out of memory. */
static int resolve(TkoArena *a, TkoGraph *g, const char *name)
{
    int v = tko_value(a, g, name, false);
    if (v >= 0 || !g->parent) return v;
    int pv = resolve(a, g->parent, name);
    if (pv < 0) return pv;
    if ((v = tko_value(a, g, name, true)) < 0) return -2;
    g->values[v].is_outer = true;
    g->values[v].outer_index = pv;
    return v;
}

/* A node's outputs are defined in sweep 1 (define = true), its inputs and
 * attributes read in sweep 2. */
static tk_status read_node(Reader *rd, TkoGraph *g, const TkrPbReader *parent, const TkrPbField *nf, TkoNode *n, bool define)
{
    TkoArena *a = &rd->m->arena;
    TkrPbReader r = tkr_pb_sub_reader(parent, nf);
    TkrPbField f;
    tk_status s = TK_OK;
    int nin = 0, nout = 0, nattr = 0;
    while (tkr_pb_next(&r, &f)) nin += f.number == 1, nout += f.number == 2, nattr += f.number == 5;
    if (r.error) return malformed(rd, &r);
    if (define) {
        n->outputs = tko_alloc(a, (size_t)(nout ? nout : 1) * sizeof(int));
        n->name = n->op = n->domain = "";
    } else {
        n->inputs = tko_alloc(a, (size_t)(nin ? nin : 1) * sizeof(int));
        n->attrs = tko_alloc(a, (size_t)(nattr ? nattr : 1) * sizeof(TkoAttr));
    }
    if ((define && !n->outputs) || (!define && (!n->inputs || !n->attrs))) return oom(rd);
    r = tkr_pb_sub_reader(parent, nf);
    while (!s && tkr_pb_next(&r, &f)) {
        const char *field = f.number == 1 ? "NodeProto.input" : f.number == 2 ? "NodeProto.output" : f.number == 3 ? "NodeProto.name"
                          : f.number == 4 ? "NodeProto.op_type" : f.number == 7 ? "NodeProto.domain" : "NodeProto.attribute";
        if (f.number < 1 || f.number > 7 || f.number == 6) continue;
        if ((s = want(rd, &f, TKR_PB_BYTES, field))) break;
        /* sweep 1 keeps the outputs, name, op and domain; sweep 2 the inputs */
        bool keep = define ? f.number != 1 && f.number != 5 : f.number == 1;
        char *str = keep ? str_of(rd, &f) : NULL;
        if (keep && !str) return oom(rd);
        if (define) {
            if (f.number == 2) {
                int v = TKO_NO_VALUE;
                if (*str) {
                    if ((v = tko_value(a, g, str, true)) < 0) return oom(rd);
                    if (g->values[v].producer != -1 || g->values[v].constant)
                        return bad(rd, "a value written by two nodes (or a node and an initializer)", f.offset);
                    g->values[v].producer = (int)(n - g->nodes);
                }
                n->outputs[n->nout++] = v;
            } else if (f.number == 3) n->name = str;
            else if (f.number == 4) n->op = str;
            else if (f.number == 7) n->domain = strcmp(str, "ai.onnx") == 0 ? "" : str;
        } else if (f.number == 1) {
            int v = TKO_NO_VALUE;
            if (*str) {
                v = resolve(a, g, str);   /* here, or a value of an enclosing graph */
                if (v == -2) return oom(rd);
                if (v < 0)
                    return tkr_error(rd->m->ctx, TK_ERR_IO,
                                     "tk_onnx_load: '%s': node '%s' (%s) reads '%s', which no node, input or initializer defines",
                                     rd->m->path, n->name, n->op, str);
            }
            n->inputs[n->nin++] = v;
        } else if (f.number == 5) {
            s = read_attr(rd, g, &r, &f, &n->attrs[n->nattrs]);
            n->nattrs++;   /* counted even when it failed, so destroy releases what it holds */
            for (int k = 0; !s && k < n->nattrs - 1; k++)
                if (strcmp(n->attrs[k].name, n->attrs[n->nattrs - 1].name) == 0)
                    s = tkr_error(rd->m->ctx, TK_ERR_IO, "tk_onnx_load: '%s': node '%s' (%s) has attribute '%s' twice", rd->m->path,
                                  n->name, n->op, n->attrs[k].name);
        }
    }
    if (!s && define && !*n->op) return bad(rd, "a node without op_type", nf->offset);
    return s;
}

/* ------------------------------------------------------------ graphs */

static tk_status read_graph(Reader *rd, const uint8_t *bytes, size_t len, size_t offset, TkoGraph *parent, TkoGraph **out)
{
    TkoArena *a = &rd->m->arena;
    if (++rd->depth > MAX_GRAPH_DEPTH) return bad(rd, "subgraphs nested more than 32 deep", offset);
    TkoGraph *g = tko_alloc(a, sizeof *g);
    if (!g) return oom(rd);
    *out = g;
    g->parent = parent;
    g->name = "";
    /* a reader over the graph's bytes that reports offsets in the file */
    TkrPbReader outer = tkr_pb_reader(rd->base, rd->len);
    TkrPbField gf = { .number = 0, .wire = TKR_PB_BYTES, .bytes = bytes, .len = len, .offset = offset };
    TkrPbReader r = tkr_pb_sub_reader(&outer, &gf);
    TkrPbField f;
    int nnodes = 0, nin = 0, nout = 0;
    while (tkr_pb_next(&r, &f)) {
        if (f.number == 1) nnodes++;
        else if (f.number == 11) nin++;
        else if (f.number == 12) nout++;
        else if (f.number == 15)
            return tkr_error(rd->m->ctx, TK_ERR_UNSUPPORTED, "tk_onnx_load: '%s': sparse initializers are not supported", rd->m->path);
    }
    if (r.error) return malformed(rd, &r);
    g->nodes = tko_alloc(a, (size_t)(nnodes ? nnodes : 1) * sizeof *g->nodes);
    g->inputs = tko_alloc(a, (size_t)(nin ? nin : 1) * sizeof(int));
    g->outputs = tko_alloc(a, (size_t)(nout ? nout : 1) * sizeof(int));
    if (!g->nodes || !g->inputs || !g->outputs) return oom(rd);

    /* sweep 1: what the graph defines — inputs, initializers, node outputs */
    tk_status s = TK_OK;
    r = tkr_pb_sub_reader(&outer, &gf);
    while (!s && tkr_pb_next(&r, &f)) {
        if (f.number == 2 && f.wire == TKR_PB_BYTES) {
            if (!(g->name = str_of(rd, &f))) s = oom(rd);
        } else if (f.number == 11 || f.number == 13) {
            const char *name;
            TkoType t;
            if ((s = want(rd, &f, TKR_PB_BYTES, f.number == 11 ? "GraphProto.input" : "GraphProto.value_info"))) break;
            if ((s = read_value_info(rd, &r, &f, &name, &t))) break;
            if (!name || !*name) {
                if (f.number == 11) s = bad(rd, "a graph input without a name", f.offset);
                continue;
            }
            int v = tko_value(a, g, name, f.number == 11);
            if (f.number == 11 && v < 0) s = oom(rd);
            else if (v >= 0) {
                g->values[v].type = t;
                if (f.number == 11) g->inputs[g->nin++] = v;
            }
        } else if (f.number == 5) {
            if ((s = want(rd, &f, TKR_PB_BYTES, "GraphProto.initializer"))) break;
            const uint8_t *nm;
            size_t nlen = 0;
            tk_tensor *t = NULL;
            char what[96];
            snprintf(what, sizeof what, "the initializer at byte %zu", f.offset);
            if ((s = read_tensor(rd, &f, what, &t, &nm, &nlen))) break;
            char *name = tko_strndup(a, nm, nlen);
            int v = name ? tko_value(a, g, name, true) : -1;
            if (v < 0) {
                tk_tensor_release(t);
                s = oom(rd);
            } else if (g->values[v].constant) {
                tk_tensor_release(t);
                s = tkr_error(rd->m->ctx, TK_ERR_IO, "tk_onnx_load: '%s': two initializers are named '%s'", rd->m->path, name);
            } else g->values[v].constant = t;
        } else if (f.number == 1) {
            if ((s = want(rd, &f, TKR_PB_BYTES, "GraphProto.node"))) break;
            TkoNode *n = &g->nodes[g->nnodes++];
            s = read_node(rd, g, &r, &f, n, true);
        }
    }
    if (s) return s;
    /* sweep 2: node inputs (outer values resolved now that every local name is known), outputs */
    r = tkr_pb_sub_reader(&outer, &gf);
    int k = 0;
    while (!s && tkr_pb_next(&r, &f)) {
        if (f.number == 1) s = read_node(rd, g, &r, &f, &g->nodes[k++], false);
        else if (f.number == 12) {
            const char *name;
            TkoType t;
            if ((s = want(rd, &f, TKR_PB_BYTES, "GraphProto.output")) || (s = read_value_info(rd, &r, &f, &name, &t))) break;
            int v = name && *name ? resolve(a, g, name) : -1;   /* a subgraph may output an outer value as it is */
            if (v == -2) return oom(rd);
            if (v < 0)
                return tkr_error(rd->m->ctx, TK_ERR_IO, "tk_onnx_load: '%s': graph output '%s' is not defined by any node, input or initializer",
                                 rd->m->path, name ? name : "");
            if ((t.known || t.kind) && !g->values[v].type.known && !g->values[v].type.kind) g->values[v].type = t;
            g->outputs[g->nout++] = v;
        }
    }
    if (s) return s;
    /* graph inputs that are initializers too (IR < 4 listed them so) are constants, not inputs */
    int nreal = 0;
    for (int i = 0; i < g->nin; i++)
        if (!g->values[g->inputs[i]].constant) g->inputs[nreal++] = g->inputs[i];
    g->nin = nreal;
    /* outer values, for binding at run time */
    for (int v = 0; v < g->nvalues; v++) g->nouter += g->values[v].is_outer;
    g->outer = tko_alloc(a, (size_t)(g->nouter ? g->nouter : 1) * sizeof(int));
    if (!g->outer) return oom(rd);
    g->nouter = 0;
    for (int v = 0; v < g->nvalues; v++)
        if (g->values[v].is_outer) g->outer[g->nouter++] = v;
    rd->depth--;
    return TK_OK;
}

/* ------------------------------------------------------------ the model */

tk_status tko_read_model(TkoModel *m, const uint8_t *buf, size_t len)
{
    Reader rd = { m, buf, len, { m->map, resolve_external, m }, 0 };
    TkrPbReader r = tkr_pb_reader(buf, len);
    TkrPbField f, graph = { 0 };
    int nopsets = 0;
    bool has_graph = false;
    while (tkr_pb_next(&r, &f)) {
        if (f.number == 8) nopsets++;
        if (f.number == 7 && f.wire == TKR_PB_BYTES) graph = f, has_graph = true;
        if (f.number == 1 && f.wire == TKR_PB_VARINT) m->ir_version = (int64_t)f.varint;
    }
    if (r.error) return malformed(&rd, &r);
    if (!has_graph) return bad(&rd, "no graph (ModelProto field 7)", 0);
    if (m->ir_version < 3 && m->ir_version != 0)
        return tkr_error(m->ctx, TK_ERR_UNSUPPORTED, "tk_onnx_load: '%s' has IR version %lld; versions 3 and later are supported",
                         m->path, (long long)m->ir_version);
    m->opsets = tko_alloc(&m->arena, (size_t)(nopsets + 1) * sizeof *m->opsets);
    if (!m->opsets) return oom(&rd);
    r = tkr_pb_reader(buf, len);
    tk_status s = TK_OK;
    while (!s && tkr_pb_next(&r, &f)) {
        if (f.number != 8) continue;
        if ((s = want(&rd, &f, TKR_PB_BYTES, "ModelProto.opset_import"))) break;
        TkoOpset *o = &m->opsets[m->nopsets];
        TkrPbReader orr = tkr_pb_sub_reader(&r, &f);
        TkrPbField of;
        while (tkr_pb_next(&orr, &of)) {
            if (of.number == 1 && of.wire == TKR_PB_BYTES) {
                if (of.len >= sizeof o->domain) return bad(&rd, "an opset domain longer than 63 bytes", of.offset);
                memcpy(o->domain, of.bytes, of.len);
                o->domain[of.len] = 0;
            } else if (of.number == 2 && of.wire == TKR_PB_VARINT) o->version = (int64_t)of.varint;
        }
        if (orr.error) return malformed(&rd, &orr);
        if (strcmp(o->domain, "ai.onnx") == 0) o->domain[0] = 0;
        m->nopsets++;
    }
    if (s) return s;
    if (!m->nopsets) {   /* IR 3 without opset_import: opset 1 of the default domain */
        m->opsets[0].version = 1;
        m->nopsets = 1;
    }
    return read_graph(&rd, graph.bytes, graph.len, graph.offset, NULL, &m->graph);
}
