#!/bin/bash
# scripts/emit-all.sh TILEC OUTDIR: every example and every .tile under test/, each text --emit kind (hip, header, ir,
# ast, layout, report; layout and report also as JSON) and both --offload-arch targets, into OUTDIR, one file per
# output with its standard error and exit status beside it. Run it with two builds of tilec and compare the folders
# (`diff -r`) to see what a change does to emitted code; docs/language.md ("Names") cites such a comparison.
set -u
if [ $# -ne 2 ]; then echo "usage: $0 TILEC OUTDIR" >&2; exit 2; fi
TILEC=$1
OUT=$2
cd "$(dirname "$0")/.."
mkdir -p "$OUT"
for f in examples/*.tile examples/cmake-consumer/kernels/*.tile $(find test -name '*.tile' | sort); do
  for arch in gfx942 gfx950; do
    for kind in hip header ir ast layout report layout:json report:json; do
      k=${kind%%:*}
      fmt=text
      [ "$kind" != "$k" ] && fmt=json
      o=$OUT/$(echo "$f" | tr / _).$arch.$k.$fmt
      "$TILEC" "$f" --offload-arch=$arch --emit=$k --format=$fmt -o "$o.out" > "$o.stdout" 2> "$o.err"
      echo $? > "$o.rc"
      [ -s "$o.stdout" ] || rm -f "$o.stdout"
    done
  done
done
