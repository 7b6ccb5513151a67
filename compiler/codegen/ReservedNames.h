//===- ReservedNames.h - Names of HIP and the runtime that emitted code uses --===//
//
// The emitted kernels and launchers use HIP and tilec's runtime by name (dim3, hipLaunchKernelGGL, hipStream_t,
// hipSuccess, tilec::...); a user name spelled like one of them would hide it. Sema refuses those names, as it refuses
// C++'s keywords and reserved identifiers (`__builtin_*`, `_Float16`). The emitter's own locals (`lane`, `row`, `kk`,
// `t_row`, ...) are not here: they give way to user names (codegen/EmitterNames.h). This is the only part of the code
// generator that the front end sees.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_RESERVEDNAMES_H
#define TILEC_RESERVEDNAMES_H

#include "llvm/ADT/StringRef.h"

namespace tilec {

/// Whether `name` is one that emitted code uses from HIP, clang or tilec's runtime (or a prefix of such names:
/// hip*, HIP*, TILEC*), so that no user name may be spelled so.
bool isHIPName(llvm::StringRef name);

} // namespace tilec

#endif
