//===- Driver.cpp - Running the stages in order -----------------------------===//
#include "Driver.h"

#include "Diagnostics.h"
#include "HIPEmitter.h"
#include "LayoutPrinter.h"
#include "Parser.h"
#include "Report.h"
#include "ResourceModel.h"
#include "Sema.h"
#include "Verifier.h"
#include "llvm/Support/Path.h"

using namespace tilec;

int tilec::compileBuffer(std::unique_ptr<llvm::MemoryBuffer> input, const CompileOptions &options,
                         llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  std::string fileName = input->getBufferIdentifier().str();
  llvm::SourceMgr sourceMgr;
  unsigned buffer = sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  DiagnosticEngine diags(sourceMgr, errs);
  diags.warningsAsErrors = options.warningsAsErrors;
  diags.errorLimit = options.errorLimit;

  // Everything is produced into a string first, so a failing stage writes nothing.
  std::string text;
  llvm::raw_string_ostream os(text);
  std::optional<ast::Program> program = parseProgram(buffer, diags);
  if (!program) return 1;
  if (program->kernels.empty()) {
    // Valid but surely not meant: an empty file, or one whose kernels are all commented out.
    llvm::SMLoc start = llvm::SMLoc::getFromPointer(sourceMgr.getMemoryBuffer(buffer)->getBufferStart());
    llvm::SMRange at = program->target ? program->target->range : llvm::SMRange(start, start);
    diags.warning(at, "the file defines no kernel; the output will have none");
    if (diags.hasErrors()) return 1;
  }
  if (options.emit == EmitKind::AST) {
    ast::dumpAST(*program, sourceMgr, os);
    out << text;
    return 0;
  }

  std::unique_ptr<ir::Module> module = buildIR(*program, options.target, diags);
  if (!module || !verifyModule(*module, diags) || !checkBudgets(*module, diags) || diags.hasErrors()) return 1;

  llvm::StringRef shownName = llvm::sys::path::filename(fileName);
  switch (options.emit) {
  case EmitKind::AST: break;
  case EmitKind::IR: ir::printModule(*module, os); break;
  case EmitKind::Layout:
    if (options.format == OutputFormat::JSON) printLayoutsJSON(*module, os);
    else printLayouts(*module, os);
    break;
  case EmitKind::Report:
    if (options.format == OutputFormat::JSON) printReportJSON(*module, shownName, os);
    else printReport(*module, shownName, os);
    break;
  case EmitKind::HIP: emitHIP(*module, shownName, os); break;
  }
  out << text;
  return 0;
}
