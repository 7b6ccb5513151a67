#!/usr/bin/env bash
# The main job: install, build, compile examples/copy_f16.tile and print its report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
./build/tools/tilec examples/copy_f16.tile --emit=report
