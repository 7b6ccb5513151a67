//===- LDSBanksTest.cpp - The LDS bank model against hand-computed cases ----===//
//
// Each expectation was worked out by hand from the rules cited in docs/performance.md ("LDS banks"): bank = dword % N
// (N = 32 on gfx942, 64 for gfx950 reads, 32 for gfx950 writes), lanes serviced together per the target's phase table,
// one distinct dword per bank per cycle. The comment above each case gives the arithmetic.
//
//===----------------------------------------------------------------------===//
#include "analysis/LDSBanks.h"
#include <functional>
#include <map>
#include <set>
#include <gtest/gtest.h>

using namespace tilec;

namespace {

LdsLaneAccess access(bool write, unsigned bytes, const std::function<uint64_t(unsigned)> &addr) {
  LdsLaneAccess a{write, bytes, std::vector<std::optional<uint64_t>>(64)};
  for (unsigned lane = 0; lane < 64; ++lane) a.addr[lane] = addr(lane);
  return a;
}

BankCost cost(const char *target, const LdsLaneAccess &a) {
  std::optional<BankCost> c = ldsBankCost(*lookupTarget(target), a);
  EXPECT_TRUE(c.has_value());
  return c.value_or(BankCost{});
}

} // namespace

TEST(LDSBanksTest, TargetFacts) {
  const Target &g942 = *lookupTarget("gfx942"), &g950 = *lookupTarget("gfx950");
  EXPECT_EQ(g942.ldsBankBytes, 4u);
  EXPECT_EQ(g942.ldsPhasesFor(false, 4)->banks, 32u);
  EXPECT_EQ(g942.ldsPhasesFor(true, 16)->phases.size(), 8u);
  EXPECT_EQ(g950.ldsPhasesFor(false, 8)->banks, 64u);
  EXPECT_EQ(g950.ldsPhasesFor(true, 8)->banks, 32u); // HipKittens: b64 writes see 32 banks
  EXPECT_EQ(g950.ldsPhasesFor(false, 16)->phases.size(), 4u);
  EXPECT_EQ(g942.ldsPhasesFor(false, 12), nullptr);
  // Every phase table covers each lane exactly once.
  for (const Target *t : {&g942, &g950})
    for (const LdsPhases &p : t->ldsPhases) {
      uint64_t seen = 0;
      for (uint64_t m : p.phases) {
        EXPECT_EQ(seen & m, 0u) << t->name.str() << " " << p.bytes;
        seen |= m;
      }
      EXPECT_EQ(seen, ~uint64_t(0)) << t->name.str() << " " << p.bytes;
    }
}

// gfx942 ds_read_b32 at lane * 4: each half-wave reads dwords 0..31 / 32..63, one per bank: 2 phases, 2 cycles.
TEST(LDSBanksTest, Gfx942ConsecutiveDwords) {
  BankCost c = cost("gfx942", access(false, 4, [](unsigned l) { return l * 4; }));
  EXPECT_EQ(c.cycles, 2u);
  EXPECT_EQ(c.ideal, 2u);
  EXPECT_EQ(c.ways, 1u);
  EXPECT_TRUE(c.conflictFree());
}

// gfx942 ds_read_b32 at lane * 128: dword 32 * lane, all in bank 0; 32 distinct dwords per half-wave: 2 x 32 cycles.
TEST(LDSBanksTest, Gfx942Stride128IsA32WayConflict) {
  BankCost c = cost("gfx942", access(false, 4, [](unsigned l) { return l * 128; }));
  EXPECT_EQ(c.cycles, 64u);
  EXPECT_EQ(c.ideal, 2u);
  EXPECT_EQ(c.ways, 32u);
  EXPECT_EQ(c.worstBank, 0u);
  ASSERT_EQ(c.worstLanes.size(), 32u);
  EXPECT_EQ(c.worstLanes[1].first, 1u);
  EXPECT_EQ(c.worstLanes[1].second, 128u);
}

// Every lane reading one dword is a broadcast: one cycle per phase.
TEST(LDSBanksTest, SameAddressBroadcasts) {
  BankCost c = cost("gfx942", access(false, 4, [](unsigned) { return 256; }));
  EXPECT_EQ(c.cycles, 2u);
  EXPECT_TRUE(c.conflictFree());
}

// gfx942 ds_read_b64 at lane * 8: 16 lanes per phase cover dwords 16p*2 .. +31, all 32 banks once: 4 cycles.
TEST(LDSBanksTest, Gfx942B64Consecutive) {
  BankCost c = cost("gfx942", access(false, 8, [](unsigned l) { return l * 8; }));
  EXPECT_EQ(c.cycles, 4u);
  EXPECT_EQ(c.ideal, 4u);
}

// gemm_f16's A fragment reads, pad 4: lane l reads 8 B of row l % 32 (72 B rows) at K offset 8 B * (l / 32).
// Phase 0 (lanes 0-15): dwords 18r, 18r + 1 for r = 0..15; 18r % 32 = 0, 18, 4, 22, 8, 26, 12, 30, 16, 2, 20, 6, 24,
// 10, 28, 14: with the +1 every bank exactly once. Phases 2-3 add 2 dwords: the same. Conflict-free, 4 cycles.
TEST(LDSBanksTest, Gfx942GemmF16FragmentsPad4) {
  BankCost c = cost("gfx942", access(false, 8, [](unsigned l) { return (l % 32) * 72 + (l / 32) * 8; }));
  EXPECT_EQ(c.cycles, 4u);
  EXPECT_TRUE(c.conflictFree());
}

// The same without pad: 64 B rows, dword 16r: banks 0,1 (r even) and 16,17 (r odd), 8 distinct dwords each: 8-way in
// every phase, 4 x 8 = 32 cycles.
TEST(LDSBanksTest, Gfx942GemmF16FragmentsNoPad) {
  BankCost c = cost("gfx942", access(false, 8, [](unsigned l) { return (l % 32) * 64 + (l / 32) * 8; }));
  EXPECT_EQ(c.cycles, 32u);
  EXPECT_EQ(c.ideal, 4u);
  EXPECT_EQ(c.ways, 8u);
}

// Which lanes share a ds_read_b128 phase matters. 16-byte slot s(l) = l % 4 + 4 * ((l / 16) % 2) of a 128-byte bank row,
// row l / 4: lanes 0-7 use slots 0-3 twice (rows 0 and 1: same banks, different dwords), but AMD's groups for
// ds_read_b128 pair lanes 0-3 with 20-23 (slots 4-7), 4-7 with 16-19, ...: every group covers slots 0-7 once.
// Read: 8 phases, 8 cycles. The same addresses as ds_write_b128 (8 consecutive lanes per phase): 2-way, 16 cycles.
TEST(LDSBanksTest, Gfx942B128ReadGroupsAreNotConsecutive) {
  auto addr = [](unsigned l) -> uint64_t { return (l % 4 + 4 * ((l / 16) % 2)) * 16 + (l / 4) * 128; };
  BankCost read = cost("gfx942", access(false, 16, addr));
  EXPECT_EQ(read.cycles, 8u);
  EXPECT_TRUE(read.conflictFree());
  BankCost write = cost("gfx942", access(true, 16, addr));
  EXPECT_EQ(write.cycles, 16u);
  EXPECT_EQ(write.ideal, 8u);
  EXPECT_EQ(write.ways, 2u);
}

// Sub-dword: ds_write_b16 at lane * 2. Lanes 2i and 2i+1 write the two halves of dword i; counted as two accesses of
// the bank (the conservative reading): each half-wave has 16 dwords x 2 halves, 2 per bank: 2 x 2 = 4 cycles.
// The same 2 bytes for every lane is one access per phase.
TEST(LDSBanksTest, SubDwordHalvesCountTwice) {
  BankCost halves = cost("gfx942", access(true, 2, [](unsigned l) { return l * 2; }));
  EXPECT_EQ(halves.cycles, 4u);
  EXPECT_EQ(halves.ideal, 2u);
  EXPECT_EQ(halves.ways, 2u);
  BankCost same = cost("gfx942", access(false, 2, [](unsigned) { return 6; }));
  EXPECT_EQ(same.cycles, 2u);
}

// Inactive lanes take no part: lanes 0 and 32 at dwords 0 and 32 (both bank 0) are in different b32 phases.
TEST(LDSBanksTest, InactiveLanesAndSeparatePhases) {
  LdsLaneAccess a{false, 4, std::vector<std::optional<uint64_t>>(64)};
  a.addr[0] = 0;
  a.addr[32] = 128;
  BankCost c = cost("gfx942", a);
  EXPECT_EQ(c.cycles, 2u);
  EXPECT_EQ(c.ideal, 2u);
}

// gfx950 reads see 64 banks: ds_read_b64 at lane * 8 is 2 phases of 32 lanes x 2 dwords = 64 banks: 2 cycles. At
// lane * 128 (dword 32 l): banks 0,1 (l even) and 32,33 (l odd), 16 dwords each per phase: 2 x 16 = 32 cycles; gfx942
// (16 lanes per phase, 32 banks: banks 0,1 for all) is 4 x 16 = 64.
TEST(LDSBanksTest, Gfx950ReadsSee64Banks) {
  BankCost c = cost("gfx950", access(false, 8, [](unsigned l) { return l * 8; }));
  EXPECT_EQ(c.cycles, 2u);
  EXPECT_TRUE(c.conflictFree());
  BankCost s950 = cost("gfx950", access(false, 8, [](unsigned l) { return l * 128; }));
  EXPECT_EQ(s950.cycles, 32u);
  EXPECT_EQ(s950.ways, 16u);
  BankCost s942 = cost("gfx942", access(false, 8, [](unsigned l) { return l * 128; }));
  EXPECT_EQ(s942.cycles, 64u);
  EXPECT_EQ(s942.ways, 16u);
}

// gfx950 ds_read_b128 fragments of v_mfma_f32_16x16x32_f16 with rows of 72 f16 = 144 B: lane l reads row l % 16 at
// byte 16 * (l / 16). Phase 0 = lanes 0-3, 12-15, 20-27 (HipKittens). Lane 0: dwords 0-3 (bank 0); lane 23: row 7,
// byte 7 * 144 + 16 = 1024, dword 256 = bank 0: a second dword of bank 0, so 2-way. With 160 B rows (pad 16), phase 0
// gets dwords 40r + 4g: banks {0, 40, 16, 56} for lanes 0-3, {32, 8, 48, 24} for 12-15, {36, 12, 52, 28, 4, 44, 20, 60}
// for 20-27, each +0..3: all 64 banks once.
TEST(LDSBanksTest, Gfx950B128Fragments) {
  BankCost pad8 = cost("gfx950", access(false, 16, [](unsigned l) { return (l % 16) * 144 + (l / 16) * 16; }));
  EXPECT_EQ(pad8.worstPhase, 0u);
  EXPECT_EQ(pad8.ways, 2u);
  ASSERT_EQ(pad8.worstLanes.size(), 2u);
  EXPECT_EQ(pad8.worstLanes[0].first, 0u);
  EXPECT_EQ(pad8.worstLanes[1].first, 23u);
  EXPECT_EQ(pad8.worstLanes[1].second, 1024u);
  BankCost pad16 = cost("gfx950", access(false, 16, [](unsigned l) { return (l % 16) * 160 + (l / 16) * 16; }));
  EXPECT_EQ(pad16.cycles, 4u);
  EXPECT_TRUE(pad16.conflictFree());
}

TEST(LDSBanksTest, InstructionNames) {
  EXPECT_EQ(ldsInstructionName(false, 8), "ds_read_b64");
  EXPECT_EQ(ldsInstructionName(false, 2), "ds_read_u16");
  EXPECT_EQ(ldsInstructionName(true, 2), "ds_write_b16");
  EXPECT_EQ(ldsInstructionName(true, 16), "ds_write_b128");
}

//===--- The lane addresses tilec's accesses use, against the layout and MFMA formulas ---===//
//
// The bank figures are only as good as the addresses: each write must put the element a lane holds (Layout::coord) at
// its stored place, and each fragment read must fetch what the MFMA lane layout (laneOfA / laneOfB) wants of that lane.

namespace {

ir::Tile tile(const char *name, unsigned rows, unsigned cols, Pattern pattern) {
  LayoutRequest r;
  r.pattern = pattern;
  r.rows = rows;
  r.cols = cols;
  r.elemBytes = 2;
  r.dtypeName = "f16";
  r.threads = 256;
  r.vec = 8;
  std::vector<LayoutProblem> problems;
  std::optional<Layout> l = solveLayout(r, problems);
  EXPECT_TRUE(l.has_value());
  ir::Tile t;
  t.name = name;
  t.dtype = DType::F16;
  t.layout = l.value_or(Layout{});
  return t;
}

ir::LdsBuffer buffer(const char *name, unsigned rows, unsigned cols, unsigned pad, bool transposed) {
  ir::LdsBuffer b;
  b.name = name;
  b.dtype = DType::F16;
  b.rows = rows;
  b.cols = cols;
  b.pad = pad;
  b.transposed = transposed;
  return b;
}

/// Checks that the writes of `t` into `b` put every element of the tile once, at (stored row * pitch + stored column).
void checkWrites(const ir::Tile &t, const ir::LdsBuffer &b, unsigned elemsPerInstr) {
  ir::LdsWrite w({});
  w.dst = &b;
  w.src = &t;
  const Layout &l = t.layout;
  std::set<uint64_t> seen;
  for (unsigned wave = 0; wave < l.waves; ++wave) {
    std::vector<LdsLaneAccess> instrs = ldsWriteAccesses(w, b.pitch(), wave);
    ASSERT_EQ(instrs.size(), l.rowsPerLane * l.vec / elemsPerInstr);
    for (unsigned n = 0; n < instrs.size(); ++n) {
      unsigned perAccess = l.vec / elemsPerInstr, access = n / perAccess, first = (n % perAccess) * elemsPerInstr;
      ASSERT_EQ(instrs[n].bytes, elemsPerInstr * 2);
      for (unsigned lane = 0; lane < 64; ++lane)
        for (unsigned e = 0; e < elemsPerInstr; ++e) {
          Layout::Coord c = l.coord(wave * 64 + lane, access, first + e);
          uint64_t want = b.transposed ? (uint64_t(b.placedRow(c.col)) * b.pitch() + c.row) * 2
                                : (uint64_t(b.placedRow(c.row)) * b.pitch() + c.col) * 2;
          // Element e of a chunk is e elements after the lane's address (chunks are consecutive in a stored row).
          ASSERT_EQ(*instrs[n].addr[lane] + e * 2, want) << "wave " << wave << " instr " << n << " lane " << lane;
          EXPECT_TRUE(seen.insert(want).second);
        }
    }
  }
  EXPECT_EQ(seen.size(), uint64_t(t.rows()) * t.cols());
}

/// A square accumulator of `size` on waves [2, 2] with `ins`, and the mma of `sA` and `sB` over K = `k` into it.
struct Product {
  ir::AccTile c;
  ir::MMA m{{}};
  Product(const MFMAInstr &ins, unsigned size, const ir::LdsBuffer &sA, const ir::LdsBuffer &sB, unsigned k) {
    c.name = "c";
    c.dtype = DType::F32;
    c.rows = c.cols = size;
    c.instr = &ins;
    c.wavesY = c.wavesX = 2;
    m.acc = &c;
    m.a = &sA;
    m.b = &sB;
    m.k = k;
  }
};

} // namespace

// gemm_f16's sA = a: rows of 36 f16 (72 B) keep 8-byte chunks aligned: two 4-element writes per 8-element access.
TEST(LDSBanksTest, WriteAddressesPutEachElementInPlace) {
  ir::Tile a = tile("a", 128, 32, Pattern::WarpRaked);
  checkWrites(a, buffer("sA", 128, 32, 4, false), 4);
  // With rows of 40 f16 (80 B) the whole 16-byte vector is one write.
  checkWrites(a, buffer("sA", 128, 32, 8, false), 8);
}

// gemm_f16's sB = b: B is K x N, stored transposed ([N][K + pad]) one element at a time.
TEST(LDSBanksTest, TransposedWriteAddresses) {
  checkWrites(tile("b", 32, 128, Pattern::WarpRaked), buffer("sB", 32, 128, 4, true), 1);
}

// gemm_f16's fragment reads (v_mfma_f32_32x32x8_f16, waves [2, 2], K = 32): for every element of every block and K
// step, the lane laneOfA / laneOfB assigns it to reads it at (stored row * pitch + K) * 2 + its position * 2.
TEST(LDSBanksTest, FragmentAddressesMatchTheMFMALayout) {
  const MFMAInstr &ins = *lookupMFMA("v_mfma_f32_32x32x8_f16");
  ir::LdsBuffer sA = buffer("sA", 128, 32, 4, false), sB = buffer("sB", 32, 128, 4, true);
  Product product(ins, 128, sA, sB, 32);
  const ir::MMA &m = product.m;
  for (bool isA : {true, false})
    for (unsigned wave = 0; wave < 4; ++wave) {
      std::vector<LdsLaneAccess> reads = ldsFragmentAccesses(m, isA, 36, wave, 64);
      ASSERT_EQ(reads.size(), 4u * 2u); // K steps x blocks
      unsigned origin = isA ? (wave / 2) * 64 : (wave % 2) * 64;
      for (unsigned kk = 0; kk < 4; ++kk)
        for (unsigned block = 0; block < 2; ++block) {
          const LdsLaneAccess &r = reads[kk * 2 + block];
          EXPECT_EQ(r.bytes, 8u);
          for (unsigned i = 0; i < 32; ++i) // row of A (column of B) inside the block
            for (unsigned k = 0; k < 8; ++k) {
              LaneSlot s = isA ? laneOfA(ins, i, k) : laneOfB(ins, k, i);
              uint64_t want = (uint64_t(origin + block * 32 + i) * 36 + kk * 8 + k) * 2;
              ASSERT_EQ(*r.addr[s.lane] + s.elem * 2, want) << (isA ? "A" : "B") << " wave " << wave;
            }
        }
    }
}

// gemm_f16's sB with the rows the LDS swizzle pass chooses (row n placed at n ^ (((n >> 4) & 3) << 1)): the writes
// still put every element once, at its placed row, and every fragment read of the swizzled buffer fetches the value
// of B that the MFMA lane layout wants, as written (the map from LDS byte to B element is built from the writes).
TEST(LDSBanksTest, SwizzledRowsAreWrittenAndReadConsistently) {
  ir::Tile b = tile("b", 32, 128, Pattern::WarpRaked);
  ir::LdsBuffer sB = buffer("sB", 32, 128, 4, true);
  sB.swizzleFrom = 4, sB.swizzleMask = 3, sB.swizzleShift = 1;
  EXPECT_EQ(sB.placedRow(0), 0u);
  EXPECT_EQ(sB.placedRow(16), 18u); // (16 >> 4) & 3 = 1: bit 1 flips
  EXPECT_EQ(sB.placedRow(50), 52u); // (50 >> 4) & 3 = 3: bits 1 and 2 flip, 50 ^ 6 = 52
  checkWrites(b, sB, 1);
  // Which element of B each written LDS byte holds.
  std::map<uint64_t, std::pair<unsigned, unsigned>> held;
  ir::LdsWrite w({});
  w.dst = &sB;
  w.src = &b;
  for (unsigned wave = 0; wave < b.layout.waves; ++wave) {
    std::vector<LdsLaneAccess> instrs = ldsWriteAccesses(w, sB.pitch(), wave);
    for (unsigned n = 0; n < instrs.size(); ++n)
      for (unsigned lane = 0; lane < 64; ++lane) {
        Layout::Coord c = b.layout.coord(wave * 64 + lane, n / b.layout.vec, n % b.layout.vec);
        held[*instrs[n].addr[lane]] = {c.row, c.col};
      }
  }
  const MFMAInstr &ins = *lookupMFMA("v_mfma_f32_32x32x8_f16");
  ir::LdsBuffer sA = buffer("sA", 128, 32, 4, false);
  Product product(ins, 128, sA, sB, 32);
  const ir::MMA &m = product.m;
  for (unsigned wave = 0; wave < 4; ++wave) {
    std::vector<LdsLaneAccess> reads = ldsFragmentAccesses(m, false, sB.pitch(), wave, 64);
    for (unsigned kk = 0; kk < 4; ++kk)
      for (unsigned block = 0; block < 2; ++block)
        for (unsigned j = 0; j < 32; ++j)
          for (unsigned k = 0; k < 8; ++k) {
            LaneSlot s = laneOfB(ins, k, j);
            auto it = held.find(*reads[kk * 2 + block].addr[s.lane] + s.elem * 2);
            ASSERT_NE(it, held.end());
            EXPECT_EQ(it->second, std::make_pair(kk * 8 + k, (wave % 2) * 64 + block * 32 + j));
          }
  }
}

// A K x N sB as gemm_f16_kn_gfx950 keeps it (stored as declared, here 32 x (128 + 8), read with ds_read_b64_tr_b16 for
// v_mfma_f32_32x32x16_f16): applying the instruction's rule (value e of lane 16g + j is value j % 4 of what lane
// 16g + 4e + j / 4 names; docs/gemm.md, section 12) to the lane addresses of the fragment reads gives every lane the
// B values the MFMA lane layout (laneOfB) wants of it: read h holds its elements 4h .. 4h + 3.
TEST(LDSBanksTest, TransposingReadsMatchTheMFMALayout) {
  const MFMAInstr &ins = *lookupMFMA("v_mfma_f32_32x32x16_f16");
  ir::LdsBuffer sA = buffer("sA", 128, 32, 8, false), sB = buffer("sB", 32, 128, 8, false);
  sB.transposeReads = true;
  Product product(ins, 128, sA, sB, 32);
  const ir::MMA &m = product.m;
  const unsigned pitch = sB.pitch();
  for (unsigned wave = 0; wave < 4; ++wave) {
    std::vector<LdsLaneAccess> reads = ldsFragmentAccesses(m, false, pitch, wave, 64);
    ASSERT_EQ(reads.size(), 2u * 2u * 2u); // K steps x blocks x reads per fragment
    unsigned origin = (wave % 2) * 64;
    for (unsigned kk = 0; kk < 2; ++kk)
      for (unsigned block = 0; block < 2; ++block)
        for (unsigned i = 0; i < 32; ++i) // column of B inside the block
          for (unsigned k = 0; k < 16; ++k) {
            LaneSlot s = laneOfB(ins, k, i);
            const LdsLaneAccess &r = reads[(kk * 2 + block) * 2 + s.elem / 4];
            EXPECT_EQ(r.bytes, 8u);
            unsigned e = s.elem % 4, source = (s.lane & ~15u) + 4 * e + (s.lane & 15u) / 4;
            uint64_t got = *r.addr[source] + (s.lane % 4) * 2;
            uint64_t want = (uint64_t(kk * 16 + k) * pitch + origin + block * 32 + i) * 2;
            ASSERT_EQ(got, want) << "wave " << wave << " k " << kk * 16 + k << " column " << i;
          }
  }
}

// The scaled MFMA's B given K x N, read with transposing reads (docs/mx.md, "B given K x N"): applying each read's
// rule to the lane addresses of the fragment reads gives every lane the B values the scaled lane layout
// (laneOfScaledOperand, written from the MFMA's operand layout, not from the reads) wants of it.
//   fp8, v_mfma_scale_f32_32x32x64_f8f6f4: sB 64 x (128 + 16) bytes, 4 ds_read_b64_tr_b8 per fragment (the lane's two
//   runs of 16 K values), read j holding operand bytes 8j .. 8j + 7; value e of lane 16g + i is value i % 8 of what lane
//   16g + 2e + i / 8 names.
//   fp4 given K x N (two N values per byte), v_mfma_scale_f32_16x16x128_f8f6f4: sB 128 K rows x (32 + 16) bytes, 2
//   ds_read_b64_tr_b4 per fragment, read j holding operand values 16j .. 16j + 15; value e of lane 16g + i is value i
//   of what lane 16g + e names (4-bit values, the lower N in the low nibble).
//   Then the same with A of another column width (B's geometry from operandView, its K steps from A's columns), over
//   two instruction K steps: fp4 A over that fp8 B, fp8 A over that fp4 B.
TEST(LDSBanksTest, ScaledTransposingReadsMatchTheMFMALayout) {
  struct Case {
    const char *instr;
    DType dtype;
    MXFormat format;
    unsigned kValues, cols, pad, kSteps;
    DType aDtype;
  };
  for (const Case &t :
       {Case{"v_mfma_scale_f32_32x32x64_f8f6f4", DType::FP8, MXFormat::FP8, 64, 128, 16, 1, DType::FP8},
        Case{"v_mfma_scale_f32_16x16x128_f8f6f4", DType::FP4X2, MXFormat::FP4, 128, 32, 16, 1, DType::FP4X2},
        Case{"v_mfma_scale_f32_32x32x64_f8f6f4", DType::FP8, MXFormat::FP8, 64, 128, 16, 2, DType::FP4X2},
        Case{"v_mfma_scale_f32_16x16x128_f8f6f4", DType::FP4X2, MXFormat::FP4, 128, 32, 16, 2, DType::FP8}}) {
    const ScaledMFMAInstr &scaled = *lookupScaledMFMA(t.instr);
    const MFMAInstr &ins = *scaledVariant(scaled, t.aDtype, t.dtype);
    unsigned perValue = info(t.dtype).values, n = t.cols * perValue; // N values of the block
    unsigned perA = info(t.aDtype).values, kTotal = t.kValues * t.kSteps;
    ir::LdsBuffer sA = buffer("sA", n, kTotal / perA, t.pad, false);
    ir::LdsBuffer sB = buffer("sB", kTotal, t.cols, t.pad, false);
    sA.dtype = t.aDtype;
    sB.dtype = t.dtype;
    sB.transposeReads = true;
    Product product(ins, n, sA, sB, kTotal / perA);
    const ir::MMA &m = product.m;
    const ir::AccTile &c = product.c;
    const unsigned pitch = sB.pitch(), blocks = c.blocksX(), reads = perValue == 2 ? 2 : 4;
    const unsigned valuesPerRead = 64 / (8 / perValue);
    for (unsigned wave = 0; wave < 4; ++wave) {
      std::vector<LdsLaneAccess> r = ldsFragmentAccesses(m, false, pitch, wave, 64);
      ASSERT_EQ(r.size(), t.kSteps * blocks * reads) << t.instr; // K steps x blocks x reads per fragment
      unsigned origin = (wave % 2) * (n / 2);
      for (unsigned step = 0; step < t.kSteps; ++step)
        for (unsigned block = 0; block < blocks; ++block)
          for (unsigned i = 0; i < ins.n; ++i) // column of B inside the block
            for (unsigned kIn = 0; kIn < t.kValues; ++kIn) {
              unsigned k = step * t.kValues + kIn;
              LaneSlot s = *laneOfScaledOperand(scaled, t.format, i, kIn);
              const LdsLaneAccess &read = r[(step * blocks + block) * reads + s.elem / valuesPerRead];
              EXPECT_EQ(read.bytes, 8u);
              unsigned e = s.elem % valuesPerRead, j = s.lane & 15u;
              // In values (nibbles for fp4): where the source lane's 8 bytes start, plus the position the rule takes.
              unsigned source = perValue == 2 ? (s.lane & ~15u) + e : (s.lane & ~15u) + 2 * e + j / 8;
              uint64_t got = *read.addr[source] * perValue + (perValue == 2 ? j : j % 8);
              uint64_t col = origin + block * ins.n + i;
              uint64_t want = uint64_t(k) * pitch * perValue + col;
              ASSERT_EQ(got, want) << t.instr << " wave " << wave << " k " << k << " column " << i;
            }
    }
  }
}
