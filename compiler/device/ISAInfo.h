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

/// The MFMAs of one kind in a loop: the mnemonic and, for the scaled f8f6f4 forms, the operand format codes the
/// instruction names (cbsz for A, blgp for B; 0, fp8, when it names none).
struct MFMAUse {
  std::string mnemonic;
  unsigned cbsz = 0, blgp = 0;
  unsigned count = 0;
};

/// A kernel's K loop in its assembly: of the loops closed by a backward branch that hold MFMAs, the one with the
/// fewest instructions per MFMA (the unmasked main loop, where a kernel has a masked copy too), as straight-line
/// instructions from its label to its last backward branch (labels, directives and comments dropped).
struct MFMALoop {
  std::string kernel;
  std::string label;                     ///< e.g. ".LBB0_6"
  std::vector<std::string> instructions; ///< as printed, one per entry, branches included
  std::vector<MFMAUse> mfmas;            ///< each kind of MFMA with its count, in first-seen order
  unsigned mfmaCount = 0;
  /// The instructions as one text, a line each, for LLVM's MCA.
  std::string body() const;
};

/// The value of a format field of a scaled MFMA ("cbsz:4"), 0 when the instruction does not name it, and ~0u (no
/// format has it: the estimate then names the instruction as unknown) when the field is there but not a number.
unsigned formatCode(llvm::StringRef instruction, llvm::StringRef field);

/// The K loop of each kernel of `assembly` that has one.
std::vector<MFMALoop> findMFMALoops(llvm::StringRef assembly);

/// The instructions of kernel `name` in `assembly`, as written (labels, directives and comments dropped); empty when
/// the kernel is not there.
std::vector<std::string> kernelInstructions(llvm::StringRef assembly, llvm::StringRef name);

} // namespace tilec

#endif
