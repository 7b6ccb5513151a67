//===- HtmlResources.cpp - Registers, occupancy and the K loop as bars ------===//
//
// The resource model's items (estimateResources) as stacked bars against the target's budget, the compiler's figures
// (its "; Kernel info:" block, readKernelInfo) as a bar beside each when the device compiler ran, each occupancy
// limit of the calculator (computeOccupancy) as a bar with the binding one marked, its hints, and the K loop the
// compiler produced (findMFMALoops) with LLVM MCA's cycles and the MFMA busy figure (estimateLoop), as --verify
// computes them, and MCA's timeline of one iteration.
//
//===----------------------------------------------------------------------===//
#include "analysis/Occupancy.h"
#include "analysis/ResourceModel.h"
#include "device/DeviceCompiler.h"
#include "device/LoopEstimate.h"
#include "driver/HtmlSections.h"
#include "driver/HtmlWriter.h"
#include "target/MFMA.h"

#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace tilec;
using llvm::formatv;

namespace {

constexpr unsigned kBarWidth = 420;
constexpr unsigned kMCAIterations = 100; ///< as --verify runs it

/// The items of one register file or of the LDS as segments, alternating two shades of `first`.
void addItems(std::vector<html::Segment> &out, const std::vector<ResourceItem> &items, unsigned first,
              llvm::StringRef unit) {
  for (size_t i = 0; i < items.size(); ++i)
    out.push_back({static_cast<double>(items[i].count), "seg" + std::to_string(first + i % 2),
                   formatv("{0} {1}: {2}", items[i].count, unit, items[i].what).str()});
}

void writeCompilerBar(llvm::raw_ostream &os, const CompiledKernel *c, unsigned value, double scale,
                      llvm::StringRef what) {
  if (!c) return;
  html::writeBar(os, {{static_cast<double>(value), "compiler", formatv("the compiler: {0} {1}", value, what).str()}},
                 scale, kBarWidth, formatv("the compiler: {0} {1}", value, what).str());
}

void writeLimits(llvm::raw_ostream &os, const Occupancy &o, const Target &t) {
  struct Limit {
    Limiter which;
    unsigned waves;
    const char *what;
  } limits[] = {{Limiter::VGPR, o.vgprLimit, "VGPRs"},
                {Limiter::SGPR, o.sgprLimit, "SGPRs"},
                {Limiter::LDS, o.ldsLimit, "LDS"},
                {Limiter::Workgroups, o.workgroupLimit, "workgroup slots"}};
  for (const Limit &l : limits) {
    bool binding = o.limiter == l.which;
    unsigned shown = std::min(l.waves, t.maxWavesPerSimd);
    std::string label =
        formatv("{0}: {1} waves per SIMD{2}{3}", l.what, l.waves,
                l.waves > t.maxWavesPerSimd ? formatv(" (the SIMD holds {0})", t.maxWavesPerSimd).str() : std::string(),
                binding ? ", the binding limit" : "")
            .str();
    html::writeBar(os, {{static_cast<double>(shown), binding ? "limit binding" : "limit", label}}, t.maxWavesPerSimd,
                   kBarWidth, label, binding);
  }
}

/// The class of an instruction in the loop strip, and its passes on its pipe.
const char *kindOf(llvm::StringRef mnemonic) {
  if (mnemonic.starts_with("v_mfma")) return "mfma";
  if (mnemonic.starts_with("v_")) return "valu";
  if (mnemonic.starts_with("ds_")) return "lds";
  if (mnemonic.starts_with("global_") || mnemonic.starts_with("buffer_") || mnemonic.starts_with("flat_"))
    return "vmem";
  if (mnemonic.starts_with("s_waitcnt")) return "wait";
  if (mnemonic.starts_with("s_")) return "salu";
  return "other";
}

void writeLoopStrip(llvm::raw_ostream &os, const MFMALoop &loop, const LoopEstimate *e) {
  double mfmaWidth = e && loop.mfmaCount ? static_cast<double>(e->mfmaPasses) / loop.mfmaCount : 4;
  std::vector<std::pair<std::string, double>> cells;
  double total = 0;
  for (const std::string &ins : loop.instructions) {
    llvm::StringRef mnemonic = llvm::StringRef(ins).trim().split(' ').first;
    const char *kind = kindOf(mnemonic);
    double w = llvm::StringRef(kind) == "mfma"   ? mfmaWidth
               : llvm::StringRef(kind) == "valu" ? Target::valuPasses(mnemonic)
                                                 : 1;
    cells.push_back({kind, w});
    total += w;
  }
  const double scale = std::min(6.0, 1000.0 / std::max(1.0, total));
  os << formatv("<div class=\"scroll\"><svg class=\"loopstrip\" data-instructions=\"{0}\" data-mfma=\"{1}\" "
                "width=\"{2:F0}\" height=\"40\" viewBox=\"0 0 {2:F0} 40\" role=\"img\" aria-label=\"the {0} "
                "instructions of the loop, {1} MFMA\">",
                loop.instructions.size(), loop.mfmaCount, total * scale + 2);
  double x = 1;
  for (size_t i = 0; i < cells.size(); ++i) {
    os << formatv("<rect class=\"{0}\" x=\"{1:F1}\" y=\"4\" width=\"{2:F1}\" height=\"30\"><title>{3}: "
                  "{4}</title></rect>",
                  cells[i].first, x, std::max(0.5, cells[i].second * scale - 0.5), i,
                  html::escape(llvm::StringRef(loop.instructions[i]).trim()));
    x += cells[i].second * scale;
  }
  os << "</svg></div>\n<p class=\"legend\"><span><i style=\"background:#e15759\"></i>MFMA</span><span><i "
        "style=\"background:#4e79a7\"></i>VALU</span><span><i style=\"background:#59a14f\"></i>LDS</span><span><i "
        "style=\"background:#f28e2b\"></i>global/buffer memory</span><span><i "
        "style=\"background:#76b7b2\"></i>s_waitcnt</span><span><i style=\"background:#bab0ac\"></i>scalar and "
        "branch</span></p>\n";
}

/// MCA's timeline of one iteration in the steady state: a row per instruction, a light bar from its dispatch to its
/// issue (waiting for operands or its pipe), a bar in its kind's colour while it executes, a tick when it retires.
void writeTimeline(llvm::raw_ostream &os, const MFMALoop &loop, const std::vector<InstructionTimes> &times,
                   unsigned iteration) {
  unsigned span = 1;
  for (const InstructionTimes &t : times) span = std::max(span, t.retired + 1);
  const double scale = std::min(8.0, 760.0 / span);
  const unsigned row = 10, left = 250, top = 14;
  os << formatv("<p>MCA's timeline of iteration {0} of {1} (the steady state): one row per instruction; light: "
                "dispatched, waiting to issue; coloured: executing (MFMA red); the tick: retired. Cycles from the "
                "iteration's first dispatch, {2} in all.</p>\n",
                iteration, kMCAIterations, span);
  os << formatv("<div class=\"scroll\"><svg class=\"timeline\" data-instructions=\"{0}\" data-mfma=\"{1}\" "
                "width=\"{2:F0}\" height=\"{3}\" viewBox=\"0 0 {2:F0} {3}\" role=\"img\" aria-label=\"MCA timeline of "
                "the loop's {0} instructions\">",
                times.size(), loop.mfmaCount, left + span * scale + 8, top + times.size() * row + 4);
  for (unsigned c = 0; c < span; c += std::max(1u, static_cast<unsigned>(60 / scale)))
    os << formatv("<text x=\"{0:F1}\" y=\"10\">{1}</text>", left + c * scale, c);
  for (size_t i = 0; i < times.size() && i < loop.instructions.size(); ++i) {
    const InstructionTimes &t = times[i];
    llvm::StringRef text = llvm::StringRef(loop.instructions[i]).trim();
    llvm::StringRef mnemonic = text.split(' ').first;
    double y = top + i * row;
    os << formatv("<g class=\"step\" data-kind=\"{0}\"><title>{1}: {2}: dispatched at {3}, issued at {4}, executed by "
                  "{5}, retired at {6}</title>",
                  kindOf(mnemonic), i, html::escape(text), t.dispatched, t.issued, t.executed, t.retired);
    os << formatv("<text x=\"2\" y=\"{0:F0}\">{1} {2}</text>", y + 8, i, html::escape(mnemonic.take_front(34)));
    os << formatv("<rect class=\"other\" x=\"{0:F1}\" y=\"{1:F0}\" width=\"{2:F1}\" height=\"{3}\"/>",
                  left + t.dispatched * scale, y + 1, std::max(0.0, (double(t.issued) - t.dispatched) * scale),
                  row - 2);
    os << formatv("<rect class=\"{0}\" x=\"{1:F1}\" y=\"{2:F0}\" width=\"{3:F1}\" height=\"{4}\"/>", kindOf(mnemonic),
                  left + t.issued * scale, y + 1, std::max(1.0, (double(t.executed) - t.issued) * scale), row - 2);
    os << formatv("<rect class=\"salu\" x=\"{0:F1}\" y=\"{1:F0}\" width=\"1.5\" height=\"{2}\"/></g>",
                  left + t.retired * scale, y, row);
  }
  os << "</svg></div>\n";
}

} // namespace

void html::writeResources(const ir::Kernel &k, const Target &t, const CompiledKernel *c, llvm::raw_ostream &os) {
  ResourceEstimate e = estimateResources(k, t);
  KernelResources r = e.resources(k.workgroupSize);
  os << "<h3>Registers and occupancy</h3>\n";
  os << "<p>The model's estimate, before code generation, item by item (hover a segment)";
  os << (c ? "; under each, the compiler's figure for the same kernel (LLVM's AMDGPU backend, compiled in process, as "
             "<code>--verify</code> reads it).</p>\n"
           : ".</p>\n");
  std::vector<Segment> vgpr;
  addItems(vgpr, e.vgprItems, 0, "ArchVGPRs");
  addItems(vgpr, e.agprItems, 2, e.accumulatorsInAgprs ? "AGPRs" : "ArchVGPRs (accumulators)");
  os << "<h4>VGPRs per lane</h4>\n";
  html::writeBar(os, vgpr, t.vgprsPerLane, kBarWidth,
                 e.accumulatorsInAgprs
                     ? formatv("the model: {0} ArchVGPRs + {1} AGPRs = {2} of the {3}", e.archVgprs, e.agprs,
                               unifiedVgprs(r), t.vgprsPerLane)
                           .str()
                     : formatv("the model: {0} ArchVGPRs + {1} accumulators in ArchVGPRs = {2} of the {3}", e.archVgprs,
                               e.agprs, unifiedVgprs(r), t.vgprsPerLane)
                           .str());
  if (c)
    html::writeBar(
        os,
        {{static_cast<double>(c->totalVgprs - c->agprs), "compiler",
          formatv("{0} ArchVGPRs (aligned to 4 where AGPRs follow)", c->totalVgprs - c->agprs).str()},
         {static_cast<double>(c->agprs), "seg2", formatv("{0} AGPRs", c->agprs).str()}},
        t.vgprsPerLane, kBarWidth,
        formatv("the compiler: {0} ArchVGPRs + {1} AGPRs = {2}", c->archVgprs, c->agprs, c->totalVgprs).str());
  std::vector<Segment> sgpr;
  addItems(sgpr, e.sgprItems, 4, "SGPRs");
  sgpr.push_back({static_cast<double>(t.reservedSgprs), "seg6", formatv("{0} reserved SGPRs", t.reservedSgprs).str()});
  os << "<h4>SGPRs per wave</h4>\n";
  html::writeBar(os, sgpr, t.addressableSgprs, kBarWidth,
                 formatv("the model: {0} + {1} reserved = {2} of the {3}", e.sgprs, t.reservedSgprs,
                         e.sgprs + t.reservedSgprs, t.addressableSgprs)
                     .str());
  writeCompilerBar(os, c, c ? c->sgprs : 0, t.addressableSgprs, "SGPRs, the reserved ones included");
  std::vector<Segment> lds;
  addItems(lds, e.ldsItems, 6, "B");
  os << "<h4>LDS bytes per workgroup</h4>\n";
  html::writeBar(os, lds, t.ldsBytesPerCU, kBarWidth,
                 formatv("the model: {0} B of the {1} a CU has", e.ldsBytes, t.ldsBytesPerCU).str());
  writeCompilerBar(os, c, c ? c->ldsBytes : 0, t.ldsBytesPerCU, "B");
  Occupancy o = computeOccupancy(t, r);
  os << formatv("<h4>Occupancy: {0} wave{1} per SIMD, {2} per CU{3}</h4>\n", o.wavesPerSimd,
                o.wavesPerSimd == 1 ? "" : "s", o.wavesPerCU,
                o.limiter == Limiter::None ? std::string(", the most a SIMD holds")
                                           : formatv(", limited by {0}", limiterName(o.limiter)).str());
  writeLimits(os, o, t);
  if (c) {
    unsigned explicitSgprs = c->sgprs > t.reservedSgprs ? c->sgprs - t.reservedSgprs : 0;
    Occupancy co = computeOccupancy(t, {c->archVgprs, c->agprs, explicitSgprs, c->ldsBytes, k.workgroupSize});
    html::writeBar(os, {{static_cast<double>(c->occupancy), "compiler", "the compiler's occupancy"}}, t.maxWavesPerSimd,
                   kBarWidth,
                   formatv("the compiler: {0} waves per SIMD (tilec's calculator on its figures: {1}, limited by {2})",
                           c->occupancy, co.wavesPerSimd, limiterName(co.limiter))
                       .str());
  }
  os << "<pre>";
  for (const std::string &line : o.derivation) os << escape(line) << "\n";
  os << "</pre>\n";
  if (!o.hints.empty()) {
    os << "<p>What would raise it:</p>\n<ul>\n";
    for (const std::string &hint : o.hints) os << "<li>" << escape(hint) << "</li>\n";
    os << "</ul>\n";
  }
}

void html::writeLoop(const ir::Kernel &k, const Target &t, const CompiledModule &compiled,
                     const CompiledKernel *kernelInfo, llvm::raw_ostream &os) {
  if (k.accs.empty()) return; // no mma, no loop of MFMAs
  os << "<h3>The loop of MFMAs under LLVM's MCA</h3>\n";
  if (!compiled.ok) {
    os << "<p class=\"absent\">Absent: this needs the device compiler in the process (as <code>--verify</code>), and "
       << escape(compiled.why) << ".</p>\n";
    return;
  }
  const MFMALoop *loop = nullptr;
  std::vector<MFMALoop> loops = findMFMALoops(compiled.assembly);
  for (const MFMALoop &l : loops)
    if (l.kernel == k.name) loop = &l;
  if (!loop) {
    os << "<p class=\"absent\">Absent: the compiled kernel has no loop that holds MFMAs.</p>\n";
    return;
  }
  os << formatv("<p>Loop <code>{0}</code> of the compiled kernel: {1} instructions per iteration, {2} MFMA.</p>\n",
                escape(loop->label), loop->instructions.size(), loop->mfmaCount);
  LoopCycles cycles;
  const unsigned timelineIteration = kMCAIterations / 2;
  if (loopCycles(loop->body(), t.name, kMCAIterations, cycles, timelineIteration) != DeviceStatus::OK) {
    os << "<p class=\"absent\">No MCA figure: " << escape(cycles.message) << "</p>\n";
    writeLoopStrip(os, *loop, nullptr);
    return;
  }
  double perIteration = static_cast<double>(cycles.totalCycles) / kMCAIterations;
  std::optional<LoopEstimate> e = estimateLoop(k, t, *loop, perIteration, cyclesAtTruePasses(*loop, t, kMCAIterations));
  if (!e || !e->unknownMFMA.empty()) {
    os << formatv("<p>LLVM MCA, {0} iterations: {1:F1} cycles per iteration. {2}</p>\n", kMCAIterations, perIteration,
                  !e ? "No busy figure: the kernel has no K loop in the IR (a loop that restarts its accumulator)."
                     : "No busy figure: the MFMA table has no " + escape(e->unknownMFMA) + ".");
    writeLoopStrip(os, *loop, nullptr);
    return;
  }
  os << formatv("<p>LLVM MCA, {0} iterations: {1:F1} cycles per iteration; MFMA busy {2} passes / {3:F1} = "
                "<b>{4:F2}</b>.</p>\n",
                kMCAIterations, e->mcaCyclesPerIteration, e->mfmaPasses, e->cyclesPerIteration, e->busy);
  if (e->passesMCAMisses)
    os << formatv(
        "<p>MCA charges a scaled MFMA with an fp8/bf8 operand half its passes, {0} fewer here; with each replaced by "
        "an f32 MFMA of the same block and those passes, MCA charges the {1} true passes: {2:F1} cycles.</p>\n",
        e->passesMCAMisses, e->mfmaPasses, e->cyclesPerIteration);
  html::writeBar(os,
                 {{static_cast<double>(e->mfmaPasses), "mfma", formatv("{0} MFMA passes", e->mfmaPasses).str()},
                  {e->cyclesPerIteration - e->mfmaPasses, "other",
                   formatv("{0:F1} cycles without MFMA issue", e->cyclesPerIteration - e->mfmaPasses).str()}},
                 std::max(e->cyclesPerIteration, 1.0), kBarWidth,
                 formatv("MFMA busy {0:F2} of one wave's {1:F1} cycles", e->busy, e->cyclesPerIteration).str());
  if (e->valuPasses)
    html::writeBar(
        os, {{static_cast<double>(e->valuPasses), "valu", formatv("{0} VALU passes", e->valuPasses).str()}},
        std::max(e->cyclesPerIteration, 1.0), kBarWidth,
        formatv("VALU: {0} instructions, {1} passes{2}", e->valuInstructions, e->valuPasses,
                e->transcendentals ? formatv(" ({0} transcendental at 4)", e->transcendentals).str() : std::string())
            .str());
  if (kernelInfo && kernelInfo->occupancy > 1)
    os << formatv("<p>At the compiler's {0} waves per SIMD the waves could keep the MFMA pipe busy up to {1:F2} where "
                  "their steps overlap (MCA models one wave).</p>\n",
                  kernelInfo->occupancy, e->busyWithWaves(kernelInfo->occupancy));
  os << formatv("<p>Estimate: {0:F0} TFLOP/s per GPU, bound by {1} (MFMA issue {2:F0}, global memory {3:F0}{4}).</p>\n",
                e->estimateTflops, e->bound, e->mfmaBoundTflops, e->memoryBoundTflops,
                e->ldsBoundTflops > 0 ? formatv(", LDS {0:F0}", e->ldsBoundTflops).str() : std::string());
  os << "<p>The loop's instructions in order, each as wide as its passes on its pipe (MFMA: the MFMA table's, averaged "
        "over the loop's MFMAs; VALU: 1, 4 for a transcendental; others 1).</p>\n";
  writeLoopStrip(os, *loop, &*e);
  if (cycles.timeline.size() == loop->instructions.size()) writeTimeline(os, *loop, cycles.timeline, timelineIteration);
}
