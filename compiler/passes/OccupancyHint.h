//===- OccupancyHint.h - Asking the compiler for the model's occupancy ------===//
//
// An IR pass, run last before emission. The resource model (analysis/ResourceModel.h) predicts each kernel's waves
// per SIMD; where the target says its compiler should be asked for them (Target::occupancyHint), the pass records them
// in the kernel (Kernel::wavesPerEU, and the _unaligned copy's), and the HIP emitter prints them as
// amdgpu_waves_per_eu (TILEC_WAVES_PER_EU): the register allocator then aims for that occupancy instead of settling
// for one wave fewer. It is the waves_per_eu knob of Triton's AMD backend and the second __launch_bounds__ argument
// of CK's kernels, set from the model rather than by hand. Where the estimate fills the registers of that occupancy
// to within its 10% margin, it asks for fewer waves: the compiler meets what it is asked even by spilling. The report
// says what was asked and why.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_OCCUPANCYHINT_H
#define TILEC_OCCUPANCYHINT_H

#include "analysis/Occupancy.h"
#include "ir/IR.h"

namespace tilec {

/// Sets Kernel::wavesPerEU (and wavesPerEUUnaligned) of every kernel of `module` whose target asks, or
/// Kernel::wavesNotAsked: an elementwise kernel (no mma) with software fp8 conversions is not asked.
void askForModelOccupancy(ir::Module &module);

} // namespace tilec

#endif
