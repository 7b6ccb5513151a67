//===- KLoopResources.cpp - What a K loop's trip count does to its registers -===//
//
// Measured with clang-19 for gfx942 on seed 1 of test/Differential (docs/differential-testing.md):
// - A pipelined K loop whose K is a single step known at compile time has nothing to prefetch: the prologue loads
//   the step, the masked loop (unrolled) multiplies it, and neither the prefetch addresses nor the ordered main-loop
//   step exist (k0829: K 69, step 128, clang 26 ArchVGPRs where the model said 79; k0286: K 37, step 64, clang 39
//   for 73). With 2 steps (K 67, step 64) the second is prefetched during the first: counted as before.
// - Such a single step (K <= step, pipeline 2) has no loop at all: clang reads each accumulator group out of the
//   AGPRs as it stores it instead of all of them first (k0671: c * alpha over 128 accumulator values, clang 30
//   ArchVGPRs and 112 AGPRs; k0770 47, k0151 56, k0833 45 where the epilogue floor said 136 or 72 + 8). Written as
//   pipeline 1 (loads, LDS writes, barrier, mma) the same step reads them all first (k0671: 134 and 128). The
//   _unaligned kernel, whose element stores at row ends need the values one by one, still reads them all first where
//   that leaves 2 waves per SIMD (k0818_unaligned: 64 accumulator values, clang 70 ArchVGPRs; k0537_unaligned, 32
//   values, 40), not where it would not (k0770_unaligned, 128 values: 40 ArchVGPRs, not 136).
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

bool tilec::prefetches(const ir::For &f) {
  std::optional<ConstantSteps> n = constantSteps(f);
  return !n || n->all >= 2;
}

bool tilec::pipelinedSingleKStep(const ir::Kernel &k) {
  std::vector<const ir::For *> loops = kLoops(k.body);
  if (loops.empty()) return false;
  for (const ir::For *f : loops) {
    std::optional<ConstantSteps> n = constantSteps(*f);
    if (!n || n->all > 1 || f->plan->depth < 2) return false;
  }
  return true;
}

unsigned tilec::unpipelinedLoopAddresses(const ir::For &f) {
  if (!f.plan || f.plan->depth != 1) return 0;
  // A compile-time K of fewer than 2 whole steps is unrolled: nothing is carried from one iteration to the next.
  if (std::optional<ConstantSteps> n = constantSteps(f); n && n->whole < 2) return 0;
  unsigned rows = 0;
  for (const ir::Assign *a : f.plan->loads) rows += a->dst->layout.rowsPerLane;
  return 2 * rows;
}

bool tilec::readsAccumulatorsFirst(const ir::Kernel &k, const Target &t, unsigned floor, bool unalignedVariant) {
  if (!pipelinedSingleKStep(k)) return true;
  unsigned accs = 0;
  for (const auto &a : k.accs) accs += a->instr ? a->registers() : 0;
  return unalignedVariant && floor + accs <= t.vgprsPerLane / 2;
}
