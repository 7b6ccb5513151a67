//===- HIPEmitter.h - IR to readable HIP C++ --------------------------------===//
//
// One `extern "C" __global__` kernel per IR kernel, with __launch_bounds__, ids from __builtin_amdgcn_*, register tiles
// as arrays of clang vectors (one element per access), 16-byte accesses wherever vec x size = 16, masked tails, and a
// host launcher `launch_<kernel>(..., hipStream_t)` that computes the grid and checks its arguments. The output is
// deterministic and includes tilec/runtime.h.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_HIPEMITTER_H
#define TILEC_HIPEMITTER_H

#include "ir/IR.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/SMLoc.h"
#include <string>

namespace tilec {

/// The line of the .tile source at a location.
using LineOf = llvm::function_ref<unsigned(llvm::SMLoc)>;

/// Writes the HIP translation unit for `module`; `sourceName` names the .tile file in the header comment. With
/// `lineOf`, each statement's code is preceded by a LineMap.h marker naming its .tile line (for the copy tilec
/// compiles itself; the .hip users get has none).
void emitHIP(const ir::Module &module, llvm::StringRef sourceName, llvm::raw_ostream &os,
             const LineOf *lineOf = nullptr);

/// Writes a C++ header that declares the launchers of `module`'s kernels (launch_NAME(..., hipStream_t)), for the
/// host code that calls them; it includes <hip/hip_runtime_api.h>, or tilec/emulator.h under TILEC_EMULATOR.
void emitLauncherHeader(const ir::Module &module, llvm::StringRef sourceName, llvm::raw_ostream &os);

} // namespace tilec

#endif
