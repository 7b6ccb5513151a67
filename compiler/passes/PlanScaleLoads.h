//===- PlanScaleLoads.h - A scaled mma's scales, a K step's at once ---------===//
//
// An IR pass over one kernel, run by Sema once the kernel has no errors (before the K loops are planned, which count
// the loads it plans). A scaled mma (docs/mx.md) needs, per instruction K step and fragment, the lane's E8M0 scale of
// its row and K block: loaded one byte per fragment and instruction K step, a K step of gemm_mxfp4_gfx950 issued 8
// byte loads for 8 MFMAs, each waited for in its own register. The bytes a K step needs of one row are consecutive
// in the scale tensor (the step's scale blocks), so the pass plans them as one load per row of up to 8 bytes
// (ir::ScaleLoads): the lane shifts it by its lane group, and each MFMA selects its byte with opsel. Loads per K step:
// (block rows + block columns) x chunks instead of x instruction K steps.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PLANSCALELOADS_H
#define TILEC_PLANSCALELOADS_H

#include "ir/IR.h"

namespace tilec {

/// Fills MMA::scaleLoads of every scaled mma of `kernel`, and stages the scales of a K loop's scaled mma through LDS
/// where the workgroup can spread them as tiles on `target`.
void planScaleLoads(ir::Kernel &kernel, const Target &target);

/// Where the target reads LDS at any byte address (Target::ldsUnalignedReads), lets every scaled mma whose scales
/// are staged through LDS read them at each lane group's byte instead of shifting them (ir::ScaleLoads::
/// readAtLaneGroup), with the bytes such a read reaches past the last row added after each stage of the two buffers
/// (LdsBuffer::tailBytes); not where those bytes would cost the kernel a wave per SIMD by its LDS, as the resource
/// model counts it (gemm_mxfp4_kn_gfx950 uses exactly half the CU's LDS). Run once the K loops are planned (their LDS stages are then known).
void readScalesAtLaneGroups(ir::Module &module);

/// The plan for a K step of `kColumns` K columns of the scaled instruction `ins` (a format variant: ins.scaled set).
ir::ScaleLoads scaleLoadsFor(const MFMAInstr &ins, unsigned kColumns);

} // namespace tilec

#endif
