//===- SoftwarePipeline.h - How each K loop runs -----------------------------===//
//
// An IR pass, run after the verifier and before the budgets are checked. It recognises K loops (a loop whose body
// loads register tiles from windows that move with the loop variable, writes them to LDS, waits at a barrier and
// multiplies the buffers with mma) and decides their shape, recorded in For::plan for the resource model, the report
// and the HIP emitter:
//   - a clean steady state: interior workgroups (the whole block inside the grid tensor) run an unmasked main loop
//     over whole K steps, the last partial K step is peeled off and masked in K only, and edge workgroups run a
//     masked copy;
//   - the pipeline depth: 1 (each step loads, writes LDS, multiplies), 2 (the loads of step k + 1 are issued
//     before the mma of step k; the LDS buffers get 2 stages where the budget allows, so a step needs one barrier) or
//     3 (staged, with 2 LDS stages: step k writes step k + 1 from registers into the other stage and issues the
//     loads of step k + 2), the compiler's choice where 2 stages cost no occupancy and the loop can be staged;
//   - the order of a main-loop step for the MFMA pipe: at depth 2 (KLoopPlan::schedule) every fragment first, one
//     global load after each of the first MFMAs, the last instruction K step's MFMAs (or enough of them that the
//     MFMAs after the last load cover its latency) among the LDS writes; at depth 3 (KLoopPlan::staged) one segment
//     per instruction K step, its MFMAs with the next step's fragment reads and the writes and loads among them.
// The staged step's order is StagedSchedule.h's. ir/Verifier.h's verifyPlans checks the plan's invariants after
// this pass.
// The depth is the user's (`pipeline N`) or the compiler's; a depth whose LDS does not fit is an error with the
// arithmetic.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_SOFTWAREPIPELINE_H
#define TILEC_SOFTWAREPIPELINE_H

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec {

/// Plans every K loop of `module` (sets For::plan and the stages of the LDS buffers it double-buffers). Reports a
/// requested depth that does not fit; returns false when it did.
bool planPipelines(ir::Module &module, DiagnosticEngine &diags);

} // namespace tilec

#endif
