//===- LoopEstimate.cpp - What a GEMM's K loop is worth, statically ---------===//
#include "device/LoopEstimate.h"

#include "llvm/Support/Casting.h"
#include "target/MFMA.h"

using namespace tilec;

namespace {

/// The flops and the global bytes of one iteration of the K loop (the loop holding an mma), for the workgroup.
bool kLoopWork(const ir::Body &body, double &flops, double &bytes) {
  for (const ir::StmtPtr &s : body) {
    auto *loop = llvm::dyn_cast<ir::For>(s.get());
    if (!loop) continue;
    double f = 0, b = 0;
    for (const ir::StmtPtr &inner : loop->body) {
      if (auto *m = llvm::dyn_cast<ir::MMA>(inner.get())) f += 2.0 * m->acc->rows * m->acc->cols * m->k;
      if (auto *a = llvm::dyn_cast<ir::Assign>(inner.get()); a && a->value->kind == ir::Value::Kind::Load)
        b += static_cast<double>(a->dst->rows()) * a->dst->cols() * sizeOf(a->dst->dtype);
    }
    if (f > 0) {
      flops = f;
      bytes = b;
      return true;
    }
    if (kLoopWork(loop->body, flops, bytes)) return true;
  }
  return false;
}

} // namespace

std::optional<LoopEstimate> tilec::estimateLoop(const ir::Kernel &kernel, const Target &target, const MFMALoop &loop,
                                                double cyclesPerIteration) {
  LoopEstimate e;
  if (!kLoopWork(kernel.body, e.workgroupFlopsPerIteration, e.workgroupBytesPerIteration)) return std::nullopt;
  e.cyclesPerIteration = cyclesPerIteration;
  double clocksPerSecond = target.peakClockMHz * 1e6;
  double peakFlopsPerClockPerSimd = 0;
  for (auto &[mnemonic, count] : loop.mfmas) {
    const MFMAInstr *instr = lookupMFMA(mnemonic);
    if (!instr) {
      e.unknownMFMA = mnemonic;
      return e;
    }
    e.mfmaPasses += count * instr->cycles / 4;
    e.flopsPerWaveIteration += count * 2.0 * instr->macs();
    peakFlopsPerClockPerSimd = std::max(peakFlopsPerClockPerSimd, 2.0 * instr->macs() / instr->cycles);
  }
  e.busy = cyclesPerIteration > 0 ? e.mfmaPasses / cyclesPerIteration : 0;
  double simds = static_cast<double>(target.simdsPerCU) * target.computeUnits;
  e.peakTflops = peakFlopsPerClockPerSimd * simds * clocksPerSecond / 1e12;
  // One wave per SIMD: its loop's flops every cyclesPerIteration x 4 clocks.
  e.mfmaBoundTflops = e.flopsPerWaveIteration / (cyclesPerIteration * 4) * simds * clocksPerSecond / 1e12;
  e.intensity = e.workgroupBytesPerIteration > 0 ? e.workgroupFlopsPerIteration / e.workgroupBytesPerIteration : 0;
  e.memoryBoundTflops = e.intensity * target.hbmGBPerSecond * 1e9 / 1e12;
  bool memoryBound = e.memoryBoundTflops > 0 && e.memoryBoundTflops < e.mfmaBoundTflops;
  e.estimateTflops = memoryBound ? e.memoryBoundTflops : e.mfmaBoundTflops;
  e.bound = memoryBound ? "global memory" : "MFMA issue";
  return e;
}
