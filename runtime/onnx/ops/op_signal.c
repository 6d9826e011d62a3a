#include "op.h"
static const TkoOpDef defs[] = { OPDEF("__placeholder_signal", 1, TKO_ANY, "", NULL, NULL, 0, 0, 0) };
TKO_FAMILY_OF(tko_ops_signal, defs);
