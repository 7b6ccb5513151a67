//===- LdsSwizzle.cpp - Swizzled rows and XORed columns of LDS buffers -----===//
//
// Row swizzles, per transposed buffer of R stored rows written from a tile with vectors of V elements:
// row r goes to r ^ (((r >> from) & mask) << shift) with shift >= 1 (a pair of rows 2t, 2t + 1 stays a pair, in
// order), mask = 2^w - 1, shift + w <= from (the bits read are not the bits changed, so the map is its own inverse),
// from >= log2(V) (the rows of one lane's vector share their swizzle, so its columns stay consecutive runs) and
// 2^from <= R (the bits read exist).
//
// Column XORs, per buffer that register tiles alone write and read (no mma reads its fragments, no accumulator writes
// it): in row r the 16-byte chunk j of the stored columns goes to j ^ (((r >> from) & mask) << shift), with
// mask = 2^w - 1, 2^(w + shift) dividing the chunks of a row (every XORed chunk stays in the row) and 2^from < R.
//
// The cost of a candidate is the LDS cycles per wave of every access of the buffer by the bank model; ties keep the
// smaller mask, then the smaller shift and from, and a row swizzle (or none) over a column XOR. A buffer is left in
// place when the swizzle's address registers (analysis/ResourceModel.h, kSwizzleVGPRs) would take the kernel past the
// ArchVGPRs a lane can address.
//
//===----------------------------------------------------------------------===//
#include "passes/LdsSwizzle.h"

#include "analysis/LDSBanks.h"
#include "analysis/Occupancy.h"
#include "analysis/ResourceModel.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

unsigned log2Ceil(unsigned v) {
  unsigned n = 0;
  while ((1u << n) < v) ++n;
  return n;
}

/// LDS cycles (and their ideal) per wave of every access of `b` under its current layout, with `pads` in place of
/// the declared pads when given; false when nothing of it is costed.
bool cost(const Kernel &k, const Target &t, const LdsBuffer &b, const std::vector<unsigned> *pads, unsigned &cycles,
          unsigned &ideal) {
  cycles = ideal = 0;
  std::vector<LdsAccessCost> costs = ldsAccessCosts(k, t, pads, &b);
  for (const LdsAccessCost &c : costs) cycles += c.cycles, ideal += c.ideal;
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

/// Whether `b` is written and read by register tiles only (`lds = tile`, `tile = lds`): not an mma's operand nor its
/// staged scales (which the mma reads a row's chunk at a time, at its lane group's byte or aligned, unXORed).
bool tilesOnly(const Body &body, const LdsBuffer &b) {
  for (const StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<For>(s.get())) {
      if (!tilesOnly(f->body, b)) return false;
    } else if (auto *m = llvm::dyn_cast<MMA>(s.get())) {
      if (m->a == &b || m->b == &b || m->scaleLoads.ldsA == &b || m->scaleLoads.ldsB == &b) return false;
    } else if (auto *w = llvm::dyn_cast<AccLdsWrite>(s.get())) {
      if (w->dst == &b) return false;
    }
  }
  return true;
}

/// The three fields of one swizzle (of the rows or of the columns).
struct Swizzle {
  unsigned from = 0, mask = 0, shift = 0;
};

void setRows(LdsBuffer &b, Swizzle s) { b.swizzleFrom = s.from, b.swizzleMask = s.mask, b.swizzleShift = s.shift; }
void setCols(LdsBuffer &b, Swizzle s) { b.colXorFrom = s.from, b.colXorMask = s.mask, b.colXorShift = s.shift; }

/// The first of `candidates` that costs fewer cycles than `cycles` and than every one before it, applied with `set`
/// (mask 0: none beats `cycles`), and its cycles; stops at a conflict-free one (a swizzle moves addresses, not
/// phases, so nothing does better). Leaves `b` with neither swizzle.
template <typename Set>
std::pair<Swizzle, unsigned> cheapest(const Kernel &k, const Target &t, LdsBuffer &b, unsigned cycles,
                                      const std::vector<unsigned> *pads, const std::vector<Swizzle> &candidates,
                                      Set set) {
  Swizzle best;
  for (const Swizzle &s : candidates) {
    set(b, s);
    unsigned c = 0, ideal = 0;
    cost(k, t, b, pads, c, ideal);
    if (c < cycles) cycles = c, best = s;
    if (cycles == ideal) break;
  }
  set(b, {});
  return {best, cycles};
}

/// The row swizzles of `b`, smaller masks first, then smaller shifts and froms.
std::vector<Swizzle> rowCandidates(const Kernel &k, const LdsBuffer &b) {
  std::vector<Swizzle> out;
  unsigned rowBits = log2Ceil(b.storedRows()), minFrom = log2Ceil(widestWrite(k.body, b));
  if (!b.transposed || (1u << rowBits) != b.storedRows()) return out; // a power of two keeps every row in the buffer
  for (unsigned width = 1; width <= 4; ++width)
    for (unsigned shift = 1; shift + width <= rowBits; ++shift)
      for (unsigned from = std::max(minFrom, shift + width); from + 1 <= rowBits; ++from)
        out.push_back({from, (1u << width) - 1, shift});
  return out;
}

/// The column XORs of `b`, in the same order.
std::vector<Swizzle> colCandidates(const Kernel &k, const LdsBuffer &b) {
  std::vector<Swizzle> out;
  unsigned rowBytes = b.storedCols() * sizeOf(b.dtype), chunks = rowBytes / LdsBuffer::kXorChunkBytes;
  if (b.slotted() || b.transposeReads || LdsBuffer::kXorChunkBytes % sizeOf(b.dtype) ||
      rowBytes % LdsBuffer::kXorChunkBytes || !tilesOnly(k.body, b))
    return out; // a chunk of whole elements, whole chunks a row
  unsigned rowBits = log2Ceil(b.storedRows());
  for (unsigned width = 1; width <= 4; ++width)
    for (unsigned shift = 0; chunks % (1u << (width + shift)) == 0; ++shift)
      for (unsigned from = 0; from < rowBits; ++from) out.push_back({from, (1u << width) - 1, shift});
  return out;
}

/// Chooses `b`'s layout with `pads` (nullptr: the declared ones) and returns its cycles and their ideal; false when
/// nothing of it is costed.
bool choose(const Kernel &k, const Target &t, LdsBuffer &b, const std::vector<unsigned> *pads, unsigned &cycles,
            unsigned &ideal) {
  setRows(b, {});
  setCols(b, {});
  if (!cost(k, t, b, pads, cycles, ideal)) return false;
  std::vector<Swizzle> rowsToTry = rowCandidates(k, b), colsToTry = colCandidates(k, b);
  if (cycles == ideal || (rowsToTry.empty() && colsToTry.empty())) return true; // conflict-free, or nothing to try
  // The swizzled addresses cost registers (kSwizzleVGPRs); never where they would take the kernel past what a lane
  // can address (the budgets were checked without them).
  ResourceEstimate e = estimateResources(k, t);
  if (e.archVgprs + kSwizzleVGPRs > archVgprRoom(t, e.resources(k.workgroupSize))) return true;
  auto [rows, rowCycles] = cheapest(k, t, b, cycles, pads, rowsToTry, setRows);
  auto [cols, colCycles] = cheapest(k, t, b, rowCycles, pads, colsToTry, setCols);
  // A swizzle moves addresses, not phases: the ideal stays.
  if (cols.mask) setCols(b, cols), cycles = colCycles;
  else setRows(b, rows), cycles = rowCycles;
  return true;
}

} // namespace

void tilec::chooseLdsSwizzles(Module &module) {
  for (auto &k : module.kernels)
    for (auto &b : k->ldsBuffers) {
      unsigned cycles = 0, ideal = 0;
      choose(*k, *module.target, *b, nullptr, cycles, ideal);
    }
}

std::optional<std::pair<unsigned, unsigned>> tilec::ldsCyclesWithPads(ir::Kernel &kernel, const Target &target,
                                                                       unsigned index,
                                                                       const std::vector<unsigned> &pads) {
  LdsBuffer &b = *kernel.ldsBuffers[index];
  LdsBuffer kept = b;
  unsigned cycles = 0, ideal = 0;
  bool costed = false;
  if (!colCandidates(kernel, b).empty()) {
    costed = choose(kernel, target, b, &pads, cycles, ideal);
  } else {
    // An mma operand: its fragment reads make the search costly for every pad the warning weighs (gemm_f16 would
    // take 0.2 s instead of 0.02). The better of the pad's plain layout and the layout chosen for the declared pad
    // stands for it: at most what the pass would reach, so a pad said to do better does.
    costed = cost(kernel, target, b, &pads, cycles, ideal);
    setRows(b, {});
    unsigned plain = 0, plainIdeal = 0;
    if (cost(kernel, target, b, &pads, plain, plainIdeal)) cycles = std::min(cycles, plain);
  }
  setRows(b, {kept.swizzleFrom, kept.swizzleMask, kept.swizzleShift});
  setCols(b, {kept.colXorFrom, kept.colXorMask, kept.colXorShift});
  if (!costed) return std::nullopt;
  return std::make_pair(cycles, ideal);
}
