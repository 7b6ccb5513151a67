//===- KLoopResources.cpp - What a K loop's trip count does to its registers -===//
//
// Measured with clang-19 for gfx942 on seed 1 of test/Differential (docs/differential-testing.md):
// - A depth-1 loop over a run-time K keeps a 64-bit address per row a lane loads, computed once before the loop
//   (v_lshl_add_u64 of the hoisted row offsets, then the loads): k0364, f32 tiles of 16 + 16 rows per lane, clang
//   240 ArchVGPRs, 151 modelled without them, 215 with; k0907 24 rows, 184 and 136 -> 184; k0451 166, 137 -> 185).
//   Not with a compile-time K of fewer than 2 whole steps, which clang unrolls (k0737, K 49, step 32: clang 194,
//   197 without them). An over-estimate for bf16 tiles of vec 8 (k0295: 16 rows, clang 134, 169 -> 201).
//
//===----------------------------------------------------------------------===//
#include "analysis/KLoopResources.h"

#include "llvm/Support/Casting.h"

using namespace tilec;

std::vector<const ir::For *> tilec::kLoops(const ir::Body &body) {
  std::vector<const ir::For *> out;
  for (const ir::StmtPtr &s : body)
    if (auto *f = llvm::dyn_cast<ir::For>(s.get())) {
      if (f->plan) out.push_back(f);
      for (const ir::For *inner : kLoops(f->body)) out.push_back(inner);
    }
  return out;
}

std::optional<ConstantSteps> tilec::constantSteps(const ir::For &f) {
  auto constant = [](const ir::IndexPtr &i) { return i && i->kind == ir::Index::Kind::Const; };
  if (!constant(f.lower) || !constant(f.upper) || !constant(f.step) || f.step->value <= 0) return std::nullopt;
  int64_t extent = std::max<int64_t>(f.upper->value - f.lower->value, 0), step = f.step->value;
  return ConstantSteps{static_cast<unsigned>((extent + step - 1) / step), static_cast<unsigned>(extent / step)};
}

unsigned tilec::unpipelinedLoopAddresses(const ir::For &f) {
  if (!f.plan || f.plan->depth != 1) return 0;
  // A compile-time K of fewer than 2 whole steps is unrolled: nothing is carried from one iteration to the next.
  if (std::optional<ConstantSteps> n = constantSteps(f); n && n->whole < 2) return 0;
  unsigned rows = 0;
  for (const ir::Assign *a : f.plan->loads) rows += a->dst->layout.rowsPerLane;
  return 2 * rows;
}
