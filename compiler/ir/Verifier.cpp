//===- Verifier.cpp - Checking the IR invariants ----------------------------===//
#include "ir/Verifier.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::ir;
using llvm::cast;

namespace {

class Verifier {
public:
  Verifier(const Target &target, DiagnosticEngine &diags) : target(target), diags(diags) {}

  bool kernel(const Kernel &k) {
    this->k = &k;
    if (k.workgroupSize == 0 || k.workgroupSize % target.waveSize != 0 || k.workgroupSize > target.maxWorkgroupSize)
      fail(k.loc, llvm::formatv("workgroup size {0} is not whole waves within the target's limit", k.workgroupSize));
    if (!k.gridTensor || k.gridTileRows == 0 || (k.gridTileCols == 0) != k.gridWholeRows) fail(k.loc, "kernel has no grid");
    for (const auto &t : k.tensors)
      if (t->rank == 3 && (!k.batched || (t->batchGroup == 1 && t->batch.text() != k.gridTensor->batch.text())))
        fail(t->loc, "a 3-D tensor outside a grid over its batch");
    for (const auto &t : k.tiles) tile(*t);
    body(k.body);
    return ok;
  }

private:
  void fail(llvm::SMRange loc, const llvm::Twine &what) {
    diags.error(loc, "internal error: IR verifier: " + what);
    ok = false;
  }

  void tile(const Tile &t) {
    const Layout &l = t.layout;
    LayoutRequest req;
    req.pattern = l.pattern;
    req.rows = l.rows;
    req.cols = l.cols;
    req.elemBytes = sizeOf(t.dtype);
    req.threads = k->workgroupSize;
    req.waveSize = target.waveSize;
    req.maxAccessBytes = target.maxBytesPerLaneAccess;
    req.vec = l.vec;
    req.waveGrid = {l.wavesY, l.wavesX};
    std::vector<LayoutProblem> problems;
    std::optional<Layout> again = solveLayout(req, problems);
    if (!again || again->lanesX != l.lanesX || again->laneRows != l.laneRows || again->rowsPerLane != l.rowsPerLane ||
        l.elemBytes != sizeOf(t.dtype) || l.threads != k->workgroupSize)
      fail(t.loc, llvm::formatv("tile '{0}' has a layout that does not re-solve to itself", t.name));
    if (l.bytesPerAccess() > target.maxBytesPerLaneAccess)
      fail(t.loc, llvm::formatv("tile '{0}' moves {1} B per access", t.name, l.bytesPerAccess()));
  }

  void body(const Body &b) {
    for (const StmtPtr &s : b) stmt(*s);
  }

  void stmt(const Stmt &s) {
    switch (s.kind) {
    case Stmt::Kind::Assign: {
      auto &a = cast<Assign>(s);
      value(*a.value);
      if (a.value->dtype != a.dst->dtype) fail(s.loc, "assignment changes dtype without a cast");
      if (a.value->layout && !a.value->layout->sameMapping(a.dst->layout))
        fail(s.loc, "assignment between different distributions");
      return;
    }
    case Stmt::Kind::Store: {
      auto &st = cast<Store>(s);
      index(*st.row);
      index(*st.col);
      value(*st.value);
      if (!st.value->isTile || (!st.value->layout && !st.value->acc))
        fail(s.loc, "store of a value without a distribution");
      if (st.value->dtype != st.tensor->dtype) fail(s.loc, "store changes dtype without a cast");
      if (st.value->layout && st.value->layout->oneD != (st.tensor->rank == 1))
        fail(s.loc, "a 1-D tile stores to a 1-D tensor, a 2-D tile to a 2-D or 3-D one");
      return;
    }
    case Stmt::Kind::For: {
      auto &f = cast<For>(s);
      index(*f.lower);
      index(*f.upper);
      index(*f.step);
      if (f.step->kind == Index::Kind::Const && f.step->value <= 0) fail(s.loc, "loop step is not positive");
      loopVars.push_back(f.var);
      body(f.body);
      loopVars.pop_back();
      return;
    }
    case Stmt::Kind::Barrier: return;
    case Stmt::Kind::Reduce: {
      auto &r = cast<Reduce>(s);
      value(*r.value);
      if (r.dst && r.dst->sourceAcc) {
        // The rows of an accumulator's values: each lane's values of a row, then the lanes that share it.
        const AccTile &a = *r.dst->sourceAcc;
        if (r.axis != 1 || r.dst->axis != 1 || r.value->acc != &a || r.value->layout || r.value->reducedAxis != -1 ||
            !r.value->isTile)
          fail(s.loc, "reduction of a value that is not in its destination's accumulator layout");
        else if (r.value->dtype != r.dst->dtype)
          fail(s.loc, "reduction changes dtype without a cast");
        else if (r.dst->rows != a.rows || r.dst->cols != 1)
          fail(s.loc, "reduction into a tile of the wrong shape");
        return;
      }
      if (!r.dst || !r.dst->source || r.axis != r.dst->axis || !r.value->layout || r.value->reducedAxis != -1 ||
          !r.value->layout->sameMapping(*r.dst->source))
        fail(s.loc, "reduction of a value that is not a tile of its destination's distribution");
      else if (r.value->dtype != r.dst->dtype)
        fail(s.loc, "reduction changes dtype without a cast");
      else if (r.axis == 1 ? r.dst->rows != r.value->layout->rows || r.dst->cols != 1
                           : r.dst->cols != r.value->layout->cols || r.dst->rows != 1)
        fail(s.loc, "reduction into a tile of the wrong shape");
      return;
    }
    case Stmt::Kind::LdsRead: {
      auto &r = cast<LdsRead>(s);
      if (!r.dst || !r.src) return fail(s.loc, "LDS read without a tile or a buffer");
      unsigned rows = r.transpose ? r.src->cols : r.src->rows, cols = r.transpose ? r.src->rows : r.src->cols;
      if (r.dst->rows() != rows || r.dst->cols() != cols || r.dst->dtype != r.src->dtype || r.dst->layout.oneD)
        fail(s.loc, "LDS read between different shapes or dtypes");
      if (r.src->transposed != r.transpose || r.src->transposeReads || info(r.src->dtype).values != 1)
        fail(s.loc, "LDS read of a buffer stored for another reader");
      return;
    }
    case Stmt::Kind::ReducedAssign: {
      auto &a = cast<ReducedAssign>(s);
      value(*a.value);
      const Value &v = *a.value;
      if (!a.dst || !a.dst->distributed()) return fail(s.loc, "assignment to a reduced tile without a distribution");
      if (v.dtype != a.dst->dtype) fail(s.loc, "assignment changes dtype without a cast");
      if (a.dst->sourceAcc) {
        if (v.predicate || (v.isTile && (v.acc != a.dst->sourceAcc || v.layout || v.reducedAxis != 1)))
          fail(s.loc, "a reduced tile of an accumulator's rows is assigned a value not reduced along its rows");
        return;
      }
      if (v.acc || v.predicate) fail(s.loc, "a reduced tile is assigned an accumulator value or a predicate");
      else if (v.isTile && (!v.layout || v.reducedAxis != static_cast<int>(a.dst->axis) ||
                            !v.layout->sameMapping(*a.dst->source)))
        fail(s.loc, "a reduced tile is assigned a value that is not reduced along its axis in its distribution");
      return;
    }
    case Stmt::Kind::AccAssign: {
      auto &a = cast<AccAssign>(s);
      value(*a.value);
      const Value &v = *a.value;
      if (!a.dst || !a.dst->instr) return fail(s.loc, "accumulator assignment before its instruction is chosen");
      if (v.dtype != a.dst->dtype) fail(s.loc, "assignment changes dtype without a cast");
      if (v.predicate || v.layout || (v.isTile && v.acc != a.dst))
        fail(s.loc, "an accumulator is assigned a value that is not in its own C/D layout");
      return;
    }
    case Stmt::Kind::AccLdsWrite: {
      auto &w = cast<AccLdsWrite>(s);
      value(*w.value);
      const Value &v = *w.value;
      if (!w.dst || !v.acc || !v.isTile || v.layout || v.reducedAxis != -1 || v.predicate)
        return fail(s.loc, "LDS write of a value that is not in an accumulator's C/D layout");
      if (w.dst->rows != v.acc->rows || w.dst->cols != v.acc->cols || w.dst->dtype != v.dtype)
        fail(s.loc, "LDS write between different shapes or dtypes");
      if (w.dst->transposed || w.dst->transposeReads || w.dst->stages != 1)
        fail(s.loc, "LDS write of an accumulator's values into a buffer stored for another reader");
      return;
    }
    case Stmt::Kind::FragmentRead: return; // verifyLdsLifetimes
    case Stmt::Kind::LdsWrite: {
      auto &w = cast<LdsWrite>(s);
      if (!w.dst || !w.src || w.dst->rows != w.src->rows() || w.dst->cols != w.src->cols() ||
          w.dst->dtype != w.src->dtype)
        fail(s.loc, "LDS write between different shapes or dtypes");
      return;
    }
    case Stmt::Kind::MMA: {
      auto &m = cast<MMA>(s);
      const MFMAInstr *ins = m.acc ? m.acc->instr : nullptr;
      if (!ins || !m.a || !m.b) return fail(s.loc, "mma without an instruction or operands");
      if (!ins->availableOn(target)) fail(s.loc, llvm::formatv("{0} is not available on {1}", ins->name, target.name));
      if (m.a->dtype != ins->a || m.b->dtype != ins->b || m.acc->dtype != ins->acc)
        fail(s.loc, "mma operand dtypes differ from the instruction's");
      if (m.k == 0 || m.k % ins->k != 0) fail(s.loc, "mma K is not a multiple of the instruction's K");
      if (m.acc->waveRows() % ins->m != 0 || m.acc->waveCols() % ins->n != 0)
        fail(s.loc, "accumulator does not split into whole instruction blocks");
      // B read with transposing reads is stored as declared, K x N (an element of packed values holds several N
      // values); otherwise as N x K.
      unsigned bColumns = m.b->transposeReads ? m.b->cols * info(m.b->dtype).values : m.b->storedRows();
      if (m.b->transposed && info(m.b->dtype).values > 1)
        fail(s.loc, "a B operand of packed values is stored transposed");
      if (m.a->storedRows() != m.acc->rows || bColumns != m.acc->cols)
        fail(s.loc, "mma operands do not match the accumulator's shape");
      if (m.scaleA) {
        // The scales of a K step: whole chunks, each holding whole instruction K steps (passes/PlanScaleLoads.h).
        const ScaleLoads &sl = m.scaleLoads;
        bool chunkWidth = sl.chunkBytes == 2 || sl.chunkBytes == 4 || sl.chunkBytes == 8;
        // Staged through LDS: two buffers, e8m0 of the accumulator's rows (columns) by the step's bytes.
        bool lds = !sl.ldsA && !sl.ldsB;
        if (sl.ldsA && sl.ldsB)
          lds = sl.ldsA != sl.ldsB && sl.ldsA->dtype == DType::E8M0 && sl.ldsB->dtype == DType::E8M0 && sl.ldsA->rows == m.acc->rows &&
                sl.ldsB->rows == m.acc->cols && sl.ldsA->cols == sl.bytes && sl.ldsB->cols == sl.bytes;
        bool planned = chunkWidth && lds && sl.chunks * sl.chunkBytes == sl.bytes && sl.perInstr * sl.laneGroup == 64 &&
                       sl.laneGroup == ins->m && sl.chunkBytes % sl.perInstr == 0 && sl.select.size() == m.k / ins->k;
        for (size_t j = 0; planned && j < sl.select.size(); ++j) {
          const ScaleLoads::Select &x = sl.select[j];
          planned = x.chunk < sl.chunks && x.chunk * sl.chunkBytes + x.dword * 4 + x.opsel == j * sl.perInstr &&
                    x.opsel < 4 && x.dword * 4 < sl.chunkBytes;
        }
        if (!planned) fail(s.loc, "scaled mma whose scale loads do not cover its K step");
      }
      if (m.aFrom) {
        // A from an accumulator's registers: its lanes hold A's fragments in runs of 4 (passes/ForwardAccOperands.h).
        const AccTile *x = m.aFrom->value->acc;
        if (!m.aFrom->forwarded || m.aFrom->dst != m.a || m.a->used || ins->kRun() != 4 || !x || !x->instr ||
            x->instr->m != ins->m || x->rows != m.acc->rows || x->wavesY != m.acc->wavesY || x->wavesX != 1 ||
            m.acc->wavesX != 1 || x->cols != m.k)
          fail(s.loc, "mma whose A comes from registers that do not hold its fragments");
      }
      return;
    }
    }
  }

  void index(const Index &i) {
    if (i.isBinary()) {
      if (!i.lhs || !i.rhs) return fail(i.loc, "index operator without operands");
      index(*i.lhs);
      index(*i.rhs);
      return;
    }
    if (i.kind == Index::Kind::LoopVar &&
        std::find(loopVars.begin(), loopVars.end(), i.name) == loopVars.end())
      fail(i.loc, llvm::formatv("loop variable '{0}' used outside its loop", i.name));
    if (i.kind == Index::Kind::Scalar) {
      bool found = false;
      for (const auto &s : k->scalars) found |= s->name == i.name && s->dtype == DType::I32;
      if (!found) fail(i.loc, llvm::formatv("index names '{0}', which is not an i32 argument", i.name));
    }
  }

  void value(const Value &v) {
    for (const auto &op : v.operands) value(*op);
    if (v.isTile && !v.layout && !v.acc) fail(v.loc, "tile value without a distribution");
    switch (v.kind) {
    case Value::Kind::TileRef:
      if (!v.tile || v.layout != &v.tile->layout || v.dtype != v.tile->dtype) fail(v.loc, "inconsistent tile reference");
      return;
    case Value::Kind::AccRef:
      if (!v.acc || !v.acc->instr || v.dtype != v.acc->dtype) fail(v.loc, "inconsistent accumulator reference");
      return;
    case Value::Kind::ScalarRef:
      if (!v.scalar || v.isTile || v.dtype != v.scalar->dtype) fail(v.loc, "inconsistent scalar reference");
      return;
    case Value::Kind::Const: return;
    case Value::Kind::IndexRef:
      if (!v.row || v.isTile || v.dtype != DType::I32) return fail(v.loc, "malformed index value");
      index(*v.row);
      return;
    case Value::Kind::ElementIndex:
      if (v.dtype != DType::I32 || !v.isTile || v.indexAxis > 1 ||
          (v.tile ? v.layout != &v.tile->layout || v.layout->oneD || v.acc : !v.acc || v.layout))
        fail(v.loc, "inconsistent element index");
      return;
    case Value::Kind::ReducedRef:
      if (!v.reduced || !v.reduced->distributed() || v.layout != v.reduced->source || v.acc != v.reduced->sourceAcc ||
          v.reducedAxis != static_cast<int>(v.reduced->axis) || v.dtype != v.reduced->dtype)
        fail(v.loc, "inconsistent reduced tile reference");
      return;
    case Value::Kind::Select:
      if (v.operands.size() != 3 || !v.operands[0]->predicate || v.operands[1]->dtype != v.dtype ||
          v.operands[2]->dtype != v.dtype || v.operands[1]->predicate || v.operands[2]->predicate)
        fail(v.loc, "malformed select");
      return;
    case Value::Kind::Load:
      if (!v.tensor || !v.row || !v.col || v.dtype != v.tensor->dtype || v.operands.size() > 1 ||
          (!v.operands.empty() && v.operands[0]->isTile))
        return fail(v.loc, "malformed load");
      // A load lands in a register tile's distribution or in an accumulator's C/D layout, not both.
      if ((v.acc != nullptr) == (v.layout != nullptr) || (!v.acc && v.reducedAxis != -1))
        return fail(v.loc, "load without one distribution");
      if (v.layout && v.layout->oneD != (v.tensor->rank == 1))
        fail(v.loc, "a 1-D tile loads from a 1-D tensor, a 2-D tile from a 2-D or 3-D one");
      index(*v.row);
      index(*v.col);
      return;
    case Value::Kind::Unary:
      if (v.operands.size() != 1 || v.operands[0]->dtype != v.dtype) fail(v.loc, "malformed unary operation");
      return;
    case Value::Kind::Binary:
      if (v.operands.size() != 2 || v.operands[0]->dtype != v.dtype || v.operands[1]->dtype != v.dtype ||
          v.predicate != isComparison(v.op))
        fail(v.loc, "binary operation on mixed dtypes");
      else if (v.operands[0]->layout && v.operands[1]->layout &&
               !v.operands[0]->layout->sameMapping(*v.operands[1]->layout))
        fail(v.loc, "binary operation on different distributions");
      return;
    case Value::Kind::Cast:
      if (v.operands.size() != 1) fail(v.loc, "malformed cast");
      return;
    }
  }

  const Target &target;
  DiagnosticEngine &diags;
  const Kernel *k = nullptr;
  std::vector<std::string> loopVars;
  bool ok = true;
};

} // namespace

bool tilec::verifyModule(const Module &module, DiagnosticEngine &diags) {
  if (!module.target) {
    diags.errorNoLoc("internal error: IR verifier: module has no target");
    return false;
  }
  bool ok = true;
  for (const auto &k : module.kernels) ok &= Verifier(*module.target, diags).kernel(*k);
  return ok;
}

namespace {

/// What the emitter and the resource model rely on in a K loop's plan.
void verifyPlan(const For &f, DiagnosticEngine &diags, bool &ok) {
  const KLoopPlan &p = *f.plan;
  auto fail = [&](const std::string &what) {
    diags.error(f.loc, "internal error: IR verifier: K loop over '" + f.var + "': " + what);
    ok = false;
  };
  if (p.depth < 1 || p.depth > 3) return fail("pipeline depth out of range");
  if (p.doubleLds && p.depth < 2) fail("2 LDS stages without a prefetch");
  for (const LdsWrite *w : p.writes)
    if ((w->dst->stages == 2) != p.doubleLds) fail("an LDS buffer's stages disagree with the plan");
  if (p.schedule) {
    // The emitter's sched_group_barrier groups: every MFMA of the step once, the loads in groups after MFMAs.
    const KLoopPlan::StepSchedule &s = *p.schedule;
    if (p.depth < 2 || p.mmas.size() != 1 || !p.mmas.front()->acc || !p.mmas.front()->acc->instr)
      return fail("a step order without a prefetch or one mma");
    const MMA &m = *p.mmas.front();
    if (s.kSteps != m.k / m.acc->instr->k ||
        s.mfmasBefore + s.mfmasAfter != s.kSteps * m.acc->blocksY() * m.acc->blocksX())
      fail("a step order whose MFMAs differ from the mma's");
    if (s.loadsPerMfma == 0) fail("a step order with no loads after each MFMA");
  }
  if (p.depth != 3) {
    if (!p.staged.empty()) fail("a staged order in a loop that is not staged");
    if (p.stepPerStage) fail("a step per LDS stage in a loop that is not staged");
    if (p.registerSets != 1) fail("register sets in a loop that is not staged");
    return;
  }
  // Two register sets: the two steps of an iteration each own one, so that no set is chosen at run time.
  if (p.registerSets < 1 || p.registerSets > 2) fail("register sets out of range");
  if (p.registerSets == 2 && !p.stepPerStage) fail("2 register sets in a main loop of one step an iteration");
  // Staged: one mma, 2 stages, a masked loop after the main one, one segment per instruction K step that
  // places every write and load once and holds that step's MFMAs.
  if (!p.doubleLds) fail("staged with one LDS stage");
  if (!p.splitEdges && !p.peelTail) fail("staged without a masked loop to end it");
  if (p.mmas.size() != 1 || !p.mmas.front()->acc || !p.mmas.front()->acc->instr)
    return fail("staged without exactly one mma");
  const MMA &m = *p.mmas.front();
  unsigned kSteps = m.k / m.acc->instr->k, blocks = m.acc->blocksY() * m.acc->blocksX();
  if (p.staged.size() != kSteps) return fail("staged segments differ from the instruction K steps");
  unsigned writes = 0, loads = 0, scales = 0;
  for (const KLoopPlan::StagedSegment &seg : p.staged) {
    writes += seg.writes;
    loads += seg.loads;
    scales += seg.scales;
    unsigned mfmas = 0;
    for (const auto &[g, n] : seg.groups)
      if (g == KLoopPlan::StagedSegment::Group::MFMA) mfmas += n;
    if (mfmas != blocks) fail("a staged segment's MFMAs differ from an instruction K step's blocks");
  }
  if (writes != p.writes.size() || loads != p.loads.size()) fail("staged segments do not place every write and load once");
  if (scales != (m.scaleA && !m.scaleLoads.ldsA ? 1u : 0u))
    fail("a staged scaled mma's next scales are not loaded exactly once");
  // The last segment follows the step's barrier: an LDS write there would race with the other waves' reads.
  if (p.staged.back().writes) fail("an LDS write after the staged step's barrier");
}

void verifyPlans(const Body &body, DiagnosticEngine &diags, bool &ok) {
  for (const StmtPtr &s : body)
    if (const auto *f = llvm::dyn_cast<For>(s.get())) {
      if (f->plan) verifyPlan(*f, diags, ok);
      verifyPlans(f->body, diags, ok);
    }
}

} // namespace

bool tilec::verifyPlans(const Module &module, DiagnosticEngine &diags) {
  bool ok = true;
  for (const auto &k : module.kernels) ::verifyPlans(k->body, diags, ok);
  return ok;
}

namespace {

/// Whether an mma or an accumulator's values use `b` in `body` (the column XOR is for register tiles only).
bool usedByMma(const Body &body, const LdsBuffer &b) {
  for (const StmtPtr &s : body) {
    if (const auto *f = llvm::dyn_cast<For>(s.get())) {
      if (usedByMma(f->body, b)) return true;
    } else if (const auto *m = llvm::dyn_cast<MMA>(s.get())) {
      if (m->a == &b || m->b == &b) return true;
    } else if (const auto *w = llvm::dyn_cast<AccLdsWrite>(s.get())) {
      if (w->dst == &b) return true;
    }
  }
  return false;
}

/// Scales read at a lane group's byte (ScaleLoads::readAtLaneGroup, set after the module verifier has run, by
/// readScalesAtLaneGroups): a target that reads LDS at any byte, plain rows
/// (neither swizzled nor XORed: the byte after a row's chunk is the next one's), and the bytes the last row's reads
/// reach after each stage; "" where that holds.
std::string scalesAtLaneGroups(const Body &body, const Target &t) {
  for (const StmtPtr &s : body) {
    if (const auto *f = llvm::dyn_cast<For>(s.get())) {
      if (std::string why = scalesAtLaneGroups(f->body, t); !why.empty()) return why;
      continue;
    }
    const auto *m = llvm::dyn_cast<MMA>(s.get());
    if (!m || !m->scaleLoads.readAtLaneGroup) continue;
    const ScaleLoads &sl = m->scaleLoads;
    if (!t.ldsUnalignedReads || !sl.ldsA || !sl.ldsB) return "scales read at lane groups' bytes, not staged in LDS";
    for (const LdsBuffer *b : {sl.ldsA, sl.ldsB})
      if (b->swizzled() || b->colXorred() || b->transposed || b->tailBytes < sl.readSlack())
        return "lds " + b->name + ": scales read at lane groups' bytes past its rows";
  }
  return "";
}

} // namespace

bool tilec::verifyLdsLayouts(const Module &module, DiagnosticEngine &diags) {
  bool ok = true;
  for (const auto &k : module.kernels)
    if (std::string why = scalesAtLaneGroups(k->body, *module.target); !why.empty()) {
      diags.error(k->loc, "internal error: IR verifier: " + why);
      ok = false;
    }
  for (const auto &k : module.kernels)
    for (const auto &b : k->ldsBuffers) {
      auto fail = [&](const std::string &what) {
        diags.error(b->loc, "internal error: IR verifier: lds " + b->name + ": " + what);
        ok = false;
      };
      unsigned rows = b->storedRows();
      if (b->swizzled()) {
        if (!b->transposed) fail("rows swizzled in a buffer not stored transposed");
        if (b->swizzleShift + llvm::countr_one(b->swizzleMask) > b->swizzleFrom || (rows & (rows - 1)) ||
            (1u << b->swizzleFrom) >= rows)
          fail("a row swizzle that is not its own inverse inside the buffer");
      }
      if (!b->colXorred()) continue;
      if (b->swizzled()) fail("both rows swizzled and columns XORed");
      if (b->slotted() || b->transposeReads || usedByMma(k->body, *b))
        fail("columns XORed in a buffer that is not only register tiles'");
      unsigned bytes = b->storedCols() * sizeOf(b->dtype), chunks = bytes / LdsBuffer::kXorChunkBytes;
      unsigned span = (b->colXorMask + 1) << b->colXorShift;
      if (LdsBuffer::kXorChunkBytes % sizeOf(b->dtype) || bytes % LdsBuffer::kXorChunkBytes ||
          (b->colXorMask & (b->colXorMask + 1)) || chunks % span)
        fail("a column XOR that moves a chunk out of its row");
    }
  return ok;
}
