//===- Verify.h - The model's resources beside the compiler's ---------------===//
//
// `tilec --verify`: per kernel (the vector kernel and its _unaligned variant) the ArchVGPRs, AGPRs, SGPRs, LDS,
// scratch and occupancy that tilec's resource model predicted before code generation, beside what LLVM's AMDGPU
// backend allocated for the emitted HIP (compiled in process, DeviceCompiler.h), with the difference. Policy: scratch
// is an error unless spills are allowed, LDS must match exactly (an error otherwise), and an occupancy that differs is
// a warning naming the resource that makes the difference.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_VERIFY_H
#define TILEC_VERIFY_H

#include "device/ISAInfo.h"
#include "ir/IR.h"
#include "llvm/Support/raw_ostream.h"
#include "support/Diagnostics.h"

namespace tilec {

struct VerifyOptions {
  bool json = false;
  bool allowSpills = false;
  std::string llvmVersion; ///< of the compiler that produced the assembly, for the heading
};

/// Compares the model with the compiled kernels of `assembly`, printing the table to `os` and the policy's errors
/// and warnings to `diags`. Returns false when a kernel is missing from the assembly.
bool verifyResources(const ir::Module &module, llvm::StringRef fileName, llvm::StringRef assembly,
                     const VerifyOptions &options, DiagnosticEngine &diags, llvm::raw_ostream &os);

} // namespace tilec

#endif
