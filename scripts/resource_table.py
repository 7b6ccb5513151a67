#!/usr/bin/env python3
"""Prints the table of docs/occupancy.md: for every example and its _unaligned kernel, tilec's model beside the
compiler's allocation, for gfx942 (clang-19 here) and gfx950 (scripts/gfx950/gfx950.py with the asm options given).

usage: resource_table.py BUILD_DIR [--gfx950-asm "--cache DIR" | "--triton" | "--llc LLC"] [--newer-gfx942]
                         [--examples DIR]
With --newer-gfx942, the gfx942 code is also compiled by the newer LLVM (rows "gfx942 new"), to tell a difference of
LLVM versions from one of targets.
The VGPR column is the unified file: ArchVGPRs aligned to 4, plus AGPRs; "ok" means within 10% either way, equal
waves per SIMD and no scratch.
"""
import argparse
import glob
import json
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "ISA", "Inputs"))
from compare_resources import metadata  # noqa: E402

MISSING = []  # examples whose assembly a --cache did not have yet


def model_total(r):
    return (r["vgprs"] + 3) // 4 * 4 + r["agprs"] if r["agprs"] else r["vgprs"]


def rows(tilec, example, label, asm_options, work):
    arch = label.split()[0]
    base = os.path.join(work, f"{os.path.basename(example)[:-5]}.{label.replace(' ', '-')}")
    # A gfx950-only example (its MFMA exists only there) is left out for gfx942.
    if subprocess.run([tilec, example, f"--offload-arch={arch}", "--emit=report", "--format=json", "-o",
                       base + ".json"], stderr=subprocess.DEVNULL).returncode:
        return []
    subprocess.run([tilec, example, f"--offload-arch={arch}", "-o", base + ".hip"], check=True,
                   stderr=subprocess.DEVNULL)
    include = os.path.join(ROOT, "runtime", "include")
    if label == "gfx942":
        subprocess.run(["clang++-19", "-x", "hip", "--offload-arch=gfx942", "--cuda-device-only", "-nogpulib", "-O3",
                        "-I", include, "-S", base + ".hip", "-o", base + ".s"], check=True)
    else:
        gfx950 = os.path.join(ROOT, "scripts", "gfx950", "gfx950.py")
        keep = ["--keep-gfx942"] if arch == "gfx942" else []
        subprocess.run([sys.executable, gfx950, "ir", base + ".hip", "-o", base + ".ll", "--include", include, *keep],
                       check=True)
        if subprocess.run([sys.executable, gfx950, "asm", *shlex.split(asm_options), base + ".ll", "-o",
                           base + ".s"], stderr=subprocess.DEVNULL).returncode:
            MISSING.append(f"{os.path.basename(example)} ({label})")
            return []
    asm = metadata(open(base + ".s").read())
    out = []
    for k in json.load(open(base + ".json"))["kernels"]:
        for kk in [k] + ([k["unaligned_kernel"]] if "unaligned_kernel" in k else []):
            c = asm[kk["name"]]
            m, theirs = model_total(kk["resources"]), c["vgpr_count"]
            close = theirs <= m * 1.1 and m <= theirs * 1.1
            same = kk["occupancy"]["waves_per_simd"] == c.get("occupancy")
            out.append((kk["name"], label, m, theirs, c["private_segment_fixed_size"],
                        kk["occupancy"]["waves_per_simd"], c.get("occupancy"), close and same))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("build")
    p.add_argument("--gfx950-asm")
    p.add_argument("--newer-gfx942", action="store_true")
    p.add_argument("--examples", default=os.path.join(ROOT, "examples"))
    a = p.parse_args()
    tilec = os.path.join(a.build, "tools", "tilec")
    table = []
    with tempfile.TemporaryDirectory() as work:
        for ex in sorted(glob.glob(os.path.join(a.examples, "*.tile"))):
            table += rows(tilec, ex, "gfx942", None, work)
            if a.gfx950_asm and a.newer_gfx942:
                table += rows(tilec, ex, "gfx942 new", a.gfx950_asm, work)
            if a.gfx950_asm:
                table += rows(tilec, ex, "gfx950", a.gfx950_asm, work)
    print("| kernel | target | model VGPR+AGPR | compiler VGPR+AGPR | scratch | model waves | compiler waves | |")
    print("|---|---|---|---|---|---|---|---|")
    for name, arch, m, c, scratch, mw, cw, ok in table:
        print(f"| `{name}` | {arch} | {m} | {c} | {scratch} | {mw} | {cw} | {'ok' if ok and not scratch else '**off**'} |")
    bad = sum(1 for r in table if not r[-1] or r[4])
    print(f"\n{len(table)} kernels, {len(table) - bad} ok, {bad} off")
    if MISSING:
        print(f"not compiled yet (their IR is in the cache): {', '.join(MISSING)}")
    return 1 if bad or MISSING else 0


if __name__ == "__main__":
    sys.exit(main())
