#!/usr/bin/env bash
# Installs what tilec builds and tests with, from Debian 12's packages (run as root). Safe to run again.
set -euo pipefail
packages=(
  cmake ninja-build g++ python3
  make pkgconf                            # test/Package: a plain Makefile and pkg-config against the installed tilec
  antlr4 libantlr4-runtime-dev            # the ANTLR tool (generates the parser at build time) and its C++ runtime
  llvm-22-dev llvm-22-tools               # LLVM Support (SourceMgr, cl, JSON); lit, FileCheck and llvm-mca (gfx942, gfx950)
  clang-22 clang-tools-22 lld-22          # compiles the emitted HIP for gfx942 and gfx950 in the tests
  libclang-cpp22-dev libclang-22-dev      # Clang's libraries: tilec's in-process device compiler (--emit=asm, --verify)
  liblld-22-dev                           # lld's ELF linker: --emit=obj links a code object (.hsaco) in process
  libclang-rt-22-dev                      # compiler-rt builtins (f32 -> bf16) for emulator and sanitizer builds
  clang-19                                # ROCm 6-era users' compiler: the emitted HIP must compile with it (gfx942)
  libamdhip64-dev                         # HIP headers and runtime for the host launchers
  libgtest-dev googletest libbenchmark-dev
  chromium                                # test/Html: the HTML report (--emit=html) loaded in a real browser, headless
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

# Node.js and npm for test/Editors (the TextMate grammar in editors/vscode, run through VS Code's own tokenizer) and
# test/Html (playwright-core drives chromium):
# Debian's packages where they are missing, then the exact versions of editors/test/package-lock.json.
node_missing=()
command -v node >/dev/null 2>&1 || node_missing+=(nodejs)
command -v npm >/dev/null 2>&1 || node_missing+=(npm)
if ((${#node_missing[@]})); then
  echo "install-deps: installing ${node_missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${node_missing[@]}" >/dev/null
fi
editors_test="$(cd "$(dirname "${BASH_SOURCE[0]}")/../editors/test" && pwd)"
echo "install-deps: npm ci in ${editors_test}"
(cd "$editors_test" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
