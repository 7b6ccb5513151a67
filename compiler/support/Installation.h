//===- Installation.h - Where tilec's own files are --------------------------===//
//
// tilec's code runs from three places: the build tree, an installed prefix (<prefix>/bin/tilec,
// <prefix>/lib/libtilec.so) and someone else's program that links libtilec. Files that belong to tilec (the runtime
// headers, the Clang plugin) are found relative to the binary that holds this code, whichever it is, with the paths
// of the build tree as the fallback.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_INSTALLATION_H
#define TILEC_INSTALLATION_H

#include <string>

namespace tilec {

/// The installation prefix of the binary that holds this code: <prefix> when that binary is <prefix>/bin/tilec or
/// <prefix>/<libdir>/libtilec.so and <prefix>/<includedir>/tilec/runtime.h exists; empty otherwise (the build tree,
/// or a program that links libtilec.a).
std::string installPrefix();

/// The directory that holds tilec/runtime.h: <prefix>/<includedir> of an installed tilec or libtilec, else the
/// source tree's runtime/include it was built from, else the configured install prefix's (a program that links an
/// installed libtilec.a).
std::string runtimeIncludeDir();

/// Where `relative` (a path under the library directory, e.g. "tilec/tilec-clang.so") lies in the installation
/// that holds this code; empty when this code is not installed.
std::string installedLibraryFile(const std::string &relative);

} // namespace tilec

#endif
