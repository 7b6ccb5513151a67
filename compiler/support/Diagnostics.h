//===- Diagnostics.h - One engine for every message tilec prints -----------===//
//
// Every user-facing message (syntax errors, Sema errors, layout errors, warnings) goes through DiagnosticEngine, which
// prints it in the `file:line:col: error: ...` form with the source line and a caret (llvm::SourceMgr does the
// rendering), counts it, and applies -Werror. Nothing else in the compiler writes to stderr. Like clang, it stops after
// an error limit (-ferror-limit=N, 20 by default, 0 for none): the next error becomes "too many errors emitted,
// stopping now" and every later message is dropped; stages that can stop early ask limitReached(). A source line
// longer than kLongLine bytes is shown as a window around the caret, so output stays linear in the input's size.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIAGNOSTICS_H
#define TILEC_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include <string>
#include <vector>

namespace tilec {

/// A printed diagnostic as data: what the library hands its callers.
struct RecordedDiagnostic {
  llvm::SourceMgr::DiagKind kind;
  std::string file;   ///< empty when it has no location
  unsigned line = 0, column = 0;
  std::string message, sourceLine;
  /// The column just past what is underlined on the line (1-based; the caret alone underlines one column, so
  /// column + 1), as the printed caret line shows it: a range that goes on to later lines is cut at this line's end.
  unsigned endColumn = 0;
};

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
  /// Errors that are not warnings promoted by -Werror.
  unsigned hardErrorCount() const { return errors - promotedWarnings; }
  /// Whether the error limit has been reached: nothing more will be printed, so the caller may stop.
  bool limitReached() const { return stopped; }
  unsigned warningCount() const { return warnings; }
  bool hasErrors() const { return errors != 0; }

  bool warningsAsErrors = false;
  /// The number of errors printed before stopping; 0 prints them all.
  unsigned errorLimit = 20;
  /// Lines longer than this are shown as a window of about kWindow bytes around the caret.
  static constexpr size_t kLongLine = 160, kWindow = 120;
  /// Messages longer than this are cut (a message may quote source text).
  static constexpr size_t kLongMessage = 1000;
  /// When set, each printed diagnostic is also appended here.
  std::vector<RecordedDiagnostic> *record = nullptr;
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }
  /// What replaces the first error past the limit.
  static std::string tooManyErrors(unsigned errorLimit);

private:
  void print(llvm::SMRange range, llvm::SourceMgr::DiagKind kind, const llvm::Twine &message);

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned errors = 0;
  unsigned warnings = 0;
  unsigned promotedWarnings = 0;
  bool stopped = false;
  bool lastDropped = false; ///< the previous error or warning was not printed, so its notes are not either
};

/// The source text of `range` on one line (runs of whitespace, newlines included, become one space), for messages
/// and for comments in emitted code.
std::string sourceText(llvm::SMRange range);

} // namespace tilec

#endif
