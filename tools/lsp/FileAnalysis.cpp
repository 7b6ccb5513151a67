//===- FileAnalysis.cpp - Splitting a file into kernels and joining them -----===//
//
// The split is lexical (comments, braces, the word `kernel`), the join follows driver/Driver.cpp's pipeline: stage by
// stage, a stage's diagnostics taken only when every part ran it. The join applies the file's error limit as
// DiagnosticEngine does: the first error past it becomes "too many errors emitted", and nothing after it is shown.
// Each part stops at the same limit, which changes nothing: no part's errors past it can come before the join's.
//
//===----------------------------------------------------------------------===//
#include "FileAnalysis.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <atomic>
#include <thread>

using namespace tilec;
using namespace tilec::lsp;

namespace {

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::shared_ptr<Part> analyzePart(std::string text, size_t prefixBytes, const std::string &fileName,
                                  const CompileOptions &options) {
  auto part = std::make_shared<Part>();
  part->text = std::move(text);
  part->prefixBytes = prefixBytes;
  part->prefixLines = static_cast<unsigned>(llvm::StringRef(part->text).take_front(prefixBytes).count('\n'));
  part->analysis = analyzeBuffer(llvm::MemoryBuffer::getMemBufferCopy(part->text, fileName), options);
  return part;
}

/// The diagnostics a DiagnosticEngine with `limit` would have recorded, given those recorded without a limit.
std::vector<RecordedDiagnostic> applyErrorLimit(std::vector<RecordedDiagnostic> all, unsigned limit) {
  if (limit == 0) return all;
  std::vector<RecordedDiagnostic> out;
  unsigned errors = 0;
  bool stopped = false, lastDropped = false;
  for (RecordedDiagnostic &d : all) {
    if (d.kind == llvm::SourceMgr::DK_Note) {
      if (!lastDropped) out.push_back(std::move(d));
      continue;
    }
    lastDropped = stopped;
    if (stopped) continue;
    if (d.kind == llvm::SourceMgr::DK_Error && ++errors > limit) {
      stopped = lastDropped = true;
      d.message = DiagnosticEngine::tooManyErrors(limit);
    }
    out.push_back(std::move(d));
  }
  return out;
}

} // namespace

std::vector<KernelStart> tilec::lsp::findKernels(llvm::StringRef text) {
  std::vector<KernelStart> kernels;
  size_t depth = 0, lineStart = 0;
  bool blankSoFar = true; // only blanks since the start of the line
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '\n') {
      lineStart = ++i;
      blankSoFar = true;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (text.substr(i).starts_with("//")) {
      size_t end = text.find('\n', i);
      i = end == llvm::StringRef::npos ? text.size() : end;
    } else if (text.substr(i).starts_with("/*")) {
      size_t end = text.find("*/", i + 2);
      if (end == llvm::StringRef::npos) break; // the rest is a comment (and an error)
      // A comment over several lines ends on a line that cannot start a part (it would cut the comment).
      if (text.slice(i, end).contains('\n')) blankSoFar = false;
      i = end + 2;
    } else if (isNameChar(c)) {
      size_t end = i;
      while (end < text.size() && isNameChar(text[end])) ++end;
      if (depth == 0 && blankSoFar && isNameStart(c) && text.slice(i, end) == "kernel") {
        size_t name = end;
        while (name < text.size() && (text[name] == ' ' || text[name] == '\t')) ++name;
        size_t nameEnd = name;
        while (nameEnd < text.size() && isNameChar(text[nameEnd])) ++nameEnd;
        kernels.push_back({lineStart, text.slice(name, nameEnd).str()});
      }
      blankSoFar = false;
      i = end;
    } else {
      if (c == '{') ++depth;
      else if (c == '}' && depth > 0) --depth;
      blankSoFar = false;
      ++i;
    }
  }
  return kernels;
}

std::shared_ptr<const Part> PartCache::get(const std::string &prefix, llvm::StringRef kernel,
                                           const std::string &fileName, const CompileOptions &options) {
  std::string text = prefix + kernel.str();
  auto it = parts.find(text);
  std::shared_ptr<const Part> part =
      it != parts.end() ? it->second : analyzePart(text, prefix.size(), fileName, options);
  parts[text] = part;
  used[text] = part;
  return part;
}

void PartCache::prepare(const std::string &prefix, llvm::ArrayRef<llvm::StringRef> kernels,
                        const std::string &fileName, const CompileOptions &options) {
  std::vector<std::string> missing;
  for (llvm::StringRef k : kernels) {
    std::string text = prefix + k.str();
    if (!parts.count(text)) missing.push_back(std::move(text));
  }
  if (missing.size() < 2) return; // get() analyzes it
  // Compilations share no mutable state (include/tilec/tilec.h), so parts are analyzed on threads of their own.
  std::vector<std::shared_ptr<Part>> done(missing.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < missing.size();) done[i] = analyzePart(missing[i], prefix.size(), fileName, options);
  };
  std::vector<std::thread> threads;
  unsigned cores = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), missing.size()));
  for (unsigned t = 1; t < cores; ++t) threads.emplace_back(work);
  work();
  for (std::thread &t : threads) t.join();
  for (size_t i = 0; i < missing.size(); ++i) parts[missing[i]] = std::move(done[i]);
}

void PartCache::sweep() {
  // The parts of this version and of the one before it stay: undoing an edit finds its parts.
  std::map<std::string, std::shared_ptr<const Part>> kept = used;
  kept.insert(previous.begin(), previous.end());
  previous = std::move(used);
  used.clear();
  parts = std::move(kept);
}

FileAnalysis tilec::lsp::analyzeWhole(llvm::StringRef text, const std::string &fileName,
                                      const CompileOptions &options) {
  FileAnalysis f;
  f.wholeFile = true;
  std::shared_ptr<Part> part = analyzePart(text.str(), 0, fileName, options);
  f.parsed = part->analysis->program.has_value();
  f.diagnostics = part->analysis->diagnostics;
  f.parts.push_back({std::move(part), 0, 0});
  return f;
}

FileAnalysis tilec::lsp::analyzeFile(llvm::StringRef text, const std::string &fileName,
                                     const CompileOptions &options, PartCache &cache) {
  std::vector<KernelStart> kernels = findKernels(text);
  llvm::StringSet<> names;
  bool distinct = true;
  for (const KernelStart &k : kernels) distinct &= names.insert(k.name).second;
  if (kernels.empty() || !distinct || options.warningsAsErrors) return analyzeWhole(text, fileName, options);

  std::string prefix = text.take_front(kernels[0].offset).str();
  std::vector<llvm::StringRef> texts;
  for (size_t i = 0; i < kernels.size(); ++i)
    texts.push_back(text.slice(kernels[i].offset, i + 1 < kernels.size() ? kernels[i + 1].offset : text.size()));
  cache.prepare(prefix, texts, fileName, options);
  FileAnalysis f;
  unsigned line = static_cast<unsigned>(llvm::StringRef(prefix).count('\n'));
  for (size_t i = 0; i < kernels.size(); ++i) {
    size_t begin = kernels[i].offset;
    llvm::StringRef kernel = texts[i];
    std::shared_ptr<const Part> part = cache.get(prefix, kernel, fileName, options);
    // A syntax error: the parser's recovery may cross kernels, so only the whole file says what it reports.
    if (!part->analysis->program) return analyzeWhole(text, fileName, options);
    f.parts.push_back({part, begin, line});
    line += static_cast<unsigned>(kernel.count('\n'));
  }
  f.parsed = true;

  // The join: each stage runs when every part passed the ones before it (see Driver.cpp's buildCheckedModule).
  std::vector<RecordedDiagnostic> joined;
  for (unsigned stage = 0; stage < kCheckStages; ++stage) {
    bool ran = std::all_of(f.parts.begin(), f.parts.end(),
                           [&](const PlacedPart &p) { return p.part->analysis->stageEnds.size() > stage; });
    if (!ran) break;
    for (size_t i = 0; i < f.parts.size(); ++i) {
      const Part &p = *f.parts[i].part;
      const std::vector<size_t> &ends = p.analysis->stageEnds;
      for (size_t d = stage ? ends[stage - 1] : 0; d < ends[stage]; ++d) {
        RecordedDiagnostic r = p.analysis->diagnostics[d];
        if (r.line && r.line <= p.prefixLines) {
          if (i != 0) continue; // the prefix's diagnostics, once
        } else if (r.line) {
          r.line = r.line - p.prefixLines + f.parts[i].line;
        }
        joined.push_back(std::move(r));
      }
    }
  }
  f.diagnostics = applyErrorLimit(std::move(joined), options.errorLimit);
  return f;
}

unsigned tilec::lsp::compareWithWholeFile(llvm::ArrayRef<std::string> files, const CompileOptions &options,
                                          llvm::raw_ostream &os) {
  auto print = [&](const char *title, const std::vector<RecordedDiagnostic> &list) {
    static const char *const kinds[] = {"error", "warning", "remark", "note"};
    os << "  " << title << ":\n";
    for (const RecordedDiagnostic &d : list)
      os << "    " << d.line << ":" << d.column << "-" << d.endColumn << ": " << kinds[d.kind] << ": " << d.message
         << "\n";
  };
  unsigned differing = 0, split = 0;
  for (const std::string &path : files) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!file) {
      os << path << ": cannot read: " << file.getError().message() << "\n";
      ++differing;
      continue;
    }
    llvm::StringRef text = (*file)->getBuffer();
    PartCache cache;
    FileAnalysis parts = analyzeFile(text, path, options, cache);
    FileAnalysis whole = analyzeWhole(text, path, options);
    split += !parts.wholeFile;
    auto same = [](const RecordedDiagnostic &a, const RecordedDiagnostic &b) {
      return a.kind == b.kind && a.file == b.file && a.line == b.line && a.column == b.column &&
             a.endColumn == b.endColumn && a.message == b.message && a.sourceLine == b.sourceLine;
    };
    if (std::equal(parts.diagnostics.begin(), parts.diagnostics.end(), whole.diagnostics.begin(),
                   whole.diagnostics.end(), same))
      continue;
    ++differing;
    os << path << ": the diagnostics of its " << parts.parts.size() << " parts differ from the whole file's\n";
    print("parts", parts.diagnostics);
    print("whole", whole.diagnostics);
  }
  os << files.size() << " files, " << split << " analyzed kernel by kernel, " << differing
     << " with different diagnostics\n";
  return differing;
}
