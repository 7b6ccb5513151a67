//===- Driver.cpp - Running the stages in order -----------------------------===//
#include "driver/Driver.h"

#include "analysis/LDSBanks.h"
#include "analysis/ResourceModel.h"
#include "codegen/HIPEmitter.h"
#include "codegen/LineMap.h"
#include "device/DeviceCompiler.h"
#include "device/Verify.h"
#include "driver/Explore.h"
#include "driver/HtmlReport.h"
#include "driver/LayoutPrinter.h"
#include "driver/Report.h"
#include "frontend/Parser.h"
#include "frontend/Sema.h"
#include "ir/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "passes/DropBarriers.h"
#include "passes/HoistFragments.h"
#include "passes/LdsSwizzle.h"
#include "passes/OccupancyHint.h"
#include "passes/ReductionStrategy.h"
#include "passes/RotateLoopLoads.h"
#include "passes/PlanScaleLoads.h"
#include "passes/ShareLds.h"
#include "passes/SoftwarePipeline.h"
#include "passes/UnrollChunks.h"
#include "support/Diagnostics.h"

using namespace tilec;

namespace {

/// --emit=asm, --emit=obj and --verify: the emitted HIP compiled in process. Returns the exit status.
int compileAndUse(const ir::Module &module, llvm::StringRef shownName, unsigned buffer, const CompileOptions &options,
                  DiagnosticEngine &diags, llvm::raw_ostream &os, llvm::raw_ostream &errs) {
  // The copy compiled here carries #line directives, so clang's messages name the .tile line that produced the code.
  std::string marked;
  llvm::raw_string_ostream hipStream(marked);
  llvm::SourceMgr &sm = diags.getSourceMgr();
  auto findLine = [&](llvm::SMLoc loc) { return sm.FindLineNumber(loc, buffer); };
  LineOf lineOf = findLine;
  emitHIP(module, shownName, hipStream, &lineOf);
  hipStream.flush();
  if (options.testWarningAtLine) {
    std::string marker = (kLineMarker + llvm::Twine(options.testWarningAtLine) + "\n").str();
    size_t at = marked.find(marker);
    if (at != std::string::npos) marked.insert(at + marker.size(), "int tilec_test_hook;\n");
  }
  std::string hip = withLineDirectives(marked, shownName);
  std::string hipName = (llvm::sys::path::stem(shownName) + ".hip").str();
  DeviceCode code;
  DeviceOutput kind = options.emit == EmitKind::Obj ? DeviceOutput::Object : DeviceOutput::Assembly;
  switch (compileDeviceCode(hip, hipName, module.target->name, kind, code, options.deviceThreads)) {
  case DeviceStatus::Unavailable:
    diags.errorNoLoc(code.diagnostics);
    return 1;
  case DeviceStatus::Unsupported:
    errs << "tilec: " << code.diagnostics << "\n";
    if (options.record) options.record->push_back({llvm::SourceMgr::DK_Error, "", 0, 0, code.diagnostics, "", 0});
    return kExitTargetUnsupported;
  case DeviceStatus::CompileError:
    // Each clang message about a .tile line is reported there; clang's whole text follows.
    if (!reportDeviceDiagnostics(code.diagnostics, shownName, buffer, diags))
      diags.errorNoLoc("clang rejected the HIP that tilec emitted (a tilec bug); clang says:");
    errs << code.diagnostics;
    if (options.record) options.record->push_back({llvm::SourceMgr::DK_Note, "", 0, 0, code.diagnostics, "", 0});
    return 1;
  case DeviceStatus::OK: break;
  }
  // Emitted code is meant to be warning-free; a warning is tilec's bug, shown rather than hidden.
  if (!code.diagnostics.empty() && !reportDeviceDiagnostics(code.diagnostics, shownName, buffer, diags))
    errs << "tilec: warning: clang warned about the emitted HIP:\n" << code.diagnostics;
  if (options.emit != EmitKind::Verify) {
    os << code.text;
    return 0;
  }
  VerifyOptions verify;
  verify.json = options.format == OutputFormat::JSON;
  verify.allowSpills = options.allowSpills;
  verify.llvmVersion = code.llvmVersion;
  verifyResources(module, shownName, code.text, verify, diags, os);
  return diags.hasErrors() ? 1 : 0;
}

} // namespace

std::optional<ast::Program> tilec::parseChecked(unsigned buffer, DiagnosticEngine &diags) {
  std::optional<ast::Program> program = parseProgram(buffer, diags);
  if (program && program->kernels.empty()) {
    // Valid but surely not meant: an empty file, or one whose kernels are all commented out.
    const llvm::MemoryBuffer &text = *diags.getSourceMgr().getMemoryBuffer(buffer);
    llvm::SMLoc start = llvm::SMLoc::getFromPointer(text.getBufferStart());
    llvm::SMRange at = program->target ? program->target->range : llvm::SMRange(start, start);
    diags.warning(at, "the file defines no kernel; the output will have none");
  }
  return program;
}

std::unique_ptr<ir::Module> tilec::buildCheckedModule(const ast::Program &program, const CompileOptions &options,
                                                      DiagnosticEngine &diags, std::vector<size_t> *stageEnds) {
  // Each stage that runs records where its diagnostics end (Analysis::stageEnds).
  auto ended = [&](size_t at) {
    if (stageEnds) stageEnds->push_back(at);
  };
  auto recorded = [&] { return diags.record ? diags.record->size() : 0; };
  size_t unusedCodeFrom = 0;
  std::unique_ptr<ir::Module> module = buildIR(program, options.target, diags, &unusedCodeFrom);
  ended(unusedCodeFrom); // Sema
  if (!module) return nullptr;
  ended(recorded()); // UnusedCode
  planReductions(*module);
  bool ok = verifyModule(*module, diags);
  ended(recorded());
  if (!ok) return nullptr;
  ok = planPipelines(*module, diags);
  ended(recorded());
  if (!ok) return nullptr;
  ok = verifyPlans(*module, diags);
  ended(recorded());
  if (!ok) return nullptr;
  // Before the budgets: reading a loop-invariant operand before its loop frees its buffer for the loop's.
  hoistLoopInvariantFragments(*module);
  readScalesAtLaneGroups(*module);
  shareLdsBuffers(*module);
  ok = verifyLdsLifetimes(*module, diags);
  ended(recorded());
  if (!ok) return nullptr;
  ok = checkBudgets(*module, diags) && !diags.hasErrors();
  ended(recorded());
  if (!ok) return nullptr;
  rotateLoopLoads(*module);
  dropRedundantBarriers(*module);
  chooseLdsSwizzles(*module);
  if (!verifyLdsLayouts(*module, diags)) return nullptr;
  for (auto &k : module->kernels)
    sema::warnLdsBankConflicts(*k, *module->target, diags, [&](unsigned index, const std::vector<unsigned> &pads) {
      return ldsCyclesWithPads(*k, *module->target, index, pads);
    });
  ended(recorded()); // the bank warnings of every kernel, before any kernel's register-edge warning
  chunkAccessLoops(*module);
  askForModelOccupancy(*module);
  warnAtRegisterEdges(*module, diags);
  ended(recorded());
  if (diags.hasErrors()) return nullptr; // -Werror
  return module;
}

std::unique_ptr<Analysis> tilec::analyzeBuffer(std::unique_ptr<llvm::MemoryBuffer> input,
                                               const CompileOptions &options) {
  auto a = std::make_unique<Analysis>();
  a->buffer = a->sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  std::string printed; // the same diagnostics as text, which nobody reads here
  llvm::raw_string_ostream printedStream(printed);
  DiagnosticEngine diags(a->sourceMgr, printedStream);
  diags.warningsAsErrors = options.warningsAsErrors;
  diags.errorLimit = options.errorLimit;
  diags.record = &a->diagnostics;
  a->program = parseChecked(a->buffer, diags);
  a->stageEnds.push_back(a->diagnostics.size()); // Parse
  if (a->program && !diags.hasErrors()) a->module = buildCheckedModule(*a->program, options, diags, &a->stageEnds);
  return a;
}

int tilec::compileBuffer(std::unique_ptr<llvm::MemoryBuffer> input, const CompileOptions &options,
                         llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  if (options.emit == EmitKind::Asm || options.emit == EmitKind::Obj || options.emit == EmitKind::Verify ||
      options.emit == EmitKind::Html || options.emit == EmitKind::Explore)
    preloadDeviceCompiler(); // loads while the file is parsed, checked and emitted
  std::string fileName = input->getBufferIdentifier().str();
  llvm::SourceMgr sourceMgr;
  unsigned buffer = sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  DiagnosticEngine diags(sourceMgr, errs);
  diags.warningsAsErrors = options.warningsAsErrors;
  diags.errorLimit = options.errorLimit;
  diags.record = options.record;

  // Everything is produced into a string first, so a failing stage writes nothing.
  std::string text;
  llvm::raw_string_ostream os(text);
  std::optional<ast::Program> program = parseChecked(buffer, diags);
  if (!program || diags.hasErrors()) return 1;
  if (options.emit == EmitKind::AST) {
    ast::dumpAST(*program, sourceMgr, os);
    out << text;
    return 0;
  }

  std::unique_ptr<ir::Module> module = buildCheckedModule(*program, options, diags);
  if (!module) return 1;

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
  case EmitKind::Header: emitLauncherHeader(*module, shownName, os); break;
  case EmitKind::Html: printHtmlReport(*module, shownName, options.deviceThreads, os); break;
  case EmitKind::Explore: {
    int status = exploreKernels(*module, buffer, shownName, options, diags, os);
    if (status == 0) out << text;
    return status;
  }
  case EmitKind::Asm:
  case EmitKind::Obj:
  case EmitKind::Verify: {
    int status = compileAndUse(*module, shownName, buffer, options, diags, os, errs);
    // The verify table explains its errors, so it is written whatever the status.
    if (status == 0 || (status == 1 && options.emit == EmitKind::Verify)) out << text;
    return status;
  }
  }
  out << text;
  return 0;
}
