//===- MFMATest.cpp - The MFMA table against ../shared/facts/mfma.md -------===//
//
// Every expectation below is typed in by hand from facts/mfma.md (its table and its register-layout formulas): the
// table in compiler/target/MFMA.cpp must not drift from them, its lane layouts must place every element of A, B and D in
// exactly one (lane, element) slot of the 64 lanes, chooseMFMA must pick what the GEMM emitter relies on, and the
// emulator's copy of the table (runtime/include/tilec/emulator_mfma.h) must agree with the compiler's.
//
//===----------------------------------------------------------------------===//
#include "support/DType.h"
#include "target/MFMA.h"
#include "target/Target.h"
#include <gtest/gtest.h>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <utility>

// Last: the emulator header defines HIP's keywords (__global__, ...) as macros.
#include "tilec/emulator.h"

using namespace tilec;

namespace {

/// One row of facts/mfma.md's table.
struct Fact {
  const char *name, *builtin;
  unsigned m, n, k;
  DType a, b, acc;
  unsigned kPerLane, accPerLane, cycles;
  bool gfx950Only;
  const char *operandType, *accType;
};

constexpr DType F16 = DType::F16, BF16 = DType::BF16, I8 = DType::I8, I32 = DType::I32, F32 = DType::F32,
                FP8 = DType::FP8, BF8 = DType::BF8;

// clang-format off
const Fact kFacts[] = {
  {"v_mfma_f32_16x16x16_f16",     "__builtin_amdgcn_mfma_f32_16x16x16f16",       16, 16, 16, F16,  F16,  F32, 4,  4, 16, false, "tilec::f16x4",  "tilec::f32x4"},
  {"v_mfma_f32_32x32x8_f16",      "__builtin_amdgcn_mfma_f32_32x32x8f16",        32, 32,  8, F16,  F16,  F32, 4, 16, 32, false, "tilec::f16x4",  "tilec::f32x16"},
  {"v_mfma_f32_16x16x16_bf16",    "__builtin_amdgcn_mfma_f32_16x16x16bf16_1k",   16, 16, 16, BF16, BF16, F32, 4,  4, 16, false, "tilec::i16x4",  "tilec::f32x4"},
  {"v_mfma_f32_32x32x8_bf16",     "__builtin_amdgcn_mfma_f32_32x32x8bf16_1k",    32, 32,  8, BF16, BF16, F32, 4, 16, 32, false, "tilec::i16x4",  "tilec::f32x16"},
  {"v_mfma_i32_16x16x32_i8",      "__builtin_amdgcn_mfma_i32_16x16x32_i8",       16, 16, 32, I8,   I8,   I32, 8,  4, 16, false, "long",          "tilec::i32x4"},
  {"v_mfma_i32_32x32x16_i8",      "__builtin_amdgcn_mfma_i32_32x32x16_i8",       32, 32, 16, I8,   I8,   I32, 8, 16, 32, false, "long",          "tilec::i32x16"},
  {"v_mfma_f32_16x16x32_fp8_fp8", "__builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8",  16, 16, 32, FP8,  FP8,  F32, 8,  4, 16, false, "long",          "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_fp8_fp8", "__builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8",  32, 32, 16, FP8,  FP8,  F32, 8, 16, 32, false, "long",          "tilec::f32x16"},
  {"v_mfma_f32_16x16x32_fp8_bf8", "__builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8",  16, 16, 32, FP8,  BF8,  F32, 8,  4, 16, false, "long",          "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_fp8_bf8", "__builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8",  32, 32, 16, FP8,  BF8,  F32, 8, 16, 32, false, "long",          "tilec::f32x16"},
  {"v_mfma_f32_16x16x32_bf8_fp8", "__builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8",  16, 16, 32, BF8,  FP8,  F32, 8,  4, 16, false, "long",          "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_bf8_fp8", "__builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8",  32, 32, 16, BF8,  FP8,  F32, 8, 16, 32, false, "long",          "tilec::f32x16"},
  {"v_mfma_f32_16x16x32_bf8_bf8", "__builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8",  16, 16, 32, BF8,  BF8,  F32, 8,  4, 16, false, "long",          "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_bf8_bf8", "__builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8",  32, 32, 16, BF8,  BF8,  F32, 8, 16, 32, false, "long",          "tilec::f32x16"},
  {"v_mfma_f32_16x16x4_f32",      "__builtin_amdgcn_mfma_f32_16x16x4f32",        16, 16,  4, F32,  F32,  F32, 1,  4, 32, false, "float",         "tilec::f32x4"},
  {"v_mfma_f32_32x32x2_f32",      "__builtin_amdgcn_mfma_f32_32x32x2f32",        32, 32,  2, F32,  F32,  F32, 1, 16, 64, false, "float",         "tilec::f32x16"},
  {"v_mfma_f32_16x16x32_f16",     "__builtin_amdgcn_mfma_f32_16x16x32_f16",      16, 16, 32, F16,  F16,  F32, 8,  4, 16, true,  "tilec::f16x8",  "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_f16",     "__builtin_amdgcn_mfma_f32_32x32x16_f16",      32, 32, 16, F16,  F16,  F32, 8, 16, 32, true,  "tilec::f16x8",  "tilec::f32x16"},
  {"v_mfma_f32_16x16x32_bf16",    "__builtin_amdgcn_mfma_f32_16x16x32_bf16",     16, 16, 32, BF16, BF16, F32, 8,  4, 16, true,  "tilec::bf16x8", "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_bf16",    "__builtin_amdgcn_mfma_f32_32x32x16_bf16",     32, 32, 16, BF16, BF16, F32, 8, 16, 32, true,  "tilec::bf16x8", "tilec::f32x16"},
};
// clang-format on

const Target &gfx942() { return *lookupTarget("gfx942"); }
const Target &gfx950() { return *lookupTarget("gfx950"); }

// The layouts of facts/mfma.md, typed in again.
std::pair<unsigned, unsigned> factA(const Fact &f, unsigned i, unsigned k) {
  return {i + f.m * (k / f.kPerLane), k % f.kPerLane};
}
std::pair<unsigned, unsigned> factB(const Fact &f, unsigned k, unsigned j) {
  return {j + f.n * (k / f.kPerLane), k % f.kPerLane};
}
std::pair<unsigned, unsigned> factD(const Fact &f, unsigned i, unsigned j) {
  if (f.m == 16) return {j + 16 * (i / 4), i % 4};
  return {j + 32 * ((i / 4) % 2), 4 * (i / 8) + i % 4};
}

std::string names(const MFMAInstr *i) { return i ? i->name.str() : "(none)"; }

} // namespace

TEST(MFMATest, TableMatchesFacts) {
  ASSERT_EQ(allMFMA().size(), std::size(kFacts));
  std::set<std::string> seen;
  for (const Fact &f : kFacts) {
    SCOPED_TRACE(f.name);
    const MFMAInstr *ins = lookupMFMA(f.name);
    ASSERT_NE(ins, nullptr);
    EXPECT_TRUE(seen.insert(ins->name.str()).second);
    EXPECT_EQ(ins->builtin, f.builtin);
    EXPECT_EQ(ins->m, f.m);
    EXPECT_EQ(ins->n, f.n);
    EXPECT_EQ(ins->k, f.k);
    EXPECT_EQ(ins->a, f.a);
    EXPECT_EQ(ins->b, f.b);
    EXPECT_EQ(ins->acc, f.acc);
    EXPECT_EQ(ins->kPerLane, f.kPerLane);
    EXPECT_EQ(ins->accPerLane, f.accPerLane);
    EXPECT_EQ(ins->cycles, f.cycles);
    EXPECT_EQ(ins->operandType, f.operandType);
    EXPECT_EQ(ins->accType, f.accType);
    EXPECT_TRUE(ins->availableOn(gfx950()));
    EXPECT_EQ(ins->availableOn(gfx942()), !f.gfx950Only);
    // Consistency the layouts rely on: 64 / m lane groups split K, m x n results spread over 64 lanes.
    EXPECT_EQ(ins->kGroups() * ins->kPerLane, ins->k);
    EXPECT_EQ(ins->accPerLane * 64, ins->m * ins->n);
    EXPECT_EQ(ins->macs(), f.m * f.n * f.k);
  }
}

TEST(MFMATest, LayoutsAreTheFactsFormulas) {
  for (const Fact &f : kFacts) {
    SCOPED_TRACE(f.name);
    const MFMAInstr &ins = *lookupMFMA(f.name);
    for (unsigned i = 0; i < f.m; ++i)
      for (unsigned k = 0; k < f.k; ++k) {
        const LaneSlot s = laneOfA(ins, i, k);
        ASSERT_EQ(std::make_pair(s.lane, s.elem), factA(f, i, k)) << "A[" << i << "][" << k << "]";
      }
    for (unsigned k = 0; k < f.k; ++k)
      for (unsigned j = 0; j < f.n; ++j) {
        const LaneSlot s = laneOfB(ins, k, j);
        ASSERT_EQ(std::make_pair(s.lane, s.elem), factB(f, k, j)) << "B[" << k << "][" << j << "]";
      }
    for (unsigned i = 0; i < f.m; ++i)
      for (unsigned j = 0; j < f.n; ++j) {
        const LaneSlot s = laneOfD(ins, i, j);
        ASSERT_EQ(std::make_pair(s.lane, s.elem), factD(f, i, j)) << "D[" << i << "][" << j << "]";
      }
  }
  // A few worked by hand. 32x32x8 f16: lane 37 holds A[5][4..7], so A[5][6] is its element 2.
  const MFMAInstr &f32x32 = *lookupMFMA("v_mfma_f32_32x32x8_f16");
  EXPECT_EQ(laneOfA(f32x32, 5, 6).lane, 37u);
  EXPECT_EQ(laneOfA(f32x32, 5, 6).elem, 2u);
  // D[13][7] of a 32x32 block: rows 8-15 are elements 4-7; rows 12-15 are in lanes 32-63.
  EXPECT_EQ(laneOfD(f32x32, 13, 7).lane, 39u);
  EXPECT_EQ(laneOfD(f32x32, 13, 7).elem, 5u);
  // 16x16x16 f16: B[9][3] is in the third group of 16 lanes (k 8-11), element 1; D[13][7] in lane 7 + 16 * 3.
  const MFMAInstr &f16x16 = *lookupMFMA("v_mfma_f32_16x16x16_f16");
  EXPECT_EQ(laneOfB(f16x16, 9, 3).lane, 35u);
  EXPECT_EQ(laneOfB(f16x16, 9, 3).elem, 1u);
  EXPECT_EQ(laneOfD(f16x16, 13, 7).lane, 55u);
  EXPECT_EQ(laneOfD(f16x16, 13, 7).elem, 1u);
  // 8-bit 16x16x32: lane 63 holds A[15][24..31].
  const MFMAInstr &i8 = *lookupMFMA("v_mfma_i32_16x16x32_i8");
  EXPECT_EQ(laneOfA(i8, 15, 31).lane, 63u);
  EXPECT_EQ(laneOfA(i8, 15, 31).elem, 7u);
}

TEST(MFMATest, LayoutsFillEverySlotOnce) {
  for (const MFMAInstr &ins : allMFMA()) {
    SCOPED_TRACE(ins.name.str());
    // The slots `slot(r, c)` of an operand with rows x cols elements and `perLane` values per lane: distinct, in
    // range, and (by counting) every slot of every lane.
    auto fillsOnce = [&](const char *operand, unsigned rows, unsigned cols, unsigned perLane, auto slot) {
      std::set<std::pair<unsigned, unsigned>> used;
      for (unsigned r = 0; r < rows; ++r)
        for (unsigned c = 0; c < cols; ++c) {
          const LaneSlot s = slot(r, c);
          EXPECT_LT(s.lane, 64u);
          EXPECT_LT(s.elem, perLane);
          EXPECT_TRUE(used.insert({s.lane, s.elem}).second) << operand << "[" << r << "][" << c << "] shares a slot";
        }
      EXPECT_EQ(used.size(), 64u * perLane) << operand;
    };
    fillsOnce("A", ins.m, ins.k, ins.kPerLane, [&](unsigned i, unsigned k) { return laneOfA(ins, i, k); });
    fillsOnce("B", ins.k, ins.n, ins.kPerLane, [&](unsigned k, unsigned j) { return laneOfB(ins, k, j); });
    fillsOnce("D", ins.m, ins.n, ins.accPerLane, [&](unsigned i, unsigned j) { return laneOfD(ins, i, j); });
  }
}

// The emitter passes B's fragment as the A operand of transposedMFMA(ins): that is right only if the transposed
// instruction's A layout for row j is ins's B layout for column j (and the other way round), and its dtypes are
// exchanged. Its D then holds C transposed: C[i][j] in laneOfD(t, j, i).
TEST(MFMATest, TransposedTakesTheOtherOperand) {
  for (const Target *target : {&gfx942(), &gfx950()})
    for (const MFMAInstr &ins : allMFMA()) {
      if (!ins.availableOn(*target)) continue;
      SCOPED_TRACE(ins.name.str() + " on " + target->name.str());
      const MFMAInstr &t = transposedMFMA(ins, *target);
      EXPECT_TRUE(t.availableOn(*target));
      EXPECT_EQ(t.a, ins.b);
      EXPECT_EQ(t.b, ins.a);
      EXPECT_EQ(t.acc, ins.acc);
      for (unsigned k = 0; k < ins.k; ++k)
        for (unsigned j = 0; j < ins.n; ++j) {
          EXPECT_EQ(laneOfA(t, j, k).lane, laneOfB(ins, k, j).lane);
          EXPECT_EQ(laneOfA(t, j, k).elem, laneOfB(ins, k, j).elem);
        }
    }
  EXPECT_EQ(transposedMFMA(*lookupMFMA("v_mfma_f32_32x32x16_fp8_bf8"), gfx942()).name, "v_mfma_f32_32x32x16_bf8_fp8");
  EXPECT_EQ(transposedMFMA(*lookupMFMA("v_mfma_f32_16x16x32_bf8_fp8"), gfx950()).name, "v_mfma_f32_16x16x32_fp8_bf8");
  EXPECT_EQ(transposedMFMA(*lookupMFMA("v_mfma_f32_32x32x8_f16"), gfx942()).name, "v_mfma_f32_32x32x8_f16");
}

TEST(MFMATest, Lookup) {
  const MFMAInstr *ins = lookupMFMA("v_mfma_f32_32x32x8_f16");
  ASSERT_NE(ins, nullptr);
  EXPECT_EQ(ins->builtin, "__builtin_amdgcn_mfma_f32_32x32x8f16");
  EXPECT_EQ(lookupMFMA("v_mfma_f32_32x32x16_bf16")->archs, static_cast<unsigned>(Arch::GFX950));
  EXPECT_EQ(lookupMFMA("__builtin_amdgcn_mfma_f32_32x32x8f16"), nullptr) << "builtins are not mnemonics";
  EXPECT_EQ(lookupMFMA("V_MFMA_F32_32X32X8_F16"), nullptr);
  EXPECT_EQ(lookupMFMA("v_mfma_f32_32x32x8f16"), nullptr);
  EXPECT_EQ(lookupMFMA("v_mfma_scale_f32_16x16x128_f8f6f4"), nullptr) << "scaled: in the scaled table only";
  EXPECT_NE(lookupScaledMFMA("v_mfma_scale_f32_16x16x128_f8f6f4"), nullptr);
  EXPECT_EQ(lookupScaledMFMA("v_mfma_f32_32x32x8_f16"), nullptr);
  EXPECT_EQ(lookupMFMA(""), nullptr);
}

TEST(MFMATest, NamesForMessages) {
  EXPECT_EQ(mfmaNamesFor(gfx942(), DType::F16), "v_mfma_f32_16x16x16_f16, v_mfma_f32_32x32x8_f16");
  EXPECT_EQ(mfmaNamesFor(gfx950(), DType::F16),
            "v_mfma_f32_16x16x16_f16, v_mfma_f32_32x32x8_f16, v_mfma_f32_16x16x32_f16, v_mfma_f32_32x32x16_f16");
  EXPECT_EQ(mfmaNamesFor(gfx942(), DType::I32), "");
}

TEST(MFMATest, ChooseF16) {
  // gfx942: 32x32 over 16x16 when the wave tile allows it.
  EXPECT_EQ(names(chooseMFMA(gfx942(), F16, F16, F32, 64, 64, 32)), "v_mfma_f32_32x32x8_f16");
  EXPECT_EQ(names(chooseMFMA(gfx942(), F16, F16, F32, 32, 32, 8)), "v_mfma_f32_32x32x8_f16");
  EXPECT_EQ(names(chooseMFMA(gfx942(), F16, F16, F32, 64, 64, 0)), "v_mfma_f32_32x32x8_f16") << "K not known yet";
  // A wave tile 16 wide (or tall) only fits 16x16 blocks.
  EXPECT_EQ(names(chooseMFMA(gfx942(), F16, F16, F32, 64, 16, 32)), "v_mfma_f32_16x16x16_f16");
  EXPECT_EQ(names(chooseMFMA(gfx942(), F16, F16, F32, 16, 64, 32)), "v_mfma_f32_16x16x16_f16");
  EXPECT_EQ(names(chooseMFMA(gfx942(), F16, F16, F32, 16, 16, 16)), "v_mfma_f32_16x16x16_f16");
  // K step 8 fits 32x32x8 but not 16x16x16.
  EXPECT_EQ(names(chooseMFMA(gfx942(), F16, F16, F32, 16, 16, 8)), "(none)");
  // gfx950 prefers the doubled-K forms, and falls back when the K step is too short for them.
  EXPECT_EQ(names(chooseMFMA(gfx950(), F16, F16, F32, 64, 64, 32)), "v_mfma_f32_32x32x16_f16");
  EXPECT_EQ(names(chooseMFMA(gfx950(), F16, F16, F32, 64, 16, 32)), "v_mfma_f32_16x16x32_f16");
  EXPECT_EQ(names(chooseMFMA(gfx950(), F16, F16, F32, 64, 64, 8)), "v_mfma_f32_32x32x8_f16");
  EXPECT_EQ(names(chooseMFMA(gfx950(), F16, F16, F32, 16, 16, 16)), "v_mfma_f32_16x16x16_f16");
  // Nothing divides a K step of 4 for f16, nor a wave tile that is not a multiple of 16.
  EXPECT_EQ(chooseMFMA(gfx942(), F16, F16, F32, 64, 64, 4), nullptr);
  EXPECT_EQ(chooseMFMA(gfx950(), F16, F16, F32, 64, 64, 4), nullptr);
  EXPECT_EQ(chooseMFMA(gfx942(), F16, F16, F32, 8, 64, 32), nullptr);
  EXPECT_EQ(chooseMFMA(gfx942(), F16, F16, F32, 48, 40, 32), nullptr);
  // f16 products accumulate in f32 only.
  EXPECT_EQ(chooseMFMA(gfx942(), F16, F16, F16, 64, 64, 32), nullptr);
}

TEST(MFMATest, ChooseOtherTypes) {
  EXPECT_EQ(names(chooseMFMA(gfx942(), BF16, BF16, F32, 64, 64, 32)), "v_mfma_f32_32x32x8_bf16");
  EXPECT_EQ(names(chooseMFMA(gfx942(), BF16, BF16, F32, 16, 32, 32)), "v_mfma_f32_16x16x16_bf16");
  EXPECT_EQ(names(chooseMFMA(gfx950(), BF16, BF16, F32, 64, 64, 32)), "v_mfma_f32_32x32x16_bf16");
  EXPECT_EQ(names(chooseMFMA(gfx950(), BF16, BF16, F32, 16, 16, 64)), "v_mfma_f32_16x16x32_bf16");

  EXPECT_EQ(names(chooseMFMA(gfx942(), I8, I8, I32, 64, 64, 32)), "v_mfma_i32_32x32x16_i8");
  EXPECT_EQ(names(chooseMFMA(gfx942(), I8, I8, I32, 64, 64, 16)), "v_mfma_i32_32x32x16_i8");
  EXPECT_EQ(names(chooseMFMA(gfx942(), I8, I8, I32, 16, 64, 32)), "v_mfma_i32_16x16x32_i8");
  EXPECT_EQ(chooseMFMA(gfx942(), I8, I8, I32, 16, 16, 16), nullptr) << "16x16 i8 needs K 32";
  EXPECT_EQ(chooseMFMA(gfx942(), I8, I8, F32, 64, 64, 32), nullptr) << "i8 accumulates in i32";

  EXPECT_EQ(names(chooseMFMA(gfx942(), FP8, FP8, F32, 64, 64, 32)), "v_mfma_f32_32x32x16_fp8_fp8");
  EXPECT_EQ(names(chooseMFMA(gfx950(), FP8, FP8, F32, 64, 64, 32)), "v_mfma_f32_32x32x16_fp8_fp8");
  EXPECT_EQ(names(chooseMFMA(gfx942(), FP8, BF8, F32, 64, 64, 32)), "v_mfma_f32_32x32x16_fp8_bf8");
  EXPECT_EQ(names(chooseMFMA(gfx942(), BF8, FP8, F32, 16, 16, 32)), "v_mfma_f32_16x16x32_bf8_fp8");
  EXPECT_EQ(names(chooseMFMA(gfx942(), BF8, BF8, F32, 32, 32, 16)), "v_mfma_f32_32x32x16_bf8_bf8");
  EXPECT_EQ(chooseMFMA(gfx942(), FP8, FP8, F32, 64, 64, 8), nullptr);

  EXPECT_EQ(names(chooseMFMA(gfx942(), F32, F32, F32, 64, 64, 32)), "v_mfma_f32_32x32x2_f32");
  EXPECT_EQ(names(chooseMFMA(gfx942(), F32, F32, F32, 16, 16, 4)), "v_mfma_f32_16x16x4_f32");
  EXPECT_EQ(chooseMFMA(gfx942(), F16, BF16, F32, 64, 64, 32), nullptr) << "no mixed f16 x bf16 instruction";
}

TEST(MFMATest, ChooseKeepsFragmentsAligned) {
  // gfx950 f16, K step 32, 64 x 64 per wave. Rows of 32 + pad f16: pad 8 gives 80 B, a multiple of the 16-byte
  // fragments of the K16 form; pad 4 gives 72 B, a multiple of 8 only, so the K8 form (8-byte fragments) is chosen.
  EXPECT_EQ(names(chooseMFMA(gfx950(), F16, F16, F32, 64, 64, 32, 80, 80)), "v_mfma_f32_32x32x16_f16");
  EXPECT_EQ(names(chooseMFMA(gfx950(), F16, F16, F32, 64, 64, 32, 72, 72)), "v_mfma_f32_32x32x8_f16");
  EXPECT_EQ(names(chooseMFMA(gfx950(), F16, F16, F32, 64, 64, 32, 80, 72)), "v_mfma_f32_32x32x8_f16") << "B alone";
  EXPECT_EQ(names(chooseMFMA(gfx950(), F16, F16, F32, 64, 64, 32, 72, 80)), "v_mfma_f32_32x32x8_f16") << "A alone";
  EXPECT_EQ(names(chooseMFMA(gfx950(), F16, F16, F32, 64, 64, 32, 0, 0)), "v_mfma_f32_32x32x16_f16") << "unknown";
  // 16 x 16 blocks: the same rule between the K32 and K16 forms.
  EXPECT_EQ(names(chooseMFMA(gfx950(), F16, F16, F32, 64, 16, 32, 72, 80)), "v_mfma_f32_16x16x16_f16");
  EXPECT_EQ(names(chooseMFMA(gfx950(), BF16, BF16, F32, 64, 64, 32, 88, 96)), "v_mfma_f32_32x32x8_bf16");
  // Rows of 68 B break even 8-byte fragments: nothing fits.
  EXPECT_EQ(chooseMFMA(gfx950(), F16, F16, F32, 64, 64, 32, 68, 64), nullptr);
  // gfx942's f16 forms all read 8 bytes: 72-byte rows are fine.
  EXPECT_EQ(names(chooseMFMA(gfx942(), F16, F16, F32, 64, 64, 32, 72, 72)), "v_mfma_f32_32x32x8_f16");
  // i8 fragments are 8 K values = 8 B: rows of 64 + 8 = 72 B fit, 64 + 4 = 68 B do not.
  EXPECT_EQ(names(chooseMFMA(gfx942(), I8, I8, I32, 64, 64, 64, 72, 72)), "v_mfma_i32_32x32x16_i8");
  EXPECT_EQ(chooseMFMA(gfx942(), I8, I8, I32, 64, 64, 64, 68, 72), nullptr);
  // f32 fragments are one value: any row of whole f32 fits.
  EXPECT_EQ(names(chooseMFMA(gfx942(), F32, F32, F32, 64, 64, 16, 68, 68)), "v_mfma_f32_32x32x2_f32");
}

// The emulator (tilec/emulator_mfma.h) keeps its own copy of the numbers, since runtime headers cannot use the
// compiler's table; it must implement every instruction of the table, with the same numbers.
TEST(MFMATest, EmulatorAgreesWithTable) {
  using emu::MfmaElem;
  auto elem = [](DType t) {
    switch (t) {
    case DType::F32: return MfmaElem::F32;
    case DType::F16: return MfmaElem::F16;
    case DType::BF16: return MfmaElem::BF16;
    case DType::I8: return MfmaElem::I8;
    case DType::FP8: return MfmaElem::FP8;
    case DType::BF8: return MfmaElem::BF8;
    case DType::I32:
    case DType::FP4X2:
    case DType::E8M0:
    case DType::FP6X4:
    case DType::BF6X4: break;
    }
    ADD_FAILURE() << "no MFMA operand of this dtype";
    return MfmaElem::F32;
  };
  ASSERT_EQ(std::size(emu::kAllMfma), allMFMA().size());
  std::set<std::string> seen;
  for (const emu::MfmaInstr *e : emu::kAllMfma) {
    SCOPED_TRACE(e->name);
    const MFMAInstr *ins = lookupMFMA(e->name);
    ASSERT_NE(ins, nullptr);
    EXPECT_TRUE(seen.insert(e->name).second);
    EXPECT_EQ(ins->builtin, e->builtin);
    EXPECT_EQ(ins->m, e->m);
    EXPECT_EQ(ins->n, e->n);
    EXPECT_EQ(ins->k, e->k);
    EXPECT_EQ(ins->kPerLane, e->kPerLane);
    EXPECT_EQ(ins->accPerLane, e->accPerLane);
    EXPECT_EQ(elem(ins->a), e->a);
    EXPECT_EQ(elem(ins->b), e->b);
    EXPECT_EQ(ins->availableOn(gfx942()), !e->gfx950Only);
    // The emulator's layout functions are the same formulas.
    for (unsigned i = 0; i < e->m; ++i)
      for (unsigned k = 0; k < e->k; ++k) {
        EXPECT_EQ(emu::mfma_slot_a(*e, i, k).lane, laneOfA(*ins, i, k).lane);
        EXPECT_EQ(emu::mfma_slot_a(*e, i, k).elem, laneOfA(*ins, i, k).elem);
        EXPECT_EQ(emu::mfma_slot_b(*e, k, i).lane, laneOfB(*ins, k, i).lane);
        EXPECT_EQ(emu::mfma_slot_b(*e, k, i).elem, laneOfB(*ins, k, i).elem);
      }
    for (unsigned i = 0; i < e->m; ++i)
      for (unsigned j = 0; j < e->n; ++j) {
        EXPECT_EQ(emu::mfma_slot_d(*e, i, j).lane, laneOfD(*ins, i, j).lane);
        EXPECT_EQ(emu::mfma_slot_d(*e, i, j).elem, laneOfD(*ins, i, j).elem);
      }
  }
}

//===--- The scaled MX instructions (docs/mx.md, typed in again) ---===//

TEST(MFMATest, ScaledTableMatchesDocs) {
  struct ScaledFact {
    const char *name, *builtin, *intrinsic;
    unsigned m, n, k, kPerLane, accPerLane, cyclesF4;
    const char *accType;
  };
  // clang-format off
  const ScaledFact facts[] = {
    {"v_mfma_scale_f32_16x16x128_f8f6f4", "__builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4", "llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4", 16, 16, 128, 32,  4, 16, "tilec::f32x4"},
    {"v_mfma_scale_f32_32x32x64_f8f6f4",  "__builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4",  "llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4",  32, 32,  64, 32, 16, 32, "tilec::f32x16"},
  };
  // clang-format on
  ASSERT_EQ(allScaledMFMA().size(), std::size(facts));
  for (const ScaledFact &f : facts) {
    SCOPED_TRACE(f.name);
    const ScaledMFMAInstr *ins = lookupScaledMFMA(f.name);
    ASSERT_NE(ins, nullptr);
    EXPECT_EQ(ins->builtin, f.builtin);
    EXPECT_EQ(ins->intrinsic, f.intrinsic);
    EXPECT_EQ(ins->m, f.m);
    EXPECT_EQ(ins->n, f.n);
    EXPECT_EQ(ins->k, f.k);
    EXPECT_EQ(ins->kPerLane, f.kPerLane);
    EXPECT_EQ(ins->accPerLane, f.accPerLane);
    EXPECT_EQ(ins->accType, f.accType);
    EXPECT_EQ(f.m * f.k / 64, f.kPerLane) << "64 lanes hold A once";
    EXPECT_EQ(f.m * f.n / 64, f.accPerLane);
    EXPECT_FALSE(ins->availableOn(gfx942()));
    EXPECT_TRUE(ins->availableOn(gfx950()));
    // 16 / 32 cycles with fp4 or fp6 operands, twice that when either is 8-bit.
    EXPECT_EQ(scaledCycles(*ins, MXFormat::FP4, MXFormat::FP4), f.cyclesF4);
    EXPECT_EQ(scaledCycles(*ins, MXFormat::FP6, MXFormat::BF6), f.cyclesF4);
    EXPECT_EQ(scaledCycles(*ins, MXFormat::FP8, MXFormat::FP4), 2 * f.cyclesF4);
    EXPECT_EQ(scaledCycles(*ins, MXFormat::FP4, MXFormat::BF8), 2 * f.cyclesF4);
  }
  // Format codes and operand dwords: LLVM's verifier and tests (0 fp8 8, 1 bf8 8, 2 fp6 6, 3 bf6 6, 4 fp4 4).
  const std::pair<const char *, unsigned> formats[] = {{"fp8", 8}, {"bf8", 8}, {"fp6", 6}, {"bf6", 6}, {"fp4", 4}};
  ASSERT_EQ(allMXFormats().size(), std::size(formats));
  for (unsigned code = 0; code < std::size(formats); ++code) {
    const MXFormatInfo &fi = info(static_cast<MXFormat>(code));
    EXPECT_EQ(fi.name, formats[code].first);
    EXPECT_EQ(fi.code, code);
    EXPECT_EQ(fi.dwords, formats[code].second);
    EXPECT_EQ(32 * fi.bits / 32, fi.dwords) << "32 elements of `bits` fill `dwords` 32-bit registers";
  }
}

TEST(MFMATest, ScaledLayoutsPartitionTheOperands) {
  for (const ScaledMFMAInstr &ins : allScaledMFMA())
    for (MXFormat f : {MXFormat::FP8, MXFormat::BF8, MXFormat::FP4}) {
      SCOPED_TRACE(std::string(ins.name) + " " + info(f).name.str());
      std::set<std::pair<unsigned, unsigned>> slots;
      for (unsigned i = 0; i < ins.m; ++i)
        for (unsigned k = 0; k < ins.k; ++k) {
          std::optional<LaneSlot> s = laneOfScaledOperand(ins, f, i, k);
          ASSERT_TRUE(s);
          EXPECT_LT(s->lane, 64u);
          EXPECT_LT(s->elem, ins.kPerLane);
          EXPECT_EQ(s->lane % ins.m, i) << "a lane holds one row";
          EXPECT_TRUE(slots.insert({s->lane, s->elem}).second);
        }
      EXPECT_EQ(slots.size(), 64u * ins.kPerLane);
    }
  const ScaledMFMAInstr &s32 = *lookupScaledMFMA("v_mfma_scale_f32_32x32x64_f8f6f4");
  const ScaledMFMAInstr &s16 = *lookupScaledMFMA("v_mfma_scale_f32_16x16x128_f8f6f4");
  // AMD's 32x32x64 fp8 example: lane 0 holds K 0..15 then 32..47, lane 32 K 16..31 then 48..63.
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::FP8, 0, 15)->lane, 0u);
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::FP8, 0, 16)->lane, 32u);
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::FP8, 0, 16)->elem, 0u);
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::FP8, 0, 40)->lane, 0u);
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::FP8, 0, 40)->elem, 24u);
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::FP8, 5, 63)->lane, 37u);
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::FP8, 5, 63)->elem, 31u);
  // fp4: 32 consecutive K values per lane.
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::FP4, 3, 31)->lane, 3u);
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::FP4, 3, 32)->lane, 35u);
  EXPECT_EQ(laneOfScaledOperand(s16, MXFormat::FP4, 3, 100)->lane, 51u);
  EXPECT_EQ(laneOfScaledOperand(s16, MXFormat::FP4, 3, 100)->elem, 4u);
  // 16x16x128 fp8: groups at K 0, 16, 32, 48, second halves at K + 64.
  EXPECT_EQ(laneOfScaledOperand(s16, MXFormat::FP8, 2, 50)->lane, 50u);
  EXPECT_EQ(laneOfScaledOperand(s16, MXFormat::FP8, 2, 50)->elem, 2u);
  EXPECT_EQ(laneOfScaledOperand(s16, MXFormat::FP8, 2, 66)->lane, 2u);
  EXPECT_EQ(laneOfScaledOperand(s16, MXFormat::FP8, 2, 66)->elem, 18u);
  // fp6 / bf6, from the CDNA4 ISA guide's tables (section 7.1.5.1): 16x16x128, lanes 16-31 hold K 32-47 in v0-v2
  // and K 48-63 in v3-v5; 32x32x64, lanes 32-63 hold K 32-63 (element = K offset in the lane's run of 32).
  EXPECT_EQ(laneOfScaledOperand(s16, MXFormat::FP6, 5, 40)->lane, 21u);
  EXPECT_EQ(laneOfScaledOperand(s16, MXFormat::FP6, 5, 40)->elem, 8u);
  EXPECT_EQ(laneOfScaledOperand(s16, MXFormat::FP6, 5, 50)->elem, 18u);
  EXPECT_EQ(laneOfScaledOperand(s16, MXFormat::BF6, 15, 127)->lane, 63u);
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::BF6, 0, 31)->lane, 0u);
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::BF6, 0, 32)->lane, 32u);
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::FP6, 17, 47)->lane, 49u);
  EXPECT_EQ(laneOfScaledOperand(s32, MXFormat::FP6, 17, 47)->elem, 15u);
  // The fp6x4 / bf6x4 variants count K in 3-byte columns of 4 values: 64 / 4 = 16 and 128 / 4 = 32 columns per
  // instruction, 32 / 4 = 8 per lane, one run; codes 2 (fp6) and 3 (bf6).
  const MFMAInstr *v = scaledVariant(s32, DType::FP6X4, DType::BF6X4);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->k, 16u);
  EXPECT_EQ(v->kPerLane, 8u);
  EXPECT_EQ(v->kRun(), 8u);
  EXPECT_EQ(v->codeA, 2u);
  EXPECT_EQ(v->codeB, 3u);
  EXPECT_EQ(v->macs(), 32u * 32u * 64u);
  EXPECT_EQ(v->ldsReadsPerRun(), 3u); // 24 bytes, 8-byte aligned: three 8-byte reads
  EXPECT_EQ(v->ldsReadInstructionsPerRun(), 2u); // a ds_read2_b64 and a ds_read_b64
  v = scaledVariant(s16, DType::BF6X4, DType::BF6X4);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->k, 32u);
  EXPECT_EQ(v->kPerLane, 8u);
  EXPECT_EQ(v->codeA, 3u);
  // Operands of two column widths: the variant counts A's columns, operandView gives B's fragments in B's own (fp6
  // by fp8: B's 64 one-value columns per instruction, two runs of 16 per lane; fp4 by bf6: 16 three-byte columns, one
  // run of 8 read as three 8-byte pieces). The codes are each operand's; an fp8 operand doubles the cycles.
  v = scaledVariant(s32, DType::FP6X4, DType::FP8);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->k, 16u);
  EXPECT_EQ(v->codeA, 2u);
  EXPECT_EQ(v->codeB, 0u);
  EXPECT_EQ(v->cycles, scaledVariant(s32, DType::FP8, DType::FP8)->cycles);
  const MFMAInstr &b8 = operandView(*v, true);
  EXPECT_EQ(b8.k, 64u);
  EXPECT_EQ(b8.kRun(), 16u);
  EXPECT_EQ(b8.readsPerFragment(), 2u);
  EXPECT_EQ(&operandView(*v, false), v);
  v = scaledVariant(s32, DType::FP4X2, DType::BF6X4);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->k, 32u);
  EXPECT_EQ(v->codeA, 4u);
  EXPECT_EQ(v->codeB, 3u);
  const MFMAInstr &b6 = operandView(*v, true);
  EXPECT_EQ(b6.k, 16u);
  EXPECT_EQ(b6.kRun(), 8u);
  EXPECT_EQ(b6.ldsReadsPerRun(), 3u);
  // One column width: B's view is the instruction itself. Other dtypes have no variant.
  v = scaledVariant(s32, DType::FP8, DType::BF8);
  EXPECT_EQ(&operandView(*v, true), v);
  EXPECT_EQ(scaledVariant(s32, DType::F16, DType::FP8), nullptr);
  EXPECT_EQ(scaledVariant(s32, DType::FP4X2, DType::FP4X2)->ldsReadsPerRun(), 1u);
  // Scales: row i, block b in lane i + M * b.
  EXPECT_EQ(laneOfScale(s16, 7, 3), 55u);
  EXPECT_EQ(laneOfScale(s32, 31, 1), 63u);
}

TEST(MFMATest, EmulatorAgreesWithScaledTable) {
  ASSERT_EQ(std::size(emu::kAllMx), allScaledMFMA().size());
  for (const emu::MxInstr *e : emu::kAllMx) {
    SCOPED_TRACE(e->name);
    const ScaledMFMAInstr *ins = lookupScaledMFMA(e->name);
    ASSERT_NE(ins, nullptr);
    EXPECT_EQ(ins->builtin, e->builtin);
    EXPECT_EQ(ins->m, e->m);
    EXPECT_EQ(ins->n, e->n);
    EXPECT_EQ(ins->k, e->k);
    EXPECT_EQ(ins->kPerLane, e->kPerLane);
    EXPECT_EQ(ins->accPerLane, e->accPerLane);
    for (const MXFormatInfo &fi : allMXFormats()) {
      const emu::MxFormatInfo &ef = emu::mx_info(static_cast<emu::MxFormat>(fi.code));
      EXPECT_EQ(fi.name, ef.name);
      EXPECT_EQ(fi.bits, ef.bits);
      EXPECT_EQ(fi.dwords, ef.dwords);
      ASSERT_NE(fi.kChunk, 0u) << fi.name.str();
      for (unsigned i = 0; i < e->m; ++i)
        for (unsigned k = 0; k < e->k; ++k) {
          emu::MfmaSlot es = emu::mx_slot(*e, ef.format, i, k);
          LaneSlot cs = *laneOfScaledOperand(*ins, fi.format, i, k);
          EXPECT_EQ(es.lane, cs.lane);
          EXPECT_EQ(es.elem, cs.elem);
        }
    }
    for (unsigned i = 0; i < e->m; ++i)
      for (unsigned b = 0; b < e->k / 32; ++b) EXPECT_EQ(emu::mx_scale_lane(*e, i, b), laneOfScale(*ins, i, b));
  }
}
