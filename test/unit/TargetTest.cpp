//===- TargetTest.cpp - The target table against ../shared/facts -----------===//
//
// Each expectation is a number from facts/occupancy.md, typed in by hand: the table must not drift from them.
//
//===----------------------------------------------------------------------===//
#include "support/DType.h"
#include "target/MFMA.h"
#include "target/Target.h"
#include "llvm/ADT/STLExtras.h"
#include <gtest/gtest.h>

using namespace tilec;

TEST(TargetTest, Gfx942MatchesOccupancyFacts) {
  const Target *t = lookupTarget("gfx942");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->waveSize, 64u);
  EXPECT_EQ(t->simdsPerCU, 4u);
  EXPECT_EQ(t->maxWavesPerSimd, 8u);
  EXPECT_EQ(t->vgprsPerLane, 512u);
  EXPECT_EQ(t->maxArchVgprs, 256u);
  EXPECT_EQ(t->maxAgprs, 256u);
  EXPECT_EQ(t->vgprGranule, 8u);
  EXPECT_EQ(t->sgprsPerSimd, 800u);
  EXPECT_EQ(t->addressableSgprs, 102u);
  EXPECT_EQ(t->reservedSgprs, 6u);
  EXPECT_EQ(t->ldsBytesPerCU, 65536u);
  EXPECT_EQ(t->ldsGranule, 512u);
  EXPECT_EQ(t->maxWorkgroupSize, 1024u);
  EXPECT_EQ(t->barrierSlotsPerCU, 16u);
  EXPECT_EQ(t->computeUnits, 304u);
  EXPECT_EQ(t->maxBytesPerLaneAccess, 16u);
  EXPECT_EQ(t->fp8Encoding, Fp8Encoding::FNUZ);
  EXPECT_EQ(t->minLLVMMajor, 19u);
}

TEST(TargetTest, Gfx950MatchesOccupancyFacts) {
  const Target *t = lookupTarget("gfx950");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->ldsBytesPerCU, 163840u);
  EXPECT_EQ(t->ldsGranule, 1280u);
  EXPECT_EQ(t->computeUnits, 256u);
  EXPECT_EQ(t->vgprsPerLane, 512u);
  EXPECT_EQ(t->maxWavesPerSimd, 8u);
  EXPECT_EQ(t->fp8Encoding, Fp8Encoding::OCP);
  EXPECT_EQ(t->minLLVMMajor, 20u) << "gfx950 arrived in LLVM 20 (facts/toolchain.md)";
}

TEST(TargetTest, UnknownTargetsAreRejected) {
  EXPECT_EQ(lookupTarget("gfx90a"), nullptr);
  EXPECT_EQ(lookupTarget(""), nullptr);
  EXPECT_EQ(lookupTarget("GFX942"), nullptr);
  EXPECT_EQ(&defaultTarget(), lookupTarget("gfx942"));
}

TEST(DTypeTest, SizesAndNames) {
  struct Case { const char *name; unsigned bytes; bool arithmetic; };
  const Case cases[] = {{"f32", 4, true}, {"f16", 2, true}, {"bf16", 2, true}, {"i8", 1, true},
                        {"i32", 4, true}, {"fp8", 1, false}, {"bf8", 1, false}};
  for (const Case &c : cases) {
    std::optional<DType> d = parseDType(c.name);
    ASSERT_TRUE(d.has_value()) << c.name;
    EXPECT_EQ(sizeOf(*d), c.bytes) << c.name;
    EXPECT_EQ(info(*d).hasArithmetic, c.arithmetic) << c.name;
    EXPECT_EQ(name(*d), c.name);
  }
  EXPECT_FALSE(parseDType("f64").has_value());
  EXPECT_FALSE(parseDType("F16").has_value());
}

// A B given K x N whose elements pack N values (fp4x2, fp6x4, bf6x4) reaches a scaled MFMA only through a transposing
// LDS read of single values; Sema accepts such a B without asking the target (frontend/SemaGEMM.cpp), so every target
// with a scaled MFMA must have the reads of 4- and 6-bit values, and no target without one may claim them.
TEST(TargetTest, ScaledMfmaTargetsHavePackedTransposingReads) {
  for (const char *arch : {"gfx942", "gfx950"}) {
    const Target *t = lookupTarget(arch);
    ASSERT_NE(t, nullptr) << arch;
    bool scaled = llvm::any_of(allScaledMFMA(), [&](const ScaledMFMAInstr &i) { return i.availableOn(*t); });
    EXPECT_EQ(t->hasLdsTransposeRead(4), scaled) << arch;
    EXPECT_EQ(t->hasLdsTransposeRead(6), scaled) << arch;
  }
}
