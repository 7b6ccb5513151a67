#!/usr/bin/env python3
"""Error floods: tilec's time and output on garbage inputs, at three sizes (issue 9's bound: a 1 MB file of garbage
finishes in under a second with at most ~20 errors printed; time and output linear in the input).

    flood.py TILEC [--sizes 250000,500000,1000000] [--runs 5]

For each kind of garbage and size: the median wall and CPU (user + system) time of `tilec FILE -o /dev/null` over the
runs, and the bytes and errors it printed. The last column is the CPU time per megabyte relative to the smallest size:
near 1.0 means linear. On a loaded machine wall time exceeds CPU time; CPU time is the figure to compare.
"""
import argparse
import os
import random
import resource
import statistics
import subprocess
import tempfile
import time


def garbage(kind, size):
    """`size` bytes (about) of one kind of garbage."""
    rng = random.Random(7)
    if kind == "invalid-chars":       # '@ ' repeated: one invalid character after another, on one line
        return ("@ " * (size // 2)).encode()
    if kind == "invalid-lines":       # '@' on a line of its own
        return ("@\n" * (size // 2)).encode()
    if kind == "identifiers":         # a syntax error at the first token, then nothing the parser can use
        return ("a " * (size // 2)).encode()
    if kind == "bad-statements":      # a kernel of statements that each fail to parse
        return ("kernel k() { " + "x = ; " * (size // 6) + "}").encode()
    if kind == "random-tokens":       # the language's own tokens in random order
        words = ["kernel", "tile", "(", ")", "{", "}", "[", "]", ";", "=", "+", "f16", "load", "store", "x", "1",
                 ",", ":", "..", "for", "in", "step", "mma", "lds", "acc", "@", "\n"]
        out, n = [], 0
        while n < size:
            w = rng.choice(words)
            out.append(w)
            n += len(w) + 1
        return " ".join(out).encode()
    if kind == "random-bytes":        # printable ASCII noise
        return bytes(rng.choice(b"abc{}[]();=+-*/%@#$ \n0123456789") for _ in range(size))
    raise ValueError(kind)


KINDS = ["invalid-chars", "invalid-lines", "identifiers", "bad-statements", "random-tokens", "random-bytes"]


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(tilec, path, runs):
    """Median wall and CPU (user + system) seconds, then the last run's stderr size, error count and status."""
    times, cpu, out = [], [], b""
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), cpu_seconds()
        p = subprocess.run([tilec, path, "-o", os.devnull], capture_output=True)
        times.append(time.perf_counter() - start)
        cpu.append(cpu_seconds() - start_cpu)
        out = p.stderr
    return statistics.median(times), statistics.median(cpu), len(out), out.count(b": error: "), p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tilec")
    ap.add_argument("--sizes", default="250000,500000,1000000")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'input':<16} {'bytes':>9} {'wall s':>7} {'cpu s':>7} {'stderr B':>9} {'errors':>7} {'exit':>5} "
          f"{'cpu/MB vs first':>16}")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in KINDS:
            first = None
            for size in sizes:
                path = os.path.join(tmp, f"{kind}-{size}.tile")
                data = garbage(kind, size)
                with open(path, "wb") as f:
                    f.write(data)
                t, c, out_bytes, errors, status = measure(args.tilec, path, args.runs)
                per_mb = c / (len(data) / 1e6)
                first = first or per_mb
                print(f"{kind:<16} {len(data):>9} {t:>7.3f} {c:>7.3f} {out_bytes:>9} {errors:>7} {status:>5} "
                      f"{per_mb / first:>16.2f}")
    print(f"peak memory of any run: {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
