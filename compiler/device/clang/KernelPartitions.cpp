//===- KernelPartitions.cpp - One backend run per kernel, on threads --------===//
#include "KernelPartitions.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace tilec::plugin;

std::vector<std::string> tilec::plugin::kernelsOf(const llvm::Module &module) {
  std::vector<std::string> kernels;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration() && f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL)
      kernels.push_back(f.getName().str());
  return kernels;
}

void tilec::plugin::keepOnlyKernel(llvm::Module &module, llvm::StringRef kernel, bool firstPartition) {
  std::vector<llvm::Function *> others;
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL && f.getName() != kernel)
      others.push_back(&f);
  for (llvm::Function *f : others) {
    if (f->use_empty()) {
      f->eraseFromParent();
    } else { // named in llvm.used or the like: a declaration there
      f->deleteBody();
      f->setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
  }
  if (firstPartition) return;
  for (llvm::GlobalVariable &g : module.globals())
    if (g.hasInitializer() && g.hasExternalLinkage()) {
      g.setInitializer(nullptr);
      g.setComdat(nullptr);
    }
}

namespace {

/// A part's lines, each with its line end.
std::vector<llvm::StringRef> linesOf(llvm::StringRef text) {
  std::vector<llvm::StringRef> lines;
  while (!text.empty()) {
    size_t end = text.find('\n');
    end = end == llvm::StringRef::npos ? text.size() : end + 1;
    lines.push_back(text.substr(0, end));
    text = text.substr(end);
  }
  return lines;
}

/// Where a part's pieces are: its header (before `body`), its functions ([body, tail)), the module tail, and the
/// kernels of its metadata ([kernels, kernelsEnd)).
struct Layout {
  size_t body = 0, tail = 0, kernels = 0, kernelsEnd = 0;
};

bool startsWith(llvm::StringRef line, llvm::StringRef prefix) { return line.rtrim().starts_with(prefix); }

bool layoutOf(const std::vector<llvm::StringRef> &lines, Layout &at) {
  // The header: the target and the code object version, first.
  if (lines.size() < 2 || !startsWith(lines[0], "\t.amdgcn_target ") ||
      !startsWith(lines[1], "\t.amdhsa_code_object_version "))
    return false;
  at.body = 2;
  // The module tail: the maximums over the functions, after the end-of-code padding (.text, .p2alignl, .fill).
  size_t maximums = 0;
  for (size_t i = at.body; i < lines.size() && !maximums; ++i)
    if (startsWith(lines[i], "\t.section\t.AMDGPU.gpr_maximums")) maximums = i;
  if (!maximums) return false;
  at.tail = maximums;
  if (maximums >= 3 && startsWith(lines[maximums - 3], "\t.text") && startsWith(lines[maximums - 2], "\t.p2alignl") &&
      startsWith(lines[maximums - 1], "\t.fill"))
    at.tail = maximums - 3;
  // The metadata's kernel list: the indented lines after `amdhsa.kernels:`.
  for (size_t i = at.tail; i < lines.size() && !at.kernels; ++i)
    if (lines[i].rtrim() == "amdhsa.kernels:") at.kernels = i + 1;
  if (!at.kernels) return false;
  at.kernelsEnd = at.kernels;
  while (at.kernelsEnd < lines.size() && lines[at.kernelsEnd].starts_with(" ")) ++at.kernelsEnd;
  return at.kernelsEnd > at.kernels;
}

void append(std::string &out, const std::vector<llvm::StringRef> &lines, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i) out += lines[i].str();
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// A part's one function is function 0 of its module; in the whole module it is function `number` (every function
/// left after optimization is a kernel, in the module's order): its labels (.LBB0_7, .Lfunc_end0) and the printer's
/// comments naming its blocks (BB0_7) are renamed so. Returns false where the part has labels numbered across the
/// module (.Ltmp) or more than one function, which renaming cannot put right.
bool renumber(std::string &text, size_t number) {
  size_t functions = 0;
  for (size_t at = 0; (at = text.find(",@function", at)) != std::string::npos; ++at) ++functions;
  if (functions != 1 || text.find(".Ltmp") != std::string::npos) return false;
  if (number == 0) return true;
  std::string out, n = std::to_string(number);
  out.reserve(text.size() + text.size() / 16);
  llvm::StringRef rest = text;
  auto wordStart = [&](size_t i) { return i == 0 || !(isalnum(static_cast<unsigned char>(rest[i - 1])) ||
                                                      rest[i - 1] == '_' || rest[i - 1] == '.'); };
  for (size_t i = 0; i < rest.size();) {
    // BB0_, .LBB0_, .LCPI0_, .LJTI0_ and .Lfunc_end0 (whole words).
    llvm::StringRef here = rest.substr(i);
    size_t prefix = 0;
    for (llvm::StringRef p : {".LBB", ".LCPI", ".LJTI", "BB"})
      if (here.starts_with(p) && (p[0] == '.' || wordStart(i)) && here.substr(p.size()).starts_with("0_")) {
        prefix = p.size();
        break;
      }
    if (!prefix && here.starts_with(".Lfunc_end0") && (here.size() == 11 || !isDigit(here[11]))) prefix = 10;
    if (prefix) {
      out += here.substr(0, prefix).str() + n;
      i += prefix + 1;
      continue;
    }
    out += rest[i++];
  }
  text = std::move(out);
  return true;
}

} // namespace

bool tilec::plugin::mergeAssembly(std::vector<std::string> &parts, std::string &merged) {
  std::vector<std::vector<llvm::StringRef>> lines;
  std::vector<Layout> layouts(parts.size());
  for (size_t p = 0; p < parts.size(); ++p)
    if (!renumber(parts[p], p)) return false;
  for (size_t p = 0; p < parts.size(); ++p) {
    lines.push_back(linesOf(parts[p]));
    if (!layoutOf(lines[p], layouts[p])) return false;
  }
  std::string out;
  const Layout &first = layouts[0];
  append(out, lines[0], 0, first.tail);
  for (size_t p = 1; p < parts.size(); ++p) append(out, lines[p], layouts[p].body, layouts[p].tail);
  append(out, lines[0], first.tail, first.kernelsEnd);
  for (size_t p = 1; p < parts.size(); ++p) append(out, lines[p], layouts[p].kernels, layouts[p].kernelsEnd);
  append(out, lines[0], first.kernelsEnd, lines[0].size());
  merged = std::move(out);
  return true;
}

bool tilec::plugin::assembleObject(llvm::StringRef assembly, llvm::StringRef processor, std::string &object,
                                   std::string &messages) {
  llvm::Triple triple("amdgcn-amd-amdhsa");
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    messages += "tilec: " + error + "\n";
    return false;
  }
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> registers(target->createMCRegInfo(triple));
  std::unique_ptr<llvm::MCAsmInfo> asmInfo(target->createMCAsmInfo(*registers, triple, options));
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(target->createMCSubtargetInfo(triple, processor, ""));
  std::unique_ptr<llvm::MCInstrInfo> instrInfo(target->createMCInstrInfo());

  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(assembly, "tilec-kernels.s", false), llvm::SMLoc());
  std::string parseMessages;
  llvm::raw_string_ostream parseStream(parseMessages);
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *stream) { d.print("tilec", *static_cast<llvm::raw_ostream *>(stream)); },
      &parseStream);
  llvm::MCContext context(triple, asmInfo.get(), registers.get(), subtarget.get(), &sources, &options);
  std::unique_ptr<llvm::MCObjectFileInfo> objectInfo(target->createMCObjectFileInfo(context, /*PIC=*/true));
  context.setObjectFileInfo(objectInfo.get());

  llvm::SmallString<0> bytes;
  llvm::raw_svector_ostream bytesStream(bytes);
  std::unique_ptr<llvm::MCAsmBackend> backend(target->createMCAsmBackend(*subtarget, *registers, options));
  std::unique_ptr<llvm::MCObjectWriter> writer = backend->createObjectWriter(bytesStream);
  std::unique_ptr<llvm::MCCodeEmitter> emitter(target->createMCCodeEmitter(*instrInfo, context));
  std::unique_ptr<llvm::MCStreamer> streamer(target->createMCObjectStreamer(
      triple, context, std::move(backend), std::move(writer), std::move(emitter), *subtarget));
  streamer->initSections(/*NoExecStack=*/false, *subtarget);
  std::unique_ptr<llvm::MCAsmParser> parser(llvm::createMCAsmParser(sources, context, *streamer, *asmInfo));
  std::unique_ptr<llvm::MCTargetAsmParser> targetParser(
      target->createMCAsmParser(*subtarget, *parser, *instrInfo, options));
  parser->setTargetParser(*targetParser);
  bool failed = parser->Run(/*NoInitialTextSection=*/false);
  parseStream.flush();
  messages += parseMessages;
  if (failed) return false;
  object.assign(bytes.data(), bytes.size());
  return true;
}
