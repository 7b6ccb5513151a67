//===- ResourceModel.h - Where a kernel's registers and LDS go --------------===//
//
// An estimate, made on the IR before any code exists, of the per-lane ArchVGPRs (register tiles, the temporaries of
// the widest statement, lane positions, addressing), AGPRs (MFMA accumulators), SGPRs (kernel arguments, ids and
// uniform values; the target's reserved ones are added by the occupancy calculator) and LDS bytes of a kernel. Each
// component is an item with a reason, so the report shows where the registers go. checkBudgets turns estimates
// beyond the hardware's budgets into located errors, and warns when occupancy falls to 1 wave per SIMD.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_RESOURCEMODEL_H
#define TILEC_RESOURCEMODEL_H

#include "analysis/Occupancy.h"
#include "ir/IR.h"
#include "support/Diagnostics.h"
#include <string>
#include <vector>

namespace tilec {

/// ArchVGPRs clang-19 needs for the addresses of an LDS buffer whose rows are swizzled (passes/LdsSwizzle.h): a lane
/// address per swizzled row of its writes and fragment reads instead of one base and immediate offsets (measured on
/// the gfx942 examples: gemm_f16 148 -> 156 VGPR+AGPR, gemm_f16_256x256 228 -> 234, its 16x16 form 234 -> 242).
constexpr unsigned kSwizzleVGPRs = 8;

/// VGPRs one lane spends on the tile: R accesses of ceil(vec * bytes / 4) registers.
unsigned tileVGPRs(const ir::Tile &tile);

/// One line of the estimate: "tile t: 2 accesses x 4 VGPRs".
struct ResourceItem {
  std::string what;
  unsigned count = 0;
  llvm::SMRange loc; ///< the declaration it comes from, when there is one
};

struct ResourceEstimate {
  std::vector<ResourceItem> vgprItems, agprItems, sgprItems, ldsItems;
  unsigned archVgprs = 0, agprs = 0, sgprs = 0, ldsBytes = 0;
  /// Where the compiler keeps the MFMA accumulators (estimateResources says why): in AGPRs, or in ArchVGPRs with
  /// the VGPR form of the MFMAs. The accumulator items stay in agprItems and `agprs` either way (the report lists
  /// them apart); resources() adds them to the ArchVGPRs in the VGPR form, as the compiler counts them.
  bool accumulatorsInAgprs = true;

  KernelResources resources(unsigned workgroupSize) const {
    if (!accumulatorsInAgprs) return {archVgprs + agprs, 0, sgprs, ldsBytes, workgroupSize};
    return {archVgprs, agprs, sgprs, ldsBytes, workgroupSize};
  }
};

/// Estimates the resources of `kernel` on `target`; with `unalignedVariant`, of its _unaligned kernel (see
/// hasUnalignedVariant in Report.h), which adds the element paths at row ends.
ResourceEstimate estimateResources(const ir::Kernel &kernel, const Target &target, bool unalignedVariant = false);

/// Reports every kernel whose estimate exceeds a budget (an error at the declaration that overflows it) and warns
/// about kernels limited to 1 wave per SIMD. Returns false when an error was reported.
bool checkBudgets(const ir::Module &module, DiagnosticEngine &diags);

/// Warns about each kernel whose final estimate (after every pass) lies within the model's error of the registers a
/// lane can have at the fewest waves per SIMD its workgroup needs (registerEdge in Occupancy.h): it may spill.
void warnAtRegisterEdges(const ir::Module &module, DiagnosticEngine &diags);

} // namespace tilec

#endif
