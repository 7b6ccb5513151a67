//===- ReportKLoop.cpp - The report's K loops -------------------------------===//
#include "driver/ReportKLoop.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace tilec;
using llvm::formatv;

namespace tilec::report {

namespace {

unsigned barriersPerStep(const ir::KLoopPlan &p) { return p.depth >= 2 && p.doubleLds ? 1 : 2; }

/// The order of a main-loop step, as the pipelining pass planned it (KLoopPlan::schedule), in words.
std::string stepOrder(const ir::KLoopPlan &p) {
  if (!p.staged.empty()) {
    std::string segments;
    for (size_t j = 0; j < p.staged.size(); ++j) {
      const ir::KLoopPlan::StagedSegment &s = p.staged[j];
      std::vector<std::string> parts;
      if (s.writes) parts.push_back(formatv("{0} LDS write statement{1}", s.writes, s.writes == 1 ? "" : "s"));
      if (s.loads) parts.push_back(formatv("{0} load statement{1}", s.loads, s.loads == 1 ? "" : "s"));
      if (!parts.empty())
        segments += formatv("; among the MFMAs of instruction K step {0}: {1}", j,
                            parts.size() == 2 ? parts[0] + " and " + parts[1] : parts[0]).str();
    }
    ir::KLoopPlan ordered = p;
    ordered.staged.clear();
    return formatv("staged: per instruction K step its MFMAs with the next one's fragments ({0} LDS reads) read "
                   "among them{1}; the one barrier before the last instruction K step, among whose MFMAs the next K "
                   "step's first fragments are read from the other stage (the _unaligned kernel, whose loads are not "
                   "buffer loads, 2 steps in flight: {2})",
                   p.stagedReadsPerStep, segments, stepOrder(ordered));
  }
  if (!p.schedule) {
    if (p.depth == 1) return "as written: loads, LDS writes, barrier, mma, barrier";
    return p.doubleLds ? "the next step's loads, this step's mma (clang orders its fragment reads and MFMAs), the LDS "
                         "writes into the other stage, one barrier"
                       : "the next step's loads, this step's mma (clang orders its fragment reads and MFMAs), "
                         "barrier, LDS writes, barrier";
  }
  const ir::KLoopPlan::StepSchedule &s = *p.schedule;
  return formatv("every fragment first ({0} LDS reads), {6} after each of the first {1} MFMAs, {2} MFMAs "
                 "before the LDS writes{3}, {4} among them{5}",
                 s.fragmentReads, s.loadingMfmas(), s.mfmasBefore,
                 s.rowsBefore ? formatv(" (instruction K steps 0 .. {0} and {1} block row{2} of the last, so that the "
                                        "MFMAs after the last load cover the loads' latency)",
                                        s.kSteps - 2, s.rowsBefore, s.rowsBefore == 1 ? "" : "s").str()
                              : formatv(" (instruction K steps 0 .. {0})", s.kSteps - 2).str(),
                 s.mfmasAfter,
                 p.doubleLds ? " (into the other LDS stage), then the one barrier"
                             : "; a barrier before the writes and one after them",
                 s.loadsPerMfma == 1 ? "one global load" : formatv("up to {0} global loads", s.loadsPerMfma).str());
}

} // namespace

void kLoops(const ir::Body &body, std::vector<const ir::For *> &out) {
  for (const ir::StmtPtr &s : body)
    if (auto *f = llvm::dyn_cast<ir::For>(s.get())) {
      if (f->plan) out.push_back(f);
      kLoops(f->body, out);
    }
}

void printKLoop(const ir::Kernel &k, const ir::For &f, llvm::raw_ostream &os) {
  const ir::KLoopPlan &p = *f.plan;
  os << formatv("  K loop over {0}: pipeline {1} ({2})\n", f.var, p.pipelineDepth(), p.why);
  os << formatv("    {0} LDS stage{1}, {2} barrier{3} per step{4}\n", p.doubleLds ? 2 : 1, p.doubleLds ? "s" : "",
                barriersPerStep(p), barriersPerStep(p) == 1 ? "" : "s",
                p.depth == 3 && p.registerSets == 2
                    ? "; step k writes step k + 1 from registers to LDS and issues the loads of step k + 3 into "
                      "them (2 register sets, one per step of an iteration)"
                : p.depth == 3 ? "; step k writes step k + 1 from registers to LDS and issues the loads of step k + 2"
                : p.depth == 2 ? "; the loads of step k + 1 are issued before the mma of step k"
                               : "");
  os << "    step order: " << stepOrder(p) << "\n";
  if (p.splitEdges || p.peelTail)
    os << formatv("    main loop without masks over {0}{1}; the remaining steps run masked{2}\n",
                  p.splitEdges ? "the whole K steps of interior workgroups (block inside the grid tensor)"
                               : "the whole K steps",
                  p.depth == 3 && p.registerSets == 2 ? " whose step three ahead is whole"
                  : p.depth == 3                      ? " whose step after the next is whole"
                  : p.depth == 2 ? " whose next step is whole"
                                 : "",
                  p.depth >= 2 ? " (the last prefetch past the end reads zeros)" : "");
  else
    os << "    no masks: every block lies inside the grid tensor and every K step is whole\n";
  if (p.bufferLoads && !k.bufferLoaded.empty()) {
    std::string names;
    for (const ir::Tensor *t : k.bufferLoaded) names += (names.empty() ? "" : ", ") + t->name;
    os << formatv("    masked steps of the vector kernel load {0} through buffer resources: a vector outside the "
                  "tensor gets an out-of-range offset and reads zeros, with no exec branch\n", names);
  }
  for (const ir::MMA *m : p.mmas) {
    if (!m->scaleA) continue;
    const ir::ScaleLoads &sl = m->scaleLoads;
    os << formatv("    scales of {0}'s {1} (cbsz {2}, blgp {3}: B's fragment is the instruction's A): {4} E8M0 "
                  "bytes of each block row and column per step ({5} K steps x {6}), {7}; a lane {9} its "
                  "group of {8} lanes and each MFMA selects its byte with opsel\n",
                  m->acc->name, m->acc->instr->name, m->acc->instr->codeB, m->acc->instr->codeA, sl.bytes,
                  sl.select.size(), sl.perInstr,
                  sl.ldsA ? formatv("staged through LDS with the operands ({0}, {1}: loaded as tiles, read with the "
                                    "fragments)", sl.ldsA->name, sl.ldsB->name).str()
                          : formatv("{0} load{1} of {2} B per block row and column from {3} and {4}, {5}", sl.chunks,
                                    sl.chunks == 1 ? "" : "s", sl.chunkBytes, m->scaleA->name, m->scaleB->name,
                                    p.depth >= 2 ? "with the next step's operands" : "at the step's mma").str(),
                  sl.laneGroup, sl.readAtLaneGroup ? "reads them from LDS at the byte of" : "shifts them by");
  }
}

void writeKLoop(const ir::Kernel &k, const ir::For &f, llvm::json::OStream &json) {
  const ir::KLoopPlan &p = *f.plan;
  json.object([&] {
    json.attribute("variable", f.var);
    json.attribute("depth", p.pipelineDepth());
    json.attribute("depth_requested", p.depthRequested);
    json.attribute("lds_stages", p.doubleLds ? 2 : 1);
    json.attribute("barriers_per_step", barriersPerStep(p));
    json.attribute("interior_main_loop", p.splitEdges);
    json.attribute("masked_tail", p.peelTail);
    // K steps an iteration of the interior main loop runs: 2 where a staged loop runs one per LDS stage.
    json.attribute("main_loop_steps", p.stepPerStage ? 2 : 1);
    // The sets of registers the staged main loop loads into, one per step of an iteration where 2.
    json.attribute("register_sets", p.registerSets);
    json.attribute("why", p.why);
    json.attribute("step_order", stepOrder(p));
    // The tensors the vector kernel's masked steps load through buffer resources (empty when none).
    json.attributeArray("masked_buffer_loads", [&] {
      if (p.bufferLoads)
        for (const ir::Tensor *t : k.bufferLoaded) json.value(t->name);
    });
    // The scale tensors of a scaled mma in the loop, [A's, B's] (empty when none).
    json.attributeArray("scales", [&] {
      for (const ir::MMA *m : p.mmas)
        if (m->scaleA) json.value(m->scaleA->name), json.value(m->scaleB->name);
    });
  });
}

} // namespace tilec::report
