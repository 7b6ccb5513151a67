//===- ScaleLoadsTest.cpp - A scaled mma's scale bytes per K step, by hand ---===//
//
// passes/PlanScaleLoads.h against the layout of the scaled MFMAs (docs/mx.md, [AMD-BLOG], [TRITON]): lane l of an
// instruction of block height M takes K block j P + l / M of instruction K step j, P = 64 / M. After the lane's shift
// by 8 (l / M) bits its byte of step j is byte j P of the row's bytes: chunk j P / chunkBytes, dword (j P %
// chunkBytes) / 4, opsel j P % 4. Each expectation below is worked out from that rule, not read off the code.
//
//===----------------------------------------------------------------------===//
#include "passes/PlanScaleLoads.h"
#include "passes/SoftwarePipeline.h"

#include "TileModule.h"
#include "ir/Verifier.h"
#include "llvm/Support/Casting.h"
#include <functional>
#include <gtest/gtest.h>

using namespace tilec;

namespace {

const MFMAInstr &variant(const char *name, DType a, DType b) {
  const ScaledMFMAInstr *scaled = lookupScaledMFMA(name);
  EXPECT_NE(scaled, nullptr) << name;
  const MFMAInstr *ins = scaledVariant(*scaled, a, b);
  EXPECT_NE(ins, nullptr) << name;
  return *ins;
}

/// The plan's sizes: lane group (M), blocks per instruction K step (P), bytes per row, chunk width and count.
void expectSizes(const ir::ScaleLoads &s, unsigned laneGroup, unsigned perInstr, unsigned bytes, unsigned chunkBytes,
                 unsigned chunks) {
  EXPECT_EQ(s.laneGroup, laneGroup);
  EXPECT_EQ(s.perInstr, perInstr);
  EXPECT_EQ(s.bytes, bytes);
  EXPECT_EQ(s.chunkBytes, chunkBytes);
  EXPECT_EQ(s.chunks, chunks);
}

void expectSelect(const ir::ScaleLoads &s, unsigned j, unsigned chunk, unsigned dword, unsigned opsel) {
  ASSERT_LT(j, s.select.size());
  EXPECT_EQ(s.select[j].chunk, chunk) << "step " << j;
  EXPECT_EQ(s.select[j].dword, dword) << "step " << j;
  EXPECT_EQ(s.select[j].opsel, opsel) << "step " << j;
}

} // namespace

// fp4 x fp4, 32x32x64, K step of 128 fp4x2 columns (256 values): 4 instruction K steps of 2 blocks, 8 bytes a row in
// one 8-byte chunk; steps at bytes 0, 2, 4, 6.
TEST(ScaleLoads, Fp4ThirtyTwoByThirtyTwoDeepStep) {
  const MFMAInstr &ins = variant("v_mfma_scale_f32_32x32x64_f8f6f4", DType::FP4X2, DType::FP4X2);
  ir::ScaleLoads s = scaleLoadsFor(ins, 128);
  expectSizes(s, 32, 2, 8, 8, 1);
  EXPECT_EQ(s.registersPerRow(), 2u);
  ASSERT_EQ(s.select.size(), 4u);
  expectSelect(s, 0, 0, 0, 0);
  expectSelect(s, 1, 0, 0, 2);
  expectSelect(s, 2, 0, 1, 0);
  expectSelect(s, 3, 0, 1, 2);
}

// fp8 x fp8, 32x32x64, K step 128 values: 2 steps, 4 bytes (one dword), steps at bytes 0 and 2.
TEST(ScaleLoads, Fp8ThirtyTwoByThirtyTwo) {
  ir::ScaleLoads s = scaleLoadsFor(variant("v_mfma_scale_f32_32x32x64_f8f6f4", DType::FP8, DType::FP8), 128);
  expectSizes(s, 32, 2, 4, 4, 1);
  EXPECT_EQ(s.registersPerRow(), 1u);
  ASSERT_EQ(s.select.size(), 2u);
  expectSelect(s, 0, 0, 0, 0);
  expectSelect(s, 1, 0, 0, 2);
}

// fp8 x fp8, 16x16x128 (4 lane groups of 16), K step 512 values: 4 steps of 4 blocks, 16 bytes in two 8-byte
// chunks; steps at bytes 0, 4 (chunk 0, dwords 0 and 1) and 8, 12 (chunk 1); opsel 0 throughout.
TEST(ScaleLoads, Fp8SixteenBySixteenTwoChunks) {
  ir::ScaleLoads s = scaleLoadsFor(variant("v_mfma_scale_f32_16x16x128_f8f6f4", DType::FP8, DType::FP8), 512);
  expectSizes(s, 16, 4, 16, 8, 2);
  EXPECT_EQ(s.registersPerRow(), 4u);
  ASSERT_EQ(s.select.size(), 4u);
  expectSelect(s, 0, 0, 0, 0);
  expectSelect(s, 1, 0, 1, 0);
  expectSelect(s, 2, 1, 0, 0);
  expectSelect(s, 3, 1, 1, 0);
}

// fp6 x bf6, 32x32x64, K step of 16 fp6x4 columns (64 values): one step, 2 bytes (a 2-byte chunk, one register).
// Three steps of 32x32 (6 bytes) are three 2-byte chunks: 6 is not a multiple of 4.
TEST(ScaleLoads, SixBitOneAndThreeSteps) {
  const MFMAInstr &ins = variant("v_mfma_scale_f32_32x32x64_f8f6f4", DType::FP6X4, DType::BF6X4);
  ir::ScaleLoads one = scaleLoadsFor(ins, 16);
  expectSizes(one, 32, 2, 2, 2, 1);
  EXPECT_EQ(one.registersPerRow(), 1u);
  expectSelect(one, 0, 0, 0, 0);
  ir::ScaleLoads three = scaleLoadsFor(ins, 48);
  expectSizes(three, 32, 2, 6, 2, 3);
  expectSelect(three, 1, 1, 0, 0);
  expectSelect(three, 2, 2, 0, 0);
}

// The verifier on a real plan (examples/gemm_mxfp4_gfx950.tile, staged through LDS), then broken one way at a time:
// each break is an internal error, never passed on to the emitter.
namespace {

std::pair<bool, std::string> verifyScales(const std::function<void(ir::ScaleLoads &)> &breakIt) {
  test::TileModule t(TILEC_EXAMPLES_DIR "/gemm_mxfp4_gfx950.tile");
  if (!t.module) return {false, t.failure};
  unsigned found = 0;
  std::function<void(ir::Body &)> visit = [&](ir::Body &body) {
    for (auto &s : body) {
      if (auto *f = llvm::dyn_cast<ir::For>(s.get())) visit(f->body);
      if (auto *m = llvm::dyn_cast<ir::MMA>(s.get()); m && m->scaleA) {
        ++found;
        breakIt(m->scaleLoads);
      }
    }
  };
  visit(t.module->kernels.front()->body);
  if (found != 1) return {false, "expected one scaled mma"};
  return {verifyModule(*t.module, t.diags), t.messages};
}

} // namespace

TEST(ScaleLoads, VerifierAcceptsThePlanAndRefusesEachBreak) {
  auto [ok, messages] = verifyScales([](ir::ScaleLoads &s) { EXPECT_NE(s.ldsA, nullptr); });
  EXPECT_TRUE(ok) << messages;
  const std::pair<const char *, std::function<void(ir::ScaleLoads &)>> breaks[] = {
      {"a chunk of 3 bytes", [](ir::ScaleLoads &s) { s.chunkBytes = 3; }},
      {"step 1 at opsel 0", [](ir::ScaleLoads &s) { s.select[1].opsel = 0; }},
      {"step 2 in dword 0", [](ir::ScaleLoads &s) { s.select[2].dword = 0; }},
      {"one instruction K step missing", [](ir::ScaleLoads &s) { s.select.pop_back(); }},
      {"B's LDS buffer missing", [](ir::ScaleLoads &s) { s.ldsB = nullptr; }},
      {"A's buffer given as B's", [](ir::ScaleLoads &s) { s.ldsB = s.ldsA; }},
      {"a lane group of 16", [](ir::ScaleLoads &s) { s.laneGroup = 16; }},
  };
  for (const auto &[what, breakIt] : breaks) {
    auto [broken, text] = verifyScales(breakIt);
    EXPECT_FALSE(broken) << what;
    EXPECT_NE(text.find("internal error: IR verifier: scaled mma whose scale loads do not cover its K step"),
                        std::string::npos)
        << what << ": " << text;
  }
}

// Scales read at each lane group's byte (ScaleLoads::readAtLaneGroup, passes/PlanScaleLoads.h, readScalesAtLaneGroups):
// set once the K loops are planned, with the bytes the last row's reads reach after each stage of the two buffers. For
// gemm_mxfp6_gfx950 ([128, 4] scale bytes a step, lane groups of 32, so lane group 1 reads 1 byte past its row's 4):
// 128 x 4 = 512 B a stage, + 1 = 513, to whole 16 B: 528, so 16 bytes of tail. gemm_mxfp4_kn_gfx950 takes exactly
// half the CU's 160 KiB (81920 B, 2 workgroups): any tail costs it a workgroup, so it keeps the shift.
namespace {

struct Planned {
  test::TileModule t;
  ir::ScaleLoads *scales = nullptr;
  explicit Planned(const char *path) : t(path) {
    if (!t.module || !planPipelines(*t.module, t.diags)) return;
    readScalesAtLaneGroups(*t.module);
    std::function<void(ir::Body &)> visit = [&](ir::Body &body) {
      for (auto &s : body) {
        if (auto *f = llvm::dyn_cast<ir::For>(s.get())) visit(f->body);
        if (auto *m = llvm::dyn_cast<ir::MMA>(s.get()); m && m->scaleA) scales = &m->scaleLoads;
      }
    };
    visit(t.module->kernels.front()->body);
  }
};

} // namespace

TEST(ScaleLoads, ReadAtLaneGroupsWithTheTailTheyReach) {
  Planned p(TILEC_EXAMPLES_DIR "/gemm_mxfp6_gfx950.tile");
  ASSERT_NE(p.scales, nullptr) << p.t.failure << p.t.messages;
  EXPECT_TRUE(p.scales->readAtLaneGroup);
  EXPECT_EQ(p.scales->readSlack(), 1u);
  ASSERT_NE(p.scales->ldsA, nullptr);
  EXPECT_EQ(p.scales->ldsA->tailBytes, 16u);
  EXPECT_EQ(p.scales->ldsB->tailBytes, 16u);
  EXPECT_EQ(p.scales->ldsA->stageBytes(), 528u);
  EXPECT_TRUE(verifyLdsLayouts(*p.t.module, p.t.diags)) << p.t.messages;
  // Without the tail, the last row's reads leave the buffer.
  const_cast<ir::LdsBuffer *>(p.scales->ldsB)->tailBytes = 0;
  EXPECT_FALSE(verifyLdsLayouts(*p.t.module, p.t.diags));
  EXPECT_NE(p.t.messages.find("internal error: IR verifier: lds c_scales_b_lds: scales read at lane groups' bytes past "
                              "its rows"),
            std::string::npos)
      << p.t.messages;

  Planned edge(TILEC_EXAMPLES_DIR "/gemm_mxfp4_kn_gfx950.tile");
  ASSERT_NE(edge.scales, nullptr) << edge.t.failure << edge.t.messages;
  EXPECT_FALSE(edge.scales->readAtLaneGroup);
  EXPECT_EQ(edge.scales->ldsA->tailBytes, 0u);
}
