/* op_table.c — every ONNX op we implement, found by (domain, op, opset).
 * The families live in ops/op_*.c; a new family is one line here. */
#include <string.h>

#include "op.h"

static const TkoOpFamily *const families[] = {
    &tko_ops_elementwise,
    &tko_ops_shape,
    &tko_ops_nn,
    &tko_ops_reduce,
    &tko_ops_control,
    &tko_ops_rnn,
    &tko_ops_sequence,
    &tko_ops_fused,
    &tko_ops_quant,
    &tko_ops_misc,
    &tko_ops_loss,
    &tko_ops_signal,
    &tko_ops_ext,
    &tko_ops_contrib,
};
#define NUM_FAMILIES (sizeof families / sizeof families[0])

const TkoOpDef *tko_find_op(const char *domain, const char *op, int opset, const char **why)
{
    const TkoOpDef *best = NULL;
    int lowest = 0, highest = 0;
    bool named = false;
    for (size_t f = 0; f < NUM_FAMILIES; f++)
        for (int i = 0; i < families[f]->n; i++) {
            const TkoOpDef *d = &families[f]->defs[i];
            if (strcmp(d->name, op) != 0 || strcmp(d->domain, domain) != 0) continue;
            if (!named || d->since_version < lowest) lowest = d->since_version;
            if (!named || d->max_version == TKO_ANY || (highest != TKO_ANY && d->max_version > highest)) highest = d->max_version;
            named = true;
            if (d->since_version <= opset && (d->max_version == TKO_ANY || opset <= d->max_version) &&
                (!best || d->since_version > best->since_version))
                best = d;
        }
    if (best) return best;
    static _Thread_local char buf[128];
    if (!named) *why = "no such op in this runtime";
    else if (opset < lowest) {
        snprintf(buf, sizeof buf, "supported from opset %d (the op did not exist or differed before)", lowest);
        *why = buf;
    } else {
        snprintf(buf, sizeof buf, "this opset's version of the op is not supported (versions %d to %d are)", lowest, highest);
        *why = buf;
    }
    return NULL;
}

void tko_list_ops(FILE *f)
{
    for (size_t k = 0; k < NUM_FAMILIES; k++)
        for (int i = 0; i < families[k]->n; i++) {
            const TkoOpDef *d = &families[k]->defs[i];
            if (d->max_version == TKO_ANY)
                fprintf(f, "%s%s%s\topset %d+\n", d->domain, *d->domain ? "." : "", d->name, d->since_version);
            else fprintf(f, "%s%s%s\topset %d-%d\n", d->domain, *d->domain ? "." : "", d->name, d->since_version, d->max_version);
        }
}
