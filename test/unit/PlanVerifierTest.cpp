//===- PlanVerifierTest.cpp - The K-loop plan's invariants ------------------===//
//
// verifyPlans (ir/Verifier.h) on a real plan, then on the same plan broken one way at a time: each break must be
// reported as an internal error, never passed on to the emitter. gemm_fp8_gfx950 with a K step of 64
// (test/Resources/Inputs/staged-fp8-k64.tile) has a staged K loop (depth 3): 4 instruction K steps of 2 x 2 blocks,
// 2 LDS write and 2 load statements, all placed in the first segment, 2 LDS stages.
//
//===----------------------------------------------------------------------===//
#include "TileModule.h"
#include "ir/Verifier.h"
#include "passes/ReductionStrategy.h"
#include "passes/SoftwarePipeline.h"
#include "llvm/Support/Casting.h"
#include <functional>
#include <gtest/gtest.h>

using namespace tilec;

namespace {

/// Plans staged-fp8-k64.tile, applies `breakIt` to its K loop's plan and returns verifyPlans' answer and messages
/// (only the verifier's: building the IR notes that gfx950 has a faster fp8 instruction than the file names).
std::pair<bool, std::string> check(const std::function<void(ir::KLoopPlan &)> &breakIt) {
  test::TileModule t(TILEC_TEST_DIR "/Resources/Inputs/staged-fp8-k64.tile");
  if (!t.module) return {false, t.failure};
  ir::Module &module = *t.module;
  DiagnosticEngine &diags = t.diags;
  planReductions(module);
  if (!verifyModule(module, diags) || !planPipelines(module, diags)) return {false, "planning failed: " + t.messages};
  for (auto &s : module.kernels.front()->body)
    if (auto *f = llvm::dyn_cast<ir::For>(s.get()); f && f->plan) breakIt(*f->plan);
  size_t before = t.messages.size();
  bool ok = verifyPlans(module, diags);
  return {ok, t.messages.substr(before)};
}

TEST(PlanVerifierTest, TheStagedPlanHoldsTogether) {
  auto [ok, messages] = check([](ir::KLoopPlan &p) {
    EXPECT_EQ(p.depth, 3u);
    EXPECT_EQ(p.staged.size(), 4u);
    // A step of 16 MFMAs outlasts a global load (80 cycles in the target table): one register set.
    EXPECT_EQ(p.registerSets, 1u);
    // The order its _unaligned kernel runs: 4 x 4 = 16 MFMAs, 12 of them before the LDS writes.
    ASSERT_TRUE(p.schedule.has_value());
    EXPECT_EQ(p.schedule->mfmasBefore + p.schedule->mfmasAfter, 16u);
  });
  EXPECT_TRUE(ok) << messages;
  EXPECT_EQ(messages, "");
}

TEST(PlanVerifierTest, EachBreakIsAnInternalError) {
  struct Case {
    const char *what;
    std::function<void(ir::KLoopPlan &)> breakIt;
  };
  const Case cases[] = {
      {"segments differ from the instruction K steps", [](ir::KLoopPlan &p) { p.staged.pop_back(); }},
      {"do not place every write and load once", [](ir::KLoopPlan &p) { p.staged.back().writes += 1; }},
      {"do not place every write and load once", [](ir::KLoopPlan &p) { p.staged.front().loads = 0; }},
      {"MFMAs differ from an instruction K step's blocks", [](ir::KLoopPlan &p) { p.staged[1].groups.clear(); }},
      {"staged with one LDS stage", [](ir::KLoopPlan &p) { p.doubleLds = false; }},
      {"a staged order in a loop that is not staged", [](ir::KLoopPlan &p) { p.depth = 2; }},
      {"staged without a masked loop", [](ir::KLoopPlan &p) { p.splitEdges = p.peelTail = false; }},
      {"pipeline depth out of range", [](ir::KLoopPlan &p) { p.depth = 4; }},
      {"a step order whose MFMAs differ from the mma's", [](ir::KLoopPlan &p) { p.schedule->mfmasAfter += 1; }},
      {"a step order with no loads after each MFMA", [](ir::KLoopPlan &p) { p.schedule->loadsPerMfma = 0; }},
      {"a step order without a prefetch or one mma", [](ir::KLoopPlan &p) {
         p.depth = 1;
         p.staged.clear();
         p.doubleLds = false;
       }},
      {"2 register sets in a main loop of one step an iteration", [](ir::KLoopPlan &p) {
         p.registerSets = 2;
         p.stepPerStage = false;
       }},
      {"register sets out of range", [](ir::KLoopPlan &p) { p.registerSets = 3; }},
      {"register sets in a loop that is not staged", [](ir::KLoopPlan &p) {
         p.depth = 2;
         p.staged.clear();
         p.stepPerStage = false;
         p.registerSets = 2;
       }},
      {"an LDS write after the staged step's barrier", [](ir::KLoopPlan &p) {
         p.staged.front().writes -= 1;
         p.staged.back().writes += 1;
       }},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    auto [ok, messages] = check(c.breakIt);
    EXPECT_FALSE(ok);
    EXPECT_NE(messages.find("internal error: IR verifier: K loop over 'k': "), std::string::npos) << messages;
    EXPECT_NE(messages.find(c.what), std::string::npos) << messages;
  }
}

} // namespace
