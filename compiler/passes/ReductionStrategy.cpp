//===- ReductionStrategy.cpp - How each reduction runs ------------------------===//
#include "passes/ReductionStrategy.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace {

/// The cross-lane move that pairs each lane with lane ^ `distance`, within groups of consecutive lanes (a row
/// reduction) or not.
CrossLaneStep step(unsigned distance, bool consecutive) {
  CrossLaneStep s;
  s.laneXor = distance;
  if (distance <= 2) s.kind = CrossLaneStep::Kind::DppQuadPerm;
  else if (distance == 4 && consecutive) s.kind = CrossLaneStep::Kind::DppRowHalfMirror;
  else if (distance == 8 && consecutive) s.kind = CrossLaneStep::Kind::DppRowMirror;
  else if (distance <= 16) s.kind = CrossLaneStep::Kind::DsSwizzle;
  else s.kind = CrossLaneStep::Kind::DsBpermute;
  return s;
}

const char *kindName(CrossLaneStep::Kind k) {
  switch (k) {
  case CrossLaneStep::Kind::DppQuadPerm: return "DPP quad_perm";
  case CrossLaneStep::Kind::DppRowHalfMirror: return "DPP row_half_mirror";
  case CrossLaneStep::Kind::DppRowMirror: return "DPP row_mirror";
  case CrossLaneStep::Kind::DsSwizzle: return "ds_swizzle";
  case CrossLaneStep::Kind::DsBpermute: return "ds_bpermute";
  }
  return "?";
}

void plan(Body &body) {
  for (StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<For>(s.get())) plan(f->body);
    else if (auto *r = llvm::dyn_cast<Reduce>(s.get())) {
      DType accumulate = r->dst->dtype == DType::I32 ? DType::I32 : DType::F32;
      r->plan = std::make_unique<ReducePlan>(r->dst->sourceAcc ? planAccRowReduction(*r->dst->sourceAcc, accumulate)
                                                               : planReduction(*r->value->layout, r->axis, accumulate));
    }
  }
}

} // namespace

ReducePlan tilec::planReduction(const Layout &l, unsigned axis, DType accumulate) {
  ReducePlan p;
  p.accumulate = accumulate;
  bool rows = axis == 1;
  // A row's columns: vec per access, X0 consecutive lanes, Wx waves. A column's rows: R accesses, L lanes X0 apart,
  // Wy waves.
  p.inLane = rows ? l.vec : l.rowsPerLane;
  p.lanes = rows ? l.lanesX : l.laneRows;
  unsigned stride = rows ? 1 : l.lanesX;
  for (unsigned d = stride; d < stride * p.lanes; d *= 2) p.steps.push_back(step(d, rows));
  p.waves = rows ? l.wavesX : l.wavesY;
  if (p.waves > 1) p.ldsBytes = p.waves * (rows ? l.rows : l.cols) * sizeOf(accumulate);
  std::string how;
  for (const CrossLaneStep &s : p.steps)
    how += formatv("{0}{1} (lane ^ {2})", how.empty() ? "" : ", ", kindName(s.kind), s.laneXor).str();
  p.why = formatv("{0} {1} per lane combined in registers; {2}{3}; {4}", p.inLane,
                  rows ? "elements of a row" : "rows of a column",
                  p.lanes == 1 ? "no lane shares a " : formatv("{0} lanes share each ", p.lanes).str(),
                  rows ? "row" : "column", how.empty() ? "" : how + "; ")
              .str();
  p.why += p.waves == 1 ? "one wave holds each whole " + std::string(rows ? "row" : "column")
                        : formatv("{0} waves share each {1}: their partials meet in {2} B of LDS", p.waves,
                                  rows ? "row" : "column", p.ldsBytes).str();
  return p;
}

ReducePlan tilec::planAccRowReduction(const AccTile &a, DType accumulate) {
  // Lane l holds row l % m of each block: the 64 / m lanes l, l + m, ... share a row, each with accPerLane of its
  // columns per block and blocksX blocks along it. Sema keeps each row within one wave (waves [W, 1]).
  ReducePlan p;
  p.accumulate = accumulate;
  const MFMAInstr &ins = *a.instr;
  p.inLane = a.blocksX() * ins.accPerLane;
  p.lanes = 64 / ins.m;
  for (unsigned d = ins.m; d < 64; d *= 2) p.steps.push_back(step(d, false));
  p.waves = 1;
  std::string how;
  for (const CrossLaneStep &s : p.steps)
    how += formatv("{0}{1} (lane ^ {2})", how.empty() ? "" : ", ", kindName(s.kind), s.laneXor).str();
  p.why = formatv("{0} elements of a row per lane ({1} block{2} x {3}) combined in registers; {4} lanes share each row "
                  "of acc {5}'s C/D layout: {6}; one wave holds each whole row",
                  p.inLane, a.blocksX(), a.blocksX() == 1 ? "" : "s", ins.accPerLane, p.lanes, a.name, how)
              .str();
  return p;
}

void tilec::planReductions(Module &module) {
  for (auto &k : module.kernels) plan(k->body);
}
