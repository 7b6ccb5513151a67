#!/usr/bin/env python3
"""Puts tilec's resource model (from `tilec --emit=report --format=json`) beside what clang allocated (from the
assembly's metadata) for every kernel, the _unaligned variants included. LDS bytes must be equal: the model's LDS is
exact by construction. Registers are estimates: both figures are printed, and the VGPR estimate must lie within
[clang / 2, clang * 2].

usage: compare_resources.py REPORT.json KERNEL.s [--within PERCENT | --within-both PERCENT] [--occupancy] [--no-scratch]
                            [--criterion]
The model's VGPR file is its ArchVGPRs aligned to 4 plus its AGPRs, or ArchVGPRs plus accumulators where they are in
ArchVGPRs (the VGPR form of the MFMAs, "accumulators_in": "arch_vgprs"). With --within, clang's VGPR + AGPR total
must not exceed the model's by more than PERCENT; with --within-both, the model must also not exceed the compiler's
by more than PERCENT. With --no-scratch, any scratch (spills) fails. With --occupancy, the model's waves per SIMD must
equal the compiler's ("; Occupancy: N" in the kernel info the AMDGPU backend prints after each kernel).
--criterion is the model's criterion (docs/occupancy.md): occupancy equal to the compiler's or the VGPR file within
10% either way; never under the compiler's by more than 10%; no scratch.
"""
import json
import re
import sys


def metadata(asm):
    kernels = {}
    for block in re.split(r"\n  - (?=\.)", asm):
        name = re.search(r"^    \.name:\s+(\S+)", block, re.M)
        if name and ".vgpr_count" in block:
            kernels[name.group(1)] = {k: int(v) for k, v in re.findall(
                r"\.(vgpr_count|agpr_count|sgpr_count|group_segment_fixed_size|private_segment_fixed_size):\s+(\d+)",
                block)}
    # The backend's kernel info follows each kernel's ".size NAME, ..." line: its occupancy, and its ArchVGPRs
    # ("; NumVgprs: N", without the AGPRs, as "num_vgprs").
    name = None
    for line in asm.splitlines():
        size = re.match(r"\s+\.size\s+([^,\s]+),", line)
        if size:
            name = size.group(1)
        info = re.match(r"; (Occupancy|NumVgprs): (\d+)", line)
        if info and name in kernels:
            kernels[name]["occupancy" if info.group(1) == "Occupancy" else "num_vgprs"] = int(info.group(2))
    return kernels


def criterion(model_total, model_waves, compiler_total, compiler_waves, scratch):
    """The model's criterion (docs/occupancy.md) for one kernel: (meets it, under by more than 10%)."""
    close = compiler_total <= model_total * 1.1 and model_total <= compiler_total * 1.1
    under = compiler_total > model_total * 1.1
    return (model_waves == compiler_waves or close) and not under and not scratch, under


def main(report_path, asm_path, within=None, occupancy=False, both=False, no_scratch=False, judge=False):
    report = json.load(open(report_path))
    clang = metadata(open(asm_path).read())
    failed = False
    # A kernel with run-time row alignment has a second, _unaligned kernel; it is compared the same way.
    kernels = []
    for k in report["kernels"]:
        kernels.append(k)
        if "unaligned_kernel" in k:
            kernels.append(k["unaligned_kernel"])
    for k in kernels:
        name, model = k["name"], k["resources"]
        c = clang.get(name)
        if c is None:
            sys.exit(f"compare_resources: kernel {name} is not in {asm_path}")
        print(f"kernel {name}: model vgprs {model['vgprs']} agprs {model['agprs']} sgprs {model['sgprs']}+6 "
              f"lds {model['lds_bytes']}; clang vgprs {c['vgpr_count']} (unified file: ArchVGPRs + AGPRs) "
              f"agprs {c.get('agpr_count', 0)} "
              f"sgprs {c['sgpr_count']} lds {c['group_segment_fixed_size']} scratch {c['private_segment_fixed_size']}")
        if model["lds_bytes"] != c["group_segment_fixed_size"]:
            print(f"  LDS MISMATCH: model {model['lds_bytes']} B, clang {c['group_segment_fixed_size']} B")
            failed = True
        else:
            print(f"  lds_bytes equal {model['lds_bytes']}")
        if model.get("accumulators_in") == "arch_vgprs":
            model_total = model["vgprs"] + model["agprs"]
        else:
            model_total = (model["vgprs"] + 3) // 4 * 4 + model["agprs"] if model["agprs"] else model["vgprs"]
        if judge:
            c_total, waves, c_waves = c["vgpr_count"], k["occupancy"]["waves_per_simd"], c.get("occupancy")
            scratch = c["private_segment_fixed_size"]
            meets, _ = criterion(model_total, waves, c_total, c_waves, scratch)
            verdict = "meets" if meets else "MISSES"
            failed |= not meets
            print(f"  criterion: model {model_total} / {waves} waves, compiler {c_total} / {c_waves} waves, scratch "
                  f"{scratch}: {verdict}")
        if within is not None:
            limit = model_total * (1 + within / 100)
            verdict = "within" if c["vgpr_count"] <= limit else "OVER"
            if both and model_total > c["vgpr_count"] * (1 + within / 100):
                verdict = "MODEL OVER"
            bound = f"+-{within:g}%" if both else f"+{within:g}%"
            print(f"  vgpr+agpr clang {c['vgpr_count']} vs model {model_total}: {verdict} {bound}")
            failed |= verdict != "within"
        if no_scratch and c["private_segment_fixed_size"]:
            print(f"  SCRATCH: the compiler spills {c['private_segment_fixed_size']} B per lane")
            failed = True
        if occupancy:
            mine, theirs = k["occupancy"]["waves_per_simd"], c.get("occupancy")
            verdict = "equal" if mine == theirs else "DIFFERENT"
            print(f"  occupancy model {mine} compiler {theirs}: {verdict}")
            failed |= mine != theirs
        if not (c["vgpr_count"] / 2 <= model["vgprs"] + model["agprs"] <= c["vgpr_count"] * 2):
            print("  VGPR estimate off by more than a factor of 2")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    args = sys.argv[1:]
    within = None
    occupancy = "--occupancy" in args
    if occupancy:
        args.remove("--occupancy")
    both = "--within-both" in args
    if both:
        args[args.index("--within-both")] = "--within"
    no_scratch = "--no-scratch" in args
    if no_scratch:
        args.remove("--no-scratch")
    if "--within" in args:
        i = args.index("--within")
        within = float(args[i + 1])
        del args[i:i + 2]
    judge = "--criterion" in args
    if judge:
        args.remove("--criterion")
    main(args[0], args[1], within, occupancy, both, no_scratch, judge)
