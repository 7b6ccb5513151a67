#!/usr/bin/env python3
"""K-loop benchmark: what clang compiles the K loop of every GEMM example to, per target (docs/performance.md).

For each example with an `acc` tilec emits the HIP, clang++ (LLVM 22) compiles it device-only for the example's
`target` (gfx942 or gfx950), and for each kernel (the vector kernel and `_unaligned`) the K loop is found in the
assembly as the loop closed by a backward branch whose body holds the MFMAs (the innermost such loop; of several, as
tilec's interior loop and the masked copy edge workgroups run, the one with the fewest instructions per MFMA; a
prologue before it or an epilogue after it is not counted). A staged loop runs two K steps an iteration (one per LDS
stage): its row counts both. llvm-mca (LLVM 22, -mcpu = the target) runs that body as it is (llvm-mca 22
reads buffer_load_*, which llvm-mca 19 crashed on). The examples compile one after another. One table per target; each
row is one kernel's K loop:

  instrs       instructions (labels, comments and directives are not instructions)
  mfma         MFMA instructions
  non/16       non-MFMA instructions per 16 MFMAs
  passes       the MFMAs' true passes (1 pass = 4 clocks, llvm-mca's cycle): each MFMA's cycles / 4 from
               compiler/target/MFMA.cpp. For gfx950's scaled v_mfma_scale_f32_{16x16x128,32x32x64}_f8f6f4 the passes
               depend on the operand formats, read from the instruction's cbsz (A) and blgp (B) fields (0 fp8, 1 bf8,
               2 fp6, 3 bf6, 4 fp4; a field left out of the text is 0 = fp8): the table's cycles (16 / 32, i.e. 4 / 8
               passes) with fp6/bf6/fp4 operands only, twice that (8 / 16 passes) when A or B is fp8 or bf8, as
               tilec::scaledCycles counts them (sources in MFMA.cpp: AMD's CDNA4 material, LLVM's SISchedule.td).
  mca p        the passes llvm-mca charges the MFMA pipe per iteration (its resource pressure on HWXDL). Equal to
               `passes` except for the scaled MFMAs with an fp8/bf8 operand: llvm-mca 22 charges every 32x32x64 form
               8 passes and every 16x16x128 form 4 whatever the formats (LLVM's format-dependent scheduling class needs
               the instruction's operands, which llvm-mca does not evaluate), half their true cost.
  cycles       llvm-mca cycles per iteration of the body: its MFMA pipe runs at `mca p`, not at `passes`.
  busy         passes / cycles: the fraction of the loop the MFMA pipe is busy. Where passes > mca p, llvm-mca's cycles
               miss passes - mca p of MFMA work, and busy can come out above 1 (impossible: the pipe then bounds the
               loop).
  est          cycles per iteration and MFMA busy with the MFMAs at their true passes, where llvm-mca undercharges
               them (passes > mca p; "=" elsewhere, where `cycles` already are): llvm-mca runs the body again with
               each undercharged MFMA replaced by a stand-in that it charges the true passes, the f32 MFMA of the
               same block with those passes (an fp8 x fp8 32x32x64 f8f6f4, 16 passes charged 8, by
               v_mfma_f32_32x32x2_f32, 16), on the same C/D and the last register of each of A and B. It holds the
               pipe as long and, like the instruction it stands for, lets the instructions after it dispatch while
               it runs. (Two 8-pass copies of the instruction would not: the second waits for the pipe and holds
               dispatch; that measured 8 to 16 cycles more on the gfx950 fp8 examples.) JSON:
               cycles_at_true_passes, mfma_busy_at_true_passes, stand_ins, stand_in_mca_mfma_passes (= passes: checks
               the stand-ins). Needs llvm-mca's run.
  gload        global (or buffer) load instructions per iteration / the ideal: per tile written to LDS in the loop,
               its bytes / 16 B per lane / workgroup size, at least 1, times the K steps an iteration of the vector
               kernel's main loop runs (the report's main_loop_steps: 2 where it runs one per LDS stage)
  bar          s_barrier per iteration
  exec         s_cbranch_execz/execnz per iteration (each closes an s_and_saveexec: one masked access)
  lds          LDS instructions by mnemonic
  bound        (a line under each row) the CU-level bounds of `tilec --verify` (docs/verify.md): the one that binds,
               MFMA issue of one wave per SIMD, global memory at the HBM bandwidth (no cache hit), LDS under the bank
               model, and the MFMA busy fraction the compiler's waves per SIMD could reach (its "waves" line); left
               out where tilec has no device compiler
  banks        LDS bank cost per access tilec emits: cycles / ideal per wave (1.0 = conflict-free), from tilec's bank
               model (compiler/analysis/LDSBanks.cpp) on the lane addresses of tilec's layouts, via `--emit=report --format=json`

`--cross` also compiles every gfx942 example for gfx950 (tilec --offload-arch=gfx950) into the gfx950 table, marked
"(942)". Not by default: those files name gfx942's MFMAs (for f16/bf16 the 32x32x8 and 16x16x16 forms, which gfx950
runs at the same passes as its own 32x32x16 / 16x16x32 for half the K), so their busy column overstates their share of
gfx950's peak, and the gfx950 examples (gemm_*_gfx950) are the designs for that target. What the cross rows do show is
how the same tiles and MFMAs fare under tilec's gfx950 choices (160 KB of LDS: two LDS stages and one barrier per K
step where gfx942 has one stage and two) and clang's gfx950 code generation.

`--asm FILE` measures one assembly file instead (the core of the tool, tested by test/Bench/kloop.test); its target
comes from the file's .amdgcn_target directive unless --arch names one.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

TARGETS = ("gfx942", "gfx950")
BRANCH = re.compile(r"^\s*(s_branch|s_cbranch_\w+)\s+(\.?\w+)")
LABEL = re.compile(r"^(\.?[A-Za-z_$][\w$.]*):")
MNEMONIC = re.compile(r"^\s*([a-z_][a-z0-9_]*)")


class MFMATable:
    """The MFMAs of compiler/target/MFMA.cpp: passes (cycles / 4) of the plain rows, of the scaled rows with operands
    that are not 8-bit, and the bits of each scaled operand format code."""

    def __init__(self, mfma_cpp):
        text = open(mfma_cpp).read()
        # kTable: name, builtin, m, n, k, A, B, C/D, kpl, acc, cycles, ...
        self.plain = {m.group(1): int(m.group(2)) // 4
                      for m in re.finditer(r'\{"(v_mfma_\w+)",\s*"[^"]*",(?:\s*[^,]+,){8}\s*(\d+),', text)}
        # kScaledTable: name, builtin, intrinsic, m, n, k, kpl, acc, cycles, ...
        self.scaled = {m.group(1): int(m.group(2)) // 4
                       for m in re.finditer(r'\{"(v_mfma_scale_\w+)",\s*"[^"]*",\s*"[^"]*",(?:\s*\d+,){5}\s*(\d+),',
                                            text)}
        # kMXFormats: format, name, code, bits, ...
        self.format_bits = {int(m.group(1)): int(m.group(2))
                            for m in re.finditer(r'\{MXFormat::\w+,\s*"\w+",\s*(\d+),\s*(\d+),', text)}
        if not self.plain or not self.scaled or not self.format_bits:
            sys.exit(f"kloop: no MFMA, scaled MFMA or MX format rows found in {mfma_cpp}")

    @staticmethod
    def scaled_form(mnemonic):
        """The scaled row of an unscaled f8f6f4 opcode (v_mfma_f32_32x32x64_f8f6f4: what LLVM selects for the scaled
        intrinsic with both scales the constant 0, as Triton emits fp8 products on gfx950): the same passes."""
        m = re.fullmatch(r"v_mfma_f32_(\w+_f8f6f4)", mnemonic)
        return f"v_mfma_scale_f32_{m.group(1)}" if m else mnemonic

    def knows(self, mnemonic):
        return mnemonic in self.plain or self.scaled_form(mnemonic) in self.scaled

    def charged(self, mnemonic):
        """The passes llvm-mca 22 charges one MFMA: the table's, and for the f8f6f4 forms those of their operands
        that are not 8-bit whatever the formats (see `mca p`)."""
        return self.plain.get(mnemonic) or self.scaled[self.scaled_form(mnemonic)]

    def passes(self, mnemonic, ins):
        """True passes of one MFMA instruction (its text, for the scaled forms' cbsz / blgp)."""
        if mnemonic in self.plain:
            return self.plain[mnemonic]
        mnemonic = self.scaled_form(mnemonic)
        fields = [re.search(rf"\b{f}:(\d+)", ins) for f in ("cbsz", "blgp")]
        a, b = (int(m.group(1)) if m else 0 for m in fields)  # a field left out of the text is 0: fp8
        eight_bit = self.format_bits.get(a) == 8 or self.format_bits.get(b) == 8
        return self.scaled[mnemonic] * (2 if eight_bit else 1)


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
    """The innermost loop whose body holds an MFMA, or None. Of several (tilec's interior K loop and the masked copy
    edge workgroups run), the one with the fewest instructions per MFMA: the interior loop, without masks (which may
    run two K steps an iteration, one per LDS stage, and then has more instructions than the masked loop's one)."""
    candidates = []
    for start, end, label in loops(body):
        ins = [i for i in (instruction(l) for _, l in body[start:end + 1]) if i]
        mfmas = sum(1 for i in ins if i.startswith("v_mfma"))
        if mfmas:
            candidates.append((len(ins) / mfmas, start, end, label))
    inner = [c for c in candidates if not any(o != c and c[1] <= o[1] and o[2] <= c[2] for o in candidates)]
    return min(inner)[1:] if inner else None


MCA_TIMEOUT = 300  # seconds: --mca-timeout


def mca_figures(body, mca, arch, iterations=100):
    """(cycles per iteration, passes llvm-mca charges the MFMA pipe per iteration) of a loop body; (None, None) when
    llvm-mca does not finish (LLVM 22's MCA never does on some AMDGPU loops: test/Clang/Inputs/mca-hang-loop.s), so
    that one loop does not stop the table."""
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(body) + "\n")
        path = f.name
    try:
        done = subprocess.run([mca, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={arch}", f"-iterations={iterations}", path],
                              capture_output=True, text=True, timeout=MCA_TIMEOUT)
    except subprocess.TimeoutExpired:
        print(f"kloop: {mca} -mcpu={arch} did not finish in {MCA_TIMEOUT} s on a loop of {len(body)} instructions; "
              "its cycles are left out", file=sys.stderr)
        return None, None
    finally:
        os.unlink(path)
    if done.returncode:
        sys.exit(f"kloop: {mca} -mcpu={arch} failed:\n{done.stderr}")
    out = done.stdout
    cycles = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1)) / iterations
    # "Resources:" lists "[6]   - HWXDL"; "Resource pressure per iteration:" has a row of [i] headers, then values.
    xdl = re.search(r"\[(\d+)\]\s+-\s+HWXDL\b", out)
    pressure = re.search(r"Resource pressure per iteration:\n[^\n]*\n([^\n]*)", out)
    if not xdl or not pressure:
        sys.exit(f"kloop: no HWXDL resource pressure in {mca}'s output for {arch}")
    value = pressure.group(1).split()[int(xdl.group(1))]
    return cycles, 0.0 if value == "-" else float(value)


def measure(body_lines, table, arch, mca=None, cycles=None):
    """Figures of one kernel's K loop; None when it has no MFMA loop."""
    loop = k_loop(body_lines)
    if not loop:
        return None
    start, end, label = loop
    ins = [i for i in (instruction(l) for _, l in body_lines[start:end + 1]) if i]
    ops = [MNEMONIC.match(i).group(1) for i in ins]
    mfmas = [(o, i) for o, i in zip(ops, ins) if o.startswith("v_mfma")]
    unknown = sorted({o for o, _ in mfmas if not table.knows(o)})
    if unknown:
        sys.exit(f"kloop: MFMA not in compiler/target/MFMA.cpp: {', '.join(unknown)}")
    passes = sum(table.passes(o, i) for o, i in mfmas)
    mca_passes = None
    if mca:
        mca_cycles, mca_passes = mca_figures(ins, mca, arch)
        cycles = mca_cycles if cycles is None else cycles
    replaced = true_cycles = true_mca_passes = None
    if mca and any(table.passes(o, i) > table.charged(o) for o, i in mfmas):
        body, replaced = stand_ins_at_true_passes(ins, table)
        true_cycles, true_mca_passes = mca_figures(body, mca, arch)
    lds = {}
    for o in ops:
        if o.startswith("ds_"):
            lds[o] = lds.get(o, 0) + 1
    return {
        "loop": f"{label} (lines {body_lines[start][0]}-{body_lines[end][0]})",
        "arch": arch,
        "instructions": len(ins),
        "mfma": len(mfmas),
        "mfma_passes": passes,
        "mca_mfma_passes": mca_passes,
        "non_mfma_per_16_mfma": round((len(ins) - len(mfmas)) * 16 / len(mfmas), 1),
        "mca_cycles_per_iteration": round(cycles, 1) if cycles is not None else None,
        "mfma_busy": round(passes / cycles, 2) if cycles else None,
        "stand_ins": replaced,
        "stand_in_mca_mfma_passes": true_mca_passes,
        "cycles_at_true_passes": round(true_cycles, 1) if true_cycles is not None else None,
        "mfma_busy_at_true_passes": round(passes / true_cycles, 2) if true_cycles else None,
        "global_loads": sum(1 for o in ops if re.match(r"(global|buffer)_load", o)),
        "barriers": ops.count("s_barrier"),
        "exec_branches": sum(1 for o in ops if o in ("s_cbranch_execz", "s_cbranch_execnz")),
        "lds": dict(sorted(lds.items())),
    }


def last_register(operand):
    """v[16:23] -> v23; a single register as it is."""
    m = re.match(r"([va])\[(\d+):(\d+)\]", operand.strip())
    return f"{m.group(1)}{m.group(3)}" if m else operand.strip()


def stand_ins_at_true_passes(ins, table):
    """(the loop body with each MFMA that llvm-mca undercharges replaced by a stand-in, how many were replaced). The
    stand-in is the f32 MFMA of the table with the same block (v_mfma_f32_32x32x2_f32 for 32x32, 16x16x4_f32 for
    16x16) whose passes are the replaced instruction's true ones (16 / 8 for an fp8 x fp8 f8f6f4): it holds the MFMA
    pipe as long, lets the instructions after it dispatch while it runs, and writes the same C/D registers from the
    same C. Its A and B are single registers: the last of the original's A and B (written by the later of the LDS
    reads that fill them); the scale operands are dropped (in the gfx950 MX examples reading the dependence on the
    scales instead of the fragments gives the same cycles)."""
    out, replaced = [], 0
    for i in ins:
        m = MNEMONIC.match(i)
        o = m.group(1)
        if not o.startswith("v_mfma") or table.passes(o, i) <= table.charged(o):
            out.append(i)
            continue
        block = re.search(r"_(\d+x\d+)x\d+_", o).group(1)
        stand_in = [n for n, p in table.plain.items()
                    if re.fullmatch(rf"v_mfma_f32_{block}x\d+_f32", n) and p == table.passes(o, i)]
        if not stand_in:
            sys.exit(f"kloop: no f32 MFMA of {block} with {table.passes(o, i)} passes to stand in for {o}")
        d, a, b, c = (x.strip() for x in i[m.end():].split(",")[:4])
        out.append(f"{stand_in[0]} {d}, {last_register(a)}, {last_register(b)}, {c.split()[0]}")
        replaced += 1
    return out, replaced


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


def ideal_loads(report_kernel, vector_kernel=True):
    """Per tile written to LDS, its bytes / 16 B per lane / workgroup size, and at least one load per lane: a tile of
    fewer bytes than 16 per lane (a scaled mma's scales, [128, 4] e8m0 on 256 threads) still takes one; times the K
    steps the vector kernel's main loop runs an iteration (2 for a staged loop: one per LDS stage)."""
    steps = max([l.get("main_loop_steps", 1) for l in report_kernel.get("k_loops", [])] + [1]) if vector_kernel else 1
    tiles = {t["name"]: t for t in report_kernel["tiles"]}
    size = {"f16": 2, "bf16": 2, "f32": 4, "i32": 4, "i8": 1, "fp8": 1, "bf8": 1, "u8": 1, "fp4x2": 1, "e8m0": 1,
            "fp6x4": 3, "bf6x4": 3}
    stored = {a["tile"] for a in report_kernel.get("lds_accesses", []) if a["kind"] == "write"}
    return steps * sum(max(1.0, tiles[t]["shape"][0] * tiles[t]["shape"][1] * size[tiles[t]["dtype"]] / 16 /
                           report_kernel["workgroup_size"]) for t in stored)


def verify_bounds(args, path, arch_flag):
    """Kernel name -> the CU-level bounds of `tilec --verify` (docs/verify.md): which binds, the three figures and the
    busy fraction at the compiler's waves per SIMD. Empty where tilec has no device compiler."""
    try:
        out = run([args.tilec, path, *arch_flag, "--verify", "--format=json"])
    except subprocess.CalledProcessError:
        return {}
    bounds = {}
    for k in json.loads(out).get("kernels", []):
        loop = k.get("k_loop")
        if not loop or "bound" not in loop:
            continue
        bounds[k["name"]] = {"bound": loop["bound"], "mfma_tflops": loop["mfma_bound_tflops"],
                             "memory_tflops": loop["memory_bound_tflops"], "lds_tflops": loop["lds_bound_tflops"],
                             "waves": k["compiler"]["occupancy"],
                             "busy_with_waves": loop["mfma_busy_with_compiler_waves"]}
    return bounds


def bench_example(args, table, path, arch, cross):
    """The rows of one example compiled for arch (cross: a gfx942 example compiled for gfx950)."""
    name = os.path.basename(path)
    arch_flag = [f"--offload-arch={arch}"] if cross else []
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        hip, asm = os.path.join(tmp, "k.hip"), os.path.join(tmp, "k.s")
        run([args.tilec, path, *arch_flag, "-o", hip])
        report = json.loads(run([args.tilec, path, *arch_flag, "--emit=report", "--format=json"]))
        run([args.clang, "-x", "hip", f"--offload-arch={arch}", "--cuda-device-only", "-nogpulib", "-O3",
             "-I", args.runtime_include, "-S", hip, "-o", asm])
        fns = functions(open(asm).read())
        verified = verify_bounds(args, path, arch_flag)
    for rk in report["kernels"]:
        for kname in (rk["name"], rk["name"] + "_unaligned"):
            if kname not in fns:
                continue
            fig = measure(fns[kname], table, arch, mca=args.mca)
            if not fig:
                continue
            fig.update({"example": name, "kernel": kname + (" (942)" if cross else ""),
                        "ideal_global_loads": ideal_loads(rk, vector_kernel=kname == rk["name"]),
                        "lds_banks": bank_figures(rk),
                        "cu_bounds": verified.get(kname)})
            rows.append(fig)
    return rows


def bench_examples(args, table):
    """Target -> rows, over the examples with an accumulator (compiled one after another)."""
    tables = {t: [] for t in args.targets}
    for name in sorted(os.listdir(args.examples)):
        path = os.path.join(args.examples, name)
        if not name.endswith(".tile") or not re.search(r"^\s*acc\s", open(path).read(), re.M):
            continue
        target = example_target(path)
        if target in tables:
            tables[target].extend(bench_example(args, table, path, target, cross=False))
        if args.cross and target == "gfx942" and "gfx950" in tables:
            tables["gfx950"].extend(bench_example(args, table, path, "gfx950", cross=True))
    return tables


def banks_text(banks):
    return "; ".join(f"{b['access']} {b['instruction']} {b['cycles']}/{b['ideal']}"
                     + ("" if b["ratio"] == 1 else f" ({b['worst_ways']}-way{'' if b['measured_phases'] else ', inferred'})")
                     for b in banks)


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def print_table(rows, out):
    head = ("kernel", "instrs", "mfma", "non/16", "passes", "mca p", "cycles", "busy", "est", "gload", "bar", "exec")
    w = max([len(head[0])] + [len(r["kernel"]) for r in rows])
    print(f"{head[0]:<{w}} {head[1]:>6} {head[2]:>4} {head[3]:>6} {head[4]:>6} {head[5]:>5} {head[6]:>7} {head[7]:>5} "
          f"{head[8]:>11} {head[9]:>7} {head[10]:>3} {head[11]:>4}  lds / banks (cycles / ideal per wave)", file=out)
    for r in rows:
        ideal = r.get("ideal_global_loads")
        gload = f"{r['global_loads']}/{ideal:g}" if ideal is not None else str(r["global_loads"])
        est = r["cycles_at_true_passes"]
        if est is not None:
            est_text = f"{est:.1f} {r['mfma_busy_at_true_passes']:.2f}"
        elif r["mca_mfma_passes"] is not None and r["mfma_passes"] <= r["mca_mfma_passes"]:
            est_text = "="
        else:
            est_text = "-"
        print(f"{r['kernel']:<{w}} {r['instructions']:>6} {r['mfma']:>4} {r['non_mfma_per_16_mfma']:>6} "
              f"{r['mfma_passes']:>6} {fmt(r['mca_mfma_passes'], 'g'):>5} "
              f"{fmt(r['mca_cycles_per_iteration'], '.1f'):>7} {fmt(r['mfma_busy'], '.2f'):>5} {est_text:>11} "
              f"{gload:>7} {r['barriers']:>3} {r['exec_branches']:>4}  "
              + ", ".join(f"{k} x{v}" for k, v in r["lds"].items()), file=out)
        if r.get("lds_banks"):
            print(" " * (w + 2) + "banks: " + banks_text(r["lds_banks"]), file=out)
        b = r.get("cu_bounds")
        if b:
            print(" " * (w + 2) + f"bound: {b['bound']} (TFLOP/s: MFMA issue one wave {b['mfma_tflops']:.0f}, global "
                  f"memory {b['memory_tflops']:.0f}, LDS {b['lds_tflops']:.0f}); at the compiler's {b['waves']} waves per "
                  f"SIMD busy up to {b['busy_with_waves']:.2f}", file=out)
        print(" " * (w + 2) + f"loop: {r['loop']}", file=out)


def asm_arch(asm, default):
    m = re.search(r'\.amdgcn_target\s+"[\w-]*--(gfx\w+)', asm)
    return m.group(1) if m else default


def main():
    global MCA_TIMEOUT  # pylint: disable=global-statement
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tilec", default=os.path.join(root, "build", "tools", "tilec"))
    p.add_argument("--clang", default="clang++-22", help="clang++ of LLVM 22 (LLVM 19 has no gfx950)")
    p.add_argument("--mca", default="llvm-mca-22", help="llvm-mca binary of LLVM 22; 'none' skips the cycle estimate")
    p.add_argument("--mca-timeout", type=float, default=MCA_TIMEOUT,
                   help="seconds llvm-mca may take on one loop before its cycles are left out")
    p.add_argument("--targets", default=",".join(TARGETS), help="comma-separated targets to measure (one table each)")
    p.add_argument("--cross", action="store_true", help="also compile the gfx942 examples for gfx950 (see above)")
    p.add_argument("--examples", default=os.path.join(root, "examples"))
    p.add_argument("--runtime-include", default=os.path.join(root, "runtime", "include"))
    p.add_argument("--mfma-table", default=os.path.join(root, "compiler", "target", "MFMA.cpp"))
    p.add_argument("--asm", help="measure the kernels of this assembly file instead of the examples")
    p.add_argument("--arch", help="with --asm: the target (default: the file's .amdgcn_target, else gfx942)")
    p.add_argument("--cycles", type=float,
                   help="with --asm: cycles per iteration to use instead of llvm-mca's (its MFMA passes still count)")
    p.add_argument("--json", action="store_true", help="print JSON instead of the tables")
    args = p.parse_args()
    MCA_TIMEOUT = args.mca_timeout
    if args.mca == "none":
        args.mca = None
    args.targets = [t for t in args.targets.split(",") if t]
    unknown = [t for t in args.targets if t not in TARGETS]
    if unknown:
        sys.exit(f"kloop: unknown target {', '.join(unknown)} (known: {', '.join(TARGETS)})")
    table = MFMATable(args.mfma_table)
    if args.asm:
        text = open(args.asm).read()
        arch = args.arch or asm_arch(text, "gfx942")
        rows = []
        for name, body in sorted(functions(text).items()):
            fig = measure(body, table, arch, mca=args.mca, cycles=args.cycles)
            if fig:
                fig["kernel"] = name
                rows.append(fig)
        tables = {arch: rows}
    else:
        tables = bench_examples(args, table)
    if args.json:
        json.dump({"targets": tables}, sys.stdout, indent=2)
        print()
        return
    for n, (arch, rows) in enumerate(tables.items()):
        tools = ", ".join(([f"--cycles {args.cycles:g}"] if args.cycles is not None else [])
                          + ([f"{os.path.basename(args.mca)} -mcpu={arch}"] if args.mca else []))
        print(("\n" if n else "") + f"{arch}: K loops ({tools or 'no cycle estimate'})")
        print_table(rows, sys.stdout)


if __name__ == "__main__":
    main()
