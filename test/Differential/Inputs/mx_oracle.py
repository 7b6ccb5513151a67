"""Oracle (d) for the block-scaled (MX) GEMMs of gen.py (gen_mx): random inputs in the formats' codes and bytes, and
the expected result, written from the OCP MX formats (numerics.py decodes them from their fields, independently of
tilec's emulator) and docs/mx.md (one E8M0 scale per 32 K values of each row of A and column of B)."""
import math

import numerics as nx


def inputs(cfg, rng, t, rows, cols):
    """Random codes of one MX GEMM input: (the values the reference uses, the bytes the kernel reads). A and B hold
    finite element codes (values per K value, rows x K values; B as declared, N x K or K x N, a K x N fp4x2 B with
    its rows of 2 ceil(N / 2) values, the last one past N when N is odd), the scales E8M0 codes 122 .. 132 (2^-5 ..
    2^5)."""
    if t["dtype"] == "e8m0":
        codes = [rng.randint(122, 132) for _ in range(rows * cols)]
        return codes, bytes(codes)
    # Elements pack their values along the columns: K for A and an N x K B, N for a K x N fp4x2 B.
    values = {"fp8": 1, "bf8": 1, "fp4x2": 2, "fp6x4": 4, "bf6x4": 4}[t["dtype"]]
    n = rows * cols * values
    codes = [nx.mx_random_code(rng, t["dtype"]) for _ in range(n)]
    return [nx.mx_value(x, t["dtype"]) for x in codes], nx.mx_pack(codes, t["dtype"])


def reference(c, ins, rows, cols, alpha, target):
    """D[i][j], instruction by instruction as the scaled MFMA computes it: each K step of c["step_k"] values adds the
    exact sum of its scaled block products (2^(SA[i][b] - 127) 2^(SB[j][b] - 127) times the block's products of A's and
    B's values) to the f32 accumulator and rounds once to f32. The bound is one f32 unit in the last place (the sum
    is rounded to double before f32 here), and one more for `c * alpha`."""
    A, B, SA, SB = ins["A"], ins["B"], ins["SA"], ins["SB"]  # A, B: values per K value; scales: codes
    kv = len(A) // rows
    ks = -(-kv // 32)
    row_b = len(B) // kv  # values per row of a K x N B: N, or 2 ceil(N / 2) for fp4x2
    row_bnk = len(B) // cols  # values per row of an N x K B: K, or more where its elements round K up
    want, tol = [], []
    for i in range(rows):
        for j in range(cols):
            acc = 0.0
            for k0 in range(0, kv, c["step_k"]):
                terms = [acc]
                for k in range(k0, min(k0 + c["step_k"], kv)):
                    b = B[j * row_bnk + k] if c["bnk"] else B[k * row_b + j]
                    scale = 2.0 ** (SA[i * ks + k // 32] - 127 + SB[j * ks + k // 32] - 127)
                    terms.append(A[i * kv + k] * b * scale)
                acc = nx.round_f32(math.fsum(terms))
            bound = nx.ulp(acc, "f32", target)
            if c["epi"] == "scale_f32":
                acc, bound = acc * alpha, bound * abs(alpha) + nx.ulp(acc * alpha, "f32", target)
            want.append(acc)
            tol.append(bound)
    return want, tol
