//===- ShareLds.cpp - LDS buffers of disjoint lifetimes in the same bytes -------===//
#include "passes/ShareLds.h"

#include "analysis/ResourceModel.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <numeric>

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace {

constexpr unsigned kAlign = 16;

/// Workgroups per CU that `bytes` of LDS allow (1024 for none, as the occupancy calculator counts).
unsigned groupsByLds(const Target &t, unsigned bytes) {
  return bytes ? t.ldsBytesPerCU / static_cast<unsigned>(llvm::alignTo(bytes, t.ldsGranule)) : 1024u;
}

/// Where a lifetime lies, in words: in a loop, or before or after one.
std::string span(const Kernel &k, const LdsLifetime &l) {
  auto loop = [&](long i) { return llvm::dyn_cast<For>(k.body[i].get()); };
  if (l.first == l.last && loop(l.first)) return "in the loop over " + loop(l.first)->var;
  for (long i = l.last + 1; i < static_cast<long>(k.body.size()); ++i)
    if (loop(i)) return "before the loop over " + loop(i)->var;
  for (long i = l.first - 1; i >= 0; --i)
    if (loop(i)) return "after the loop over " + loop(i)->var;
  return "outside loops";
}

void share(Kernel &k, const Target &t) {
  bool scaled = false;
  std::vector<LdsLifetime> life = ldsLifetimes(k, scaled);
  std::vector<size_t> order;
  for (size_t j = 0; j < k.ldsBuffers.size(); ++j)
    if (k.ldsBuffers[j]->used && life[j].first >= 0) order.push_back(j);
  if (scaled || order.size() < 2) return;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return life[a].first < life[b].first; });
  auto disjoint = [&](size_t a, size_t b) { return life[a].last < life[b].first || life[b].last < life[a].first; };
  // First fit: each buffer at the lowest aligned offset that overlaps no placed buffer whose lifetime meets its own.
  std::vector<unsigned> offset(k.ldsBuffers.size(), 0);
  unsigned pooled = 0, separate = 0;
  for (size_t n = 0; n < order.size(); ++n) {
    size_t j = order[n];
    unsigned size = k.ldsBuffers[j]->bytes(), at = 0;
    separate += static_cast<unsigned>(llvm::alignTo(size, kAlign));
    for (bool moved = true; moved;) {
      moved = false;
      for (size_t p = 0; p < n; ++p) {
        size_t o = order[p];
        unsigned end = offset[o] + k.ldsBuffers[o]->bytes();
        if (!disjoint(j, o) && at < end && offset[o] < at + size) {
          at = static_cast<unsigned>(llvm::alignTo(end, kAlign));
          moved = true;
        }
      }
    }
    offset[j] = at;
    pooled = std::max(pooled, at + size);
  }
  // The other LDS of the kernel (reductions across waves) stays where it is, beside either.
  unsigned other = estimateResources(k, t).ldsBytes;
  for (size_t j : order) other -= k.ldsBuffers[j]->bytes();
  unsigned asWritten = groupsByLds(t, separate + other), shared = groupsByLds(t, pooled + other);
  bool fits = separate + other <= t.ldsBytesPerCU;
  if (pooled >= separate) return;
  if (fits) {
    k.ldsSharedWhy =
        formatv("buffers whose lifetimes do not overlap could share {0} of their {1} B ({2} workgroup{3} per CU by LDS "
                "instead of {4}), but the kernel fits as written: each keeps bytes of its own, since with LDS for more "
                "waves LLVM schedules the loop in the registers of more waves, at the cost of each wave's speed",
                separate - pooled, separate, shared, shared == 1 ? "" : "s", asWritten)
            .str();
    return;
  }
  for (size_t j : order) k.ldsBuffers[j]->offset = offset[j];
  k.ldsSharedBytes = pooled;
  // A barrier between the last access of one and the first of the next in each pair of buffers that share bytes.
  for (size_t a : order)
    for (size_t b : order) {
      const LdsBuffer &x = *k.ldsBuffers[a], &y = *k.ldsBuffers[b];
      bool overlap = x.offset < y.offset + y.bytes() && y.offset < x.offset + x.bytes();
      if (a == b || !overlap || life[a].last >= life[b].first || barrierBetween(k, life[a].last, life[b].first))
        continue;
      auto barrier = std::make_unique<Barrier>(k.body[life[b].first]->loc);
      barrier->madeFor = formatv("{0}'s last access before {1}'s first write in the bytes they share", x.name, y.name)
                             .str();
      long at = life[b].first;
      k.body.insert(k.body.begin() + at, std::move(barrier));
      for (LdsLifetime &l : life) {
        if (l.first >= at) ++l.first;
        if (l.last >= at) ++l.last;
      }
    }
  std::string placed;
  for (size_t j : order)
    placed += formatv("{0}{1} at {2} (live {3})", placed.empty() ? "" : ", ", k.ldsBuffers[j]->name,
                      k.ldsBuffers[j]->offset, span(k, life[j])).str();
  k.ldsSharedWhy = formatv("{0}: one allocation of {1} B instead of {2}, which fits the {3} B of a CU", placed, pooled,
                           separate, t.ldsBytesPerCU)
                       .str();
}

} // namespace

void tilec::shareLdsBuffers(Module &module) {
  for (auto &k : module.kernels) share(*k, *module.target);
}
