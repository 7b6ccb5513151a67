#!/usr/bin/env python3
"""Summarises gfx942 assembly from clang-19, one block per kernel, for FileCheck:

    kernel NAME
      op global_load_dwordx4 2        (global/buffer/LDS memory, MFMA, cross-lane and transcendental instructions by
                                       mnemonic, sorted; a DPP instruction as "dpp CONTROL", e.g. dpp row_mirror)
      narrower_than_dwordx4 N         (global/buffer/flat loads and stores that move less than 16 bytes)
      vgpr_count N / agpr_count N / sgpr_count N / lds_bytes N / scratch_bytes N / occupancy N

Text processing only: the numbers are what clang printed.
"""
import re
import sys
from collections import Counter

MEMORY = re.compile(r"^\s+((?:global|buffer|flat)_(?:load|store)_\w+|ds_(?:read|write|swizzle|bpermute)\w*|v_mfma_\w+|"
                    r"v_(?:exp|log|sqrt|rsq)_f32)")
DPP = re.compile(r"^\s+v_\w+_dpp\s.*?\s(quad_perm:\[[0-3,]+\]|row_\w+(?::\d+)?|wave_\w+(?::\d+)?)")
WIDE = ("dwordx4", "b128")


def main(path):
    text = open(path).read()
    functions = set(re.findall(r"\.type\s+(\w+),@function", text))
    kernels = []
    current = None
    for line in text.splitlines():
        label = re.match(r"^([A-Za-z_]\w*):\s*(;.*)?$", line)
        if label and label.group(1) in functions:
            current = {"name": label.group(1), "ops": Counter()}
            kernels.append(current)
            continue
        if line.startswith(".Lfunc_end"):
            current = None
            continue
        m = MEMORY.match(line)
        if m and current is not None:
            current["ops"][m.group(1)] += 1
        d = DPP.match(line)
        if d and current is not None:
            current["ops"]["dpp " + d.group(1)] += 1
    meta = {}
    for block in re.split(r"\n  - (?=\.)", text):
        name = re.search(r"^    \.name:\s+(\S+)", block, re.M)
        if name:
            meta[name.group(1)] = {k: int(v) for k, v in re.findall(
                r"\.(vgpr_count|agpr_count|sgpr_count|group_segment_fixed_size|private_segment_fixed_size):\s+(\d+)",
                block)}
    occupancy = [int(x) for x in re.findall(r"; Occupancy: (\d+)", text)]
    for i, k in enumerate(kernels):
        print(f"kernel {k['name']}")
        for op in sorted(k["ops"]):
            print(f"  op {op} {k['ops'][op]}")
        narrow = sum(n for op, n in k["ops"].items()
                     if op.startswith(("global", "buffer", "flat")) and not op.endswith(WIDE))
        print(f"  narrower_than_dwordx4 {narrow}")
        m = meta.get(k["name"], {})
        for key, shown in (("vgpr_count", "vgpr_count"), ("agpr_count", "agpr_count"), ("sgpr_count", "sgpr_count"),
                           ("group_segment_fixed_size", "lds_bytes"), ("private_segment_fixed_size", "scratch_bytes")):
            if key in m:
                print(f"  {shown} {m[key]}")
        if i < len(occupancy):
            print(f"  occupancy {occupancy[i]}")
    if not kernels:
        sys.exit(f"isa_summary: no kernel found in {path}")


if __name__ == "__main__":
    main(sys.argv[1])
