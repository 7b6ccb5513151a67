//===- tilec.cpp - The tilec command line -----------------------------------===//
//
//   tilec FILE.tile [-o OUT | -o -] [--offload-arch=gfx942|gfx950] [--emit=hip|ast|ir|layout|report]
//         [--format=text|json] [-Werror] [--version] [--help]
//
// Exit status: 0 success, 1 diagnostics in the input, 2 a usage error.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace {

cl::OptionCategory category("tilec options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .tile file>"), cl::Required, cl::cat(category));
cl::opt<std::string> outputFile("o", cl::desc("Output file ('-' for standard output, the default)"),
                                cl::value_desc("file"), cl::init("-"), cl::cat(category));
cl::opt<std::string> offloadArch("offload-arch", cl::desc("Target GPU: gfx942 (MI300X) or gfx950 (MI355X); "
                                                          "overrides the file's 'target'"),
                                 cl::value_desc("arch"), cl::cat(category));
cl::opt<tilec::EmitKind> emitKind(
    "emit", cl::desc("What to produce"), cl::init(tilec::EmitKind::HIP),
    cl::values(clEnumValN(tilec::EmitKind::HIP, "hip", "HIP C++ source (default)"),
               clEnumValN(tilec::EmitKind::AST, "ast", "the syntax tree"),
               clEnumValN(tilec::EmitKind::IR, "ir", "tilec's IR"),
               clEnumValN(tilec::EmitKind::Layout, "layout", "each register tile's thread map"),
               clEnumValN(tilec::EmitKind::Report, "report", "distributions and memory accesses per kernel")),
    cl::cat(category));
cl::opt<tilec::OutputFormat> outputFormat("format", cl::desc("Output format of --emit=layout and --emit=report"),
                                    cl::init(tilec::OutputFormat::Text),
                                    cl::values(clEnumValN(tilec::OutputFormat::Text, "text", "for people (default)"),
                                               clEnumValN(tilec::OutputFormat::JSON, "json", "for tools")),
                                    cl::cat(category));
cl::opt<bool> werror("Werror", cl::desc("Treat warnings as errors"), cl::cat(category));

int usage(const Twine &message) {
  WithColor::error(errs(), "tilec") << message << "\n";
  errs() << "Run 'tilec --help' for usage.\n";
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tilec " << TILEC_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n"
       << "  targets: " << tilec::allTargetNames() << "\n";
  });
  std::string parseErrors;
  raw_string_ostream parseErrorStream(parseErrors);
  if (!cl::ParseCommandLineOptions(argc, argv, "tilec: tiles, distributions and MFMA to HIP for AMD GPUs\n",
                                   &parseErrorStream)) {
    errs() << parseErrors;
    errs() << "Run 'tilec --help' for usage.\n";
    return 2;
  }

  tilec::CompileOptions options;
  options.emit = emitKind;
  options.format = outputFormat;
  options.warningsAsErrors = werror;
  if (!offloadArch.empty()) {
    options.target = tilec::lookupTarget(offloadArch);
    if (!options.target)
      return usage("unknown --offload-arch '" + offloadArch + "'; tilec knows " + tilec::allTargetNames());
  }
  if (outputFormat == tilec::OutputFormat::JSON && emitKind != tilec::EmitKind::Layout && emitKind != tilec::EmitKind::Report)
    return usage("--format=json applies to --emit=layout and --emit=report");

  ErrorOr<std::unique_ptr<MemoryBuffer>> input = MemoryBuffer::getFileOrSTDIN(inputFile, /*IsText=*/true);
  if (std::error_code ec = input.getError()) {
    WithColor::error(errs(), "tilec") << "cannot read '" << inputFile << "': " << ec.message() << "\n";
    return 1;
  }

  std::string text;
  raw_string_ostream out(text);
  int status = tilec::compileBuffer(std::move(*input), options, out, errs());
  if (status != 0) return status;

  std::error_code ec;
  ToolOutputFile output(outputFile, ec, sys::fs::OF_Text);
  if (ec) {
    WithColor::error(errs(), "tilec") << "cannot write '" << outputFile << "': " << ec.message() << "\n";
    return 1;
  }
  output.os() << text;
  output.keep();
  return 0;
}
