#!/usr/bin/env python3
"""Checks that two AMDGPU assembly files hold the same kernels, instruction for instruction: every function from
'; -- Begin function NAME' to '; -- End function', and its '; Kernel info:' block, must be equal. Used to check that
tilec's in-process compilation (tilec --emit=asm) gives the code clang++-19 gives for the same .hip.

usage: same_kernels.py A.s B.s     prints one line per kernel ("same NAME (N lines)") and fails on any difference
"""
import difflib
import re
import sys


def kernels(path):
    text = open(path).read()
    out = {}
    for m in re.finditer(r"; -- Begin function (\S+)\n(.*?); -- End function\n(.*?)(?=\n\s*\.(?:text|section|protected|globl|p2align|type)\b|\Z)",
                         text, re.S):
        name, body, info = m.groups()
        # The .file/.loc/.ident lines name paths, which differ between an in-memory and an on-disk source.
        lines = [l for l in (body + info).splitlines() if not re.match(r"\s*\.(file|ident|loc)\b", l)]
        out[name] = lines
    return out


def main(a_path, b_path):
    a, b = kernels(a_path), kernels(b_path)
    if not a:
        sys.exit(f"same_kernels: no kernel in {a_path}")
    if sorted(a) != sorted(b):
        sys.exit(f"same_kernels: kernels differ: {sorted(a)} vs {sorted(b)}")
    failed = False
    for name in sorted(a):
        if a[name] == b[name]:
            print(f"same {name} ({len(a[name])} lines)")
            continue
        failed = True
        print(f"DIFFERENT {name}:")
        for line in list(difflib.unified_diff(a[name], b[name], a_path, b_path, lineterm=""))[:40]:
            print("  " + line)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(*sys.argv[1:])
