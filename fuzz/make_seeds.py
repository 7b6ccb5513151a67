#!/usr/bin/env python3
"""Collects the fuzzer's seed corpus: make_seeds.py SOURCE_ROOT OUT_DIR

Every examples/*.tile and every .tile file under test/ (Inputs included); a file with '// -----' lines (a
--split-input-file test) gives one seed per part. Seeds are named after their source (and part); identical parts
are kept once. OUT_DIR is emptied first.
"""
import os
import pathlib
import re
import shutil
import sys

MARKER = re.compile(r"^// -----.*\n?", re.M)


def main():
    root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    sources = sorted(root.glob("examples/*.tile")) + sorted(root.glob("test/**/*.tile"))
    seen = set()
    for src in sources:
        parts = MARKER.split(src.read_text(encoding="utf-8", errors="surrogateescape"))
        for i, part in enumerate(parts):
            data = part.encode("utf-8", errors="surrogateescape")
            if not data.strip() or data in seen:
                continue
            seen.add(data)
            name = str(src.relative_to(root)).replace(os.sep, "_")
            (out / (f"{name}.{i}" if len(parts) > 1 else name)).write_bytes(data)
    print(f"make_seeds: {len(seen)} seeds from {len(sources)} files in {out}")


if __name__ == "__main__":
    main()
