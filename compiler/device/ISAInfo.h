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

/// The innermost loop of a kernel that holds MFMAs (a GEMM's K loop): from the label a backward branch goes to, to
/// that branch, as straight-line instructions (labels, directives and comments dropped).
struct MFMALoop {
  std::string kernel;
  std::string label;                     ///< e.g. ".LBB0_6"
  std::vector<std::string> instructions; ///< as printed, one per entry, branches included
  std::vector<std::pair<std::string, unsigned>> mfmas; ///< each MFMA mnemonic with its count, in first-seen order
  unsigned mfmaCount = 0;
  unsigned bufferLoadsRewritten = 0;     ///< see forMCA
  /// The instructions as LLVM 19's MCA can take them: it crashes on buffer_load_*, so each becomes the
  /// global_load_* of the same width (same memory class and latency).
  std::string forMCA() const;
};

/// The K loop of each kernel of `assembly` that has one.
std::vector<MFMALoop> findMFMALoops(llvm::StringRef assembly);

} // namespace tilec

#endif
