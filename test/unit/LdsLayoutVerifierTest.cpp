//===- LdsLayoutVerifierTest.cpp - The LDS layouts' invariants ----------------===//
//
// verifyLdsLayouts (ir/Verifier.h) on the layouts the LDS swizzle pass chooses, then on layouts broken one way at a
// time: each break must be an internal error, never passed on to the emitter. examples/transpose_f16.tile's s (32
// stored rows of 128 f16: 16 chunks of 16 B a row) gets XORed columns (3, 3, 1); gemm_f16's sB, stored transposed and
// read by the mma, gets a row swizzle or nothing, never a column XOR.
//
//===----------------------------------------------------------------------===//
#include "TileModule.h"
#include "ir/Verifier.h"
#include "passes/LdsSwizzle.h"
#include "passes/ReductionStrategy.h"
#include <functional>
#include <gtest/gtest.h>

using namespace tilec;

namespace {

/// Builds `path`, runs the swizzle pass, applies `breakIt` to its first LDS buffer and returns verifyLdsLayouts'
/// answer and messages.
std::pair<bool, std::string> check(const char *path, const std::function<void(ir::LdsBuffer &)> &breakIt) {
  test::TileModule t(path);
  if (!t.module) return {false, t.failure};
  planReductions(*t.module);
  chooseLdsSwizzles(*t.module);
  breakIt(*t.module->kernels.front()->ldsBuffers.front());
  bool ok = verifyLdsLayouts(*t.module, t.diags);
  return {ok, t.messages};
}

const char *const kTranspose = TILEC_EXAMPLES_DIR "/transpose_f16.tile";
const char *const kGemm = TILEC_EXAMPLES_DIR "/gemm_f16.tile";

void expectBroken(const char *path, const std::function<void(ir::LdsBuffer &)> &breakIt, const char *what) {
  auto [ok, messages] = check(path, breakIt);
  EXPECT_FALSE(ok) << what;
  EXPECT_NE(messages.find("internal error: IR verifier: lds "), std::string::npos) << messages;
  EXPECT_NE(messages.find(what), std::string::npos) << messages;
}

} // namespace

TEST(LdsLayoutVerifierTest, ThePassesLayoutsHold) {
  auto [ok, messages] = check(kTranspose, [](ir::LdsBuffer &b) {
    EXPECT_EQ(b.colXorFrom, 3u);
    EXPECT_EQ(b.colXorMask, 3u);
    EXPECT_EQ(b.colXorShift, 1u);
    EXPECT_FALSE(b.swizzled());
  });
  EXPECT_TRUE(ok) << messages;
  auto [gemmOk, gemmMessages] = check(kGemm, [](ir::LdsBuffer &b) { EXPECT_FALSE(b.colXorred()); });
  EXPECT_TRUE(gemmOk) << gemmMessages;
}

TEST(LdsLayoutVerifierTest, EachBreakIsAnInternalError) {
  // Chunk j ^ (1 << 4) of 16 chunks leaves the row.
  expectBroken(kTranspose, [](ir::LdsBuffer &b) { b.colXorShift = 4, b.colXorMask = 1; }, "out of its row");
  // A mask that is not 2^w - 1.
  expectBroken(kTranspose, [](ir::LdsBuffer &b) { b.colXorMask = 2; }, "out of its row");
  // Both layouts at once: the emitter XORs by the row as placed and would not follow.
  expectBroken(kTranspose, [](ir::LdsBuffer &b) { b.swizzleFrom = 4, b.swizzleMask = 1, b.swizzleShift = 1; },
               "both rows swizzled and columns XORed");
  // An mma operand: its fragment reads do not XOR.
  expectBroken(kGemm, [](ir::LdsBuffer &b) { b.colXorFrom = 0, b.colXorMask = 1, b.colXorShift = 0; },
               "not only register tiles'");
  // A row swizzle whose bits read overlap the bits changed is not its own inverse.
  expectBroken(kTranspose, [](ir::LdsBuffer &b) {
    b.colXorMask = 0;
    b.swizzleFrom = 1, b.swizzleMask = 3, b.swizzleShift = 1;
  }, "not its own inverse");
}
