#!/usr/bin/env python3
"""Self-test of the differential tester's oracles: each must be able to fail.

  numerics: known codes of the four 8-bit float formats (shared/facts/mfma.md, docs/language.md), rounding ties;
  diagnostics: a located, true message passes; a wrong caret, a wrong line echo and false arithmetic are caught;
  gen: the documented examples of docs/language.md ("vec auto" on f16[32, 32] over 256 threads picks 4, f16[60, 64]
  falls back to vec 1, the default block_raked wave grids);
  gfx950 oracle (gfx950_oracle.py): each of its classes on made-up compiler metadata, with no compiler (the oracle
  itself runs with check.py --gfx950); the MX formats' values and packing (numerics.py).
Prints one line per check and exits 1 if any fails.
"""
import os
import sys
import tempfile
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diagnostics  # noqa: E402
import gen  # noqa: E402
import numerics as nx  # noqa: E402
import check  # noqa: E402
import gfx950_oracle  # noqa: E402

failed = 0


def expect(what, got, want):
    global failed
    ok = got == want
    failed += not ok
    print(f"{'ok' if ok else 'FAIL'}: {what}: {got!r}" + ("" if ok else f", want {want!r}"))


F = nx.F8_FORMATS
expect("e4m3fnuz 0x40", nx.f8_decode(0x40, F[("fp8", "gfx942")]), 1.0)
expect("e4m3fnuz max 0x7F", nx.f8_decode(0x7F, F[("fp8", "gfx942")]), 240.0)
expect("e4m3fn max 0x7E", nx.f8_decode(0x7E, F[("fp8", "gfx950")]), 448.0)
expect("e5m2fnuz 0x40", nx.f8_decode(0x40, F[("bf8", "gfx942")]), 1.0)
expect("e5m2 max 0x7B", nx.f8_decode(0x7B, F[("bf8", "gfx950")]), 57344.0)
expect("e5m2 0x7C is inf", nx.f8_decode(0x7C, F[("bf8", "gfx950")]), float("inf"))
expect("e4m3fnuz smallest subnormal", nx.f8_decode(0x01, F[("fp8", "gfx942")]), 2.0 ** -10)
expect("e4m3fnuz saturates 1000", nx.f8_encode(1000.0, F[("fp8", "gfx942")]), 0x7F)
expect("e4m3fnuz -0 is +0", nx.f8_encode(-0.0, F[("fp8", "gfx942")]), 0x00)
# 1.0625 lies halfway between 1.0 (mantissa 000) and 1.125 (001): ties go to the even code.
expect("e4m3fn tie to even", nx.f8_encode(1.0625, F[("fp8", "gfx950")]), 0x38)
expect("e4m3fn tie to even (up)", nx.f8_encode(1.1875, F[("fp8", "gfx950")]), 0x3A)
expect("bf16 round to even", nx.bf16_bits_of_f32(1.0 + 2.0 ** -8), 0x3F80)
expect("bf16 round up", nx.bf16_bits_of_f32(1.0 + 3 * 2.0 ** -9), 0x3F81)
expect("f16 overflow is inf", nx.round_f16(70000.0), float("inf"))
# The MX formats (OCP MX specification): the largest values of E2M1, E2M3, E3M2, the smallest E2M3 subnormal, a
# negative E3M2 code, and the packing of four 6-bit codes (value e at bits 6e, little endian) and of two fp4 codes.
expect("fp4 e2m1 0x7", nx.mx_value(0x7, "fp4x2"), 6.0)
expect("fp6 e2m3 0x1F", nx.mx_value(0x1F, "fp6x4"), 7.5)
expect("fp6 e2m3 0x01", nx.mx_value(0x01, "fp6x4"), 0.125)
expect("bf6 e3m2 0x1F", nx.mx_value(0x1F, "bf6x4"), 28.0)
expect("bf6 e3m2 0x2C", nx.mx_value(0x2C, "bf6x4"), -1.0)
expect("fp6x4 packing", nx.mx_pack([1, 2, 3, 4], "fp6x4").hex(), "813010")
expect("fp4x2 packing", nx.mx_pack([1, 2], "fp4x2").hex(), "21")

src = ["kernel k(X: global f16[M, N]) {", "  tile t: f16[64, 64] thread_raked vec 16;", "}"]
good = ("k.tile:2:37: error: tile 't': vec 16 x f16 (2 B) = 32 B exceeds the 16 bytes one lane can load; the widest "
        "legal vec here is 8\n" + src[1] + "\n" + " " * 36 + "^~~~~~\n")
cfg = dict(source="\n".join(src), workgroup=256, kind="copy", predict=dict(problems=["16-byte"]))
expect("located message", diagnostics.check_format(good, src, "k.tile"), [])
expect("class and true claim", diagnostics.classify(good, cfg), ("16-byte", []))
moved = good.replace(" " * 36 + "^", " " * 30 + "^")
expect("misplaced caret", [f[0] for f in diagnostics.check_format(moved, src, "k.tile")], ["caret-misplaced"])
echo = good.replace(src[1], "  tile t: f16[64, 64];")
expect("wrong source echo", [f[0] for f in diagnostics.check_format(echo, src, "k.tile")], ["no-source-line"])
false = good.replace("= 32 B", "= 24 B")
expect("false arithmetic", [f[0] for f in diagnostics.classify(false, cfg)[1]], ["false-claim:16-byte"])
wrong_vec = good.replace("is 8", "is 16")
expect("illegal vec named", [f[0] for f in diagnostics.classify(wrong_vec, cfg)[1]], ["false-claim:16-byte"])
expect("unknown message", [f[0] for f in diagnostics.classify("k.tile:1:1: error: frobnicated\n", cfg)[1]],
       ["unclassified-error"])

expect("vec auto f16[32, 32] / 256", gen.dist("f16", 32, 32, "thread_raked", "auto", 256, None)[0], 4)
expect("vec auto f16[60, 64] / 256", gen.dist("f16", 60, 64, "thread_raked", "auto", 256, None)[0], 1)
expect("block_raked default grids", [gen.wave_grid("block_raked", w, None) for w in (2, 4, 8, 16)],
       [(2, 1), (2, 2), (4, 2), (4, 4)])
expect("X0 divides 64", gen.tile_problem("f32", 16, 48, "thread_raked", 4, 64, None), "x0-divides-64")


def gfx950_classes(model_vgprs, model_occ, asm_vgprs, scratch=0, edge=False, compiled=True):
    """The failure classes gfx950_oracle.check gives one 256-thread kernel whose model says `model_vgprs` ArchVGPRs
    (no AGPRs) and `model_occ` waves, when the compiler's metadata says `asm_vgprs` and `scratch` bytes, or when
    the compile fails (not `compiled`)."""
    report = {"kernels": [{"name": "k", "workgroup_size": 256, "resources": {"vgprs": model_vgprs, "agprs": 0},
                           "occupancy": {"waves_per_simd": model_occ}, "register_edge": {"near": edge}}]}
    asm = ("amdhsa.kernels:\n  - .agpr_count: 0\n    .group_segment_fixed_size: 0\n    .name:           k\n"
           f"    .private_segment_fixed_size: {scratch}\n    .sgpr_count: 20\n    .vgpr_count: {asm_vgprs}\n")

    def fake_compile(args, hip_path, arch, out):  # check.compile_device without a compiler
        assert arch == "gfx950"
        if not compiled:
            return 1, "error: a made-up compile error"
        with open(out, "w") as f:
            f.write(asm)
        return 0, ""

    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
    args = types.SimpleNamespace(src=root, clang="clang++-22", compare_resources=check.load_compare_resources(root))
    failures, info = [], {}
    with tempfile.TemporaryDirectory() as work:
        gfx950_oracle.check(args, work, "k.hip", report, failures, info, fake_compile, check.each_kernel)
    return sorted(f[0] for f in failures)


# 512 VGPRs per SIMD lane on gfx950: 128 per lane give 4 waves, 120 too (granule 8).
expect("gfx950 oracle: agree", gfx950_classes(120, 4, 128), [])
expect("gfx950 oracle: model under", gfx950_classes(100, 4, 128), ["gfx950-model-under"])
expect("gfx950 oracle: occupancy", gfx950_classes(120, 5, 128), ["gfx950-occupancy"])
expect("gfx950 oracle: scratch", gfx950_classes(120, 4, 128, scratch=64), ["gfx950-scratch"])
expect("gfx950 oracle: scratch at the edge", gfx950_classes(120, 4, 128, scratch=64, edge=True), [])
expect("gfx950 oracle: compile error", gfx950_classes(120, 4, 128, compiled=False), ["gfx950-clang-error"])
sys.exit(1 if failed else 0)
