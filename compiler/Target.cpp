//===- Target.cpp - The target table ---------------------------------------===//
//
// Numbers from ../shared/facts/occupancy.md (LLVM AMDGPUBaseInfo, AMD's specifications) and toolchain.md.
//
//===----------------------------------------------------------------------===//
#include "Target.h"

using namespace tilec;

static const Target kTargets[] = {
    {Arch::GFX942, /*name=*/"gfx942", /*product=*/"MI300X", /*family=*/"CDNA3", /*waveSize=*/64, /*simdsPerCU=*/4,
     /*maxWavesPerSimd=*/8, /*vgprsPerLane=*/512, /*maxArchVgprs=*/256, /*maxAgprs=*/256, /*vgprGranule=*/8,
     /*sgprsPerSimd=*/800, /*addressableSgprs=*/102, /*reservedSgprs=*/6, /*ldsBytesPerCU=*/65536,
     /*ldsGranule=*/512, /*maxWorkgroupSize=*/1024, /*barrierSlotsPerCU=*/16, /*computeUnits=*/304,
     /*maxBytesPerLaneAccess=*/16, Fp8Encoding::FNUZ, /*minLLVMMajor=*/19, /*peakClockMHz=*/2100,
     /*hbmGBPerSecond=*/5300},
    {Arch::GFX950, /*name=*/"gfx950", /*product=*/"MI355X", /*family=*/"CDNA4", /*waveSize=*/64, /*simdsPerCU=*/4,
     /*maxWavesPerSimd=*/8, /*vgprsPerLane=*/512, /*maxArchVgprs=*/256, /*maxAgprs=*/256, /*vgprGranule=*/8,
     /*sgprsPerSimd=*/800, /*addressableSgprs=*/102, /*reservedSgprs=*/6, /*ldsBytesPerCU=*/163840,
     /*ldsGranule=*/1280, /*maxWorkgroupSize=*/1024, /*barrierSlotsPerCU=*/16, /*computeUnits=*/256,
     /*maxBytesPerLaneAccess=*/16, Fp8Encoding::OCP, /*minLLVMMajor=*/20, /*peakClockMHz=*/2400,
     /*hbmGBPerSecond=*/8000},
};

const Target *tilec::lookupTarget(llvm::StringRef name) {
  for (const Target &t : kTargets)
    if (t.name == name) return &t;
  return nullptr;
}

llvm::StringRef tilec::allTargetNames() { return "gfx942, gfx950"; }

const Target &tilec::defaultTarget() { return kTargets[0]; }
