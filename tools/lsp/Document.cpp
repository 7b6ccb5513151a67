//===- Document.cpp - Text changes and analysis of one open file -----------===//
//
// The text handed to the compiler is a copy (the SourceMgr owns it), so a snapshot stays valid while the document
// changes; its line table and symbol index point into that copy.
//
//===----------------------------------------------------------------------===//
#include "Document.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tilec;
using namespace tilec::lsp;

std::optional<std::string> tilec::lsp::pathOfURI(llvm::StringRef uri) {
  if (!uri.consume_front_insensitive("file://")) return std::nullopt;
  // file://host/path: a host other than localhost cannot be opened here, but its path still names the file.
  if (!uri.starts_with("/")) {
    size_t slash = uri.find('/');
    uri = slash == llvm::StringRef::npos ? llvm::StringRef() : uri.substr(slash);
  }
  std::string path;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && llvm::isHexDigit(uri[i + 1]) && llvm::isHexDigit(uri[i + 2])) {
      path += static_cast<char>(llvm::hexDigitValue(uri[i + 1]) * 16 + llvm::hexDigitValue(uri[i + 2]));
      i += 2;
    } else {
      path += uri[i];
    }
  }
  return path;
}

Document::Document(std::string uri, std::string text, int64_t version)
    : uri_(std::move(uri)), text_(std::move(text)), version_(version) {
  fileName_ = pathOfURI(uri_).value_or(uri_);
}

void Document::setText(std::string text, int64_t version) {
  text_ = std::move(text);
  version_ = version;
  stale_ = true;
}

void Document::edit(Position start, Position end, llvm::StringRef newText, Encoding encoding) {
  LineTable lines(text_);
  size_t from = lines.offset(start, encoding), to = lines.offset(end, encoding);
  if (to < from) std::swap(from, to);
  text_.replace(from, to - from, newText.data(), newText.size());
  stale_ = true;
}

void Document::analyze(const CompileOptions &options) {
  if (!stale_ && latest_) return;
  auto s = std::make_shared<Snapshot>();
  s->version = version_;
  s->text = text_;
  s->lines = std::make_unique<LineTable>(s->text);
  s->file = analyzeFile(s->text, fileName_, options, cache);
  // Parts of older texts go once the text parses again; while it does not, they are what the next version reuses.
  if (s->file.parsed) cache.sweep();
  if (s->file.parsed) {
    s->index = std::make_unique<SymbolIndex>();
    for (const PlacedPart &p : s->file.parts) {
      const Analysis &a = *p.part->analysis;
      s->index->add(*a.program, a.sourceMgr.getMemoryBuffer(a.buffer)->getBuffer(), p.part->prefixBytes, p.begin);
    }
    s->index->finish();
    parsed_ = s;
  }
  for (const PlacedPart &p : s->file.parts)
    if (const ir::Module *m = p.part->analysis->module.get())
      for (const auto &k : m->kernels) checkedKernels[k->name] = CheckedKernel{p.part, m, version_};
  // A kernel no longer in the text (renamed, deleted) lets its IR go.
  if (s->index)
    for (auto it = checkedKernels.begin(); it != checkedKernels.end();) {
      bool named = llvm::any_of(s->index->declarations(), [&](const Declaration &d) {
        return d.kind == Declaration::Kind::Kernel && d.name == it->first;
      });
      it = named ? std::next(it) : checkedKernels.erase(it);
    }
  latest_ = s;
  stale_ = false;
}

const CheckedKernel *Document::checked(llvm::StringRef name) const {
  auto it = checkedKernels.find(name);
  return it == checkedKernels.end() ? nullptr : &it->second;
}
