#!/usr/bin/env python3
"""What a change to the resource model would do to test/Differential's verdicts, without compiling anything again.

usage: rescore_model.py RESULTS.jsonl SOURCES_DIR [--tilec PATH] [--delta EXPR] [--show]

RESULTS.jsonl is what test/Differential/Inputs/check.py --results wrote for a seed (gfx942: clang-19's allocation of
every kernel beside the model's), SOURCES_DIR the configurations' .tile files (gen.py SEED COUNT DIR). For every
kernel the model is changed by EXPR, a Python expression giving the ArchVGPRs to add (negative to take away), and the
verdicts check.py gives are scored again: a configuration fails when clang's VGPR+AGPR are more than 10% above the
model's, the model's are more than twice clang's, or the model's waves per SIMD differ from clang's.

EXPR sees, per kernel (the vector one and its _unaligned copy alike):
  items   the model's ArchVGPR items from `tilec --emit=report --format=json`, by the text before their first
          ':' (e.g. items['scheduled main-loop step over k']; an absent one reads 0, and is listed at the end)
  instr   the kernel's MFMA as (m, n, k), or None;  ksteps  the K loop's instruction K steps (its step / k), or None
  model   the model's VGPR+AGPR as check.py recorded it;  clang  clang's;  name  the kernel's name
e.g. --delta "-items['temporaries of the widest statement'] // 4 if ksteps == 4 else 0".

The change is added to the report's ArchVGPRs, which are then aligned to 4 before the AGPRs, as the model's total
is; where the epilogue's floor item holds them, they stay at least there; over 256 the configuration counts as
refused (tilec's budget check) and is not scored. The changed model's waves per SIMD are the fewest of
those its VGPR+AGPR allow (check.py's occupancy) and those its SGPRs, LDS and workgroup allow (tilec's report);
clang's are the recorded ones. Approximations (the figures are a screen; a tilec built with the change and check.py
settle them): the other items that are capped (kept rows "as many as fit", a depth-1 loop's addresses "N of them
fit", the scheduled step "beyond the element paths") move with the change, and the pipelining is not planned
again.
Configurations check.py counted as --known still count here. Without --delta it scores the recorded figures, which
must give check.py's own count of failing gfx942 configurations (a check of the reading).
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "test", "Differential", "Inputs"))
from check import occupancy  # noqa: E402

# check.py's failure classes on the model's figures (clang_checks).
MODEL_CLASSES = ("model-under-clang", "model-over-2x-clang", "occupancy")
MAX_ARCH_VGPRS = 256
# Items that are floors on the ArchVGPRs rather than additions (analysis/ResourceModel.cpp, the epilogue).
FLOORS = ("accumulator values computed in the epilogue", "epilogue operands beside the accumulator values")


def vgpr_waves(vgprs):
    """The waves per SIMD a lane's VGPR+AGPR allow: check.py's occupancy with nothing else limiting."""
    return occupancy("gfx942", vgprs, 0, 0, 64)


class Items(dict):
    """A kernel's items by label; an absent label reads 0 and is remembered (a misspelt one is reported)."""

    missing = set()

    def __missing__(self, key):
        Items.missing.add(key)
        return 0


def kernel_facts(tilec, tile_path, cache):
    """Per kernel name: the model's items, its MFMA shape and K steps, from tilec's JSON report."""
    if tile_path in cache:
        return cache[tile_path]
    out = subprocess.run([tilec, tile_path, "--emit=report", "--format=json", "-o", "-"],
                         capture_output=True, text=True)
    facts = {}
    if out.returncode == 0:
        report = json.loads(out.stdout)
        source = open(tile_path).read()
        step = re.search(r"\bstep (\d+)", source)
        for k in report["kernels"]:
            text = json.dumps(k)
            mfma = re.search(r"v_mfma_(?:scale_)?[a-z0-9]+_(\d+)x(\d+)x(\d+)", text)
            instr = tuple(int(g) for g in mfma.groups()) if mfma else None
            ksteps = int(step.group(1)) // instr[2] if instr and step else None
            variants = [(k["name"], k["resources"])]
            if k.get("unaligned_kernel") and "resources" in k["unaligned_kernel"]:
                variants.append((k["name"] + "_unaligned", k["unaligned_kernel"]["resources"]))
            for name, res in variants:
                items = Items()
                floor, above = 0, 0
                for item in res["vgpr_items"]:
                    label = item["what"].split(":")[0]
                    items[label] = items.get(label, 0) + item["count"]
                    if item["what"].startswith(FLOORS):
                        # The floor item counts what the floor adds beyond the other items.
                        floor, above = res["vgprs"], item["count"]
                # The waves the model's SGPRs, LDS and workgroup allow, as tilec computed them.
                limits = (k if name == k["name"] else k["unaligned_kernel"])["occupancy"]["limits"]
                facts[name] = {"items": items, "instr": instr, "ksteps": ksteps, "vgprs": res["vgprs"] - above,
                               "agprs": res["agprs"], "floor": floor,
                               "other": min(limits["sgpr"], limits["lds"], limits["workgroups"])}
    cache[tile_path] = facts
    return facts


def score(rows, delta, facts_of):
    failing, under, occupancy, within, kernels, changed, refused = set(), 0, 0, 0, 0, 0, set()
    for r in rows:
        if r.get("outcome") != "accepted" or r.get("target") != "gfx942":
            continue
        for name, c in r.get("info", {}).get("clang", {}).items():
            kernels += 1
            model, clang, model_waves = c["model_total"], c["vgpr"], c["model_occ"]
            if delta:
                f = facts_of(r["name"]).get(name)
                if not f:
                    sys.exit(f"rescore_model.py: no report for kernel {name} of {r['name']} (wrong SOURCES, or "
                             f"tilec refuses it)")
                env = dict(f, model=model, clang=clang, name=name)
                try:
                    d = int(eval(delta, {}, env))
                except Exception as e:  # the user's expression: say where it failed, not a traceback
                    sys.exit(f"rescore_model.py: --delta {delta!r} fails for kernel {name}: "
                             f"{type(e).__name__}: {e}")
                # The change goes to the other items; the epilogue's floor keeps the ArchVGPRs at least where it is.
                arch = max(f["vgprs"] + d, f["floor"])
                if arch > MAX_ARCH_VGPRS:
                    refused.add(r["name"])  # tilec's budget check would refuse the configuration
                    continue
                new = (arch + 3) // 4 * 4 + f["agprs"] if f["agprs"] else arch
                changed += new != model
                model = max(1, new)
                model_waves = min(vgpr_waves(model), f["other"])
            bad = False
            if clang * 100 > model * 110:
                under += 1
                bad = True
            if model > 2 * clang:
                bad = True
            if model_waves != c["occ"]:
                occupancy += 1
                bad = True
            # Within 10% either way, as test/Differential/Inputs/gfx950_oracle.py counts it.
            within += clang * 100 <= model * 110 and model * 100 <= clang * 110
            if bad:
                failing.add(r["name"])
    return failing - refused, under, occupancy, within, kernels, changed, len(refused)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("results")
    p.add_argument("sources")
    p.add_argument("--tilec", default=os.path.join(os.path.dirname(__file__), "..", "build", "tools", "tilec"))
    p.add_argument("--delta", help="Python expression: ArchVGPRs to add to each kernel's model")
    p.add_argument("--show", action="store_true", help="list the failing configurations")
    args = p.parse_args()
    rows = [json.loads(line) for line in open(args.results) if line.strip()]
    cache = {}
    facts_of = lambda cfg: kernel_facts(args.tilec, os.path.join(args.sources, cfg + ".tile"), cache)
    recorded = sum(1 for r in rows if r.get("target") == "gfx942" and
                   any(f[0] in MODEL_CLASSES for f in r.get("failures", [])))
    for label, delta in [("recorded", None)] + ([("changed", args.delta)] if args.delta else []):
        failing, under, occupancy, within, kernels, changed, refused = score(rows, delta, facts_of)
        print(f"{label}: {len(failing)} failing configurations; of {kernels} gfx942 kernels, clang more than 10% "
              f"over the model {under}, waves off {occupancy}, within 10% either way {within}"
              + (f"; {changed} changed, {refused} over {MAX_ARCH_VGPRS} ArchVGPRs (configurations refused)" if delta else ""))
        if args.show:
            print("  " + ",".join(sorted(failing)))
    print(f"check.py's own count ({', '.join(MODEL_CLASSES)}): {recorded}")
    if Items.missing:
        print(f"items the expression named that a kernel lacks (read as 0): {', '.join(sorted(Items.missing))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
