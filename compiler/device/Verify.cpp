//===- Verify.cpp - The model's resources beside the compiler's -------------===//
#include "device/Verify.h"

#include "analysis/AccessPlan.h"
#include "analysis/KLoopResources.h"
#include "analysis/MemoryTraffic.h"
#include "analysis/Occupancy.h"
#include "analysis/ResourceModel.h"
#include "device/DeviceCompiler.h"
#include "device/IssueRate.h"
#include "device/LoopEstimate.h"
#include "target/MFMA.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace tilec;
using llvm::formatv;

namespace {

/// One figure, predicted and allocated.
struct Row {
  const char *what;
  const char *key; ///< its JSON name
  unsigned model, compiler;
};

/// A kernel as the model sees it and as the compiler made it.
struct Comparison {
  const ir::Kernel *kernel;
  std::string name;
  ResourceEstimate model;
  Occupancy modelOccupancy, compilerOccupancy; ///< the latter: tilec's calculator on the compiler's figures
  CompiledKernel compiler;
  std::vector<Row> rows;
  // The K loop, when the kernel has one.
  std::optional<MFMALoop> loop;
  std::optional<LoopEstimate> estimate;
  std::string loopProblem; ///< why there is no estimate
  // The issue rate, for the vector kernel of a kernel without an mma.
  std::optional<IssueRate> issue;
  std::string issueProblem; ///< why there is none
};

/// Finds the kernel's K loop in the assembly and runs it through MCA.
void estimateKLoop(Comparison &c, const Target &t, const std::vector<MFMALoop> &loops) {
  for (const MFMALoop &l : loops)
    if (l.kernel == c.name) c.loop = l;
  if (c.loop) c.estimate = measureLoop(*c.kernel, t, *c.loop, c.loopProblem);
}

/// Whether `c` is judged by the memory yardstick: the vector kernel of a kernel without an mma.
bool memoryBound(const Comparison &c) { return c.kernel->accs.empty() && c.name == c.kernel->name; }

/// The kernel's instructions through MCA, for the issue cycles per 16 bytes (IssueRate.h).
void estimateIssue(Comparison &c, const Target &t, llvm::StringRef assembly) {
  if (!memoryBound(c)) return;
  std::vector<std::string> instructions = kernelInstructions(assembly, c.name);
  LoopCycles cycles;
  if (loopCycles(issueBody(instructions), t.name, kMCAIterations, cycles) != DeviceStatus::OK) {
    c.issueProblem = cycles.message;
    return;
  }
  c.issue = issueRate(instructions, static_cast<double>(cycles.totalCycles) / kMCAIterations, t, c.compilerOccupancy);
}

void printLoop(const Comparison &c, llvm::raw_ostream &os) {
  if (!c.loop) return;
  const MFMALoop &l = *c.loop;
  // A staged main loop runs a K step per LDS stage each iteration (KLoopPlan::stepPerStage): its figures are two
  // steps'.
  bool twoSteps = c.kernel->name == c.name && llvm::any_of(kLoops(c.kernel->body), [](const ir::For *f) {
                    return f->plan && f->plan->stepPerStage;
                  });
  os << formatv("  K loop ({0}): {1} instructions per iteration{3}, {2} MFMA", l.label, l.instructions.size(),
                l.mfmaCount, twoSteps ? " (two K steps, one per LDS stage)" : "");
  for (const MFMAUse &u : l.mfmas) {
    os << formatv(" ({0} x {1}", u.count, u.mnemonic);
    if (lookupScaledMFMA(u.mnemonic)) os << formatv(" cbsz:{0} blgp:{1}", u.cbsz, u.blgp);
    os << ")";
  }
  os << "\n";
  if (!c.loopProblem.empty() || !c.estimate) {
    os << "    no estimate: " << (c.loopProblem.empty() ? "no K loop in the kernel" : c.loopProblem) << "\n";
    return;
  }
  const LoopEstimate &e = *c.estimate;
  os << formatv("    LLVM MCA, {0} iterations: {1:F1} cycles per iteration; MFMA busy {2} passes / {3:F1} = {4:F2}\n",
                kMCAIterations, e.mcaCyclesPerIteration, e.mfmaPasses, e.cyclesPerIteration, e.busy);
  if (e.passesMCAMisses)
    os << formatv("    (MCA charges a scaled MFMA with an fp8/bf8 operand half its passes, {0} fewer here; with each "
                  "replaced by an f32 MFMA of the same block and those passes, MCA charges the {1} true passes: "
                  "{2:F1} cycles)\n",
                  e.passesMCAMisses, e.mfmaPasses, e.cyclesPerIteration);
  // One wave's figure is not the yardstick where the compiler lets several share the SIMD (docs/verify.md).
  if (c.compiler.occupancy > 1 && e.busy < 0.85)
    os << formatv("    at the compiler's {0} waves per SIMD: their {1} passes an iteration each against one wave's {2:F1} "
                  "cycles can keep the MFMA pipe busy up to min(1, {0} x {3:F2}{5}) = {4:F2} where their steps overlap "
                  "(MCA models one wave)\n",
                  c.compiler.occupancy, e.mfmaPasses, e.cyclesPerIteration, e.busy,
                  e.busyWithWaves(c.compiler.occupancy),
                  e.valuPasses > e.mfmaPasses
                      ? formatv(", {0} MFMA / {1} VALU passes", e.mfmaPasses, e.valuPasses).str()
                      : std::string());
  if (e.valuInstructions)
    os << formatv("    VALU: {0} instructions, {1} passes{2} against {3} MFMA passes: {4}\n", e.valuInstructions,
                  e.valuPasses,
                  e.transcendentals ? formatv(" ({0} transcendental at 4 passes, quarter rate)", e.transcendentals).str()
                                    : std::string(),
                  e.mfmaPasses,
                  e.valuPasses > e.mfmaPasses ? "the VALU bounds the loop even with waves overlapping it and the MFMAs"
                                              : "the MFMA pipe bounds the loop where waves overlap the VALU with it");
  os << formatv("    MFMA issue, one wave per SIMD: {0:F0} TFLOP/s of the {1:F0} peak; global memory: {2:F0} flop per "
                "byte loaded x HBM = {3:F0} TFLOP/s if no load hits a cache\n",
                e.mfmaBoundTflops, e.peakTflops, e.intensity, e.memoryBoundTflops);
  if (e.ldsCyclesPerIteration > 0)
    os << formatv("    LDS: {0:F0} KiB per K step in {1:F0} clocks ({2:F0} without bank conflicts) = {3:F0} TFLOP/s\n",
                  e.ldsBytesPerIteration / 1024, e.ldsCyclesPerIteration, e.ldsIdealCycles, e.ldsBoundTflops);
  os << formatv("    estimate: {0:F0} TFLOP/s per GPU, {1:F2} per CU, bound by {2}\n", e.estimateTflops,
                e.estimateTflopsPerCU, e.bound);
}


Comparison compare(const ir::Kernel &k, const std::string &name, const Target &t, bool unaligned,
                   const CompiledKernel &c) {
  Comparison cmp{&k, name, estimateResources(k, t, unaligned), {}, {}, c, {}, {}, {}, {}, {}, {}};
  cmp.modelOccupancy = computeOccupancy(t, cmp.model.resources(k.workgroupSize));
  // The compiler's SGPR count includes the reserved ones, which the calculator adds itself.
  unsigned explicitSgprs = c.sgprs > t.reservedSgprs ? c.sgprs - t.reservedSgprs : 0;
  cmp.compilerOccupancy =
      computeOccupancy(t, {c.archVgprs, c.agprs, explicitSgprs, c.ldsBytes, k.workgroupSize});
  const ResourceEstimate &m = cmp.model;
  // In the VGPR form of the MFMAs the model's accumulators count among its ArchVGPRs, as the compiler's do.
  KernelResources r = m.resources(k.workgroupSize);
  cmp.rows = {
      {"ArchVGPRs per lane", "arch_vgprs", r.archVgprs, c.archVgprs},
      {"AGPRs per lane", "agprs", r.agprs, c.agprs},
      {"VGPR file per lane (ArchVGPRs to 4 + AGPRs)", "total_vgprs", unifiedVgprs(r),
       c.totalVgprs},
      {"SGPRs per wave (with the reserved ones)", "sgprs", m.sgprs + t.reservedSgprs, c.sgprs},
      {"LDS bytes per workgroup", "lds_bytes", m.ldsBytes, c.ldsBytes},
      {"scratch bytes per lane", "scratch_bytes", 0, c.scratchBytes},
      {"occupancy (waves per SIMD)", "occupancy", cmp.modelOccupancy.wavesPerSimd, c.occupancy},
  };
  return cmp;
}

std::string difference(unsigned model, unsigned compiler) {
  if (model == compiler) return "0";
  long d = static_cast<long>(compiler) - static_cast<long>(model);
  std::string s = formatv("{0}{1}", d > 0 ? "+" : "", d).str();
  if (model) s += formatv(" ({0}{1:F1}%)", d > 0 ? "+" : "", 100.0 * d / model).str();
  return s;
}

void printText(const std::vector<Comparison> &all, llvm::StringRef fileName, const Target &t,
               const VerifyOptions &options, llvm::raw_ostream &os) {
  os << formatv("tilec verify: {0} for {1} ({2}, {3}); the model before code generation against LLVM {4}'s "
                "AMDGPU backend, compiled in process\n",
                fileName, t.name, t.product, t.family, options.llvmVersion);
  for (const Comparison &c : all) {
    os << formatv("\nkernel {0}\n", c.name);
    os << formatv("  {0,-46} {1,8} {2,9}   {3}\n", "", "model", "compiler", "difference");
    for (const Row &r : c.rows)
      os << formatv("  {0,-46} {1,8} {2,9}   {3}\n", r.what, r.model, r.compiler, difference(r.model, r.compiler));
    os << formatv("  occupancy limited by: model {0}, compiler {1}\n", limiterName(c.modelOccupancy.limiter),
                  limiterName(c.compilerOccupancy.limiter));
    printLoop(c, os);
    // The memory yardstick at the compiler's occupancy, for the vector kernel of a kernel without an mma.
    if (memoryBound(c)) {
      printMemoryTraffic(memoryTraffic(*c.kernel, t, c.compilerOccupancy), t, os);
      if (c.issue) printIssueRate(*c.issue, t, os);
      else os << "  issue: no figure: " << c.issueProblem << "\n";
    }
  }
}

void printJSON(const std::vector<Comparison> &all, llvm::StringRef fileName, const Target &t,
               const VerifyOptions &options, llvm::raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("file", fileName);
    json.attribute("target", t.name);
    json.attribute("llvm", options.llvmVersion);
    json.attributeArray("kernels", [&] {
      for (const Comparison &c : all)
        json.object([&] {
          json.attribute("name", c.name);
          for (const char *side : {"model", "compiler"})
            json.attributeObject(side, [&] {
              for (const Row &r : c.rows) json.attribute(r.key, side[0] == 'm' ? r.model : r.compiler);
              json.attribute("occupancy_limiter",
                             limiterName(side[0] == 'm' ? c.modelOccupancy.limiter : c.compilerOccupancy.limiter));
            });
          if (memoryBound(c)) {
            writeMemoryTraffic(memoryTraffic(*c.kernel, t, c.compilerOccupancy), json);
            if (c.issue) writeIssueRate(*c.issue, json);
          }
          if (c.loop && c.estimate && c.loopProblem.empty())
            json.attributeObject("k_loop", [&] {
              const LoopEstimate &e = *c.estimate;
              json.attribute("label", c.loop->label);
              json.attribute("instructions", static_cast<int64_t>(c.loop->instructions.size()));
              json.attribute("mfmas", c.loop->mfmaCount);
              json.attribute("mca_iterations", kMCAIterations);
              json.attribute("cycles_per_iteration", e.mcaCyclesPerIteration);
              json.attribute("cycles_with_true_passes", e.cyclesPerIteration);
              json.attribute("mfma_passes_mca_misses", e.passesMCAMisses);
              json.attribute("mfma_passes", e.mfmaPasses);
              json.attribute("valu_instructions", e.valuInstructions);
              json.attribute("valu_passes", e.valuPasses);
              json.attribute("transcendentals", e.transcendentals);
              json.attribute("mfma_busy", e.busy);
              json.attribute("mfma_busy_with_compiler_waves", e.busyWithWaves(c.compiler.occupancy));
              json.attribute("peak_tflops", e.peakTflops);
              json.attribute("mfma_bound_tflops", e.mfmaBoundTflops);
              json.attribute("flop_per_byte", e.intensity);
              json.attribute("memory_bound_tflops", e.memoryBoundTflops);
              json.attribute("lds_bytes_per_iteration", e.ldsBytesPerIteration);
              json.attribute("lds_cycles_per_iteration", e.ldsCyclesPerIteration);
              json.attribute("lds_ideal_cycles_per_iteration", e.ldsIdealCycles);
              json.attribute("lds_bound_tflops", e.ldsBoundTflops);
              json.attribute("estimate_tflops", e.estimateTflops);
              json.attribute("estimate_tflops_per_cu", e.estimateTflopsPerCU);
              json.attribute("bound", e.bound);
              json.attribute("body_for_mca", c.loop->body());
              json.attribute("body_at_true_passes", bodyAtTruePasses(*c.loop, t));
            });
        });
    });
  });
  os << "\n";
}

/// The policy: scratch is an error unless allowed, LDS must be equal, an occupancy difference is a warning.
void judge(const Comparison &c, const VerifyOptions &options, DiagnosticEngine &diags) {
  const CompiledKernel &k = c.compiler;
  KernelResources model = c.model.resources(c.kernel->workgroupSize);
  if (k.scratchBytes && !options.allowSpills)
    diags.error(c.kernel->loc,
                formatv("kernel '{0}' spills: the compiler allocated {1} bytes of scratch per lane with {2} "
                        "ArchVGPRs and {3} AGPRs (the model: {4} + {5}); --allow-spills accepts it",
                        c.name, k.scratchBytes, k.archVgprs, k.agprs, model.archVgprs, model.agprs));
  if (k.ldsBytes != c.model.ldsBytes)
    diags.error(c.kernel->loc, formatv("kernel '{0}': the compiler allocated {1} bytes of LDS, the model {2}; "
                                       "they must be equal",
                                       c.name, k.ldsBytes, c.model.ldsBytes));
  if (k.occupancy != c.modelOccupancy.wavesPerSimd) {
    const Occupancy &m = c.modelOccupancy, &r = c.compilerOccupancy;
    std::string why;
    if (m.vgprLimit != r.vgprLimit)
      why = formatv("VGPRs: the model's {0} per lane allow {1} waves, the compiler's {2} allow {3}",
                    m.totalVgprs, m.vgprLimit, r.totalVgprs, r.vgprLimit).str();
    else if (m.sgprLimit != r.sgprLimit)
      why = formatv("SGPRs: the model's {0} allow {1} waves, the compiler's {2} allow {3}", m.sgprsWithReserved,
                    m.sgprLimit, k.sgprs, r.sgprLimit).str();
    else if (m.ldsLimit != r.ldsLimit)
      why = formatv("LDS: {0} bytes allow {1} waves, {2} bytes allow {3}", c.model.ldsBytes, m.ldsLimit, k.ldsBytes,
                    r.ldsLimit).str();
    else
      why = "the compiler's own occupancy calculation (tilec's calculator gives the same for both sets of figures)";
    diags.warning(c.kernel->loc, formatv("kernel '{0}': the model predicts {1} waves per SIMD, the compiler's "
                                         "figures give {2}; the difference is in the {3}",
                                         c.name, m.wavesPerSimd, k.occupancy, why));
  }
}

} // namespace

bool tilec::verifyResources(const ir::Module &module, llvm::StringRef fileName, llvm::StringRef assembly,
                            const VerifyOptions &options, DiagnosticEngine &diags, llvm::raw_ostream &os) {
  const Target &t = *module.target;
  std::vector<CompiledKernel> compiled = readKernelInfo(assembly);
  auto find = [&](const std::string &name) -> const CompiledKernel * {
    for (const CompiledKernel &c : compiled)
      if (c.name == name) return &c;
    return nullptr;
  };
  std::vector<MFMALoop> loops = findMFMALoops(assembly);
  std::vector<Comparison> all;
  for (const auto &k : module.kernels) {
    std::vector<std::pair<std::string, bool>> variants = {{k->name, false}};
    if (hasUnalignedVariant(planAccesses(*k))) variants.push_back({unalignedName(*k), true});
    for (auto &[name, unaligned] : variants) {
      const CompiledKernel *c = find(name);
      if (!c) {
        diags.error(k->loc, formatv("kernel '{0}' is not in the compiler's output", name));
        return false;
      }
      all.push_back(compare(*k, name, t, unaligned, *c));
      estimateKLoop(all.back(), t, loops);
      estimateIssue(all.back(), t, assembly);
    }
  }
  if (options.json) printJSON(all, fileName, t, options, os);
  else printText(all, fileName, t, options, os);
  for (const Comparison &c : all) judge(c, options, diags);
  return true;
}
