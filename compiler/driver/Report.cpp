//===- Report.cpp - The report in text and JSON -----------------------------===//
#include "driver/Report.h"
#include "target/MFMA.h"

#include "analysis/AccessPlan.h"
#include "analysis/LDSBanks.h"
#include "analysis/MemoryTraffic.h"
#include "analysis/ResourceModel.h"
#include "driver/LayoutPrinter.h"
#include "driver/ReportKLoop.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include <algorithm>

using namespace tilec;
using llvm::formatv;

namespace {

void printItems(llvm::StringRef title, unsigned total, const std::vector<ResourceItem> &items, llvm::raw_ostream &os) {
  os << formatv("    {0}: {1}\n", title, total);
  for (const ResourceItem &item : items) os << formatv("      {0,3}  {1}\n", item.count, item.what);
}

std::string extentText(const ir::Extent &e) { return e.text(); }

std::string launcherSignature(const ir::Kernel &k) {
  std::string s = "launch_" + k.name + "(";
  for (const auto &t : k.tensors) s += t->name + ", ";
  for (const auto &sc : k.scalars) s += sc->name + ", ";
  return s + "stream)";
}

/// How each reduction runs (passes/ReductionStrategy), one line per statement.
void printReductions(const ir::Body &body, llvm::raw_ostream &os, bool first = true) {
  for (const ir::StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<ir::For>(s.get())) {
      printReductions(f->body, os, first);
      continue;
    }
    auto *r = llvm::dyn_cast<ir::Reduce>(s.get());
    if (!r || !r->plan) continue;
    if (first) os << "  reductions:\n";
    first = false;
    os << formatv("    {0} {1}= {2}(..., axis = {3}): {4}\n", r->dst->name, r->accumulate ? "+" : "", spelling(r->op),
                  r->axis, r->plan->why);
  }
}

/// "s = mma(...): why" for each mma whose A is in registers (passes/ForwardAccOperands, passes/HoistFragments).
void forwardedOperands(const ir::Body &body, std::vector<std::string> &out) {
  for (const ir::StmtPtr &s : body)
    if (auto *f = llvm::dyn_cast<ir::For>(s.get())) forwardedOperands(f->body, out);
    else if (auto *m = llvm::dyn_cast<ir::MMA>(s.get()); m && (m->aFrom || !m->aHoistedWhy.empty()))
      out.push_back(formatv("{0} {1} mma(...): {2}", m->acc->name, m->restart ? "=" : "+=",
                            m->aFrom ? m->aFromWhy : m->aHoistedWhy).str());
}

/// The reductions of a body in statement order (loops included).
void reductions(const ir::Body &body, std::vector<const ir::Reduce *> &out) {
  for (const ir::StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<ir::For>(s.get())) reductions(f->body, out);
    else if (auto *r = llvm::dyn_cast<ir::Reduce>(s.get()); r && r->plan) out.push_back(r);
  }
}

const char *stepName(ir::CrossLaneStep::Kind k) {
  switch (k) {
  case ir::CrossLaneStep::Kind::DppQuadPerm: return "dpp_quad_perm";
  case ir::CrossLaneStep::Kind::DppRowHalfMirror: return "dpp_row_half_mirror";
  case ir::CrossLaneStep::Kind::DppRowMirror: return "dpp_row_mirror";
  case ir::CrossLaneStep::Kind::DsSwizzle: return "ds_swizzle";
  case ir::CrossLaneStep::Kind::DsBpermute: return "ds_bpermute";
  }
  return "?";
}

/// The JSON twin of printReductions: per reduction its plan (passes/ReductionStrategy) field by field.
void writeReductions(const ir::Kernel &k, llvm::json::OStream &json) {
  std::vector<const ir::Reduce *> rs;
  reductions(k.body, rs);
  std::vector<std::string> forwarded;
  forwardedOperands(k.body, forwarded);
  json.attributeArray("operands_in_registers", [&] {
    for (const std::string &why : forwarded) json.value(why);
  });
  if (!k.ldsSharedWhy.empty()) json.attribute("lds_sharing", k.ldsSharedWhy);
  json.attributeArray("reductions", [&] {
    for (const ir::Reduce *r : rs)
      json.object([&] {
        json.attribute("result", r->dst->name);
        json.attribute("op", spelling(r->op));
        json.attribute("axis", r->axis);
        json.attribute("accumulate", r->accumulate);
        json.attribute("in_lane", r->plan->inLane);
        json.attribute("lanes", r->plan->lanes);
        json.attributeArray("cross_lane_steps", [&] {
          for (const ir::CrossLaneStep &st : r->plan->steps)
            json.object([&] {
              json.attribute("kind", stepName(st.kind));
              json.attribute("lane_xor", st.laneXor);
            });
        });
        json.attribute("waves", r->plan->waves);
        json.attribute("lds_bytes", r->plan->ldsBytes);
        json.attribute("why", r->plan->why);
      });
  });
}

/// Two lines per access: its width, then what decides whether the vector path runs.
std::string accessText(const ir::Kernel &k, const AccessPlan &p) {
  std::string cols = extentText(p.tensor->cols);
  unsigned accesses = p.via      ? p.via->layout.accessesPerLane()
                      : p.viaAcc ? (p.broadcast == 0   ? p.viaAcc->blocksX() * p.viaAcc->instr->accPerLane / 4
                                    : p.broadcast == 1 ? p.viaAcc->blocksY()
                                                       : p.viaAcc->registers() / p.vec)
                                 : p.reducedAccesses;
  std::string via = p.via ? " via " + p.via->name : p.viaAcc ? " via " + p.viaAcc->name : "";
  std::string out = formatv("{0} {1}{2}: {3} x {4} B per lane ({5} x {6})\n", p.isStore ? "store" : "load ",
                            p.tensor->name, via, accesses, p.bytes, p.vec, name(p.tensor->dtype));
  if (p.viaAcc && p.isStore)
    out += formatv("      the mma issues B's fragment first, so each {0} block holds c transposed: a lane's values are "
                   "rows of c, 4 consecutive columns per store\n", p.viaAcc->instr->name).str();
  else if (p.viaAcc)
    out += formatv(p.broadcast == 0   ? "      epilogue operand, one row repeated down the rows of {0}: each lane loads "
                                        "its 4 columns of each block column and value group once, before the stores "
                                        "({1} VGPRs)\n"
                   : p.broadcast == 1 ? "      epilogue operand, one column repeated along the columns of {0}: each "
                                        "lane loads its row of each block row once, before the stores ({1} VGPRs)\n"
                                      : "      epilogue operand in the C/D layout of {0}: 4 consecutive columns of a "
                                        "row per load, each just before the store of the same values\n",
                   p.viaAcc->name, accesses * ((p.bytes + 3) / 4)).str();
  if (p.vec == 1) return out + "      one element per access\n";
  const unsigned align = accessAlignment(p.bytes); // a 12-byte access (dwordx3) needs a dword
  if (p.alignedAtCompileTime && p.tensor->stride) {
    return out + formatv("      always {0}-byte accesses: {1} % {2} == 0 and {3} % {2} == 0 (the row stride) are known "
                         "or assumed; the launcher checks that {4} is {5}-byte aligned\n", p.bytes, cols, p.vec,
                         extentText(*p.tensor->stride), p.tensor->name, align).str();
  }
  if (p.alignedAtCompileTime) {
    bool assumed = p.tensor->cols.isSymbol();
    bool exactly = false;
    for (const ir::Assumption &a : k.assumptions) exactly |= a.symbol == cols && a.modulus == p.vec;
    return out + formatv("      always {0}-byte accesses: {1} % {2} == 0 {3}{4}\n", p.bytes, cols, p.vec,
                         !assumed ? "is known" : exactly ? "is assumed" : "follows from the assumptions",
                         assumed ? formatv("; the launcher checks that {0} is {1}-byte aligned", p.tensor->name,
                                           align).str()
                                 : "").str();
  }
  if (p.tensor->stride) {
    // Rows `stride` elements apart start on vector boundaries only when the stride is a multiple of vec too.
    std::string stride = extentText(*p.tensor->stride);
    return out + formatv("      {0}-byte accesses when {1} % {2} == 0, {3} % {2} == 0 (the row stride) and {4} is "
                         "{6}-byte aligned (the launcher checks); otherwise the _unaligned kernel runs: {0}-byte "
                         "accesses that need only element alignment, element by element across row ends{5}\n",
                         p.bytes, cols, p.vec, stride, p.tensor->name,
                         p.tensor->cols.isSymbol() && p.tensor->stride->isSymbol()
                             ? formatv("; 'assume {0} % {1} == 0;' and 'assume {2} % {1} == 0;' drop this condition",
                                       cols, p.vec, stride).str()
                             : "",
                         align).str();
  }
  return out + formatv("      {0}-byte accesses when {1} % {2} == 0 and {3} is {5}-byte aligned (the launcher checks); "
                       "otherwise the _unaligned kernel runs: {0}-byte accesses that need only element alignment, "
                       "element by element across {4}; 'assume {1} % {2} == 0;' drops this condition\n",
                       p.bytes, cols, p.vec, p.tensor->name,
                       p.tensor->rank == 1 ? "the end of the tensor" : "row ends", align).str();
}

/// "resources": {...} of an estimate, with its items, as an attribute of the current JSON object.
void writeResources(const ResourceEstimate &e, llvm::json::OStream &json) {
  json.attributeObject("resources", [&] {
    json.attribute("vgprs", e.archVgprs);
    json.attribute("agprs", e.agprs);
    // Where the compiler keeps the accumulators (counted in "agprs" either way): "agprs" or "arch_vgprs".
    if (e.agprs) json.attribute("accumulators_in", e.accumulatorsInAgprs ? "agprs" : "arch_vgprs");
    json.attribute("sgprs", e.sgprs);
    json.attribute("lds_bytes", e.ldsBytes);
    auto items = [&](llvm::StringRef key, const std::vector<ResourceItem> &list) {
      json.attributeArray(key, [&] {
        for (const ResourceItem &item : list)
          json.object([&] {
            json.attribute("what", item.what);
            json.attribute("count", item.count);
          });
      });
    };
    items("vgpr_items", e.vgprItems);
    items("agpr_items", e.agprItems);
    items("sgpr_items", e.sgprItems);
    items("lds_items", e.ldsItems);
  });
}


} // namespace

/// Where a kernel's ArchVGPRs go past those a lane addresses into the AGPRs its accumulators leave (archVgprRoom).
static void printArchOverflow(const Target &t, const ResourceEstimate &e, const KernelResources &r,
                              llvm::StringRef kernel, llvm::raw_ostream &os) {
  if (e.archVgprs <= t.maxArchVgprs) return;
  os << formatv("    {0}{1} ArchVGPRs past the {2} a lane addresses: LLVM places them in the AGPRs the accumulators "
                "leave (loaded values and MFMA operands, or spills there), within {3} - {4} = {5}\n",
                kernel.empty() ? "" : kernel + ": ", e.archVgprs - t.maxArchVgprs, t.maxArchVgprs,
                archVgprRoom(t, r) + r.agprs, r.agprs, archVgprRoom(t, r));
}

/// Why the compiler is asked for `asked` waves per SIMD (passes/OccupancyHint.cpp): the model's occupancy, or fewer
/// where the estimate with its margin does not fit the registers of that occupancy.
static std::string whyAsked(const Target &t, const KernelResources &r, unsigned asked) {
  Occupancy o = computeOccupancy(t, r);
  if (asked >= o.wavesPerSimd)
    return formatv("the model's occupancy; {0}'s compiler may otherwise settle for a wave fewer", t.name).str();
  unsigned total = registerEdge(t, r).total, perLane = vgprsAtWaves(t, o.wavesPerSimd);
  unsigned margin = withRegisterMargin(total);
  unsigned fewer = o.wavesPerSimd - asked;
  return formatv("{0} under the model's {1}: the estimate, {2} VGPRs per lane, with its {3}% margin is {4}, more "
                 "than the {5} a lane has at {1} waves; asked for {1}, the compiler would meet them by spilling to "
                 "scratch wherever the estimate is short",
                 fewer == 1 ? std::string("one wave") : formatv("{0} waves", fewer).str(),
                 o.wavesPerSimd, total, kRegisterEdgePercent, margin, perLane)
      .str();
}

void tilec::printLdsBanks(const ir::Kernel &k, const Target &t, llvm::raw_ostream &os, const ir::LdsBuffer *only) {
  std::vector<LdsAccessCost> costs = ldsAccessCosts(k, t);
  if (only) llvm::erase_if(costs, [&](const LdsAccessCost &c) { return c.buffer != only; });
  if (costs.empty()) return;
  os << formatv("  LDS banks of {0} (LDS cycles per wave; ideal: one per phase):\n", t.name);
  for (const LdsAccessCost &c : costs) {
    std::string verdict = c.conflictFree()
                              ? std::string("conflict-free")
                              : formatv("up to {0}-way conflicts{1}", c.worst.ways,
                                        c.worst.rule->measured ? "" : " (phases inferred)").str();
    os << formatv("    {0}: {1} x {2} per wave, {3} cycles (ideal {4}), {5}\n", c.what, c.instructions,
                  c.instruction, c.cycles, c.ideal, verdict);
  }
}

/// Every LDS write and fragment read with its cost in the target's LDS banks (LDSBanks.h).
static void writeLdsBanks(const ir::Kernel &k, const Target &t, llvm::json::OStream &json) {
  json.attributeArray("lds_accesses", [&] {
    for (const LdsAccessCost &c : ldsAccessCosts(k, t)) {
      json.object([&] {
        json.attribute("buffer", c.buffer->name);
        json.attribute("what", c.what);
        json.attribute("kind", c.write ? "write" : "read");
        if (c.tile) json.attribute("tile", c.tile->name);
        json.attribute("instruction", c.instruction);
        json.attribute("bytes", c.bytes);
        json.attribute("instructions_per_wave", c.instructions);
        json.attribute("cycles_per_wave", c.cycles);
        json.attribute("ideal_cycles_per_wave", c.ideal);
        json.attribute("worst_ways", c.worst.ways);
        json.attribute("phase_rule_measured", c.worst.rule->measured);
        json.attribute("worst_wave", c.worstWave);
        json.attribute("worst_phase", c.worst.worstPhase);
        json.attributeArray("worst_phase_conflicting_lanes", [&] {
          for (unsigned lane : c.worst.worstPhaseConflicts) json.value(lane);
        });
      });
    }
  });
}

void tilec::printReport(const ir::Module &m, llvm::StringRef fileName, llvm::raw_ostream &os) {
  const Target &t = *m.target;
  os << formatv("tilec report: {0} for {1} ({2}, {3})\n", fileName, t.name, t.product, t.family);
  for (const auto &k : m.kernels) {
    os << formatv("\nkernel {0}\n", k->name);
    os << formatv("  workgroup {0} threads = {0} / {1} = {2} waves\n", k->workgroupSize, t.waveSize, k->waves(t));
    const ir::Tensor &g = *k->gridTensor;
    if (g.rank == 1)
      os << formatv("  grid over {0}: ceil({1} / {2}) workgroups (x), {2} elements each\n", g.name, extentText(g.cols),
                    k->gridTileCols);
    else if (k->gridWholeRows)
      os << formatv("  grid over {0}: ceil({1} / {2}){3} workgroups (y = row bands of {2} whole rows{4})\n", g.name,
                    extentText(g.rows), k->gridTileRows, k->batched ? " x " + extentText(g.batch) : "",
                    k->batched ? ", z = the batch" : "");
    else
      os << formatv("  grid over {0}: ceil({1} / {2}) x ceil({3} / {4}){5} workgroups (x = column blocks, y = row "
                    "blocks{6})\n",
                    g.name, extentText(g.cols), k->gridTileCols, extentText(g.rows), k->gridTileRows,
                    k->batched ? " x " + extentText(g.batch) : "", k->batched ? ", z = the batch" : "");
    os << "  launcher: " << launcherSignature(*k) << "\n";
    for (const auto &tile : k->tiles) {
      os << "  ";
      printTileHeading(*tile, os);
      describeDistribution(*tile, t, 4, os);
    }
    std::vector<AccessPlan> plans = planAccesses(*k);
    if (!plans.empty()) os << "  memory:\n";
    for (const AccessPlan &p : plans) os << "    " << accessText(*k, p);
    printLdsBanks(*k, t, os);
    std::vector<const ir::For *> loops;
    report::kLoops(k->body, loops);
    for (const ir::For *f : loops) report::printKLoop(*k, *f, os);
    printReductions(k->body, os);
    std::vector<std::string> forwarded;
    forwardedOperands(k->body, forwarded);
    for (const std::string &why : forwarded) os << "  " << why << "\n";
    if (!k->ldsSharedWhy.empty()) os << "  lds sharing: " << k->ldsSharedWhy << "\n";
    ResourceEstimate e = estimateResources(*k, t);
    os << "  resources (estimated before code generation):\n";
    printItems("ArchVGPRs per lane", e.archVgprs, e.vgprItems, os);
    if (e.accumulatorsInAgprs) {
      printItems("AGPRs per lane", e.agprs, e.agprItems, os);
      printArchOverflow(t, e, e.resources(k->workgroupSize), "", os);
    } else {
      printItems("accumulators per lane, in ArchVGPRs", e.agprs, e.agprItems, os);
      os << formatv("      (the VGPR form of the MFMAs, as LLVM 22 selects it: {0} + {1} = {2} ArchVGPRs, within the {3} a "
                    "lane addresses)\n",
                    e.archVgprs, e.agprs, e.archVgprs + e.agprs, t.maxArchVgprs);
    }
    printItems("SGPRs per wave", e.sgprs, e.sgprItems, os);
    printItems("LDS bytes per workgroup", e.ldsBytes, e.ldsItems, os);
    os << "  occupancy on " << t.name << ":\n";
    printOccupancy(computeOccupancy(t, e.resources(k->workgroupSize)), 4, os);
    if (k->wavesPerEU)
      os << formatv("    asked of the compiler: amdgpu_waves_per_eu({0}) ({1})\n", k->wavesPerEU,
                    whyAsked(t, e.resources(k->workgroupSize), k->wavesPerEU));
    else if (!k->wavesNotAsked.empty())
      os << "    asked of the compiler: no occupancy (" << k->wavesNotAsked << ")\n";
    printRegisterEdge(registerEdge(t, e.resources(k->workgroupSize)), "", os);
    if (hasUnalignedVariant(plans)) {
      ResourceEstimate u = estimateResources(*k, t, /*unalignedVariant=*/true);
      Occupancy uo = computeOccupancy(t, u.resources(k->workgroupSize));
      os << formatv("  kernel {0}: runs unless {1}\n", unalignedName(*k), vectorKernelCondition(plans));
      // The same figure when a floor of both kernels (a GEMM epilogue's accumulator values) covers the element paths.
      // A staged K loop runs staged in the vector kernel only: there the _unaligned kernel can take fewer.
      std::string extra = u.archVgprs == e.archVgprs ? "no more than the vector kernel"
                          : u.archVgprs < e.archVgprs
                              ? formatv("{0} fewer than the vector kernel, whose K loop is staged",
                                        e.archVgprs - u.archVgprs)
                                    .str()
                              : formatv("{0} more for the element paths at row ends", u.archVgprs - e.archVgprs).str();
      std::string limit = uo.limiter == Limiter::None ? std::string("the maximum")
                                                      : formatv("limited by {0}", limiterName(uo.limiter)).str();
      os << formatv("    ArchVGPRs per lane: {0} ({1}); {2} wave{3} per SIMD, {4}{5}\n", u.archVgprs, extra,
                    uo.wavesPerSimd, uo.wavesPerSimd == 1 ? "" : "s", limit,
                    k->wavesPerEUUnaligned
                        ? formatv("; asked of the compiler: amdgpu_waves_per_eu({0}){1}", k->wavesPerEUUnaligned,
                                  k->wavesPerEUUnaligned < uo.wavesPerSimd
                                      ? " (" + whyAsked(t, u.resources(k->workgroupSize), k->wavesPerEUUnaligned) + ")"
                                      : std::string())
                              .str()
                        : std::string());
      printArchOverflow(t, u, u.resources(k->workgroupSize), unalignedName(*k), os);
      printRegisterEdge(registerEdge(t, u.resources(k->workgroupSize)), unalignedName(*k), os);
    }
    if (k->accs.empty())
      printMemoryTraffic(memoryTraffic(*k, t, computeOccupancy(t, e.resources(k->workgroupSize))), t, os);
  }
}

void tilec::printReportJSON(const ir::Module &m, llvm::StringRef fileName, llvm::raw_ostream &os) {
  const Target &t = *m.target;
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("file", fileName);
    json.attribute("target", t.name);
    json.attributeArray("kernels", [&] {
      for (const auto &k : m.kernels) {
        json.object([&] {
          json.attribute("name", k->name);
          json.attribute("workgroup_size", k->workgroupSize);
          json.attribute("waves", k->waves(t));
          json.attributeObject("grid", [&] {
            json.attribute("tensor", k->gridTensor->name);
            json.attributeArray("tile", [&] {
              json.value(k->gridTileRows);
              json.value(k->gridTileCols);
            });
            json.attribute("whole_rows", k->gridWholeRows);
          });
          json.attribute("launcher", launcherSignature(*k));
          json.attributeArray("tiles", [&] {
            for (const auto &tile : k->tiles) json.object([&] { writeDistribution(*tile, json); });
          });
          ResourceEstimate e = estimateResources(*k, t);
          writeResources(e, json);
          writeOccupancy(computeOccupancy(t, e.resources(k->workgroupSize)), json);
          writeRegisterEdge(registerEdge(t, e.resources(k->workgroupSize)), json);
          json.attribute("waves_per_eu_asked", k->wavesPerEU); // 0: not asked (Target::occupancyHint)
          if (!k->wavesNotAsked.empty()) json.attribute("waves_per_eu_not_asked", k->wavesNotAsked);
          if (k->accs.empty())
            writeMemoryTraffic(memoryTraffic(*k, t, computeOccupancy(t, e.resources(k->workgroupSize))), json);
          std::vector<AccessPlan> plans = planAccesses(*k);
          if (hasUnalignedVariant(plans)) {
            ResourceEstimate u = estimateResources(*k, t, /*unalignedVariant=*/true);
            json.attributeObject("unaligned_kernel", [&] {
              json.attribute("name", unalignedName(*k));
              json.attribute("runs_unless", vectorKernelCondition(plans));
              writeResources(u, json);
              writeOccupancy(computeOccupancy(t, u.resources(k->workgroupSize)), json);
              writeRegisterEdge(registerEdge(t, u.resources(k->workgroupSize)), json);
              json.attribute("waves_per_eu_asked", k->wavesPerEUUnaligned);
            });
          }
          json.attributeArray("k_loops", [&] {
            std::vector<const ir::For *> loops;
            report::kLoops(k->body, loops);
            for (const ir::For *f : loops) report::writeKLoop(*k, *f, json);
          });
          json.attributeArray("accesses", [&] {
            for (const AccessPlan &p : plans) {
              json.object([&] {
                json.attribute("tensor", p.tensor->name);
                json.attribute("kind", p.isStore ? "store" : "load");
                json.attribute("vec", p.vec);
                json.attribute("bytes", p.bytes);
                json.attribute("aligned_at_compile_time", p.alignedAtCompileTime);
              });
            }
          });
          writeLdsBanks(*k, t, json);
          writeReductions(*k, json);
        });
      }
    });
  });
  os << "\n";
}

void tilec::printOccupancy(const Occupancy &o, unsigned indent, llvm::raw_ostream &os) {
  for (const std::string &line : o.derivation) os.indent(indent) << line << "\n";
  if (!o.hints.empty()) os.indent(indent) << "to raise it:\n";
  for (const std::string &hint : o.hints) os.indent(indent + 2) << hint << "\n";
}

void tilec::printRegisterEdge(const RegisterEdge &e, llvm::StringRef kernel, llvm::raw_ostream &os) {
  if (!e.near) return;
  std::string what = e.arch ? formatv("{0} ArchVGPRs per lane of {1}", e.archVgprs,
                                      e.archRoom > 256 ? formatv("the {0} a lane holds", e.archRoom).str()
                                                       : std::string("the 256 a lane addresses"))
                                  .str()
                            : formatv("{0} VGPRs per lane of the {1} a lane has at {2} wave{3} per SIMD (the fewest "
                                      "this workgroup runs at)",
                                      e.total, e.room, e.wavesNeeded, e.wavesNeeded == 1 ? "" : "s")
                                  .str();
  os << formatv("    at the register edge{0}: {1}; within the model's {2}%, the compiler may spill\n",
                kernel.empty() ? "" : (" (" + kernel + ")").str(), what, kRegisterEdgePercent);
}

void tilec::writeRegisterEdge(const RegisterEdge &e, llvm::json::OStream &json) {
  json.attributeObject("register_edge", [&] {
    json.attribute("near", e.near);
    json.attribute("vgprs", e.total);
    json.attribute("room", e.room);
    json.attribute("waves_needed", e.wavesNeeded);
    json.attribute("percent", kRegisterEdgePercent);
  });
}

void tilec::writeOccupancy(const Occupancy &o, llvm::json::OStream &json) {
  json.attributeObject("occupancy", [&] {
    json.attribute("waves_per_simd", o.wavesPerSimd);
    json.attribute("waves_per_cu", o.wavesPerCU);
    json.attribute("limiter", limiterName(o.limiter));
    json.attributeObject("limits", [&] {
      json.attribute("vgpr", o.vgprLimit);
      json.attribute("sgpr", o.sgprLimit);
      json.attribute("lds", o.ldsLimit);
      json.attribute("workgroups", o.workgroupLimit);
    });
    json.attribute("launchable", o.launchable);
    json.attributeArray("derivation", [&] {
      for (const std::string &line : o.derivation) json.value(line);
    });
    json.attributeArray("hints", [&] {
      for (const std::string &hint : o.hints) json.value(hint);
    });
  });
}

void tilec::printOccupancyQuery(const Target &t, const KernelResources &r, bool asJSON, llvm::raw_ostream &os) {
  Occupancy o = computeOccupancy(t, r);
  if (!asJSON) {
    os << formatv("occupancy on {0} ({1}, {2}) of a kernel with {3} ArchVGPRs, {4} AGPRs, {5} SGPRs, {6} B of LDS and "
                  "workgroups of {7} threads\n",
                  t.name, t.product, t.family, r.archVgprs, r.agprs, r.sgprs, r.ldsBytes, r.workgroupSize);
    printOccupancy(o, 2, os);
    return;
  }
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("target", t.name);
    json.attributeObject("resources", [&] {
      json.attribute("vgprs", r.archVgprs);
      json.attribute("agprs", r.agprs);
      json.attribute("sgprs", r.sgprs);
      json.attribute("lds_bytes", r.ldsBytes);
      json.attribute("workgroup_size", r.workgroupSize);
    });
    writeOccupancy(o, json);
  });
  os << "\n";
}
