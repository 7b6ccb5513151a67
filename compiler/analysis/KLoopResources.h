//===- KLoopResources.h - What a K loop's trip count does to its registers --===//
//
// Part of the resource model (ResourceModel.cpp): the registers that depend on whether a K loop really loops. With
// a compile-time K (`for k in 0 .. 64 step 64`) clang-19 unrolls the steps that run, so a pipelined main loop that
// never runs costs nothing, and a single step has no loop-carried accumulator; with a run-time K, a loop of one step
// per iteration keeps the addresses of its global accesses from one iteration to the next.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_KLOOPRESOURCES_H
#define TILEC_KLOOPRESOURCES_H

#include "ir/IR.h"
#include "target/Target.h"
#include <optional>
#include <vector>

namespace tilec {

/// The K loops of `body` (those with a plan), outer before inner.
std::vector<const ir::For *> kLoops(const ir::Body &body);

/// How many steps of `f` run when its bounds are compile-time constants: all of them (the last one partial when the
/// step does not divide the extent) and the whole ones. Nothing for a run-time bound.
struct ConstantSteps {
  unsigned all = 0, whole = 0;
};
std::optional<ConstantSteps> constantSteps(const ir::For &f);

/// Whether a pipelined `f` prefetches anything: not when K is a single step known at compile time, which the
/// prologue loads and the masked loop (unrolled by clang) multiplies, with no next step to overlap.
bool prefetches(const ir::For &f);

/// Whether every K loop of `k` is a single step known at compile time, pipelined (a prologue and a masked loop, both
/// unrolled): no loop at all, the MFMAs' results go straight to the epilogue.
bool pipelinedSingleKStep(const ir::Kernel &k);

/// Whether clang-19 reads every accumulator value out of the AGPRs before it stores any, in an epilogue that needs
/// `floor` ArchVGPRs that way (ResourceModel.cpp, epilogueFloor): always after a K loop; after a pipelined single K
/// step only in the _unaligned kernel, and only where that leaves 2 waves per SIMD.
bool readsAccumulatorsFirst(const ir::Kernel &k, const Target &t, unsigned floor, bool unalignedVariant);

/// ArchVGPRs of the 64-bit addresses that clang-19 keeps across the iterations of a K loop of depth 1: one per
/// distinct row a lane loads (2 VGPRs each), the loop-invariant part of the address hoisted out of the loop.
unsigned unpipelinedLoopAddresses(const ir::For &f);

} // namespace tilec

#endif
