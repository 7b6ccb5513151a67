//===- HtmlReport.cpp - The page: heading, kernels, sections ----------------===//
#include "driver/HtmlReport.h"

#include "codegen/HIPEmitter.h"
#include "device/DeviceCompiler.h"
#include "driver/HtmlSections.h"
#include "driver/HtmlWriter.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace tilec;
using llvm::formatv;

namespace {

/// The module's HIP compiled in process, as --verify compiles it, or why not.
html::CompiledModule compileModule(const ir::Module &module, llvm::StringRef fileName, unsigned deviceThreads) {
  std::string hip;
  llvm::raw_string_ostream hipStream(hip);
  emitHIP(module, fileName, hipStream);
  hipStream.flush();
  DeviceCode code;
  html::CompiledModule out;
  std::string hipName = (llvm::sys::path::stem(fileName) + ".hip").str();
  switch (compileDeviceCode(hip, hipName, module.target->name, DeviceOutput::Assembly, code, deviceThreads)) {
  case DeviceStatus::OK:
    out.ok = true;
    out.assembly = std::move(code.text);
    out.llvmVersion = code.llvmVersion;
    break;
  case DeviceStatus::Unavailable: out.why = "it is not available: " + code.diagnostics; break;
  case DeviceStatus::Unsupported: out.why = "it cannot compile for this target: " + code.diagnostics; break;
  case DeviceStatus::CompileError:
    out.why = "it rejected the emitted HIP (a tilec bug; tilec --verify shows clang's messages)";
    break;
  }
  return out;
}

void writeKernelHeading(const ir::Kernel &k, const Target &t, llvm::raw_ostream &os) {
  os << formatv("<section class=\"kernel\" id=\"kernel-{0}\">\n<h2>kernel {0}</h2>\n", html::escape(k.name));
  os << formatv("<p>Workgroup of {0} threads = {1} waves of {2} lanes; {3} register tile{4}, {5} LDS buffer{6}, {7} "
                "accumulator{8}.</p>\n",
                k.workgroupSize, k.waves(t), t.waveSize, k.tiles.size(), k.tiles.size() == 1 ? "" : "s",
                k.ldsBuffers.size(), k.ldsBuffers.size() == 1 ? "" : "s", k.accs.size(), k.accs.size() == 1 ? "" : "s");
}

} // namespace

void tilec::printHtmlReport(const ir::Module &module, llvm::StringRef fileName, unsigned deviceThreads,
                            llvm::raw_ostream &os) {
  const Target &t = *module.target;
  html::CompiledModule compiled = compileModule(module, fileName, deviceThreads);
  std::vector<CompiledKernel> infos = compiled.ok ? readKernelInfo(compiled.assembly) : std::vector<CompiledKernel>();
  std::string title = formatv("tilec report: {0} for {1} ({2}, {3})", fileName, t.name, t.product, t.family).str();
  html::writePageHead(os, title);
  os << "<header>\n<h1>" << html::escape(title) << "</h1>\n<p class=\"note\">";
  if (compiled.ok)
    os << formatv("The compiler's figures: LLVM {0}'s AMDGPU backend, compiled in process.", compiled.llvmVersion);
  else
    os << "The compiler's figures and the loop of MFMAs are absent: this needs the device compiler in the process, and "
       << html::escape(compiled.why) << ".";
  os << " Hover a cell for its lane and registers; every picture has the same text in its cells' titles.</p>\n<nav>";
  for (const auto &k : module.kernels) os << formatv("<a href=\"#kernel-{0}\">{0}</a>", html::escape(k->name));
  os << "</nav>\n</header>\n";
  for (const auto &k : module.kernels) {
    const CompiledKernel *info = nullptr;
    for (const CompiledKernel &c : infos)
      if (c.name == k->name) info = &c;
    writeKernelHeading(*k, t, os);
    html::writeTileMaps(*k, t, os);
    html::writeMFMALayouts(*k, t, os);
    html::writeLds(*k, t, os);
    html::writeResources(*k, t, info, os);
    html::writeLoop(*k, t, compiled, info, os);
    os << "</section>\n";
  }
  html::writePageEnd(os);
}
