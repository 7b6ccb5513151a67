#!/usr/bin/env bash
# Runs the libFuzzer target: fuzz/run.sh BUILD_DIR SECONDS [more libFuzzer options]
#
# BUILD_DIR was configured with -DTILEC_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-22 and has tilec-fuzzer built
# (scripts/test.sh --all builds build-asan this way). SECONDS bounds the run (-max_total_time; 0: until stopped). The seeds
# are collected afresh from examples/ and test/ into BUILD_DIR/fuzz/seeds; what the fuzzer finds that adds coverage
# goes to BUILD_DIR/fuzz/corpus (kept between runs), a crash, leak, UB report or timeout to BUILD_DIR/fuzz/artifacts/
# (rerun one with `BUILD_DIR/fuzz/tilec-fuzzer FILE`). Exit status: 0 when nothing was found, non-zero otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: fuzz/run.sh BUILD_DIR SECONDS [libFuzzer options]}
seconds=${2:?usage: fuzz/run.sh BUILD_DIR SECONDS [libFuzzer options]}
shift 2
fuzzer=$build/fuzz/tilec-fuzzer
python3 fuzz/make_seeds.py . "$build/fuzz/seeds"
mkdir -p "$build/fuzz/corpus" "$build/fuzz/artifacts"
# -max_len 4096: long enough for every example, short enough that a flood of syntax errors stays quick.
# -timeout 25: an input that takes that long is a hang. Under ASan and coverage, on a loaded machine, the slowest
# input found so far (a GEMM with f32 fragments whose LDS bank pad search tries every pad) takes about 5 s for the
# fuzzer's dozen compilations, where the plain tilec takes 0.01 s.
# UBSan findings abort (-fno-sanitize-recover=all); leaks are reported by LeakSanitizer at the end of each input.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
exec "$fuzzer" -max_total_time="$seconds" -timeout=25 -max_len=4096 -rss_limit_mb=2048 -dict=fuzz/tile.dict \
  -print_final_stats=1 -artifact_prefix="$build/fuzz/artifacts/" "$@" "$build/fuzz/corpus" "$build/fuzz/seeds"
