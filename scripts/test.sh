#!/usr/bin/env bash
# Installs, builds and runs every test (lit suites + unit tests); ends with one line "tests: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh || exit 1
bash scripts/build.sh || exit 1
log=$(mktemp)
python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv build/test build/test/unit 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { grep -E "^ *$1: *[0-9]+" "$log" | awk '{s += $2} END {print s + 0}'; }
passed=$(count Passed)
failed=$(( $(count Failed) + $(count Unresolved) + $(count "Timed Out") + $(count "Unexpectedly Passed") ))
skipped=$(( $(count Unsupported) + $(count "Expectedly Failed") ))
rm -f "$log"
echo "tests: $passed passed, $failed failed, $skipped skipped"
if [ "$passed" -eq 0 ]; then echo "no test ran"; exit 1; fi
exit "$status"
