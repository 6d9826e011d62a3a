#!/usr/bin/env python3
"""Writes a large valid .tk file (default 10,000 lines) to stdout: many
helpers and kernels in the style of examples/, with distinct names, so that
`tkc check` can be timed on a file of realistic shape."""
import sys

TARGET = int(sys.argv[1]) if len(sys.argv) > 1 else 10000

UNIT = """\
fn scale_{i}(rt<f32, 64, 64> x, f32 s) -> rt<f32, 64, 64> {{
    return mul(x, s);
}}

kernel gemm_{i}(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C, f32 alpha)
    grid(cdiv(N, 128), cdiv(M, 128)) warps(4)
{{
    st<bf16, 128, 32> As;
    st<bf16, 32, 128> Bs;
    let wr = warp.id / 2;
    let wc = warp.id % 2;
    rt<f32, 64, 64> acc = zeros();
    for (k in 0 .. cdiv(K, 32)) {{
        As = load(A, block.y, k);
        Bs = load(B, k, block.x);
        sync();
        rt<bf16, 64, 32> a = load(As, wr, 0);
        rt<bf16, 32, 64, col> b = load(Bs, 0, wc);
        mma_ab(acc, a, b);
        sync();
    }}
    acc = scale_{i}(acc, alpha);
    if (M > 1024 && block.x == 0) {{
        acc = relu(acc);
    }} else {{
        acc = gelu(acc);
    }}
    store(C, acc, block.y * 2 + wr, block.x * 2 + wc);
}}

kernel softmax_{i}(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(M, 16)) warps(1)
{{
    rv<f32, 16> m = fill(-inf);
    rv<f32, 16> l = zeros();
    for (j in 0 .. cdiv(N, 64)) {{
        rt<f32, 16, 64> x = load(X, block.x, j);
        x = mask_cols(x, N - j * 64, -inf);
        rv<f32, 16> m_new = max(m, row_max(x));
        l = mul(l, exp(m - m_new)) + row_sum(exp(sub_row(x, m_new)));
        m = m_new;
    }}
    for (j in 0 .. cdiv(N, 64)) {{
        rt<f32, 16, 64> x = load(X, block.x, j);
        store(Y, div_row(exp(sub_row(x, m)), l), block.x, j);
    }}
}}

"""

lines = 0
i = 0
out = []
while lines < TARGET:
    text = UNIT.format(i=i)
    out.append(text)
    lines += text.count("\n")
    i += 1
sys.stdout.write("".join(out))
