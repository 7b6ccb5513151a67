#!/usr/bin/env python3
"""Memory benchmark: the yardstick of the memory-bound examples (docs/performance.md, "Memory-bound kernels").

For every example without an `acc` (elementwise, row-wise, transposes), tilec's report (--emit=report
--format=json) gives, at a problem size where every dimension symbol is 8192 (analysis/MemoryTraffic.h):

  moved/ideal   global bytes the kernel moves over the bytes of reading each input once and writing each output once
                (re-reads of small tensors that every workgroup reads whole, such as a weight row, are the caches'
                and left out)
  16 B          accesses of 16 bytes per lane / all global accesses (per distinct access of the source)
  flight/CU     bytes one lane's loads put in flight before it first waits x 64 lanes x the waves resident on a CU
                (the model's occupancy), in KiB
  need/CU       what Little's law asks of a CU to stream from HBM: bandwidth / CUs x latency (Target.h), in KiB
  waves         waves per SIMD (the model's occupancy)

and from --verify (tilec compiles the kernel in process with LLVM 22's AMDGPU backend; device/IssueRate.h):

  issue/16B     LLVM MCA's cycles (4 clocks each) for one wave to issue the compiled vector kernel's instructions,
                each once as written (s_waitcnt left out), per 16 bytes a lane moves with the global loads and stores
                among them
  HBM/16B       the cycles HBM takes for a wave's 16 bytes per lane when every wave resident on a CU streams (HBM
                bandwidth / CUs at the target's clock, the compiler's occupancy)
  issue share   the SIMD's waves' issue for their 16 bytes each over that HBM time: below 1 the SIMD keeps up

One table per target: each example is compiled for gfx942 and for gfx950 (--offload-arch). No external compiler or
device is needed. --json prints the rows as JSON.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")


def rows_for(tilec, path, arch):
    out = subprocess.run([tilec, path, "--offload-arch=" + arch, "--emit=report", "--format=json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{path}: tilec failed:\n{out.stderr}")
    issue = issue_for(tilec, path, arch)
    rows = []
    for k in json.loads(out.stdout)["kernels"]:
        m = k.get("memory")
        if not m:
            continue
        rows.append({
            "kernel": k["name"],
            "moved_over_ideal": m["moved"] / m["ideal"] if m["ideal"] else 0.0,
            "wide": m["wide_accesses"], "accesses": m["accesses"],
            "in_flight_kib": m["in_flight_per_cu"] / 1024, "needed_kib": m["needed_per_cu"] / 1024,
            "waves": k["occupancy"]["waves_per_simd"],
            **issue.get(k["name"], {}),
        })
    return rows


def issue_for(tilec, path, arch):
    """Per kernel name, the issue figures of --verify (the vector kernels of kernels without an mma)."""
    out = subprocess.run([tilec, path, "--offload-arch=" + arch, "--verify", "--format=json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{path}: tilec --verify failed:\n{out.stderr}")
    figures = {}
    for k in json.loads(out.stdout)["kernels"]:
        i = k.get("issue")
        if i:
            figures[k["name"]] = {"issue_per_16b": i["issue_cycles_per_16b"], "hbm_per_16b": i["hbm_cycles_per_16b"],
                                  "issue_over_hbm": i["issue_over_hbm"]}
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tilec", required=True)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    examples = sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".tile"))
    tables = {}
    for arch in ("gfx942", "gfx950"):
        rows = []
        for f in examples:
            if arch == "gfx942" and f.endswith("_gfx950.tile"):
                continue
            rows += rows_for(args.tilec, os.path.join(EXAMPLES, f), arch)
        tables[arch] = rows
    if args.json:
        json.dump(tables, sys.stdout, indent=1)
        print()
        return
    for arch, rows in tables.items():
        print(f"{arch}: memory-bound examples, every dimension 8192")
        print(f"{'kernel':<22} {'moved/ideal':>11} {'16 B':>6} {'flight/CU':>10} {'need/CU':>8} {'waves':>5} "
              f"{'issue/16B':>9} {'HBM/16B':>8} {'issue share':>11}")
        for r in rows:
            issue = (f" {r['issue_per_16b']:>9.2f} {r['hbm_per_16b']:>8.1f} {r['issue_over_hbm']:>11.3f}"
                     if "issue_per_16b" in r else "")
            print(f"{r['kernel']:<22} {r['moved_over_ideal']:>11.2f} {r['wide']:>3}/{r['accesses']:<2} "
                  f"{r['in_flight_kib']:>10.1f} {r['needed_kib']:>8.1f} {r['waves']:>5}{issue}")
        print()


if __name__ == "__main__":
    main()
