#!/usr/bin/env python3
"""What loading global memory straight into LDS would save a staged K loop: an assembly edit measured by llvm-mca.

Usage: lds_direct.py [--tilec T] [--clang C] [--mca M] [--runtime-include DIR] [--mfma-table MFMA.cpp]
                     [--example FILE | --asm FILE.s] [--show FORM]

tilec emits FILE (default examples/gemm_mxfp6_gfx950.tile), clang++ (LLVM 22) compiles it for the example's target,
and the K loop of its first kernel is taken out as bench/kloop.py finds it (its functions, loop finder, MFMA passes
from compiler/target/MFMA.cpp and llvm-mca run are used here). tilec's staged loop loads each K step into registers
and writes them to LDS a step later; gfx950 can load a piece per lane straight into LDS
(`buffer_load_{ubyte,ushort,dword,dwordx3,dwordx4} ... lds`; `global_load_lds_dwordx3/x4` from
__builtin_amdgcn_global_load_lds), each lane's piece landing at M0 + offset + size x lane. The forms of the loop
through llvm-mca:

  as emitted            the loop as clang compiled it
  3 stages, per tensor  every buffer load given `lds` and no destination registers; every ds_write removed (they only
                        move loaded registers into LDS) and every vmcnt wait (they guarded those writes); an
                        `s_waitcnt vmcnt(L)` before each barrier, L the loads of one step, which may stay in flight
                        (the loads write the stage read two steps later: a third LDS stage); an `s_mov_b32 m0`
                        wherever the loaded tensor (its buffer resource) changes
  3 stages, per load    the same with an `s_mov_b32 m0` before every load
  3 stages, no m0       the same with none (a floor: the M0 writes cost nothing)
  2 stages, per tensor  `s_waitcnt vmcnt(0)` before each barrier: every load lands within its step

Busy is the MFMAs' true passes over the cycles; where llvm-mca undercharges an MFMA (an fp8 operand of the scaled
f8f6f4 forms), every form is measured with kloop.py's stand-ins at true passes.
The LDS addresses are not modelled (llvm-mca does not read them): the edit measures the instruction stream a compiler
would emit, not a kernel that runs. A loop with a load the edit does not know stops the script. docs/performance.md
("Loads straight into LDS") has the figures and what the compiler would need. A measurement, like bench/kloop.py.
"""
import argparse
import os
import re
import sys
import tempfile

import kloop

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
# The buffer loads gfx950 can send to LDS (their `lds` forms); a loop with any other global access is not edited.
LDS_LOADS = ("ubyte", "sbyte", "ushort", "sshort", "dword", "dwordx3", "dwordx4")
LOAD = re.compile(r"^buffer_load_(\w+) (v\[\d+:\d+\]|v\d+), (.*)$")

# The forms measured: a name, where M0 is written ('tensor', 'load', 'none'; None: the loop as it is) and the vmcnt
# left before each barrier ('step': a step's loads; 'none': 0).
FORMS = (("as emitted", None, None),
         ("3 stages, per tensor", "tensor", "step"),
         ("3 stages, per load", "load", "step"),
         ("3 stages, no m0", "none", "step"),
         ("2 stages, per tensor", "tensor", "none"))


def edit(body, m0, wait):
    """The loop with its loads into LDS. m0: 'tensor', 'load' or 'none'; wait: the vmcnt left before each barrier,
    'step' (a step's loads stay in flight: three LDS stages) or 'none' (every load lands: two stages)."""
    loads = [l for l in body if l.startswith(("buffer_load", "global_load", "flat_load"))]
    barriers = sum(1 for l in body if l == "s_barrier")
    bad = [l for l in loads if not LOAD.match(l) or LOAD.match(l).group(1) not in LDS_LOADS]
    if bad or not barriers:
        sys.exit("lds_direct: not a staged loop of buffer loads this edit knows: "
                 + (f"'{bad[0]}'" if bad else "no barrier"))
    per_step = len(loads) // barriers  # a staged loop has one barrier a step
    out, resource = [], None
    for l in body:
        if l.startswith("ds_write"):
            continue
        if l.startswith("s_waitcnt") and "vmcnt" in l:
            rest = " ".join(f for f in l.split()[1:] if not f.startswith("vmcnt"))
            if rest:
                out.append(f"s_waitcnt {rest}")
            continue
        m = LOAD.match(l)
        if m:
            operands = m.group(3)
            tensor = re.search(r"s\[\d+:\d+\]", operands).group(0)
            if m0 == "load" or (m0 == "tensor" and tensor != resource):
                out.append("s_mov_b32 m0, s100")
            resource = tensor
            out.append(f"buffer_load_{m.group(1)} {operands} lds")
            continue
        if l == "s_barrier":
            out.append(f"s_waitcnt vmcnt({per_step if wait == 'step' else 0})")
        out.append(l)
    return out


def main_loop(asm):
    """The K loop of the first function that has one, as a list of instructions (kloop.py's finder)."""
    for body in kloop.functions(asm).values():
        loop = kloop.k_loop(body)
        if loop:
            start, end, _ = loop
            return [i for i in (kloop.instruction(l) for _, l in body[start:end + 1]) if i]
    sys.exit("lds_direct: no loop with an MFMA in the assembly")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tilec", default=os.path.join(ROOT, "build", "tools", "tilec"))
    p.add_argument("--clang", default="clang++-22")
    p.add_argument("--mca", default="llvm-mca-22")
    p.add_argument("--runtime-include", default=os.path.join(ROOT, "runtime", "include"))
    p.add_argument("--mfma-table", default=os.path.join(ROOT, "compiler", "target", "MFMA.cpp"))
    p.add_argument("--example", default=os.path.join(ROOT, "examples", "gemm_mxfp6_gfx950.tile"))
    p.add_argument("--asm", help="measure the K loop of this assembly file instead of compiling --example")
    p.add_argument("--show", choices=[f[0] for f in FORMS], help="print this form of the loop instead of measuring")
    a = p.parse_args()
    if a.asm:
        text = open(a.asm).read()
        name, target = os.path.basename(a.asm), kloop.asm_arch(text, "gfx950")
    else:
        name, target = os.path.basename(a.example), kloop.example_target(a.example)
        with tempfile.TemporaryDirectory() as d:
            hip, asm = os.path.join(d, "k.hip"), os.path.join(d, "k.s")
            kloop.run([a.tilec, a.example, "-o", hip])
            kloop.run([a.clang, "-x", "hip", f"--offload-arch={target}", "--cuda-device-only", "-nogpulib", "-O3",
                       "-S", "-I", a.runtime_include, hip, "-o", asm])
            text = open(asm).read()
    body = main_loop(text)
    forms = [(form, body if m0 is None else edit(body, m0, wait)) for form, m0, wait in FORMS]
    if a.show:
        print("\n".join(dict(forms)[a.show]))
        return
    table = kloop.MFMATable(a.mfma_table)
    mfmas = [(kloop.MNEMONIC.match(i).group(1), i) for i in body if i.startswith("v_mfma")]
    unknown = sorted({o for o, _ in mfmas if not table.knows(o)})
    if unknown:
        sys.exit(f"lds_direct: MFMA not in {a.mfma_table}: {', '.join(unknown)}")
    passes = sum(table.passes(o, i) for o, i in mfmas)
    stand_ins = any(table.passes(o, i) > table.charged(o) for o, i in mfmas)
    print(f"{name} ({target}), K loop, llvm-mca -iterations=100"
          + (", MFMAs at true passes (stand-ins)" if stand_ins else "") + ":")
    print(f"{'form':<22} {'instructions':>12} {'cycles':>8} {'busy':>5}")
    for form, lines in forms:
        measured = kloop.stand_ins_at_true_passes(lines, table)[0] if stand_ins else lines
        cycles, _ = kloop.mca_figures(measured, a.mca, target)
        figures = f"{cycles:>8.1f} {passes / cycles:>5.2f}" if cycles else f"{'-':>8} {'-':>5}"
        print(f"{form:<22} {len(lines):>12} {figures}")


if __name__ == "__main__":
    main()
