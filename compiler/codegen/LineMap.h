//===- LineMap.h - Clang's messages about emitted HIP, at .tile lines -------===//
//
// When tilec compiles what it emitted (DeviceCompiler.h), a clang error or warning in the generated code is a tilec
// bug; the user should still see which statement of their .tile file produced the code. The emitter marks, in the
// copy it emits for in-process compilation, where each statement's code begins (a `// tilec-line N` comment);
// withLineDirectives turns every generated line after a mark into `#line N "file.tile"` + the line, so clang reports
// it at the statement's line; reportDeviceDiagnostics then reprints clang's messages through tilec's own diagnostics,
// at that line, with clang's text as the note.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LINEMAP_H
#define TILEC_LINEMAP_H

#include "llvm/ADT/StringRef.h"
#include "support/Diagnostics.h"
#include <string>

namespace tilec {

/// The marker the emitter writes on a line of its own before a statement's code, in the in-process copy.
constexpr llvm::StringLiteral kLineMarker = "// tilec-line ";

/// `hip` with each marker removed and every line after it preceded by `#line N "tileName"`; lines before the first
/// marker are left as they are.
std::string withLineDirectives(llvm::StringRef hip, llvm::StringRef tileName);

/// Reports each `tileName:LINE:COL: error|warning: ...` message of `clangText` as a tilec diagnostic at the first
/// non-blank character of that line of `buffer`, with clang's message as its note; returns how many it reported. Messages about
/// other files (the runtime header, say) are left to the caller.
unsigned reportDeviceDiagnostics(llvm::StringRef clangText, llvm::StringRef tileName, unsigned buffer,
                                 DiagnosticEngine &diags);

} // namespace tilec

#endif
