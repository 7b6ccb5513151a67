#!/usr/bin/env python3
"""Independent checker for `tilec --emit=layout --format=json`.

Recomputes, from the prose of the design's "Tile distribution" section (not from the compiler's sources), every
number of every register tile and the owner (workgroup thread) of every element, and compares them with what tilec
printed. Exits 0 with one "check_owner: OK ..." line, or 1 with "check_owner: FAIL ..." lines on stderr.

  W = workgroup_size / 64 waves; wave grid [Wy, Wx] = [W, 1] for thread_raked and warp_raked; for block_raked the
  declared `waves [Wy, Wx]`, or by default Wx = the largest divisor of W with Wx*Wx <= W, Wy = W / Wx.
  Wave w sits at grid row w // Wx, column w % Wx and owns an H x Xs part (H = Y / Wy, Xs = X / Wx).
  X0 = Xs / vec lanes along a row, L = 64 / X0 lane-rows, R = H / L rows per lane; thread = wave * 64 + lane.
  thread_raked: lane-row lane // X0 owns the R consecutive rows (lane // X0) * R + i.
  warp_raked, block_raked: lane owns rows (lane // X0) + i * L.
  Columns: (lane % X0) * vec .. + vec - 1.
  vec auto: the largest power of two with vec * bytes <= 16, Xs % vec == 0, X0 dividing 64, H % L == 0.

Options:
  --source FILE     the .tile file; its `workgroup` and `tile` declarations are checked against the JSON (dtype,
                    shape, pattern, explicit vec, explicit waves), and every declared tile must be in the JSON.
  --expect-tiles N  the JSON must describe exactly N tiles.
  --corrupt WHAT    self-test: damage the JSON first (owner, lanes_x, lanes_y, rows_per_lane, vec, waves_grid,
                    swap); the check must then fail.
"""
import argparse
import json
import re
import sys

WAVE = 64
MAX_ACCESS_BYTES = 16
DTYPE_BYTES = {"f32": 4, "i32": 4, "f16": 2, "bf16": 2, "i8": 1, "fp8": 1, "bf8": 1}
PATTERNS = ("thread_raked", "warp_raked", "block_raked")


class Failures:
    def __init__(self):
        self.lines = []

    def add(self, where, text):
        self.lines.append("check_owner: FAIL: %s: %s" % (where, text))


def default_grid(waves):
    wx = max(d for d in range(1, waves + 1) if waves % d == 0 and d * d <= waves)
    return [waves // wx, wx]


def vec_problem(rows, cols, nbytes, grid, vec):
    """None when `vec` is legal on `grid`, else the rule it breaks."""
    wy, wx = grid
    if vec <= 0 or vec & (vec - 1):
        return "vec %d is not a power of two" % vec
    if vec * nbytes > MAX_ACCESS_BYTES:
        return "vec %d x %d B > %d B" % (vec, nbytes, MAX_ACCESS_BYTES)
    h, xs = rows // wy, cols // wx
    if xs % vec:
        return "row part %d %% vec %d != 0" % (xs, vec)
    x0 = xs // vec
    if x0 > WAVE or WAVE % x0:
        return "X0 = %d does not divide %d" % (x0, WAVE)
    lane_rows = WAVE // x0
    if h % lane_rows:
        return "%d rows %% L = %d != 0" % (h, lane_rows)
    return None


def widest_vec(rows, cols, nbytes, grid):
    v = 1
    while v * 2 * nbytes <= MAX_ACCESS_BYTES:
        v *= 2
    while v >= 1:
        if vec_problem(rows, cols, nbytes, grid, v) is None:
            return v
        v //= 2
    return 0


def expected_owner(rows, cols, pattern, grid, vec):
    """owner[r][c], derived element by element from the prose (row/column -> wave, lane)."""
    wy, wx = grid
    h, xs = rows // wy, cols // wx
    x0 = xs // vec
    lane_rows = WAVE // x0
    rows_per_lane = h // lane_rows
    table = []
    for r in range(rows):
        grid_row, r_in = divmod(r, h)
        if pattern == "thread_raked":
            lane_row = r_in // rows_per_lane  # R consecutive rows per lane-row
        else:
            lane_row = r_in % lane_rows  # one row per lane-row per access, stepping by L
        line = []
        for c in range(cols):
            grid_col, c_in = divmod(c, xs)
            wave = grid_row * wx + grid_col
            lane = lane_row * x0 + c_in // vec
            line.append(wave * WAVE + lane)
        table.append(line)
    return table


def parse_source(path):
    """{kernel: {"workgroup": n, "tiles": {name: decl}}} from a .tile file (comments stripped)."""
    text = re.sub(r"//[^\n]*", "", open(path).read())
    kernels = {}
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"\bkernel\s+(\w+)\s*\(", text)]
    for i, (at, name) in enumerate(starts):
        body = text[at:starts[i + 1][0] if i + 1 < len(starts) else len(text)]
        wg = re.search(r"\bworkgroup\s+(\d+)\s*;", body)
        tiles = {}
        for m in re.finditer(r"\btile\s+(\w+)\s*:\s*(\w+)\s*\[\s*(\d+)\s*,\s*(\d+)\s*\]\s*(\w+)"
                             r"(?:\s+waves\s*\[\s*(\d+)\s*,\s*(\d+)\s*\])?(?:\s+vec\s+(\d+|auto))?\s*;", body):
            tiles[m.group(1)] = {
                "dtype": m.group(2),
                "shape": [int(m.group(3)), int(m.group(4))],
                "pattern": m.group(5),
                "waves": [int(m.group(6)), int(m.group(7))] if m.group(6) else None,
                "vec": None if m.group(8) in (None, "auto") else int(m.group(8)),
            }
        kernels[name] = {"workgroup": int(wg.group(1)) if wg else None, "tiles": tiles}
    return kernels


def check_tile(kernel, tile, decl, fail):
    where = "kernel %s, tile %s" % (kernel["name"], tile.get("name"))
    threads = kernel["workgroup_size"]
    if threads % WAVE or not 0 < threads <= 1024:
        fail.add(where, "workgroup_size %d is not a multiple of %d in 64..1024" % (threads, WAVE))
        return 0
    waves = threads // WAVE
    dtype, pattern = tile["dtype"], tile["pattern"]
    rows, cols = tile["shape"]
    if dtype not in DTYPE_BYTES:
        fail.add(where, "unknown dtype %s" % dtype)
        return 0
    if pattern not in PATTERNS:
        fail.add(where, "unknown pattern %s" % pattern)
        return 0
    nbytes = DTYPE_BYTES[dtype]

    if decl is not None:
        for key in ("dtype", "shape", "pattern"):
            if decl[key] != tile[key]:
                fail.add(where, "%s is %s in the JSON but %s in the source" % (key, tile[key], decl[key]))
        if (decl["vec"] is None) != bool(tile["vec_auto"]):
            fail.add(where, "vec_auto is %s but the source says vec %s"
                     % (tile["vec_auto"], "auto" if decl["vec"] is None else decl["vec"]))
        if decl["vec"] is not None and decl["vec"] != tile["vec"]:
            fail.add(where, "vec is %d but the source says vec %d" % (tile["vec"], decl["vec"]))

    # The wave grid.
    if pattern != "block_raked":
        grid = [waves, 1]
    elif decl is not None and decl["waves"] is not None:
        grid = decl["waves"]
    elif decl is not None:
        grid = default_grid(waves)
    else:
        grid = list(tile["waves_grid"])  # without the source, an explicit grid cannot be told from the default
    if grid[0] * grid[1] != waves or rows % grid[0] or cols % grid[1]:
        fail.add(where, "wave grid %s does not split %dx%d over %d waves" % (grid, rows, cols, waves))
        return 0
    if list(tile["waves_grid"]) != grid:
        fail.add(where, "waves_grid is %s, expected %s (%s over %d waves)" % (tile["waves_grid"], grid, pattern, waves))

    # vec: legal, and the widest when auto.
    vec = tile["vec"]
    problem = vec_problem(rows, cols, nbytes, grid, vec)
    if problem:
        fail.add(where, "vec %d is illegal: %s" % (vec, problem))
        return 0
    if tile["vec_auto"]:
        want = widest_vec(rows, cols, nbytes, grid)
        if vec != want:
            fail.add(where, "vec auto chose %d, expected %d" % (vec, want))

    h, xs = rows // grid[0], cols // grid[1]
    x0 = xs // vec
    lane_rows = WAVE // x0
    rows_per_lane = h // lane_rows
    numbers = {
        "lanes_x": x0, "lanes_y": lane_rows, "rows_per_lane": rows_per_lane, "accesses_per_lane": rows_per_lane,
        "elements_per_lane": rows_per_lane * vec, "bytes_per_access": vec * nbytes,
    }
    for key, want in numbers.items():
        if key in tile and tile[key] != want:
            fail.add(where, "%s = %s, expected %d (X0 = %d / %d = %d, L = 64 / %d = %d, R = %d / %d = %d)"
                     % (key, tile[key], want, xs, vec, x0, x0, lane_rows, h, lane_rows, rows_per_lane))
        elif key not in tile and key in ("lanes_x", "lanes_y", "rows_per_lane"):
            fail.add(where, "missing %s" % key)

    # The owner map, entry by entry.
    owner = tile.get("owner")
    if not isinstance(owner, list) or len(owner) != rows or any(
            not isinstance(line, list) or len(line) != cols for line in owner):
        fail.add(where, "owner is not a %d x %d array" % (rows, cols))
        return 0
    want = expected_owner(rows, cols, pattern, grid, vec)
    bad = 0
    for r in range(rows):
        for c in range(cols):
            if owner[r][c] != want[r][c]:
                bad += 1
                if bad <= 10:
                    fail.add(where, "owner[%d][%d] = %s, expected thread %d" % (r, c, owner[r][c], want[r][c]))
    if bad > 10:
        fail.add(where, "%d owner entries differ in all" % bad)
    # And the count: every thread owns R * vec elements (this holds whatever the placement).
    counts = {}
    for line in owner:
        for t in line:
            counts[t] = counts.get(t, 0) + 1
    for t in range(threads):
        if counts.get(t, 0) != rows_per_lane * vec:
            fail.add(where, "thread %d owns %d elements, expected R * vec = %d * %d = %d"
                     % (t, counts.get(t, 0), rows_per_lane, vec, rows_per_lane * vec))
            break
    extra = sorted(t for t in counts if not (isinstance(t, int) and 0 <= t < threads))
    if extra:
        fail.add(where, "owner names threads outside 0..%d: %s" % (threads - 1, extra[:5]))
    return rows * cols


def corrupt(doc, what):
    tile = doc["kernels"][0]["tiles"][0]
    if what == "owner":
        rows, cols = tile["shape"]
        r, c = rows // 2, cols // 2 + 1
        tile["owner"][r][c] = (tile["owner"][r][c] + 1) % doc["kernels"][0]["workgroup_size"]
    elif what == "swap":  # exchange two entries: the per-thread counts stay right, only the placement is wrong
        o = tile["owner"]
        rows, cols = tile["shape"]
        last = [rr for rr in range(rows) if o[rr][cols - 1] != o[0][0]][0]
        o[0][0], o[last][cols - 1] = o[last][cols - 1], o[0][0]
    elif what == "waves_grid":
        tile["waves_grid"] = list(reversed(tile["waves_grid"])) if tile["waves_grid"][0] != tile["waves_grid"][1] \
            else [tile["waves_grid"][0] * 2, tile["waves_grid"][1] // 2]
    else:
        tile[what] = tile[what] * 2


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json", nargs="?", help="tilec's JSON (default: stdin)")
    ap.add_argument("--source")
    ap.add_argument("--expect-tiles", type=int)
    ap.add_argument("--corrupt", choices=["owner", "swap", "lanes_x", "lanes_y", "rows_per_lane", "vec", "waves_grid"])
    args = ap.parse_args()

    text = open(args.json).read() if args.json else sys.stdin.read()
    try:
        doc = json.loads(text)
    except ValueError as e:
        print("check_owner: FAIL: input is not JSON (%s): %r" % (e, text[:200]), file=sys.stderr)
        return 1
    fail = Failures()
    kernels = doc.get("kernels") or []
    if args.corrupt:
        if not kernels or not kernels[0].get("tiles"):
            print("check_owner: FAIL: nothing to corrupt", file=sys.stderr)
            return 1
        corrupt(doc, args.corrupt)
    source = parse_source(args.source) if args.source else None

    tiles = elements = 0
    for k in kernels:
        decls = None
        if source is not None:
            if k["name"] not in source:
                fail.add("kernel %s" % k["name"], "not in the source")
            else:
                decls = source[k["name"]]
                if decls["workgroup"] != k["workgroup_size"]:
                    fail.add("kernel %s" % k["name"], "workgroup_size %d, the source says %s"
                             % (k["workgroup_size"], decls["workgroup"]))
                missing = set(decls["tiles"]) - {t["name"] for t in k["tiles"]}
                if missing:
                    fail.add("kernel %s" % k["name"], "declared tiles missing from the JSON: %s" % sorted(missing))
        for t in k["tiles"]:
            tiles += 1
            decl = None
            if decls is not None:
                decl = decls["tiles"].get(t["name"])
                if decl is None:
                    fail.add("kernel %s, tile %s" % (k["name"], t["name"]), "not declared in the source")
            elements += check_tile(k, t, decl, fail)
    if tiles == 0:
        fail.add("input", "no tiles to check")
    if args.expect_tiles is not None and tiles != args.expect_tiles:
        fail.add("input", "%d tiles, expected %d" % (tiles, args.expect_tiles))

    if fail.lines:
        for line in fail.lines:
            print(line, file=sys.stderr)
        print("check_owner: %d problem(s)" % len(fail.lines), file=sys.stderr)
        return 1
    print("check_owner: OK: %d kernels, %d tiles, %d owner entries" % (len(kernels), tiles, elements))
    return 0


if __name__ == "__main__":
    sys.exit(main())
