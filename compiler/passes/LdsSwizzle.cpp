//===- LdsSwizzle.cpp - Swizzled rows for transposed LDS buffers -----------===//
//
// The candidates, per transposed buffer of R stored rows written from a tile with vectors of V elements:
// row r goes to r ^ (((r >> from) & mask) << shift) with shift >= 1 (a pair of rows 2t, 2t + 1 stays a pair, in
// order), mask = 2^w - 1, shift + w <= from (the bits read are not the bits changed, so the map is its own inverse),
// from >= log2(V) (the rows of one lane's vector share their swizzle, so its columns stay consecutive runs) and
// 2^from <= R (the bits read exist). The cost of a candidate is the LDS cycles per wave of every write and fragment
// read of the buffer by the bank model; ties keep the smaller mask, then the smaller shift and from. A buffer is
// left in place when the swizzle's address registers (analysis/ResourceModel.h, kSwizzleVGPRs) would take the kernel
// past the ArchVGPRs a lane can address.
//
//===----------------------------------------------------------------------===//
#include "passes/LdsSwizzle.h"

#include "analysis/LDSBanks.h"
#include "analysis/ResourceModel.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

unsigned log2Ceil(unsigned v) {
  unsigned n = 0;
  while ((1u << n) < v) ++n;
  return n;
}

/// LDS cycles per wave of every access of `b` under its current swizzle; false when nothing of it is costed.
bool cost(const Kernel &k, const Target &t, const LdsBuffer &b, unsigned &cycles) {
  cycles = 0;
  std::vector<LdsAccessCost> costs = ldsAccessCosts(k, t, nullptr, &b);
  for (const LdsAccessCost &c : costs) cycles += c.cycles;
  return !costs.empty();
}

/// The widest vector any tile written to `b` moves per access.
unsigned widestWrite(const Body &body, const LdsBuffer &b) {
  unsigned vec = 1;
  for (const StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<For>(s.get())) vec = std::max(vec, widestWrite(f->body, b));
    else if (auto *w = llvm::dyn_cast<LdsWrite>(s.get()); w && w->dst == &b) vec = std::max(vec, w->src->layout.vec);
  }
  return vec;
}

void choose(Kernel &k, const Target &t, LdsBuffer &b) {
  unsigned best = 0;
  if (!cost(k, t, b, best)) return;
  // The swizzled addresses cost registers (kSwizzleVGPRs); never where they would take the kernel past what a lane
  // can address (the budgets were checked without them).
  if (estimateResources(k, t).archVgprs + kSwizzleVGPRs > t.maxArchVgprs) return;
  unsigned bestFrom = 0, bestMask = 0, bestShift = 0;
  unsigned rowBits = log2Ceil(b.storedRows());
  if ((1u << rowBits) != b.storedRows()) return; // a power of two keeps every swizzled row inside the buffer
  unsigned minFrom = log2Ceil(widestWrite(k.body, b));
  for (unsigned width = 1; width <= 4; ++width)
    for (unsigned shift = 1; shift + width <= rowBits; ++shift)
      for (unsigned from = std::max(minFrom, shift + width); from + 1 <= rowBits; ++from) {
        b.swizzleFrom = from, b.swizzleMask = (1u << width) - 1, b.swizzleShift = shift;
        unsigned cycles = 0;
        cost(k, t, b, cycles);
        if (cycles < best) best = cycles, bestFrom = from, bestMask = b.swizzleMask, bestShift = shift;
      }
  b.swizzleFrom = bestFrom, b.swizzleMask = bestMask, b.swizzleShift = bestShift;
}

} // namespace

void tilec::chooseLdsSwizzles(Module &module) {
  for (auto &k : module.kernels)
    for (auto &b : k->ldsBuffers)
      if (b->transposed) choose(*k, *module.target, *b);
}
