//===- OccupancyHint.cpp - Asking the compiler for the model's occupancy ----===//
#include "passes/OccupancyHint.h"

#include "analysis/AccessPlan.h"
#include "analysis/KLoopResources.h"
#include "analysis/Occupancy.h"
#include "analysis/ResourceModel.h"
#include "passes/UnrollChunks.h"
#include "llvm/Support/Casting.h"
#include <functional>

using namespace tilec;

namespace {

/// Whether `k` has no mma and converts to or from fp8/bf8 in software.
bool convertsFp8WithoutMma(const ir::Kernel &k) {
  if (!k.accs.empty()) return false;
  std::function<bool(const ir::Body &)> any = [&](const ir::Body &body) {
    for (const ir::StmtPtr &s : body) {
      if (auto *a = llvm::dyn_cast<ir::Assign>(s.get()); a && fp8Conversions(*a->value)) return true;
      if (auto *st = llvm::dyn_cast<ir::Store>(s.get()); st && fp8Conversions(*st->value)) return true;
      if (auto *f = llvm::dyn_cast<ir::For>(s.get()); f && any(f->body)) return true;
    }
    return false;
  };
  return any(k.body);
}

/// Whether `k` has mmas and none of them is in a K loop (attention's loop over K/V blocks).
bool mmasOnlyInPlainLoops(const ir::Kernel &k) { return !k.accs.empty() && kLoops(k.body).empty(); }

} // namespace

void tilec::askForModelOccupancy(ir::Module &module) {
  const Target &t = *module.target;
  if (!t.occupancyHint) return;
  for (auto &k : module.kernels) {
    // Elementwise kernels with software fp8 conversions are not held to the model's waves: their estimates miss the
    // compiler's need by up to half either way (test/Differential, seed 2), and held to waves it cannot fit, the
    // gfx950 compiler spilled (seed 2: k0333 288 B at the 3 waves asked, k0810_unaligned 48 B at 8; k0832, 128
    // accesses of cast<bf8>(x * alpha), 412 B at 3 waves and none unasked; docs/differential-testing.md).
    if (convertsFp8WithoutMma(*k)) {
      k->wavesPerEU = k->wavesPerEUUnaligned = 0;
      k->wavesNotAsked = "its software fp8 conversions make the estimate too loose to hold the compiler to; held to "
                         "it, the compiler may spill";
      continue;
    }
    // Attention's loop (mmas in a plain loop) is not held either: asked for the model's 2 waves, LLVM 22 scheduled
    // attention_fwd_f16_gfx950 (32 query rows a wave) in 190 VGPRs and 477.5 llvm-mca cycles a K/V block; unasked
    // it takes 238 VGPRs, the same 2 waves, in 401.5 cycles (MFMA busy 0.54 -> 0.64).
    if (mmasOnlyInPlainLoops(*k)) {
      k->wavesPerEU = k->wavesPerEUUnaligned = 0;
      k->wavesNotAsked = "its mmas are in a plain loop, which the compiler schedules worse when held to the model's "
                         "waves; docs/attention.md";
      continue;
    }
    auto waves = [&](bool unaligned) {
      return wavesToAsk(t, estimateResources(*k, t, unaligned).resources(k->workgroupSize));
    };
    k->wavesPerEU = waves(false);
    k->wavesPerEUUnaligned = hasUnalignedVariant(planAccesses(*k)) ? waves(true) : 0;
  }
}
