//===- Document.h - An open .tile file and what the compiler made of it ----===//
//
// The server keeps one Document per open file: its current text and version, the analysis of the current text
// (FileAnalysis.h, kernel by kernel with a cache of parts), the newest one that parsed, and per kernel the newest
// checked IR. While the user types, the text often does not parse or check; the outline, go to definition and hover
// then answer from the last version that did, as other language servers do, instead of going blank. Analysis is lazy:
// an edit only marks the document stale, and the server analyzes it when the client pauses or asks about it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LSP_DOCUMENT_H
#define TILEC_LSP_DOCUMENT_H

#include "FileAnalysis.h"
#include "Protocol.h"
#include "Symbols.h"
#include "driver/Driver.h"
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tilec::lsp {

/// One analyzed version of a document's text.
struct Snapshot {
  int64_t version = 0;
  std::string text;
  std::unique_ptr<LineTable> lines; ///< of `text`
  FileAnalysis file;
  std::unique_ptr<SymbolIndex> index; ///< when the text parsed
};

/// A kernel's checked IR and the version of the text it comes from.
struct CheckedKernel {
  std::shared_ptr<const Part> part; ///< owns the module
  const ir::Module *module = nullptr;
  int64_t version = 0;
};

class Document {
public:
  Document(std::string uri, std::string text, int64_t version);

  const std::string &uri() const { return uri_; }
  const std::string &text() const { return text_; }
  int64_t version() const { return version_; }
  /// The name diagnostics and the report use: the path of a file: URI, else the URI itself.
  const std::string &fileName() const { return fileName_; }

  /// Replaces the whole text (full synchronization).
  void setText(std::string text, int64_t version);
  void setVersion(int64_t version) { version_ = version; }
  /// Replaces [start, end) of the current text (an incremental change).
  void edit(Position start, Position end, llvm::StringRef newText, Encoding encoding);
  bool stale() const { return stale_; }
  /// Parses and checks the current text (when stale).
  void analyze(const CompileOptions &options);

  /// The analysis of the current text (null before the first analyze()).
  const Snapshot *latest() const { return latest_.get(); }
  /// The newest analysis whose text parsed (may be older than the text).
  const Snapshot *parsed() const { return parsed_.get(); }
  /// The newest checked IR of kernel `name`: of the current text when the kernel checks there (kernel by kernel, an
  /// error in another kernel does not prevent it), else of the newest version where it did; null if none did.
  const CheckedKernel *checked(llvm::StringRef name) const;

private:
  std::string uri_, fileName_, text_;
  int64_t version_ = 0;
  bool stale_ = true;
  std::shared_ptr<Snapshot> latest_, parsed_;
  PartCache cache;
  std::map<std::string, CheckedKernel, std::less<>> checkedKernels;
};

/// The file path a `file://` URI names (percent-escapes decoded), or std::nullopt for another scheme.
std::optional<std::string> pathOfURI(llvm::StringRef uri);

} // namespace tilec::lsp

#endif
