#!/usr/bin/env python3
"""No input may crash tilec: a deterministic fuzzer.

    fuzz.py TILEC EXAMPLES_DIR [--seed N] [--mutations N] [--truncations N] [--keep DIR]

Runs TILEC on
  * hand-written nasty inputs: empty and comment-only files, 10000 nested parentheses, brackets and braces,
    100000 unary minus, 100000-operand expressions, huge integers and floats in every numeric position, non-UTF-8
    bytes, NUL bytes, a byte order mark, very long lines, unterminated comments, invalid characters, many kernels;
  * every example truncated at token boundaries (all of them up to --truncations, default 48, else that many evenly
    spaced from a seeded offset);
  * seeded random token-level mutations of every example, --mutations of each, default 100 (delete, duplicate, swap,
    replace a token with a keyword, punctuation, a number from a list of edge cases or a random byte),
each with a rotating set of command-line options (--emit=..., --format=json, --offload-arch, -Werror,
--split-input-file), and fails (exit status 1, printing the input) when tilec
  * is killed by a signal (segfault, abort, ...) or times out,
  * exits with a status other than 0 or 1,
  * exits with 1 without an "error:" on stderr, or with 0 with an "error:" on stderr,
  * reports an internal error (an IR verifier failure: Sema accepted something it should have rejected).
About 5,300 inputs, a minute on 2 cores. In a sanitizer build (TILEC_SANITIZER_SLOWDOWN > 1) each tilec process takes
about 0.1 s to start and big inputs run about 4 times slower, so the defaults there are 4 truncations and 8 mutations
of each example (about 600 inputs; of the hand-written ones, the example repeated 300 times and behind a 1 MB comment
are left to the normal build): libFuzzer's in-process run (scripts/test.sh --all) covers that build far more widely.
The same seed always produces the same inputs.
"""
import concurrent.futures
import glob
import os
import random
import re
import subprocess
import sys

# A sanitizer build (build-asan) runs tilec about 4 times slower; lit.cfg.py says how much in that configuration.
SANITIZER_SLOWDOWN = int(os.environ.get("TILEC_SANITIZER_SLOWDOWN", "1"))
TIMEOUT_S = 10 * SANITIZER_SLOWDOWN

OPTION_SETS = [
    [],
    ["--emit=ast"],
    ["--emit=ir"],
    ["--emit=layout"],
    ["--emit=report"],
    ["--emit=report", "--format=json"],
    ["--emit=layout", "--format=json"],
    ["--offload-arch=gfx950"],
    ["-Werror"],
    ["--split-input-file"],
]

TOKEN_RE = re.compile(
    rb"\s+|//[^\n]*|/\*.*?\*/|[A-Za-z_][A-Za-z_0-9]*|\d+\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+|\.\.|\+=|==|.",
    re.S)

KEYWORDS = [b"target", b"kernel", b"global", b"workgroup", b"grid", b"over", b"tile", b"lds", b"acc", b"mfma",
            b"assume", b"store", b"load", b"cast", b"for", b"in", b"step", b"barrier", b"thread_raked",
            b"warp_raked", b"block_raked", b"waves", b"vec", b"auto", b"pad", b"block", b"row", b"col", b"max",
            b"min", b"mma", b"f32", b"f16", b"bf16", b"i8", b"i32", b"fp8", b"bf8", b"f61", b"M", b"N", b"X", b"Y",
            b"t", b"x", b"y", b"alpha", b"gfx942", b"gfx950", b"gfx999"]
PUNCT = [b"(", b")", b"[", b"]", b"{", b"}", b"<", b">", b",", b";", b":", b".", b"..", b"=", b"+=", b"==", b"+",
         b"-", b"*", b"/", b"%", b"// -----\n", b"/*", b"*/", b"//", b"\n"]
NUMBERS = [b"0", b"1", b"2", b"3", b"7", b"8", b"16", b"32", b"48", b"63", b"64", b"65", b"96", b"128", b"192",
           b"256", b"1000", b"1024", b"1025", b"2048", b"65536", b"2147483647", b"2147483648", b"4294967295",
           b"4294967296", b"9223372036854775807", b"18446744073709551616", b"99999999999999999999999999999",
           b"0.0", b"1.5", b"1e999999", b"1.0e-999999", b"00000000000000000000000001"]
BYTES = [b"\x00", b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\xc3\xa9", b"@", b"#", b"$",
         b"`", b"\\", b"\"", b"'", b"\t", b"\r", b"\x7f", b"\x1b[31m"]


# Seeds beyond the examples: loops, assume, casts, max/min, scalars, every pattern, --split-input-file parts.
EXTRA_SEEDS = [b"""target gfx950;
kernel rowsum(X: global f16[M, K], Y: global f16[M, 64], Z: global i32[M, K], scale: f16, n: i32) {
  workgroup 256;
  grid over Y tile [64, 64];
  assume K % 64 == 0;
  tile s: f16[64, 64] thread_raked;
  tile t: f16[64, 64] thread_raked vec 8;
  tile z: i32[64, 64] block_raked waves [2, 2] vec 4;
  s = 0;
  for k in 0 .. K step 64 {
    t = load X[block.row, k];
    s += max(t * scale, -1.5) - min(t, 2.0) / 3;
    barrier;
  }
  for j in 1 .. K - n step 2 * 3 {
    z = cast<i32>(load X[block.row + j % 4, j]) % 7 + -z;
    store Z[block.row, j] = z;
  }
  store Y[block] = s;
}
// -----
kernel q(A: global fp8[M, N], B: global bf8[M, N], C: global f32[64, 128]) {
  workgroup 64;
  grid over C tile [64, 128];
  tile a: fp8[64, 128] block_raked vec 4;
  tile c: f32[64, 128] block_raked vec 4;
  a = load A[block];
  c = cast<f32>(a) * 2.5e-1;
  store B[block] = cast<bf8>(c);
  store C[block] = c;
}
"""]


def tokens(text):
    return [m.group(0) for m in TOKEN_RE.finditer(text)]


def kernel(body, params=b"X: global f16[M, N], Y: global f16[M, N]"):
    return (b"target gfx942;\nkernel k(" + params + b") {\n  workgroup 256;\n  grid over Y tile [64, 64];\n"
            + body + b"\n}\n")


def tile_kernel(expr):
    return kernel(b"  tile t: f16[64, 64] thread_raked;\n  t = load X[block];\n  t = " + expr +
                  b";\n  store Y[block] = t;")


def nasty_inputs(example):
    """Hand-written inputs that have broken parsers before, built on EXAMPLE."""
    return [
        b"\xef\xbb\xbf" + example,
        example.replace(b"\n", b"\r\n"), example.replace(b"\n", b"\r"), example + b"\x00", b"\x00" + example,
        example[:len(example) // 2] + b"\x00" + example[len(example) // 2:],
        example[:len(example) // 2] + b"\xff" + example[len(example) // 2:],
        example.replace(b"//", b"// \xc3\x28 bad UTF-8 in a comment "),
        example.replace(b"tile t", b"tile t\xc3\xa9"),  # valid UTF-8, not an identifier character
        b"// -----\n" + example + b"// -----\n// -----\n" + example,
    ] + ([] if SANITIZER_SLOWDOWN > 1 else [  # the big ones: the parser's scaling, the normal build's to check
        b"// " + b"x" * 1_000_000 + b"\n" + example,
        example * 300,
    ])


def standalone_nasty_inputs():
    """Hand-written inputs that have broken parsers before, the same for every example (run once)."""
    return [
        b"", b"\n", b" \t\r\n", b"// only a comment", b"// only a comment\n", b"/* only a block comment */",
        b"/*", b"/* unterminated\nkernel k() {}\n", b"*/", b"/* /* nested */ */", b"target gfx942;",
        b"target", b"kernel", b"kernel k", b"kernel k(", b"kernel k()", b"kernel k() {", b"kernel k() {}",
        b"}}}}", b"((((", b";;;;", b"\x00", b"\x00" * 1000, b"\xff\xfe\xfd",
        b"kernel \xe2\x80\x8bk() {}",  # zero-width space
        b"@#$`\\\"'" * 100,
        b"a" * 1_000_000,
        b"kernel k(" + b", ".join(b"a%d: f32" % i for i in range(5000)) + b") {}",
        b"// -----\n" * 50,
        kernel(b"  tile t: f16[" + b", ".join([b"64"] * 10000) + b"] thread_raked;"),
        kernel(b"  for i in 0 .. 4 {" * 10000 + b"}" * 10000),
        kernel(b"  barrier;" * 100000),
        kernel(b"  tile t: f16[64, 64] thread_raked;\n" * 2000),
        kernel(b"".join(b"  tile t%d: f16[64, 64] thread_raked;\n  t%d = load X[block];\n  store Y[block] = t%d;\n"
                        % (i, i, i) for i in range(500))),
        tile_kernel(b"(" * 10000 + b"t" + b")" * 10000),
        tile_kernel(b"(" * 10000),
        tile_kernel(b")" * 10000),
        tile_kernel(b"-" * 100000 + b"t"),
        tile_kernel(b"-(" * 5000 + b"t" + b")" * 5000),
        tile_kernel(b" + ".join([b"t"] * 100000)),
        tile_kernel(b" * ".join([b"t"] * 100000)),
        tile_kernel(b" == ".join([b"t"] * 100000)),
        tile_kernel(b" + ".join([b"(t - t)"] * 30000)),
        tile_kernel(b"max(" * 10000 + b"t" + b", t)" * 10000),
        tile_kernel(b"cast<f16>(" * 10000 + b"t" + b")" * 10000),
        tile_kernel(b"load X[" * 10000 + b"block" + b"]" * 10000),
        tile_kernel(b"load X[" + b" + ".join([b"block.row"] * 100000) + b", 0]"),
        tile_kernel(b"t / 0"),
        tile_kernel(b"1e999999 * t"),
        tile_kernel(b"t * 0.0000000000000000000000000000000000000000000000001e-999"),
        tile_kernel(b"99999999999999999999999999999999999999 + t"),
        kernel(b"  tile t: i32[64, 64] thread_raked;\n  t = t / 0;\n  t = t % 0;\n  t = load X[block.row / 0, 0];"),
        kernel(b"  assume N % 2147483647 == 0;\n  assume N % 99999999999999999999 == 0;"),
        kernel(b"  for i in 0 .. N step 2147483647 { }\n  for j in 2147483647 .. 0 step -2147483647 { }"),
        kernel(b"  for i in 0 .. N step " + b" * ".join([b"2147483647"] * 50) + b" { }"),
        kernel(b"  for i in 0 .. N step 0 - " + b" * ".join([b"2147483647"] * 50) + b" { }"),
        kernel(b"  tile t: f16[2147483647, 2147483647] block_raked waves [2147483647, 2147483647] vec 1;",
               b"X: global f16[M, N], Y: global f16[M, N]"),
        kernel(b"  tile t: f16[2147483584, 64] thread_raked vec 8;\n  t = load X[block];\n  store Y[block] = t;"),
        kernel(b"  tile t: i8[64, 4096] block_raked waves [1, 4] vec 16;\n  t = load X[block];"),
        kernel(b"  tile t: f16[64, 64] thread_raked vec 2147483647;"),
        kernel(b"  tile t: f16[64, 64] thread_raked vec 2147483648;"),
        kernel(b"  tile t: f16[64, 64] thread_raked vec 0;"),
        kernel(b"  tile t: f16[0, 0] block_raked waves [0, 0] vec 0;"),
        kernel(b"", b"X: global f16[0, 2147483647], Y: global f16[2147483647, 2147483648]"),
        b"target gfx942;\nkernel k(X: global f16[M, N], Y: global f16[M, N]) {\n  workgroup 2147483647;\n"
        b"  grid over Y tile [2147483647, 2147483647];\n  tile t: f16[64, 64] thread_raked;\n}\n",
        b"target gfx942;\nkernel k(X: global f16[M, N], Y: global f16[M, N]) {\n  workgroup 1024;\n"
        b"  grid over Y tile [2147483647, 2147483647];\n  tile t: f16[1024, 64] thread_raked;\n"
        b"  t = load X[block];\n  store Y[block] = t;\n}\n",
        b"target gfx942;\nkernel k(X: global f16[M, N], Y: global f16[M, N]) {\n  workgroup 64;\n"
        b"  grid over Y tile [1, 1];\n  tile t: f16[64, 1] thread_raked;\n"
        b"  t = load X[block.row - 2147483647 - 2147483647, 0 - 2147483647 * 2147483647];\n"
        b"  store Y[block.row * 2147483647 * 2147483647, 2147483647 / 0] = t;\n}\n",
    ]


def truncations(rng, example, limit):
    """EXAMPLE cut after at most LIMIT of its tokens: every token of a short example, else evenly spaced cuts from a
    seeded offset (so the examples together cut at every kind of token)."""
    toks = tokens(example)
    ends, pos = [], 0
    for t in toks:
        pos += len(t)
        ends.append(pos)
    if len(ends) > limit:
        stride = len(ends) / limit
        offset = rng.random() * stride
        ends = [ends[int(offset + i * stride)] for i in range(limit)]
    return [example[:end] for end in ends]


def mutate(rng, example):
    toks = tokens(example)
    for _ in range(rng.randint(1, 4)):
        if not toks:
            break
        i = rng.randrange(len(toks))
        what = rng.randrange(8)
        if what == 0:
            del toks[i]
        elif what == 1:
            toks.insert(i, toks[i])
        elif what == 2:
            j = rng.randrange(len(toks))
            toks[i], toks[j] = toks[j], toks[i]
        elif what == 3:
            toks[i] = rng.choice(KEYWORDS)
        elif what == 4:
            toks[i] = rng.choice(PUNCT)
        elif what == 5:
            toks[i] = rng.choice(NUMBERS)
        elif what == 6:
            toks.insert(i, rng.choice(BYTES))
        else:
            # a number in place of every number: shapes, vec, waves, workgroup sizes all at once
            n = rng.choice(NUMBERS)
            toks = [n if t.isdigit() else t for t in toks]
        if rng.random() < 0.3:
            toks.insert(rng.randrange(len(toks) + 1), b" ")
    return b"".join(toks)


def run(tilec, data, options):
    try:
        p = subprocess.run([tilec, "-"] + options, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return f"timed out after {TIMEOUT_S} s"
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0:
        return f"killed by signal {-p.returncode}\n{err[-2000:]}"
    if p.returncode not in (0, 1):
        return f"exit status {p.returncode} (expected 0 or 1)\n{err[-2000:]}"
    if p.returncode == 1 and "error:" not in err:
        return f"exit status 1 without an 'error:' on stderr\n{err[-2000:]}"
    if p.returncode == 0 and "error:" in err:
        return f"exit status 0 with an 'error:' on stderr\n{err[-2000:]}"
    if "internal error" in err:
        return f"internal error\n{err[-2000:]}"
    return None


def show(data):
    if len(data) > 3000:
        return repr(data[:1500]) + f"\n... ({len(data)} bytes in all) ...\n" + repr(data[-1500:])
    return data.decode("utf-8", "backslashreplace")


def main():
    args = sys.argv[1:]
    seed, mutations, cuts, keep = 20261121, 100, 48, None
    if SANITIZER_SLOWDOWN > 1:
        mutations, cuts = 8, 4
    positional = []
    while args:
        a = args.pop(0)
        if a == "--seed":
            seed = int(args.pop(0))
        elif a == "--mutations":
            mutations = int(args.pop(0))
        elif a == "--truncations":
            cuts = int(args.pop(0))
        elif a == "--keep":
            keep = args.pop(0)
        else:
            positional.append(a)
    if len(positional) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    tilec, examples_dir = positional
    examples = [open(f, "rb").read() for f in sorted(glob.glob(os.path.join(examples_dir, "*.tile")))]
    if not examples:
        print(f"fuzz.py: no .tile files in {examples_dir}", file=sys.stderr)
        return 2
    examples += EXTRA_SEEDS

    rng = random.Random(seed)
    cases = standalone_nasty_inputs()
    for e in examples:
        cases += nasty_inputs(e)
        cases += truncations(rng, e, cuts)
        cases += [mutate(rng, e) for _ in range(mutations)]
    jobs = [(data, OPTION_SETS[i % len(OPTION_SETS)]) for i, data in enumerate(cases)]

    failures = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for (data, options), problem in zip(jobs, pool.map(lambda j: run(tilec, *j), jobs)):
            if problem is None:
                continue
            failures += 1
            print(f"=== FAIL: tilec - {' '.join(options)}: {problem}\n--- input ---\n{show(data)}\n--- end ---\n")
            if keep:
                os.makedirs(keep, exist_ok=True)
                with open(os.path.join(keep, f"fail{failures}.tile"), "wb") as f:
                    f.write(data)
    print(f"fuzz.py: {len(jobs)} inputs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
