//===- LoopCyclesMCA.cpp - A loop body through LLVM's MCA, in the plugin -----===//
//
// The engine behind `llvm-mca`: the body is parsed with the AMDGPU assembly parser into MCInsts, lowered to MCA
// instructions, and run through MCA's default pipeline for the processor's scheduling model (with AMDGPU's custom
// behaviour for s_waitcnt) for a number of iterations. The total cycle count is what `llvm-mca -iterations=N`
// prints as "Total Cycles"; on request, the cycles at which each instruction of one iteration was dispatched, issued,
// executed and retired (what llvm-mca's -timeline view draws). Part of tilec-clang.so: it needs the shared libLLVM, not Clang.
//
//===----------------------------------------------------------------------===//
#include "DeviceCompilerABI.h"

#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/MCA/Context.h"
#include "llvm/MCA/HWEventListener.h"
#include "llvm/MCA/CustomBehaviour.h"
#include "llvm/MCA/InstrBuilder.h"
#include "llvm/MCA/Pipeline.h"
#include "llvm/MCA/SourceMgr.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <mutex>
#include <optional>
#include <vector>

extern "C" void LLVMInitializeAMDGPUAsmParser();
extern "C" void LLVMInitializeAMDGPUTargetMCA();

namespace {

/// Keeps the instructions the parser emits and ignores everything else.
class InstructionCollector : public llvm::MCStreamer {
public:
  InstructionCollector(llvm::MCContext &context, std::vector<llvm::MCInst> &out) : MCStreamer(context), out(out) {}
  void emitInstruction(const llvm::MCInst &inst, const llvm::MCSubtargetInfo &) override { out.push_back(inst); }
  bool emitSymbolAttribute(llvm::MCSymbol *, llvm::MCSymbolAttr) override { return true; }
  void emitCommonSymbol(llvm::MCSymbol *, uint64_t, llvm::Align) override {}
  void emitZerofill(llvm::MCSection *, llvm::MCSymbol *, uint64_t, llvm::Align, llvm::SMLoc) override {}

private:
  std::vector<llvm::MCInst> &out;
};

/// Records, for the instructions of one iteration, the cycle of each pipeline event (the timeline view's data).
class TimelineRecorder : public llvm::mca::HWEventListener {
public:
  TimelineRecorder(unsigned bodySize, unsigned iteration) : bodySize(bodySize), iteration(iteration), times(bodySize) {}
  void onCycleEnd() override { ++cycle; }
  void onEvent(const llvm::mca::HWInstructionEvent &event) override {
    unsigned index = event.IR.getSourceIndex();
    if (index / bodySize != iteration) return;
    tilec_loop_timeline_entry &t = times[index % bodySize];
    switch (event.Type) {
    case llvm::mca::HWInstructionEvent::Dispatched: t.dispatched = cycle; break;
    case llvm::mca::HWInstructionEvent::Issued: t.issued = cycle; break;
    case llvm::mca::HWInstructionEvent::Executed: t.executed = cycle; break;
    case llvm::mca::HWInstructionEvent::Retired: t.retired = cycle; break;
    default: break;
    }
  }
  /// The times relative to the iteration's first dispatch.
  std::vector<tilec_loop_timeline_entry> relative() const {
    unsigned first = ~0u;
    for (const tilec_loop_timeline_entry &t : times) first = std::min(first, t.dispatched);
    std::vector<tilec_loop_timeline_entry> out = times;
    for (tilec_loop_timeline_entry &t : out)
      t = {t.dispatched - first, t.issued - first, t.executed - first, t.retired - first};
    return out;
  }

private:
  unsigned bodySize, iteration, cycle = 0;
  std::vector<tilec_loop_timeline_entry> times;
};

int cycles(const tilec_loop_request &request, unsigned &instructions, unsigned long &total, std::string &message,
           std::vector<tilec_loop_timeline_entry> &timeline) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmParser();
    LLVMInitializeAMDGPUTargetMCA();
  });
  llvm::Triple triple("amdgcn-amd-amdhsa");
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    message = error;
    return 1;
  }
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> registers(target->createMCRegInfo(triple));
  std::unique_ptr<llvm::MCAsmInfo> asmInfo(target->createMCAsmInfo(*registers, triple, options));
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(target->createMCSubtargetInfo(triple, request.processor, ""));
  std::unique_ptr<llvm::MCInstrInfo> instrInfo(target->createMCInstrInfo());
  std::unique_ptr<llvm::MCInstrAnalysis> analysis(target->createMCInstrAnalysis(instrInfo.get()));
  if (!registers || !asmInfo || !subtarget || !instrInfo || !subtarget->getSchedModel().hasInstrSchedModel()) {
    message = std::string("no scheduling model for ") + request.processor;
    return 1;
  }

  // Parse the body.
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(request.instructions, request.size), "loop"), llvm::SMLoc());
  std::string parseErrors;
  llvm::raw_string_ostream parseErrorStream(parseErrors);
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *stream) { d.print("mca", *static_cast<llvm::raw_ostream *>(stream)); },
      &parseErrorStream);
  llvm::MCContext context(triple, asmInfo.get(), registers.get(), subtarget.get(), &sources);
  std::unique_ptr<llvm::MCObjectFileInfo> objectInfo(target->createMCObjectFileInfo(context, /*PIC=*/false));
  context.setObjectFileInfo(objectInfo.get());
  std::vector<llvm::MCInst> insts;
  InstructionCollector collector(context, insts);
  std::unique_ptr<llvm::MCAsmParser> parser(llvm::createMCAsmParser(sources, context, collector, *asmInfo));
  std::unique_ptr<llvm::MCTargetAsmParser> targetParser(
      target->createMCAsmParser(*subtarget, *parser, *instrInfo, options));
  parser->setTargetParser(*targetParser);
  if (parser->Run(/*NoInitialTextSection=*/false) || insts.empty()) {
    parseErrorStream.flush();
    message = "the loop body could not be parsed: " + parseErrors;
    return 1;
  }

  // Lower to MCA instructions and run the default pipeline.
  std::unique_ptr<llvm::mca::InstrumentManager> instruments(target->createInstrumentManager(*subtarget, *instrInfo));
  if (!instruments) instruments = std::make_unique<llvm::mca::InstrumentManager>(*subtarget, *instrInfo);
  llvm::mca::InstrBuilder builder(*subtarget, *instrInfo, *registers, analysis.get(), *instruments,
                                  /*CallLatency=*/100);
  // AMDGPU's post-processing keeps each instruction's operands, which its custom behaviour (s_waitcnt) reads.
  std::unique_ptr<llvm::mca::InstrPostProcess> postProcess(target->createInstrPostProcess(*subtarget, *instrInfo));
  if (!postProcess) postProcess = std::make_unique<llvm::mca::InstrPostProcess>(*subtarget, *instrInfo);
  std::vector<std::unique_ptr<llvm::mca::Instruction>> lowered;
  llvm::SmallVector<llvm::mca::Instrument *> none;
  for (const llvm::MCInst &inst : insts) {
    llvm::Expected<std::unique_ptr<llvm::mca::Instruction>> made = builder.createInstruction(inst, none);
    if (!made) {
      message = "MCA cannot model an instruction: " + llvm::toString(made.takeError());
      return 1;
    }
    postProcess->postProcessInstruction(**made, inst);
    lowered.push_back(std::move(*made));
  }
  llvm::mca::CircularSourceMgr source(lowered, request.iterations);
  std::unique_ptr<llvm::mca::CustomBehaviour> behaviour(target->createCustomBehaviour(*subtarget, source, *instrInfo));
  if (!behaviour) behaviour = std::make_unique<llvm::mca::CustomBehaviour>(*subtarget, source, *instrInfo);
  llvm::mca::Context mca(*registers, *subtarget);
  llvm::mca::PipelineOptions pipelineOptions(0, 0, 0, 0, 0, 0, /*NoAlias=*/true);
  std::unique_ptr<llvm::mca::Pipeline> pipeline = mca.createDefaultPipeline(pipelineOptions, source, *behaviour);
  std::optional<TimelineRecorder> recorder;
  if (request.timelineIteration < request.iterations) {
    recorder.emplace(lowered.size(), request.timelineIteration);
    pipeline->addEventListener(&*recorder);
  }
  llvm::Expected<unsigned> cyclesRun = pipeline->run();
  if (!cyclesRun) {
    message = "MCA failed: " + llvm::toString(cyclesRun.takeError());
    return 1;
  }
  instructions = insts.size();
  total = *cyclesRun;
  if (recorder) timeline = recorder->relative();
  return 0;
}

} // namespace

extern "C" __attribute__((visibility("default"))) void tilec_loop_cycles(const tilec_loop_request *request,
                                                                         tilec_loop_result *result) {
  std::string message;
  result->instructions = 0;
  result->totalCycles = 0;
  std::vector<tilec_loop_timeline_entry> timeline;
  result->status = cycles(*request, result->instructions, result->totalCycles, message, timeline);
  result->message = static_cast<char *>(std::malloc(message.size() + 1));
  std::memcpy(result->message, message.c_str(), message.size() + 1);
  result->timeline = nullptr;
  if (!timeline.empty()) {
    result->timeline = static_cast<tilec_loop_timeline_entry *>(std::malloc(timeline.size() * sizeof timeline[0]));
    std::memcpy(result->timeline, timeline.data(), timeline.size() * sizeof timeline[0]);
  }
}
