//===- TileModule.h - A .tile file built into IR, for unit tests -------------===//
//
// The verifier tests (PlanVerifierTest, ScaleLoadsTest) take a real kernel through the front end, then break what a
// pass planned. This holds what that needs alive together: the source manager, the diagnostics and their text, and
// the module.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TEST_TILEMODULE_H
#define TILEC_TEST_TILEMODULE_H

#include "frontend/Parser.h"
#include "frontend/Sema.h"
#include "support/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

namespace tilec::test {

struct TileModule {
  llvm::SourceMgr sm;
  std::string messages;
  llvm::raw_string_ostream errs{messages};
  DiagnosticEngine diags{sm, errs};
  std::unique_ptr<ir::Module> module; ///< null when the file could not be read, parsed or checked
  std::string failure;                ///< why module is null

  /// Reads, parses and checks `path` (Sema, buildIR).
  explicit TileModule(const char *path) {
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!file) {
      failure = std::string("cannot read ") + path;
      return;
    }
    unsigned id = sm.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
    std::optional<ast::Program> program = parseProgram(id, diags);
    if (program) module = buildIR(*program, nullptr, diags);
    if (!module) failure = (program ? "sema failed: " : "parse failed: ") + messages;
  }
};

} // namespace tilec::test

#endif
