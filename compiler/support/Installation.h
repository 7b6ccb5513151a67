//===- Installation.h - Where tilec's own files are --------------------------===//
#ifndef TILEC_INSTALLATION_H
#define TILEC_INSTALLATION_H

#include <string>

namespace tilec {

/// The directory that holds tilec/runtime.h: <prefix>/include beside an installed tilec (<prefix>/bin/tilec), else
/// the source tree's runtime/include it was built from.
std::string runtimeIncludeDir();

} // namespace tilec

#endif
