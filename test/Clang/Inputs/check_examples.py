#!/usr/bin/env python3
"""tilec's in-process compiler against clang++-19, for every example.

    check_examples.py TILEC CLANG RUNTIME_INCLUDE EXAMPLES_DIR WORK_DIR

For each examples/*.tile whose target is gfx942:
  * `tilec --emit=asm` must hold the same kernels, instruction for instruction, as clang++-19 -x hip
    --offload-arch=gfx942 --cuda-device-only -O3 -S run on the emitted .hip with the real HIP headers
    (same_kernels.py);
  * `tilec --verify --format=json`: its compiler column must equal the metadata and the '; Occupancy:' of that
    clang++-19 assembly, and its model column must equal `tilec --emit=report --format=json`;
  * the kernels have no scratch.
For each gfx950 example, `tilec --verify` must exit with status 3 and say that LLVM 19 cannot compile for gfx950.
Prints one line per example and check; exits 1 on the first failure.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "ISA", "Inputs"))
from compare_resources import metadata  # noqa: E402


def run(cmd, expect=0):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != expect:
        sys.exit(f"FAILED (exit {p.returncode}, expected {expect}): {' '.join(cmd)}\n{p.stdout}{p.stderr}")
    return p


def clang_metadata(asm):
    """Per kernel: the amdhsa metadata figures (compare_resources.metadata) and the backend's occupancy comment."""
    out = metadata(asm)
    occupancy = re.findall(r"; -- Begin function (\S+).*?; Occupancy: (\d+)", asm, re.S)
    for name, waves in occupancy:
        out[name]["occupancy"] = int(waves)
    return out


def main(tilec, clang, runtime_include, examples, work):
    os.makedirs(work, exist_ok=True)
    for f in sorted(os.listdir(examples)):
        if not f.endswith(".tile"):
            continue
        path, stem = os.path.join(examples, f), os.path.join(work, f[:-5])
        report = json.loads(run([tilec, path, "--emit=report", "--format=json"]).stdout)
        if report["target"] == "gfx950":
            p = run([tilec, path, "--verify"], expect=3)
            if "built against LLVM 19" not in p.stderr or "cannot compile for gfx950" not in p.stderr:
                sys.exit(f"FAILED: {f}: unexpected message: {p.stderr}")
            print(f"{f}: gfx950: exit 3, '{p.stderr.strip()}'")
            continue
        run([tilec, path, "--emit=asm", "-o", stem + ".inprocess.s"])
        run([tilec, path, "-o", stem + ".hip"])
        run([clang, "-x", "hip", "--offload-arch=gfx942", "--cuda-device-only", "-nogpulib", "-O3", "-Wall",
             "-Wextra", "-Werror", "-I", runtime_include, "-S", stem + ".hip", "-o", stem + ".clang.s"])
        same = run([sys.executable, os.path.join(HERE, "same_kernels.py"), stem + ".inprocess.s",
                    stem + ".clang.s"])
        print(f"{f}: " + "; ".join(same.stdout.split("\n")[:-1]))
        verify = json.loads(run([tilec, path, "--verify", "--format=json"]).stdout)
        meta = clang_metadata(open(stem + ".clang.s").read())
        models = {}
        for k in report["kernels"]:
            models[k["name"]] = (k["resources"], k["occupancy"])
            if "unaligned_kernel" in k:
                u = k["unaligned_kernel"]
                models[u["name"]] = (u["resources"], u["occupancy"])
        if sorted(models) != sorted(k["name"] for k in verify["kernels"]):
            sys.exit(f"FAILED: {f}: verify lists {[k['name'] for k in verify['kernels']]}, the report {sorted(models)}")
        for k in verify["kernels"]:
            name, c, m = k["name"], k["compiler"], k["model"]
            meta_k = meta[name]
            want_compiler = {"total_vgprs": meta_k["vgpr_count"], "agprs": meta_k.get("agpr_count", 0),
                             "sgprs": meta_k["sgpr_count"], "lds_bytes": meta_k["group_segment_fixed_size"],
                             "scratch_bytes": meta_k["private_segment_fixed_size"], "occupancy": meta_k["occupancy"]}
            for key, want in want_compiler.items():
                if c[key] != want:
                    sys.exit(f"FAILED: {f}: {name}: verify's compiler {key} {c[key]}, clang++-19's {want}")
            resources, occupancy = models[name]
            want_model = {"arch_vgprs": resources["vgprs"], "agprs": resources["agprs"],
                          "lds_bytes": resources["lds_bytes"], "occupancy": occupancy["waves_per_simd"]}
            for key, want in want_model.items():
                if m[key] != want:
                    sys.exit(f"FAILED: {f}: {name}: verify's model {key} {m[key]}, the report's {want}")
            if c["scratch_bytes"]:
                sys.exit(f"FAILED: {f}: {name} spills ({c['scratch_bytes']} B of scratch)")
            print(f"{f}: verify {name}: compiler column = clang++-19 metadata, model column = report, "
                  f"occupancy model {m['occupancy']} compiler {c['occupancy']}")


if __name__ == "__main__":
    main(*sys.argv[1:])
