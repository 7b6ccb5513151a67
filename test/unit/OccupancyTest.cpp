//===- OccupancyTest.cpp - The occupancy calculator against hand-worked cases -===//
//
// Every expected number below was worked out by hand from ../shared/facts/occupancy.md; the arithmetic is written
// next to each row. None was copied from the program's output.
//
// The facts, as used here (gfx942 = MI300X/CDNA3, gfx950 = MI355X/CDNA4; both: wave 64, 4 SIMDs per CU, at most 8
// waves per SIMD, 512 unified ArchVGPR+AccVGPR entries per lane with at most 256 of each, VGPR granule 8, 6 reserved
// SGPRs, barrier slots 16, workgroups up to 1024 threads):
//   VGPRs:  total = ceil4(arch) + agprs when agprs > 0, else arch;
//           waves_v = 8 if total < 8 else min(max(512 / ceil8(total), 1), 8)
//           breakpoints <=64 -> 8, <=72 -> 7, <=80 -> 6, <=96 -> 5, <=128 -> 4, <=168 -> 3, <=256 -> 2, <=512 -> 1
//   SGPRs:  waves_s = 8 if explicit + 6 <= 100 else 7
//   slots:  n = ceil(workgroup / 64); max_wg = 32 if n == 1 else min(32 / n, 16)
//   LDS:    groups = LDS_per_CU / ceil_granule(lds)  (gfx942: 65536 B, granule 512 B; gfx950: 163840 B, granule 1280 B)
//           waves_l = min(ceil(min(groups, max_wg) * n / 4), 8); LDS above the CU's cannot launch at all
//   result: min(waves_v, waves_s, waves_l); the resource giving it is the limiter.
// The calculator keeps the slot limit apart from the LDS limit: Occupancy::workgroupLimit = min(ceil(max_wg * n / 4),
// 8) and Occupancy::ldsLimit = min(ceil(groups * n / 4), 8) (LDS alone). min(ldsLimit, workgroupLimit) is exactly the
// facts' waves_l (ceil and min are monotonic), so the result is the facts' result; ldsLimit equals the facts' waves_l
// only when groups <= max_wg, and only such rows compare it.
//
// waves_per_cu is not in the facts; Occupancy.h defines it as whole workgroups resident on a CU:
//   resident = min(max_wg, groups, max(4 * min(waves_v, waves_s) / n, 1)); waves_per_cu = min(resident * n,
//   4 * waves_per_simd).
// A workgroup must be resident as a whole, so one whose ceil(n / 4) waves per SIMD exceed what its registers allow
// cannot launch (Occupancy.h: "launchable: false when one workgroup does not fit (LDS, registers)").
//
// Seed 001 (MI355X occupancy guide). Used, because they agree with the facts:
//   - 256 CUs on MI355X; 64-lane waves; "a 256-thread workgroup = 4 wavefronts"; 8 waves per SIMD = 32 per CU;
//   - 512 VGPRs per lane, ArchVGPR and AccVGPR unified, up to 256 of each (so 256 + 256 = 512 is legal, 1 wave);
//   - LDS is per CU: 160 KiB (163840 B) on CDNA4 against 64 KiB (65536 B) on CDNA3; VGPRs are per SIMD.
// Wrong in the seed (not used):
//   - `MAX_VGPR_PER_SIMD = 8 * 64 * 512` multiplies the 512-entry per-lane file by the 8 wave slots, so its
//     `vgpr_limit = MAX_VGPR_PER_SIMD / (vgpr_used * 64)` = 4096 / vgpr_used is 8 times too high (128 VGPRs -> 32
//     "waves" instead of 4), has no granule of 8, no floor and no cap at 8 waves;
//   - `lds_limit = MAX_LDS_PER_CU / lds_used` is workgroups per CU, not waves per SIMD (it mixes units in the min),
//     ignores the LDS granule (1280 B on gfx950) and the workgroup slots, and is a float division;
//   - "accumulators only spill into the dedicated pool": on CDNA3/CDNA4 there is no separate pool, the file is unified;
//   - the guide never adds the ArchVGPR alignment to 4 before the AGPRs, nor the 6 reserved SGPRs.
//
//===----------------------------------------------------------------------===//
#include "analysis/Occupancy.h"
#include "target/Target.h"
#include <gtest/gtest.h>
#include <regex>
#include <string>
#include <vector>

using namespace tilec;

namespace {

const Target &gfx942() { return *lookupTarget("gfx942"); }
const Target &gfx950() { return *lookupTarget("gfx950"); }

KernelResources res(unsigned arch, unsigned agprs, unsigned sgprs, unsigned lds, unsigned workgroup) {
  KernelResources r;
  r.archVgprs = arch;
  r.agprs = agprs;
  r.sgprs = sgprs;
  r.ldsBytes = lds;
  r.workgroupSize = workgroup;
  return r;
}

/// The line of `lines` containing `needle`, as an assertion with every line in the message when none does.
::testing::AssertionResult hasLine(const std::vector<std::string> &lines, const std::string &needle) {
  for (const std::string &line : lines)
    if (line.find(needle) != std::string::npos) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure() << "no line contains \"" << needle << "\"; lines:";
  for (const std::string &line : lines) failure << "\n  " << line;
  return failure;
}

/// The number captured by `pattern` (one group) in the only hint matching it; 0 (and a test failure) if none.
unsigned numberInHint(const Occupancy &o, const std::string &pattern) {
  std::regex re(pattern);
  for (const std::string &hint : o.hints) {
    std::smatch m;
    if (std::regex_search(hint, m, re)) return static_cast<unsigned>(std::stoul(m[1].str()));
  }
  ADD_FAILURE() << "no hint matches /" << pattern << "/; " << o.hints.size() << " hint(s)";
  for (const std::string &hint : o.hints) ADD_FAILURE() << "  hint: " << hint;
  return 0;
}

/// The LDS size an LDS hint suggests ("32 KiB or less", "12800 B or less"), in bytes.
unsigned hintBytes(const Occupancy &o) {
  std::regex re(R"((\d+) (KiB|B) or less would allow)");
  for (const std::string &hint : o.hints) {
    std::smatch m;
    if (std::regex_search(hint, m, re))
      return static_cast<unsigned>(std::stoul(m[1].str())) * (m[2].str() == "KiB" ? 1024u : 1u);
  }
  ADD_FAILURE() << "no LDS hint";
  return 0;
}

const char *name(const Target &t) { return t.name.data(); }

} // namespace

//===----------------------------------------------------------------------===//
// VGPRs
//===----------------------------------------------------------------------===//

TEST(OccupancyTest, VgprBreakpointsOfWavesForVgprs) {
  struct Row { unsigned total, waves; };
  const Row rows[] = {
      {0, 8},   // 0 < 8 -> 8
      {1, 8},   // 1 < 8 -> 8
      {7, 8},   // 7 < 8 -> 8
      {8, 8},   // ceil8 = 8; 512 / 8 = 64 -> min(64, 8) = 8
      {64, 8},  // 512 / 64 = 8
      {65, 7},  // ceil8 = 72; 512 / 72 = 7.1 -> 7
      {72, 7},  // 512 / 72 = 7.1 -> 7
      {73, 6},  // ceil8 = 80; 512 / 80 = 6.4 -> 6
      {80, 6},  // 512 / 80 = 6.4 -> 6
      {81, 5},  // ceil8 = 88; 512 / 88 = 5.8 -> 5
      {96, 5},  // 512 / 96 = 5.3 -> 5
      {97, 4},  // ceil8 = 104; 512 / 104 = 4.9 -> 4
      {128, 4}, // 512 / 128 = 4
      {129, 3}, // ceil8 = 136; 512 / 136 = 3.8 -> 3
      {168, 3}, // 512 / 168 = 3.05 -> 3
      {169, 2}, // ceil8 = 176; 512 / 176 = 2.9 -> 2
      {176, 2}, // 512 / 176 = 2.9 -> 2
      {256, 2}, // 512 / 256 = 2
      {257, 1}, // ceil8 = 264; 512 / 264 = 1.9 -> 1
      {512, 1}, // 512 / 512 = 1
  };
  for (const Target *t : {&gfx942(), &gfx950()})
    for (const Row &row : rows) EXPECT_EQ(wavesForVgprs(*t, row.total), row.waves) << name(*t) << " total " << row.total;
}

TEST(OccupancyTest, VgprBreakpointsThroughComputeOccupancy) {
  // Everything else is small: 0 SGPRs (6 <= 100 -> 8), no LDS (-> 8), 64 threads (n = 1, 32 slots -> 32 / 4 = 8),
  // so the VGPRs alone decide. Totals above 256 need AGPRs (at most 256 ArchVGPRs).
  // fit = the largest total allowing one more wave, as the hint should say it: 512 / (waves + 1) rounded down to 8.
  struct Row { unsigned arch, agprs, total, allocated, waves, fit; };
  const Row rows[] = {
      {1, 0, 1, 8, 8, 0},         // 1 < 8 -> 8 waves; allocated ceil8(1) = 8
      {7, 0, 7, 8, 8, 0},         // 7 < 8 -> 8
      {8, 0, 8, 8, 8, 0},         // 512 / 8 -> 8
      {64, 0, 64, 64, 8, 0},      // 512 / 64 = 8
      {65, 0, 65, 72, 7, 64},     // 512 / 72 = 7.1 -> 7; 512 / 8 = 64 -> 64
      {72, 0, 72, 72, 7, 64},     // 7; fit 64
      {73, 0, 73, 80, 6, 72},     // 512 / 80 = 6.4 -> 6; 512 / 7 = 73.1 -> 72
      {80, 0, 80, 80, 6, 72},     // 6; fit 72
      {81, 0, 81, 88, 5, 80},     // 512 / 88 = 5.8 -> 5; 512 / 6 = 85.3 -> 80
      {96, 0, 96, 96, 5, 80},     // 512 / 96 = 5.3 -> 5; fit 80
      {97, 0, 97, 104, 4, 96},    // 512 / 104 = 4.9 -> 4; 512 / 5 = 102.4 -> 96
      {128, 0, 128, 128, 4, 96},  // 4; fit 96
      {129, 0, 129, 136, 3, 128}, // 512 / 136 = 3.8 -> 3; 512 / 4 = 128
      {168, 0, 168, 168, 3, 128}, // 512 / 168 = 3.05 -> 3; fit 128
      {169, 0, 169, 176, 2, 168}, // 512 / 176 = 2.9 -> 2; 512 / 3 = 170.7 -> 168
      {176, 0, 176, 176, 2, 168}, // 2; fit 168
      {256, 0, 256, 256, 2, 168}, // 512 / 256 = 2; fit 168
      {253, 1, 257, 264, 1, 256}, // ceil4(253) = 256, + 1 = 257; ceil8 = 264; 512 / 264 = 1.9 -> 1; 512 / 2 = 256
      {256, 256, 512, 512, 1, 256}, // 256 + 256 = 512 (the whole file, seed 001 too); 512 / 512 = 1; fit 256
  };
  for (const Target *t : {&gfx942(), &gfx950()}) {
    for (const Row &row : rows) {
      SCOPED_TRACE(std::string(name(*t)) + " arch " + std::to_string(row.arch) + " acc " + std::to_string(row.agprs));
      Occupancy o = computeOccupancy(*t, res(row.arch, row.agprs, 0, 0, 64));
      EXPECT_TRUE(o.launchable);
      EXPECT_EQ(o.totalVgprs, row.total);
      EXPECT_EQ(o.allocatedVgprs, row.allocated);
      EXPECT_EQ(o.vgprLimit, row.waves);
      EXPECT_EQ(o.wavesPerSimd, row.waves);
      // n = 1: resident = min(32, none, 4 * waves / 1) = 4 * waves -> waves per CU 4 * waves.
      EXPECT_EQ(o.wavesPerCU, 4 * row.waves);
      if (row.waves == 8) {
        EXPECT_EQ(o.limiter, Limiter::None);
        EXPECT_TRUE(o.hints.empty()) << o.hints.front();
        continue;
      }
      EXPECT_EQ(o.limiter, Limiter::VGPR);
      std::string hint = std::to_string(row.total) + " VGPRs per lane allow " + std::to_string(row.waves) +
                         (row.waves == 1 ? " wave" : " waves") + " per SIMD; " + std::to_string(row.fit) +
                         " or fewer would allow " + std::to_string(row.waves + 1);
      EXPECT_TRUE(hasLine(o.hints, hint));
      // The suggested total, recomputed (as ArchVGPRs alone: every fit is <= 256), gives exactly one more wave;
      // one VGPR more does not (the hint names the largest total: 65, 73, 81, 97, 129, 169, 257 are the rows above).
      unsigned fit = numberInHint(o, R"((\d+) or fewer would allow)");
      EXPECT_EQ(fit, row.fit);
      EXPECT_EQ(computeOccupancy(*t, res(fit, 0, 0, 0, 64)).wavesPerSimd, row.waves + 1);
      EXPECT_EQ(wavesForVgprs(*t, fit + 1), row.waves);
    }
  }
}

TEST(OccupancyTest, ArchVgprsAreAlignedToFourBeforeTheAgprs) {
  // "unaligned" is what one would get without the alignment: the rows marked * tell the two apart.
  struct Row { unsigned arch, agprs, total, allocated, waves; };
  const Row rows[] = {
      {97, 32, 132, 136, 3},  // ceil4(97) = 100, + 32 = 132; ceil8 = 136; 512 / 136 = 3.8 -> 3 (unaligned 129: also 3)
      {93, 4, 100, 104, 4},   // ceil4(93) = 96, + 4 = 100; ceil8 = 104; 512 / 104 = 4.9 -> 4 (unaligned 97: also 4)
      {93, 3, 99, 104, 4},    // * 96 + 3 = 99 -> 104 -> 4; unaligned 93 + 3 = 96 would give 5
      {97, 31, 131, 136, 3},  // * 100 + 31 = 131 -> 136 -> 3; unaligned 97 + 31 = 128 would give 4
      {61, 3, 67, 72, 7},     // * 64 + 3 = 67 -> 72 -> 512 / 72 = 7; unaligned 64 would give 8
      {96, 64, 160, 160, 3},  // 96 is aligned: 96 + 64 = 160; 512 / 160 = 3.2 -> 3
      {1, 1, 5, 8, 8},        // 4 + 1 = 5 < 8 -> 8
      {0, 4, 4, 8, 8},        // 0 + 4 = 4 < 8 -> 8
      {97, 0, 97, 104, 4},    // no AGPRs, no alignment: total stays 97 (not 100); 104 -> 4
      {61, 0, 61, 64, 8},     // no AGPRs: 61 -> 64 -> 8
  };
  for (const Target *t : {&gfx942(), &gfx950()}) {
    for (const Row &row : rows) {
      SCOPED_TRACE(std::string(name(*t)) + " arch " + std::to_string(row.arch) + " acc " + std::to_string(row.agprs));
      Occupancy o = computeOccupancy(*t, res(row.arch, row.agprs, 0, 0, 64));
      EXPECT_EQ(o.totalVgprs, row.total);
      EXPECT_EQ(o.allocatedVgprs, row.allocated);
      EXPECT_EQ(o.vgprLimit, row.waves);
      EXPECT_EQ(o.wavesPerSimd, row.waves);
      EXPECT_EQ(wavesForVgprs(*t, row.total), row.waves);
    }
  }
}

//===----------------------------------------------------------------------===//
// SGPRs
//===----------------------------------------------------------------------===//

TEST(OccupancyTest, SgprsMatterOnlyPast94Explicit) {
  // 32 ArchVGPRs (512 / 32 = 16 -> 8), no LDS, 256 threads (n = 4, 8 slots -> 32 / 4 = 8): SGPRs alone decide.
  struct Row { unsigned sgprs, withReserved, waves, perCU; Limiter limiter; };
  const Row rows[] = {
      {0, 6, 8, 32, Limiter::None},     // 0 + 6 = 6 <= 100 -> 8; resident min(8, -, 4 * 8 / 4 = 8) = 8 x 4 = 32
      {94, 100, 8, 32, Limiter::None},  // 94 + 6 = 100 <= 100 -> 8
      {95, 101, 7, 28, Limiter::SGPR},  // 95 + 6 = 101 > 100 -> 7; resident min(8, -, 4 * 7 / 4 = 7) = 7 x 4 = 28
      {96, 102, 7, 28, Limiter::SGPR},  // 102 > 100 -> 7
      {102, 108, 7, 28, Limiter::SGPR}, // 108 > 100 -> 7 (the rule has no step below 7)
  };
  for (const Target *t : {&gfx942(), &gfx950()}) {
    for (const Row &row : rows) {
      SCOPED_TRACE(std::string(name(*t)) + " sgprs " + std::to_string(row.sgprs));
      Occupancy o = computeOccupancy(*t, res(32, 0, row.sgprs, 0, 256));
      EXPECT_EQ(o.sgprsWithReserved, row.withReserved);
      EXPECT_EQ(o.sgprLimit, row.waves);
      EXPECT_EQ(o.wavesPerSimd, row.waves);
      EXPECT_EQ(o.wavesPerCU, row.perCU);
      EXPECT_EQ(o.limiter, row.limiter);
    }
  }
}

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

TEST(OccupancyTest, LdsGranuleAndWorkgroupsPerCU) {
  // 32 ArchVGPRs (-> 8), no SGPRs (-> 8), so LDS and slots decide. waves = min(ceil(min(groups, slots) * n / 4), 8).
  // perCU = min(slots, groups, 4 * 8 / n) * n.
  struct Row {
    const char *target;
    unsigned lds, workgroup, allocated, groups, waves, perCU;
    Limiter limiter;
  };
  const Row rows[] = {
      // gfx942: 65536 B per CU, granule 512 B.
      {"gfx942", 1, 64, 512, 128, 8, 32, Limiter::None},
      //   1 -> 512; 65536 / 512 = 128; n = 1, slots 32: ceil(min(128, 32) * 1 / 4) = 8; 32 x 1 = 32 per CU
      {"gfx942", 2048, 64, 2048, 32, 8, 32, Limiter::None},
      //   2048 = 4 x 512; 65536 / 2048 = 32; ceil(32 / 4) = 8; 32 per CU
      {"gfx942", 2560, 64, 2560, 25, 7, 25, Limiter::LDS},
      //   2560 = 5 x 512; 65536 / 2560 = 25.6 -> 25; ceil(25 / 4) = 7; 25 per CU
      {"gfx942", 13000, 64, 13312, 4, 1, 4, Limiter::LDS},
      //   13000 / 512 = 25.4 -> 26 x 512 = 13312; 65536 / 13312 = 4.9 -> 4; ceil(4 / 4) = 1; 4 per CU.
      //   (clang's unrounded figure: 65536 / 13000 = 5.04 -> 5 -> 2 waves: the FIXME of the facts)
      {"gfx942", 16385, 64, 16896, 3, 1, 3, Limiter::LDS},
      //   16385 / 512 = 32.002 -> 33 x 512 = 16896; 65536 / 16896 = 3.9 -> 3; n = 1: ceil(3 / 4) = 1; 3 per CU
      {"gfx942", 16385, 128, 16896, 3, 2, 6, Limiter::LDS},
      //   3 groups; n = 2: ceil(3 x 2 / 4) = ceil(1.5) = 2; 3 x 2 = 6 per CU
      {"gfx942", 16385, 256, 16896, 3, 3, 12, Limiter::LDS},
      //   3 groups; n = 4: ceil(3 x 4 / 4) = 3; 12 per CU
      {"gfx942", 32768, 256, 32768, 2, 2, 8, Limiter::LDS},
      //   32768 = 64 x 512; 65536 / 32768 = 2; ceil(2 x 4 / 4) = 2; 8 per CU
      {"gfx942", 32769, 64, 33280, 1, 1, 1, Limiter::LDS},
      //   32769 / 512 = 64.002 -> 65 x 512 = 33280; 65536 / 33280 = 1.97 -> 1; ceil(1 / 4) = 1; 1 per CU
      {"gfx942", 32769, 256, 33280, 1, 1, 4, Limiter::LDS},
      //   1 group; n = 4: ceil(4 / 4) = 1; 4 per CU
      {"gfx942", 40960, 256, 40960, 1, 1, 4, Limiter::LDS},
      //   40960 = 80 x 512; 65536 / 40960 = 1.6 -> 1; 1 wave; 4 per CU
      {"gfx942", 65536, 1024, 65536, 1, 4, 16, Limiter::LDS},
      //   the whole CU: 1 group; n = 16, slots min(32 / 16, 16) = 2: ceil(min(1, 2) x 16 / 4) = 4; 16 per CU
      {"gfx942", 8192, 192, 8192, 8, 6, 24, Limiter::LDS},
      //   65536 / 8192 = 8; n = 3, slots 32 / 3 = 10: ceil(min(8, 10) x 3 / 4) = ceil(6) = 6; 24 per CU
      {"gfx942", 4096, 192, 4096, 16, 8, 30, Limiter::None},
      //   65536 / 4096 = 16; slots 10: ceil(min(16, 10) x 3 / 4) = ceil(7.5) = 8; min(10, 16, 32 / 3 = 10) x 3 = 30
      // gfx950: 163840 B per CU, granule 1280 B.
      {"gfx950", 1, 64, 1280, 128, 8, 32, Limiter::None},
      //   1 -> 1280; 163840 / 1280 = 128; ceil(min(128, 32) / 4) = 8; 32 per CU
      {"gfx950", 6400, 64, 6400, 25, 7, 25, Limiter::LDS},
      //   6400 = 5 x 1280; 163840 / 6400 = 25.6 -> 25; ceil(25 / 4) = 7; 25 per CU
      {"gfx950", 32768, 256, 33280, 4, 4, 16, Limiter::LDS},
      //   32768 / 1280 = 25.6 -> 26 x 1280 = 33280; 163840 / 33280 = 4.9 -> 4; ceil(4 x 4 / 4) = 4; 16 per CU
      //   (unrounded: 163840 / 32768 = 5 -> 5 waves; the granule costs a wave here)
      {"gfx950", 40960, 64, 40960, 4, 1, 4, Limiter::LDS},
      //   40960 = 32 x 1280; 163840 / 40960 = 4; n = 1: ceil(4 / 4) = 1; 4 per CU
      {"gfx950", 40960, 256, 40960, 4, 4, 16, Limiter::LDS},
      //   4 groups; n = 4: ceil(16 / 4) = 4; 16 per CU
      {"gfx950", 65536, 256, 66560, 2, 2, 8, Limiter::LDS},
      //   65536 / 1280 = 51.2 -> 52 x 1280 = 66560; 163840 / 66560 = 2.46 -> 2; ceil(8 / 4) = 2; 8 per CU
      {"gfx950", 81920, 256, 81920, 2, 2, 8, Limiter::LDS},
      //   81920 = 64 x 1280; 163840 / 81920 = 2; 2 waves; 8 per CU
      {"gfx950", 81921, 256, 83200, 1, 1, 4, Limiter::LDS},
      //   81921 / 1280 = 64.0008 -> 65 x 1280 = 83200; 163840 / 83200 = 1.97 -> 1; 1 wave; 4 per CU
      {"gfx950", 163840, 1024, 163840, 1, 4, 16, Limiter::LDS},
      //   160 KiB, the whole CU (seed 001): 1 group; n = 16: ceil(1 x 16 / 4) = 4; 16 per CU
  };
  for (const Row &row : rows) {
    const Target &t = *lookupTarget(row.target);
    SCOPED_TRACE(std::string(row.target) + " lds " + std::to_string(row.lds) + " workgroup " +
                 std::to_string(row.workgroup));
    Occupancy o = computeOccupancy(t, res(32, 0, 0, row.lds, row.workgroup));
    EXPECT_TRUE(o.launchable);
    EXPECT_EQ(o.ldsAllocated, row.allocated);
    EXPECT_EQ(o.ldsWorkgroupsPerCU, row.groups);
    if (row.groups <= o.maxWorkgroupsPerCU) {
      EXPECT_EQ(o.ldsLimit, row.waves);
    }
    EXPECT_EQ(o.wavesPerSimd, row.waves);
    EXPECT_EQ(o.wavesPerCU, row.perCU);
    EXPECT_EQ(o.limiter, row.limiter);
  }
}

TEST(OccupancyTest, LdsAboveTheCUCannotLaunch) {
  struct Row { const char *target; unsigned lds, allocated; };
  const Row rows[] = {
      {"gfx942", 65537, 66048},   // 65537 / 512 = 128.002 -> 129 x 512 = 66048 > 65536
      {"gfx942", 100000, 100352}, // 100000 / 512 = 195.3 -> 196 x 512 = 100352 > 65536
      {"gfx950", 163841, 165120}, // 163841 / 1280 = 128.0008 -> 129 x 1280 = 165120 > 163840
  };
  for (const Row &row : rows) {
    SCOPED_TRACE(std::string(row.target) + " lds " + std::to_string(row.lds));
    Occupancy o = computeOccupancy(*lookupTarget(row.target), res(32, 0, 0, row.lds, 256));
    EXPECT_FALSE(o.launchable);
    EXPECT_EQ(o.ldsAllocated, row.allocated);
    EXPECT_EQ(o.ldsWorkgroupsPerCU, 0u);
    EXPECT_EQ(o.wavesPerSimd, 0u) << "an error, not occupancy 1";
    EXPECT_EQ(o.wavesPerCU, 0u);
    EXPECT_TRUE(o.hints.empty());
    EXPECT_TRUE(hasLine(o.derivation, "occupancy: 0, one workgroup does not fit on a CU"));
  }
  // The exact CU sizes still launch (rows of LdsGranuleAndWorkgroupsPerCU).
  EXPECT_TRUE(computeOccupancy(gfx942(), res(32, 0, 0, 65536, 256)).launchable);
  EXPECT_TRUE(computeOccupancy(gfx950(), res(32, 0, 0, 163840, 256)).launchable);
  // 65537 B fits on gfx950: 65537 / 1280 = 51.2 -> 52 x 1280 = 66560; 163840 / 66560 = 2 -> ceil(2 x 4 / 4) = 2.
  EXPECT_EQ(computeOccupancy(gfx950(), res(32, 0, 0, 65537, 256)).wavesPerSimd, 2u);
}

//===----------------------------------------------------------------------===//
// Workgroup slots
//===----------------------------------------------------------------------===//

TEST(OccupancyTest, WorkgroupSlots) {
  // 32 ArchVGPRs, no SGPRs, no LDS: only the slots limit. perCU = min(slots, 4 x 8 / n) x n.
  struct Row { unsigned workgroup, n, slots, waves, perCU; Limiter limiter; };
  const Row rows[] = {
      {64, 1, 32, 8, 32, Limiter::None},         // n = 1 -> 32 slots; 32 x 1 / 4 = 8
      {100, 2, 16, 8, 32, Limiter::None},        // ceil(100 / 64) = 2; min(32 / 2, 16) = 16; 32 / 4 = 8
      {128, 2, 16, 8, 32, Limiter::None},        // min(16, 16) = 16; 16 x 2 = 32 -> 8
      {192, 3, 10, 8, 30, Limiter::None},        // min(32 / 3 = 10, 16) = 10; 30 waves -> ceil(7.5) = 8; 30 per CU
      {256, 4, 8, 8, 32, Limiter::None},         // seed 001: 256 threads = 4 waves; 32 / 4 = 8; 32 -> 8
      {448, 7, 4, 7, 28, Limiter::Workgroups},   // 32 / 7 = 4; 28 waves -> 7
      {576, 9, 3, 7, 27, Limiter::Workgroups},   // 32 / 9 = 3; 27 -> ceil(6.75) = 7
      {704, 11, 2, 6, 22, Limiter::Workgroups},  // 32 / 11 = 2; 22 -> ceil(5.5) = 6
      {768, 12, 2, 6, 24, Limiter::Workgroups},  // 32 / 12 = 2; 24 -> 6
      {832, 13, 2, 7, 26, Limiter::Workgroups},  // 32 / 13 = 2; 26 -> ceil(6.5) = 7
      {1024, 16, 2, 8, 32, Limiter::None},       // 32 / 16 = 2; 32 -> 8
  };
  for (const Target *t : {&gfx942(), &gfx950()}) {
    for (const Row &row : rows) {
      SCOPED_TRACE(std::string(name(*t)) + " workgroup " + std::to_string(row.workgroup));
      Occupancy o = computeOccupancy(*t, res(32, 0, 0, 0, row.workgroup));
      EXPECT_EQ(o.wavesPerWorkgroup, row.n);
      EXPECT_EQ(o.maxWorkgroupsPerCU, row.slots);
      EXPECT_EQ(o.workgroupLimit, row.waves);
      EXPECT_EQ(o.wavesPerSimd, row.waves);
      EXPECT_EQ(o.wavesPerCU, row.perCU);
      EXPECT_EQ(o.limiter, row.limiter);
      if (row.waves == 8) {
        EXPECT_TRUE(o.hints.empty());
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Limiter, waves per CU, launchability with several resources
//===----------------------------------------------------------------------===//

TEST(OccupancyTest, LimiterAndWavesPerCU) {
  struct Row {
    const char *target;
    unsigned arch, agprs, sgprs, lds, workgroup;
    unsigned waves, perCU;
    Limiter limiter;
  };
  const Row rows[] = {
      {"gfx942", 96, 64, 20, 0, 256, 3, 12, Limiter::VGPR},
      //   160 -> 3; sgpr 8; slots 8 -> 8; resident min(8, -, 4 x 3 / 4 = 3) = 3 x 4 = 12
      {"gfx942", 96, 0, 0, 16385, 256, 3, 12, Limiter::LDS},
      //   96 -> 5; LDS 16896 -> 3 groups x 4 waves -> 3; min(5, 8, 8, 3) = 3, by LDS;
      //   resident min(8, 3, 4 x 5 / 4 = 5) = 3 x 4 = 12
      {"gfx942", 64, 0, 95, 0, 192, 7, 27, Limiter::SGPR},
      //   vgpr 8, sgpr 101 -> 7, n = 3 slots 10 -> 8; resident min(10, -, 4 x 7 / 3 = 9) = 9 x 3 = 27
      {"gfx950", 128, 0, 10, 40960, 64, 1, 4, Limiter::LDS},
      //   vgpr 4; 163840 / 40960 = 4 groups x 1 wave -> ceil(4 / 4) = 1; resident min(32, 4, 16) = 4 -> 4 per CU
      {"gfx950", 72, 0, 0, 0, 448, 7, 28, Limiter::VGPR},
      //   72 -> 7; n = 7, slots 4 -> 28 -> 7: tie, VGPR named first; resident min(4, -, 28 / 7 = 4) = 4 x 7 = 28
      {"gfx942", 40, 0, 0, 0, 768, 6, 24, Limiter::Workgroups},
      //   512 / 40 = 12.8 -> 8; n = 12, slots 2 -> 24 -> 6; resident min(2, -, 32 / 12 = 2) = 2 x 12 = 24
      {"gfx942", 96, 0, 0, 0, 768, 5, 12, Limiter::VGPR},
      //   96 -> 5; slots 2 -> 6; min = 5 (the facts). Whole workgroups: 4 x 5 = 20 wave slots per CU hold one
      //   workgroup of 12 (two need 24), so 12 waves per CU (facts' per-SIMD figure is an upper bound here)
      {"gfx942", 128, 0, 0, 0, 1024, 4, 16, Limiter::VGPR},
      //   128 -> 4; n = 16 needs ceil(16 / 4) = 4 per SIMD: fits exactly; slots 2 -> 8; resident min(2, -, 16 / 16 = 1)
      //   = 1 x 16 = 16
  };
  for (const Row &row : rows) {
    SCOPED_TRACE(std::string(row.target) + " arch " + std::to_string(row.arch) + " acc " + std::to_string(row.agprs) +
                 " sgprs " + std::to_string(row.sgprs) + " lds " + std::to_string(row.lds) + " workgroup " +
                 std::to_string(row.workgroup));
    Occupancy o = computeOccupancy(*lookupTarget(row.target), res(row.arch, row.agprs, row.sgprs, row.lds, row.workgroup));
    EXPECT_TRUE(o.launchable);
    EXPECT_EQ(o.wavesPerSimd, row.waves);
    EXPECT_EQ(o.wavesPerCU, row.perCU);
    EXPECT_EQ(o.limiter, row.limiter);
    EXPECT_STREQ(limiterName(o.limiter).str().c_str(),
                 row.limiter == Limiter::VGPR ? "vgpr"
                 : row.limiter == Limiter::SGPR ? "sgpr"
                 : row.limiter == Limiter::LDS ? "lds"
                 : row.limiter == Limiter::Workgroups ? "workgroups" : "none");
  }
}

TEST(OccupancyTest, RegistersBeyondTheFileCannotLaunch) {
  struct Row { unsigned arch, agprs, workgroup; };
  const Row rows[] = {
      {257, 0, 64},   // 257 ArchVGPRs > 256 addressable
      {0, 257, 64},   // 257 AGPRs > 256
      {257, 256, 64}, // both over
      {96, 64, 1024}, // 160 -> 3 waves per SIMD, but one workgroup of 16 waves needs ceil(16 / 4) = 4 per SIMD
      {129, 0, 1024}, // 129 -> 136 -> 3 < 4 needed by 16 waves
      {256, 256, 320},// 512 -> 1 wave per SIMD; 320 threads = 5 waves need ceil(5 / 4) = 2 per SIMD
  };
  for (const Target *t : {&gfx942(), &gfx950()}) {
    for (const Row &row : rows) {
      SCOPED_TRACE(std::string(name(*t)) + " arch " + std::to_string(row.arch) + " acc " + std::to_string(row.agprs) +
                   " workgroup " + std::to_string(row.workgroup));
      Occupancy o = computeOccupancy(*t, res(row.arch, row.agprs, 0, 0, row.workgroup));
      EXPECT_FALSE(o.launchable);
      EXPECT_EQ(o.wavesPerSimd, 0u);
      EXPECT_EQ(o.wavesPerCU, 0u);
      EXPECT_TRUE(o.hints.empty());
    }
  }
  // The derivation says why: 160 -> 3 waves per SIMD; 1024 threads = 16 waves = ceil(16 / 4) = 4 per SIMD.
  EXPECT_TRUE(hasLine(computeOccupancy(gfx942(), res(96, 64, 0, 0, 1024)).derivation,
                      "occupancy: 0, one workgroup does not fit on a CU: its 16 waves need 4 per SIMD, the registers "
                      "allow 3"));
  // The largest legal ones launch: 256 + 256 = 512 with 256 threads (4 waves need 1 per SIMD) -> 1 wave, 4 per CU.
  Occupancy o = computeOccupancy(gfx942(), res(256, 256, 0, 0, 256));
  EXPECT_TRUE(o.launchable);
  EXPECT_EQ(o.wavesPerSimd, 1u);
  EXPECT_EQ(o.wavesPerCU, 4u);
}

//===----------------------------------------------------------------------===//
// Derivations: the numbers of each step, one case per limiter
//===----------------------------------------------------------------------===//

TEST(OccupancyTest, DerivationVgprLimited) {
  // 96 arch + 64 acc = 160; 512 / 160 = 3.2 -> 3; 20 + 6 = 26; 256 threads = 4 waves, 8 slots -> 32 -> 8.
  Occupancy o = computeOccupancy(gfx942(), res(96, 64, 20, 0, 256));
  EXPECT_TRUE(hasLine(o.derivation, "96 arch (aligned to 96) + 64 acc = 160 per lane"));
  EXPECT_TRUE(hasLine(o.derivation, "512 / 160 -> 3 waves per SIMD"));
  EXPECT_TRUE(hasLine(o.derivation, "SGPRs: 20 + 6 reserved = 26 <= 100 -> 8 waves per SIMD"));
  EXPECT_TRUE(hasLine(o.derivation, "256 threads = 4 waves; min(32 / 4, 16) = 8 workgroups per CU x 4 = 32 waves per "
                                    "CU / 4 SIMDs -> 8 waves per SIMD"));
  EXPECT_TRUE(hasLine(o.derivation, "LDS: none -> 8 waves per SIMD"));
  EXPECT_TRUE(hasLine(o.derivation, "min(3, 8, 8, 8) = 3 waves per SIMD, 12 per CU, limited by vgpr"));
  // Without AGPRs: 97 -> granule 8 -> 104; 512 / 104 = 4.
  Occupancy p = computeOccupancy(gfx942(), res(97, 0, 0, 0, 256));
  EXPECT_TRUE(hasLine(p.derivation, "VGPRs: 97 per lane; granule 8 -> 104; 512 / 104 = 4 -> 4 waves per SIMD"));
  // Alignment visible: 97 arch + 32 acc: 100 + 32 = 132 -> 136 -> 3.
  Occupancy q = computeOccupancy(gfx942(), res(97, 32, 0, 0, 256));
  EXPECT_TRUE(hasLine(q.derivation, "97 arch (aligned to 100) + 32 acc = 132 per lane; granule 8 -> 136"));
}

TEST(OccupancyTest, DerivationSgprLimited) {
  // 95 + 6 = 101 > 100 -> 7; 256 threads: resident 4 x 7 / 4 = 7 workgroups x 4 = 28 per CU.
  Occupancy o = computeOccupancy(gfx942(), res(32, 0, 95, 0, 256));
  EXPECT_TRUE(hasLine(o.derivation, "SGPRs: 95 + 6 reserved = 101 > 100 -> 7 waves per SIMD"));
  EXPECT_TRUE(hasLine(o.derivation, "min(8, 7, 8, 8) = 7 waves per SIMD, 28 per CU, limited by sgpr"));
}

TEST(OccupancyTest, DerivationLdsLimited) {
  // gfx942: 40960 = 80 x 512; 65536 / 40960 = 1 workgroup x 4 waves -> ceil(4 / 4) = 1; 4 per CU.
  Occupancy o = computeOccupancy(gfx942(), res(32, 0, 0, 40960, 256));
  EXPECT_TRUE(hasLine(o.derivation, "LDS: 40 KiB per workgroup; granule 512 B -> 40960 B; 65536 / 40960 = 1 workgroup "
                                    "per CU x 4 waves -> 1 wave per SIMD"));
  EXPECT_TRUE(hasLine(o.derivation, "min(8, 8, 8, 1) = 1 wave per SIMD, 4 per CU, limited by lds"));
  // gfx950: 32768 -> 26 x 1280 = 33280; 163840 / 33280 = 4 workgroups x 4 waves -> 4; 16 per CU.
  Occupancy p = computeOccupancy(gfx950(), res(32, 0, 0, 32768, 256));
  EXPECT_TRUE(hasLine(p.derivation, "LDS: 32 KiB per workgroup; granule 1280 B -> 33280 B; 163840 / 33280 = 4 "
                                    "workgroups per CU x 4 waves -> 4 waves per SIMD"));
  EXPECT_TRUE(hasLine(p.derivation, "min(8, 8, 8, 4) = 4 waves per SIMD, 16 per CU, limited by lds"));
}

TEST(OccupancyTest, DerivationWorkgroupLimited) {
  // 768 threads = 12 waves; min(32 / 12, 16) = 2; 2 x 12 = 24 waves per CU / 4 = 6.
  Occupancy o = computeOccupancy(gfx942(), res(32, 0, 0, 0, 768));
  EXPECT_TRUE(hasLine(o.derivation, "workgroups: 768 threads = 12 waves; min(32 / 12, 16) = 2 workgroups per CU x 12 "
                                    "= 24 waves per CU / 4 SIMDs -> 6 waves per SIMD"));
  EXPECT_TRUE(hasLine(o.derivation, "min(8, 8, 6, 8) = 6 waves per SIMD, 24 per CU, limited by workgroups"));
  // One-wave workgroups: 32 slots.
  Occupancy p = computeOccupancy(gfx942(), res(32, 0, 0, 0, 64));
  EXPECT_TRUE(hasLine(p.derivation, "workgroups: 64 threads = 1 wave; 32 workgroups per CU x 1 = 32 waves per CU / 4 "
                                    "SIMDs -> 8 waves per SIMD"));
  EXPECT_TRUE(hasLine(p.derivation, "= 8 waves per SIMD, 32 per CU (the maximum)"));
}

//===----------------------------------------------------------------------===//
// Hints: one per limiter, each recomputed here; none at 8 waves
//===----------------------------------------------------------------------===//

TEST(OccupancyTest, HintVgpr) {
  // 160 -> 3; 512 / 4 = 128 -> 4 waves. Recompute with 128 in all: 96 arch + 32 acc = 128 -> 4.
  Occupancy o = computeOccupancy(gfx942(), res(96, 64, 20, 0, 256));
  ASSERT_EQ(o.wavesPerSimd, 3u);
  EXPECT_TRUE(hasLine(o.hints, "160 VGPRs per lane allow 3 waves per SIMD; 128 or fewer would allow 4"));
  unsigned fit = numberInHint(o, R"((\d+) or fewer would allow)");
  EXPECT_EQ(fit, 128u);
  EXPECT_EQ(computeOccupancy(gfx942(), res(96, fit - 96, 20, 0, 256)).wavesPerSimd, 4u);
  EXPECT_EQ(computeOccupancy(gfx942(), res(fit, 0, 20, 0, 256)).wavesPerSimd, 4u);
}

TEST(OccupancyTest, HintSgpr) {
  // 101 -> 7; 94 explicit + 6 = 100 -> 8.
  Occupancy o = computeOccupancy(gfx950(), res(32, 0, 95, 0, 256));
  ASSERT_EQ(o.wavesPerSimd, 7u);
  EXPECT_TRUE(hasLine(o.hints, "101 SGPRs (with the 6 reserved) allow 7 waves per SIMD; 94 explicit SGPRs or fewer "
                               "would allow 8"));
  unsigned fit = numberInHint(o, R"((\d+) explicit SGPRs or fewer)");
  EXPECT_EQ(fit, 94u);
  EXPECT_EQ(computeOccupancy(gfx950(), res(32, 0, fit, 0, 256)).wavesPerSimd, 8u);
}

TEST(OccupancyTest, HintLds) {
  struct Row {
    const char *target;
    unsigned lds, workgroup, waves;
    const char *hint;
    unsigned fit;
  };
  const Row rows[] = {
      {"gfx942", 40960, 256, 1, "40 KiB of LDS allows 1 workgroup per CU; 32 KiB or less would allow 2", 32768},
      //   1 group x 4 waves -> 1; 2 waves need ceil((1 x 4 + 1) / 4) = 2 groups: 65536 / 2 = 32768 = 64 x 512
      {"gfx942", 40960, 64, 1, "40 KiB of LDS allows 1 workgroup per CU; 12800 B or less would allow 5", 12800},
      //   1 group x 1 wave -> 1; 2 waves need ceil((4 + 1) / 1) = 5 groups: 65536 / 5 = 13107 -> 25 x 512 = 12800
      {"gfx942", 16385, 256, 3, "16896 B of LDS allows 3 workgroups per CU; 16 KiB or less would allow 4", 16384},
      //   16896 -> 3 groups -> 3; 4 waves need ceil(13 / 4) = 4 groups: 65536 / 4 = 16384 = 16 KiB
      {"gfx950", 32768, 256, 4, "33280 B of LDS allows 4 workgroups per CU; 32000 B or less would allow 5", 32000},
      //   33280 -> 4 groups -> 4; 5 waves need ceil(17 / 4) = 5 groups: 163840 / 5 = 32768 -> 25 x 1280 = 32000
      {"gfx950", 81921, 256, 1, "83200 B of LDS allows 1 workgroup per CU; 80 KiB or less would allow 2", 81920},
      //   83200 (= 81 KiB + 256 B, printed in B) -> 1 group; 2 groups: 163840 / 2 = 81920 = 64 x 1280 = 80 KiB
  };
  for (const Row &row : rows) {
    const Target &t = *lookupTarget(row.target);
    SCOPED_TRACE(std::string(row.target) + " lds " + std::to_string(row.lds) + " workgroup " +
                 std::to_string(row.workgroup));
    Occupancy o = computeOccupancy(t, res(32, 0, 0, row.lds, row.workgroup));
    ASSERT_EQ(o.wavesPerSimd, row.waves);
    ASSERT_EQ(o.limiter, Limiter::LDS);
    EXPECT_TRUE(hasLine(o.hints, row.hint));
    unsigned fit = hintBytes(o);
    EXPECT_EQ(fit, row.fit);
    EXPECT_EQ(computeOccupancy(t, res(32, 0, 0, fit, row.workgroup)).wavesPerSimd, row.waves + 1);
  }
}

TEST(OccupancyTest, HintWorkgroups) {
  struct Row { unsigned workgroup, waves; const char *hint; unsigned suggested, newWaves; };
  const Row rows[] = {
      {448, 7, "workgroups of 7 waves leave 4 of the 32 wave slots of a CU empty (4 workgroups x 7); 384 threads (6 "
               "waves) would allow 8 waves per SIMD", 384, 8},
      //   4 x 7 = 28, 32 - 28 = 4 empty; nearest: 6 waves -> 32 / 6 = 5 slots -> 30 -> ceil(7.5) = 8
      {768, 6, "workgroups of 12 waves leave 8 of the 32 wave slots of a CU empty (2 workgroups x 12); 832 threads (13 "
               "waves) would allow 7 waves per SIMD", 832, 7},
      //   2 x 12 = 24, 8 empty; 11 waves: 2 slots -> 22 -> 6 (no better); 13 waves: 2 slots -> 26 -> 7
      {704, 6, "workgroups of 11 waves leave 10 of the 32 wave slots of a CU empty (2 workgroups x 11); 640 threads "
               "(10 waves) would allow 8 waves per SIMD", 640, 8},
      //   2 x 11 = 22, 10 empty; 10 waves: 3 slots -> 30 -> 8
      {576, 7, "workgroups of 9 waves leave 5 of the 32 wave slots of a CU empty (3 workgroups x 9); 512 threads (8 "
               "waves) would allow 8 waves per SIMD", 512, 8},
      //   3 x 9 = 27, 5 empty; 8 waves: 4 slots -> 32 -> 8
  };
  for (const Target *t : {&gfx942(), &gfx950()}) {
    for (const Row &row : rows) {
      SCOPED_TRACE(std::string(name(*t)) + " workgroup " + std::to_string(row.workgroup));
      Occupancy o = computeOccupancy(*t, res(32, 0, 0, 0, row.workgroup));
      ASSERT_EQ(o.wavesPerSimd, row.waves);
      ASSERT_EQ(o.limiter, Limiter::Workgroups);
      EXPECT_TRUE(hasLine(o.hints, row.hint));
      unsigned suggested = numberInHint(o, R"((\d+) threads \()");
      EXPECT_EQ(suggested, row.suggested);
      unsigned raised = computeOccupancy(*t, res(32, 0, 0, 0, suggested)).wavesPerSimd;
      EXPECT_EQ(raised, row.newWaves);
      EXPECT_GE(raised, row.waves + 1);
    }
  }
}

TEST(OccupancyTest, NoHintAtEightWaves) {
  // Each at 8 by hand: 64 VGPRs -> 8; 94 + 6 = 100 -> 8; 2048 B on gfx942 -> 32 groups -> 8; 192 threads -> 30 -> 8;
  // 1024 threads -> 32 -> 8; gfx950 1 B -> 128 groups -> 8.
  const std::pair<const Target *, KernelResources> cases[] = {
      {&gfx942(), res(64, 0, 94, 0, 256)},   {&gfx942(), res(32, 0, 0, 2048, 64)},
      {&gfx942(), res(32, 0, 0, 0, 192)},    {&gfx942(), res(60, 4, 0, 0, 1024)},
      {&gfx950(), res(32, 0, 0, 1, 64)},     {&gfx950(), res(0, 0, 0, 0, 64)},
  };
  for (const auto &[t, r] : cases) {
    Occupancy o = computeOccupancy(*t, r);
    EXPECT_EQ(o.wavesPerSimd, 8u) << name(*t) << " " << r.archVgprs << "/" << r.agprs;
    EXPECT_EQ(o.limiter, Limiter::None);
    EXPECT_TRUE(o.hints.empty()) << o.hints.front();
  }
}

TEST(OccupancyTest, EveryHintRaisesTheOccupancyWhenResourcesTie) {
  // When two resources give the same minimum, changing one alone cannot raise the occupancy: a hint that says it
  // would is false. Each case, by hand:
  //   A: gfx942, 80 VGPRs -> 6; 768 threads -> 2 slots -> 24 -> 6. 72 VGPRs alone: min(7, 6) = 6.
  //   B: gfx942, 32768 B LDS -> 2 groups = the 2 slots of 768 threads -> 6. Less LDS alone: still 2 slots -> 6.
  //   C: gfx942, 72 VGPRs -> 7 and 95 SGPRs -> 7. 64 VGPRs alone: min(8, 7) = 7; 94 SGPRs alone: min(7, 8) = 7.
  //   D: gfx950, 96 VGPRs -> 5; 163840 / 40960 = 4 groups with 320 threads (5 waves): slots 32 / 5 = 6,
  //      ceil(min(4, 6) x 5 / 4) = 5. Tie at 5: 80 VGPRs alone -> min(6, 5) = 5; 32000 B alone -> 5 groups -> 7, min(5, 7).
  // The only true single change among them is B's workgroup size: 13 waves -> 2 slots, 2 groups -> 26 -> 7 (11 waves
  // gives 22 -> 6), so B keeps exactly that one hint and the others none.
  struct Case { const Target *t; KernelResources r; unsigned waves; size_t hints; };
  const Case cases[] = {
      {&gfx942(), res(80, 0, 0, 0, 768), 6, 0},
      {&gfx942(), res(32, 0, 0, 32768, 768), 6, 1},
      {&gfx942(), res(72, 0, 95, 0, 256), 7, 0},
      {&gfx950(), res(96, 0, 0, 40960, 320), 5, 0},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(name(*c.t)) + " arch " + std::to_string(c.r.archVgprs) + " sgprs " +
                 std::to_string(c.r.sgprs) + " lds " + std::to_string(c.r.ldsBytes) + " workgroup " +
                 std::to_string(c.r.workgroupSize));
    Occupancy o = computeOccupancy(*c.t, c.r);
    ASSERT_EQ(o.wavesPerSimd, c.waves);
    EXPECT_EQ(o.hints.size(), c.hints);
    std::smatch m;
    for (const std::string &hint : o.hints) {
      KernelResources changed = c.r;
      if (std::regex_search(hint, m, std::regex(R"((\d+) or fewer would allow)"))) {
        changed.archVgprs = std::stoul(m[1].str()), changed.agprs = 0;
      } else if (std::regex_search(hint, m, std::regex(R"((\d+) explicit SGPRs or fewer)"))) {
        changed.sgprs = std::stoul(m[1].str());
      } else if (std::regex_search(hint, m, std::regex(R"((\d+) (KiB|B) or less would allow)"))) {
        changed.ldsBytes = std::stoul(m[1].str()) * (m[2].str() == "KiB" ? 1024 : 1);
      } else if (std::regex_search(hint, m, std::regex(R"((\d+) threads \()"))) {
        changed.workgroupSize = std::stoul(m[1].str());
      } else {
        ADD_FAILURE() << "unrecognized hint: " << hint;
        continue;
      }
      EXPECT_GT(computeOccupancy(*c.t, changed).wavesPerSimd, c.waves) << "false hint: " << hint;
    }
  }
}

//===----------------------------------------------------------------------===//
// Seed 001's correct statements, as cases
//===----------------------------------------------------------------------===//

TEST(OccupancyTest, SeedGuideExamples) {
  const Target &t = gfx950();
  // "A 256-thread workgroup = 4 wavefronts."
  EXPECT_EQ(computeOccupancy(t, res(32, 0, 0, 0, 256)).wavesPerWorkgroup, 4u);
  // "up to 512 total VGPRs ... up to 256 of each": 256 + 256 = 512 launches at 1 wave (512 / 512).
  Occupancy full = computeOccupancy(t, res(256, 256, 0, 0, 64));
  EXPECT_TRUE(full.launchable);
  EXPECT_EQ(full.totalVgprs, 512u);
  EXPECT_EQ(full.wavesPerSimd, 1u);
  // The seed's code would give 8 * 64 * 512 / (128 * 64) = 32 "waves" for 128 VGPRs; the facts: 512 / 128 = 4.
  EXPECT_EQ(computeOccupancy(t, res(128, 0, 0, 0, 64)).wavesPerSimd, 4u);
  // "160 KB" of LDS per CU on CDNA4 (64 KB on CDNA3): a 160 KiB workgroup launches on gfx950 and not on gfx942;
  // 64 KiB launches on both.
  EXPECT_TRUE(computeOccupancy(t, res(32, 0, 0, 160 * 1024, 256)).launchable);
  EXPECT_FALSE(computeOccupancy(gfx942(), res(32, 0, 0, 160 * 1024, 256)).launchable);
  EXPECT_TRUE(computeOccupancy(gfx942(), res(32, 0, 0, 64 * 1024, 256)).launchable);
  // The seed's lds_limit for 81920 B is 163840 / 81920 = 2 -- workgroups per CU, not waves: with 256 threads that is
  // ceil(2 x 4 / 4) = 2 waves per SIMD, with 64 threads ceil(2 x 1 / 4) = 1.
  EXPECT_EQ(computeOccupancy(t, res(32, 0, 0, 81920, 256)).wavesPerSimd, 2u);
  EXPECT_EQ(computeOccupancy(t, res(32, 0, 0, 81920, 64)).wavesPerSimd, 1u);
  // "8 waves per SIMD, or 32 per CU".
  Occupancy small = computeOccupancy(t, res(32, 0, 0, 0, 256));
  EXPECT_EQ(small.wavesPerSimd, 8u);
  EXPECT_EQ(small.wavesPerCU, 32u);
}
