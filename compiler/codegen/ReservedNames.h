//===- ReservedNames.h - Names the emitted HIP declares itself ---------------===//
//
// The emitted kernels and launchers declare locals of their own (ids, loop counters, a tile's lane position). Sema
// checks user names against this list so that no emitted declaration can collide with a user's; it is the only part
// of the code generator that the front end sees.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_RESERVEDNAMES_H
#define TILEC_RESERVEDNAMES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace tilec {

/// Whether the emitted code declares `name` itself (ids, loop counters, the launcher's locals, HIP's API): a user
/// name must differ from these.
bool isEmitterName(llvm::StringRef name);
/// Suffixes the emitter appends to a user name for locals of its own (`t_row` for tile t's lane position, ...):
/// `name + suffix` must not be another user name. Returns "" when `name` is free of them given `isUserName`.
std::string emitterClash(llvm::StringRef name, llvm::function_ref<bool(llvm::StringRef)> isUserName);

} // namespace tilec

#endif
