#!/usr/bin/env bash
# A fuzz campaign on another Linux machine with more cores (how the 10^6-execution campaign in docs/robustness.md ran).
#   fuzz/campaign.sh pack BUILD_DIR DIR     copies the fuzzer, Debian's loader and the libraries it needs, the
#                                           dictionary, fresh seeds and BUILD_DIR/fuzz/corpus into DIR
#   DIR/campaign.sh run N SECONDS           (on the other machine) N libFuzzer processes sharing DIR/corpus for
#                                           SECONDS; logs and corpus.tgz go to $OUT (default /tmp/out)
# The fuzzer starts through the packed loader, so the other machine's glibc does not matter.
set -euo pipefail
case "${1:-}" in
pack)
  build=${2:?usage: fuzz/campaign.sh pack BUILD_DIR DIR}; dir=${3:?usage: fuzz/campaign.sh pack BUILD_DIR DIR}
  cd "$(dirname "$0")/.."
  mkdir -p "$dir/libs" "$dir/corpus"
  cp "$build/fuzz/tilec-fuzzer" fuzz/tile.dict fuzz/campaign.sh "$dir/"
  cp -L /lib64/ld-linux-x86-64.so.2 "$dir/libs/"
  ldd "$build/fuzz/tilec-fuzzer" | awk '/=> \// {print $3}' | xargs -I{} cp -L {} "$dir/libs/"
  python3 fuzz/make_seeds.py . "$dir/seeds"
  if [ -d "$build/fuzz/corpus" ]; then cp -r "$build/fuzz/corpus/." "$dir/corpus/"; fi
  echo "packed into $dir ($(du -sh "$dir" | cut -f1))";;
run)
  n=${2:?usage: campaign.sh run N SECONDS}; seconds=${3:?usage: campaign.sh run N SECONDS}
  cd "$(dirname "$0")"
  out=${OUT:-/tmp/out}; mkdir -p "$out" corpus artifacts
  export UBSAN_OPTIONS=print_stacktrace=1
  for i in $(seq 1 "$n"); do
    ./libs/ld-linux-x86-64.so.2 --library-path ./libs ./tilec-fuzzer -max_total_time="$seconds" -timeout=25 \
      -max_len=4096 -rss_limit_mb=2048 -dict=tile.dict -print_final_stats=1 -seed=$((20261123 + i)) \
      -artifact_prefix=artifacts/ corpus seeds > "$out/fuzz-$i.log" 2>&1 &
  done
  wait
  grep -h "stat::number_of_executed_units" "$out"/fuzz-*.log | awk '{s += $2} END {print "executions:", s}'
  grep -hE "DONE +cov:" "$out"/fuzz-*.log | tail -1
  echo "artifacts: $(ls artifacts | wc -l); corpus: $(ls corpus | wc -l)"
  tar czf "$out/corpus.tgz" corpus artifacts;;
*)
  echo "usage: fuzz/campaign.sh pack BUILD_DIR DIR | campaign.sh run N SECONDS" >&2; exit 2;;
esac
