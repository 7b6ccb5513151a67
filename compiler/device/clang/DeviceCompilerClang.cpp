//===- DeviceCompilerClang.cpp - The tilec-clang plugin: HIP to AMDGPU code ===//
//
// The only tilec file that includes Clang headers. It builds the device-side cc1 job of
// `clang++ -x hip --offload-arch=P --cuda-device-only -nogpulib -nogpuinc -O3 -Wall -Wextra` with Clang's driver
// over a virtual file system (the source and a <hip/hip_runtime.h> that includes tilec/hip_minimal.h live in
// memory), runs it with a CompilerInstance whose output stream is a string, and hands back the assembly or object
// and clang's messages. Built as a module (tilec-clang.so) and loaded by DeviceCompiler.cpp.
//
//===----------------------------------------------------------------------===//
#include "DeviceCompilerABI.h"
#include "KernelPartitions.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/BackendUtil.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"
#include "clang/Driver/Tool.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/TargetParser.h"
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <mutex>
#include <thread>

#ifdef TILEC_WITH_LLD
#include "lld/Common/Driver.h"
LLD_HAS_DRIVER(elf)
#endif

extern "C" void LLVMInitializeAMDGPUAsmParser();

namespace {

constexpr const char *kMemoryRoot = "/tilec-in-memory/";

char *copyString(llvm::StringRef s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  std::memcpy(p, s.data(), s.size());
  p[s.size()] = '\0';
  return p;
}

/// clang names the in-memory source by its virtual path; users know it by its file name.
std::string stripMemoryRoot(std::string text) {
  for (size_t pos; (pos = text.find(kMemoryRoot)) != std::string::npos;) text.erase(pos, std::strlen(kMemoryRoot));
  return text;
}

void initializeAMDGPU() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser(); // assembling the parts of a kernel-by-kernel compile
  });
}

/// Links a relocatable AMDGPU object into a code object (.hsaco) with lld's ELF linker, as clang's HIP driver does
/// (`ld.lld -shared --no-undefined`). lld reads and writes files, so the object goes through a temporary directory.
bool linkCodeObject(std::string &object, std::string &messages) {
#ifndef TILEC_WITH_LLD
  messages += "tilec: this tilec-clang was built without lld (liblld-22-dev); --emit=obj gives the relocatable object\n";
  return true;
#else
  // lld keeps global state between links; one at a time.
  static std::mutex oneAtATime;
  std::lock_guard<std::mutex> lock(oneAtATime);
  llvm::SmallString<128> input, output;
  if (llvm::sys::fs::createTemporaryFile("tilec-device", "o", input) ||
      llvm::sys::fs::createTemporaryFile("tilec-device", "hsaco", output)) {
    messages += "tilec: cannot create a temporary file for lld\n";
    return false;
  }
  bool ok = false;
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(input, ec);
    file << object;
  }
  std::string linkMessages;
  llvm::raw_string_ostream linkStream(linkMessages);
  const char *args[] = {"ld.lld", "-shared", "--no-undefined", input.c_str(), "-o", output.c_str()};
  lld::Result result = lld::lldMain(args, linkStream, linkStream, {{lld::Gnu, &lld::elf::link}});
  if (result.retCode == 0) {
    if (auto linked = llvm::MemoryBuffer::getFile(output, /*IsText=*/false)) {
      object = (*linked)->getBuffer().str();
      ok = true;
    }
  }
  linkStream.flush();
  messages += linkMessages;
  llvm::sys::fs::remove(input);
  llvm::sys::fs::remove(output);
  return ok;
#endif
}

/// One kernel's backend run (KernelPartitions.h): its assembly, LLVM's messages about it, whether it succeeded.
struct Part {
  std::string assembly, messages;
  bool ok = true;
};

/// LLVM's messages from a part's context (errors and warnings; remarks are not asked for).
void collectMessage(const llvm::DiagnosticInfo *info, void *context) {
  Part &part = *static_cast<Part *>(context);
  const char *kind = nullptr;
  switch (info->getSeverity()) {
  case llvm::DS_Error: kind = "error: "; part.ok = false; break;
  case llvm::DS_Warning: kind = "warning: "; break;
  default: return;
  }
  llvm::raw_string_ostream stream(part.messages);
  llvm::DiagnosticPrinterRawOStream printer(stream);
  stream << kind;
  info->print(printer);
  stream << "\n";
}

/// The optimizer and code generation of `kernel` alone, in a context of its own, from the front end's bitcode.
void compilePart(clang::CompilerInstance &instance, llvm::StringRef bitcode, llvm::StringRef kernel, bool first,
                 Part &part) {
  llvm::LLVMContext context;
  context.setDiagnosticHandlerCallBack(collectMessage, &part);
  context.setDiscardValueNames(instance.getCodeGenOpts().DiscardValueNames); // as clang's own context
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "tilec-kernels"), context);
  if (!module) {
    part.messages += "tilec: " + llvm::toString(module.takeError()) + "\n";
    part.ok = false;
    return;
  }
  tilec::plugin::keepOnlyKernel(**module, kernel, first);
  clang::CodeGenOptions options = instance.getCodeGenOpts();
  llvm::SmallString<0> text;
  clang::emitBackendOutput(instance, options, instance.getTarget().getDataLayoutString(), module->get(),
                           clang::Backend_EmitAssembly, instance.getVirtualFileSystemPtr(),
                           std::make_unique<llvm::raw_svector_ostream>(text));
  part.assembly.assign(text.data(), text.size());
}

/// The module's kernels compiled apart, `threads` at a time, and put back together (KernelPartitions.h). Returns
/// false, having set nothing, where that does not apply (one kernel, or parts not laid out as expected): the caller
/// then compiles the module whole. Otherwise `ok` says whether every part compiled (and, for an object, assembled).
bool compileKernelsApart(clang::CompilerInstance &instance, llvm::Module &module, const tilec_device_request &request,
                         unsigned threads, bool &ok, std::string &output, std::string &messages) {
  std::vector<std::string> kernels = tilec::plugin::kernelsOf(module);
  if (kernels.size() < 2) return false;
  llvm::SmallString<0> bitcode;
  {
    llvm::raw_svector_ostream stream(bitcode);
    llvm::WriteBitcodeToFile(module, stream);
  }
  std::vector<Part> parts(kernels.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < kernels.size();) compilePart(instance, bitcode, kernels[i], i == 0, parts[i]);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::min<size_t>(threads, kernels.size()); ++t) pool.emplace_back(worker);
  worker();
  for (std::thread &t : pool) t.join();

  bool partsOk = true;
  std::vector<std::string> assembly;
  for (Part &part : parts) {
    partsOk &= part.ok;
    assembly.push_back(std::move(part.assembly));
  }
  std::string merged;
  if (partsOk && !tilec::plugin::mergeAssembly(assembly, merged)) return false;
  for (const Part &part : parts) messages += part.messages;
  ok = partsOk;
  if (ok && request.object) ok = tilec::plugin::assembleObject(merged, request.processor, output, messages);
  else output = std::move(merged);
  return true;
}

/// The optimizer and code generation of the front end's whole module in one run, where it is not compiled a kernel at
/// a time (one kernel, or parts that could not be put back together): the backend run of clang's EmitAssemblyAction
/// or EmitObjAction, without running the front end a second time.
void compileWhole(clang::CompilerInstance &instance, llvm::Module &module, const tilec_device_request &request,
                  bool &ok, std::string &output, std::string &messages) {
  Part part;
  module.getContext().setDiagnosticHandlerCallBack(collectMessage, &part);
  llvm::SmallString<0> bytes;
  clang::emitBackendOutput(instance, instance.getCodeGenOpts(), instance.getTarget().getDataLayoutString(), &module,
                           request.object ? clang::Backend_EmitObj : clang::Backend_EmitAssembly,
                           instance.getVirtualFileSystemPtr(), std::make_unique<llvm::raw_svector_ostream>(bytes));
  messages += part.messages;
  ok = part.ok;
  output.assign(bytes.data(), bytes.size());
}

int compile(const tilec_device_request &request, std::string &output, std::string &messages) {
  if (llvm::AMDGPU::parseArchAMDGCN(request.processor) == llvm::AMDGPU::GK_NONE) {
    messages = std::string("this tilec was built against LLVM ") + LLVM_VERSION_STRING + ", which cannot compile for " +
               request.processor + "; the model's figures stand alone";
    return 2;
  }
  initializeAMDGPU();
  llvm::raw_string_ostream messageStream(messages);
  // Since Clang 21 the engine and the printer refer to options their caller owns.
  clang::DiagnosticOptions diagOptions;
  diagOptions.ShowColors = false;
  diagOptions.ShowPresumedLoc = true; // #line directives name the .tile line (LineMap.h)
  clang::TextDiagnosticPrinter printer(messageStream, diagOptions);
  clang::DiagnosticsEngine diags(clang::DiagnosticIDs::create(), diagOptions, &printer, /*ShouldOwnClient=*/false);

  // The source and the HIP header stand-in live in memory, over the real file system (tilec/runtime.h, the C++
  // library headers, clang's resource directory).
  auto files = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  files->pushOverlay(memory);
  std::string input = std::string(kMemoryRoot) + request.fileName;
  std::string prelude = std::string(kMemoryRoot) + "prelude";
  memory->addFile(input, 0, llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(request.source, request.sourceSize)));
  memory->addFile(prelude + "/hip/hip_runtime.h", 0,
                  llvm::MemoryBuffer::getMemBuffer("#include \"tilec/hip_minimal.h\"\n"));

  std::string arch = std::string("--offload-arch=") + request.processor;
  std::vector<const char *> args = {request.clangExecutable, "-x", "hip", arch.c_str(), "--cuda-device-only",
                                    "-nogpulib", "-nogpuinc", "-O3", "-Wall", "-Wextra",
                                    request.object ? "-c" : "-S", "-I", prelude.c_str(), "-I",
                                    request.runtimeInclude, input.c_str(), "-o", "/dev/null"};
  clang::driver::Driver driver(request.clangExecutable, llvm::sys::getDefaultTargetTriple(), diags, "tilec", files);
  std::unique_ptr<clang::driver::Compilation> compilation(driver.BuildCompilation(args));
  // The compile job (for -c the driver adds a link into a code object after it; tilec returns the object the
  // compile job makes).
  const clang::driver::Command *cc1 = nullptr;
  if (compilation)
    for (const clang::driver::Command &job : compilation->getJobs())
      if (!cc1 && !job.getCreator().isLinkJob()) cc1 = &job;
  if (!cc1 || diags.hasErrorOccurred()) {
    messageStream << "tilec: the clang driver made no device compilation job\n";
    messages = stripMemoryRoot(messages);
    return 1;
  }

  auto invocation = std::make_shared<clang::CompilerInvocation>();
  clang::CompilerInvocation::CreateFromArgs(*invocation, cc1->getArguments(), diags, request.clangExecutable);
  // The driver asks cc1 to leave its memory to the process's exit (-disable-free); tilec lives on, so free it: the
  // front end's, and code generation's (with it clang buries each compile's TargetMachine, about 4 MB on gfx942).
  invocation->getFrontendOpts().DisableFree = false;
  invocation->getCodeGenOpts().DisableFree = false;
  clang::CompilerInstance instance(invocation);
  instance.setVirtualFileSystem(files);
  instance.createDiagnostics(&printer, /*ShouldOwnClient=*/false);
  instance.createFileManager();
  // "N warnings generated" goes with the messages, not to the process's stderr.
  instance.setVerboseOutputStream(messageStream);
  unsigned threads = request.threads ? request.threads : llvm::hardware_concurrency().compute_thread_count();
  bool ok = false, done = false;
  if (threads > 1) {
    // The front end alone (clang's -disable-llvm-passes), then the optimizer and code generation per kernel.
    invocation->getCodeGenOpts().DisableLLVMPasses = true;
    clang::EmitLLVMOnlyAction frontEnd;
    ok = instance.ExecuteAction(frontEnd) && !instance.getDiagnostics().hasErrorOccurred();
    invocation->getCodeGenOpts().DisableLLVMPasses = false;
    std::unique_ptr<llvm::Module> module = ok ? frontEnd.takeModule() : nullptr;
    done = true;
    if (module) {
      messageStream.flush();
      if (!compileKernelsApart(instance, *module, request, threads, ok, output, messages))
        compileWhole(instance, *module, request, ok, output, messages);
    }
  }
  if (!done) { // one backend run for the whole module, as clang does it
    llvm::SmallString<0> bytes;
    instance.setOutputStream(std::make_unique<llvm::raw_svector_ostream>(bytes));
    std::unique_ptr<clang::CodeGenAction> action;
    if (request.object) action = std::make_unique<clang::EmitObjAction>();
    else action = std::make_unique<clang::EmitAssemblyAction>();
    ok = instance.ExecuteAction(*action) && !instance.getDiagnostics().hasErrorOccurred();
    output.assign(bytes.data(), bytes.size());
  }
  messageStream.flush();
  messages = stripMemoryRoot(messages);
  if (ok && request.object) ok = linkCodeObject(output, messages);
  return ok ? 0 : 1;
}

} // namespace

extern "C" __attribute__((visibility("default"))) void tilec_device_compile(const tilec_device_request *request,
                                                                            tilec_device_result *result) {
  std::string output, messages;
  result->status = compile(*request, output, messages);
  result->output = copyString(output);
  result->outputSize = output.size();
  result->diagnostics = copyString(messages);
  result->llvmVersion = LLVM_VERSION_STRING;
}

extern "C" __attribute__((visibility("default"))) void tilec_device_free(tilec_device_result *result) {
  std::free(result->output);
  std::free(result->diagnostics);
  result->output = result->diagnostics = nullptr;
}
