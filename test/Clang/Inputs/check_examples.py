#!/usr/bin/env python3
"""tilec's in-process compiler against clang++ of the same LLVM (22), for every example, on its own target.

    check_examples.py TILEC CLANG RUNTIME_INCLUDE EXAMPLES_DIR WORK_DIR [CLANG19]

For each examples/*.tile, on the target it names (gfx942 or gfx950):
  * `tilec --emit=asm` must hold the same kernels, instruction for instruction, as CLANG -x hip --offload-arch=TARGET
    --cuda-device-only -O3 -Wall -Wextra -Werror -S run on the emitted .hip with the real HIP headers
    (same_kernels.py): the in-process compiler is the one users run, and the emitted code is warning-free;
  * `tilec --verify --format=json`: its compiler column must equal the metadata and the '; Occupancy:' of that
    assembly, and its model column must equal `tilec --emit=report --format=json` (accumulators in ArchVGPRs
    counted with the ArchVGPRs, as verify shows them);
  * the kernels have no scratch;
  * with CLANG19 (a ROCm 6-era compiler, gfx942 only), each gfx942 example's .hip compiles with it too,
    -Wall -Wextra -Werror.
(Every example compiled for gfx950, the gfx942 ones included, is test/ISA/gfx950-resources.test.)
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


def device_compile(clang, arch, runtime_include, hip, out):
    run([clang, "-x", "hip", f"--offload-arch={arch}", "--cuda-device-only", "-nogpulib", "-O3", "-Wall", "-Wextra",
         "-Werror", "-I", runtime_include, "-S", hip, "-o", out])


def main(tilec, clang, runtime_include, examples, work, clang19=None):
    os.makedirs(work, exist_ok=True)
    for f in sorted(os.listdir(examples)):
        if not f.endswith(".tile"):
            continue
        path, stem = os.path.join(examples, f), os.path.join(work, f[:-5])
        report = json.loads(run([tilec, path, "--emit=report", "--format=json"]).stdout)
        arch = report["target"]
        run([tilec, path, "--emit=asm", "-o", stem + ".inprocess.s"])
        run([tilec, path, "-o", stem + ".hip"])
        device_compile(clang, arch, runtime_include, stem + ".hip", stem + ".clang.s")
        if clang19 and arch == "gfx942":
            device_compile(clang19, arch, runtime_include, stem + ".hip", stem + ".clang19.s")
            print(f"{f}: clang-19 gfx942: warning-free")
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
                    sys.exit(f"FAILED: {f}: {name}: verify's compiler {key} {c[key]}, clang++'s {want}")
            resources, occupancy = models[name]
            in_agprs = resources.get("accumulators_in", "agprs") == "agprs"
            want_model = {"arch_vgprs": resources["vgprs"] + (0 if in_agprs else resources["agprs"]),
                          "agprs": resources["agprs"] if in_agprs else 0,
                          "lds_bytes": resources["lds_bytes"], "occupancy": occupancy["waves_per_simd"]}
            for key, want in want_model.items():
                if m[key] != want:
                    sys.exit(f"FAILED: {f}: {name}: verify's model {key} {m[key]}, the report's {want}")
            if c["scratch_bytes"]:
                sys.exit(f"FAILED: {f}: {name} spills ({c['scratch_bytes']} B of scratch)")
            print(f"{f}: verify {name} ({arch}): compiler column = clang++ metadata, model column = report, "
                  f"occupancy model {m['occupancy']} compiler {c['occupancy']}")


if __name__ == "__main__":
    main(*sys.argv[1:])
