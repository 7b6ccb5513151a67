#!/usr/bin/env python3
"""Prints the model-versus-compiler table of docs/occupancy.md: for every example and its _unaligned kernel, on gfx942
and gfx950, tilec's resource model beside the allocation of the LLVM 22 compiler in tilec's process
(`tilec --verify --format=json`).

usage: resource_table.py BUILD_DIR [--examples DIR] [--targets gfx942,gfx950]

The VGPR columns are the unified file: ArchVGPRs aligned to 4, plus AGPRs. The criterion (docs/occupancy.md): the
model's occupancy equal to the compiler's or its VGPR file within 10% of the compiler's; never under the compiler's
VGPR file by more than 10%; no scratch. "ok" marks a kernel that meets it; the last column says which part holds.
Exit status 1 when a kernel does not.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "ISA", "Inputs"))
from compare_resources import criterion  # noqa: E402


def verdict(model, compiler):
    """(meets the criterion, why) for one kernel's model and compiler figures."""
    m, c = model["total_vgprs"], compiler["total_vgprs"]
    meets, under = criterion(m, model["occupancy"], c, compiler["occupancy"], compiler["scratch_bytes"])
    within = c <= m * 1.1 and m <= c * 1.1
    same = model["occupancy"] == compiler["occupancy"]
    if compiler["scratch_bytes"]:
        return False, f"scratch {compiler['scratch_bytes']} B"
    if under:
        return False, "under by more than 10%"
    if not meets:
        return False, "occupancy differs and more than 10% off"
    if same and within:
        return True, "occupancy equal, within 10%"
    if same:
        return True, "occupancy equal"
    return True, "within 10%"


def rows(tilec, example, arch):
    p = subprocess.run([tilec, example, f"--offload-arch={arch}", "--verify", "--format=json"],
                       capture_output=True, text=True)
    if p.returncode and not p.stdout.strip():
        # An example whose MFMA exists only on gfx950 is refused for gfx942.
        print(f"{os.path.basename(example)} ({arch}): refused: {p.stderr.splitlines()[0] if p.stderr else ''}",
              file=sys.stderr)
        return []
    out = []
    for k in json.loads(p.stdout)["kernels"]:
        ok, why = verdict(k["model"], k["compiler"])
        out.append((k["name"], arch, k["model"], k["compiler"], ok, why))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("build")
    p.add_argument("--examples", default=os.path.join(ROOT, "examples"))
    p.add_argument("--targets", default="gfx942,gfx950")
    a = p.parse_args()
    tilec = os.path.join(a.build, "tools", "tilec")
    table = []
    for ex in sorted(glob.glob(os.path.join(a.examples, "*.tile"))):
        for arch in a.targets.split(","):
            table += rows(tilec, ex, arch)
    print("| kernel | target | model VGPR+AGPR | LLVM 22 VGPR+AGPR | model waves | LLVM 22 waves | scratch | |")
    print("|---|---|---|---|---|---|---|---|")
    for name, arch, m, c, ok, why in table:
        mark = "ok" if ok else "**off**"
        print(f"| `{name}` | {arch} | {m['total_vgprs']} | {c['total_vgprs']} | {m['occupancy']} | {c['occupancy']} "
              f"| {c['scratch_bytes']} | {mark}: {why} |")
    for arch in a.targets.split(","):
        mine = [r for r in table if r[1] == arch]
        same = sum(1 for r in mine if r[2]["occupancy"] == r[3]["occupancy"])
        within = sum(1 for r in mine
                     if r[3]["total_vgprs"] <= r[2]["total_vgprs"] * 1.1 and r[2]["total_vgprs"] <= r[3]["total_vgprs"] * 1.1)
        print(f"\n{arch}: {len(mine)} kernels, {sum(1 for r in mine if r[4])} meet the criterion; occupancy equal "
              f"on {same}, VGPR file within 10% on {within}")
    return 0 if all(r[4] for r in table) else 1


if __name__ == "__main__":
    sys.exit(main())
