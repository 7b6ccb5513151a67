//===- Installation.cpp - Where tilec's own files are ------------------------===//
//
// The binary that holds this code is found with dladdr: the tilec executable, libtilec.so, or the program that
// linked libtilec.a. For a shared library the dynamic loader knows its path (link_map::l_name); for the main program
// l_name is empty and the executable's own path is asked for instead.
//
//===----------------------------------------------------------------------===//
#include "support/Installation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <dlfcn.h>
#include <link.h>

using namespace tilec;

namespace {

/// The path of the executable or shared library that this function is part of.
std::string thisBinary() {
  static int anchor;
  Dl_info info;
  struct link_map *map = nullptr;
  if (dladdr1(reinterpret_cast<void *>(&thisBinary), &info, reinterpret_cast<void **>(&map), RTLD_DL_LINKMAP) &&
      map && map->l_name && map->l_name[0])
    return map->l_name;
  return llvm::sys::fs::getMainExecutable(nullptr, &anchor);
}

bool hasRuntimeHeader(llvm::StringRef includeDir) {
  llvm::SmallString<256> header(includeDir);
  llvm::sys::path::append(header, "tilec", "runtime.h");
  return llvm::sys::fs::exists(header);
}

} // namespace

std::string tilec::installPrefix() {
  std::string binary = thisBinary();
  if (binary.empty()) return "";
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(binary, real)) real = binary;
  llvm::StringRef dir = llvm::sys::path::parent_path(real);
  // <prefix>/bin/tilec, or <prefix>/<libdir>/libtilec.so (libdir may have several parts: lib/x86_64-linux-gnu).
  for (llvm::StringRef below : {llvm::StringRef("bin"), llvm::StringRef(TILEC_INSTALL_LIBDIR)}) {
    if (!dir.ends_with(below) || dir.size() <= below.size() || dir[dir.size() - below.size() - 1] != '/') continue;
    llvm::SmallString<256> prefix(dir.drop_back(below.size() + 1));
    llvm::SmallString<256> include(prefix);
    llvm::sys::path::append(include, TILEC_INSTALL_INCLUDEDIR);
    if (hasRuntimeHeader(include)) return std::string(prefix);
  }
  return "";
}

std::string tilec::runtimeIncludeDir() {
  std::string prefix = installPrefix();
  if (!prefix.empty()) {
    llvm::SmallString<256> include(prefix);
    llvm::sys::path::append(include, TILEC_INSTALL_INCLUDEDIR);
    return std::string(include);
  }
  if (hasRuntimeHeader(TILEC_RUNTIME_INCLUDE_DIR)) return TILEC_RUNTIME_INCLUDE_DIR;
  llvm::SmallString<256> configured(TILEC_INSTALL_PREFIX);
  llvm::sys::path::append(configured, TILEC_INSTALL_INCLUDEDIR);
  if (hasRuntimeHeader(configured)) return std::string(configured);
  return TILEC_RUNTIME_INCLUDE_DIR;
}

std::string tilec::installedLibraryFile(const std::string &relative) {
  std::string prefix = installPrefix();
  if (prefix.empty()) return "";
  llvm::SmallString<256> path(prefix);
  llvm::sys::path::append(path, TILEC_INSTALL_LIBDIR, relative);
  return std::string(path);
}
