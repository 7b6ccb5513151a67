//===- DropBarriers.h - Barriers that order nothing ---------------------------===//
//
// A barrier orders LDS writes before it against reads after it in other waves, and reads before it against writes
// after it. When neither the statements since the barrier before it nor those up to the barrier after it write LDS,
// every such pair crossing it also crosses one of its neighbours, and it orders nothing of its own. This happens when
// a pass takes away the LDS write that a user's barrier was written for: attention's `sP = cast<f16>(s); barrier;
// o += mma(sP, sV);` once P goes to the second mma in registers (passes/ForwardAccOperands.h). An IR pass over plain
// loops (the K loops order their own barriers): each such barrier is marked Barrier::dropped with the reason, and the
// emitter prints the reason instead of the barrier. Only statements known not to touch LDS memory may stand between
// the neighbours (a reduction across waves, a nested loop, any LDS write keeps the barrier).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DROPBARRIERS_H
#define TILEC_DROPBARRIERS_H

#include "ir/IR.h"

namespace tilec {

/// Marks every barrier of a plain loop of `module` that orders nothing of its own (see above).
void dropRedundantBarriers(ir::Module &module);

} // namespace tilec

#endif
