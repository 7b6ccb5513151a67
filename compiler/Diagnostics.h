//===- Diagnostics.h - One engine for every message tilec prints -----------===//
//
// Every user-facing message (syntax errors, Sema errors, layout errors, warnings) goes through DiagnosticEngine, which
// prints it in the `file:line:col: error: ...` form with the source line and a caret (llvm::SourceMgr does the
// rendering), counts it, and applies -Werror. Nothing else in the compiler writes to stderr.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIAGNOSTICS_H
#define TILEC_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace tilec {

/// Collects and prints diagnostics against the buffers of one SourceMgr.
class DiagnosticEngine {
public:
  DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os) : sourceMgr(sourceMgr), os(os) {}

  /// An error at `range.Start`, with the range underlined.
  void error(llvm::SMRange range, const llvm::Twine &message);
  /// A warning; an error when warningsAsErrors is set.
  void warning(llvm::SMRange range, const llvm::Twine &message);
  /// A note attached to the previous error or warning.
  void note(llvm::SMRange range, const llvm::Twine &message);
  /// An error that has no location in the input (e.g. an unreadable file).
  void errorNoLoc(const llvm::Twine &message);

  unsigned errorCount() const { return errors; }
  unsigned warningCount() const { return warnings; }
  bool hasErrors() const { return errors != 0; }

  bool warningsAsErrors = false;
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

private:
  void print(llvm::SMRange range, llvm::SourceMgr::DiagKind kind, const llvm::Twine &message);

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned errors = 0;
  unsigned warnings = 0;
};

/// The source text of `range` on one line (runs of whitespace, newlines included, become one space), for messages
/// and for comments in emitted code.
std::string sourceText(llvm::SMRange range);

} // namespace tilec

#endif
