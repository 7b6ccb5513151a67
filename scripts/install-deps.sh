#!/usr/bin/env bash
# Installs what tilec builds and tests with, from Debian 12's packages (run as root). Safe to run again.
set -euo pipefail
packages=(
  cmake ninja-build g++ python3
  make pkgconf                            # test/Package: a plain Makefile and pkg-config against the installed tilec
  antlr4 libantlr4-runtime-dev            # the ANTLR tool (generates the parser at build time) and its C++ runtime
  llvm-19-dev llvm-19-tools               # LLVM Support (SourceMgr, cl, JSON); lit and FileCheck
  clang-19 clang-tools-19 lld-19          # compiles the emitted HIP for gfx942 in the ISA tests
  libclang-cpp19-dev libclang-19-dev      # Clang's libraries: tilec's in-process device compiler (--emit=asm, --verify)
  liblld-19-dev                           # lld's ELF linker: --emit=obj links a code object (.hsaco) in process
  libclang-rt-19-dev                      # compiler-rt builtins (f32 -> bf16) for emulator builds
  libamdhip64-dev                         # HIP headers and runtime for the host launchers
  libgtest-dev googletest libbenchmark-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
