//===- OccupancyHint.cpp - Asking the compiler for the model's occupancy ----===//
#include "passes/OccupancyHint.h"

#include "analysis/AccessPlan.h"
#include "analysis/Occupancy.h"
#include "analysis/ResourceModel.h"

using namespace tilec;

void tilec::askForModelOccupancy(ir::Module &module) {
  const Target &t = *module.target;
  if (!t.occupancyHint) return;
  for (auto &k : module.kernels) {
    auto waves = [&](bool unaligned) {
      Occupancy o = computeOccupancy(t, estimateResources(*k, t, unaligned).resources(k->workgroupSize));
      return o.launchable ? o.wavesPerSimd : 0u;
    };
    k->wavesPerEU = waves(false);
    k->wavesPerEUUnaligned = hasUnalignedVariant(planAccesses(*k)) ? waves(true) : 0;
  }
}
