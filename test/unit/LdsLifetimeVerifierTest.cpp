//===- LdsLifetimeVerifierTest.cpp - Fragments read before a loop, buffers sharing bytes ===//
//
// verifyLdsLifetimes (ir/Verifier.h) on what passes/HoistFragments.h and passes/ShareLds.h decide for
// examples/attention_fwd_d128_f16.tile (Q's fragments read before the loop over K/V blocks; sK and sV in sQ's
// bytes), then on the IR broken one way at a time: each break must be an internal error, never passed on to the
// emitter.
//
//===----------------------------------------------------------------------===//
#include "TileModule.h"
#include "ir/Verifier.h"
#include "passes/HoistFragments.h"
#include "passes/ReductionStrategy.h"
#include "passes/ShareLds.h"
#include "llvm/Support/Casting.h"
#include <functional>
#include <gtest/gtest.h>

using namespace tilec;

namespace {

const char *const kAttention = TILEC_EXAMPLES_DIR "/attention_fwd_d128_f16.tile";

/// Builds the example, runs the passes, applies `breakIt` to its kernel and returns verifyLdsLifetimes' answer and
/// messages.
std::pair<bool, std::string> check(const std::function<void(ir::Kernel &)> &breakIt) {
  test::TileModule t(kAttention);
  if (!t.module) return {false, t.failure};
  planReductions(*t.module);
  hoistLoopInvariantFragments(*t.module);
  shareLdsBuffers(*t.module);
  breakIt(*t.module->kernels.front());
  bool ok = verifyLdsLifetimes(*t.module, t.diags);
  return {ok, t.messages};
}

void expectBroken(const std::function<void(ir::Kernel &)> &breakIt, const char *what) {
  auto [ok, messages] = check(breakIt);
  EXPECT_FALSE(ok) << what;
  EXPECT_NE(messages.find("internal error: IR verifier: "), std::string::npos) << messages;
  EXPECT_NE(messages.find(what), std::string::npos) << messages;
}

ir::LdsBuffer &buffer(ir::Kernel &k, const char *name) {
  for (auto &b : k.ldsBuffers)
    if (b->name == name) return *b;
  ADD_FAILURE() << "no lds " << name;
  return *k.ldsBuffers.front();
}

/// Index of the top-level statement for which `is` holds, or the body's size.
size_t find(ir::Kernel &k, const std::function<bool(ir::Stmt &)> &is) {
  for (size_t i = 0; i < k.body.size(); ++i)
    if (is(*k.body[i])) return i;
  return k.body.size();
}

bool placedBarrier(ir::Stmt &s, const char *about) {
  auto *b = llvm::dyn_cast<ir::Barrier>(&s);
  return b && b->madeFor.find(about) != std::string::npos;
}

ir::For &loop(ir::Kernel &k) {
  return *llvm::cast<ir::For>(k.body[find(k, [](ir::Stmt &s) { return llvm::isa<ir::For>(&s); })].get());
}

} // namespace

TEST(LdsLifetimeVerifierTest, ThePassesDecisionsHold) {
  auto [ok, messages] = check([](ir::Kernel &k) {
    // S's A (sQ) is read before the loop; O's A comes from s's registers.
    size_t read = find(k, [](ir::Stmt &s) { return llvm::isa<ir::FragmentRead>(&s); });
    ASSERT_LT(read, k.body.size());
    const ir::MMA *m = llvm::cast<ir::FragmentRead>(k.body[read].get())->mma;
    EXPECT_EQ(m->a->name, "sQ");
    EXPECT_EQ(m->aHoisted, k.body[read].get());
    EXPECT_TRUE(placedBarrier(*k.body[read - 1], "LDS writes of sQ"));
    // sQ's 33792 B are the first of sK's and sV's 16896 + 17408.
    EXPECT_EQ(k.ldsSharedBytes, 34304u);
    EXPECT_EQ(buffer(k, "sQ").offset, 0u);
    EXPECT_EQ(buffer(k, "sK").offset, 0u);
    EXPECT_EQ(buffer(k, "sV").offset, 16896u);
    EXPECT_LT(find(k, [](ir::Stmt &s) { return placedBarrier(s, "sQ's last access before sK"); }), k.body.size());
  });
  EXPECT_TRUE(ok) << messages;
}

TEST(LdsLifetimeVerifierTest, EachBreakIsAnInternalError) {
  // The barrier between sQ's fragment reads and sK's first write.
  expectBroken([](ir::Kernel &k) {
    k.body.erase(k.body.begin() + find(k, [](ir::Stmt &s) { return placedBarrier(s, "sQ's last access"); }));
  }, "share bytes with no barrier between their lifetimes");
  // sV over sK: both live in the loop.
  expectBroken([](ir::Kernel &k) { buffer(k, "sV").offset = 0; }, "share bytes but are live at once");
  // A buffer out of the allocation, or not aligned.
  expectBroken([](ir::Kernel &k) { buffer(k, "sV").offset = 16900; }, "not 16-byte aligned inside the shared");
  // The barrier between sQ's write and the fragment reads.
  expectBroken([](ir::Kernel &k) {
    k.body.erase(k.body.begin() + find(k, [](ir::Stmt &s) { return placedBarrier(s, "LDS writes of sQ"); }));
  }, "read with no barrier after its last write");
  // The read gone, the mma still taking it.
  expectBroken([](ir::Kernel &k) {
    k.body.erase(k.body.begin() + find(k, [](ir::Stmt &s) { return llvm::isa<ir::FragmentRead>(&s); }));
  }, "with no such read before it");
  // sQ written in the loop after its fragments were read.
  expectBroken([](ir::Kernel &k) {
    ir::For &f = loop(k);
    auto write = std::make_unique<ir::LdsWrite>(f.loc);
    write->dst = &buffer(k, "sQ");
    write->src = k.tiles.front().get();
    f.body.insert(f.body.begin(), std::move(write));
  }, "is written after its fragments are read");
}
