//===- Features.cpp - Hover, definition, symbols, code lenses, the report ---===//
//
// The requests about a document's names and kernels. Names come from the newest version of the text that parsed
// (Symbols.h), distributions and costs from the newest version without errors (Hover.h); while the current text has
// errors an answer from an older version says so. Positions in the client's text are looked up in that version's
// text by line and column, which matches wherever the lines above did not change.
//
//===----------------------------------------------------------------------===//
#include "Hover.h"
#include "Server.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace tilec;
using namespace tilec::lsp;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

std::string utf8(std::string s) { return llvm::json::isUTF8(s) ? s : llvm::json::fixUTF8(s); }

int symbolKind(Declaration::Kind kind) {
  switch (kind) {
  case Declaration::Kind::Kernel: return SymbolFunction;
  case Declaration::Kind::Tile: return SymbolObject;
  case Declaration::Kind::Lds: return SymbolArray;
  case Declaration::Kind::Acc: return SymbolStruct;
  case Declaration::Kind::Dimension: return SymbolConstant;
  case Declaration::Kind::Tensor:
  case Declaration::Kind::Scalar:
  case Declaration::Kind::LoopVar: return SymbolVariable;
  }
  return SymbolVariable;
}

/// The use of a name at `at`, looked up in the newest text that parsed.
const Reference *referenceAt(const Snapshot *parsed, Position at, Encoding encoding) {
  return parsed ? parsed->index->at(parsed->lines->offset(at, encoding)) : nullptr;
}

/// A note for answers from an older version than the client's text.
std::string olderVersion(const Document &d, const CheckedKernel *used) {
  if (!used || used->version == d.latest()->version) return "";
  return llvm::formatv("(from version {0}, the newest where this kernel checked; it has errors now)\n", used->version);
}

/// The report of kernel `name` (all kernels when empty) from the newest IR of each; an error when one has none.
std::string reportOf(const Document &d, llvm::StringRef name, std::optional<Error> &error) {
  std::vector<std::string> kernels;
  if (!name.empty()) kernels.push_back(name.str());
  else if (const Snapshot *parsed = d.parsed())
    for (const Declaration &k : parsed->index->declarations())
      if (k.kind == Declaration::Kind::Kernel) kernels.push_back(k.name);
  std::string heading, sections;
  for (const std::string &k : kernels) {
    const CheckedKernel *c = d.checked(k);
    std::string report = c ? kernelReport(*c->module, llvm::sys::path::filename(d.fileName()), k) : "";
    if (report.empty()) {
      error = Error{RequestFailed, "no report of kernel '" + k + "': no version of it compiled without errors"};
      return "";
    }
    size_t eol = report.find('\n');
    if (heading.empty()) heading = report.substr(0, eol + 1);
    sections += olderVersion(d, c) + report.substr(eol + 1);
  }
  if (kernels.empty()) error = Error{RequestFailed, "no report: the file defines no kernel"};
  return heading + sections;
}

} // namespace

Value Server::range(const Snapshot &s, size_t begin, size_t end) const {
  return rangeJSON(s.lines->position(begin, encoding), s.lines->position(end, encoding));
}

Server::Located Server::locate(const Object *params, std::optional<Error> &error) {
  std::optional<Position> at = getPosition(params, error);
  Document *d = at ? analyzed(params, error) : nullptr;
  const Snapshot *parsed = d ? d->parsed() : nullptr;
  return {d, parsed, referenceAt(parsed, at.value_or(Position{}), encoding)};
}

Value Server::hover(const Object *params, std::optional<Error> &error) {
  auto [d, parsed, ref] = locate(params, error);
  if (!ref) return nullptr;
  const Declaration &decl = parsed->index->declaration(*ref);
  const CheckedKernel *checked = d->checked(parsed->index->declarations()[decl.kernel].name);
  std::string text = describe(decl, *parsed->index, checked ? checked->module : nullptr);
  bool modelled = decl.kind == Declaration::Kind::Kernel || decl.kind == Declaration::Kind::Tile ||
                  decl.kind == Declaration::Kind::Lds || decl.kind == Declaration::Kind::Acc;
  if (modelled) text += olderVersion(*d, checked);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  std::string value = markdown ? "```text\n" + text + "\n```" : text;
  return Object{{"contents", Object{{"kind", markdown ? "markdown" : "plaintext"}, {"value", utf8(std::move(value))}}},
                {"range", range(*parsed, ref->span.begin, ref->span.end)}};
}

Value Server::definition(const Object *params, std::optional<Error> &error) {
  auto [d, parsed, ref] = locate(params, error);
  if (!ref) return nullptr;
  const Declaration &decl = parsed->index->declaration(*ref);
  return Object{{"uri", d->uri()}, {"range", range(*parsed, decl.nameSpan.begin, decl.nameSpan.end)}};
}

Value Server::documentSymbol(const Object *params, std::optional<Error> &error) {
  Document *d = analyzed(params, error);
  const Snapshot *parsed = d ? d->parsed() : nullptr;
  if (!parsed) return Array{};
  const std::vector<Declaration> &decls = parsed->index->declarations();
  if (!hierarchicalSymbols) {
    // SymbolInformation[]: flat, each with the name of what holds it.
    Array flat;
    for (const Declaration &x : decls) {
      Object s{{"name", x.name},
               {"kind", symbolKind(x.kind)},
               {"location", Object{{"uri", d->uri()}, {"range", range(*parsed, x.whole.begin, x.whole.end)}}}};
      if (x.parent >= 0) s["containerName"] = decls[x.parent].name;
      flat.push_back(std::move(s));
    }
    return flat;
  }
  // DocumentSymbol[]: children after their parents in `decls`, so one pass from the end builds every subtree.
  std::vector<Array> children(decls.size());
  std::vector<Object> symbols(decls.size());
  for (size_t i = decls.size(); i-- > 0;) {
    const Declaration &x = decls[i];
    symbols[i] = Object{{"name", x.name},
                        {"detail", utf8(x.detail)},
                        {"kind", symbolKind(x.kind)},
                        {"range", range(*parsed, x.whole.begin, x.whole.end)},
                        {"selectionRange", range(*parsed, x.nameSpan.begin, x.nameSpan.end)}};
    // Children were pushed last-first.
    std::reverse(children[i].begin(), children[i].end());
    symbols[i]["children"] = std::move(children[i]);
    if (x.parent >= 0) children[x.parent].push_back(std::move(symbols[i]));
  }
  Array top;
  for (size_t i = 0; i < decls.size(); ++i)
    if (decls[i].parent < 0) top.push_back(std::move(symbols[i]));
  return top;
}

Value Server::codeLens(const Object *params, std::optional<Error> &error) {
  Document *d = analyzed(params, error);
  const Snapshot *parsed = d ? d->parsed() : nullptr;
  if (!parsed) return Array{};
  Array lenses;
  for (const Declaration &k : parsed->index->declarations()) {
    if (k.kind != Declaration::Kind::Kernel) continue;
    const CheckedKernel *checked = d->checked(k.name);
    std::string title = checked ? occupancySummary(*checked->module, k.name) : "";
    if (title.empty()) title = "report: none while the kernel has errors";
    else if (checked->version != d->latest()->version) title += " (before the current errors)";
    lenses.push_back(Object{{"range", range(*parsed, k.nameSpan.begin, k.nameSpan.end)},
                            {"command", Object{{"title", std::move(title)},
                                               {"command", "tilec.report"},
                                               {"arguments", Array{d->uri(), k.name}}}}});
  }
  return lenses;
}

Value Server::executeCommand(const Object *params, std::optional<Error> &error) {
  std::optional<std::string> command = getString(params, "command", error);
  if (!command) return nullptr;
  if (*command != "tilec.report") {
    error = Error{InvalidParams, "unknown command '" + *command + "'; the server has 'tilec.report'"};
    return nullptr;
  }
  // arguments: [uri] or [uri, kernel]
  const Array *args = params->getArray("arguments");
  std::optional<llvm::StringRef> uri = args && !args->empty() ? (*args)[0].getAsString() : std::nullopt;
  std::optional<llvm::StringRef> kernel = args && args->size() > 1 ? (*args)[1].getAsString() : std::nullopt;
  if (!uri || (args->size() > 1 && !kernel)) {
    error = Error{InvalidParams, "tilec.report takes [uri] or [uri, kernel name]"};
    return nullptr;
  }
  Object asDocument{{"textDocument", Object{{"uri", *uri}}}};
  Document *d = analyzed(&asDocument, error);
  if (!d) return nullptr;
  std::string report = reportOf(*d, kernel.value_or(""), error);
  if (error) return nullptr;
  // Shown in the client's log (VS Code: Output, the server's channel), where a code lens's result would be lost.
  notify("window/logMessage", Object{{"type", 3}, {"message", utf8(report)}});
  return utf8(std::move(report));
}
