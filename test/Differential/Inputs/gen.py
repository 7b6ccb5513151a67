#!/usr/bin/env python3
"""Random tile kernels for differential testing: copy, elementwise with casts, MFMA GEMM, and block-scaled (MX) GEMM
on gfx950 (fp8/bf8, fp4x2, fp6x4/bf6x4 operands with E8M0 scales; legal by construction, docs/mx.md).

Each configuration is a dict (JSON-serialisable) holding the `.tile` source and a description that the checker
(check.py) uses without looking at tilec's code: the tensors (dtype, extents, which are read and written), the scalars
and their values, the dimension symbols in launcher order, the `assume`s, the grid block, and what the kernel
computes. `predict` holds this file's own reading of the language rules (docs/language.md, docs/gemm.md,
shared/facts/mfma.md): the rules it broke on purpose or by chance, which the checker compares with tilec's verdict.

usage: gen.py SEED COUNT [OUTDIR]   writes OUTDIR/cNNNN.tile and OUTDIR/cNNNN.json (default: prints a summary)
"""
import json
import os
import random
import sys

BYTES = {"f32": 4, "f16": 2, "bf16": 2, "i8": 1, "i32": 4, "fp8": 1, "bf8": 1}
# The storage of MX operands and scales: only MX GEMMs (gen_mx) use them; tile_problem sizes them too.
MX_BYTES = {"fp4x2": 1, "fp6x4": 3, "bf6x4": 3, "e8m0": 1}
SIZE = {**BYTES, **MX_BYTES}
# MX operand dtypes (docs/mx.md): K values per element, the fragment run's bytes (a lane's LDS read: 16 K values of
# an 8-bit format, 32 of fp4 in 16 bytes, 32 of a 6-bit format in 24), and the one vec of the 16-byte rule.
MX_DTYPES = {"fp8": dict(values=1, run=16, vec=16), "bf8": dict(values=1, run=16, vec=16),
             "fp4x2": dict(values=2, run=16, vec=16), "fp6x4": dict(values=4, run=24, vec=4),
             "bf6x4": dict(values=4, run=24, vec=4)}
# The scaled MFMAs: block R x R, K values per instruction.
MX_INSTR = {"v_mfma_scale_f32_32x32x64_f8f6f4": dict(r=32, k=64),
            "v_mfma_scale_f32_16x16x128_f8f6f4": dict(r=16, k=128)}
FLOAT = ("f32", "f16", "bf16")
INT = ("i8", "i32")
F8 = ("fp8", "bf8")
TARGETS = ("gfx942", "gfx950")
LDS_BYTES = {"gfx942": 65536, "gfx950": 163840}

# MFMA instructions (shared/facts/mfma.md): name -> (A dtype, B dtype, C dtype, block R, K, K values per lane,
# targets). Fragments are kpl consecutive K values of one row of A / one column of B.
MFMA = {}


def _mfma(name, a, b, c, r, k, kpl, targets):
    MFMA[name] = dict(a=a, b=b, c=c, r=r, k=k, kpl=kpl, targets=targets)


for _t, _n in (("f16", "f16"), ("bf16", "bf16")):
    _mfma(f"v_mfma_f32_16x16x16_{_n}", _t, _t, "f32", 16, 16, 4, TARGETS)
    _mfma(f"v_mfma_f32_32x32x8_{_n}", _t, _t, "f32", 32, 8, 4, TARGETS)
    _mfma(f"v_mfma_f32_16x16x32_{_n}", _t, _t, "f32", 16, 32, 8, ("gfx950",))
    _mfma(f"v_mfma_f32_32x32x16_{_n}", _t, _t, "f32", 32, 16, 8, ("gfx950",))
_mfma("v_mfma_i32_16x16x32_i8", "i8", "i8", "i32", 16, 32, 8, TARGETS)
_mfma("v_mfma_i32_32x32x16_i8", "i8", "i8", "i32", 32, 16, 8, TARGETS)
for _a in F8:
    for _b in F8:
        _mfma(f"v_mfma_f32_16x16x32_{_a}_{_b}", _a, _b, "f32", 16, 32, 8, TARGETS)
        _mfma(f"v_mfma_f32_32x32x16_{_a}_{_b}", _a, _b, "f32", 32, 16, 8, TARGETS)
_mfma("v_mfma_f32_16x16x4_f32", "f32", "f32", "f32", 16, 4, 1, TARGETS)
_mfma("v_mfma_f32_32x32x2_f32", "f32", "f32", "f32", 32, 2, 1, TARGETS)


def ceil_div(a, b):
    return -(-a // b)


# ---------------------------------------------------------------------------------------------------------------
# Tile distribution rules (docs/language.md, "Legality and vec auto"), written from the documentation.

def wave_grid(pattern, waves, explicit):
    if pattern != "block_raked":
        return (waves, 1)
    if explicit:
        return explicit
    wx = max(d for d in range(1, waves + 1) if waves % d == 0 and d * d <= waves)
    return (waves // wx, wx)


def tile_problem(dtype, rows, cols, pattern, vec, wg, waves_decl):
    """None when (pattern, vec) is legal for this tile, else a short name of the first rule broken."""
    w = wg // 64
    wy, wx = wave_grid(pattern, w, waves_decl)
    if wy * wx != w:
        return "wave-grid"
    if vec & (vec - 1) or vec < 1:
        return "vec-pow2"
    if vec * SIZE[dtype] > 16:
        return "16-byte"
    if rows % wy or cols % wx:
        return "rows-waves"
    h, xs = rows // wy, cols // wx
    if xs % vec:
        return "row-vec"
    x0 = xs // vec
    if x0 > 64:
        return "x0-gt-64"
    if 64 % x0:
        return "x0-divides-64"
    lrows = 64 // x0
    if h % lrows:
        return "band-L"
    r = h // lrows
    if r * ceil_div(vec * SIZE[dtype], 4) > 256:
        return "tile-vgprs"
    return None


def dist(dtype, rows, cols, pattern, vec, wg, waves_decl):
    """(effective vec or None, problem, (wy, wx), R) with vec auto resolved."""
    if vec == "auto":
        v = 16 // BYTES[dtype]
        while v >= 1:
            if tile_problem(dtype, rows, cols, pattern, v, wg, waves_decl) in (None, "tile-vgprs"):
                break
            v //= 2
        if v < 1:
            return None, "vec-auto-none", None, None
        vec = v
    p = tile_problem(dtype, rows, cols, pattern, vec, wg, waves_decl)
    wy, wx = wave_grid(pattern, wg // 64, waves_decl)
    r = None
    if p is None:
        x0 = cols // wx // vec
        r = (rows // wy) // (64 // x0)
    return vec, p, (wy, wx), r


def same_distribution(d1, d2, p1, p2):
    """Elementwise operands: same vec and wave grid, and compatible patterns (any when R = 1)."""
    (v1, _, g1, r1), (v2, _, g2, r2) = d1, d2
    if v1 != v2 or g1 != g2:
        return False
    if p1 == p2 or r1 == 1 and r2 == 1:
        return True
    return {p1, p2} == {"warp_raked", "block_raked"}


# ---------------------------------------------------------------------------------------------------------------

def pick_pattern(rng, wg):
    pattern = rng.choice(["thread_raked", "warp_raked", "block_raked"])
    waves = None
    if pattern == "block_raked" and rng.random() < 0.5:
        w = wg // 64
        divs = [d for d in range(1, w + 1) if w % d == 0]
        wy = rng.choice(divs)
        waves = (wy, w // wy) if rng.random() < 0.9 else (wy, max(1, w // wy * 2))
    return pattern, waves


def pick_vec(rng, dtype):
    widest = 16 // BYTES[dtype]
    r = rng.random()
    if r < 0.45:
        return "auto"
    if r < 0.8:
        return widest
    if r < 0.95:
        return rng.choice([1, 2, 4, 8, 16])
    return rng.choice([3, 32])


def pick_dim(rng, sym, block, allow_literal=True):
    """A tensor extent: the symbol, or (sometimes) a literal, which may or may not be a multiple of the block."""
    if allow_literal and rng.random() < 0.25:
        return rng.choice([block, 2 * block, block + rng.choice([1, 3, 8, 17]), max(1, block // 2 + 5)])
    return sym


def pick_assumes(rng, dims, candidates):
    """`assume DIM % m == 0` for some symbolic dimensions; candidates maps symbol -> useful moduli."""
    out = {}
    for sym, mods in candidates.items():
        if isinstance(dims.get(sym, sym), str) and rng.random() < 0.3:
            out[sym] = rng.choice(mods)
    return out


def gen_copy_or_elementwise(rng, cfg, kind):
    target = cfg["target"]
    wg = rng.choice([64, 128, 256, 256, 512, 1024])
    rows = rng.choice([1, 2, 4, 8, 16, 32, 64, 128]) * max(1, (wg // 64) // rng.choice([1, 1, 2]))
    rows = min(rows, 256)
    cols = rng.choice([16, 32, 64, 128, 256, 48, 96])
    if rng.random() < 0.05:
        cols = rng.choice([24, 40, 60, 33])
    din = rng.choice(list(BYTES))
    dout = din if kind == "copy" else rng.choice(list(BYTES))
    pattern, waves = pick_pattern(rng, wg)
    vin = pick_vec(rng, din)
    vout = vin if rng.random() < 0.7 else pick_vec(rng, dout)
    if kind == "copy":
        vout = vin
    m_ext = pick_dim(rng, "M", rows)
    n_ext = pick_dim(rng, "N", cols)
    assumes = pick_assumes(rng, {"M": m_ext, "N": n_ext},
                           {"M": [rows, 2, 64], "N": [16 // BYTES[din], cols, 4, 2, 16]})
    op = "copy"
    scalars = []
    inputs = ["X"]
    if kind == "elementwise":
        ops = ["cast", "scale", "add", "max", "min"]
        op = rng.choice(ops)
        if op == "scale":
            sdt = "f32" if din in F8 else din
            scalars.append(dict(name="alpha", dtype=sdt))
        if op in ("add", "max", "min"):
            inputs.append("Z")
    # Expression text.
    def cast_to(e, src):
        return e if src == dout else f"cast<{dout}>({e})"
    if op in ("copy",):
        expr, edt = "x", din
    elif op == "cast":
        expr, edt = "x", din
    elif op == "scale":
        expr, edt = ("cast<f32>(x) * alpha", "f32") if din in F8 else ("x * alpha", din)
    elif op == "add":
        expr, edt = ("cast<f32>(x) + cast<f32>(z)", "f32") if din in F8 else ("x + z", din)
    else:
        expr, edt = (f"{op}(cast<f32>(x), cast<f32>(z))", "f32") if din in F8 else (f"{op}(x, z)", din)
    value = cast_to(expr, edt)
    dims = [m_ext, n_ext]
    dim_text = ", ".join(str(d) for d in dims)
    params = [f"X: global {din}[{dim_text}]"]
    if "Z" in inputs:
        params.append(f"Z: global {din}[{dim_text}]")
    params.append(f"Y: global {dout}[{dim_text}]")
    params += [f"{s['name']}: {s['dtype']}" for s in scalars]
    body = [f"  workgroup {wg};", f"  grid over Y tile [{rows}, {cols}];"]
    for sym, m in assumes.items():
        body.append(f"  assume {sym} % {m} == 0;")
    wtxt = f" waves [{waves[0]}, {waves[1]}]" if waves else ""

    def vtxt(v):
        return "" if v == "auto" and rng.random() < 0.5 else f" vec {v}"
    body.append(f"  tile x: {din}[{rows}, {cols}] {pattern}{wtxt}{vtxt(vin)};")
    if "Z" in inputs:
        body.append(f"  tile z: {din}[{rows}, {cols}] {pattern}{wtxt}{vtxt(vin)};")
    if kind == "elementwise":
        body.append(f"  tile y: {dout}[{rows}, {cols}] {pattern}{wtxt}{vtxt(vout)};")
    body.append("  x = load X[block];")
    if "Z" in inputs:
        body.append("  z = load Z[block];")
    if kind == "elementwise":
        body.append(f"  y = {value};")
        body.append("  store Y[block] = y;")
    else:
        body.append("  store Y[block] = x;")
    src = f"target {target};\n\nkernel {cfg['name']}({', '.join(params)}) {{\n" + "\n".join(body) + "\n}\n"

    # This file's prediction.
    problems = []
    d_in = dist(din, rows, cols, pattern, vin, wg, waves)
    d_out = dist(dout, rows, cols, pattern, vout, wg, waves) if kind == "elementwise" else d_in
    for d in (d_in, d_out):
        if d[1]:
            problems.append(d[1])
    if not problems and kind == "elementwise" and not same_distribution(d_in, d_out, pattern, pattern):
        problems.append("distribution")
    for sym, ext in (("M", m_ext), ("N", n_ext)):
        pass
    tensors = [dict(name="X", dtype=din, dims=dims, role="in")]
    if "Z" in inputs:
        tensors.append(dict(name="Z", dtype=din, dims=dims, role="in"))
    tensors.append(dict(name="Y", dtype=dout, dims=dims, role="out"))
    cfg.update(source=src, tensors=tensors, scalars=scalars, assumes=assumes, block=[rows, cols],
               grid="Y", compute=dict(op=op, din=din, dout=dout, edt=edt), workgroup=wg,
               predict=dict(problems=problems, vec_in=d_in[0], vec_out=d_out[0]))


def gen_gemm(rng, cfg):
    target = cfg["target"]
    family = rng.choice(["f16", "f16", "bf16", "i8", "fp8", "fp8", "f32"])
    if family == "fp8":
        da, db = rng.choice(F8), rng.choice(F8)
    else:
        da = db = family
    matching = [n for n, m in MFMA.items() if m["a"] == da and m["b"] == db]
    r = rng.random()
    if r < 0.35:
        instr = "auto"
    elif r < 0.97:
        instr = rng.choice(matching)
    else:
        instr = rng.choice(list(MFMA))  # dtypes that may not match
    wg = rng.choice([64, 128, 256, 256, 256, 512])
    w = wg // 64
    bm = rng.choice([32, 64, 64, 128, 128, 256])
    bn = rng.choice([32, 64, 64, 128, 128, 256])
    bk = rng.choice([16, 32, 32, 64, 64, 128]) if BYTES[da] == 1 else rng.choice([8, 16, 32, 32, 64])
    pad = rng.choice([None, 0, 2, 4, 4, 8, 8, 16])
    bnk = rng.random() < 0.5  # B given N x K
    acc_dt = "i32" if da == "i8" else "f32"
    if rng.random() < 0.03:
        acc_dt = rng.choice(["f32", "i32", "f16"])
    waves = None
    if rng.random() < 0.6:
        divs = [d for d in range(1, w + 1) if w % d == 0]
        wy = rng.choice(divs)
        waves = (wy, w // wy)
    # Epilogue.
    if acc_dt == "f32":
        epi = rng.choice(["plain", "plain", "scale_f16", "scale_bf16", "cast_f16", "scale_f32"])
    elif acc_dt == "i32":
        epi = rng.choice(["plain", "plain", "cast_f32"])
    else:
        epi = "plain"
    out_dt = {"plain": acc_dt, "scale_f16": "f16", "scale_bf16": "bf16", "cast_f16": "f16", "scale_f32": "f32",
              "cast_f32": "f32"}[epi]
    scalars = [dict(name="alpha", dtype="f32")] if epi.startswith("scale") else []
    pa, wa = pick_pattern(rng, wg)
    pb, wb = pick_pattern(rng, wg)
    va = pick_vec(rng, da) if rng.random() < 0.5 else 16 // BYTES[da]
    vb = pick_vec(rng, db) if rng.random() < 0.5 else 16 // BYTES[db]
    m_ext = pick_dim(rng, "M", bm, allow_literal=rng.random() < 0.5)
    n_ext = pick_dim(rng, "N", bn, allow_literal=rng.random() < 0.5)
    k_ext = pick_dim(rng, "K", bk, allow_literal=rng.random() < 0.5)
    assumes = pick_assumes(rng, {"M": m_ext, "N": n_ext, "K": k_ext},
                           {"M": [bm, 16], "N": [bn, 8, 4], "K": [bk, 8, 16]})
    a_dims = [m_ext, k_ext]
    b_dims = [n_ext, k_ext] if bnk else [k_ext, n_ext]
    c_dims = [m_ext, n_ext]

    def dtxt(ds):
        return ", ".join(str(d) for d in ds)
    params = [f"A: global {da}[{dtxt(a_dims)}]", f"B: global {db}[{dtxt(b_dims)}]",
              f"C: global {out_dt}[{dtxt(c_dims)}]"] + [f"{s['name']}: {s['dtype']}" for s in scalars]
    pad_txt = "" if pad is None else f" pad {pad}"
    b_shape = (bn, bk) if bnk else (bk, bn)

    def tdecl(name, dt, shape, p, wv, v):
        wt = f" waves [{wv[0]}, {wv[1]}]" if wv else ""
        vt = "" if v == "auto" and rng.random() < 0.5 else f" vec {v}"
        return f"  tile {name}: {dt}[{shape[0]}, {shape[1]}] {p}{wt}{vt};"
    body = [f"  workgroup {wg};", f"  grid over C tile [{bm}, {bn}];"]
    for sym, m in assumes.items():
        body.append(f"  assume {sym} % {m} == 0;")
    body += [f"  lds  sA: {da}[{bm}, {bk}]{pad_txt};", f"  lds  sB: {db}[{b_shape[0]}, {b_shape[1]}]{pad_txt};",
             tdecl("a", da, (bm, bk), pa, wa, va), tdecl("b", db, b_shape, pb, wb, vb)]
    wtxt = f" waves [{waves[0]}, {waves[1]}]" if waves else ""
    body.append(f"  acc  c: {acc_dt}[{bm}, {bn}] mfma {instr}{wtxt};")
    body.append(f"  for k in 0 .. K step {bk} {{")
    body.append("    a = load A[block.row, k];")
    body.append("    b = load B[block.col, k];" if bnk else "    b = load B[k, block.col];")
    body += ["    sA = a;", "    sB = b;", "    barrier;",
             "    c += mma(sA, transpose(sB));" if bnk else "    c += mma(sA, sB);", "    barrier;", "  }"]
    store = {"plain": "c", "scale_f16": "cast<f16>(c * alpha)", "scale_bf16": "cast<bf16>(c * alpha)",
             "cast_f16": "cast<f16>(c)", "scale_f32": "c * alpha", "cast_f32": "cast<f32>(c)"}[epi]
    body.append(f"  store C[block] = {store};")
    # `for k in 0 .. K` needs K as a symbol; a literal K is written as the number.
    src_body = "\n".join(body)
    if not isinstance(k_ext, str):
        src_body = src_body.replace("0 .. K step", f"0 .. {k_ext} step")
    src = f"target {target};\n\nkernel {cfg['name']}({', '.join(params)}) {{\n{src_body}\n}}\n"

    # Prediction from the documented rules.
    problems = []
    for name, dt, shape, p, wv, v in (("a", da, (bm, bk), pa, wa, va), ("b", db, b_shape, pb, wb, vb)):
        d = dist(dt, shape[0], shape[1], p, v, wg, wv)
        if d[1]:
            problems.append(d[1])
    gy, gx = waves if waves else wave_grid("block_raked", w, None)
    if gy * gx != w:
        problems.append("acc-waves")
    pad_v = pad or 0
    cands = []
    for n, m in MFMA.items():
        if m["a"] != da or m["b"] != db or target not in m["targets"]:
            continue
        if bm % gy or bn % gx or (bm // gy) % m["r"] or (bn // gx) % m["r"] or bk % m["k"]:
            continue
        if m["c"] != acc_dt:
            continue
        cands.append(n)
    aligned = [n for n in cands if ((bk + pad_v) * BYTES[da]) % (MFMA[n]["kpl"] * BYTES[da]) == 0
               and ((bk + pad_v) * BYTES[db]) % (MFMA[n]["kpl"] * BYTES[db]) == 0]
    if instr == "auto":
        if acc_dt not in ("f32", "i32"):
            problems.append("acc-dtype")
        elif not cands:
            problems.append("auto-none")
        elif not aligned:
            problems.append("fragment-align")
    else:
        m = MFMA[instr]
        if target not in m["targets"]:
            problems.append("arch")
        elif m["a"] != da or m["b"] != db:
            problems.append("operand-dtype")
        elif m["c"] != acc_dt:
            problems.append("acc-dtype")
        elif bm % gy or bn % gx or (bm // gy) % m["r"] or (bn // gx) % m["r"]:
            problems.append("acc-blocks")
        elif bk % m["k"]:
            problems.append("k-multiple")
        elif instr not in aligned:
            problems.append("fragment-align")
    lds = (bm + bn) * (bk + pad_v) * BYTES[da]
    if da != db:
        lds = bm * (bk + pad_v) * BYTES[da] + bn * (bk + pad_v) * BYTES[db]
    if lds > LDS_BYTES[target]:
        problems.append("lds-budget")
    if (bm // max(gy, 1)) * (bn // max(gx, 1)) // 64 > 256:
        problems.append("acc-registers")
    tensors = [dict(name="A", dtype=da, dims=a_dims, role="in"), dict(name="B", dtype=db, dims=b_dims, role="in"),
               dict(name="C", dtype=out_dt, dims=c_dims, role="out")]
    cfg.update(source=src, tensors=tensors, scalars=scalars, assumes=assumes, block=[bm, bn], grid="C",
               workgroup=wg,
               compute=dict(op="gemm", da=da, db=db, acc=acc_dt, out=out_dt, epi=epi, bnk=bnk, bk=bk, instr=instr),
               predict=dict(problems=problems, candidates=cands, aligned=aligned, lds=lds))


def gen_mx(rng, cfg):
    """A block-scaled GEMM on gfx950, legal by construction: C = (A scaled) x (B scaled), one E8M0 scale per 32 K
    values of each row of A and column of B; A and B of one column width (8-bit, fp4x2, or 6-bit), or in 30% of
    the draws of two (B from another family); B given N x K,
    or K x N (fp4x2 then packs two N values per byte, 6-bit formats four in 3 bytes, stored in 16-byte LDS slots). A
    K x N B is [KV, NB]: KV = its rows,
    one per K value (K x A's values per element), NB = ceil(N / B's values per element); its windows
    B[A's values * k, block.col / B's values] (B[2 * k, block.col / 2] for fp4x2 by fp4x2, read with
    ds_read_b64_tr_b4; B[k, block.col / 2] under an fp8 A; B[4 * k, block.col] for an fp8 B under a 6-bit A)."""
    fam = rng.choice(["8", "8", "4", "6", "6"])
    if fam == "8":
        da, db = rng.choice(F8), rng.choice(F8)
    elif fam == "4":
        da = db = "fp4x2"
    else:
        da, db = rng.choice(["fp6x4", "bf6x4"]), rng.choice(["fp6x4", "bf6x4"])
    # Operands of two column widths (fp8 by fp4x2, say), from a stream of their own so that the other MX
    # configurations of a seed stay what they were: B of another family, given N x K ([N, KB], its K columns KB =
    # ceil(K x values of A / values of B), window B[block.col, k x values of A / values of B]).
    mix_rng = random.Random(f"{cfg['seed']}-{cfg['index']}-mx-mixed")
    mixed = mix_rng.random() < 0.3
    if mixed:
        fb = mix_rng.choice([f for f in ("8", "4", "6") if f != fam])
        db = mix_rng.choice(F8) if fb == "8" else "fp4x2" if fb == "4" else mix_rng.choice(["fp6x4", "bf6x4"])
    # A mixed pair's B given K x N (8-bit or fp4x2 B: the transposing reads of 8 and 4 bits), from the same stream.
    # A 6-bit B given K x N (ds_read_b96_tr_b6 from 16-byte slots), mixed or not, from a stream of its own (added 26
    # Nov 2026: the configurations drawn before stay what they were).
    kn6 = db in ("fp6x4", "bf6x4") and random.Random(f"{cfg['seed']}-{cfg['index']}-mx-kn6").random() < 0.3
    mixed_kn = mixed and (db in F8 + ("fp4x2",) and mix_rng.random() < 0.4 or kn6)
    mx, mxb = MX_DTYPES[da], MX_DTYPES[db]
    for _ in range(200):
        instr = rng.choice(list(MX_INSTR))
        r, kins = MX_INSTR[instr]["r"], MX_INSTR[instr]["k"]
        wg = rng.choice([64, 128, 256, 256])
        w = wg // 64
        bm, bn = rng.choice([32, 64, 64, 128]), rng.choice([32, 64, 64, 128])
        wy = rng.choice([d for d in range(1, w + 1) if w % d == 0])
        wx = w // wy
        if bm % (wy * r) or bn % (wx * r) or (bm // wy) * (bn // wx) // 64 > 128:
            continue
        bk = kins * rng.choice([1, 2]) // mx["values"]  # K step in columns of the dtypes
        esz = SIZE[da]
        pads = [p for p in (0, 4, 8, 16) if ((bk + p) * esz) % mx["run"] == 0]
        if not pads:
            continue
        pad = rng.choice(pads)
        bkb = bk * mx["values"] // mxb["values"]  # B's K step in its columns
        padb = pad
        if mixed and not mixed_kn:
            padsb = [p for p in (0, 4, 8, 16) if ((bkb + p) * SIZE[db]) % mxb["run"] == 0]
            if not padsb:
                continue
            padb = rng.choice(padsb)
        elif mixed_kn:  # rows of whole 16-byte vectors (the loads' writes), so 8-byte rows for the reads too; 6-bit
            # rows of whole slots of 4 elements
            padb = rng.choice([p for p in (0, 4, 8, 12, 16) if (bn // mxb["values"] + p) % (4 if kn6 else 16) == 0])
        elif kn6:  # a pad of its own, odd numbers of slots included (A's pads are 0, 8 or 16)
            padb = rng.choice([p for p in (0, 4, 8, 12, 16) if (bn // 4 + p) % 4 == 0])
        bnk = not mixed_kn if mixed else not kn6 if fam == "6" else rng.random() < 0.7
        packed_kn = not bnk and mx["values"] > 1  # fp4x2 or 6-bit K x N: K values along the rows, N / values columns
        if packed_kn and not mixed and (bn // mxb["values"] + padb) % (4 if kn6 else 8):
            continue  # the 8-byte transposing reads need 8-byte rows; 6-bit ones rows of whole 16-byte slots
        b_shape = (bn, bkb) if bnk else (bk * mx["values"], bn // mxb["values"])
        pa, wa = pick_pattern(rng, wg)
        pb, wb = pick_pattern(rng, wg)
        if dist(da, bm, bk, pa, mx["vec"], wg, wa)[1] or dist(db, *b_shape, pb, mxb["vec"], wg, wb)[1]:
            continue
        b_row_bytes = (b_shape[1] + padb) // 4 * 16 if kn6 else (b_shape[1] + padb) * SIZE[db]  # slots: 4 in 16 B
        if (bm * (bk + pad) * esz + b_shape[0] * b_row_bytes) * 2 > LDS_BYTES["gfx950"]:
            continue
        break
    else:
        raise RuntimeError("no legal MX configuration found")
    epi = rng.choice(["plain", "plain", "scale_f32"])
    scalars = [dict(name="alpha", dtype="f32")] if epi == "scale_f32" else []
    a_dims = ["M", "K"]
    b_dims = (["N", "KB"] if mixed else ["N", "K"]) if bnk else ["KV", "NB"] if packed_kn or mixed else ["K", "N"]
    b_rows = "k" if mx["values"] == 1 else f"{mx['values']} * k"  # a K x N B's window: one row per K value
    b_cols = "block.col" if mxb["values"] == 1 else f"block.col / {mxb['values']}"
    ratio = mx["values"] // mxb["values"] or 1
    b_k = "k" if not mixed else f"{ratio} * k" if mx["values"] > mxb["values"] else \
        f"k / {mxb['values'] // mx['values']}"

    def tdecl(name, dt, shape, p, wv):
        wt = f" waves [{wv[0]}, {wv[1]}]" if wv else ""
        return f"  tile {name}: {dt}[{shape[0]}, {shape[1]}] {p}{wt} vec {MX_DTYPES[dt]['vec']};"
    params = [f"A: global {da}[M, K]", f"B: global {db}[{b_dims[0]}, {b_dims[1]}]", "SA: global e8m0[M, KS]",
              "SB: global e8m0[N, KS]", "C: global f32[M, N]"] + [f"{x['name']}: {x['dtype']}" for x in scalars]
    body = [f"  workgroup {wg};", f"  grid over C tile [{bm}, {bn}];",
            f"  lds  sA: {da}[{bm}, {bk}] pad {pad};", f"  lds  sB: {db}[{b_shape[0]}, {b_shape[1]}] pad {padb};",
            tdecl("a", da, (bm, bk), pa, wa), tdecl("b", db, b_shape, pb, wb),
            f"  acc  c: f32[{bm}, {bn}] mfma {instr} waves [{wy}, {wx}];",
            f"  for k in 0 .. K step {bk} {{", "    a = load A[block.row, k];",
            f"    b = load B[block.col, {b_k}];" if bnk else
            f"    b = load B[{b_rows}, {b_cols}];",
            "    sA = a;", "    sB = b;", "    barrier;",
            f"    c += mma(sA, {'transpose(sB)' if bnk else 'sB'}, scale_a = SA, scale_b = SB);", "    barrier;", "  }",
            f"  store C[block] = {'c * alpha' if scalars else 'c'};"]
    src = f"target gfx950;\n\nkernel {cfg['name']}({', '.join(params)}) {{\n" + "\n".join(body) + "\n}\n"
    tensors = [dict(name="A", dtype=da, dims=a_dims, role="in"), dict(name="B", dtype=db, dims=b_dims, role="in"),
               dict(name="SA", dtype="e8m0", dims=["M", "KS"], role="in"),
               dict(name="SB", dtype="e8m0", dims=["N", "KS"], role="in"),
               dict(name="C", dtype="f32", dims=["M", "N"], role="out")]
    cfg.update(source=src, tensors=tensors, scalars=scalars, assumes={}, block=[bm, bn], grid="C", workgroup=wg,
               compute=dict(op="mx", da=da, db=db, acc="f32", out="f32", epi=epi, bnk=bnk, bk=bk, instr=instr,
                            values=mx["values"], values_b=mxb["values"], step_k=kins),
               predict=dict(problems=[]))


def dim_order(cfg):
    """Dimension symbols in order of first appearance in the parameter list (the launcher's order)."""
    order = []
    for t in cfg["tensors_in_param_order"]:
        for d in t["dims"]:
            if isinstance(d, str) and d not in order:
                order.append(d)
    return order


def generate(seed, index):
    rng = random.Random(seed * 1000003 + index)
    kind = rng.choice(["copy", "elementwise", "elementwise", "gemm", "gemm", "gemm"])
    target = rng.choice(TARGETS)
    # Most configurations should be legal (they exercise code generation); a quarter keep whatever rule they break.
    keep_illegal = rng.random() < 0.25
    for _ in range(40):
        cfg = dict(name=f"k{index:04d}", index=index, seed=seed, kind=kind, target=target)
        if kind == "gemm" and target == "gfx950" and random.Random(f"{seed}-{index}-mx").random() < 0.4:
            # A separate stream: the other configurations of a seed stay what they were before MX was added.
            kind = cfg["kind"] = "mx"
            gen_mx(random.Random(f"{seed}-{index}-mx-config"), cfg)
            break
        if kind == "gemm":
            gen_gemm(rng, cfg)
        else:
            gen_copy_or_elementwise(rng, cfg, kind)
        if keep_illegal or not cfg["predict"]["problems"]:
            break
    # Tensors in parameter order (as written in the source).
    order = {"copy": ["X", "Y"], "elementwise": ["X", "Z", "Y"], "gemm": ["A", "B", "C"],
             "mx": ["A", "B", "SA", "SB", "C"]}[kind]
    cfg["tensors_in_param_order"] = [t for n in order for t in cfg["tensors"] if t["name"] == n]
    cfg["dims"] = dim_order(cfg)
    return cfg


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    outdir = sys.argv[3] if len(sys.argv) > 3 else None
    for i in range(count):
        cfg = generate(seed, i)
        if outdir:
            os.makedirs(outdir, exist_ok=True)
            with open(os.path.join(outdir, cfg["name"] + ".tile"), "w") as f:
                f.write(cfg["source"])
            with open(os.path.join(outdir, cfg["name"] + ".json"), "w") as f:
                json.dump(cfg, f, indent=1)
        else:
            print(cfg["name"], cfg["kind"], cfg["target"], ",".join(cfg["predict"]["problems"]) or "legal")


if __name__ == "__main__":
    main()
