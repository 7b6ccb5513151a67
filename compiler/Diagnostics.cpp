//===- Diagnostics.cpp - Printing and counting diagnostics -----------------===//
#include "Diagnostics.h"

using namespace tilec;

void DiagnosticEngine::print(llvm::SMRange range, llvm::SourceMgr::DiagKind kind, const llvm::Twine &message) {
  llvm::SmallVector<llvm::SMRange, 1> ranges;
  // Underline the whole range only when it stays on the caret's line; SourceMgr draws one line.
  if (range.isValid() && range.Start != range.End) ranges.push_back(range);
  sourceMgr.PrintMessage(os, range.Start, kind, message, ranges, {}, /*ShowColors=*/false);
}

void DiagnosticEngine::error(llvm::SMRange range, const llvm::Twine &message) {
  ++errors;
  print(range, llvm::SourceMgr::DK_Error, message);
}

void DiagnosticEngine::warning(llvm::SMRange range, const llvm::Twine &message) {
  if (warningsAsErrors) {
    error(range, message + " [-Werror]");
    return;
  }
  ++warnings;
  print(range, llvm::SourceMgr::DK_Warning, message);
}

void DiagnosticEngine::note(llvm::SMRange range, const llvm::Twine &message) {
  print(range, llvm::SourceMgr::DK_Note, message);
}

void DiagnosticEngine::errorNoLoc(const llvm::Twine &message) {
  ++errors;
  os << "tilec: error: " << message << "\n";
}
