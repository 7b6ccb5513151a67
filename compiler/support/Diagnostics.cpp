//===- Diagnostics.cpp - Printing and counting diagnostics -----------------===//
#include "support/Diagnostics.h"

using namespace tilec;

namespace {

bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

/// The part of a long source line that is shown: about DiagnosticEngine::kWindow bytes with the caret a third of the
/// way in, on UTF-8 character boundaries, with "..." where the line goes on.
struct LineWindow {
  size_t begin, end;
  std::string text;
  unsigned shift; ///< columns the leading "..." adds
};

LineWindow windowAround(llvm::StringRef line, size_t column) {
  constexpr size_t window = DiagnosticEngine::kWindow, before = window / 3;
  size_t begin = column > before ? column - before : 0;
  while (begin > 0 && isContinuationByte(line[begin])) --begin;
  size_t end = std::min(line.size(), begin + window);
  while (end < line.size() && isContinuationByte(line[end])) ++end;
  LineWindow w{begin, end, "", 0};
  if (begin > 0) {
    w.text = "...";
    w.shift = 3;
  }
  w.text += line.slice(begin, end).str();
  if (end < line.size()) w.text += "...";
  return w;
}

} // namespace

void DiagnosticEngine::print(llvm::SMRange range, llvm::SourceMgr::DiagKind kind, const llvm::Twine &message) {
  std::string text = message.str();
  if (text.size() > kLongMessage) {
    size_t cut = kLongMessage;
    while (cut > 0 && isContinuationByte(text[cut])) --cut;
    text = text.substr(0, cut) + "...";
  }
  if (!range.Start.isValid()) { // a message about no place in the input (a note quoting another tool, say)
    static const char *const labels[] = {"error", "warning", "remark", "note"};
    if (record) record->push_back({kind, "", 0, 0, text, "", 0});
    os << labels[kind] << ": " << text << "\n";
    return;
  }
  llvm::SmallVector<llvm::SMRange, 1> ranges;
  // Underline the whole range only when it stays on the caret's line; SourceMgr draws one line.
  if (range.isValid() && range.Start != range.End) ranges.push_back(range);
  llvm::SMDiagnostic diag = sourceMgr.GetMessage(range.Start, kind, text, ranges, {});
  llvm::StringRef line = diag.getLineContents();
  bool windowed = diag.getColumnNo() >= 0 && line.size() > kLongLine;
  size_t column = std::max(diag.getColumnNo(), 0);
  LineWindow w = windowed ? windowAround(line, column) : LineWindow{0, line.size(), line.str(), 0};
  if (record) {
    unsigned end = column + 1; // 0-based, past the caret
    for (auto [from, to] : diag.getRanges()) end = std::max<unsigned>(end, to);
    record->push_back({kind, diag.getFilename().str(), static_cast<unsigned>(std::max(diag.getLineNo(), 0)),
                       static_cast<unsigned>(diag.getColumnNo() + 1), text, w.text, end + 1});
  }
  if (!windowed) {
    diag.print(nullptr, os, /*ShowColors=*/false);
    return;
  }
  // The location keeps the real column; the line and caret below it show only a window of the line.
  std::vector<std::pair<unsigned, unsigned>> shownRanges;
  for (auto [from, to] : diag.getRanges()) {
    size_t b = std::max<size_t>(from, w.begin), e = std::min<size_t>(to, w.end);
    if (b < e) shownRanges.emplace_back(b - w.begin + w.shift, e - w.begin + w.shift);
  }
  llvm::SMDiagnostic shown(sourceMgr, diag.getLoc(), diag.getFilename(), diag.getLineNo(),
                           static_cast<int>(column - w.begin + w.shift), kind, diag.getMessage(), w.text, shownRanges);
  os << (diag.getFilename() == "-" ? llvm::StringRef("<stdin>") : diag.getFilename()) << ':' << diag.getLineNo()
     << ':' << column + 1 << ": ";
  shown.print(nullptr, os, /*ShowColors=*/false, /*ShowKindLabel=*/true, /*ShowLocation=*/false);
}

void DiagnosticEngine::error(llvm::SMRange range, const llvm::Twine &message) {
  ++errors;
  lastDropped = stopped;
  if (stopped) return;
  if (errorLimit != 0 && errors > errorLimit) {
    // Like clang: the error past the limit is replaced by one that says why the output ends here.
    stopped = lastDropped = true;
    print(range, llvm::SourceMgr::DK_Error, tooManyErrors(errorLimit));
    return;
  }
  print(range, llvm::SourceMgr::DK_Error, message);
}

std::string DiagnosticEngine::tooManyErrors(unsigned errorLimit) {
  return ("too many errors emitted, stopping now (-ferror-limit=" + llvm::Twine(errorLimit) +
          "; -ferror-limit=0 shows every error)")
      .str();
}

void DiagnosticEngine::warning(llvm::SMRange range, const llvm::Twine &message) {
  if (warningsAsErrors) {
    ++promotedWarnings;
    error(range, message + " [-Werror]");
    return;
  }
  ++warnings;
  lastDropped = stopped;
  if (stopped) return;
  print(range, llvm::SourceMgr::DK_Warning, message);
}

void DiagnosticEngine::note(llvm::SMRange range, const llvm::Twine &message) {
  if (lastDropped) return;
  print(range, llvm::SourceMgr::DK_Note, message);
}

void DiagnosticEngine::errorNoLoc(const llvm::Twine &message) {
  ++errors;
  if (stopped) return;
  if (record) record->push_back({llvm::SourceMgr::DK_Error, "", 0, 0, message.str(), "", 0});
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
