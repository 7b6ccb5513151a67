//===- Target.cpp - The target table ---------------------------------------===//
//
// Numbers from ../shared/facts/occupancy.md (LLVM AMDGPUBaseInfo, AMD's specifications) and toolchain.md; the LDS
// bank phases from the sources cited in docs/performance.md ("LDS banks"), one comment per row.
//
//===----------------------------------------------------------------------===//
#include "target/Target.h"

using namespace tilec;

namespace {

/// Mask of `count` consecutive lanes from `first`.
constexpr uint64_t lanes(unsigned first, unsigned count) {
  return (count == 64 ? ~uint64_t(0) : ((uint64_t(1) << count) - 1)) << first;
}
/// The same lane groups in the second half of the wave.
constexpr uint64_t upper(uint64_t mask) { return mask << 32; }

// Groups of consecutive lanes.
constexpr uint64_t kHalves[] = {lanes(0, 32), lanes(32, 32)};
constexpr uint64_t kQuarters[] = {lanes(0, 16), lanes(16, 16), lanes(32, 16), lanes(48, 16)};
constexpr uint64_t kEighths[] = {lanes(0, 8),  lanes(8, 8),  lanes(16, 8), lanes(24, 8),
                                 lanes(32, 8), lanes(40, 8), lanes(48, 8), lanes(56, 8)};
constexpr uint64_t kWhole[] = {lanes(0, 64)};
// ds_read_b128 on gfx942: 8 lanes per phase, in the groups AMD's LDS bank-conflict blog lists.
constexpr uint64_t kRead128Gfx942[] = {
    lanes(0, 4) | lanes(20, 4),         lanes(4, 4) | lanes(16, 4),         lanes(8, 4) | lanes(28, 4),
    lanes(12, 4) | lanes(24, 4),        upper(lanes(0, 4) | lanes(20, 4)),  upper(lanes(4, 4) | lanes(16, 4)),
    upper(lanes(8, 4) | lanes(28, 4)),  upper(lanes(12, 4) | lanes(24, 4))};
// ds_read_b128 on gfx950: 16 lanes per phase, as HipKittens measured (two of gfx942's groups each).
constexpr uint64_t kRead128Gfx950[] = {
    lanes(0, 4) | lanes(12, 4) | lanes(20, 8),        lanes(4, 8) | lanes(16, 4) | lanes(28, 4),
    upper(lanes(0, 4) | lanes(12, 4) | lanes(20, 8)), upper(lanes(4, 8) | lanes(16, 4) | lanes(28, 4))};

// clang-format off
const LdsPhases kLdsGfx942[] = {
  // write  bytes banks phases           measured
  {false,  1, 32, kHalves,        false}, // sub-dword: as b32 (one bank per lane)
  {false,  2, 32, kHalves,        false},
  {false,  4, 32, kHalves,        true},  // AMD OpenCL guide (GCN): half-wave, 32 banks of 4 B
  {false,  8, 32, kQuarters,      true},  // AMD OpenCL guide (GCN): a quarter-wave of float2
  {false, 16, 32, kRead128Gfx942, true},  // AMD LDS bank-conflict blog, CK Tile docs
  {true,   1, 32, kHalves,        false},
  {true,   2, 32, kHalves,        false},
  {true,   4, 32, kHalves,        false}, // as the b32 read
  {true,   8, 32, kQuarters,      false}, // as the b64 read (and gfx950's measured 32-bank b64 write)
  {true,  16, 32, kEighths,       true},  // AMD LDS bank-conflict blog, CK Tile docs
};
const LdsPhases kLdsGfx950[] = {
  {false,  1, 64, kWhole,         false}, // 64 banks x 4 B = 64 lanes of one dword
  {false,  2, 64, kWhole,         false},
  {false,  4, 64, kWhole,         false},
  {false,  8, 64, kHalves,        true},  // HipKittens phase measurements
  {false, 16, 64, kRead128Gfx950, true},  // HipKittens phase measurements
  {false, 12, 64, kRead128Gfx950, false}, // ds_read_b96_tr_b6: as the 16-byte read (no source gives its phases)
  {true,   1, 32, kHalves,        false}, // writes see 32 banks (the measured b64 write)
  {true,   2, 32, kHalves,        false},
  {true,   4, 32, kHalves,        false},
  {true,   8, 32, kQuarters,      true},  // HipKittens phase measurements: 32 banks, 16 lanes
  {true,  16, 32, kEighths,       false}, // as gfx942
  {true,  12, 32, kEighths,       false}, // ds_write_b96 of a 16-byte LDS slot: as the 16-byte write
};
// clang-format on

} // namespace

static const Target kTargets[] = {
    {Arch::GFX942, /*name=*/"gfx942", /*product=*/"MI300X", /*family=*/"CDNA3", /*waveSize=*/64, /*simdsPerCU=*/4,
     /*maxWavesPerSimd=*/8, /*vgprsPerLane=*/512, /*maxArchVgprs=*/256, /*maxAgprs=*/256, /*vgprGranule=*/8,
     /*sgprsPerSimd=*/800, /*addressableSgprs=*/102, /*reservedSgprs=*/6, /*ldsBytesPerCU=*/65536,
     /*ldsGranule=*/512, /*maxWorkgroupSize=*/1024, /*barrierSlotsPerCU=*/16, /*computeUnits=*/304,
     /*maxBytesPerLaneAccess=*/16, Fp8Encoding::FNUZ, /*minLLVMMajor=*/19, /*peakClockMHz=*/2100,
     /*hbmGBPerSecond=*/5300, /*hbmLatencyNs=*/500, /*ldsBankBytes=*/4, kLdsGfx942, /*globalLoadLatency=*/80,
     /*ldsTransposeRead16=*/false, /*ldsTransposeRead8=*/false, /*ldsTransposeRead4=*/false,
     /*ldsTransposeRead6=*/false, /*occupancyHint=*/false, /*capsScheduledStep=*/false,
     /*mmaFreeElementPaths=*/false, /*mmaThreeByteElementPaths=*/0, /*mmaPackedElementPaths=*/0,
     /*elementPathVgprs=*/8, /*maximum3F32=*/false,
     /*plainLoopFragmentSteps=*/4, /*packedUpdateVgprs=*/6, /*clocksPerIssueCycle=*/4,
     /*ldsUnalignedReads=*/true},
    {Arch::GFX950, /*name=*/"gfx950", /*product=*/"MI355X", /*family=*/"CDNA4", /*waveSize=*/64, /*simdsPerCU=*/4,
     /*maxWavesPerSimd=*/8, /*vgprsPerLane=*/512, /*maxArchVgprs=*/256, /*maxAgprs=*/256, /*vgprGranule=*/8,
     /*sgprsPerSimd=*/800, /*addressableSgprs=*/102, /*reservedSgprs=*/6, /*ldsBytesPerCU=*/163840,
     /*ldsGranule=*/1280, /*maxWorkgroupSize=*/1024, /*barrierSlotsPerCU=*/16, /*computeUnits=*/256,
     /*maxBytesPerLaneAccess=*/16, Fp8Encoding::OCP, /*minLLVMMajor=*/20, /*peakClockMHz=*/2400,
     /*hbmGBPerSecond=*/8000, /*hbmLatencyNs=*/500, /*ldsBankBytes=*/4, kLdsGfx950, /*globalLoadLatency=*/80,
     /*ldsTransposeRead16=*/true, /*ldsTransposeRead8=*/true, /*ldsTransposeRead4=*/true,
     /*ldsTransposeRead6=*/true, /*occupancyHint=*/true, /*capsScheduledStep=*/true,
     /*mmaFreeElementPaths=*/true, /*mmaThreeByteElementPaths=*/18, /*mmaPackedElementPaths=*/8,
     /*elementPathVgprs=*/8, /*maximum3F32=*/true,
     /*plainLoopFragmentSteps=*/2, /*packedUpdateVgprs=*/2, /*clocksPerIssueCycle=*/4,
     /*ldsUnalignedReads=*/true},
};

const LdsPhases *Target::ldsPhasesFor(bool write, unsigned bytes) const {
  for (const LdsPhases &p : ldsPhases)
    if (p.write == write && p.bytes == bytes) return &p;
  return nullptr;
}

const Target *tilec::lookupTarget(llvm::StringRef name) {
  for (const Target &t : kTargets)
    if (t.name == name) return &t;
  return nullptr;
}

llvm::StringRef tilec::allTargetNames() { return "gfx942, gfx950"; }

const Target &tilec::defaultTarget() { return kTargets[0]; }
