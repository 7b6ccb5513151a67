//===- Installation.cpp - Where tilec's own files are ------------------------===//
#include "support/Installation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace tilec;

std::string tilec::runtimeIncludeDir() {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  if (!exe.empty()) {
    llvm::SmallString<256> installed(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
    llvm::sys::path::append(installed, "include");
    llvm::SmallString<256> header(installed);
    llvm::sys::path::append(header, "tilec", "runtime.h");
    if (llvm::sys::fs::exists(header)) return std::string(installed);
  }
  return TILEC_RUNTIME_INCLUDE_DIR;
}
