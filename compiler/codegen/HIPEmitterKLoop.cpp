//===- HIPEmitterKLoop.cpp - Writing K loops ---------------------------------===//
//
// The shapes of a K loop, as the pipelining pass planned them (KLoopPlan): as written (depth 1, with an unmasked main
// loop where the blocks allow), pipelined 2 steps deep (the next step's loads before this step's mma; the ordered
// main-loop step of KLoopPlan::schedule), and staged 3 deep (KLoopPlan::staged): this step's tiles in one LDS stage,
// the next step's in registers, loaded during the step before, and the loads of the step after it. A staged main-loop
// step writes the next step's registers into the other LDS stage and issues the loads of the step after, so no load
// is waited for within the step that issued it, and it reads each instruction K step's fragments one step ahead of
// the MFMAs that take them; it is printed as the pass planned it, one segment per instruction K step, fenced from the
// next by a sched_barrier, with its sched_group_barrier order. Also the scale registers of a scaled mma's K loop.
//
//===----------------------------------------------------------------------===//
#include "codegen/HIPEmitterKernel.h"

#include "target/MFMA.h"

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace tilec::hip {

std::string KernelEmitter::interiorCondition() const {
  const Tensor &g = *k.gridTensor;
  std::string rows = formatv("block_row + {0} <= {1}", k.gridTileRows, extentExpr(g.rows));
  if (k.gridWholeRows) return rows;
  return formatv("{0} && block_col + {1} <= {2}", rows, k.gridTileCols, extentExpr(g.cols));
}

void KernelEmitter::kLoop(const For &f, unsigned depth) {
  const KLoopPlan &p = *f.plan;
  splitEdges = p.splitEdges;
  std::string var = f.var, step = index(*f.step), upper = index(*f.upper);
  line(depth) << formatv("// K loop: {0} from {1} to {2} in steps of {3}; {4}.\n", var, index(*f.lower), upper, step,
                         p.why);
  if (p.depth >= 2) return pipelinedLoop(f, depth);
  if (!p.splitEdges && !p.peelTail) {
    line(depth) << formatv("// Every workgroup's block lies inside {0} and every K step is whole: no masks.\n",
                           k.gridTensor->name);
    fullSteps[var] = f.step->value;
    plainLoop(f, depth);
    fullSteps.erase(var);
    return;
  }
  line(depth) << "{\n";
  line(depth + 1) << formatv("int {0} = {1};\n", var, index(*f.lower));
  std::string cond = formatv("{0} <= {1} - {2}", var, upper, step);
  if (p.splitEdges) {
    line(depth + 1) << formatv("// Interior workgroups (the whole {0} inside it) run the main loop; edge "
                               "workgroups run every step masked.\n", blockText());
    line(depth + 1) << "const bool interior = " << interiorCondition() << ";\n";
    cond = "interior && " + cond;
  }
  line(depth + 1) << formatv("// Main loop: whole K steps ({0} + {1} <= {2}){3}, no masks.\n", var, step, upper,
                             p.splitEdges ? " of interior workgroups" : "");
  line(depth + 1) << formatv("for (; {0}; {1} += {2}) {{\n", cond, var, step);
  interiorBlock = p.splitEdges;
  fullSteps[var] = f.step->value;
  for (const StmtPtr &b : f.body) stmt(*b, depth + 2);
  fullSteps.erase(var);
  interiorBlock = false;
  line(depth + 1) << "}\n";
  line(depth + 1) << formatv("// The remaining steps, masked: {0}.\n",
                             p.splitEdges && p.peelTail ? formatv("every step of an edge workgroup, the partial last "
                                                                  "step ({0} % {1} != 0) of an interior one", upper,
                                                                  step).str()
                             : p.splitEdges ? "every step of an edge workgroup"
                                            : formatv("the partial last step ({0} % {1} != 0)", upper, step).str());
  line(depth + 1) << formatv("for (; {0} < {1}; {0} += {2}) {{\n", var, upper, step);
  for (const StmtPtr &b : f.body) stmt(*b, depth + 2);
  line(depth + 1) << "}\n";
  line(depth) << "}\n";
}

void KernelEmitter::pipelinedLoop(const For &f, unsigned depth) {
  const KLoopPlan &p = *f.plan;
  std::string var = f.var, step = index(*f.step), upper = index(*f.upper);
  unsigned d = depth + 1;
  line(depth) << "{\n";
  line(d) << formatv("int {0} = {1};\n", var, index(*f.lower));
  if (p.doubleLds) line(d) << "int stage = 0;  // the LDS stage this step's mma reads; the next step's loads fill the other\n";
  // A staged loop (depth 3) runs staged in the vector kernel only: the _unaligned kernel's main loop loads through
  // global instructions, which llvm-mca counts in lgkmcnt (as flat ones) so that every fragment read among them
  // would wait for them (gemm_fp8_gfx950_unaligned 232 cycles staged, 153 in the ordered step of depth 2).
  unsigned inFlight = p.depth == 3 && variant == Variant::Vector ? 3 : 2;
  scaleRegisters(p, inFlight == 3, d);
  // Prologue: the first step, masked (there may be none: K can be 0).
  line(d) << formatv("// Prologue: the first step's loads, written to LDS{0}.\n", p.doubleLds ? " stage 0" : "");
  line(d) << formatv("if ({0} < {1}) {{\n", var, upper);
  maskedBufferLoads = p.bufferLoads && variant == Variant::Vector;
  for (const Assign *a : p.loads) stmt(*a, d + 1);
  maskedBufferLoads = false;
  stepScales(p, var, "", d + 1);
  for (const LdsWrite *w : p.writes) stmt(*w, d + 1);
  line(d + 1) << "tilec::barrier();\n";
  line(d) << "}\n";
  // Steps k .. k + (steps - 1) whole, and in an interior workgroup where edges are split.
  auto whole = [&](unsigned steps) {
    return formatv("{0}{1} <= {2} - {3} * {4}", p.splitEdges ? "interior && " : "", var, upper, steps, step).str();
  };
  std::string cond = whole(inFlight);
  if (p.splitEdges) {
    line(d) << formatv("// Interior workgroups (the whole {0} inside it) run the main loop; edge "
                       "workgroups run every step masked.\n", blockText());
    line(d) << "const bool interior = " << interiorCondition() << ";\n";
  }
  if (inFlight == 3) stagedPrefetch(f, cond, d);
  interiorBlock = p.splitEdges;
  fullSteps[var] = f.step->value;
  if (inFlight == 3 && p.stepPerStage) {
    // With 2 register sets each step loads the step three ahead, not two.
    unsigned ahead = p.registerSets == 2 ? 3 : 2;
    line(d) << formatv("// Main loop, two steps an iteration: the first reads LDS stage 0 and writes stage 1, the "
                       "second the other way round, so every LDS address is a constant offset{0}; the step {1} of "
                       "both is whole ({2} + {3} * {4} <= {5}){6}: no masks.\n",
                       p.registerSets == 2 ? "; each writes its own register set to LDS and loads the step three "
                                             "ahead into it"
                                           : "",
                       ahead == 3 ? "three ahead" : "after the next", var, ahead + 2, step, upper,
                       p.splitEdges ? " in an interior workgroup" : "");
    line(d) << formatv("for (; {0}; {1} += {2}) {{\n", whole(ahead + 2), var, step);
    stagedStep(f, d + 1, 0);
    line(d + 1) << formatv("{0} += {1};  // the second step\n", var, step);
    if (p.registerSets == 2)
      for (const Assign *a : p.loads) secondSet.insert(a->dst);
    stagedStep(f, d + 1, 1);
    secondSet.clear();
    line(d) << "}\n";
    line(d) << "// An odd whole step left over: the first step of a pair; the next one reads stage 1.\n";
    line(d) << formatv("if ({0}) {{\n", whole(ahead + 1));
    stagedStep(f, d + 1, 0);
    line(d + 1) << formatv("{0} += {1};\n", var, step);
    line(d + 1) << "stage = 1;\n";
    line(d) << "}\n";
  } else {
    line(d) << formatv("// Main loop: the {0} is whole ({1} + {2} * {3} <= {4}){5}: no masks.\n",
                       inFlight == 3 ? "step after the next" : "next step", var, inFlight, step, upper,
                       p.splitEdges ? " in an interior workgroup" : "");
    line(d) << formatv("for (; {0}; {1} += {2}) {{\n", cond, var, step);
    if (inFlight == 3) stagedStep(f, d + 1);
    else pipelinedStep(f, d + 1);
    line(d) << "}\n";
  }
  fullSteps.erase(var);
  interiorBlock = false;
  if (!p.splitEdges && !p.peelTail) {
    // Every step is whole and every block inside: the last step has nothing to prefetch.
    line(d) << "// The last step: its loads were issued by the step before.\n";
    line(d) << formatv("if ({0} < {1}) {{\n", var, upper);
    if (p.doubleLds) readStage = "stage";
    for (const MMA *m : p.mmas) stmt(*m, d + 1);
    readStage = "0";
    line(d) << "}\n";
  } else {
    maskedBufferLoads = p.bufferLoads && variant == Variant::Vector;
    line(d) << formatv("// The remaining steps, masked; the last one's prefetch lies past the end and reads "
                       "zeros{0}.\n", maskedBufferLoads ? " (buffer loads: out-of-range offsets)" : "");
    line(d) << formatv("for (; {0} < {1}; {0} += {2}) {{\n", var, upper, step);
    pipelinedStep(f, d + 1);
    line(d) << "}\n";
    maskedBufferLoads = false;
  }
  scalesLoaded = false;
  line(depth) << "}\n";
}

void KernelEmitter::nextStepLoads(const For &f, const char *during, unsigned depth) {
  std::string next = formatv("{0} + {1}", f.var, index(*f.step));
  line(depth) << formatv("// The next step's loads ({0}), in flight during this step's {1}.\n", next, during);
  loopVarText[f.var] = next;
  for (const Assign *a : f.plan->loads) stmt(*a, depth);
  loopVarText.erase(f.var);
  stepScales(*f.plan, next, "_next", depth);
}

void KernelEmitter::pipelinedStep(const For &f, unsigned depth) {
  const KLoopPlan &p = *f.plan;
  if (p.schedule && fullSteps.count(f.var)) return scheduledStep(f, depth);
  nextStepLoads(f, "mma", depth);
  // Unconstrained, clang's scheduler sinks the loads among the MFMAs and waits for them at once (gemm_f16, llvm-mca:
  // 345 instead of 221 cycles per step).
  line(depth) << "__builtin_amdgcn_sched_barrier(0);  // the loads stay ahead of the mma\n";
  if (p.doubleLds) readStage = "stage";
  for (const MMA *m : p.mmas) stmt(*m, depth);
  readStage = "0";
  if (p.doubleLds) {
    line(depth) << "// Into the other stage: no wave reads it during this step.\n";
    writeStage = "stage ^ 1";
    for (const LdsWrite *w : p.writes) stmt(*w, depth);
    writeStage = "0";
    line(depth) << "tilec::barrier();  // the next step's LDS is written; this step's reads are done\n";
    line(depth) << "stage ^= 1;\n";
  } else {
    line(depth) << "tilec::barrier();  // every wave has read this step's LDS\n";
    for (const LdsWrite *w : p.writes) stmt(*w, depth);
    line(depth) << "tilec::barrier();  // the next step's LDS is written\n";
  }
  advanceScales(p, depth);
}

/// A main-loop step in the order of the plan's StepSchedule: every fragment of this step, the next step's loads, the
/// MFMAs of all instruction K steps but the last (a group of loads after each of the first ones), the first barrier,
/// the LDS writes with the last instruction K step's MFMAs among them, the second barrier.
void KernelEmitter::scheduledStep(const For &f, unsigned depth) {
  const KLoopPlan &p = *f.plan;
  const KLoopPlan::StepSchedule &s = *p.schedule;
  const MMA &m = *p.mmas.front();
  const MFMAInstr &ins = *m.acc->instr;
  mmaHeader(m, depth);
  if (p.doubleLds) readStage = "stage";
  if (m.scaleA && m.scaleLoads.ldsA) scaleReads(m, "", /*raw=*/false, /*declare=*/false, depth);
  line(depth) << formatv("// Every fragment of this step is read before its first MFMA ({0} LDS reads).\n",
                         s.fragmentReads);
  line(depth) << formatv("{0} a_frag[{1}][{2}], b_frag[{1}][{3}];\n", ins.operandType, s.kSteps, m.acc->blocksY(),
                         m.acc->blocksX());
  line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int kk = 0; kk < {0}; kk += {1}) {{\n", m.k, ins.k);
  kLane(ins, depth + 1);
  mmaFragmentReads(m, formatv("[kk / {0}]", ins.k).str(), depth + 1);
  line(depth) << "}\n";
  readStage = "0";
  nextStepLoads(f, "MFMAs", depth);
  line(depth) << formatv("// The MFMAs of instruction K steps 0 .. {0}.\n", s.kSteps - 2);
  if (m.scaleA) {
    // Each instruction K step's scale byte is a constant opsel: one block per step.
    for (unsigned j = 0; j + 1 < s.kSteps; ++j) {
      line(depth) << "{\n";
      mmaProducts(m, formatv("[{0}]", j).str(), depth + 1, 0, ~0u, static_cast<int>(j));
      line(depth) << "}\n";
    }
  } else {
    if (s.kSteps > 2) line(depth) << "#pragma unroll\n";
    line(depth) << formatv("for (int kk = 0; kk < {0}; kk += {1}) {{\n", (s.kSteps - 1) * ins.k, ins.k);
    mmaProducts(m, formatv("[kk / {0}]", ins.k).str(), depth + 1);
    line(depth) << "}\n";
  }
  int last = static_cast<int>(s.kSteps) - 1;
  if (s.rowsBefore) {
    line(depth) << formatv("// Block rows 0 .. {0} of instruction K step {1}: with them the MFMAs after the last load "
                           "cover its latency ({2} cycles in LLVM's model for {3}).\n",
                           s.rowsBefore - 1, s.kSteps - 1, t.globalLoadLatency, t.name);
    line(depth) << "{\n";
    line(depth + 1) << formatv("const int kk = {0};\n", (s.kSteps - 1) * ins.k);
    mmaProducts(m, formatv("[kk / {0}]", ins.k).str(), depth + 1, 0, s.rowsBefore, last);
    line(depth) << "}\n";
  }
  // The order, as the pipelining pass decided it: the groups fill in program order (0x100 LDS reads, 0x008 MFMAs,
  // 0x020 global loads).
  unsigned loading = s.loadingMfmas();
  line(depth) << formatv("// The order for the MFMA pipe (the pipelining pass's plan): the {0} fragment reads, then "
                         "{1} after each of the first {2} MFMAs, then the other MFMAs.\n",
                         s.fragmentReads,
                         s.loadsPerMfma == 1 ? "one global load" : formatv("{0} global loads", s.loadsPerMfma).str(),
                         loading);
  line(depth) << formatv("__builtin_amdgcn_sched_group_barrier(0x100, {0}, 0);  // LDS reads\n", s.fragmentReads);
  unsigned issued = 0;
  for (unsigned i = 0; i < loading; ++i) {
    unsigned n = std::min(s.loadsPerMfma, s.loads - issued);
    issued += n;
    line(depth) << formatv("__builtin_amdgcn_sched_group_barrier(0x008, 1, 0); __builtin_amdgcn_sched_group_barrier("
                           "0x020, {0}, 0);  // an MFMA, {1}\n",
                           n, n == 1 ? "a global load" : formatv("{0} global loads", n).str());
  }
  if (s.loads > issued)
    line(depth) << formatv("__builtin_amdgcn_sched_group_barrier(0x020, {0}, 0);  // global loads\n",
                           s.loads - issued);
  if (s.mfmasBefore > loading)
    line(depth) << formatv("__builtin_amdgcn_sched_group_barrier(0x008, {0}, 0);  // MFMAs\n",
                           s.mfmasBefore - loading);
  line(depth) << "__builtin_amdgcn_sched_barrier(0);  // nothing crosses into the LDS writes\n";
  if (p.doubleLds) {
    line(depth) << "// Into the other stage: no wave reads it during this step.\n";
    writeStage = "stage ^ 1";
  } else {
    line(depth) << "tilec::barrier();  // every wave has read this step's LDS\n";
  }
  for (const LdsWrite *w : p.writes) stmt(*w, depth);
  writeStage = "0";
  if (s.rowsBefore)
    line(depth) << formatv("// The MFMAs of instruction K step {0}, block rows {1} .. {2}, among the LDS writes.\n",
                           s.kSteps - 1, s.rowsBefore, m.acc->blocksY() - 1);
  else
    line(depth) << formatv("// The MFMAs of instruction K step {0}, among the LDS writes.\n", s.kSteps - 1);
  line(depth) << "{\n";
  line(depth + 1) << formatv("const int kk = {0};\n", (s.kSteps - 1) * ins.k);
  mmaProducts(m, formatv("[kk / {0}]", ins.k).str(), depth + 1, s.rowsBefore, ~0u, last);
  line(depth) << "}\n";
  if (p.doubleLds) {
    line(depth) << "tilec::barrier();  // the next step's LDS is written; this step's reads are done\n";
    line(depth) << "stage ^= 1;\n";
  } else {
    line(depth) << "tilec::barrier();  // the next step's LDS is written\n";
  }
  advanceScales(p, depth);
}

void KernelEmitter::scaleRegisters(const KLoopPlan &p, bool staged, unsigned d) {
  for (const MMA *m : p.mmas) {
    if (!m->scaleA) continue;
    if (m->scaleLoads.ldsA) {
      line(d) << formatv("// The scales of {0}'s mma{1} (read from LDS with the fragments).\n", m->acc->name,
                         staged ? ", this step's and the next step's" : "");
      declareScales(*m, "", d);
      if (staged) declareScales(*m, "_next", d);
    } else {
      line(d) << formatv("// The scales of {0}'s mma, this step's and the next step's (loaded with the next step's "
                         "operands).\n", m->acc->name);
      declareScales(*m, "", d);
      declareScales(*m, "_next", d);
    }
    scalesLoaded = true;
  }
}

void KernelEmitter::stepScales(const KLoopPlan &p, const std::string &k, const std::string &suffix, unsigned d) {
  for (const MMA *m : p.mmas)
    if (m->scaleA && !m->scaleLoads.ldsA) scaleLoads(*m, k, suffix, false, d);
}

void KernelEmitter::advanceScales(const KLoopPlan &p, unsigned d) {
  for (const MMA *m : p.mmas) {
    if (!m->scaleA || m->scaleLoads.ldsA) continue;
    const AccTile &a = *m->acc;
    line(d) << "// The next step's scales become this step's.\n";
    for (unsigned c = 0; c < m->scaleLoads.chunks; ++c) {
      line(d) << "#pragma unroll\n";
      line(d) << formatv("for (int bi = 0; bi < {0}; ++bi) {1}_sa[{2}][bi] = {1}_sa_next[{2}][bi];\n", a.blocksY(),
                         a.name, c);
      line(d) << "#pragma unroll\n";
      line(d) << formatv("for (int bj = 0; bj < {0}; ++bj) {1}_sb[{2}][bj] = {1}_sb_next[{2}][bj];\n", a.blocksX(),
                         a.name, c);
    }
  }
}

namespace {

const char *groupMask(KLoopPlan::StagedSegment::Group g) {
  switch (g) {
  case KLoopPlan::StagedSegment::Group::MFMA: return "0x008";
  case KLoopPlan::StagedSegment::Group::LDSRead: return "0x100";
  case KLoopPlan::StagedSegment::Group::LDSWrite: return "0x200";
  case KLoopPlan::StagedSegment::Group::GlobalLoad: return "0x020";
  }
  return "0x000";
}

const char *groupName(KLoopPlan::StagedSegment::Group g, bool plural) {
  switch (g) {
  case KLoopPlan::StagedSegment::Group::MFMA: return plural ? "MFMAs" : "an MFMA";
  case KLoopPlan::StagedSegment::Group::LDSRead: return plural ? "LDS reads" : "an LDS read";
  case KLoopPlan::StagedSegment::Group::LDSWrite: return plural ? "LDS writes" : "an LDS write";
  case KLoopPlan::StagedSegment::Group::GlobalLoad: return plural ? "global loads" : "a global load";
  }
  return "";
}

} // namespace

void KernelEmitter::stagedFragmentReads(const MMA &m, unsigned j, unsigned depth) {
  const MFMAInstr &ins = *m.acc->instr;
  line(depth) << "{\n";
  line(depth + 1) << formatv("const int kk = {0};\n", j * ins.k);
  kLane(ins, depth + 1);
  mmaFragmentReads(m, formatv("[{0}]", j).str(), depth + 1);
  line(depth) << "}\n";
}

void KernelEmitter::stagedPrefetch(const For &f, const std::string &mainLoopCondition, unsigned depth) {
  const KLoopPlan &p = *f.plan;
  const MMA &m = *p.mmas.front();
  const MFMAInstr &ins = *m.acc->instr;
  std::string next = formatv("{0} + {1}", f.var, index(*f.step));
  line(depth) << "// The staged main loop's fragments: each step reads the next step's instruction K step 0 at its end.\n";
  line(depth) << formatv("{0} a_frag[{1}][{2}], b_frag[{1}][{3}];\n", ins.operandType, p.staged.size(),
                         m.acc->blocksY(), m.acc->blocksX());
  bool sets = p.registerSets == 2; // only with a step per LDS stage (the verifier's rule)
  std::string second = formatv("{0} + 2 * {1}", f.var, index(*f.step));
  if (sets) {
    line(depth) << "// The second register set of the loaded tiles: the second step of each iteration writes it to "
                   "LDS and loads the step three ahead into it.\n";
    for (const Assign *a : p.loads) declareRegisterTile(*a->dst, regName(*a->dst, /*inSecondSet=*/true), depth);
  }
  line(depth) << formatv("// The main loop's first step finds the next step ({0}) in registers{1}, written to LDS at "
                         "its start, and its own instruction K step 0's fragments read.\n", next,
                         sets ? formatv(" (the one after it, {0}, on its way into the second set)", second).str()
                              : "");
  line(depth) << formatv("if ({0}) {{\n", mainLoopCondition);
  interiorBlock = p.splitEdges;
  fullSteps[f.var] = f.step->value;
  loopVarText[f.var] = next;
  for (const Assign *a : p.loads) stmt(*a, depth + 1);
  if (sets) {
    // The loop waits for each set's loads by their count in flight, which LLVM takes at the loop's entry from this
    // order too: interleaved with the second set's, the first set's loads would be waited for as if issued last.
    line(depth + 1) << "__builtin_amdgcn_sched_barrier(0);  // the first set's loads, then the second's\n";
    loopVarText[f.var] = second;
    for (const Assign *a : p.loads) secondSet.insert(a->dst);
    for (const Assign *a : p.loads) stmt(*a, depth + 1);
    secondSet.clear();
  }
  loopVarText.erase(f.var);
  fullSteps.erase(f.var);
  interiorBlock = false;
  readStage = "stage";
  if (m.scaleA && m.scaleLoads.ldsA) scaleReads(m, "", /*raw=*/false, /*declare=*/false, depth + 1);
  stagedFragmentReads(m, 0, depth + 1);
  readStage = "0";
  line(depth) << "}\n";
}

void KernelEmitter::stagedStep(const For &f, unsigned depth, int constStage) {
  const KLoopPlan &p = *f.plan;
  const MMA &m = *p.mmas.front();
  unsigned kSteps = static_cast<unsigned>(p.staged.size());
  // The step whose loads this one issues: two ahead, or three with a register set per step of the iteration.
  unsigned ahead = p.registerSets == 2 ? 3 : 2;
  std::string after = formatv("{0} + {1} * {2}", f.var, ahead, index(*f.step));
  mmaHeader(m, depth);
  line(depth) << formatv("// Staged (pipeline {2}): the next step's tiles go from registers into the other LDS stage, "
                         "the loads of {0} are issued, and each instruction K step's fragments ({1} LDS reads) are "
                         "read during the MFMAs of the one before; the barrier comes before the last instruction K "
                         "step, among whose MFMAs the next step's first fragments are read from the other stage.\n",
                         after, p.stagedReadsPerStep, ahead + 1);
  // The stage this step reads and the one it writes: the variable, or constants in a loop of a step per stage.
  std::string thisStage = constStage < 0 ? "stage" : std::to_string(constStage);
  std::string otherStage = constStage < 0 ? "stage ^ 1" : std::to_string(1 - constStage);
  if (constStage >= 0)
    line(depth) << formatv("// This step reads LDS stage {0} and writes stage {1}{2}.\n", thisStage, otherStage,
                           ahead == 3 ? formatv(" from register set {0}", constStage).str() : "");
  readStage = thisStage;
  size_t writes = 0, loads = 0;
  for (unsigned j = 0; j < kSteps; ++j) {
    const KLoopPlan::StagedSegment &seg = p.staged[j];
    bool last = j + 1 == kSteps;
    line(depth) << formatv("// Instruction K step {0}: its MFMAs{1}{4}{2}{3}.\n", j,
                           last ? ", the next step's fragments of instruction K step 0"
                                : formatv(", the fragments of step {0}", j + 1).str(),
                           seg.writes ? ", the next step's LDS writes (into the other stage)" : "",
                           seg.loads ? formatv(", loads of {0}", after).str() : "",
                           seg.scales ? ", the next step's scales" : "");
    if (last) {
      // Every wave has read this step's stage (its last reads were the segment before) and written the other.
      line(depth) << "tilec::barrier();  // the next step's LDS is written; this step's reads are done\n";
      if (constStage < 0) line(depth) << "stage ^= 1;\n";
      readStage = constStage < 0 ? thisStage : otherStage;
    }
    // The next step's scales, before its fragments: the step's end waits for them.
    if (last && m.scaleA && m.scaleLoads.ldsA) scaleReads(m, "_next", /*raw=*/true, /*declare=*/false, depth);
    stagedFragmentReads(m, last ? 0 : j + 1, depth);
    mmaProducts(m, formatv("[{0}]", j).str(), depth, 0, ~0u, static_cast<int>(j));
    if (seg.scales) {
      // Used by the next step's first MFMAs: loaded a whole step ahead, before the tiles.
      uniformOffsetLoads = p.bufferLoads && variant == Variant::Vector;
      stepScales(p, formatv("{0} + {1}", f.var, index(*f.step)), "_next", depth);
      uniformOffsetLoads = false;
    }
    writeStage = last && constStage < 0 ? "stage" : otherStage;
    for (unsigned w = 0; w < seg.writes; ++w) stmt(*p.writes[writes++], depth);
    writeStage = "0";
    loopVarText[f.var] = after;
    uniformOffsetLoads = p.bufferLoads && variant == Variant::Vector;
    for (unsigned l = 0; l < seg.loads; ++l) stmt(*p.loads[loads++], depth);
    uniformOffsetLoads = false;
    loopVarText.erase(f.var);
    for (const auto &[g, n] : seg.groups)
      line(depth) << formatv("__builtin_amdgcn_sched_group_barrier({0}, {1}, 0);  // {2}{3}\n", groupMask(g), n,
                             n == 1 ? "" : formatv("{0} ", n).str(), groupName(g, n > 1));
    line(depth) << "__builtin_amdgcn_sched_barrier(0);\n";
  }
  readStage = "0";
  if (m.scaleA && m.scaleLoads.ldsA) {
    const ScaleLoads &sl = m.scaleLoads;
    if (sl.readAtLaneGroup)
      line(depth) << "// The next step's scales (read at this lane's group's byte) become this step's.\n";
    else
      line(depth) << formatv("// The next step's scales become this step's, shifted by this lane's group (lane / "
                             "{0}).\n", sl.laneGroup);
    std::string shift = sl.readAtLaneGroup ? "" : formatv(" >> 8 * (lane / {0})", sl.laneGroup).str();
    for (unsigned c = 0; c < sl.chunks; ++c)
      for (auto [side, blocks, block] : {std::tuple{"sa", m.acc->blocksY(), "bi"}, {"sb", m.acc->blocksX(), "bj"}}) {
        line(depth) << "#pragma unroll\n";
        line(depth) << formatv("for (int {0} = 0; {0} < {1}; ++{0}) {2}_{3}[{4}][{0}] = {2}_{3}_next[{4}][{0}]{5};\n",
                               block, blocks, m.acc->name, side, c, shift);
      }
  } else {
    advanceScales(p, depth);
  }
}

} // namespace tilec::hip
