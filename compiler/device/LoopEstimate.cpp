//===- LoopEstimate.cpp - What a GEMM's K loop is worth, statically ---------===//
#include "device/LoopEstimate.h"

#include "analysis/LDSBanks.h"
#include "llvm/Support/Casting.h"
#include "target/MFMA.h"
#include <optional>

using namespace tilec;

namespace {

/// The flops and the global bytes of one iteration of the K loop (the loop holding an mma), for the workgroup.
bool kLoopWork(const ir::Body &body, double &flops, double &bytes) {
  for (const ir::StmtPtr &s : body) {
    auto *loop = llvm::dyn_cast<ir::For>(s.get());
    if (!loop) continue;
    double f = 0, b = 0;
    for (const ir::StmtPtr &inner : loop->body) {
      // k counts the columns of the LDS operands; a packed MX element (fp4x2, fp6x4) holds several K values.
      if (auto *m = llvm::dyn_cast<ir::MMA>(inner.get()))
        f += 2.0 * m->acc->rows * m->acc->cols * m->k * info(m->a->dtype).values;
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
  e.mcaCyclesPerIteration = cyclesPerIteration;
  double clocksPerSecond = target.peakClockMHz * 1e6;
  double peakFlopsPerClockPerSimd = 0;
  for (const MFMAUse &use : loop.mfmas) {
    // Passes and multiply-adds of one instruction; a scaled f8f6f4 form's passes follow its operand formats
    // (scaledCycles: twice as many with an fp8 or bf8 operand), which llvm-mca does not model.
    unsigned cycles = 0;
    double macs = 0;
    if (const MFMAInstr *instr = lookupMFMA(use.mnemonic)) {
      cycles = instr->cycles;
      macs = instr->macs();
    } else if (const ScaledMFMAInstr *scaled = lookupScaledMFMA(use.mnemonic)) {
      auto format = [](unsigned code) -> std::optional<MXFormat> {
        for (const MXFormatInfo &f : allMXFormats())
          if (f.code == code) return f.format;
        return std::nullopt;
      };
      std::optional<MXFormat> a = format(use.cbsz), b = format(use.blgp);
      if (!a || !b) {
        e.unknownMFMA = use.mnemonic + " with format codes cbsz " + std::to_string(use.cbsz) + ", blgp " +
                        std::to_string(use.blgp);
        return e;
      }
      cycles = scaledCycles(*scaled, *a, *b);
      macs = static_cast<double>(scaled->m) * scaled->n * scaled->k;
      if (*a == MXFormat::FP8 || *a == MXFormat::BF8 || *b == MXFormat::FP8 || *b == MXFormat::BF8)
        e.passesMCAMisses += use.count * cycles / 8; // llvm-mca charges the fp4/fp6 figure, half of these
    } else {
      e.unknownMFMA = use.mnemonic;
      return e;
    }
    e.mfmaPasses += use.count * cycles / 4;
    e.flopsPerWaveIteration += use.count * 2.0 * macs;
    peakFlopsPerClockPerSimd = std::max(peakFlopsPerClockPerSimd, 2.0 * macs / cycles);
  }
  for (const std::string &ins : loop.instructions) {
    llvm::StringRef m = llvm::StringRef(ins).ltrim().split(' ').first.split('\t').first;
    if (!m.starts_with("v_") || m.starts_with("v_mfma")) continue;
    unsigned passes = Target::valuPasses(m);
    ++e.valuInstructions;
    e.transcendentals += passes > 1;
    e.valuPasses += passes;
  }
  // The passes llvm-mca missed hold the MFMA pipe too: the loop takes at least as long as its true passes.
  cyclesPerIteration = std::max(cyclesPerIteration, static_cast<double>(e.mfmaPasses));
  e.cyclesPerIteration = cyclesPerIteration;
  e.busy = cyclesPerIteration > 0 ? e.mfmaPasses / cyclesPerIteration : 0;
  double simds = static_cast<double>(target.simdsPerCU) * target.computeUnits;
  e.peakTflops = peakFlopsPerClockPerSimd * simds * clocksPerSecond / 1e12;
  // One wave per SIMD: its loop's flops every cyclesPerIteration x 4 clocks (Target::clocksPerIssueCycle).
  e.mfmaBoundTflops = e.flopsPerWaveIteration / (cyclesPerIteration * target.clocksPerIssueCycle) * simds * clocksPerSecond / 1e12;
  e.intensity = e.workgroupBytesPerIteration > 0 ? e.workgroupFlopsPerIteration / e.workgroupBytesPerIteration : 0;
  e.memoryBoundTflops = e.intensity * target.hbmGBPerSecond * 1e9 / 1e12;
  // The LDS of a CU serves one phase of one instruction per clock (LDSBanks.h); a conflict adds clocks. Every LDS
  // access of a GEMM kernel is in its K loop: the writes of the A and B tiles and the fragment reads of the mma, each
  // once per K step. The costliest wave's clocks stand for every wave (the waves' accesses are alike up to offsets).
  unsigned waves = kernel.waves(target);
  for (const LdsAccessCost &c : ldsAccessCosts(kernel, target)) {
    e.ldsCyclesPerIteration += static_cast<double>(c.cycles) * waves;
    e.ldsIdealCycles += static_cast<double>(c.ideal) * waves;
    e.ldsBytesPerIteration += static_cast<double>(c.bytes) * c.instructions * target.waveSize * waves;
  }
  if (e.ldsCyclesPerIteration > 0)
    e.ldsBoundTflops = e.workgroupFlopsPerIteration / e.ldsCyclesPerIteration * target.computeUnits *
                       clocksPerSecond / 1e12;
  e.estimateTflops = e.mfmaBoundTflops;
  e.bound = "MFMA issue";
  if (e.memoryBoundTflops > 0 && e.memoryBoundTflops < e.estimateTflops) {
    e.estimateTflops = e.memoryBoundTflops;
    e.bound = "global memory";
  }
  if (e.ldsBoundTflops > 0 && e.ldsBoundTflops < e.estimateTflops) {
    e.estimateTflops = e.ldsBoundTflops;
    e.bound = "LDS";
  }
  e.estimateTflopsPerCU = e.estimateTflops / target.computeUnits;
  return e;
}
