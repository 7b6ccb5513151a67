#!/usr/bin/env python3
"""gfx950 assembly for emitted HIP without an LLVM here that knows gfx950.

LLVM 19, the newest Debian LLVM, has no gfx950. A newer LLVM does (llc 20 or later, or the one Triton bundles). This
script splits the work in two steps so that the first can run here and the second wherever that LLVM is:

  gfx950.py ir IN.hip -o OUT.ll [--clang CLANG] [--include DIR]...
      clang-19's gfx942 front end compiles IN.hip to LLVM IR, with gfx950_shim.h (beside this script) turning the
      gfx950-only MFMA builtins into calls of their LLVM intrinsics; the functions' target-cpu becomes gfx950
      (with --keep-gfx942 it stays gfx942, to compare the newer LLVM with LLVM 19 on the same code).
  gfx950.py asm IN.ll -o OUT.s (--llc LLC | --triton | --cache DIR)
      --llc LLC    an llc of LLVM 20 or later: LLC -mtriple=amdgcn-amd-amdhsa -mcpu=CPU -O3, CPU the IR's
                   target-cpu (gfx950, or gfx942 for IR made with --keep-gfx942).
      --triton     the LLVM inside Triton's Python module (no GPU needed).
      --cache DIR  no compiler here: the assembly is looked up in DIR under a hash of the IR as the newer LLVM is
                   given it (for_newer_llvm; without the lines that name the file). When it is missing, the IR is
                   left in DIR as HASH.ll and the command fails saying so; compile DIR/*.ll where a gfx950 LLVM
                   is (gfx950.py batch --triton DIR/*.ll writes HASH.s beside each) and copy the .s files back
                   into DIR. The assembly is then the real compiler's for exactly that IR.
  gfx950.py batch (--llc LLC | --triton) [--out DIR] IN.ll...
      asm for many files: IN.s beside each input, or in DIR.

The AMDGPU metadata at the end of each .s (.vgpr_count, .agpr_count, .sgpr_count, .group_segment_fixed_size,
.private_segment_fixed_size, "; Occupancy: N") reads as for gfx942; test/ISA/Inputs/compare_resources.py compares it
with tilec's model.
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def target_cpu(ir_text):
    """The processor the IR's functions are for (gfx950 unless they name another)."""
    m = re.search(r'"target-cpu"="(gfx[0-9a-f]+)"', ir_text)
    return m.group(1) if m else "gfx950"


def to_ir(args):
    cmd = [args.clang, "-x", "hip", "--offload-arch=gfx942", "--cuda-device-only", "-nogpulib", "-O3",
           "-include", os.path.join(HERE, "gfx950_shim.h"), "-emit-llvm", "-S", args.input, "-o", "-"]
    for d in args.include:
        cmd[1:1] = ["-I", d]
    ir = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    with open(args.output, "w") as f:
        f.write(ir if args.keep_gfx942 else ir.replace('"target-cpu"="gfx942"', '"target-cpu"="gfx950"'))


def ir_key(text):
    # The module's name, its source file and the HIP compilation unit id depend on where the file was compiled.
    kept = [l for l in text.splitlines()
            if not l.startswith(("; ModuleID", "source_filename")) and "__hip_cuid_" not in l]
    return hashlib.sha256("\n".join(kept).encode()).hexdigest()[:24]


MAKE_RSRC = re.compile(r"@llvm\.amdgcn\.make\.buffer\.rsrc\.p0\((ptr [^,]+), (i16 [^,]+), i32 ([^,]+), (i32 [^)]+)\)")


# The AMDGPU attributor proves that a function cannot need AGPRs (no inline asm names them, no calls) and says so
# in an attribute: "amdgpu-no-agpr" up to LLVM 20, "amdgpu-agpr-alloc"="0" from LLVM 21 (llvm/llvm-project#129893,
# AAAMDGPUNoAGPR's manifest), which no longer reads the old name. With the fact, the back end selects the VGPR form
# of each MFMA wherever the function has at most 256 VGPRs a lane (SIMachineFunctionInfo: MayNeedAGPRs), i.e.
# wherever amdgpu_waves_per_eu asks for 2 or more waves or the workgroup has more than 4 waves; a newer clang's
# attributor writes the new name for every tilec kernel. Without it, Triton's LLVM put the accumulators in AGPRs,
# which a real gfx950 build does not. Both names are given, so that LLVM 20 and later versions each read theirs.
NO_AGPR = re.compile(r'"amdgpu-no-agpr"')


def with_both_agpr_names(text):
    return NO_AGPR.sub('"amdgpu-no-agpr" "amdgpu-agpr-alloc"="0"', text)


def for_newer_llvm(text):
    """clang-19's IR in the form a newer LLVM takes. LLVM 19's llvm.amdgcn.make.buffer.rsrc takes the record count as
    i32; later LLVMs take it as i64 (and name the intrinsic after both pointer types, .p8.p0): the call gets a zext.
    LLVM 19's "amdgpu-no-agpr" is also spelled as LLVM 21 and later spell it (NO_AGPR above)."""
    out, n = [], 0
    for line in with_both_agpr_names(text).splitlines():
        m = MAKE_RSRC.search(line)
        if m and not line.startswith("declare"):
            n += 1
            out.append(f"  %tilec.records.{n} = zext i32 {m.group(3)} to i64")
            line = line[:m.start()] + (f"@llvm.amdgcn.make.buffer.rsrc.p8.p0({m.group(1)}, {m.group(2)}, "
                                       f"i64 %tilec.records.{n}, {m.group(4)})") + line[m.end():]
        elif line.startswith("declare") and "@llvm.amdgcn.make.buffer.rsrc.p0(" in line:
            line = line.replace("@llvm.amdgcn.make.buffer.rsrc.p0(", "@llvm.amdgcn.make.buffer.rsrc.p8.p0(")
            line = re.sub(r"\(ptr( readnone)?, i16, i32, i32\)", r"(ptr\1, i16, i64, i32)", line)
        out.append(line)
    return "\n".join(out) + "\n"


def compile_one(ir_path, out_path, llc=None, triton=False):
    original = open(ir_path).read()
    cpu = target_cpu(original)
    if llc:
        # An llc of LLVM 20 or 21 may take the i32 form, a later one only the i64 form: the first that compiles.
        run = lambda text: subprocess.run([llc, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O3", "-", "-o",
                                           out_path], input=text, text=True, check=True)
        respelled = with_both_agpr_names(original)
        try:
            run(respelled)
        except subprocess.CalledProcessError:
            if for_newer_llvm(original) == respelled:
                raise
            run(for_newer_llvm(original))
        return
    # Triton's bundled LLVM (checked 23 Nov 2026) takes only the i64 form, and a verifier failure there aborts the
    # process, so the IR is rewritten first.
    text = for_newer_llvm(original)
    import triton  # noqa: F401  (loads the bundled LLVM)
    from triton._C.libtriton import llvm
    llvm.init_targets()
    asm = llvm.translate_to_asm(text, "amdgcn-amd-amdhsa", cpu, "", [], False, False)
    with open(out_path, "w") as f:
        f.write(asm)


def to_asm(args):
    if args.cache:
        os.makedirs(args.cache, exist_ok=True)
        # Keyed by the IR the newer LLVM is given, so that a change to the rewriting invalidates what it compiled.
        key = ir_key(for_newer_llvm(open(args.input).read()))
        cached = os.path.join(args.cache, key + ".s")
        if os.path.exists(cached):
            shutil.copyfile(cached, args.output)
            return 0
        shutil.copyfile(args.input, os.path.join(args.cache, key + ".ll"))
        print(f"gfx950.py: no gfx950 assembly of {args.input} in {args.cache}: its IR is now "
              f"{os.path.join(args.cache, key + '.ll')}; compile it where a gfx950 LLVM is "
              f"(gfx950.py batch --triton {args.cache}/*.ll) and copy {key}.s back", file=sys.stderr)
        return 1
    compile_one(args.input, args.output, args.llc, args.triton)
    return 0


def batch(args):
    failed = 0
    for path in args.inputs:
        base = re.sub(r"\.ll$", "", os.path.basename(path)) + ".s"
        out = os.path.join(args.out or os.path.dirname(path) or ".", base)
        try:
            compile_one(path, out, args.llc, args.triton)
            print("ok", path, "->", out)
        except Exception as e:  # report every file, then fail
            print("FAIL", path, repr(e)[:2000])
            failed += 1
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    ir = sub.add_parser("ir")
    ir.add_argument("input")
    ir.add_argument("-o", dest="output", required=True)
    ir.add_argument("--clang", default="clang++-19")
    ir.add_argument("--include", action="append", default=[])
    ir.add_argument("--keep-gfx942", action="store_true",
                    help="leave the IR for gfx942: the newer LLVM then compiles the same code as LLVM 19 does")
    for name in ("asm", "batch"):
        s = sub.add_parser(name)
        how = s.add_mutually_exclusive_group(required=True)
        how.add_argument("--llc")
        how.add_argument("--triton", action="store_true")
        if name == "asm":
            how.add_argument("--cache")
            s.add_argument("input")
            s.add_argument("-o", dest="output", required=True)
        else:
            s.add_argument("--out")
            s.add_argument("inputs", nargs="+")
    args = p.parse_args()
    if args.command == "ir":
        to_ir(args)
        return 0
    return to_asm(args) if args.command == "asm" else batch(args)


if __name__ == "__main__":
    sys.exit(main())
