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

#include "IR.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

/// Writes the HIP translation unit for `module`; `sourceName` names the .tile file in the header comment.
void emitHIP(const ir::Module &module, llvm::StringRef sourceName, llvm::raw_ostream &os);

} // namespace tilec

#endif
