"""lsp_parts.py TILEC SRCROOT OUTDIR: runs `TILEC lsp --compare-whole` (tools/lsp/FileAnalysis.h) on every .tile file
under SRCROOT's test/ and examples/, and on files made of several of them one after another, which mix kernels with
syntax errors, Sema errors, planning errors, warnings and none: the server analyzes a file kernel by kernel and must
publish exactly the diagnostics tilec prints for the whole file. The mixes are the same every run (a fixed seed): each
takes 2 to 4 files, keeps the first one's `target` line (every tenth mix has an unknown target instead), turns `// -----` separators into comments (so that a split
test file is one file of many kernels) and renames each kernel with a suffix per file, so that names repeat only where
a file repeats them itself. Prints what --compare-whole prints; exits with its status."""
import os
import random
import re
import subprocess
import sys

tilec, root, out = sys.argv[1:4]
files = sorted(os.path.join(d, f) for top in ("test", "examples") for d, _, fs in os.walk(os.path.join(root, top))
               for f in fs if f.endswith(".tile"))
os.makedirs(out, exist_ok=True)
rng = random.Random(34)
mixes = []
for i in range(200):
    parts = []
    for j, path in enumerate(rng.sample(files, rng.randint(2, 4))):
        with open(path, encoding="utf-8") as f:
            text = f.read().replace("// -----", "// - - -")
        if j or i % 10 == 0:
            text = re.sub(r"(?m)^target\s+\w+\s*;", "", text)
        if j == 0 and i % 10 == 0:
            text = "target gfx1;\n" + text  # an error before the first kernel, which the file reports once
        parts.append(re.sub(r"\bkernel\s+(\w+)", lambda m: f"kernel {m.group(1)}_{j}", text))
    mixes.append(os.path.join(out, f"mix{i:03d}.tile"))
    with open(mixes[-1], "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
sys.exit(subprocess.call([tilec, "lsp", "--compare-whole"] + files + mixes))
