//===- StagedSchedule.h - The order of a staged main-loop step ---------------===//
//
// Part of the pipelining pass (SoftwarePipeline.cpp): a staged K loop's step (KLoopPlan::staged) is one segment per
// instruction K step, its MFMAs with the next instruction K step's fragment reads, and the next step's LDS writes or
// global loads among them, printed by the HIP emitter as __builtin_amdgcn_sched_group_barrier groups, each "up to N
// instructions of a kind" for LLVM's IGroupLP solver.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_STAGEDSCHEDULE_H
#define TILEC_STAGEDSCHEDULE_H

#include "ir/IR.h"

namespace tilec {

/// LDS reads per lane of one instruction K step's fragments: A's and B's per block row and column; a buffer read
/// with transposing reads takes kPerLane / (values per read) reads per fragment, and B has its own runs when its
/// column width differs from A's.
unsigned fragmentReadsPerKStep(const ir::MMA &m);

/// A staged step's order (KLoopPlan::staged). Each MFMA of P passes hides about P - 1 single-issue instructions
/// behind it; the fragment reads of the next instruction K step take one or more of them, and up to P / 4 LDS
/// writes or global loads follow each MFMA (the rest is their address arithmetic). The statements are placed whole,
/// writes first, from the first segment on; whatever is left when the segment before the last is reached goes
/// there, since the last segment follows the step's barrier (HIPEmitterKLoop.cpp, stagedStep).
///
/// With a register set per step (KLoopPlan::registerSets, `setsPerStep`), a load has two steps to land, and the
/// loads go after the barrier, spread over the last segment's MFMAs: the segment before the barrier then holds the
/// LDS writes alone, which fill its MFMAs' shadow by themselves (gemm_mxfp6_gfx950, llvm-mca-22 per two steps, the
/// prologue's two sets in order: 166.7 -> 156.6 cycles, 0.77 -> 0.82).
void stagedSchedule(ir::KLoopPlan &plan, bool setsPerStep = false);

/// Segments of at least this many MFMAs are wide (frontLoadWideSegment).
constexpr unsigned kWideSegmentMfmas = 8;

/// Rewrites the groups of a wide segment of `mfmas` MFMAs of `passes` passes each: the segment's LDS reads (`reads`:
/// the next instruction K step's fragments, with the next step's scales where they are read here) in groups of
/// passes / 2 - 1 from the first MFMA on, and, where the segment holds LDS writes, a group of passes / 2 LDS writes
/// after every MFMA but the last; its loads keep their places.
void frontLoadWideSegment(ir::KLoopPlan::StagedSegment &seg, unsigned mfmas, unsigned passes, unsigned reads);

} // namespace tilec

#endif
