//===- tilec_fuzzer.cpp - libFuzzer target over tilec::compileBuffer --------===//
//
// Each input is a .tile file. Its last byte chooses -Werror (odd: on), so the fuzzer explores both; the text itself
// is compiled whole. The syntax tree is dumped first; when the input parses, it goes through the library entry point
// for each target (gfx942, gfx950): the HIP emitter first and, when that succeeds, one more output chosen by the
// input's bytes among the IR printer, the layout printer (text and JSON) and the report (text and JSON). One rather
// than all five keeps a GEMM input at 5 compilations instead of 13 (the LDS bank pad search makes each one slow under
// the sanitizers); mutations change the choice, so every output is reached. Sema and the resource model's budget
// checks run in each of these calls. Besides the sanitizers' findings (crash, leak,
// undefined behaviour) and libFuzzer's timeout, the target aborts when the driver breaks its contract:
//   - status 1 without an "error:" on the error stream, or status 0 with one, or a status other than 0 and 1;
//   - output written although the status is 1, or nothing written although it is 0;
//   - an internal error (the IR verifier caught something Sema accepted);
//   - a JSON output that does not parse;
//   - one output kind accepting an input that another rejects (the stages after Sema cannot fail);
//   - the language server (tools/lsp) analyzing a file of several kernels kernel by kernel into other diagnostics than
//     the whole file's (FileAnalysis.h). Its outline, hovers and reports are built for every name of every input
//     that parses, so they are fuzzed for crashes too.
//
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"
#include "lsp/FileAnalysis.h"
#include "lsp/Hover.h"
#include "lsp/Symbols.h"
#include "target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace {

struct Result {
  int status;
  std::string out, errs;
};

Result compile(llvm::StringRef text, const tilec::CompileOptions &options) {
  Result r;
  llvm::raw_string_ostream out(r.out), errs(r.errs);
  r.status = tilec::compileBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.tile"), options, out, errs);
  return r;
}

[[noreturn]] void fail(const char *what, const tilec::CompileOptions &options, const Result &r) {
  std::fprintf(stderr, "tilec_fuzzer: %s (emit %d, format %d, target %s, -Werror %d, status %d)\n--- errors:\n%s\n",
               what, int(options.emit), int(options.format),
               options.target ? options.target->name.str().c_str() : "file's", int(options.warningsAsErrors),
               r.status, r.errs.c_str());
  std::abort();
}

/// The message of a diagnostic's first line ("fuzz.tile:3:7: error: ...", "tilec: error: ..."), or "" when `line`
/// is not one.
llvm::StringRef diagnosticMessage(llvm::StringRef line) {
  if (!line.consume_front("fuzz.tile:") && !line.consume_front("tilec:")) return "";
  llvm::StringRef rest = line.ltrim(" ");
  unsigned lineNo, column;
  if (!rest.consumeInteger(10, lineNo) && rest.consume_front(":") && !rest.consumeInteger(10, column) &&
      rest.consume_front(":"))
    line = rest;
  return line.ltrim(" ");
}

std::string withoutSpace(llvm::StringRef s) {
  std::string out;
  for (char c : s)
    if (!llvm::isSpace(c)) out += c;
  return out;
}

/// The diagnostics' first lines: each line of `errs` that looks like one and is not an echo of a source line (an
/// input that contains text such as "fuzz.tile:1:1: error:" is echoed under its diagnostics).
std::vector<llvm::StringRef> diagnosticLines(llvm::StringRef text, llvm::StringRef errs) {
  std::set<std::string> sourceLines;
  llvm::SmallVector<llvm::StringRef, 64> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    sourceLines.insert(withoutSpace(line));
    llvm::SmallVector<llvm::StringRef, 4> parts;
    line.split(parts, '\r');
    for (llvm::StringRef part : parts) sourceLines.insert(withoutSpace(part));
  }
  std::vector<llvm::StringRef> result;
  lines.clear();
  errs.split(lines, '\n');
  for (llvm::StringRef line : lines)
    if (!diagnosticMessage(line).empty() && !sourceLines.count(withoutSpace(line))) result.push_back(line);
  return result;
}

/// Compiles and checks the driver's contract; returns the status.
int check(llvm::StringRef text, const tilec::CompileOptions &options) {
  Result r = compile(text, options);
  bool hasError = false, internal = false;
  for (llvm::StringRef line : diagnosticLines(text, r.errs)) {
    llvm::StringRef message = diagnosticMessage(line);
    hasError |= message.starts_with("error:");
    internal |= message.starts_with("error: internal error");
  }
  if (r.status != 0 && r.status != 1) fail("status other than 0 or 1", options, r);
  if (r.status == 1 && !hasError) fail("status 1 without an 'error:'", options, r);
  if (r.status == 0 && hasError) fail("status 0 with an 'error:'", options, r);
  if (internal) fail("internal error", options, r);
  if (r.status == 1 && !r.out.empty()) fail("output written with status 1", options, r);
  if (r.status == 0 && r.out.empty() && options.emit != tilec::EmitKind::Layout)
    fail("nothing written with status 0", options, r);
  if (r.status == 0 && options.format == tilec::OutputFormat::JSON) {
    llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(r.out);
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      fail("JSON output does not parse", options, r);
    }
  }
  return r.status;
}

/// The language server's analysis of `text` (options as `tilec lsp` has them): kernel by kernel it must give the
/// whole file's diagnostics; every declaration gets its hover text and every kernel its report.
void checkLanguageServer(llvm::StringRef text) {
  tilec::CompileOptions options;
  tilec::lsp::FileAnalysis whole = tilec::lsp::analyzeWhole(text, "fuzz.tile", options);
  if (tilec::lsp::findKernels(text).size() >= 2) {
    tilec::lsp::PartCache cache;
    tilec::lsp::FileAnalysis parts = tilec::lsp::analyzeFile(text, "fuzz.tile", options, cache);
    auto same = [](const tilec::RecordedDiagnostic &a, const tilec::RecordedDiagnostic &b) {
      return a.kind == b.kind && a.line == b.line && a.column == b.column && a.endColumn == b.endColumn &&
             a.message == b.message && a.sourceLine == b.sourceLine;
    };
    if (!std::equal(parts.diagnostics.begin(), parts.diagnostics.end(), whole.diagnostics.begin(),
                    whole.diagnostics.end(), same)) {
      std::fprintf(stderr, "tilec_fuzzer: the language server's %zu parts give %zu diagnostics, the whole file %zu\n",
                   parts.parts.size(), parts.diagnostics.size(), whole.diagnostics.size());
      std::abort();
    }
  }
  const tilec::Analysis &a = *whole.parts[0].part->analysis;
  if (!a.program) return;
  tilec::lsp::SymbolIndex index;
  index.add(*a.program, a.sourceMgr.getMemoryBuffer(a.buffer)->getBuffer());
  index.finish();
  for (size_t offset = 0; offset <= text.size(); ++offset) index.at(offset);
  for (const tilec::lsp::Declaration &d : index.declarations()) {
    tilec::lsp::describe(d, index, a.module.get());
    if (d.kind == tilec::lsp::Declaration::Kind::Kernel && a.module) {
      tilec::lsp::kernelReport(*a.module, "fuzz.tile", d.name);
      tilec::lsp::occupancySummary(*a.module, d.name);
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  tilec::CompileOptions options;
  options.warningsAsErrors = size && (data[size - 1] & 1);

  // A syntax error stops every output kind at the same place: the other stages are run on inputs that parse.
  options.emit = tilec::EmitKind::AST;
  if (check(text, options) != 0) return 0;
  checkLanguageServer(text);

  for (const char *arch : {"gfx942", "gfx950"}) {
    options.target = tilec::lookupTarget(arch);
    if (!options.target) std::abort();
    options.emit = tilec::EmitKind::HIP;
    options.format = tilec::OutputFormat::Text;
    int status = check(text, options);
    const std::pair<tilec::EmitKind, tilec::OutputFormat> others[] = {
        {tilec::EmitKind::IR, tilec::OutputFormat::Text},     {tilec::EmitKind::Layout, tilec::OutputFormat::Text},
        {tilec::EmitKind::Layout, tilec::OutputFormat::JSON}, {tilec::EmitKind::Report, tilec::OutputFormat::Text},
        {tilec::EmitKind::Report, tilec::OutputFormat::JSON}};
    if (status != 0) continue; // every output kind stops at the same errors
    uint32_t hash = 2166136261u; // FNV-1a of the input picks the other output
    for (size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * 16777619u;
    for (auto [emit, format] : llvm::ArrayRef(others).slice(hash % std::size(others), 1)) {
      options.emit = emit;
      options.format = format;
      if (check(text, options) != status) {
        Result r = compile(text, options);
        fail("an output kind disagrees with the HIP emitter on the status", options, r);
      }
    }
  }
  return 0;
}
