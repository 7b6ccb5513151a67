#!/usr/bin/env python3
"""K-loop benchmark: what clang-19 makes of the K loop of every gfx942 GEMM example (docs/performance.md).

For each example whose `target` is gfx942 and that has an `acc`: tilec emits the HIP, clang-19 compiles it for gfx942,
and for each kernel (the vector kernel and `_unaligned`) the K loop is found in the assembly as the loop closed by a
backward branch whose body holds the MFMAs (the innermost such loop; a prologue before it or an epilogue after it is
not counted). Over that loop body:

  instrs       instructions (labels, comments and directives are not instructions)
  mfma         MFMA instructions; passes = sum of each MFMA's cycles / 4 from compiler/target/MFMA.cpp (llvm-mca's unit)
  non/16       non-MFMA instructions per 16 MFMAs
  cycles       llvm-mca-19 -mcpu=gfx942 cycles per iteration of the body (buffer_load_* rewritten as global_load_*,
               which llvm-mca 19 crashes on)
  busy         MFMA passes / cycles: the fraction of the loop the MFMA pipe is busy
  gload        global (or buffer) load instructions per iteration / the ideal: the bytes of the tiles written to LDS
               in the loop / 16 B per lane / workgroup size
  bar          s_barrier per iteration
  exec         s_cbranch_execz/execnz per iteration (each closes an s_and_saveexec: one masked access)
  lds          LDS instructions by mnemonic
  banks        LDS bank cost per access tilec emits: cycles / ideal per wave (1.0 = conflict-free), from tilec's bank
               model (compiler/analysis/LDSBanks.cpp) on the lane addresses of tilec's layouts, via `--emit=report --format=json`

`--asm FILE` measures one assembly file instead (the core of the tool, tested by test/Bench/kloop.test).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

BRANCH = re.compile(r"^\s*(s_branch|s_cbranch_\w+)\s+(\.?\w+)")
LABEL = re.compile(r"^(\.?[A-Za-z_$][\w$.]*):")
MNEMONIC = re.compile(r"^\s*([a-z_][a-z0-9_]*)")


def mfma_passes(mfma_cpp):
    """Instruction name -> passes (cycles / 4), read from the MFMA table's rows."""
    passes = {}
    for m in re.finditer(r'\{"(v_mfma_\w+)",\s*"[^"]*",(?:\s*[^,]+,){8}\s*(\d+),', open(mfma_cpp).read()):
        passes[m.group(1)] = int(m.group(2)) // 4
    if not passes:
        sys.exit(f"kloop: no MFMA rows found in {mfma_cpp}")
    return passes


def functions(asm):
    """Function name -> list of (line number, text) of its body."""
    names = set(re.findall(r"\.type\s+([\w.$]+),@function", asm))
    out, current = {}, None
    for n, line in enumerate(asm.splitlines(), 1):
        m = LABEL.match(line)
        if m and m.group(1) in names:
            current = out.setdefault(m.group(1), [])
            continue
        if line.startswith(".Lfunc_end"):
            current = None
        elif current is not None:
            current.append((n, line))
    return out


def instruction(line):
    """The instruction on an assembly line without its comment, or None."""
    text = line.split(";")[0].strip()
    if not text or text.startswith(".") or LABEL.match(text):
        return None
    return text


def loops(body):
    """(first index, last index, label) of every loop: a branch to a label defined earlier in the function."""
    where, found = {}, {}
    for i, (_, line) in enumerate(body):
        m = LABEL.match(line)
        if m:
            where[m.group(1)] = i
        b = BRANCH.match(line.split(";")[0])
        if b and b.group(2) in where:
            start = where[b.group(2)]
            found[start] = (start, i, b.group(2))  # the last branch back to a label closes its loop
    return list(found.values())


def k_loop(body):
    """The innermost loop whose body holds an MFMA, or None."""
    candidates = []
    for start, end, label in loops(body):
        ins = [instruction(l) for _, l in body[start:end + 1]]
        if any(i and i.startswith("v_mfma") for i in ins):
            candidates.append((start, end, label))
    inner = [c for c in candidates if not any(o != c and c[0] <= o[0] and o[1] <= c[1] for o in candidates)]
    return min(inner, key=lambda c: c[1] - c[0]) if inner else None


def for_mca(ins):
    """llvm-mca 19 crashes on buffer_load_*/buffer_store_*: the same memory class as a global access."""
    m = re.match(r"buffer_(load|store)_(\w+)\s+(v\[?[\d:]+\]?),\s*v(\d+)", ins)
    if not m:
        return ins
    # The 64-bit address pair must start at an even register: the offset's register, rounded down.
    pair = int(m.group(4)) - int(m.group(4)) % 2
    return f"global_{m.group(1)}_{m.group(2)} {m.group(3)}, v[{pair}:{pair + 1}], off"


def mca_cycles(body, mca, iterations=100):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(for_mca(i) for i in body) + "\n")
        path = f.name
    try:
        out = subprocess.run([mca, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx942", f"-iterations={iterations}", path],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(path)
    total = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1))
    return total / iterations


def measure(body_lines, passes, mca=None, cycles=None):
    """Figures of one kernel's K loop; None when it has no MFMA loop."""
    loop = k_loop(body_lines)
    if not loop:
        return None
    start, end, label = loop
    ins = [i for i in (instruction(l) for _, l in body_lines[start:end + 1]) if i]
    ops = [MNEMONIC.match(i).group(1) for i in ins]
    mfmas = [o for o in ops if o.startswith("v_mfma")]
    unknown = sorted({o for o in mfmas if o not in passes})
    if unknown:
        sys.exit(f"kloop: MFMA not in compiler/target/MFMA.cpp: {', '.join(unknown)}")
    total_passes = sum(passes[o] for o in mfmas)
    if cycles is None and mca:
        cycles = mca_cycles(ins, mca)
    lds = {}
    for o in ops:
        if o.startswith("ds_"):
            lds[o] = lds.get(o, 0) + 1
    return {
        "loop": f"{label} (lines {body_lines[start][0]}-{body_lines[end][0]})",
        "instructions": len(ins),
        "mfma": len(mfmas),
        "mfma_passes": total_passes,
        "non_mfma_per_16_mfma": round((len(ins) - len(mfmas)) * 16 / len(mfmas), 1),
        "mca_cycles_per_iteration": round(cycles, 1) if cycles is not None else None,
        "mfma_busy": round(total_passes / cycles, 2) if cycles else None,
        "global_loads": sum(1 for o in ops if re.match(r"(global|buffer)_load", o)),
        "barriers": ops.count("s_barrier"),
        "exec_branches": sum(1 for o in ops if o in ("s_cbranch_execz", "s_cbranch_execnz")),
        "lds": dict(sorted(lds.items())),
    }


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def example_target(path):
    m = re.search(r"^\s*target\s+(\w+)\s*;", open(path).read(), re.M)
    return m.group(1) if m else "gfx942"


def bank_figures(report_kernel):
    out = []
    for a in report_kernel.get("lds_accesses", []):
        ratio = a["cycles_per_wave"] / a["ideal_cycles_per_wave"]
        who = f"{a['buffer']}={a['tile']}" if a["kind"] == "write" else f"read {a['buffer']}"
        out.append({"access": who, "instruction": a["instruction"], "cycles": a["cycles_per_wave"],
                    "ideal": a["ideal_cycles_per_wave"], "ratio": round(ratio, 2), "worst_ways": a["worst_ways"],
                    "measured_phases": a["phase_rule_measured"]})
    return out


def ideal_loads(report_kernel):
    """Tile bytes written to LDS / 16 B per lane / workgroup size."""
    tiles = {t["name"]: t for t in report_kernel["tiles"]}
    size = {"f16": 2, "bf16": 2, "f32": 4, "i32": 4, "i8": 1, "fp8": 1, "bf8": 1, "u8": 1}
    stored = {a["tile"] for a in report_kernel.get("lds_accesses", []) if a["kind"] == "write"}
    total = sum(tiles[t]["shape"][0] * tiles[t]["shape"][1] * size[tiles[t]["dtype"]] for t in stored)
    return total / 16 / report_kernel["workgroup_size"]


def bench_examples(args, passes):
    rows, skipped = [], []
    for name in sorted(os.listdir(args.examples)):
        path = os.path.join(args.examples, name)
        if not name.endswith(".tile") or not re.search(r"^\s*acc\s", open(path).read(), re.M):
            continue
        target = example_target(path)
        if target != "gfx942":
            # No assembly, but tilec's bank model needs none.
            report = json.loads(run([args.tilec, path, "--emit=report", "--format=json"]))
            skipped.append({"example": name, "target": target,
                            "why": f"not measurable here: no {target} llvm-mca (LLVM 19 knows gfx942 only)",
                            "lds_banks": bank_figures(report["kernels"][0]) if report["kernels"] else []})
            continue
        with tempfile.TemporaryDirectory() as tmp:
            hip, asm = os.path.join(tmp, "k.hip"), os.path.join(tmp, "k.s")
            run([args.tilec, path, "-o", hip])
            report = json.loads(run([args.tilec, path, "--emit=report", "--format=json"]))
            run([args.clang, "-x", "hip", "--offload-arch=gfx942", "--cuda-device-only", "-nogpulib", "-O3",
                 "-I", args.runtime_include, "-S", hip, "-o", asm])
            fns = functions(open(asm).read())
        for rk in report["kernels"]:
            for kname in (rk["name"], rk["name"] + "_unaligned"):
                if kname not in fns:
                    continue
                fig = measure(fns[kname], passes, mca=args.mca)
                if not fig:
                    continue
                fig.update({"example": name, "kernel": kname, "ideal_global_loads": ideal_loads(rk),
                            "lds_banks": bank_figures(rk)})
                rows.append(fig)
    return rows, skipped


def banks_text(banks):
    return "; ".join(f"{b['access']} {b['instruction']} {b['cycles']}/{b['ideal']}"
                     + ("" if b["ratio"] == 1 else f" ({b['worst_ways']}-way{'' if b['measured_phases'] else ', inferred'})")
                     for b in banks)


def print_table(rows, skipped, out):
    head = ("kernel", "instrs", "mfma", "non/16", "cycles", "busy", "gload", "bar", "exec")
    print(f"{head[0]:<26} {head[1]:>6} {head[2]:>4} {head[3]:>6} {head[4]:>7} {head[5]:>5} {head[6]:>7} "
          f"{head[7]:>3} {head[8]:>4}  lds / banks (cycles / ideal per wave)", file=out)
    for r in rows:
        ideal = r.get("ideal_global_loads")
        gload = f"{r['global_loads']}/{ideal:g}" if ideal is not None else str(r["global_loads"])
        cycles = "-" if r["mca_cycles_per_iteration"] is None else f"{r['mca_cycles_per_iteration']:.1f}"
        busy = "-" if r["mfma_busy"] is None else f"{r['mfma_busy']:.2f}"
        print(f"{r['kernel']:<26} {r['instructions']:>6} {r['mfma']:>4} {r['non_mfma_per_16_mfma']:>6} "
              f"{cycles:>7} {busy:>5} {gload:>7} {r['barriers']:>3} {r['exec_branches']:>4}  "
              + ", ".join(f"{k} x{v}" for k, v in r["lds"].items()), file=out)
        if r.get("lds_banks"):
            print(" " * 28 + "banks: " + banks_text(r["lds_banks"]), file=out)
        print(" " * 28 + f"loop: {r['loop']}", file=out)
    for s in skipped:
        print(f"{s['example']}: {s['why']}", file=out)
        if s.get("lds_banks"):
            print(" " * 28 + "banks: " + banks_text(s["lds_banks"]), file=out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tilec", default=os.path.join(root, "build", "tools", "tilec"))
    p.add_argument("--clang", default="clang++-19")
    p.add_argument("--mca", default="llvm-mca-19", help="llvm-mca binary; 'none' skips the cycle estimate")
    p.add_argument("--examples", default=os.path.join(root, "examples"))
    p.add_argument("--runtime-include", default=os.path.join(root, "runtime", "include"))
    p.add_argument("--mfma-table", default=os.path.join(root, "compiler", "target", "MFMA.cpp"))
    p.add_argument("--asm", help="measure the kernels of this gfx942 assembly file instead of the examples")
    p.add_argument("--cycles", type=float, help="with --asm: cycles per iteration to use instead of llvm-mca's")
    p.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = p.parse_args()
    if args.mca == "none":
        args.mca = None
    passes = mfma_passes(args.mfma_table)
    if args.asm:
        rows, skipped = [], []
        for name, body in sorted(functions(open(args.asm).read()).items()):
            fig = measure(body, passes, mca=args.mca, cycles=args.cycles)
            if fig:
                fig["kernel"] = name
                rows.append(fig)
    else:
        rows, skipped = bench_examples(args, passes)
    if args.json:
        json.dump({"kernels": rows, "not_measured": skipped}, sys.stdout, indent=2)
        print()
    else:
        print_table(rows, skipped, sys.stdout)


if __name__ == "__main__":
    main()
