//===- Driver.h - The compilation pipeline, stage by stage ------------------===//
//
// read -> parse (AST) -> Sema (IR) -> verify -> emit. `--emit=` stops after any stage and prints it. The tilec
// command line (tools/tilec.cpp) and the benchmarks call the same function; the language server (tools/lsp) calls
// analyzeBuffer, the same stages without the emission, and keeps what they built.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DRIVER_H
#define TILEC_DRIVER_H

#include "frontend/AST.h"
#include "ir/IR.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "support/Diagnostics.h"
#include "target/Target.h"
#include "tilec/tilec.h"
#include <memory>
#include <optional>

namespace tilec {


struct CompileOptions {
  EmitKind emit = EmitKind::HIP;
  OutputFormat format = OutputFormat::Text;
  const Target *target = nullptr; ///< --offload-arch; overrides the file's `target`
  bool warningsAsErrors = false;
  unsigned errorLimit = 20; ///< -ferror-limit: errors printed before stopping; 0 for no limit
  bool allowSpills = false; ///< --verify: scratch is reported, not an error
  /// --device-threads: kernels compiled at once in process (0: one per core; 1: the module in one backend run).
  unsigned deviceThreads = 0;
  /// Testing only (the hidden -tilec-test-hip-warning-at-line): an unused variable placed in the code of this .tile
  /// statement in the HIP compiled in process, so that a test can show clang's messages at .tile lines. 0: none.
  unsigned testWarningAtLine = 0;
  /// When set, every diagnostic is also recorded here (the library's diagnostics as data).
  std::vector<RecordedDiagnostic> *record = nullptr;
};


/// The exit status when the device compiler cannot compile for the target (gfx950 with LLVM 19).
constexpr int kExitTargetUnsupported = 3;

/// Compiles `input` (named by its buffer identifier), writing the requested output to `out` and diagnostics to
/// `errs`. Returns the exit status: 0 success, 1 diagnostics, kExitTargetUnsupported when --emit=asm/obj or --verify
/// meet a target the linked LLVM cannot compile for. Nothing is written to `out` when there are errors, except the
/// --verify table, which explains them.
int compileBuffer(std::unique_ptr<llvm::MemoryBuffer> input, const CompileOptions &options, llvm::raw_ostream &out,
                  llvm::raw_ostream &errs);

/// Parses buffer `buffer` of the engine's SourceMgr; warns about a file that defines no kernel. std::nullopt after
/// syntax errors.
std::optional<ast::Program> parseChecked(unsigned buffer, DiagnosticEngine &diags);

/// The stages whose diagnostics a compilation reports, in order. Each stops the pipeline when it reports an error,
/// except UnusedCode (warnings about code that does nothing, only in a file without other errors).
/// LdsLifetimes: the verifier of the fragment-hoisting and LDS-sharing passes, which run before the budgets.
/// LdsBanks: the bank-conflict warnings, which weigh the layouts the LDS swizzle pass chose.
enum class CheckStage : unsigned {
  Parse, Sema, UnusedCode, Verify, Plans, VerifyPlans, LdsLifetimes, Budgets, LdsBanks, RegisterEdges
};
constexpr unsigned kCheckStages = 10;

/// Sema, the verifier, the planning passes and the resource checks: everything between the syntax tree and the
/// emitters, in order. Returns null after any error (a warning promoted by -Werror included). With `stageEnds`, each
/// stage from Sema on that runs appends the number of diagnostics recorded when it ends (Analysis::stageEnds).
std::unique_ptr<ir::Module> buildCheckedModule(const ast::Program &program, const CompileOptions &options,
                                               DiagnosticEngine &diags, std::vector<size_t> *stageEnds = nullptr);

/// One version of a file as an editor sees it: the syntax tree (none after syntax errors), the checked IR (none after
/// any error), and every diagnostic as data. Every SMRange of the tree and the IR points into `sourceMgr`'s buffer,
/// which lives as long as this object.
struct Analysis {
  llvm::SourceMgr sourceMgr;
  unsigned buffer = 0;
  std::optional<ast::Program> program;
  std::unique_ptr<ir::Module> module;
  std::vector<RecordedDiagnostic> diagnostics; ///< as tilec prints them, in order, notes after their error
  /// Per CheckStage that ran, in order: the end of its diagnostics in `diagnostics`. A stage ran when the ones
  /// before it reported no error; the language server puts the diagnostics of kernels analyzed one at a time in
  /// the order a whole file gets them with these.
  std::vector<size_t> stageEnds;
};

/// Parses and checks `input` as compileBuffer does, without emitting anything. `options.record` is not used.
std::unique_ptr<Analysis> analyzeBuffer(std::unique_ptr<llvm::MemoryBuffer> input, const CompileOptions &options);

} // namespace tilec

#endif
