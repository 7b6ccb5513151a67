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

std::string tilec::sourceText(llvm::SMRange range) {
  if (!range.isValid()) return "";
  llvm::StringRef text(range.Start.getPointer(), range.End.getPointer() - range.Start.getPointer());
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}
