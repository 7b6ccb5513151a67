//===- Library.cpp - The tilec library (include/tilec/tilec.h) --------------===//
//
// The public entry points over the driver: options in, output and diagnostics as data out. Each call builds its own
// SourceMgr, diagnostics and IR; nothing is shared between calls but read-only tables (and the Clang plugin, loaded
// once under a lock).
//
//===----------------------------------------------------------------------===//
#include "tilec/tilec.h"

#include "driver/Driver.h"
#include "llvm/Support/MemoryBuffer.h"
#include "support/Diagnostics.h"
#include "target/Target.h"

using namespace tilec;

namespace {

Severity severityOf(llvm::SourceMgr::DiagKind kind) {
  switch (kind) {
  case llvm::SourceMgr::DK_Error: return Severity::Error;
  case llvm::SourceMgr::DK_Warning: return Severity::Warning;
  default: return Severity::Note;
  }
}

/// Notes become part of the error or warning before them.
std::vector<Diagnostic> nest(const std::vector<RecordedDiagnostic> &records) {
  std::vector<Diagnostic> out;
  for (const RecordedDiagnostic &r : records) {
    Diagnostic d{severityOf(r.kind), r.file, r.line, r.column, r.message, r.sourceLine, {}};
    if (d.severity == Severity::Note && !out.empty()) out.back().notes.push_back(std::move(d));
    else out.push_back(std::move(d));
  }
  return out;
}

Result fail(int status, const std::string &message) {
  Result r;
  r.status = status;
  r.diagnostics.push_back({Severity::Error, "", 0, 0, message, "", {}});
  r.diagnosticText = "tilec: error: " + message + "\n";
  return r;
}

} // namespace

Result tilec::compile(const std::string &source, const std::string &fileName, const Options &options) {
  CompileOptions c;
  c.emit = options.emit;
  c.format = options.format;
  c.warningsAsErrors = options.warningsAsErrors;
  c.errorLimit = options.errorLimit;
  c.allowSpills = options.allowSpills;
  c.deviceThreads = options.deviceThreads;
  c.testWarningAtLine = options.testWarningAtLine;
  if (!options.target.empty()) {
    c.target = lookupTarget(options.target);
    if (!c.target)
      return fail(2, "unknown target '" + options.target + "'; tilec knows " + allTargetNames().str());
  }
  std::vector<RecordedDiagnostic> records;
  c.record = &records;
  Result r;
  llvm::raw_string_ostream out(r.output), errs(r.diagnosticText);
  r.status = compileBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, fileName), c, out, errs);
  out.flush();
  errs.flush();
  r.diagnostics = nest(records);
  return r;
}

Result tilec::compileFile(const std::string &path, const Options &options) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file) return fail(1, "cannot read '" + path + "': " + file.getError().message());
  return compile((*file)->getBuffer().str(), path, options);
}

const char *tilec::version() { return TILEC_VERSION; }
