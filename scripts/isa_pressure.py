#!/usr/bin/env python3
"""Where an AMDGPU kernel's VGPRs go: liveness of the ArchVGPRs over the wave's control flow graph of its assembly.

usage: isa_pressure.py FILE.s [KERNEL...] [--loops] [--at N] [--check]

For each kernel (or those named): the most ArchVGPRs live at once and the instruction where that happens; with
--loops the same inside each loop (a branch back to an earlier block); with --at N the registers live before
instruction N (numbered as in the peak line), grouped by the instruction that last wrote them in program order.
The compiler's `; NumVgprs:` (after the kernel's `.size` line; read with the metadata, test/ISA/Inputs/
compare_resources.py) is the ArchVGPRs it allocated: at least the peak (tuples are aligned, some values are kept in
place). --check prints it beside each peak and fails where the peak is above it or the count is missing; since the
allocation is at least the highest register named plus one, that guards the tool's bookkeeping (which count belongs
to which kernel), not its reading of each instruction. Meant for the resource model: at the peak of a GEMM's main loop, which values
are live (accumulators, fragments, loads in flight, addresses) says which item of the model is off
(docs/occupancy.md, "Reading the compiler's allocation").

The reading of the assembly: the first operand of a vector instruction that is a VGPR is written, every other VGPR
operand is read; stores, LDS writes and atomics write nothing unless they return a value (`_rtn`, or `glc` / `sc0`
on a global, buffer or flat atomic), and loads into LDS (`lds`) write no VGPR; v_swap writes both operands; an
instruction that keeps part of its destination (d16 loads, v_writelane, v_fmac / v_mac / v_dot2c / v_dot4c /
v_pk_fmac, SDWA with dst_unused:UNUSED_PRESERVE, DPP without bound_ctrl) also reads it. A write under a partial exec
mask counts as a full one, as LLVM's own liveness over this graph does. A register read before any write on some
path is live at the kernel's entry (`(kernel entry)` in --at): the workitem ids, or a value left undefined on a path
the exec mask skips.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test", "ISA", "Inputs"))
from compare_resources import metadata  # noqa: E402

REG = re.compile(r"\b([va])(\d+)\b|\b([va])\[(\d+):(\d+)\]")
MEMORY = ("global_store", "buffer_store", "ds_write", "flat_store", "scratch_store", "global_atomic", "buffer_atomic",
          "flat_atomic", "ds_add", "ds_sub", "ds_max", "ds_min", "ds_and", "ds_or", "ds_xor", "ds_inc", "ds_dec",
          "ds_cmpst", "ds_cmpswap", "ds_wrxchg", "ds_swizzle", "exp ")
READS_DEF = ("v_writelane", "v_fmac", "v_mac", "v_dot2c", "v_dot4c", "v_pk_fmac")


def writes_first_operand(mn, ops):
    """Whether the instruction writes its first operand (a VGPR): not for stores, LDS writes, atomics without a
    return value and loads into LDS."""
    if mn.startswith("s_"):
        return False
    if mn.startswith(MEMORY):
        if mn.startswith("ds_swizzle"):
            return True
        return "_rtn" in mn or (mn.startswith(("global_atomic", "buffer_atomic", "flat_atomic")) and
                                re.search(r"\b(glc|sc0)\b", ops) is not None)
    if mn.startswith(("global_load_lds", "buffer_load")) and re.search(r"\blds\b", ops):
        return False
    return True

def regs(text):
    out = []
    for m in REG.finditer(text):
        if m.group(1):
            out.append(f"{m.group(1)}{m.group(2)}")
        else:
            out += [f"{m.group(3)}{i}" for i in range(int(m.group(4)), int(m.group(5)) + 1)]
    return out


def parse(lines):
    """Kernels: name -> list of (label or None, mnemonic or None, written, read, text)."""
    kernels, cur = {}, None
    for line in lines:
        s = line.split(";")[0].rstrip()
        if not s.strip():
            continue
        m = re.match(r"^([A-Za-z_][\w.]*):", s)
        if m and not m.group(1).startswith((".L", "__hip_cuid", "amdhsa")):
            cur = kernels.setdefault(m.group(1), [])
            continue
        if cur is None:
            continue
        if s.startswith(".Lfunc_end"):
            cur = None
            continue
        m = re.match(r"^(\.LBB\w+):", s)
        if m:
            cur.append((m.group(1), None, [], [], s))
            continue
        t = s.strip()
        if t.startswith("."):
            continue
        mn, _, ops = t.partition(" ")
        parts = [p.strip() for p in ops.split(",")]
        if parts[0] and re.match(r"^[va](\d|\[)", parts[0]) and writes_first_operand(mn, ops):
            written, read = regs(parts[0]), regs(",".join(parts[1:]))
            if mn.startswith("v_swap"):
                written += regs(parts[1])
                read += regs(parts[0])
            keeps = ("dst_unused:UNUSED_PRESERVE" in ops or ("_dpp" in mn and "bound_ctrl" not in ops))
            if "_d16" in mn or mn.startswith(READS_DEF) or keeps:
                read += written
        else:
            written, read = [], regs(ops)
        cur.append((None, mn, written, read, t))
    return {k: v for k, v in kernels.items() if any(c[1] for c in v)}


def successors(code):
    labels = {c[0]: i for i, c in enumerate(code) if c[0]}
    out = []
    for i, (_, mn, _w, _r, text) in enumerate(code):
        if mn and mn.startswith("s_cbranch"):
            out.append([labels[text.split()[-1]], i + 1])
        elif mn == "s_branch":
            out.append([labels[text.split()[-1]]])
        elif mn in ("s_endpgm", "s_setpc_b64"):
            out.append([])
        else:
            out.append([i + 1] if i + 1 < len(code) else [])
    return out


def liveness(code):
    """Live ArchVGPRs before each instruction, the pressure at each (live before, after, and written), successors."""
    succ = successors(code)
    n = len(code)
    arch = [({r for r in c[2] if r[0] == "v"}, {r for r in c[3] if r[0] == "v"}) for c in code]
    live_in = [set() for _ in range(n)]
    changed = True
    while changed:
        changed = False
        for i in range(n - 1, -1, -1):
            out = set().union(*(live_in[j] for j in succ[i]))
            new = (out - arch[i][0]) | arch[i][1]
            if new != live_in[i]:
                live_in[i], changed = new, True
    press = [len(live_in[i] | set().union(*(live_in[j] for j in succ[i])) | arch[i][0]) for i in range(n)]
    return live_in, press, succ


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    at = None
    if "--at" in args:
        i = args.index("--at")
        at = int(args[i + 1])
        del args[i:i + 2]
    loops, check = "--loops" in args, "--check" in args
    text = open(args[0]).read()
    kernels = parse(text.splitlines())
    allocated = metadata(text)  # by kernel name; "num_vgprs" is the "; NumVgprs:" after its .size line
    bad = 0
    names = [a for a in args[1:] if not a.startswith("--")]
    for name, code in kernels.items():
        if names and name not in names:
            continue
        live_in, press, succ = liveness(code)
        peak = max(press)
        i = press.index(peak)
        print(f"{name}: peak {peak} live ArchVGPRs at instruction {i}: {code[i][4]}")
        if check:
            n = allocated.get(name, {}).get("num_vgprs")
            ok = n is not None and peak <= n
            bad += not ok
            print(f"  {'ok' if ok else 'FAIL'}: " + (f"the compiler allocated {n} ArchVGPRs" if n is not None else
                                                      "no '; NumVgprs:' for this kernel in the metadata"))
        if loops:
            for j, s in enumerate(succ):
                for t in s:
                    if t <= j:
                        p = max(press[t:j + 1])
                        k = t + press[t:j + 1].index(p)
                        print(f"  loop {t}..{j}: peak {p} at {k}: {code[k][4]}")
        if at is not None and at < len(code):
            last = {}
            for j in range(at):
                for r in code[j][2]:
                    last[r] = j
            groups = {}
            for r in sorted(live_in[at], key=lambda r: int(r[1:])):
                j = last.get(r, -1)
                groups.setdefault(j, []).append(r)
            for j, rs in sorted(groups.items()):
                what = code[j][4] if j >= 0 else "(kernel entry)"
                print(f"  {len(rs):3} {','.join(rs)[:48]:48} <- {j}: {what[:80]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
