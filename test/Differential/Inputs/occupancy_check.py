#!/usr/bin/env python3
"""Oracle (c) of the differential tester on one file: for every kernel of REPORT.json (`tilec --emit=report
--format=json`), the _unaligned ones included, the occupancy tilec reports must equal the one computed from clang's
metadata in KERNEL.s with shared/facts/occupancy.md's formula (check.occupancy). Prints one line per kernel; exit 1
on a difference.

usage: occupancy_check.py REPORT.json KERNEL.s
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check  # noqa: E402

report = json.load(open(sys.argv[1]))
cr = check.load_compare_resources(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
meta = cr.metadata(open(sys.argv[2]).read())
bad = 0
for k in report["kernels"]:
    for kk in [k] + ([k["unaligned_kernel"]] if "unaligned_kernel" in k else []):
        m = meta[kk["name"]]
        occ = check.occupancy(report["target"], m["vgpr_count"], m["sgpr_count"], m["group_segment_fixed_size"],
                              k["workgroup_size"])
        model = kk["occupancy"]["waves_per_simd"]
        print(f"kernel {kk['name']}: tilec {model}, clang's metadata {occ} (vgpr {m['vgpr_count']}, sgpr "
              f"{m['sgpr_count']}, lds {m['group_segment_fixed_size']}): {'equal' if occ == model else 'DIFFERENT'}")
        bad += occ != model
sys.exit(1 if bad else 0)
