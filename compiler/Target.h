//===- Target.h - The one table of target facts (gfx942, gfx950) ------------===//
//
// Every hardware number tilec uses lives here, with its source in ../shared/facts (occupancy.md, mfma.md). No other
// file compares architecture strings or hard-codes a limit: code asks the Target it was handed.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_H
#define TILEC_TARGET_H

#include "llvm/ADT/StringRef.h"

namespace tilec {

enum class Fp8Encoding { FNUZ, OCP };

/// The architectures tilec knows; tables elsewhere (MFMA.cpp) say which of them have an instruction.
enum class Arch : unsigned { GFX942 = 1, GFX950 = 2 };

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

  unsigned lanesPerWave() const { return waveSize; }
};

/// The target named `name` ("gfx942", "gfx950"), or nullptr.
const Target *lookupTarget(llvm::StringRef name);
/// "gfx942, gfx950": for error messages and --help.
llvm::StringRef allTargetNames();
/// The target used when neither the file nor the command line names one.
const Target &defaultTarget();

} // namespace tilec

#endif
