//===- ReservedNames.cpp - Names of HIP and the runtime that emitted code uses -===//
#include "codegen/ReservedNames.h"

#include "llvm/ADT/StringSet.h"

using namespace tilec;

bool tilec::isHIPName(llvm::StringRef n) {
  static const llvm::StringSet<> names = {"tilec", "std", "dim3"};
  return names.contains(n) || n.starts_with("hip") || n.starts_with("HIP") || n.starts_with("TILEC");
}
