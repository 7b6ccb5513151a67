#!/usr/bin/env python3
"""Triton's AMD backend on tilec's yardstick: compile GEMM main loops for gfx942 / gfx950, no GPU needed.

Run where Triton is installed (the lent device machine has it; no AMD GPU is needed: Triton's AMD backend compiles
for a named target). For each configuration it writes Triton's assembly to OUT/<name>.s; then, here,

    python3 bench/kloop.py --asm OUT/<name>.s --mca /usr/lib/llvm-22/bin/llvm-mca

measures its K loop exactly as tilec's (docs/performance.md, "Triton on the same yardstick"). The kernels are the
textbook blocked GEMM, C = A x B^T with A M x K and B N x K (tilec's N x K examples), f32 accumulation, no masks in
the loop (EVEN_K: K a multiple of the K step, as tilec's main loop), and for MX formats tl.dot_scaled with E8M0 scales
per 32 K values.

    python3 bench/triton_gemm.py OUT [--only NAME,...]
"""
import argparse
import os
import sys
import traceback

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget


@triton.jit
def gemm_nt(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,
            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_at = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_at = b_ptr + rn[:, None] * stride_bn + rk[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        a = tl.load(a_at)
        b = tl.load(b_at)
        acc += tl.dot(a, tl.trans(b))
        a_at += BLOCK_K
        b_at += BLOCK_K
    c_at = c_ptr + rm[:, None] * stride_cm + rn[None, :]
    tl.store(c_at, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def gemm_mx_nt(a_ptr, b_ptr, sa_ptr, sb_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_sa, stride_sb, stride_cm,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, FORMAT: tl.constexpr,
               PER_BYTE: tl.constexpr):
    # A and B hold PER_BYTE values per byte along K (fp4: 2), so a K step of BLOCK_K values is BLOCK_K / PER_BYTE bytes
    # of a row; one E8M0 scale per 32 values.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rkb = tl.arange(0, BLOCK_K // PER_BYTE)
    rks = tl.arange(0, BLOCK_K // 32)
    a_at = a_ptr + rm[:, None] * stride_am + rkb[None, :]
    b_at = b_ptr + rn[:, None] * stride_bn + rkb[None, :]
    sa_at = sa_ptr + rm[:, None] * stride_sa + rks[None, :]
    sb_at = sb_ptr + rn[:, None] * stride_sb + rks[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        a = tl.load(a_at)
        b = tl.load(b_at)
        sa = tl.load(sa_at)
        sb = tl.load(sb_at)
        acc = tl.dot_scaled(a, sa, FORMAT, tl.trans(b), sb, FORMAT, acc)
        a_at += BLOCK_K // PER_BYTE
        b_at += BLOCK_K // PER_BYTE
        sa_at += BLOCK_K // 32
        sb_at += BLOCK_K // 32
    c_at = c_ptr + rm[:, None] * stride_cm + rn[None, :]
    tl.store(c_at, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


# name: (target, kernel, element type, BLOCK_M, BLOCK_N, BLOCK_K, warps, stages[, MX format, values per byte])
CONFIGS = {
    "gfx950_f16_128x128x64_w4_s2": ("gfx950", "nt", "fp16", 128, 128, 64, 4, 2),
    "gfx950_f16_128x128x64_w4_s3": ("gfx950", "nt", "fp16", 128, 128, 64, 4, 3),
    "gfx950_f16_256x128x64_w8_s2": ("gfx950", "nt", "fp16", 256, 128, 64, 8, 2),
    "gfx950_f16_256x256x64_w8_s2": ("gfx950", "nt", "fp16", 256, 256, 64, 8, 2),
    "gfx950_bf16_128x128x64_w4_s2": ("gfx950", "nt", "bf16", 128, 128, 64, 4, 2),
    "gfx950_fp8_128x128x128_w4_s2": ("gfx950", "nt", "fp8e4nv", 128, 128, 128, 4, 2),
    "gfx950_fp8_256x256x128_w8_s2": ("gfx950", "nt", "fp8e4nv", 256, 256, 128, 8, 2),
    "gfx950_mxfp4_128x128x256_w4_s2": ("gfx950", "mx", "u8", 128, 128, 256, 4, 2, "e2m1", 2),
    "gfx950_mxfp8_128x128x128_w4_s2": ("gfx950", "mx", "fp8e4nv", 128, 128, 128, 4, 2, "e4m3", 1),
    "gfx942_f16_128x128x32_w4_s2": ("gfx942", "nt", "fp16", 128, 128, 32, 4, 2),
    "gfx942_f16_256x256x32_w8_s2": ("gfx942", "nt", "fp16", 256, 256, 32, 8, 2),
}


def source(config):
    target, kind, elem, bm, bn, bk, *_rest = config
    consts = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk}
    if kind == "nt":
        fn = gemm_nt
        sig = {"a_ptr": "*" + elem, "b_ptr": "*" + elem, "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
               "stride_am": "i32", "stride_bn": "i32", "stride_cm": "i32"}
    else:
        fn = gemm_mx_nt
        fmt, per_byte = config[8], config[9]
        consts.update({"FORMAT": fmt, "PER_BYTE": per_byte})
        sig = {"a_ptr": "*" + elem, "b_ptr": "*" + elem, "sa_ptr": "*u8", "sb_ptr": "*u8", "c_ptr": "*fp32",
               "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_bn": "i32", "stride_sa": "i32",
               "stride_sb": "i32", "stride_cm": "i32"}
    # Triton 3.3 and later: the constexprs named in the signature as "constexpr" and given by name. Pointers,
    # strides and K divisible by 16, as Triton's launcher finds them for aligned tensors of these sizes (without the
    # hint its loads are 1 or 2 bytes each).
    full = dict(sig)
    for name in consts:
        full[name] = "constexpr"
    names = list(sig)
    aligned = [i for i, n in enumerate(names) if n.endswith("_ptr") or n.startswith("stride") or n == "K"]
    attrs = {(i,): [["tt.divisibility", 16]] for i in aligned}
    return triton.compiler.ASTSource(fn=fn, signature=full, constexprs=consts, attrs=attrs)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--only", default="")
    args = parser.parse_args(argv[1:])
    os.makedirs(args.out, exist_ok=True)
    names = [n for n in CONFIGS if not args.only or n in args.only.split(",")]
    print("triton", triton.__version__)
    failed = 0
    for name in names:
        config = CONFIGS[name]
        target, warps, stages = config[0], config[6], config[7]
        try:
            compiled = triton.compile(source(config), target=GPUTarget("hip", target, 64),
                                      options={"num_warps": warps, "num_stages": stages})
            asm = compiled.asm["amdgcn"]
            with open(os.path.join(args.out, name + ".s"), "w") as f:
                f.write(asm)
            mfma = sum(1 for line in asm.splitlines() if "v_mfma" in line)
            print(f"{name}: {len(asm.splitlines())} lines, {mfma} MFMA lines")
        except Exception:  # one configuration's failure leaves the others
            failed += 1
            print(f"{name}: failed")
            traceback.print_exc(limit=3)
    return 1 if failed == len(names) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
