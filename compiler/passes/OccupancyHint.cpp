//===- OccupancyHint.cpp - Asking the compiler for the model's occupancy ----===//
#include "passes/OccupancyHint.h"

#include "analysis/AccessPlan.h"
#include "analysis/Occupancy.h"
#include "analysis/ResourceModel.h"

using namespace tilec;

unsigned tilec::wavesToAsk(const Target &t, const KernelResources &r) {
  Occupancy o = computeOccupancy(t, r);
  if (!o.launchable) return 0;
  // Asked for N waves, the compiler meets them even by spilling to scratch. The estimate is fitted to the compilers
  // within about kRegisterEdgePercent, so only as many waves are asked for as the estimate fits with that margin
  // (test/Differential, seed 1, on the gfx950 compiler: 34 of the 43 kernels with scratch were asked for waves
  // whose registers the estimate filled to within 10%, 157 kernels in all; docs/gfx950.md).
  // Never fewer than the waves the workgroup needs (8 waves need 2 per SIMD): the compiler would ignore such a
  // request, and the register edge warns about those kernels instead (ResourceBudgets.cpp).
  RegisterEdge edge = registerEdge(t, r);
  return std::min(o.wavesPerSimd, std::max(edge.wavesNeeded, wavesForVgprs(t, withRegisterMargin(edge.total))));
}

void tilec::askForModelOccupancy(ir::Module &module) {
  const Target &t = *module.target;
  if (!t.occupancyHint) return;
  for (auto &k : module.kernels) {
    auto waves = [&](bool unaligned) {
      return wavesToAsk(t, estimateResources(*k, t, unaligned).resources(k->workgroupSize));
    };
    k->wavesPerEU = waves(false);
    k->wavesPerEUUnaligned = hasUnalignedVariant(planAccesses(*k)) ? waves(true) : 0;
  }
}
