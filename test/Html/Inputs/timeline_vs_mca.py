#!/usr/bin/env python3
"""Checks the MCA timeline of an HTML report (--emit=html) against llvm-mca's own -timeline view of the same loop.

    timeline_vs_mca.py PAGE.html VERIFY.json LLVM_MCA

For each kernel whose page draws a timeline (of iteration I of 100, as the page says), LLVM_MCA -timeline runs on the
loop body --verify --format=json gives (k_loop.body_for_mca) for the kernel's target, and its rows [I,n] must show
what the page's row n says, cycles counted from the iteration's first dispatch. llvm-mca's TimelineView prints D at
the dispatch cycle, '=' from the next cycle to the one before the issue, e up to E at the cycle execution ends, then
'-' up to R at retirement (no R where an instruction retires as it ends); so dispatched and executed must be the D and
E columns, issued the D column + 1 + the number of '=' (the D column or the next where there is none), retired the R
column or, without one, executed. Prints one
line per kernel; exit status 1 when a row differs.
"""
import json
import re
import subprocess
import sys
import tempfile

STEP = re.compile(r'<title>(\d+): [^<]*: dispatched at (\d+), issued at (\d+), executed by (\d+), retired at (\d+)'
                  r'</title>')


def page_timelines(page):
    """Per kernel, its timeline's iteration and rows, from the page's sections."""
    out = {}
    for section in re.findall(r'<section class="kernel" id="kernel-([^"]+)">(.*?)</section>', page, re.S):
        name, body = section
        it = re.search(r"MCA's timeline of iteration (\d+) of 100", body)
        if it:
            out[name] = (int(it.group(1)), [tuple(map(int, s)) for s in STEP.findall(body)])
    return out


def mca_rows(mca, body, target, iteration):
    with tempfile.NamedTemporaryFile("w", suffix=".s") as f:
        f.write(body)
        f.flush()
        text = subprocess.run([mca, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-iterations=100", "-timeline",
                               f"-timeline-max-iterations={iteration + 1}", "-timeline-max-cycles=0", f.name],
                              capture_output=True, text=True, check=True).stdout
    rows = {}
    for line in text.splitlines():
        m = re.match(rf"^\[{iteration},(\d+)\]", line)
        if not m:
            continue
        chart = line[10:]
        end = 0
        while end < len(chart) and chart[end] in " .=-DeER":
            end += 1
        chart = chart[:end]
        d = chart.index("D")
        e = chart.index("E", d) if "E" in chart[d:] else d  # a zero-latency instruction is D alone
        r = chart.find("R", d)
        rows[int(m.group(1))] = (d, chart.count("=", d, e), e, r if r >= 0 else e)
    first = min(row[0] for row in rows.values())
    return {n: (d - first, waiting, e - first, r - first) for n, (d, waiting, e, r) in rows.items()}


def agrees(step, row):
    """Whether the page's (dispatched, issued, executed, retired) is what llvm-mca's row shows. Without '=' the chart
    cannot tell an issue in the dispatch cycle from one in the next (both print e from the next cycle on)."""
    if row is None:
        return False
    dispatched, issued, executed, retired = step
    d, waiting, e, r = row
    issue_ok = issued == d + 1 + waiting if waiting else issued in (d, d + 1)
    return dispatched == d and executed == e and retired == r and issue_ok


def main(page_path, verify_path, mca):
    page = page_timelines(open(page_path).read())
    verify = json.load(open(verify_path))
    target = re.search(r"gfx\d+", verify.get("target", "gfx942")).group(0)
    bad = 0
    for k in verify["kernels"]:
        if k["name"] not in page:
            continue
        iteration, steps = page[k["name"]]
        expected = mca_rows(mca, k["k_loop"]["body_for_mca"], target, iteration)
        wrong = [(s, expected.get(s[0])) for s in steps if not agrees(s[1:], expected.get(s[0]))]
        bad += bool(wrong) or len(steps) != len(expected)
        print(f"{k['name']}: iteration {iteration}, {len(steps)} rows on the page, {len(expected)} in llvm-mca's "
              f"timeline, {len(wrong)} differ")
        for s, e in wrong[:5]:
            print(f"  row {s[0]}: page (dispatched, issued, executed, retired) {s[1:]}, llvm-mca (D, '=' after it, E, "
                  f"R) {e}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
