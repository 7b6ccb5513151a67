#!/usr/bin/env python3
"""Checks tilec --verify's K-loop figures against llvm-mca run on the same loop body.

    mca_check.py VERIFY.json LLVM_MCA

For each kernel with a K loop: LLVM_MCA -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -iterations=100 on the body tilec
analysed must report the same "Total Cycles" / 100 and the same instruction count; the MFMA busy fraction must be the
MFMA passes / cycles (8 passes per v_mfma_f32_32x32x8_f16, /work/shared/facts/toolchain.md). Each line names the
tool with its LLVM major version (llvm-mca-22), read from its --version.
"""
import json
import re
import subprocess
import sys
import tempfile

PASSES = {"v_mfma_f32_32x32x8_f16": 8, "v_mfma_f32_32x32x8_bf16": 8, "v_mfma_f32_16x16x16_f16": 4,
          "v_mfma_f32_16x16x16_bf16": 4}


def main(verify_path, mca):
    verify = json.load(open(verify_path))
    version = subprocess.run([mca, "--version"], capture_output=True, text=True, check=True).stdout
    tool = "llvm-mca-" + re.search(r"LLVM version (\d+)\.", version).group(1)
    for k in verify["kernels"]:
        loop = k.get("k_loop")
        if not loop:
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".s") as f:
            f.write(loop["body_for_mca"])
            f.flush()
            out = subprocess.run([mca, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-iterations=100", f.name],
                                 capture_output=True, text=True, check=True).stdout
        total = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1))
        insts = int(re.search(r"Instructions:\s+(\d+)", out).group(1)) // 100
        passes = sum(PASSES[m] for m in re.findall(r"^(v_mfma\w+)", loop["body_for_mca"], re.M))
        ok = (abs(loop["cycles_per_iteration"] - total / 100) < 1e-9 and insts == loop["instructions"]
              and passes == loop["mfma_passes"] and abs(loop["mfma_busy"] - passes / (total / 100)) < 1e-9)
        print(f"{k['name']}: {tool} {insts} instructions, {total / 100:.2f} cycles per iteration, busy "
              f"{passes / (total / 100):.2f}; tilec {loop['instructions']}, {loop['cycles_per_iteration']:.2f}, "
              f"{loop['mfma_busy']:.2f}: {'same' if ok else 'DIFFERENT'}")
        if not ok:
            sys.exit(1)


if __name__ == "__main__":
    main(*sys.argv[1:])
