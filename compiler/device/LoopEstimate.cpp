//===- LoopEstimate.cpp - What a GEMM's K loop is worth, statically ---------===//
#include "device/LoopEstimate.h"

#include "analysis/LDSBanks.h"
#include "device/DeviceCompiler.h"
#include "llvm/ADT/SmallVector.h"
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

std::optional<MXFormat> formatOfCode(unsigned code) {
  for (const MXFormatInfo &f : allMXFormats())
    if (f.code == code) return f.format;
  return std::nullopt;
}

/// The MFMA that stands in for `instruction` in MCA where MCA charges it fewer passes than it takes: a scaled f8f6f4
/// MFMA with an fp8/bf8 operand takes twice the passes MCA charges every format (its fp4/fp6 figure,
/// ScaledMFMAInstr::cycles); the stand-in is the target's f32 MFMA of the same block with those passes (MCA charges
/// a plain MFMA its table passes). Null for every other instruction.
const MFMAInstr *standInFor(llvm::StringRef instruction, const Target &target) {
  const ScaledMFMAInstr *scaled = lookupScaledMFMA(instruction.split(' ').first);
  if (!scaled) return nullptr;
  std::optional<MXFormat> a = formatOfCode(formatCode(instruction, "cbsz:")),
                          b = formatOfCode(formatCode(instruction, "blgp:"));
  if (!a || !b) return nullptr;
  unsigned cycles = scaledCycles(*scaled, *a, *b);
  if (cycles == scaled->cycles) return nullptr;
  for (const MFMAInstr &m : allMFMA())
    if (m.a == DType::F32 && m.b == DType::F32 && m.m == scaled->m && m.n == scaled->n && m.cycles == cycles &&
        m.availableOn(target))
      return &m;
  return nullptr;
}

/// "v[16:23]" -> "v23"; a single register as it is.
std::string lastRegister(llvm::StringRef operand) {
  operand = operand.trim();
  auto [range, rest] = operand.split(':');
  if (rest.empty() || range.size() < 3 || range[1] != '[') return operand.str();
  return (range.take_front(1) + rest.take_until([](char c) { return c == ']'; })).str();
}

} // namespace

std::string tilec::bodyAtTruePasses(const MFMALoop &loop, const Target &target) {
  std::string text;
  bool replaced = false;
  for (const std::string &inst : loop.instructions) {
    const MFMAInstr *standIn = standInFor(inst, target);
    // "v_mfma_scale_... D, A, B, C, scale A, scale B modifiers" -> "stand-in D, last of A, last of B, C".
    llvm::SmallVector<llvm::StringRef, 5> operands;
    llvm::StringRef(inst).split(' ').second.split(operands, ',', /*MaxSplit=*/4);
    if (!standIn || operands.size() < 5) {
      text += inst + "\n";
      continue;
    }
    text += (standIn->name + " " + operands[0].trim() + ", " + lastRegister(operands[1]) + ", " +
             lastRegister(operands[2]) + ", " + operands[3].trim() + "\n")
                .str();
    replaced = true;
  }
  return replaced ? text : std::string();
}

double tilec::cyclesAtTruePasses(const MFMALoop &loop, const Target &target, unsigned iterations) {
  std::string body = bodyAtTruePasses(loop, target);
  if (body.empty()) return 0;
  LoopCycles cycles;
  if (loopCycles(body, target.name, iterations, cycles) != DeviceStatus::OK) return 0;
  return static_cast<double>(cycles.totalCycles) / iterations;
}

std::optional<LoopEstimate> tilec::measureLoop(const ir::Kernel &kernel, const Target &target, const MFMALoop &loop,
                                               std::string &problem) {
  LoopCycles cycles;
  if (loopCycles(loop.body(), target.name, kMCAIterations, cycles) != DeviceStatus::OK) {
    problem = cycles.message;
    return std::nullopt;
  }
  std::optional<LoopEstimate> e =
      estimateLoop(kernel, target, loop, static_cast<double>(cycles.totalCycles) / kMCAIterations,
                   cyclesAtTruePasses(loop, target, kMCAIterations));
  if (e && !e->unknownMFMA.empty()) {
    problem = "the MFMA table has no " + e->unknownMFMA;
    return std::nullopt;
  }
  return e;
}

std::optional<LoopEstimate> tilec::estimateLoop(const ir::Kernel &kernel, const Target &target, const MFMALoop &loop,
                                                double cyclesPerIteration, double truePassCycles) {
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
      std::optional<MXFormat> a = formatOfCode(use.cbsz), b = formatOfCode(use.blgp);
      if (!a || !b) {
        e.unknownMFMA = use.mnemonic + " with format codes cbsz " + std::to_string(use.cbsz) + ", blgp " +
                        std::to_string(use.blgp);
        return e;
      }
      cycles = scaledCycles(*scaled, *a, *b);
      macs = static_cast<double>(scaled->m) * scaled->n * scaled->k;
      // MCA charges every format the fp4/fp6 figure (ScaledMFMAInstr::cycles): half of an 8-bit operand's.
      e.passesMCAMisses += use.count * (cycles - scaled->cycles) / 4;
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
  // The passes MCA missed hold the MFMA pipe too: the loop's cycles are MCA's on the body at true passes (the
  // undercharged MFMAs replaced by stand-ins), or, without that figure, at least the true passes.
  if (e.passesMCAMisses)
    cyclesPerIteration = truePassCycles > 0 ? truePassCycles
                                            : std::max(cyclesPerIteration, static_cast<double>(e.mfmaPasses));
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
