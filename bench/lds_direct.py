#!/usr/bin/env python3
"""What loading global memory straight into LDS would save a staged K loop: an assembly edit measured by llvm-mca.

Usage: lds_direct.py [--tilec T] [--clang C] [--mca M] [--example FILE]

tilec emits FILE (default examples/gemm_mxfp6_gfx950.tile), clang++ (LLVM 22) compiles it for the example's target,
and the main K loop of its first kernel (test/ISA/Inputs/kloop_summary.py's loop 1) is taken out. tilec's staged loop loads
each K step into registers and writes them to LDS a step later; gfx950 can load a 12- or 16-byte piece per lane
straight into LDS (`buffer_load_dwordx3 ... lds`; `global_load_lds_dwordx3/x4` from __builtin_amdgcn_global_load_lds),
each lane's piece landing at M0 + offset + size x lane. The edit, four forms of the loop through llvm-mca:

  as emitted     the loop as clang compiled it
  per tensor     every buffer load given `lds` and no destination registers; every ds_write removed (they only move
                 loaded registers into LDS) and the `s_waitcnt vmcnt` that guarded them; an `s_waitcnt vmcnt(L)` before
                 each barrier, L the loads of one step (those may stay in flight); an `s_mov_b32 m0` wherever the
                 loaded tensor (its buffer resource) changes
  per load       the same with an `s_mov_b32 m0` before every load
  no m0          the same with none (a floor: the M0 writes cost nothing)

The LDS addresses are not modelled (llvm-mca does not read them): the edit measures the instruction stream a compiler
would emit, not a kernel that runs. docs/performance.md ("Loads straight into LDS") has the figures and what the
compiler would need. Not a test: a measurement, like bench/kloop.py.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
SUMMARY = os.path.join(ROOT, "test", "ISA", "Inputs", "kloop_summary.py")
MFMA_PASSES = {  # passes per MFMA as llvm-mca charges them (HWXDL), for the busy column
    "v_mfma_scale_f32_32x32x64_f8f6f4": 8,
    "v_mfma_scale_f32_16x16x128_f8f6f4": 4,
}
LOAD = re.compile(r"^buffer_load_(dword|dwordx3|dwordx4|ushort|ubyte) (v\[\d+:\d+\]|v\d+), (v\d+), (s\[\d+:\d+\]), "
                  r"(s\d+|0) offen( offset:\d+)?$")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def edit(body, m0):
    """The loop with its loads into LDS; m0 is 'tensor', 'load' or 'none'."""
    lines = [l for l in body if not l.startswith("ds_write") and not l.startswith("s_waitcnt vmcnt")]
    loads = sum(1 for l in lines if LOAD.match(l))
    barriers = sum(1 for l in lines if l == "s_barrier")
    per_step = loads // max(1, barriers)
    out, resource = [], None
    for l in lines:
        m = LOAD.match(l)
        if m:
            if m0 == "load" or (m0 == "tensor" and m.group(4) != resource):
                out.append("s_mov_b32 m0, s100")
            resource = m.group(4)
            out.append(f"buffer_load_{m.group(1)} {m.group(3)}, {m.group(4)}, {m.group(5)} offen{m.group(6) or ''} lds")
            continue
        if l == "s_barrier":
            out.append(f"s_waitcnt vmcnt({per_step})")
        out.append(l)
    return out


def mca(mca_path, target, lines):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(lines) + "\n")
    try:
        text = run([mca_path, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-iterations=100", f.name])
    finally:
        os.unlink(f.name)
    return int(re.search(r"Total Cycles:\s+(\d+)", text).group(1)) / 100


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tilec", default=os.path.join(ROOT, "build", "tools", "tilec"))
    p.add_argument("--clang", default="clang++-22")
    p.add_argument("--mca", default="llvm-mca-22")
    p.add_argument("--example", default=os.path.join(ROOT, "examples", "gemm_mxfp6_gfx950.tile"))
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        hip, asm = os.path.join(d, "k.hip"), os.path.join(d, "k.s")
        subprocess.run([a.tilec, a.example, "-o", hip], check=True, stderr=subprocess.DEVNULL)
        target = re.search(r"^target (gfx\d+);", open(a.example).read(), re.M).group(1)
        run([a.clang, "-x", "hip", f"--offload-arch={target}", "--cuda-device-only", "-nogpulib", "-O3", "-S",
             "-I", os.path.join(ROOT, "runtime", "include"), hip, "-o", asm])
        body = [l for l in run([sys.executable, SUMMARY, asm, "--body", "1"]).splitlines() if l.strip()]
    passes = sum(MFMA_PASSES.get(l.split()[0], 0) for l in body)
    if not passes:
        sys.exit("lds_direct: the loop has no scaled MFMA this script knows the passes of")
    print(f"{os.path.basename(a.example)} ({target}), main K loop, llvm-mca -iterations=100:")
    print(f"{'form':<12} {'instructions':>12} {'cycles':>8} {'busy':>5}")
    for name, lines in (("as emitted", body), ("per tensor", edit(body, "tensor")), ("per load", edit(body, "load")),
                        ("no m0", edit(body, "none"))):
        cycles = mca(a.mca, target, lines)
        print(f"{name:<12} {len(lines):>12} {cycles:>8.1f} {passes / cycles:>5.2f}")


if __name__ == "__main__":
    main()
