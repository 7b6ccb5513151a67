#!/usr/bin/env python3
"""Checks tilec --verify's K-loop cycles at true passes against llvm-mca run on the body it padded.

    true_pass_check.py VERIFY.json LLVM_MCA

For each kernel whose K loop has MFMAs llvm-mca undercharges (mfma_passes_mca_misses > 0), prints how many MFMAs of
the body tilec measured at true passes are f32 stand-ins (v_mfma_f32_32x32x2_f32 / v_mfma_f32_16x16x4_f32) and how
many instructions it has against the loop's, the MFMA pipe pressure llvm-mca charges it (its HWXDL resource pressure
per iteration) and its "Total Cycles" / 100, and whether tilec's cycles_with_true_passes and mfma_busy are those
cycles and passes / them.
"""
import json
import re
import subprocess
import sys
import tempfile


def main(verify_path, mca):
    for k in json.load(open(verify_path))["kernels"]:
        loop = k.get("k_loop")
        if not loop or not loop["mfma_passes_mca_misses"]:
            continue
        body = loop["body_at_true_passes"]
        with tempfile.NamedTemporaryFile("w", suffix=".s") as f:
            f.write(body)
            f.flush()
            out = subprocess.run([mca, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx950", "-iterations=100", f.name],
                                 capture_output=True, text=True, check=True).stdout
        cycles = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1)) / 100
        column = int(re.search(r"\[(\d+)\]\s+-\s+HWXDL\b", out).group(1))
        pressure = re.search(r"Resource pressure per iteration:\n[^\n]*\n([^\n]*)", out).group(1).split()[column]
        stand_ins = len(re.findall(r"^v_mfma_f32_(?:32x32x2|16x16x4)_f32 ", body, re.M))
        same_length = len(body.splitlines()) == loop["instructions"]
        ok = (abs(loop["cycles_with_true_passes"] - cycles) < 1e-9
              and abs(loop["mfma_busy"] - loop["mfma_passes"] / cycles) < 1e-9)
        print(f"{k['name']}: {loop['mfmas']} MFMAs, {stand_ins} stand-ins"
              f"{'' if same_length else ' (not as many instructions as the loop)'}, llvm-mca charges {pressure} passes of "
              f"{loop['mfma_passes']}; {cycles:.2f} cycles, tilec {loop['cycles_with_true_passes']:.2f}: "
              f"{'same' if ok else 'DIFFERENT'}")
        if not ok:
            sys.exit(1)


if __name__ == "__main__":
    main(*sys.argv[1:])
