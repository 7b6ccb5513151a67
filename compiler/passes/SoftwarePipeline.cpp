//===- SoftwarePipeline.cpp - Planning K loops -------------------------------===//
//
// The rules, per K loop:
//   splitEdges: the grid tensor's extents are not both known multiples of the block, so some workgroups are partial.
//   peelTail:   the loop's upper bound is not known to be a multiple of the step.
//   the compiler's choice is depth 2, with 2 LDS stages when the doubled LDS fits the CU and costs no occupancy (the
//   resource model's estimate), else with one LDS stage (register prefetch, two barriers per step). A requested `pipeline 2` always double-buffers, and is an error when the doubled LDS does not fit.
//   schedule:   depth 2 and one mma of 2 or more instruction K steps: the order of a main-loop step (see schedule()
//               below), with one LDS stage or two (then without the first barrier).
//
//===----------------------------------------------------------------------===//
#include "passes/SoftwarePipeline.h"
#include "passes/StagedSchedule.h"

#include "analysis/AccessPlan.h"
#include "analysis/KLoopResources.h"
#include "analysis/Occupancy.h"
#include "analysis/ResourceModel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cstring>
#include <set>

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace {

bool mentions(const Index &i, const std::string &var) {
  if (i.kind == Index::Kind::LoopVar && i.name == var) return true;
  return i.isBinary() && (mentions(*i.lhs, var) || mentions(*i.rhs, var));
}

/// The K-loop shape: loads of windows that move with the loop variable, LDS writes of those tiles, a barrier, mma
/// products of those buffers, an optional closing barrier. Fills the statement lists of `plan`.
bool matchKLoop(const For &f, KLoopPlan &plan) {
  if (f.lower->kind != Index::Kind::Const || f.step->kind != Index::Kind::Const) return false;
  size_t at = 0, n = f.body.size();
  std::set<const Tile *> loaded;
  for (; at < n; ++at) {
    auto *a = llvm::dyn_cast<Assign>(f.body[at].get());
    if (!a || a->value->kind != Value::Kind::Load) break;
    if (!mentions(*a->value->row, f.var) && !mentions(*a->value->col, f.var)) return false;
    plan.loads.push_back(a);
    loaded.insert(a->dst);
  }
  std::set<const LdsBuffer *> written;
  for (; at < n; ++at) {
    auto *w = llvm::dyn_cast<LdsWrite>(f.body[at].get());
    if (!w) break;
    if (!loaded.count(w->src) || !written.insert(w->dst).second) return false;
    plan.writes.push_back(w);
  }
  if (at == n || !llvm::isa<Barrier>(f.body[at].get())) return false;
  for (++at; at < n; ++at) {
    auto *m = llvm::dyn_cast<MMA>(f.body[at].get());
    if (!m) break;
    if (!written.count(m->a) || !written.count(m->b) || m->restart) return false;
    plan.mmas.push_back(m);
  }
  if (at < n && llvm::isa<Barrier>(f.body[at].get())) ++at;
  return at == n && !plan.loads.empty() && !plan.writes.empty() && !plan.mmas.empty() &&
         plan.writes.size() == loaded.size();
}

class Planner {
public:
  Planner(Kernel &k, const Target &t, DiagnosticEngine &diags) : k(k), t(t), diags(diags) {}

  bool run(Body &body) {
    bool ok = true;
    for (StmtPtr &s : body)
      if (auto *f = llvm::dyn_cast<For>(s.get())) ok &= loop(*f);
    return ok;
  }

private:
  bool loop(For &f) {
    auto plan = std::make_unique<KLoopPlan>();
    if (!matchKLoop(f, *plan)) {
      if (f.pipeline > 1) {
        diags.error(f.pipelineLoc, formatv("pipeline {0} needs a K loop: loads of windows that move with '{1}', "
                                           "their LDS writes, a barrier, then mma of those buffers", f.pipeline, f.var));
        return false;
      }
      return run(f.body);
    }
    plan->splitEdges = !k.divisible(k.gridTensor->rows, k.gridTileRows) ||
                       (!k.gridWholeRows && !k.divisible(k.gridTensor->cols, k.gridTileCols));
    plan->peelTail = true;
    if (f.upper->kind == Index::Kind::Scalar) plan->peelTail = !k.divisible(Extent{f.upper->name, 0}, f.step->value);
    else if (f.upper->kind == Index::Kind::Const) plan->peelTail = (f.upper->value - f.lower->value) % f.step->value;
    // The plan is the loop's while its depth is chosen, so that the model counts the prefetch and the step order of
    // each candidate.
    f.plan = std::move(plan);
    bool ok = depth(f, *f.plan);
    if (ok && f.plan->depth == 3) stagedSchedule(*f.plan);
    if (ok && !f.plan->depthRequested && f.plan->depth == 3) fitStaged(f);
    if (ok && f.plan->depth == 3) stepPerStage(*f.plan);
    if (ok && f.pipeline == 4) ok = requestedRegisterSets(f);
    if (ok) schedule(*f.plan);
    if (ok && !f.plan->depthRequested && f.plan->depth == 2) fitRegisters(f);
    if (ok) useBufferLoads(*f.plan);
    if (ok && !f.plan->depthRequested && f.plan->stepPerStage) registerSets(*f.plan);
    return ok;
  }

  /// Why a K loop cannot run staged (depth 3), or "" where it can: one mma of 2 or more instruction K steps, 2 LDS
  /// stages, and a masked loop after the main one to take the last steps (split edges or a partial last step). A
  /// scaled mma's scales skip LDS: the next step's load with the first segment (ir::ScaleLoads, a load per block row
  /// and column), two sets live as in the pipelined step; or, in the loop's shape, they are its loads and LDS writes.
  std::string stagedBlocker(const For &f, const KLoopPlan &plan) const {
    if (!prefetches(f)) return "K is a single step (nothing to stage)";
    if (plan.mmas.size() != 1) return "the loop has more than one mma";
    const MMA &m = *plan.mmas.front();
    if (!m.acc || !m.acc->instr) return "its mma has no MFMA instruction";
    if (m.k / m.acc->instr->k < 2) return "its mma is one instruction K step (nothing to read ahead of the MFMAs)";
    if (!plan.splitEdges && !plan.peelTail) return "every block and K step is whole (no masked loop to end it)";
    return "";
  }


  /// ArchVGPRs per lane of one kernel (the vector kernel or its _unaligned one) as planned now, and what a lane holds
  /// of them (archVgprRoom: 256, or more where the accumulators leave AGPRs).
  struct ArchFit {
    unsigned vgprs = 0, room = 0;
    bool fits() const { return vgprs <= room; }
    unsigned over() const { return vgprs > room ? vgprs - room : 0; }
  };
  ArchFit archFit(bool unalignedVariant) const {
    ResourceEstimate e = estimateResources(k, t, unalignedVariant);
    return {e.archVgprs, archVgprRoom(t, e.resources(k.workgroupSize))};
  }
  /// The kernel of the two that is over its room, or else the one with the most ArchVGPRs.
  ArchFit widestArchFit() const {
    ArchFit vector = archFit(false);
    if (!hasUnalignedVariant(planAccesses(k))) return vector;
    ArchFit unaligned = archFit(true);
    if (vector.over() != unaligned.over()) return vector.over() > unaligned.over() ? vector : unaligned;
    return unaligned.vgprs > vector.vgprs ? unaligned : vector;
  }

  /// A staged main loop runs a step per LDS stage each iteration. With the stage a variable, each step computes its
  /// stage's LDS addresses (a multiply and an add per base: 10 of gemm_mxfp4_kn_gfx950's 105 instructions a step)
  /// and closes the loop: at the loop's head and end the MFMA pipe waits for them. Two steps with constant stages put
  /// every stage in the LDS instructions' offsets (gfx950, llvm-mca at true passes, per two steps: mxfp4_kn 311 ->
  /// 281 cycles, fp8_kn 297 -> 265, f16_kn 297 -> 267).
  /// Not where the accumulator fills the AGPR file: the scheduler then runs two steps' fragments and addresses into
  /// the ArchVGPRs it has left and spills (test/Differential/budget-full-agpr-fallback.test: 132 B of scratch with
  /// two steps, none with one). The model does not count what two steps add: LLVM 22 gave four two-step loops of the
  /// differential sample 13 to 17% more VGPRs than the model (test/Differential/sample.test tolerates them by name;
  /// k0044 at 2 waves per SIMD where the model says 3). Guarding with the model (15% more ArchVGPRs must keep its
  /// occupancy) was tried: it also took two steps from five examples that LLVM 22 keeps at their occupancy with them
  /// (gemm_fp8_kn_gfx950 0.96 -> 0.86).
  void stepPerStage(KLoopPlan &plan) const {
    unsigned accs = 0;
    for (const MMA *m : plan.mmas) accs = std::max(accs, m->acc->registers());
    if (accs >= t.maxAgprs) {
      plan.why += formatv("; the main loop runs one step an iteration: its accumulator takes all {0} AGPRs, and two "
                          "steps' registers would spill", t.maxAgprs).str();
      return;
    }
    plan.stepPerStage = true;
    plan.why += "; the main loop runs two steps an iteration, one per LDS stage, so that its LDS addresses are "
                "constant offsets";
  }

  /// A second register set for the loaded tiles (KLoopPlan::registerSets) where a step's MFMAs take less time than a
  /// global load: a step writes the registers it loaded during the step before to LDS at its start, so with one set
  /// a load has a step's MFMAs to land in, and with a set per step of the two-step main loop it has two. Measured
  /// (gfx950, llvm-mca-22, per two steps): gemm_mxfp6_gfx950, 64 passes a step against the model's 80-cycle load,
  /// 223.5 -> 179.5 cycles (0.57 -> 0.71; LLVM 22 238 VGPRs, 2 waves per SIMD, no scratch), gemm_mxfp6_kn_gfx950
  /// 227.6 -> 209.6. Steps of 128 passes gain little or lose (mxfp4 0.88 -> 0.92, f16_kn 0.96 -> 0.98, f16 and fp8
  /// the same, bf16 0.97 -> 0.95): the loads already land within them. The second set must keep the occupancy, and
  /// is for kernels of at most kWavesForRegisterSets waves per SIMD: with more, the other waves' MFMAs cover a wave's
  /// loads, and a wave lost costs more than the set gains (seed 20261123 of test/Differential, k0022: bf16 16 x 16 at
  /// 3 waves, 64 passes a step, 0.41 busy with one set and 0.40 with two, for which LLVM 22 took 188 VGPRs where the
  /// model said 153: 2 waves).
  static constexpr unsigned kWavesForRegisterSets = 2;
  /// How the compiler's choice of a staged loop starts in the plan's why (registerSets() rewrites it).
  static constexpr const char *kStagedChoice = "pipeline 3 (the next step staged in registers)";
  void registerSets(KLoopPlan &plan) const {
    const MMA &m = *plan.mmas.front();
    const MFMAInstr &ins = *m.acc->instr;
    unsigned passes = std::max(1u, ins.cycles / 4) * (m.k / ins.k) * m.acc->blocksY() * m.acc->blocksX();
    if (passes >= t.globalLoadLatency) return;
    unsigned before = occupancy();
    if (before > kWavesForRegisterSets) return;
    plan.registerSets = 2;
    unsigned after = occupancy();
    ArchFit widest = widestArchFit();
    if (!widest.fits() || after < before) {
      plan.registerSets = 1;
      plan.why += !widest.fits()
                      ? formatv("; one register set: with a second, about {0} ArchVGPRs per lane, more than {1} on {2}",
                                widest.vgprs, archRoomText(t, widest.room), t.name).str()
                      : formatv("; one register set: a second would cost occupancy ({0} -> {1} waves per SIMD)",
                                before, after).str();
      return;
    }
    // The compiler's choice is then pipeline 4 (KLoopPlan::pipelineDepth), as the report's first words say.
    if (size_t at = plan.why.find(kStagedChoice); at != std::string::npos)
      plan.why.replace(at, std::strlen(kStagedChoice), "pipeline 4 (the next two steps staged in registers)");
    plan.why += formatv("; 2 register sets, one per step of an iteration, so that a load has two steps to land: a "
                        "step's MFMAs take {0} passes, less than a global load's {1} cycles on {2}; the loads then go "
                        "after the barrier",
                        passes, t.globalLoadLatency, t.name).str();
    stagedSchedule(plan, /*setsPerStep=*/true);
  }

  /// `pipeline 4`: the register set per step of the two-step main loop, or the error where the main loop runs one
  /// step an iteration. The registers are the user's choice: the budget check reports them.
  bool requestedRegisterSets(const For &f) {
    KLoopPlan &plan = *f.plan;
    if (!plan.stepPerStage) {
      diags.error(f.pipelineLoc, formatv("pipeline 4 gives each step of the two-step main loop its own register set, "
                                         "which this loop cannot: its accumulator takes all {0} AGPRs, so its main "
                                         "loop runs one step an iteration (two would spill); use pipeline 3",
                                         t.maxAgprs));
      return false;
    }
    plan.registerSets = 2;
    stagedSchedule(plan, /*setsPerStep=*/true);
    return true;
  }

  /// The compiler's staged loop must fit the registers, as fitRegisters() checks for depth 2; else depth 2.
  void fitStaged(For &f) {
    KLoopPlan &plan = *f.plan;
    ArchFit widest = widestArchFit();
    if (widest.fits()) return;
    plan.depth = 2;
    plan.staged.clear();
    plan.why += formatv("; not staged (pipeline 3): about {0} ArchVGPRs per lane, more than {1} on {2}", widest.vgprs,
                        archRoomText(t, widest.room), t.name).str();
  }

  /// The masked steps' loads through buffer resources, where the kernel has an _unaligned copy for the launcher to
  /// fall back on (a tensor of 2 GiB or more, which a buffer's 32-bit offsets cannot reach). Measured on gemm_f16's
  /// masked copy of the step (clang-19, llvm-mca-19 with buffer_load counted as global_load): exec-masked global
  /// loads 96 instructions, 8 exec branches, 257.5 cycles; buffer loads whose masked-off offset is out of range 73,
  /// none, 237.6; 152 VGPR+AGPR instead of 156. Loads with an `else` value keep the mask (a buffer reads zeros).
  void useBufferLoads(KLoopPlan &plan) {
    if (plan.depth < 2 || !(plan.splitEdges || plan.peelTail) || !hasUnalignedVariant(planAccesses(k))) return;
    for (const Assign *a : plan.loads) {
      const Value &v = *a->value;
      unsigned bytes = a->dst->layout.vec * sizeOf(a->dst->dtype);
      if (v.kind != Value::Kind::Load || !v.operands.empty() || !Target::hasBufferLoad(bytes, a->dst->dtype)) continue;
      plan.bufferLoads = true;
      if (!llvm::is_contained(k.bufferLoaded, v.tensor)) k.bufferLoaded.push_back(v.tensor);
    }
    // A staged step loads a scaled mma's scales through buffers too, at the step's scalar offset (4- and 8-byte
    // chunks): llvm-mca counts global loads in lgkmcnt, so that the fragment reads would wait for them.
    if (plan.bufferLoads && plan.depth == 3)
      for (const MMA *m : plan.mmas)
        if (m->scaleA && !m->scaleLoads.ldsA && m->scaleLoads.chunkBytes >= 4)
          for (const Tensor *scales : {m->scaleA, m->scaleB})
            if (!llvm::is_contained(k.bufferLoaded, scales)) k.bufferLoaded.push_back(scales);
  }

  /// The order of a main-loop step (with 2 LDS stages the same order without the first barrier: the writes go into
  /// the other stage; gemm_f16 with pipeline 2: 218.5 -> 160.0 cycles). Left to itself, clang issues the next step's global loads
  /// first and waits for this step's fragments right after them; llvm-mca-19 (whose gfx942 model counts global loads
  /// in lgkmcnt, as it does flat ones) then waits for the loads too, about 70 of gemm_f16's 223 cycles. Reading every
  /// fragment first, putting one load after each of the first MFMAs and keeping the last instruction K step's MFMAs
  /// for after the first barrier, among the LDS writes, keeps the MFMA pipe fed (gemm_f16: 152 cycles).
  /// The loads must land before the LDS writes: when the MFMAs after the last load and before the barrier take fewer
  /// cycles than the target's global load latency, block rows of the last instruction K step move before the
  /// barrier, as long as the MFMAs left among the LDS writes still take kCyclesAmongWrites (test/CodeGen/Inputs/
  /// gemm_i8_16x16.tile, 32 MFMAs of 4 passes per step: 16 before and 16 after wait 40 cycles for the loads, 168.5
  /// cycles per step; 24 and 8, 154.9).
  void schedule(KLoopPlan &plan) const {
    // A staged loop's _unaligned kernel runs this order (its global loads are not buffer loads; see stagedSchedule).
    if (plan.depth < 2 || plan.mmas.size() != 1) return;
    const MMA &m = *plan.mmas.front();
    if (!m.acc || !m.acc->instr) return;
    const MFMAInstr &ins = *m.acc->instr;
    unsigned kSteps = m.k / ins.k, rows = m.acc->blocksY(), cols = m.acc->blocksX(), blocks = rows * cols;
    if (kSteps < 2) return;
    KLoopPlan::StepSchedule s;
    s.kSteps = kSteps;
    s.fragmentReads = kSteps * fragmentReadsPerKStep(m);
    for (const Assign *a : plan.loads) s.loads += a->dst->layout.accessesPerLane();
    // A scaled mma's scales of the next step load with them (unless staged through LDS: then they are loads of the
    // loop): a load per chunk and block row or column.
    if (m.scaleA && !m.scaleLoads.ldsA) s.loads += m.scaleLoads.chunks * (rows + cols);
    unsigned passes = std::max(1u, ins.cycles / 4);
    unsigned before = (kSteps - 1) * blocks;
    auto covered = [&] {
      s.mfmasBefore = before;
      return (before - s.loadingMfmas()) * passes >= t.globalLoadLatency;
    };
    while (s.rowsBefore + 1 < rows && !covered() && (rows - s.rowsBefore - 1) * cols * passes >= kCyclesAmongWrites) {
      ++s.rowsBefore;
      before += cols;
    }
    // Still short: the loads go out sooner, several after each MFMA, as few as cover the latency; where none do, one
    // each (a 64 x 64 gemm_f16_16x16 on gfx950, 4 MFMAs of 4 passes before the writes: 2 each cost 8 VGPRs and a wave
    // per SIMD for 114 cycles a step against 120).
    while (!covered() && s.loadsPerMfma < std::min(s.loads, std::max(1u, passes / kPassesPerLoad))) ++s.loadsPerMfma;
    if (!covered()) s.loadsPerMfma = 1;
    s.mfmasBefore = before;
    s.mfmasAfter = (kSteps * blocks) - before;
    plan.schedule = s;
  }

  /// The MFMA passes the issue of one global load, with its address arithmetic, takes in the MFMA's shadow: the loads
  /// go out in groups of passes / kPassesPerLoad after each of the first MFMAs.
  static constexpr unsigned kPassesPerLoad = 2;

  /// MFMA cycles (llvm-mca's unit, one pass) that the LDS writes and the first barrier need among them: gemm_f16
  /// with 4 MFMAs of 8 passes there measures 152 cycles per step, with 2, 160.
  static constexpr unsigned kCyclesAmongWrites = 32;

  /// The compiler's choice must fit: when the prefetch's registers take the kernel, or its _unaligned kernel, past
  /// the ArchVGPRs a lane can address, the loop runs 1 step deep instead (a requested depth is the user's, and its
  /// budget error stays). Found on seed 2 of test/Differential (k0317, fp4 on 16 x 16 at 1 wave): 251 ArchVGPRs
  /// pipelined, and 259 with the element paths of its _unaligned kernel, which the budget check then refused.
  /// A loop that prefetches nothing (a single K step known at compile time) is left as it is: the model counts no
  /// prefetch for it, and 1 step deep its accumulators are read out first (KLoopResources.h), never fewer registers.
  void fitRegisters(For &f) {
    if (!prefetches(f)) return;
    ArchFit deep = archFit(false), deepUnaligned;
    if (hasUnalignedVariant(planAccesses(k))) deepUnaligned = archFit(true);
    if (deep.fits() && deepUnaligned.fits()) return;
    KLoopPlan &plan = *f.plan;
    KLoopPlan deeper = plan;
    std::vector<unsigned> stages;
    for (const LdsWrite *w : plan.writes) stages.push_back(w->dst->stages);
    plan.depth = 1;
    plan.doubleLds = false;
    plan.schedule.reset();
    for (const LdsWrite *w : plan.writes) const_cast<LdsBuffer *>(w->dst)->stages = 1;
    // Where only the _unaligned kernel is over, and 1 step deep it still is, the budget check refuses the kernel
    // either way, naming the assumes that remove that kernel: the loop keeps depth 2, which the kernel gets with them.
    if (deep.fits() && !archFit(true).fits()) {
      plan = std::move(deeper);
      for (size_t i = 0; i < plan.writes.size(); ++i) const_cast<LdsBuffer *>(plan.writes[i]->dst)->stages = stages[i];
      return;
    }
    plan.why = !deep.fits()
                   ? formatv("compiler's choice, pipeline 1: prefetching the next step would need about {0} ArchVGPRs "
                             "per lane, more than {1} on {2}",
                             deep.vgprs, archRoomText(t, deep.room), t.name)
                         .str()
                   : formatv("compiler's choice, pipeline 1: prefetching the next step would need about {0} ArchVGPRs "
                             "per lane in the _unaligned kernel ({1} in the vector kernel), more than {2} on {3}",
                             deepUnaligned.vgprs, deep.vgprs, archRoomText(t, deepUnaligned.room), t.name)
                         .str();
  }

  /// The depth and LDS stages; the reason in plan.why.
  bool depth(For &f, KLoopPlan &plan) {
    std::set<LdsBuffer *> buffers;
    for (const LdsWrite *w : plan.writes) buffers.insert(const_cast<LdsBuffer *>(w->dst));
    unsigned loopBytes = 0;
    for (LdsBuffer *b : buffers) loopBytes += b->bytes();
    unsigned now = 0;
    for (const auto &l : k.ldsBuffers) now += l->used ? l->bytes() : 0;
    unsigned doubled = now + loopBytes;
    plan.depthRequested = f.pipeline != 0;
    if (f.pipeline == 1) {
      plan.why = "pipeline 1 as written: each K step loads, writes LDS and multiplies in turn";
      return true;
    }
    // A single K step known at compile time prefetches nothing, and the model counts no prefetch registers for it
    // (KLoopResources.h); clang-19 still compiles the two forms differently. Pipeline 2 (a prologue and a masked
    // loop) reads the accumulators group by group in the epilogue (seed 1 of test/Differential, k0671: 30 ArchVGPRs
    // and 112 AGPRs; pipeline 1: 134 and 128). With all 256 AGPRs taken by the accumulators, its _unaligned kernel
    // spilled 16 B where pipeline 1 has no scratch (k0329, known-scratch-fp8.test): pipeline 1 there.
    if (!f.pipeline && !prefetches(f)) {
      unsigned accs = 0;
      for (const MMA *m : plan.mmas) accs = std::max(accs, m->acc->registers());
      if (accs >= t.maxAgprs) {
        plan.why = formatv("compiler's choice, pipeline 1: K is a single step ({0} of {1}) and the accumulators take "
                           "all {2} AGPRs", f.upper->value - f.lower->value, f.step->value, t.maxAgprs);
        return true;
      }
    }
    plan.depth = 2;
    if (f.pipeline >= 3) {
      std::string blocker = stagedBlocker(f, plan);
      if (doubled > t.ldsBytesPerCU) return ldsOverflow(f, now, loopBytes, doubled);
      if (!blocker.empty()) {
        diags.error(f.pipelineLoc, formatv("pipeline {0} stages the next K step in registers, which this loop "
                                           "cannot: {1}; use pipeline 2", f.pipeline, blocker));
        return false;
      }
      setStages(plan, buffers);
      plan.depth = 3;
      plan.why = f.pipeline == 4
                     ? formatv("pipeline 4 as written: the next two steps' tiles wait in registers, a set for each "
                               "step of the two-step main loop, and each step writes its set to the other LDS stage "
                               "at its start while the loads of the step three ahead are in flight ({0} B + {1} B = "
                               "{2} B of LDS, one barrier per step)", now, loopBytes, doubled).str()
                     : formatv("pipeline 3 as written: the next step's tiles wait in registers and are written to the "
                               "other LDS stage at the start of this step, while the loads of the step after it are "
                               "in flight ({0} B + {1} B = {2} B of LDS, one barrier per step)", now, loopBytes,
                               doubled).str();
      return true;
    }
    if (f.pipeline == 2) {
      if (doubled > t.ldsBytesPerCU) return ldsOverflow(f, now, loopBytes, doubled);
      setStages(plan, buffers);
      plan.why = formatv("pipeline 2 as written: the next step's loads are issued before this step's mma, and the LDS "
                         "buffers have 2 stages ({0} B + {1} B = {2} B), so each step needs one barrier",
                         now, loopBytes, doubled);
      return true;
    }
    // The compiler's choice: 2 stages when they cost no occupancy. Both candidates are measured whole: the
    // registers of the prefetch and of the ordered step included (gemm_bf16_gfx950: one stage is 2 waves per SIMD
    // by its registers, so 2 stages, 2 by their LDS, cost nothing).
    schedule(plan);
    unsigned before = occupancy(), after = 0;
    if (doubled <= t.ldsBytesPerCU) {
      setStages(plan, buffers);
      after = occupancy();
    }
    plan.schedule.reset();
    if (after && after >= before && stagedBlocker(f, plan).empty()) {
      // With 2 stages, staging costs no LDS: the MFMAs wait neither for this step's loads nor for all its fragments.
      plan.depth = 3;
      plan.why = formatv("compiler's choice, {5} with 2 LDS stages: {0} B "
                         "+ {1} B = {2} B of LDS keep {3} wave{4} per SIMD", now, loopBytes, doubled, after,
                         after == 1 ? "" : "s", kStagedChoice);
    } else if (after && after >= before) {
      plan.why = formatv("compiler's choice, pipeline 2 with 2 LDS stages: {0} B + {1} B = {2} B of LDS keep {3} "
                         "wave{4} per SIMD{5}", now, loopBytes, doubled, after, after == 1 ? "" : "s",
                         formatv(" (not staged: {0})", stagedBlocker(f, plan)).str());
    } else {
      for (LdsBuffer *b : buffers) b->stages = 1;
      plan.doubleLds = false;
      plan.why = formatv("compiler's choice, pipeline 2 with one LDS stage (two barriers per step): 2 stages would "
                         "need {0} B + {1} B = {2} B of LDS, {3}",
                         now, loopBytes, doubled,
                         after ? formatv("{0} wave{1} per SIMD instead of {2}", after, after == 1 ? "" : "s", before)
                                     .str()
                               : formatv("more than the {0} B of a CU", t.ldsBytesPerCU).str());
    }
    return true;
  }

  /// The error for a requested depth whose second LDS stage does not fit the CU; false.
  bool ldsOverflow(const For &f, unsigned now, unsigned loopBytes, unsigned doubled) {
    diags.error(f.pipelineLoc,
                formatv("pipeline {0} double-buffers the LDS of this K loop: {1} B + {2} B for the second stage = "
                        "{3} B, more than the {4} B of a CU on {5}; use pipeline 1 or smaller LDS buffers",
                        f.pipeline, now, loopBytes, doubled, t.ldsBytesPerCU, t.name));
    return false;
  }

  /// Waves per SIMD of the kernel as it stands (the resource model's estimate).
  unsigned occupancy() const {
    return computeOccupancy(t, estimateResources(k, t).resources(k.workgroupSize)).wavesPerSimd;
  }

  void setStages(KLoopPlan &plan, const std::set<LdsBuffer *> &buffers) {
    plan.doubleLds = true;
    for (LdsBuffer *b : buffers) b->stages = 2;
  }

  Kernel &k;
  const Target &t;
  DiagnosticEngine &diags;
};

} // namespace

bool tilec::planPipelines(Module &module, DiagnosticEngine &diags) {
  bool ok = true;
  for (auto &k : module.kernels) ok &= Planner(*k, *module.target, diags).run(k->body);
  return ok;
}
