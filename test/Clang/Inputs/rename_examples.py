"""Every example with its user names respelled as the emitter's own locals (Clang/renamed-examples.test).

usage: rename_examples.py TILEC CLANG RUNTIME_INCLUDE OUTDIR EXAMPLE.tile...

For each example: its user names (tensors, dimensions, scalars, tiles, LDS buffers, accumulators, loop variables:
the %names of `--emit=ir` that the source spells) are replaced, in order, by names from NAMES that the source does
not use: the names the emitted HIP declares itself (tid, lane, kk, ...) and names it derives from them (lane_row,
e_out, ...), so that every emitter path meets user names of its own spelling. The kernels' names stay (the emulator
programs call their launchers). The renamed file is OUTDIR/<example>.tile; tilec compiles it for its target into
OUTDIR/<example>.hip, and clang compiles that, device only, with -Werror. With --reverse the names are taken from the
end of NAMES, which gives each example another mix. Prints one line per example that fails, then the count.
"""
import os
import re
import subprocess
import sys

NAMES = ["lane", "tid", "wave", "e", "i", "kk", "part", "k_lane", "bi", "bj", "a_frag", "b_frag", "stream",
         "vectors_aligned", "interior", "stage", "block_batch", "block_row", "block_col", "j", "v", "c", "p", "s",
         "lane_row", "lane_col", "lane_v", "lane_part", "lane_lds", "lane_sa", "lane_sb", "tid_row", "wave_v",
         "e_out", "e_total", "e_w", "e_in", "e_lane", "e_buf", "i_row", "i_col", "kk_sa", "kk_sa_next", "part_v1"]
WORD = r"(?<![\w.])%s(?!\w)"


def rename(tilec, path, names):
    """The example's source with its user names respelled, and the mapping."""
    src = open(path).read()
    ir = subprocess.run([tilec, path, "--emit=ir"], capture_output=True, text=True, check=True).stdout
    users = []
    for n in re.findall(r"%([A-Za-z_]\w*)", ir):
        if n not in users and re.search(WORD % re.escape(n), src):
            users.append(n)
    free = [n for n in names if n not in users and not re.search(WORD % n, src)]
    if len(free) < len(users):
        sys.exit(f"{path}: {len(users)} names, only {len(free)} to give them")
    mapping = dict(zip(users, free))
    word = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?!\w)")
    lines = [line if line.lstrip().startswith("//") else word.sub(lambda m: mapping.get(m[0], m[0]), line)
             for line in src.splitlines(keepends=True)]
    return "".join(lines), mapping


def main():
    args = sys.argv[1:]
    reverse = "--reverse" in args
    args = [a for a in args if a != "--reverse"]
    tilec, clang, runtime, out = args[:4]
    names = NAMES[::-1] if reverse else NAMES
    failed = 0
    for path in args[4:]:
        stem = os.path.splitext(os.path.basename(path))[0]
        text, mapping = rename(tilec, path, names)
        renamed = os.path.join(out, stem + ".tile")
        open(renamed, "w").write(text)
        arch = re.search(r"^target (\w+);", text, re.M)[1]
        hip = os.path.join(out, stem + ".hip")
        steps = [[tilec, renamed, "-o", hip],
                 [clang, "-x", "hip", f"--offload-arch={arch}", "--cuda-device-only", "-nogpulib", "-O1", "-Wall",
                  "-Wextra", "-Werror", "-I", runtime, "-S", hip, "-o", os.devnull]]
        for step in steps:
            r = subprocess.run(step, capture_output=True, text=True)
            if r.returncode:
                failed += 1
                first = (r.stderr.strip().splitlines() or ["(no message)"])[0]
                print(f"{stem}: {os.path.basename(step[0])} failed: {first}")
                print("  " + ", ".join(f"{a} -> {b}" for a, b in mapping.items()))
                break
    n = len(args) - 4
    print(f"{n - failed} of {n} renamed examples compile")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
