# tilec_lit: a lit configuration for tests of the code tilec generates, in a project that uses an installed tilec
# (docs/embedding.md, "tilec_add_lit_suite"). tilec_add_lit_suite() (TilecLit.cmake) writes a lit.site.cfg.py
# that calls configure(); a hand-written lit.cfg.py can call it as well:
#
#   import sys
#   sys.path.insert(0, "<prefix>/lib/cmake/Tilec")
#   import tilec_lit
#   tilec_lit.configure(config, tilec="<prefix>/bin/tilec", clangxx="clang++-22")
#
# Substitutions (each a command line that the test completes with its files):
#   %tilec                       the tilec command
#   %runtime_include             the directory of tilec/runtime.h
#   %device_asm                  device-only assembly of an emitted .hip for the suite's GPU, warnings as errors:
#                                %device_asm %t.hip -o %t.s
#   %device_asm_gfx942, ...      the same for each GPU tilec knows
#   %emulator_cxx                the CPU emulator build of an emitted .hip with the test's own main():
#                                %emulator_cxx %t.hip %S/Inputs/main.cpp -o %t.emu && %t.emu
#   %FileCheck                   FileCheck (plain `FileCheck` works too: not, count and FileCheck come from the
#                                directory of FileCheck, which is put first on PATH)
# Features: one per GPU tilec knows (`gfx942`, `gfx950`) when a clang was found, so a test can say `REQUIRES: gfx950`.
import os
import shutil
import subprocess

import lit.formats


def _tool(name, given, hints):
    """The path of tool `name`: `given` if set, else the first of `hints` that has it, else PATH's."""
    if given:
        return given
    for directory in hints:
        path = os.path.join(directory, name)
        if directory and os.access(path, os.X_OK):
            return path
    return shutil.which(name)


def _targets(tilec):
    """The GPUs tilec knows, from `tilec --version` ("  targets: gfx942, gfx950")."""
    text = subprocess.run([tilec, "--version"], capture_output=True, text=True, check=True).stdout
    for line in text.splitlines():
        if line.strip().startswith("targets:"):
            return [t.strip() for t in line.split(":", 1)[1].split(",") if t.strip()]
    return []


def configure(config, tilec=None, clangxx=None, filecheck=None, runtime_include=None, offload_arch="gfx942",
              source_root=None, exec_root=None, name="tilec-generated-code"):
    """Sets up `config` (lit's TestingConfig) for a folder of .tile and .test files. Unset tools are found on PATH
    (tilec, clang++-22, FileCheck, also in /usr/lib/llvm-22/bin)."""
    tilec = _tool("tilec", tilec, [])
    if not tilec:
        raise RuntimeError("tilec_lit: no tilec given and none on PATH")
    llvm_bin = "/usr/lib/llvm-22/bin"
    clangxx = _tool("clang++-22", clangxx, [llvm_bin]) or _tool("clang++", None, [llvm_bin])
    filecheck = _tool("FileCheck", filecheck, [os.path.dirname(os.path.realpath(clangxx or "")), llvm_bin])
    if not filecheck:
        raise RuntimeError("tilec_lit: FileCheck not found; pass filecheck= (Debian: llvm-22-tools)")
    if not runtime_include:
        runtime_include = subprocess.run([tilec, "--print-runtime-include-dir"], capture_output=True, text=True,
                                         check=True).stdout.strip()

    config.name = name
    config.test_format = lit.formats.ShTest(execute_external=False)
    config.suffixes = [".tile", ".test"]
    config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
    if source_root:
        config.test_source_root = source_root
    if exec_root:
        config.test_exec_root = exec_root
    tool_dirs = [os.path.dirname(filecheck), os.path.dirname(tilec)]
    config.environment["PATH"] = os.pathsep.join(tool_dirs + [config.environment.get("PATH", "")])

    config.substitutions.append(("%tilec", tilec))
    config.substitutions.append(("%FileCheck", filecheck))
    config.substitutions.append(("%runtime_include", runtime_include))
    targets = _targets(tilec)
    if clangxx:
        # Longest names first: lit substitutes in order, and %device_asm is a prefix of %device_asm_gfx942.
        for arch in targets:
            config.substitutions.append((f"%device_asm_{arch}", _device_asm(clangxx, arch, runtime_include)))
            config.available_features.add(arch)
        config.substitutions.append(("%device_asm", _device_asm(clangxx, offload_arch, runtime_include)))
        config.substitutions.append(("%emulator_cxx",
            f"{clangxx} -x c++ -std=c++17 -O2 -DTILEC_EMULATOR -rtlib=compiler-rt -Wall -Wextra -Werror "
            f"-I {runtime_include}"))


def _device_asm(clangxx, arch, runtime_include):
    # -nogpulib: emitted device code calls only __builtin_amdgcn_*. -Werror: emitted code is warning-free.
    return (f"{clangxx} -x hip --offload-arch={arch} --cuda-device-only -nogpulib -O3 -Wall -Wextra -Werror "
            f"-I {runtime_include} -S")
