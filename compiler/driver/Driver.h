//===- Driver.h - The compilation pipeline, stage by stage ------------------===//
//
// read -> parse (AST) -> Sema (IR) -> verify -> emit. `--emit=` stops after any stage and prints it. The tilec
// command line (tools/tilec.cpp) and the benchmarks call the same function.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DRIVER_H
#define TILEC_DRIVER_H

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "support/Diagnostics.h"
#include "target/Target.h"
#include "tilec/tilec.h"
#include <memory>

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

} // namespace tilec

#endif
