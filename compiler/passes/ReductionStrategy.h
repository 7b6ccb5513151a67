//===- ReductionStrategy.h - How each reduction runs --------------------------===//
//
// An IR pass, run after the verifier and before the budgets are checked. For every `s = sum(x, axis = ...)` (and max,
// min) it decides, from the distribution of x, how the values of one result are brought together, and records it in
// Reduce::plan for the resource model, the report and the HIP emitter:
//   - in a lane: the vec elements of each access (axis 1) or the R accesses of each column (axis 0);
//   - across the lanes of a wave that hold parts of the same row (the X0 consecutive lanes of a lane-row, axis 1) or
//     column (the L lanes X0 apart, axis 0): a butterfly of log2 steps, each a cross-lane move chosen by its
//     distance: DPP quad_perm for lane ^ 1 and ^ 2, DPP row_half_mirror and row_mirror for the groups of 8 and 16
//     consecutive lanes of a row reduction (after the earlier steps every lane of each half holds the same partial,
//     so a mirror pairs it with the other half), ds_swizzle (bit mode, xor) for lane ^ 4, ^ 8 and ^ 16 where the
//     lanes are not consecutive, and ds_bpermute for lane ^ 32, which no DPP control or swizzle of GFX9 reaches;
//   - across waves: the waves that hold parts of one row (Wx of a block_raked tile, axis 1) or column (Wy, axis 0)
//     write their partials to LDS, wait at a barrier and combine all of them in wave order.
// Every lane ends with the whole result, bit for bit the same in every lane.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_REDUCTIONSTRATEGY_H
#define TILEC_REDUCTIONSTRATEGY_H

#include "ir/IR.h"

namespace tilec {

/// The plan of one reduction of a value distributed as `source` along `axis`, with partials combined as `accumulate`.
ir::ReducePlan planReduction(const Layout &source, unsigned axis, DType accumulate);

/// Plans every reduction of `module` (sets Reduce::plan).
/// How a reduction along the rows of accumulator `a`'s values runs: in the lane over its blocks' values, then across the
/// lanes that hold the same row (within one wave).
ir::ReducePlan planAccRowReduction(const ir::AccTile &a, DType accumulate);
void planReductions(ir::Module &module);

} // namespace tilec

#endif
