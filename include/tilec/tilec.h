//===- tilec/tilec.h - The tilec library ------------------------------------===//
//
// What a build system or a tuning script links to compile .tile sources without running the tilec command: a source
// buffer or a file in, the emitted HIP (or the report, the layouts, the assembly, ...) out, with the diagnostics as
// data. Compilations share no mutable state: any number may run at once on different threads.
//
//   tilec::Options options;
//   options.target = "gfx942";
//   tilec::Result r = tilec::compileFile("gemm.tile", options);
//   if (!r.ok()) for (const tilec::Diagnostic &d : r.diagnostics) report(d.file, d.line, d.column, d.message);
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TILEC_H
#define TILEC_TILEC_H

#include <string>
#include <vector>

namespace tilec {

/// What a compilation produces.
enum class EmitKind {
  HIP,    ///< HIP C++ (the default)
  AST,    ///< the syntax tree
  IR,     ///< tilec's IR
  Layout, ///< each register tile's thread map
  Report, ///< distributions, memory accesses, resources and occupancy per kernel
  Asm,    ///< AMDGPU assembly of the emitted HIP, compiled in process
  Obj,    ///< the code object (.hsaco) of the emitted HIP, compiled in process
  Verify, ///< the model's resources beside the compiler's
  Header, ///< a C++ header declaring the kernels' host launchers (launch_NAME), for the code that calls them
  Html,   ///< one self-contained HTML page drawing layouts, LDS banks, registers, occupancy and the K loop
  Explore, ///< each K loop's step, block and depth beside their neighbours, each compiled and measured in process
};

/// Text for people or JSON for tools (Layout, Report and Verify).
enum class OutputFormat { Text, JSON };

struct Options {
  EmitKind emit = EmitKind::HIP;
  OutputFormat format = OutputFormat::Text;
  std::string target;            ///< "gfx942" or "gfx950"; empty: the file's `target`, else gfx942
  bool warningsAsErrors = false; ///< -Werror
  unsigned errorLimit = 20;      ///< -ferror-limit: errors reported before stopping; 0 for no limit
  bool allowSpills = false;      ///< Verify: scratch is reported, not an error
  /// Asm, Obj, Verify: kernels compiled at once (0: one per core; 1: the whole module in one backend run, as clang
  /// does it). The output is the same either way; a build system running many compiles at once may ask for 1.
  unsigned deviceThreads = 0;
  /// For tilec's own tests: an unused variable in the code of this .tile statement in the HIP compiled in process
  /// (Asm, Obj, Verify), to show that clang's messages are reported at .tile lines. 0 (the default): none.
  unsigned testWarningAtLine = 0;
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;       ///< empty for a message about no file (an unreadable input, say)
  unsigned line = 0;      ///< 1-based; 0 when there is no location
  unsigned column = 0;    ///< 1-based byte column
  std::string message;    ///< the text after "error: ", with the arithmetic
  std::string sourceLine; ///< the line it points into (a window of it when the line is long)
  std::vector<Diagnostic> notes; ///< notes that explain this error or warning
};

struct Result {
  /// 0 success, 1 diagnostics, 3 the linked LLVM cannot compile for the target (Asm, Obj, Verify on gfx950 with
  /// LLVM 19).
  int status = 0;
  std::string output; ///< what was asked for (empty after errors, except Verify's table)
  std::vector<Diagnostic> diagnostics;
  std::string diagnosticText; ///< the same diagnostics as the tilec command prints them
  bool ok() const { return status == 0; }
};

/// Compiles `source`, named `fileName` in diagnostics.
Result compile(const std::string &source, const std::string &fileName, const Options &options = {});
/// Compiles the file at `path`; a file that cannot be read is a diagnostic without a location.
Result compileFile(const std::string &path, const Options &options = {});

/// "0.1.0".
const char *version();

/// The directory that holds tilec/runtime.h, which emitted HIP includes (`-I` it when compiling a .hip): <prefix>/include
/// of the installation this library belongs to, else the source tree it was built from (as
/// `tilec --print-runtime-include-dir`).
std::string runtimeIncludeDir();

} // namespace tilec

#endif
