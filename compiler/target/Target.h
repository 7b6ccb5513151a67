//===- Target.h - The one table of target facts (gfx942, gfx950) ------------===//
//
// Every hardware number tilec uses lives here, with its source in ../shared/facts (occupancy.md, mfma.md). No other
// file compares architecture strings or hard-codes a limit: code asks the Target it was handed.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_H
#define TILEC_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "support/DType.h"
#include <cstdint>
#include <string>

namespace tilec {

enum class Fp8Encoding { FNUZ, OCP };

/// The architectures tilec knows; tables elsewhere (MFMA.cpp) say which of them have an instruction.
enum class Arch : unsigned { GFX942 = 1, GFX950 = 2 };

/// How the LDS serves one wave's ds_read or ds_write of one width per lane: the lanes it services together (a phase;
/// the phases run one after another) and how many 4-byte banks those lanes share. Within a phase, lanes that need
/// different dwords of one bank are serialised: that is a bank conflict. Sources: docs/performance.md, "LDS banks".
struct LdsPhases {
  bool write;                      ///< ds_write (true) or ds_read (false)
  unsigned bytes;                  ///< bytes per lane: 1, 2, 4, 8, 16 (ds_read2/ds_write2 are two of these)
  unsigned banks;                  ///< 4-byte banks seen by this access
  llvm::ArrayRef<uint64_t> phases; ///< one lane mask per phase, in the order they are serviced
  bool measured;                   ///< published or measured for this target; false: inferred (docs say from what)
};

/// Facts about one AMD GPU architecture.
struct Target {
  Arch arch;
  llvm::StringRef name;          ///< --offload-arch spelling, e.g. "gfx942"
  llvm::StringRef product;       ///< e.g. "MI300X"
  llvm::StringRef family;        ///< e.g. "CDNA3"
  unsigned waveSize;             ///< lanes per wave
  unsigned simdsPerCU;
  unsigned maxWavesPerSimd;
  unsigned vgprsPerLane;         ///< ArchVGPR + AccVGPR, unified file
  unsigned maxArchVgprs;
  unsigned maxAgprs;
  unsigned vgprGranule;
  unsigned sgprsPerSimd;
  unsigned addressableSgprs;
  unsigned reservedSgprs;        ///< VCC, FLAT_SCRATCH, XNACK_MASK: always added
  unsigned ldsBytesPerCU;        ///< also the most one workgroup may allocate
  unsigned ldsGranule;           ///< hardware LDS allocation granule in bytes
  unsigned maxWorkgroupSize;
  unsigned barrierSlotsPerCU;
  unsigned computeUnits;
  unsigned maxBytesPerLaneAccess; ///< widest vector memory access of one lane (dwordx4)
  Fp8Encoding fp8Encoding;
  unsigned minLLVMMajor;         ///< first LLVM release whose AMDGPU backend knows this target
  unsigned peakClockMHz;         ///< the engine clock the product's peak figures use (MI300X 2100, MI355X 2400)
  unsigned hbmGBPerSecond;       ///< peak HBM bandwidth (MI300X 5.3 TB/s, MI355X 8 TB/s)
  /// Latency of a vector load that misses every cache, in ns: with the bandwidth, the bytes a CU must keep in flight
  /// to stream from HBM (Little's law; analysis/MemoryTraffic.h). No GPU-side HBM figure is published for either
  /// product: Chips and Cheese ("Testing AMD's Giant MI300X") measures MI300X's Infinity Cache at about 218 ns, which
  /// an HBM access passes through, and a pointer chase on MI355X in a Triton fork's latency model
  /// (facebookexperimental/triton, AMDLatencyModel.h) gives about 360 ns. 500 ns is taken for both, a round figure
  /// above these, so that "enough in flight" errs on the safe side; the figure needed scales with it.
  unsigned hbmLatencyNs;
  unsigned ldsBankBytes;         ///< width of one LDS bank
  llvm::ArrayRef<LdsPhases> ldsPhases; ///< per access kind and width
  /// Latency of a global load in LLVM's scheduling model for this target, in llvm-mca cycles (one MFMA pass = one
  /// cycle): what the K-loop order plans the next step's loads against (gfx942: 80, read off llvm-mca-19's timeline
  /// for global_load_dwordx4; gfx950 has no model in LLVM 19 and takes the same).
  unsigned globalLoadLatency;
  /// ds_read_b64_tr_b16: a transposing LDS read of 16-bit values (gfx950; docs/gemm.md, "Transposing LDS reads").
  bool ldsTransposeRead16;
  /// ds_read_b64_tr_b8: the same for 8-bit values, 8 per lane (gfx950; docs/gemm.md, "Transposing LDS reads").
  bool ldsTransposeRead8;
  /// ds_read_b64_tr_b4: the same for 4-bit values, 16 per lane (gfx950; docs/gemm.md, "The 4-bit form").
  bool ldsTransposeRead4;
  /// ds_read_b96_tr_b6: 16 six-bit values per lane, 12 bytes at a 16-byte aligned address (gfx950; docs/mx.md, "B
  /// given K x N").
  bool ldsTransposeRead6;
  /// Kernels ask the compiler for the resource model's occupancy (amdgpu_waves_per_eu). gfx950: its compiler (LLVM
  /// 20 and later) allocates more than the model on some kernels and loses a wave (gemm_i8 204 VGPR+AGPR, 2 waves);
  /// asked, it meets the model (162, 3 waves) with no scratch on the examples but the three 256 x 256 ones
  /// (docs/gfx950.md). Where the estimate with its 10% margin does not fit that occupancy's registers,
  /// fewer waves are asked (passes/OccupancyHint.cpp: asked for more, the compiler spills; seed 1 of test/Differential
  /// on gfx950, 43 kernels with scratch, 25 with the margin). gfx942: clang-19 already agrees with the model on the
  /// examples; not asked.
  bool occupancyHint;
  /// Whether this target's compiler holds no more of an ordered main-loop step's fragments than the step has: the
  /// model's "scheduled main-loop step" item (clang-19's extra registers for a step whose every fragment is read
  /// before the first MFMA) then counts at most the fragments the widest statement left out. Only for the unscaled
  /// 32 x 32 MFMAs, where it was measured: with the 16 x 16 forms the compiler reads further ahead. gfx950
  /// (Triton's LLVM): gemm_bf16_gfx950 (4 K steps of 4-dword fragments) 116 ArchVGPRs where the clang-19 items give
  /// 149, the same loop with K 64 in 32x32x16 f16 120 against 159, gemm_f16 84 against 97, gemm_f16_256x128 133
  /// against 141 (capped: 117, 127, 81, 125); but 16x16x32 f16 with 4 K steps needs about 150 where the cap would
  /// give 128 (asked for 3 waves on that figure, the compiler spilled 20 B) (docs/gfx950.md). gfx942 (clang-19): the
  /// item as measured on seed 1 of test/Differential (taking it away, or half of it, fails 78 or 48 configurations
  /// instead of 27): not capped.
  bool capsScheduledStep;
  /// Whether the element paths at row ends of an _unaligned GEMM kernel (1- and 2-byte elements) cost this target's
  /// compiler nothing beyond the vector kernel, the accumulators being in ArchVGPRs (the VGPR form of the MFMAs).
  /// gfx950 (Triton's LLVM, seed 1 of test/Differential, the 125 _unaligned GEMMs of 1- and 2-byte elements: within
  /// 10% 83 -> 99, the model over by more than 10% 41 -> 24, under 1 -> 2 when none are counted) and LLVM 22 on the
  /// examples (gemm_f16_gfx950 and its _unaligned kernel both 152 VGPRs). gfx942: every element counts (measured
  /// with clang-19; with LLVM 22, gemm_f16 154 and its _unaligned kernel 156 against the model's 161 for both). In
  /// the AGPR form (a kernel held to 1 wave) every element counts on both targets: the cap of 8 that gfx950 had
  /// there was measured on Triton's LLVM, and no example is in that form under LLVM 22.
  bool mmaFreeElementPaths;
  /// Where mmaFreeElementPaths holds, the most ArchVGPRs the element paths of 3-byte elements (the 6-bit MX slots)
  /// cost. LLVM 22 on gfx950, _unaligned minus vector kernel: gemm_mxfp6_gfx950 +6, gemm_mxfp6_kn_gfx950 +22, and
  /// test/Emulator/Inputs/mx_mixed.tile's mix_p6f4 +14 and mix_f8b6 +2, where every element would count 40 to 51.
  unsigned mmaThreeByteElementPaths;
  /// Likewise for bytes of two packed values (fp4x2), where no 3-byte element is. LLVM 22 on gfx950, _unaligned
  /// minus vector kernel: the fp4 MX GEMMs of seed 1 of test/Differential -2 to +12, median 4 (8 kernels);
  /// gemm_mxfp4_gfx950 +6 where both kernels are asked for 3 waves, +12 where the _unaligned one is asked for 2
  /// (the register edge, wavesToAsk), gemm_mxfp4_kn_gfx950 +12. 8 keeps both examples within 10%.
  unsigned mmaPackedElementPaths;
  /// ArchVGPRs of the element paths at row ends in the _unaligned kernel of a kernel without an mma or a reduction,
  /// as this target's compiler allocates them. LLVM 22, alike on both targets: copy_f16 14 -> 20, axpy_f32 20 -> 30,
  /// scale_cast_bf16 24 -> 34 (gfx942 and gfx950); with a reduction 2 or 3 (softmax_f32 35 -> 38), where the model
  /// keeps 4. (clang-19 took 0 to 7 more on gfx942, 4 or 5 in most, on seed 1 of test/Differential.)
  unsigned elementPathVgprs;
  /// v_maximum3_f32: the IEEE 754-2019 maximum of three f32 values, NaN propagating (gfx950). LLVM lowers maxnum, which
  /// ignores a NaN operand, to v_max_f32 only after quieting each operand it cannot prove canonical (a v_max_f32 x, x
  /// per MFMA result or loaded value in IEEE mode, the compute default), and maximum to this with none; the two agree
  /// but where a NaN is (attention's row maximum of S: 15 canonicalising instructions a K/V block on gfx950 less).
  bool maximum3F32;
  /// Instruction K steps of an mma's fragments this target's compiler holds at once in a plain loop (not a K loop:
  /// attention's loop over K/V blocks, whose mmas restart or run once a step). gfx942: 4, as in a K loop (clang-22:
  /// attention_fwd_f16 128 VGPRs, the model 123). gfx950: LLVM 22 reads far less ahead there: the d = 128 attention
  /// with 32 query rows per wave, 238 VGPRs against the model's 219 with 2 steps and 259 with 4;
  /// attention_gqa_f16 compiled for gfx950, 96 against 103 with 2 steps (from 4 the model counts 20 more).
  unsigned plainLoopFragmentSteps;
  /// VGPRs per accumulator that a loop updates in place 4 values at a time (packed f32 pairs) beyond its values: a
  /// fit to this target's compiler (analysis/ValueRegisters.h, packedAccUpdates). gfx942: 6 (LLVM 22 takes 128 VGPRs
  /// for attention_fwd_f16, the model without the item 111). gfx950: 2 (LLVM 22 takes fewer there:
  /// attention_fwd_f16_gfx950 238 against the model's 215 without the item, attention_fwd_f16 84 against 91).
  unsigned packedUpdateVgprs;
  /// Clocks one wave's vector instruction holds its SIMD: 64 lanes on 16-lane SIMDs, 4 (CDNA3/CDNA4 ISA guides). One
  /// cycle of LLVM's MCA for these targets stands for one such issue slot (an MFMA pass counts one too): the unit of
  /// the loop estimate's cycles and of the memory yardstick's issue cycles (device/IssueRate.h).
  unsigned clocksPerIssueCycle;
  /// LDS reads at any byte address: the unaligned DS access the kernel driver enables on gfx9 targets and LLVM's
  /// amdhsa targets assume (clang-22 and clang-19 compile a 4-byte LDS load at an odd byte address on gfx942 and
  /// gfx950 to one ds_read_b32, two of them to a ds_read2_b32). A scaled mma reads each lane's scales at its lane
  /// group's byte, so that no shift moves them (ir::ScaleLoads::readAtLaneGroup).
  bool ldsUnalignedReads;

  /// Whether this target has a transposing LDS read for values of `bits` bits (16, 8 or 4: 8 bytes per lane; 6: 12).
  bool hasLdsTransposeRead(unsigned bits) const {
    return (bits == 16 && ldsTransposeRead16) || (bits == 8 && ldsTransposeRead8) || (bits == 4 && ldsTransposeRead4) ||
           (bits == 6 && ldsTransposeRead6);
  }
  /// Whether tilec loads `bytes` per lane of `dtype` through a buffer: buffer_load_dword, _dwordx2, _dwordx3 and
  /// _dwordx4 (tilec::buffer_load); buffer_load_ubyte and _ushort for E8M0 scales only (a scaled mma's scale tiles,
  /// passes/PlanScaleLoads.h), since 1-byte buffer loads of operands cost registers elsewhere (an fp8 x bf8 GEMM of
  /// test/Differential, epilogue_scaled, took 239 VGPRs with them against 207).
  static bool hasBufferLoad(unsigned bytes, DType dtype) {
    if (bytes == 1 || bytes == 2) return dtype == DType::E8M0;
    return bytes == 4 || bytes == 8 || bytes == 12 || bytes == 16;
  }
  /// The bytes a lane names with the transposing LDS read of `bits`-bit values: 8, or 12 for 6-bit values.
  static unsigned ldsTransposeReadBytes(unsigned bits) { return bits == 6 ? 12 : 8; }
  /// Passes (4 clocks each on a 16-lane SIMD) one wave64 VALU instruction takes: 1, and 4 for the f32/f16
  /// transcendentals (exp, log, rcp, rsq, sqrt, sin, cos), which run at quarter rate on gfx942 and gfx950 (LLVM's
  /// SISchedule.td: WriteTrans32, "F16 or F32 transcendental instructions (these are quarter rate)").
  static unsigned valuPasses(llvm::StringRef mnemonic) {
    for (llvm::StringRef t : {"v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_"})
      if (mnemonic.starts_with(t) && !mnemonic.contains("f64")) return 4;
    return 1;
  }
  /// The transposing LDS read's name for values of `bits` bits (16, 8, 6 or 4).
  static std::string ldsTransposeReadName(unsigned bits) {
    return "ds_read_b" + std::to_string(8 * ldsTransposeReadBytes(bits)) + "_tr_b" + std::to_string(bits);
  }
  unsigned lanesPerWave() const { return waveSize; }
  /// The phases of a ds_read (write = false) or ds_write of `bytes` per lane, or nullptr for a width not in the table.
  const LdsPhases *ldsPhasesFor(bool write, unsigned bytes) const;
};

/// The target named `name` ("gfx942", "gfx950"), or nullptr.
const Target *lookupTarget(llvm::StringRef name);
/// "gfx942, gfx950": for error messages and --help.
llvm::StringRef allTargetNames();
/// The target used when neither the file nor the command line names one.
const Target &defaultTarget();

} // namespace tilec

#endif
