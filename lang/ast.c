/* ast.c — node construction and the spellings shared by printer and checker. */
#include "ast.h"

TkNode *tk_node_new(TkArena *arena, TkNodeKind kind, TkSpan span)
{
    TkNode *n = tk_arena_alloc(arena, sizeof *n);
    if (n) {
        n->kind = kind;
        n->span = span;
        n->name_span = span;
    }
    return n;
}

TkNode *tk_list_append(TkNode *head, TkNode *item)
{
    if (!item) return head;
    if (!head) return item;
    TkNode *p = head;
    while (p->next) p = p->next;
    p->next = item;
    return head;
}

unsigned tk_list_length(const TkNode *head)
{
    unsigned n = 0;
    for (; head; head = head->next) n++;
    return n;
}

const char *tk_op_spelling(TkOp op)
{
    switch (op) {
    case TK_OP_NONE: return "=";
    case TK_OP_ADD: return "+";
    case TK_OP_SUB: return "-";
    case TK_OP_MUL: return "*";
    case TK_OP_DIV: return "/";
    case TK_OP_MOD: return "%";
    case TK_OP_LT: return "<";
    case TK_OP_LE: return "<=";
    case TK_OP_GT: return ">";
    case TK_OP_GE: return ">=";
    case TK_OP_EQ: return "==";
    case TK_OP_NE: return "!=";
    case TK_OP_AND: return "&&";
    case TK_OP_OR: return "||";
    case TK_OP_NEG: return "-";
    case TK_OP_NOT: return "!";
    }
    return "?";
}

const char *tk_typecon_spelling(TkTypeCon tc)
{
    static const char *const names[] = {
        [TK_TC_BOOL] = "bool", [TK_TC_I32] = "i32", [TK_TC_I64] = "i64",
        [TK_TC_F32] = "f32", [TK_TC_F16] = "f16", [TK_TC_BF16] = "bf16",
        [TK_TC_RT] = "rt", [TK_TC_ST] = "st", [TK_TC_RV] = "rv", [TK_TC_SV] = "sv", [TK_TC_GL] = "gl",
    };
    return (unsigned)tc < sizeof names / sizeof names[0] ? names[tc] : "?";
}
