#!/usr/bin/env python3
"""Checks that tilec's layers depend one way (docs/architecture.md).

Reads every #include "layer/File.h" under compiler/ and include/tilec/ and fails, naming file and line, when a layer
includes one it must not see. Usage: check_layers.py SOURCE_ROOT
"""
import os
import re
import sys

# What each layer of compiler/ may include, bottom to top. A layer never sees the ones above it.
ALLOWED = {
    "support": set(),
    "target": {"support"},
    "layout": {"support", "target"},
    "ir": {"support", "target", "layout"},
    "analysis": {"support", "target", "layout", "ir"},
    "passes": {"support", "target", "layout", "ir", "analysis"},
    "codegen": {"support", "target", "layout", "ir", "analysis", "passes"},
    "device": {"support", "target", "layout", "ir", "analysis", "passes"},
    "frontend": {"support", "target", "layout", "ir", "analysis", "passes"},
    "driver": {"support", "target", "layout", "ir", "analysis", "passes", "codegen", "device", "frontend"},
}
# Single headers a lower layer may see: the names of HIP and the runtime that emitted code uses, which Sema must keep
# users from.
EXCEPTIONS = {("frontend", "codegen/ReservedNames.h")}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([a-z]+)/([^"]+)"')


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_layers.py SOURCE_ROOT")
    root = sys.argv[1]
    compiler = os.path.join(root, "compiler")
    problems = []
    checked = 0
    for layer in sorted(os.listdir(compiler)):
        folder = os.path.join(compiler, layer)
        if not os.path.isdir(folder):
            continue
        if layer not in ALLOWED:
            problems.append(f"compiler/{layer}/: a folder that is not a known layer (add it to check_layers.py)")
            continue
        for dirpath, _, files in os.walk(folder):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                checked += 1
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or m.group(1) not in ALLOWED or m.group(1) == layer:
                            continue
                        target = f"{m.group(1)}/{m.group(2)}"
                        if m.group(1) in ALLOWED[layer] or (layer, target) in EXCEPTIONS:
                            continue
                        problems.append(f"{rel}:{number}: layer '{layer}' includes '{target}' from layer "
                                        f"'{m.group(1)}', which it must not see")
    # The public headers stand alone: nothing of the compiler's own.
    public = os.path.join(root, "include", "tilec")
    for name in sorted(os.listdir(public)):
        path = os.path.join(public, name)
        checked += 1
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m and m.group(1) in ALLOWED:
                    problems.append(f"include/tilec/{name}:{number}: a public header includes the compiler's "
                                    f"'{m.group(1)}/{m.group(2)}'")
    for p in problems:
        print(p)
    print(f"{checked} files checked, {len(problems)} layering violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
