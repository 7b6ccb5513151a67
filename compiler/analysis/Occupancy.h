//===- Occupancy.h - Waves per SIMD from a kernel's resources ---------------===//
//
// The occupancy calculator of ../shared/facts/occupancy.md for any Target: per-resource limits (VGPR, SGPR, LDS,
// workgroup slots), the resulting waves per SIMD and per CU, the limiter, the derivation in plain arithmetic, and
// hints saying what would raise it. Every hint is checked by recomputing the occupancy with the suggested value, so
// only true statements are printed. Pure arithmetic: no IR, no diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_OCCUPANCY_H
#define TILEC_OCCUPANCY_H

#include "target/Target.h"
#include <string>
#include <vector>

namespace tilec {

/// What one kernel uses, per lane (VGPRs) or per wave (SGPRs) or per workgroup (LDS).
struct KernelResources {
  unsigned archVgprs = 0;
  unsigned agprs = 0;
  unsigned sgprs = 0;        ///< explicit SGPRs; the target's reserved ones are added by the calculator
  unsigned ldsBytes = 0;     ///< static LDS per workgroup, before the hardware granule
  unsigned workgroupSize = 64;
};

enum class Limiter { None, VGPR, SGPR, LDS, Workgroups };
llvm::StringRef limiterName(Limiter limiter);

struct Occupancy {
  // The inputs after the hardware's rounding.
  unsigned totalVgprs = 0;       ///< ceil4(arch) + agprs when AGPRs are used, else arch
  unsigned allocatedVgprs = 0;   ///< totalVgprs rounded up to the granule
  unsigned sgprsWithReserved = 0;
  unsigned ldsAllocated = 0;     ///< ldsBytes rounded up to the LDS granule
  unsigned wavesPerWorkgroup = 0;
  unsigned maxWorkgroupsPerCU = 0; ///< by workgroup slots
  unsigned ldsWorkgroupsPerCU = 0; ///< by LDS (capped at 1024 when there is none)

  // Waves per SIMD each resource allows, and the result.
  unsigned vgprLimit = 0, sgprLimit = 0, ldsLimit = 0, workgroupLimit = 0;
  unsigned wavesPerSimd = 0;
  unsigned wavesPerCU = 0;
  Limiter limiter = Limiter::None;
  bool launchable = true;        ///< false when one workgroup does not fit (LDS, registers)

  std::vector<std::string> derivation; ///< one line per resource, then the result
  std::vector<std::string> hints;      ///< what would raise the occupancy (each checked)
};

/// Computes the occupancy of a kernel using `r` on `target`.
Occupancy computeOccupancy(const Target &target, const KernelResources &r);

/// How close a kernel's estimated VGPRs come to what a lane can have at the fewest waves per SIMD its workgroup needs
/// (a workgroup's waves share the CU's SIMDs, so 8 waves need 2 per SIMD: 256 unified VGPRs a lane). The estimate is
/// fitted to clang within about kRegisterEdgePercent (test/Differential); closer than that to the room, or to the
/// ArchVGPRs a lane can address, the compiler may spill to scratch (seed 1: three kernels of 256 AGPRs estimated at
/// exactly the room spilled 12 to 196 B, six compiled without scratch).
struct RegisterEdge {
  bool near = false;
  unsigned total = 0;       ///< ceil4(arch) + agprs, as the occupancy counts them
  unsigned room = 0;        ///< unified VGPRs per lane at `wavesNeeded` waves per SIMD (granule-aligned)
  unsigned wavesNeeded = 0; ///< ceil(waves of a workgroup / SIMDs per CU)
  bool arch = false;        ///< near the ArchVGPRs a lane can hold (archVgprRoom) rather than the unified room
  unsigned archVgprs = 0;   ///< the estimate's ArchVGPRs
  unsigned archRoom = 0;    ///< archVgprRoom: 256, or more where the accumulators leave AGPRs
};
constexpr unsigned kRegisterEdgePercent = 10;
RegisterEdge registerEdge(const Target &target, const KernelResources &r);
/// `total` VGPRs per lane with the estimate's kRegisterEdgePercent margin, rounded up.
inline unsigned withRegisterMargin(unsigned total) { return (total * (100 + kRegisterEdgePercent) + 99) / 100; }

/// The ArchVGPRs of demand a lane holds without scratch: the maxArchVgprs it addresses and, where its accumulators are
/// AGPRs (r.agprs > 0) in a unified file (gfx90a and later), the AGPRs they leave of the registers a lane has at the
/// fewest waves per SIMD its workgroup needs (512 at 1 wave, 256 at 2: then nothing is left past 256). LLVM allocates loaded values, LDS
/// fragments and MFMA operands to AGPRs (its AV register classes) and spills other VGPRs to free AGPRs before scratch.
/// Measured with LLVM 22 on gfx950, gemm_mxfp6_kn_gfx950 as 256 x 128 blocks (128 accumulator AGPRs, 1 wave per
/// SIMD): estimates of 255 ArchVGPRs (2 register sets) and 279 (its _unaligned kernel) compiled to 256 + 110 and 256
/// + 42 registers, no scratch (docs/occupancy.md, section 5, has the other kernels measured). Where the accumulators take all 256 AGPRs nothing is left
/// (test/Differential/budget-full-agpr-fallback.test: that kernel spilled).
unsigned archVgprRoom(const Target &target, const KernelResources &r);
/// That room in words: "the 256 a lane can address", or how the accumulators' AGPRs make the rest.
std::string archRoomText(const Target &target, unsigned room);

/// Unified VGPRs a lane can have at `waves` waves per SIMD (granule-aligned).
unsigned vgprsAtWaves(const Target &target, unsigned waves);
/// The unified VGPR file a lane uses: ArchVGPRs aligned to 4, then the AGPRs (ArchVGPRs alone without AGPRs).
unsigned unifiedVgprs(const KernelResources &r);

/// Waves per SIMD allowed by `total` unified VGPRs per lane (the facts' breakpoints 64/72/80/96/128/168/256/512).
unsigned wavesForVgprs(const Target &target, unsigned total);

/// The waves per SIMD to ask of the compiler for a kernel estimated at `r`: the model's occupancy, or fewer where the
/// estimate with its kRegisterEdgePercent margin does not fit the registers a lane has at that occupancy (asked for
/// more than it can hold, the compiler spills); 0 when the kernel cannot launch.
unsigned wavesToAsk(const Target &target, const KernelResources &r);

} // namespace tilec

#endif
