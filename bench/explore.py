#!/usr/bin/env python3
"""The K step, block and depth of every GEMM example beside their neighbours (docs/performance.md).

For each example with an `acc` (attention's loops are not K loops and say so), runs `tilec EXAMPLE --explore`: the
kernel as written and its variants (K step x 2 and / 2, the block doubled down M or across N with the same waves or
twice as many, each other pipeline depth), each edited in tilec's syntax tree, compiled by LLVM 22 in tilec's process
and its vector kernel's K loop run through llvm-mca (docs/verify.md, "Exploring the K step, block and depth"). One row
per kernel:

  as written       one wave's MFMA busy under MCA, the compiler's waves per SIMD, min(1, waves x busy), and the
                   estimate at that occupancy (TFLOP/s: the least of the waves' share of the MFMA peak, global memory
                   with no cache hit, and the LDS) with what bounds it
  best variant     the variant tilec names as better (no less MFMA work, by one wave and by the compiler's waves
                   together, and 2% more TFLOP/s in the estimate, or as many with one wave doing 2% more), with the
                   same figures; "as written" when none is
  refused          how many of the variants tilec or LLVM refused (their reasons are in tilec's table)

Run after a build: python3 bench/explore.py --tilec build/tools/tilec [--examples DIR] [--only NAME ...]
(--from FILE summarizes one saved --explore table instead of running tilec.)
"""
import argparse
import os
import re
import subprocess
import sys

ROW = re.compile(r"^  (?P<name>\S.*?)\s{2,}(?P<vgprs>\d+)\s+(?P<agprs>\d+)\s+(?P<scratch>\d+)\s+(?P<lds>\d+)\s+"
                 r"(?P<waves>\d+) (?P<depth>\d)(?: \(set\))?\s+(?P<cycles>[\d.]+)\s+(?P<busy>[\d.]+)\s+"
                 r"(?P<wbusy>[\d.]+) (?P<bound>MFMA|global memory|LDS)\s+(?P<tflops>\d+)")
REFUSED = re.compile(r"^  (?P<name>\S.*?)\s+refused: ")
KERNEL = re.compile(r"^kernel (?P<kernel>\S+): K loop over \S+, step (?P<step>\d+), block (?P<block>\d+ x \d+), "
                    r"pipeline (?P<depth>\d)")
BETTER = re.compile(r"^  better: (?P<name>[^:]+):")


def parse(text):
    """The kernels of one --explore table: their shape, rows by name, refusals and the better variant."""
    kernels = []
    for line in text.splitlines():
        if m := KERNEL.match(line):
            kernels.append({**m.groupdict(), "rows": {}, "refused": 0, "better": None})
        elif not kernels:
            continue
        elif m := ROW.match(line):
            kernels[-1]["rows"][m["name"]] = m.groupdict()
        elif REFUSED.match(line):
            kernels[-1]["refused"] += 1
        elif m := BETTER.match(line):
            kernels[-1]["better"] = m["name"]
    return kernels


def figures(row):
    return f"{row['busy']:>4} {row['waves']:>5} {row['wbusy']:>12} {row['tflops']:>7} {row['bound']:<13}"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tilec", default=os.path.join(here, "..", "build", "tools", "tilec"))
    parser.add_argument("--examples", default=os.path.join(here, "..", "examples"))
    parser.add_argument("--only", nargs="*", help="example names (without .tile) to run; default every GEMM example")
    parser.add_argument("--from", dest="saved", help="a saved `tilec --explore` table to summarize (no tilec run)")
    args = parser.parse_args()
    paths = []
    for name in sorted(os.listdir(args.examples)):
        path = os.path.join(args.examples, name)
        if not name.endswith(".tile") or (args.only and name[:-5] not in args.only):
            continue
        with open(path) as f:
            if re.search(r"^\s*acc\s", f.read(), re.M):
                paths.append(path)
    figures_head = "busy waves waves x busy TFLOP/s bound        "
    print(f"{'kernel':<26} target step block      depth | {figures_head} | {'best variant':<22} {figures_head} | refused")
    failed = False
    tables = []
    if args.saved:
        with open(args.saved) as f:
            tables.append(f.read())
    for path in [] if args.saved else paths:
        run = subprocess.run([args.tilec, path, "--explore"], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{os.path.basename(path)}: tilec --explore exited {run.returncode}: {run.stderr.strip()}")
            failed = True
            continue
        tables.append(run.stdout)
    for table in tables:
        target = re.search(r" for (gfx\d+):", table)
        for k in parse(table):
            written = k["rows"].get("as written")
            if not written:
                continue
            best = k["rows"].get(k["better"]) if k["better"] else None
            print(f"{k['kernel']:<26} {target[1] if target else '?':<6} {k['step']:>4} {k['block']:<10} {k['depth']:>5} "
                  f"| {figures(written)} | {(k['better'] or 'as written'):<22} "
                  f"{figures(best) if best else ' ' * 45} | {k['refused']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
