"""Oracle (c) of the differential tester for gfx950 (check.py --gfx950): the gfx950 configurations' HIP compiled by
clang-22 for gfx950, then scratch, registers and occupancy against the model (docs/differential-testing.md, "gfx950
against the compiler")."""
import os


def check(args, workdir, hip_path, report, failures, info, compile_device, each_kernel):
    """check.py --gfx950 (`compile_device` and `each_kernel` are check.py's): the configuration's HIP compiled for
    gfx950 (-Wall -Wextra -Werror), then the oracles of (c) against that compiler: no scratch outside the register
    edge, the model not under it by more than 10%, the same occupancy (classes gfx950-scratch, gfx950-model-under,
    gfx950-occupancy); a compile error or warning is class gfx950-clang-error."""
    asm = os.path.join(workdir, "k950.s")
    rc, err = compile_device(args, hip_path, "gfx950", asm)
    if rc != 0 or err.strip():
        failures.append(("gfx950-clang-error", (err or "timeout").strip().splitlines()[:4]))
        return
    meta = args.compare_resources.metadata(open(asm).read())
    info["gfx950"] = {}
    for _, kk, m, mtotal, occ, model in each_kernel(report, meta, "gfx950", failures, "gfx950-missing-kernel"):
        scratch = m["private_segment_fixed_size"]
        info["gfx950"][kk["name"]] = dict(vgpr=m["vgpr_count"], agpr=m.get("agpr_count", 0), occ=occ,
                                          model_total=mtotal, model_occ=model, scratch=scratch,
                                          edge=kk.get("register_edge", {}).get("near", False))
        if scratch and not info["gfx950"][kk["name"]]["edge"]:
            failures.append(("gfx950-scratch", [f"{kk['name']}: {scratch} B of scratch (model {mtotal})"]))
        if m["vgpr_count"] * 100 > mtotal * 110:
            failures.append(("gfx950-model-under", [f"{kk['name']}: gfx950 compiler {m['vgpr_count']} VGPR+AGPR, "
                                                    f"model {mtotal}"]))
        if occ != model:
            failures.append(("gfx950-occupancy", [f"{kk['name']}: tilec {model}, the gfx950 compiler's "
                                                  f"{occ} ({m['vgpr_count']} VGPR+AGPR, model {mtotal})"]))


def summary_line(accepted):
    """The summary's line for the gfx950 compiler's figures, or None when no configuration was compiled for it."""
    g950 = [r for r in accepted if r["target"] == "gfx950" and "gfx950" in r.get("info", {})]
    if not g950:
        return None
    kern = [k for r in g950 if isinstance(r["info"]["gfx950"], dict) for k in r["info"]["gfx950"].values()]
    within = sum(1 for k in kern
                 if k["vgpr"] * 100 <= k["model_total"] * 110 and k["model_total"] * 100 <= k["vgpr"] * 110)
    over = sum(1 for k in kern if k["model_total"] * 100 > k["vgpr"] * 110)
    under = sum(1 for k in kern if k["vgpr"] * 100 > k["model_total"] * 110)
    scratch = sum(1 for k in kern if k["scratch"])
    at_edge = sum(1 for k in kern if k["scratch"] and k["edge"])
    return (f"gfx950 (--gfx950, clang-22): {len(kern)} kernels compiled: occupancy equal {sum(1 for k in kern if k['occ'] == k['model_occ'])}, "
            f"VGPR+AGPR within 10% either way {within}, model more than 10% over {over}, more than 10% under {under}, "
            f"with scratch {scratch} ({at_edge} of them at the register edge)")
