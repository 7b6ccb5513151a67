//===- FileAnalysis.h - A file analyzed kernel by kernel, as a whole file ---===//
//
// Checking a file costs a few milliseconds per kernel (parsing and above all the planning passes), so a file of
// hundreds of kernels takes seconds: too slow to redo on every keystroke. The server therefore analyzes a file in
// parts, each the file's prefix (what comes before its first kernel: the target and comments) followed by one kernel
// and the text after it up to the next, and keeps each part's analysis while its text is unchanged: an edit inside
// one kernel re-analyzes that kernel alone, wherever it moves in the file.
//
// The diagnostics are still exactly those of the whole file (driver/Driver.h's analyzeBuffer), because the kernels of a
// file are checked independently and the file-wide rules are applied when the parts are put together: each stage's
// diagnostics come kernel by kernel in file order, a stage runs only when every kernel passed the ones before it
// (Analysis::stageEnds), the prefix's diagnostics come once, and the error limit applies to the whole. Where parts
// would not reproduce the whole file, the file is analyzed whole instead: no kernel, a kernel name defined twice, a
// syntax error (the parser recovers across kernels), -Werror. `tilec lsp --compare-whole FILE...` checks the two
// against each other (test/Editors/lsp-parts.test runs it on every test and example).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LSP_FILEANALYSIS_H
#define TILEC_LSP_FILEANALYSIS_H

#include "driver/Driver.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tilec::lsp {

/// One analyzed part: the prefix and one kernel, or the whole file.
struct Part {
  std::string text;       ///< what was analyzed, the prefix first (the cache key)
  size_t prefixBytes = 0; ///< of `text`
  unsigned prefixLines = 0;
  std::unique_ptr<Analysis> analysis;
  /// The file offset of byte `offset` of this part's text when the part starts at file offset `begin`.
  size_t fileOffset(size_t offset, size_t begin) const {
    return offset < prefixBytes ? offset : offset - prefixBytes + begin;
  }
};

/// A part where it lies in the file.
struct PlacedPart {
  std::shared_ptr<const Part> part;
  size_t begin = 0;  ///< the file offset where the part's kernel text starts
  unsigned line = 0; ///< lines of the file before it
};

struct FileAnalysis {
  std::vector<PlacedPart> parts; ///< kernel by kernel, or one part with the whole file
  std::vector<RecordedDiagnostic> diagnostics; ///< as the whole file gets them, with the file's lines
  bool parsed = false;    ///< the file parsed: every part has a syntax tree
  bool wholeFile = false; ///< analyzed in one part
};

/// The parts analyzed for a document, by text, reused while their text is unchanged.
class PartCache {
public:
  std::shared_ptr<const Part> get(const std::string &prefix, llvm::StringRef kernel, const std::string &fileName,
                                  const CompileOptions &options);
  /// Analyzes the parts of `kernels` (after `prefix`) not in the cache yet, on every core at once: a file's first
  /// analysis takes the time of all its kernels, divided by the cores.
  void prepare(const std::string &prefix, llvm::ArrayRef<llvm::StringRef> kernels, const std::string &fileName,
               const CompileOptions &options);
  /// Forgets the parts used by neither this version of the text (since the last call) nor the one before.
  void sweep();

private:
  std::map<std::string, std::shared_ptr<const Part>> parts, used, previous;
};

/// Analyzes `text`, named `fileName`, reusing the parts in `cache`.
FileAnalysis analyzeFile(llvm::StringRef text, const std::string &fileName, const CompileOptions &options,
                         PartCache &cache);
/// The whole file at once, as one part.
FileAnalysis analyzeWhole(llvm::StringRef text, const std::string &fileName, const CompileOptions &options);

/// Where each kernel starts: the start of the line holding a `kernel` keyword outside braces and comments with only
/// blanks before it, and the kernel's name (empty when the keyword is not followed by one).
struct KernelStart {
  size_t offset;
  std::string name;
};
std::vector<KernelStart> findKernels(llvm::StringRef text);

/// For tests (`tilec lsp --compare-whole FILE...`): analyzes each file kernel by kernel and whole, and prints each
/// file whose diagnostics differ, with both lists. Returns the number of such files.
unsigned compareWithWholeFile(llvm::ArrayRef<std::string> files, const CompileOptions &options,
                              llvm::raw_ostream &os);

} // namespace tilec::lsp

#endif
