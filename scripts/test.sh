#!/usr/bin/env bash
# Installs, builds and runs the tests (docs/testing.md); ends with one line "tests: N passed, N failed, N skipped".
#
#   bash scripts/test.sh        the lit suites and unit tests against the normal build (build/, g++), without the
#                               long tier (tests that say REQUIRES: long): lit reports those as skipped.
#   bash scripts/test.sh --all  everything, what CI runs (.ci/run):
#     1. the lit suites and unit tests against build/, the long tier included (lit --param long=1);
#     2. the same suites against an ASan + UBSan build (build-asan/, clang++-22, -fno-sanitize-recover=all), whose
#        emulator test programs are sanitized too;
#     3. the libFuzzer target (build-asan/fuzz/tilec-fuzzer) for 60 s (TILEC_FUZZ_SECONDS), counted as one test;
#     4. the library's tests (every example on 8 threads x 50 rounds against the sequential output) under
#        ThreadSanitizer (build-tsan/), counted as one test.
# Exits non-zero when anything failed. docs/robustness.md describes 2 to 4.
set -uo pipefail
cd "$(dirname "$0")/.."

all=0
for arg in "$@"; do
  case "$arg" in
    --all) all=1 ;;
    -h | --help)
      sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "test.sh: unknown argument '$arg' (try --all or --help)" >&2
      exit 2
      ;;
  esac
done

bash scripts/install-deps.sh || exit 1
bash scripts/build.sh || exit 1
if ((all)); then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-22 -DTILEC_FUZZ=ON \
    >/dev/null || exit 1
  cmake --build build-asan --target tilec tilec-unittests tilec-fuzzer || exit 1
fi

# --time-tests: each suite ends with its slowest tests, the figures a CI budget is kept by (docs/testing.md).
lit="python3 /usr/lib/llvm-22/bin/lit -sv --time-tests"
if ((all)); then lit="$lit --param long=1"; fi
log=$(mktemp)
status=0
if ((all)); then
  echo "== lit and unit tests, the long tier included: build/ (at ${SECONDS} s)"
else
  echo "== lit and unit tests: build/ (the long tier skipped: scripts/test.sh --all runs it) (at ${SECONDS} s)"
fi
$lit build/test build/test/unit 2>&1 | tee -a "$log" || status=1
if ((all)); then
  echo "== lit and unit tests under ASan + UBSan: build-asan/ (at ${SECONDS} s)"
  $lit build-asan/test build-asan/test/unit 2>&1 | tee -a "$log" || status=1
fi

# lit's summary lines: "  Passed: 131 (100.00%)" or, aligned, "  Passed     : 131 (99.24%)". Unsupported: a lit test
# whose REQUIRES does not hold (the long tier among them); Skipped: a unit test that called GTEST_SKIP().
count() { sed -nE "s/^ *$1 *: *([0-9]+).*/\1/p" "$log" | awk '{s += $1} END {print s + 0}'; }
passed=$(count Passed)
failed=$(( $(count Failed) + $(count Unresolved) + $(count "Timed Out") + $(count "Unexpectedly Passed") ))
skipped=$(( $(count Unsupported) + $(count Skipped) + $(count "Expectedly Failed") ))
rm -f "$log"

# one_test NAME COMMAND...: runs COMMAND (its last 80 lines shown) and counts it as one test.
one_test() {
  local name=$1
  shift
  if "$@" 2>&1 | tail -n 80; [ "${PIPESTATUS[0]}" -eq 0 ]; then
    echo "PASS: $name"
    passed=$((passed + 1))
  else
    echo "FAIL: $name"
    failed=$((failed + 1))
    status=1
  fi
}

if ((all)); then
  seconds=${TILEC_FUZZ_SECONDS:-60}
  echo "== fuzzing tilec::compileBuffer for ${seconds} s: build-asan/fuzz/tilec-fuzzer (at ${SECONDS} s)"
  one_test "fuzz (${seconds} s, no crash, leak, UB or timeout; a reproducer goes to build-asan/fuzz/artifacts/)" \
    nice -n 5 bash fuzz/run.sh build-asan "$seconds"

  echo "== the library on many threads under ThreadSanitizer: build-tsan/ (at ${SECONDS} s)"
  tsan() {
    cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-22 -DTILEC_TSAN=ON \
      >/dev/null && cmake --build build-tsan --target tilec-unittests >/dev/null &&
      TSAN_OPTIONS=halt_on_error=1 build-tsan/test/tilec-unittests --gtest_filter='Library.*'
  }
  one_test "ThreadSanitizer (Library.*: every example on 8 threads x 50 rounds)" tsan
else
  echo "(not run: the long tier, the ASan + UBSan suite, fuzzing and ThreadSanitizer: bash scripts/test.sh --all)"
fi

echo "tests: $passed passed, $failed failed, $skipped skipped"
if [ "$passed" -eq 0 ]; then echo "no test ran"; exit 1; fi
if [ "$failed" -ne 0 ]; then status=1; fi
exit "$status"
