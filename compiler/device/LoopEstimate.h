//===- LoopEstimate.h - What a GEMM's K loop is worth, statically -----------===//
//
// From the K loop the compiler produced (ISAInfo.h's MFMALoop) and its cycles per iteration under LLVM's MCA: the
// MFMA busy fraction (MFMA passes / cycles; MCA counts one pass, 4 clocks, as one cycle) and an estimate of the
// TFLOP/s at the target's clock, with what bounds it: MFMA issue of one wave per SIMD as MCA models it, global memory
// (the block's arithmetic intensity against the HBM bandwidth, as if no load hit a cache), or the LDS (the K step's
// LDS writes and fragment reads under the bank model of LDSBanks.h, one phase per LDS clock, conflicts included).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LOOPESTIMATE_H
#define TILEC_LOOPESTIMATE_H

#include "device/ISAInfo.h"
#include "ir/IR.h"
#include <algorithm>
#include <optional>

namespace tilec {

struct LoopEstimate {
  double mcaCyclesPerIteration = 0; ///< MCA cycles (one MFMA pass = 4 clocks = 1 cycle)
  /// The loop's cycles: MCA's, or where MCA charges too few MFMA passes (passesMCAMisses) MCA's on the body at true
  /// passes (bodyAtTruePasses: stand-ins for them)
  double cyclesPerIteration = 0;
  unsigned mfmaPasses = 0;       ///< per iteration, from the MFMA table (the scaled forms by their operand formats)
  unsigned passesMCAMisses = 0;  ///< passes llvm-mca does not charge: half of each scaled f8f6f4 MFMA's with fp8/bf8
  double busy = 0;               ///< mfmaPasses / cyclesPerIteration
  double flopsPerWaveIteration = 0;
  double peakTflops = 0;         ///< the GPU's peak at this MFMA's rate: every SIMD issuing it back to back
  double mfmaBoundTflops = 0;    ///< one wave per SIMD running this loop
  double workgroupFlopsPerIteration = 0, workgroupBytesPerIteration = 0; ///< A and B tiles loaded per K step
  double intensity = 0;          ///< flops per byte loaded from global memory
  double memoryBoundTflops = 0;  ///< intensity x HBM bandwidth
  double ldsBytesPerIteration = 0;  ///< LDS bytes the workgroup writes and reads per K step
  double ldsCyclesPerIteration = 0; ///< LDS clocks they take under the bank model (one phase per clock)
  double ldsIdealCycles = 0;        ///< the same without bank conflicts
  double ldsBoundTflops = 0;     ///< flops per LDS clock x LDS clock x CUs (0: the loop uses no LDS)
  double estimateTflops = 0;     ///< the smallest bound, for the whole GPU
  double estimateTflopsPerCU = 0; ///< estimateTflops / CUs
  const char *bound = "";        ///< "MFMA issue", "global memory" or "LDS"
  std::string unknownMFMA;       ///< an MFMA mnemonic the table lacks (then no estimate)
  /// The loop's other vector ALU work: instructions, and their passes (Target::valuPasses; the transcendentals of a
  /// softmax at 4 each). A SIMD issues VALU and MFMA work of different waves side by side, so with enough waves the
  /// larger of valuPasses and mfmaPasses bounds the loop; one wave alone takes MCA's cycles.
  unsigned valuInstructions = 0, transcendentals = 0, valuPasses = 0;
  /// The share of a SIMD's MFMA pipe that `waves` waves running this loop side by side could fill: their passes
  /// against one wave's cycles, and against their VALU passes (the VALU pipe takes those whatever the overlap), at
  /// most all of it. MCA models one wave; at several waves per SIMD (a small block at high occupancy) its busy figure
  /// understates the pipe, and this is the other end.
  double busyWithWaves(unsigned waves) const {
    double b = std::min(1.0, waves * busy);
    return valuPasses > mfmaPasses ? std::min(b, static_cast<double>(mfmaPasses) / valuPasses) : b;
  }
};

/// The estimate for `loop` of `kernel` on `target`; nullopt when the kernel has no K loop in the IR.
/// `cyclesPerIteration` are MCA's on the loop's body; `truePassCycles` MCA's on bodyAtTruePasses (0: not measured;
/// the loop then takes at least its true passes).
std::optional<LoopEstimate> estimateLoop(const ir::Kernel &kernel, const Target &target, const MFMALoop &loop,
                                         double cyclesPerIteration, double truePassCycles = 0);

/// The iterations llvm-mca runs a K loop's body for (--verify, --explore).
constexpr unsigned kMCAIterations = 100;

/// `loop` of `kernel` through llvm-mca (kMCAIterations, the body at true passes too where MCA undercharges an MFMA)
/// and its estimate; nullopt with `problem` set when MCA gives no figure or the MFMA table lacks an instruction.
std::optional<LoopEstimate> measureLoop(const ir::Kernel &kernel, const Target &target, const MFMALoop &loop,
                                        std::string &problem);

/// The loop's body with each MFMA that LLVM's MCA charges fewer passes than it takes (a scaled f8f6f4 form with an
/// fp8 or bf8 operand: MCA charges every format the fp4/fp6 figure, half) replaced by a stand-in MCA charges the true
/// passes: the target's f32 MFMA of the same block with those passes (v_mfma_f32_32x32x2_f32 for an fp8 32x32x64),
/// on the same C/D and C, its A and B the last register of the original's (the scale operands are dropped). It holds
/// the MFMA pipe as long and lets the instructions after it dispatch while it runs, as the instruction it stands for
/// does. Empty where MCA charges every MFMA its passes.
std::string bodyAtTruePasses(const MFMALoop &loop, const Target &target);

/// MCA's cycles per iteration of bodyAtTruePasses; 0 where it is empty or MCA gives no figure.
double cyclesAtTruePasses(const MFMALoop &loop, const Target &target, unsigned iterations);

} // namespace tilec

#endif
