//===- ISAInfo.h - What the AMDGPU backend says about each kernel -----------===//
//
// Reads the "; Kernel info:" comment block that LLVM's AMDGPU assembly printer writes after each kernel: the registers
// it allocated, its LDS and scratch, and the occupancy it computed. This is the compiler's side of `tilec --verify`.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_ISAINFO_H
#define TILEC_ISAINFO_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace tilec {

struct CompiledKernel {
  std::string name;
  unsigned archVgprs = 0;    ///< NumVgprs
  unsigned agprs = 0;        ///< NumAgprs
  unsigned totalVgprs = 0;   ///< TotalNumVgprs: the unified file, ArchVGPRs aligned to 4 plus AGPRs
  unsigned sgprs = 0;        ///< NumSgprs, VCC and the other reserved SGPRs included
  unsigned ldsBytes = 0;     ///< LDSByteSize
  unsigned scratchBytes = 0; ///< ScratchSize, per lane
  unsigned occupancy = 0;    ///< waves per SIMD
  unsigned codeBytes = 0;    ///< codeLenInByte
};

/// The kernels of `assembly` in the order they appear; functions without a kernel info block are left out.
std::vector<CompiledKernel> readKernelInfo(llvm::StringRef assembly);

} // namespace tilec

#endif
