//===- tilec.cpp - The tilec command line -----------------------------------===//
//
//   tilec FILE.tile [-o OUT | -o -] [--offload-arch=gfx942|gfx950] [--emit=hip|header|ast|ir|layout|report|html]
//         [--format=text|json] [-Werror] [-ferror-limit=N] [-MD] [-MF FILE] [-MT TARGET] [--version] [--help]
//   tilec --print-runtime-include-dir
//   tilec lsp [--stdio] [--offload-arch=ARCH]     the language server (tools/lsp/Server.h, docs/editors.md)
//
// Exit status: 0 success, 1 diagnostics in the input, 2 a usage error.
//
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"
#include "driver/Report.h"
#include "lsp/Server.h"
#include "support/Installation.h"
#include "tilec/tilec.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace {

cl::OptionCategory category("tilec options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .tile file>"), cl::cat(category));
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
               clEnumValN(tilec::EmitKind::Report, "report", "distributions and memory accesses per kernel"),
               clEnumValN(tilec::EmitKind::Asm, "asm", "AMDGPU assembly of the emitted HIP (compiled in process)"),
               clEnumValN(tilec::EmitKind::Obj, "obj", "the AMDGPU object of the emitted HIP (compiled in process)"),
               clEnumValN(tilec::EmitKind::Header, "header", "a C++ header declaring the kernels' launchers"),
               clEnumValN(tilec::EmitKind::Html, "html",
                          "one HTML page drawing layouts, LDS banks, registers, occupancy and the K loop")),
    cl::cat(category));
cl::opt<tilec::OutputFormat> outputFormat("format", cl::desc("Output format of --emit=layout, --emit=report, --verify "
                                                             "and --explore"),
                                    cl::init(tilec::OutputFormat::Text),
                                    cl::values(clEnumValN(tilec::OutputFormat::Text, "text", "for people (default)"),
                                               clEnumValN(tilec::OutputFormat::JSON, "json", "for tools")),
                                    cl::cat(category));
cl::opt<bool> verify("verify", cl::desc("Compile in process and put the model's registers, LDS, scratch and "
                                        "occupancy beside the compiler's"),
                     cl::cat(category));
cl::opt<bool> explore("explore", cl::desc("Compile each K loop as written and with its step, block and pipeline depth "
                                          "changed, in process, and measure each under llvm-mca"),
                      cl::cat(category));
cl::opt<bool> allowSpills("allow-spills", cl::desc("--verify: accept scratch (spills) instead of an error"),
                          cl::cat(category));
cl::opt<unsigned> deviceThreads("device-threads",
                                cl::desc("--emit=asm, --emit=obj, --emit=html, --verify: kernels compiled at once (default 0: one "
                                         "per core; 1: the whole module in one backend run)"),
                                cl::value_desc("N"), cl::init(0), cl::cat(category));
cl::opt<bool> werror("Werror", cl::desc("Treat warnings as errors"), cl::cat(category));
cl::opt<unsigned> testWarningAtLine("tilec-test-hip-warning-at-line", cl::Hidden, cl::init(0),
                                    cl::desc("Testing: an unused variable in the code of .tile statement line N (in-process compile)"));
cl::opt<unsigned> errorLimit("ferror-limit", cl::desc("Stop after N errors (default 20; 0 for no limit)"),
                             cl::value_desc("N"), cl::init(20), cl::cat(category));
cl::OptionCategory occupancyCategory("occupancy calculator (tilec --occupancy, no input file)");
cl::opt<bool> occupancyQuery("occupancy", cl::desc("Answer the occupancy question for the resources given below"),
                             cl::cat(occupancyCategory));
cl::opt<unsigned> vgprs("vgprs", cl::desc("ArchVGPRs per lane"), cl::init(0), cl::cat(occupancyCategory));
cl::opt<unsigned> agprs("agprs", cl::desc("AGPRs (AccVGPRs) per lane"), cl::init(0), cl::cat(occupancyCategory));
cl::opt<unsigned> sgprs("sgprs", cl::desc("explicit SGPRs per wave (the reserved ones are added)"), cl::init(0),
                        cl::cat(occupancyCategory));
cl::opt<unsigned> ldsBytes("lds", cl::desc("LDS bytes per workgroup"), cl::init(0), cl::cat(occupancyCategory));
cl::opt<unsigned> workgroup("workgroup", cl::desc("threads per workgroup"), cl::init(256), cl::cat(occupancyCategory));

cl::opt<bool> writeDepfile("MD", cl::desc("Write a Make depfile (to -MF FILE, else to OUT.d) beside the output"),
                            cl::cat(category));
cl::opt<std::string> depfileName("MF", cl::desc("The depfile to write (implies -MD)"), cl::value_desc("file"),
                                 cl::cat(category));
cl::opt<std::string> depTarget("MT", cl::desc("The target named in the depfile (default: the output file)"),
                               cl::value_desc("target"), cl::cat(category));
cl::opt<bool> printRuntimeInclude("print-runtime-include-dir",
                                  cl::desc("Print the directory the emitted HIP's #include \"tilec/runtime.h\" needs, "
                                           "and exit"),
                                  cl::cat(category));

cl::opt<bool> splitInputFile("split-input-file",
                             cl::desc("Compile each '// -----' separated part of the input on its own (for tests)"),
                             cl::cat(category));

/// Compiles each `// -----` separated part of `input` on its own. Each part keeps its line numbers in the whole file,
/// so diagnostics point at the right line. Outputs are joined by `// -----`; the status is the worst one.
/// Compiles `text` through the library, printing its diagnostics as they are printed everywhere.
int compileText(const std::string &text, const std::string &name, const tilec::Options &options, raw_ostream &out) {
  tilec::Result r = tilec::compile(text, name, options);
  errs() << r.diagnosticText;
  out << r.output;
  return r.status;
}

int compileSplit(const MemoryBuffer &input, const tilec::Options &options, raw_ostream &out) {
  SmallVector<StringRef, 8> parts;
  StringRef rest = input.getBuffer();
  constexpr StringLiteral marker = "// -----";
  while (true) {
    size_t at = rest.find(marker);
    while (at != StringRef::npos && at != 0 && rest[at - 1] != '\n') at = rest.find(marker, at + 1);
    parts.push_back(rest.substr(0, at));
    if (at == StringRef::npos) break;
    size_t eol = rest.find('\n', at);
    rest = eol == StringRef::npos ? StringRef() : rest.substr(eol + 1);
  }
  int status = 0;
  unsigned lineOffset = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string text(lineOffset, '\n');
    text += parts[i].str();
    lineOffset += parts[i].count('\n') + 1;
    std::string partOut;
    raw_string_ostream partStream(partOut);
    status = std::max(status, compileText(text, input.getBufferIdentifier().str(), options, partStream));
    if (i) out << "// -----\n";
    out << partOut;
  }
  return status;
}

/// A path as Make reads it in a depfile: spaces, '#' and '$' escaped.
std::string makeEscaped(StringRef path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

/// Writes `target: input [runtime headers]` to `path`: the .tile file is all a .hip depends on; code compiled in
/// process (--emit=asm/obj, --verify) also reads the runtime headers. Returns false when it cannot be written.
bool writeDeps(StringRef path, StringRef target, StringRef input, bool compiled) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_Text);
  if (ec) {
    WithColor::error(errs(), "tilec") << "cannot write '" << path << "': " << ec.message() << "\n";
    return false;
  }
  os << makeEscaped(target) << ": " << makeEscaped(input);
  if (compiled)
    for (const char *header :
         {"tilec/runtime.h", "tilec/buffer.h", "tilec/fp8.h", "tilec/fp6x4.h", "tilec/lds.h", "tilec/hip_minimal.h"})
      os << " \\\n  " << makeEscaped((Twine(tilec::runtimeIncludeDir()) + "/" + header).str());
  os << "\n";
  return true;
}

int usage(const Twine &message) {
  WithColor::error(errs(), "tilec") << message << "\n";
  errs() << "Run 'tilec --help' for usage.\n";
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  // `tilec lsp ...` is a command of its own (a file named lsp compiles as ./lsp).
  if (argc >= 2 && StringRef(argv[1]) == "lsp")
    return tilec::lsp::runLanguageServer(ArrayRef<const char *>(argv + 2, argc - 2));
  cl::HideUnrelatedOptions({&category, &occupancyCategory});
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

  tilec::Options options;
  options.emit = emitKind;
  if (verify) {
    if (emitKind.getNumOccurrences()) return usage("--verify and --emit= are exclusive");
    options.emit = tilec::EmitKind::Verify;
  }
  if (explore) {
    if (emitKind.getNumOccurrences() || verify) return usage("--explore, --verify and --emit= are exclusive");
    options.emit = tilec::EmitKind::Explore;
  }
  options.allowSpills = allowSpills;
  options.deviceThreads = deviceThreads;
  options.testWarningAtLine = testWarningAtLine;
  options.format = outputFormat;
  options.warningsAsErrors = werror;
  options.errorLimit = errorLimit;
  if (!offloadArch.empty()) {
    options.target = offloadArch;
    if (!tilec::lookupTarget(offloadArch))
      return usage("unknown --offload-arch '" + offloadArch + "'; tilec knows " + tilec::allTargetNames());
  }
  if (outputFormat == tilec::OutputFormat::JSON && emitKind != tilec::EmitKind::Layout &&
      emitKind != tilec::EmitKind::Report && !occupancyQuery && !verify && !explore)
    return usage("--format=json applies to --emit=layout, --emit=report, --verify and --explore");

  if (occupancyQuery) {
    if (!inputFile.empty()) return usage("--occupancy takes no input file");
    const tilec::Target &target = offloadArch.empty() ? tilec::defaultTarget() : *tilec::lookupTarget(offloadArch);
    if (workgroup == 0 || workgroup % target.waveSize != 0 || workgroup > target.maxWorkgroupSize)
      return usage("--workgroup must be a multiple of " + Twine(target.waveSize) + " up to " +
                   Twine(target.maxWorkgroupSize));
    if (vgprs > target.maxArchVgprs || agprs > target.maxAgprs)
      return usage("--vgprs and --agprs are at most " + Twine(target.maxArchVgprs) + " each");
    if (sgprs > target.addressableSgprs) return usage("--sgprs is at most " + Twine(target.addressableSgprs));
    tilec::KernelResources r;
    r.archVgprs = vgprs;
    r.agprs = agprs;
    r.sgprs = sgprs;
    r.ldsBytes = ldsBytes;
    r.workgroupSize = workgroup;
    tilec::printOccupancyQuery(target, r, outputFormat == tilec::OutputFormat::JSON, outs());
    return 0;
  }
  if (printRuntimeInclude) {
    outs() << tilec::runtimeIncludeDir() << "\n";
    return 0;
  }
  if (inputFile.empty()) return usage("no input file");
  bool deps = writeDepfile || !depfileName.empty();
  if (deps && depfileName.empty() && outputFile == "-") return usage("-MD with output to standard output needs -MF FILE");
  if (deps && inputFile == "-") return usage("a depfile needs a named input file, not standard input");

  ErrorOr<std::unique_ptr<MemoryBuffer>> input = MemoryBuffer::getFileOrSTDIN(inputFile, /*IsText=*/true);
  if (std::error_code ec = input.getError()) {
    WithColor::error(errs(), "tilec") << "cannot read '" << inputFile << "': " << ec.message() << "\n";
    return 1;
  }

  std::string text;
  raw_string_ostream out(text);
  int status = splitInputFile ? compileSplit(**input, options, out)
                              : compileText((*input)->getBuffer().str(), (*input)->getBufferIdentifier().str(), options, out);
  // The --verify table explains its errors, so it is written with them.
  if (status != 0 && !(verify && status == 1)) return status;

  std::error_code ec;
  ToolOutputFile output(outputFile, ec, sys::fs::OF_Text);
  if (ec) {
    WithColor::error(errs(), "tilec") << "cannot write '" << outputFile << "': " << ec.message() << "\n";
    return 1;
  }
  output.os() << text;
  output.keep();
  if (deps) {
    bool compiled = options.emit == tilec::EmitKind::Asm || options.emit == tilec::EmitKind::Obj ||
                    options.emit == tilec::EmitKind::Verify || options.emit == tilec::EmitKind::Html ||
                    options.emit == tilec::EmitKind::Explore;
    std::string path = depfileName.empty() ? outputFile + ".d" : std::string(depfileName);
    if (!writeDeps(path, depTarget.empty() ? StringRef(outputFile) : StringRef(depTarget), inputFile, compiled))
      return 1;
  }
  return status;
}
