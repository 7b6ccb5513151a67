#!/usr/bin/env python3
"""Summarises the K loops of gfx942 assembly from clang-19, for FileCheck:

    kernel NAME
      loop 1: 65 instructions, 16 mfma, 2 s_barrier, 0 exec branches, 4 global loads, ds_read2_b64 8 ds_write2_b64 2

A K loop is an outermost loop (a label and the last backward branch to it) with an MFMA inside; loops are numbered in
program order. "exec branches" counts s_cbranch_execz, s_cbranch_execnz and s_and_saveexec_b64: per-lane masks. With
--body N the instructions of loop N of the first kernel are printed instead, one per line (for llvm-mca).
Text processing only.
"""
import re
import sys
from collections import Counter

EXEC = ("s_cbranch_execz", "s_cbranch_execnz", "s_and_saveexec_b64")


def loops(path):
    lines = open(path).read().splitlines()
    kernels, current, labels = [], None, {}
    for i, line in enumerate(lines):
        label = re.match(r"^([A-Za-z_.$][\w.$]*):", line)
        if label:
            name = label.group(1)
            if not name.startswith(".") and re.search(r"^\s+\.type\s+" + re.escape(name) + r",@function",
                                                      "\n".join(lines[max(0, i - 8):i]), re.M):
                current = {"name": name, "loops": {}}
                kernels.append(current)
            labels[name] = i
            continue
        branch = re.match(r"^\s+s_(?:cbranch_\w+|branch)\s+(\.\w+)", line)
        if current and branch and branch.group(1) in labels and labels[branch.group(1)] < i:
            current["loops"][branch.group(1)] = (labels[branch.group(1)], i)
    for k in kernels:
        spans = sorted(k["loops"].values())
        outer = [s for s in spans if not any(o != s and o[0] <= s[0] and s[1] <= o[1] for o in spans)]
        bodies = []
        for start, end in outer:
            body = [l.split(";")[0].strip() for l in lines[start + 1:end + 1]]
            body = [l for l in body if l and not l.startswith(".") and not l.endswith(":")]
            if any(l.startswith("v_mfma") for l in body):
                bodies.append(body)
        k["bodies"] = bodies
    return kernels


def main(argv):
    kernels = loops(argv[1])
    if len(argv) > 3 and argv[2] == "--body":
        print("\n".join(kernels[0]["bodies"][int(argv[3]) - 1]))
        return
    for k in kernels:
        print(f"kernel {k['name']}")
        for n, body in enumerate(k["bodies"], 1):
            ops = Counter(l.split()[0] for l in body)
            mfma = sum(v for op, v in ops.items() if op.startswith("v_mfma"))
            gload = sum(v for op, v in ops.items() if op.startswith(("global_load", "buffer_load")))
            ds = " ".join(f"{op} {ops[op]}" for op in sorted(ops) if op.startswith("ds_"))
            print(f"  loop {n}: {len(body)} instructions, {mfma} mfma, {len(body) - mfma} other, "
                  f"{ops['s_barrier']} s_barrier, {sum(ops[e] for e in EXEC)} exec branches, {gload} global loads, {ds}")


if __name__ == "__main__":
    main(sys.argv)
