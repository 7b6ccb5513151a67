"""Oracle (a) of the differential tester: tilec's diagnostics are located (`file:line:col: kind: message`, then the
source line and a caret under the column) and what an error says is true. Each error is put in a class by its text;
where the message states arithmetic, the numbers are recomputed here, and where it names a rule of docs/language.md
or docs/gemm.md, the rule is checked against the configuration with gen.py's independent reading of it."""
import re

import gen

DIAG = re.compile(r"^(.+?):(\d+):(\d+): (error|warning|note): (.*)$")


def check_format(stderr, src_lines, filename):
    """Every diagnostic is located in the file, echoes its source line and puts a caret under its column."""
    failures = []
    lines = stderr.splitlines()
    if lines and not DIAG.match(lines[0]):
        failures.append(("unlocated-diagnostic", [lines[0][:200]]))
    i = 0
    while i < len(lines):
        m = DIAG.match(lines[i])
        if not m:
            i += 1
            continue
        fname, ln, col = m.group(1), int(m.group(2)), int(m.group(3))
        if fname != filename or not 1 <= ln <= len(src_lines) or col < 1:
            failures.append(("bad-location", [lines[i][:200]]))
        else:
            echo = lines[i + 1] if i + 1 < len(lines) else ""
            caret = lines[i + 2] if i + 2 < len(lines) else ""
            src = src_lines[ln - 1]
            if echo.rstrip() != src.rstrip():
                failures.append(("no-source-line", [lines[i][:200], echo[:120]]))
            elif col > len(src) + 1 or len(caret) < col or caret[col - 1] != "^":
                failures.append(("caret-misplaced", [lines[i][:200], caret[:120]]))
        i += 1
    return failures


def ints(m):
    return [int(g) if g is not None and g.isdigit() else g for g in m.groups()]


def tile_of(cfg, name):
    """(dtype, rows, cols, pattern, vec, waves) of a register tile, from the generated source."""
    m = re.search(rf"^\s*tile {name}: (\w+)\[(\d+), (\d+)\] (\w+)(?: waves \[(\d+), (\d+)\])?(?: vec (\w+))?;",
                  cfg["source"], re.M)
    if not m:
        return None
    dt, rows, cols, pattern, wy, wx, vec = m.groups()
    waves = (int(wy), int(wx)) if wy else None
    vec = "auto" if vec in (None, "auto") else int(vec)
    return dt, int(rows), int(cols), pattern, vec, waves


# Each class: a message pattern and a function(match, cfg) that returns None when the claim holds, else why not.
def _claim_16byte(m, cfg):
    tile, vec, dt, b, total = ints(m)[:5]
    t = tile_of(cfg, tile)
    if vec * b != total or total <= 16 or gen.BYTES[dt] != b:
        return "arithmetic"
    if m.group(7):  # "at most vec N fits in 16 bytes" (no vec is legal for the tile's other rules)
        return None if int(m.group(7)) * b <= 16 < 2 * int(m.group(7)) * b else "arithmetic"
    widest = int(m.group(6))
    if widest * b > 16 or t and gen.tile_problem(t[0], t[1], t[2], t[3], widest, cfg["workgroup"], t[5]) not in (
            None, "tile-vgprs"):
        return f"the named vec {widest} is not legal"
    return None


def _claim_x0_gt(m, cfg):
    g = ints(m)
    _, n, vec, a, b, x0 = g[:6]
    return None if a == n and b == vec and n // vec == x0 and x0 > 64 else "arithmetic"


def _claim_x0_div(m, cfg):
    _, xs, vec, x0, x0b, rem = ints(m)[:6]
    return None if xs // vec == x0 == x0b and 64 % x0 == rem != 0 and xs % vec == 0 else "arithmetic"


def _claim_band(m, cfg):
    tile, h, x0, lrows, a, b, rem, xs, vec = ints(m)[:9]
    if 64 // x0 != lrows or 64 % x0 or a != h or b != lrows or h % lrows != rem or rem == 0 or xs // vec != x0:
        return "arithmetic"
    works = m.group(10)
    t = tile_of(cfg, tile)
    if works and t and gen.tile_problem(t[0], t[1], t[2], t[3], int(works), cfg["workgroup"], t[5]) not in (
            None, "tile-vgprs"):
        return f"the named vec {works} is not legal"
    return None


def _claim_rows_waves(m, cfg):
    _, rows, w, a, b, rem = ints(m)[:6]
    return None if a == rows and b == w and rows % w == rem != 0 and w == cfg["workgroup"] // 64 else "arithmetic"


def _claim_wave_grid(m, cfg):
    wy, wx, w, threads, t2, w2 = ints(m)[-6:]
    return None if wy * wx == w != w2 and threads == t2 == cfg["workgroup"] and threads // 64 == w2 else "arithmetic"


def _claim_tile_vgprs(m, cfg):
    _, b, r, per, total = ints(m)[:5]
    return None if -(-b // 4) == per and r * per == total and total > 256 else "arithmetic"


def _claim_lds(m, cfg):
    total, limit, target = int(m.group(2)), int(m.group(3)), m.group(4)
    if limit != gen.LDS_BYTES[target] or total <= limit:
        return "arithmetic"
    if cfg["kind"] == "gemm" and total != cfg["predict"]["lds"]:
        return f"LDS {total} B, but the buffers take {cfg['predict']['lds']} B"
    return None


def _claim_arch(m, cfg):
    instr, target = m.group(1), m.group(2)
    return None if instr in gen.MFMA and target not in gen.MFMA[instr]["targets"] else "instruction is available"


def _claim_acc_dtype(m, cfg):
    instr, c, acc = m.groups()[:3]
    return None if gen.MFMA[instr]["c"] == c != acc else "arithmetic"


def _claim_acc_blocks(m, cfg):
    g = ints(m)
    ph, pw, bm, bn, wy, wx, r1, r2, instr, a1, b1, c1, a2, b2, c2 = g[:15]
    r = gen.MFMA[instr]["r"]
    ok = bm // wy == ph and bn // wx == pw and r1 == r2 == r and a1 == ph and a2 == pw and b1 == b2 == r
    ok = ok and ph % r == c1 and pw % r == c2 and (c1 or c2)
    return None if ok else "arithmetic"


def _claim_k_multiple(m, cfg):
    k, ki, instr, a, b, rem = ints(m)[:6]
    return None if gen.MFMA[instr]["k"] == ki and a == k and b == ki and k % ki == rem != 0 else "arithmetic"


def _claim_fragment(m, cfg):
    _, k, pad, row, dt, rb, frag, instr = ints(m)[:8]
    mi = gen.MFMA[instr]
    ok = k + pad == row and row * gen.BYTES[dt] == rb and rb % frag != 0 and frag == mi["kpl"] * gen.BYTES[dt]
    return None if ok else "arithmetic"


def _claim_auto_none(m, cfg):
    return None if not cfg["predict"].get("aligned") or not cfg["predict"].get("candidates") else \
        f"candidates exist: {cfg['predict']['candidates']}"


def _claim_distribution(m, cfg):
    return None if "distribution" in cfg["predict"]["problems"] or cfg["predict"]["problems"] else \
        "gen.py finds the same distribution"


def _claim_vec_auto(m, cfg):
    return None if "vec-auto-none" in cfg["predict"]["problems"] else "gen.py finds a legal vec"


def _claim_row_vec(m, cfg):
    _, n, vec, a, b, rem = ints(m)[:6]
    return None if a == n and b == vec and n % vec == rem != 0 else "arithmetic"


def _claim_budget(m, cfg):
    total, room, items = int(m.group(2)), int(m.group(3)), m.group(5)
    if total <= room:
        return f"not over {room}"
    if room != 256 and not 256 < room <= 512:
        return f"a lane holds {room}"
    parts = [int(x) for x in re.findall(r"(\d+) for ", items)]
    if parts and sum(parts) != total:
        return f"items sum to {sum(parts)}, not {total}"
    return None


def _claim_operand_dtype(m, cfg):
    instr, a, b, la, lb = m.groups()
    mi = gen.MFMA[instr]
    return None if (mi["a"], mi["b"]) == (a, b) != (la, lb) else "arithmetic"


def _claim_agpr_budget(m, cfg):
    total, limit, items = int(m.group(2)), int(m.group(3)), m.group(5)
    parts = [int(x) for x in re.findall(r"(\d+) for ", items)]
    if total <= limit or limit != 256 or parts and sum(parts) != total:
        return "arithmetic"
    return None


def _claim_launch(m, cfg):
    """shared/facts/occupancy.md: a workgroup of W waves needs ceil(W / 4) per SIMD; VGPRs allow 512 // ceil8(v)."""
    waves, need, allow, vgprs = (int(m.group(i)) for i in (3, 4, 5, 6))
    ok = waves == cfg["workgroup"] // 64 and need == -(-waves // 4) and allow == min(512 // ((vgprs + 7) // 8 * 8), 8)
    return None if ok and need > allow else "arithmetic"


def _claim_budget_unaligned(m, cfg):
    """The room (256, or 512 at one wave less the accumulators' AGPRs: analysis/Occupancy.h, archVgprRoom) is the
    message's; the vector kernel fits its own, which may be larger than 256 too."""
    total, room, vector, extra = int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))
    return None if vector + extra == total > room >= 256 else "arithmetic"


CLASSES = [
    ("16-byte", r"tile '(\w+)': vec (\d+) x (\w+) \((\d+) B\) = (\d+) B exceeds the 16 bytes one lane can load; "
                r"(?:the widest legal vec here is (\d+)|at most vec (\d+) fits in 16 bytes)", _claim_16byte),
    ("vec-pow2", r"tile '(\w+)': vec (\d+) is not a power of two", None),
    ("vec-auto-none", r"tile '(\w+)': vec auto finds no legal vec", _claim_vec_auto),
    ("row-vec", r"tile '(\w+)': a (?:tile|wave's sub-tile) row of (\d+) elements is not a multiple of vec (\d+) "
                r"\((\d+) % (\d+) = (\d+)\)", _claim_row_vec),
    ("x0-gt-64", r"tile '(\w+)': a (?:tile|wave's sub-tile) row of (\d+) elements at vec (\d+) needs X0 = (\d+) / "
                 r"(\d+) = (\d+) lanes", _claim_x0_gt),
    ("x0-divides-64", r"tile '(\w+)': X0 = (\d+) / (\d+) = (\d+) lanes along a row does not divide the 64 lanes of "
                      r"a wave \(64 % (\d+) = (\d+)\)", _claim_x0_div),
    ("band-L", r"tile '(\w+)': a wave's (?:band|sub-tile) of (\d+) rows is not a multiple of L = 64 / X0 = 64 / "
               r"(\d+) = (\d+) lane-rows \((\d+) % (\d+) = (\d+); X0 = (\d+) / (\d+)\)(?:; vec (\d+) works here)?",
     _claim_band),
    ("rows-waves", r"tile '(\w+)': (\d+) rows do not split into (\d+) equal wave bands \((\d+) % (\d+) = (\d+)\)",
     _claim_rows_waves),
    ("rows-wave-grid", r"tile '(\w+)': (\d+) (?:rows|columns) do not split over a wave grid", None),
    ("wave-grid", r"(?:tile '\w+'|acc \w+): waves \[(\d+), (\d+)\] = (\d+) waves, but a workgroup of (\d+) threads "
                  r"has (\d+) / 64 = (\d+)", _claim_wave_grid),
    ("wave-grid", r"waves \[(\d+), (\d+)\] = (\d+) waves, but a workgroup of (\d+) threads has (\d+)$",
     lambda m, c: None if int(m.group(1)) * int(m.group(2)) != int(m.group(5)) else "arithmetic"),
    ("tile-vgprs", r"tile '(\w+)' needs R x ceil\((\d+) B / 4\) = (\d+) x (\d+) = (\d+) VGPRs per lane, more than "
                   r"the 256", _claim_tile_vgprs),
    ("vgpr-budget", r"kernel '(\w+)' needs about (\d+) ArchVGPRs per lane, more than the (\d+) a lane can "
                    r"(address|hold \(256 ArchVGPRs and the \d+ AGPRs its accumulators leave[^)]*\)) on "
                    r"gfx\d+: (.*)", _claim_budget),
    ("vgpr-budget-unaligned", r"kernel '(\w+)' has a fallback for rows that are not vector aligned, '\w+', which needs "
                              r"about (\d+) ArchVGPRs per lane, more than the (\d+) .*\((\d+) of the vector kernel "
                              r"\+ (\d+) for", _claim_budget_unaligned),
    ("agpr-budget", r"kernel '(\w+)' needs (\d+) AGPRs per lane for its accumulators, more than the (\d+) a lane has "
                    r"on (gfx\d+): (.*); use", _claim_agpr_budget),
    ("cannot-launch", r"kernel '(\w+)' cannot launch on (gfx\d+): one workgroup does not fit on a CU: its (\d+) waves "
                      r"need (\d+) per SIMD, the registers allow (\d+) \((\d+) VGPRs per lane\)", _claim_launch),
    ("lds-budget", r"kernel '(\w+)' needs (\d+) B of LDS per workgroup, more than the (\d+) B of a CU on (gfx\d+)",
     _claim_lds),
    ("mfma-arch", r"(v_mfma_\w+) is not available on (gfx\d+)", _claim_arch),
    ("acc-dtype", r"(v_mfma_\w+) accumulates in (\w+), but acc \w+ is (\w+)", _claim_acc_dtype),
    ("acc-dtype", r"an accumulator is f32 or i32", None),
    ("acc-blocks", r"acc \w+: each wave owns (\d+) x (\d+) \(= (\d+) x (\d+) over waves \[(\d+), (\d+)\]\), which is "
                   r"not a whole number of (\d+) x (\d+) blocks of (\S+) \((\d+) % (\d+) = (\d+), (\d+) % (\d+) = "
                   r"(\d+)\)", _claim_acc_blocks),
    ("acc-split", r"acc \w+: (\d+) x (\d+) does not split over waves", None),
    ("k-multiple", r"K = (\d+) \(the columns of \w+\) is not a multiple of the K = (\d+) of (\S+) \((\d+) % (\d+) = "
                   r"(\d+)\)", _claim_k_multiple),
    ("fragment-align", r"lds (\w+): stored rows of (\d+) \+ (\d+) pad = (\d+) (\w+) \((\d+) B\) are not a "
                       r"multiple of the (\d+)-byte fragment reads of (\S+), which", _claim_fragment),
    ("mfma-auto-none", r"mfma auto finds no instruction on (gfx\d+)", _claim_auto_none),
    ("operand-dtype", r"(v_mfma_\w+) multiplies (\w+) by (\w+), but lds \w+ is (\w+) and lds \w+ is (\w+)",
     _claim_operand_dtype),
    ("distribution", r"elementwise operations need the same distribution|are distributed differently",
     _claim_distribution),
]


COMPILED = [(name, re.compile(rx), fn) for name, rx, fn in CLASSES]


def classify(stderr, cfg):
    """The class of the first error, and failures for errors whose claim is false or that fit no class."""
    failures, first = [], None
    for line in stderr.splitlines():
        m = DIAG.match(line)
        if not m or m.group(4) != "error":
            continue
        msg = m.group(5)
        for name, rx, fn in COMPILED:
            mm = rx.search(msg)
            if mm:
                break
        else:
            name, mm, fn = "unclassified", None, None
            failures.append(("unclassified-error", [msg[:240]]))
        first = first or name
        if fn is not None:
            try:
                why = fn(mm, cfg)
            except (KeyError, ValueError, TypeError, ZeroDivisionError) as e:
                why = f"could not check ({type(e).__name__}: {e})"
            if why:
                failures.append((f"false-claim:{name}", [why, msg[:300]]))
    if first is None:
        failures.append(("exit-1-without-error", [stderr[:200]]))
        first = "none"
    return first, failures
