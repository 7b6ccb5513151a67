//===- PlanScaleLoads.cpp - A scaled mma's scales, a K step's at once -------===//
//
// See PlanScaleLoads.h. The chunk is the widest of 8, 4 and 2 bytes that divides the step's bytes: every chunk then
// holds whole instruction K steps (perInstr, 2 or 4, divides it), so a lane's shifted byte never leaves its chunk.
//
// Read from LDS at the lane group's byte (ScaleLoads::readAtLaneGroup), the scales need no shift: an unaligned
// ds_read_b32 (read2 for two block rows) instead of an aligned one and a v_lshrrev_b32 per block row and step
// (gemm_mxfp6_gfx950, llvm-mca-22 per two steps: 130 -> 119 instructions, 154.6 -> 149.7 cycles, 0.83 -> 0.86).
//
// Staging through LDS: a scale chunk loaded by the lane that uses it must arrive before the step that uses it, and a
// register loaded during one step and used in the next is a copy at the loop's end that waits for the load (LLVM's
// phi copies): with llvm-mca's 80-cycle global loads and a step of under 80 cycles, gemm_mxfp4_gfx950 waited 35
// cycles a step for its scales (112 cycles a step, 0.57 busy). As register tiles written to LDS with the operands,
// the scales are loaded two steps ahead in a staged loop like every other load, cooperatively (one 2-byte load per
// lane for a 128 x 4 B block instead of a 4-byte load per lane and fragment row), and read with the fragments.
//
//===----------------------------------------------------------------------===//
#include "passes/PlanScaleLoads.h"

#include "analysis/Occupancy.h"
#include "analysis/ResourceModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"

using namespace tilec;
using namespace tilec::ir;

ScaleLoads tilec::scaleLoadsFor(const MFMAInstr &ins, unsigned kColumns) {
  ScaleLoads s;
  // A's columns per scale block: fp4x2 packs 2 values per column, fp6x4 4.
  unsigned perBlock = ScaledMFMAInstr::kBlock / info(ins.a).values;
  s.laneGroup = ins.m;
  s.perInstr = ins.k / perBlock;
  unsigned kSteps = kColumns / ins.k;
  s.bytes = kSteps * s.perInstr;
  for (unsigned c : {8u, 4u, 2u})
    if (s.bytes % c == 0) {
      s.chunkBytes = c;
      break;
    }
  s.chunks = s.chunkBytes ? s.bytes / s.chunkBytes : 0;
  for (unsigned j = 0; j < kSteps; ++j) {
    unsigned byte = j * s.perInstr, inChunk = s.chunkBytes ? byte % s.chunkBytes : 0;
    s.select.push_back({s.chunkBytes ? byte / s.chunkBytes : 0, inChunk / 4, inChunk % 4});
  }
  return s;
}

namespace {

IndexPtr clone(const Index &i) {
  auto c = std::make_unique<Index>();
  c->kind = i.kind;
  c->value = i.value;
  c->name = i.name;
  c->loc = i.loc;
  if (i.lhs) c->lhs = clone(*i.lhs);
  if (i.rhs) c->rhs = clone(*i.rhs);
  return c;
}

class Stager {
public:
  Stager(Kernel &k, const Target &t) : k(k), t(t) {}

  void body(Body &b) {
    for (StmtPtr &s : b) {
      if (auto *f = llvm::dyn_cast<For>(s.get())) {
        body(f->body);
        loop(*f);
      }
      auto *m = llvm::dyn_cast<MMA>(s.get());
      if (m && m->scaleA && m->acc && m->acc->instr && m->acc->instr->scaled)
        m->scaleLoads = scaleLoadsFor(*m->acc->instr, m->k);
    }
  }

private:
  /// A K loop of one scaled mma (loads, their LDS writes, a barrier, the mma): its scales go through LDS too.
  void loop(For &f) {
    Body &b = f.body;
    size_t at = 0, n = b.size();
    std::vector<Assign *> loads;
    for (; at < n; ++at) {
      auto *a = llvm::dyn_cast<Assign>(b[at].get());
      if (!a || a->value->kind != Value::Kind::Load) break;
      loads.push_back(a);
    }
    size_t lastLoad = at;
    std::vector<LdsWrite *> writes;
    for (; at < n; ++at) {
      auto *w = llvm::dyn_cast<LdsWrite>(b[at].get());
      if (!w) break;
      writes.push_back(w);
    }
    size_t lastWrite = at;
    if (loads.empty() || writes.empty() || at == n || !llvm::isa<Barrier>(b[at].get())) return;
    MMA *m = nullptr;
    for (++at; at < n; ++at)
      if (auto *x = llvm::dyn_cast<MMA>(b[at].get())) {
        if (m || !x->scaleA) return;
        m = x;
      }
    if (!m || !m->acc || !m->acc->instr || !m->acc->instr->scaled) return;
    // The scales' rows are the accumulator's: from block.row (A's) and block.col (B's; 0 where the grid takes
    // whole rows), as in the register path; their K column follows A's.
    const Value *la = source(m->a, writes, loads);
    if (!la || !source(m->b, writes, loads)) return;
    Index rowA, rowB;
    rowA.kind = Index::Kind::BlockRow;
    rowB.kind = k.gridWholeRows ? Index::Kind::Const : Index::Kind::BlockCol;
    rowA.loc = rowB.loc = m->loc;
    const MFMAInstr &ins = *m->acc->instr;
    unsigned perBlock = ScaledMFMAInstr::kBlock / info(ins.a).values;
    ScaleLoads plan = scaleLoadsFor(ins, m->k);
    std::string base = m->acc->name + "_scales_";
    Staged a = stage(base + "a", *m->scaleA, m->acc->rows, plan.bytes, rowA, *la->col, perBlock, m->loc);
    Staged bs = stage(base + "b", *m->scaleB, m->acc->cols, plan.bytes, rowB, *la->col, perBlock, m->loc);
    if (!a.tile || !bs.tile) return;
    plan.ldsA = a.lds;
    plan.ldsB = bs.lds;
    m->scaleLoads = plan;
    // Loads after the loads, writes after the writes: the loop keeps its K-loop shape.
    b.insert(b.begin() + static_cast<long>(lastWrite), std::move(bs.write));
    b.insert(b.begin() + static_cast<long>(lastWrite), std::move(a.write));
    b.insert(b.begin() + static_cast<long>(lastLoad), std::move(bs.load));
    b.insert(b.begin() + static_cast<long>(lastLoad), std::move(a.load));
    k.tiles.push_back(std::move(a.tile));
    k.tiles.push_back(std::move(bs.tile));
    k.ldsBuffers.push_back(std::move(a.ldsOwned));
    k.ldsBuffers.push_back(std::move(bs.ldsOwned));
  }

  /// The load whose tile the write into `buffer` stores.
  static const Value *source(const LdsBuffer *buffer, const std::vector<LdsWrite *> &writes,
                             const std::vector<Assign *> &loads) {
    for (const LdsWrite *w : writes)
      if (w->dst == buffer)
        for (const Assign *a : loads)
          if (a->dst == w->src) return a->value.get();
    return nullptr;
  }

  struct Staged {
    std::unique_ptr<Tile> tile;
    std::unique_ptr<LdsBuffer> ldsOwned;
    const LdsBuffer *lds = nullptr;
    StmtPtr load, write;
  };

  /// Whether `name`, or a name the emitter derives from it for a tile or buffer (codegen/ReservedNames.h), is the
  /// user's.
  bool taken(const std::string &name) const {
    for (const char *suffix : {"", "_row", "_col", "_lds", "_v", "_buf", "_lane", "_part"}) {
      std::string n = name + suffix;
      auto named = [&](const auto &v) { return llvm::any_of(v, [&](const auto &x) { return x->name == n; }); };
      if (named(k.tiles) || named(k.ldsBuffers) || named(k.accs) || named(k.tensors) || named(k.scalars) ||
          named(k.reducedTiles))
        return true;
    }
    return false;
  }

  /// The register tile of `rows` x `bytes` scales at (row origin, K column / perBlock) of `scales`, and its LDS
  /// buffer; no tile where a name is taken or no distribution fits the workgroup.
  Staged stage(const std::string &name, const Tensor &scales, unsigned rows, unsigned bytes, const Index &row,
               const Index &kColumn, unsigned perBlock, SMRange loc) {
    Staged s;
    if (taken(name) || taken(name + "_lds")) return s;
    // The widest vector that divides the row (bytes & -bytes: 4 for 12 bytes) and that the workgroup can spread.
    std::optional<Layout> layout;
    for (unsigned vec = std::min(bytes & (0u - bytes), t.maxBytesPerLaneAccess); vec >= 1 && !layout; vec /= 2)
      for (Pattern p : {Pattern::ThreadRaked, Pattern::WarpRaked}) {
        std::vector<LayoutProblem> problems;
        LayoutRequest req{p, rows, bytes, 1, "e8m0", k.workgroupSize, t.waveSize, t.maxBytesPerLaneAccess, vec,
                          std::nullopt};
        if ((layout = solveLayout(req, problems))) break;
      }
    if (!layout) return s;
    s.tile = std::make_unique<Tile>();
    s.tile->name = name;
    s.tile->dtype = DType::E8M0;
    s.tile->layout = *layout;
    s.tile->loc = loc;
    s.tile->madeFor = "the scales of " + name.substr(0, name.rfind("_scales_")) + "'s mma for one K step: [" +
                      std::to_string(rows) + ", " + std::to_string(bytes) + "] of " + scales.name +
                      ", staged through LDS";
    s.ldsOwned = std::make_unique<LdsBuffer>();
    s.ldsOwned->name = name + "_lds";
    s.ldsOwned->dtype = DType::E8M0;
    s.ldsOwned->rows = rows;
    s.ldsOwned->cols = bytes;
    s.ldsOwned->loc = loc;
    s.lds = s.ldsOwned.get();
    auto value = std::make_unique<Value>();
    value->kind = Value::Kind::Load;
    value->dtype = DType::E8M0;
    value->isTile = true;
    value->layout = &s.tile->layout;
    value->tensor = &scales;
    value->row = clone(row);
    auto col = std::make_unique<Index>();
    col->kind = Index::Kind::Div;
    col->lhs = clone(kColumn);
    col->rhs = std::make_unique<Index>();
    col->rhs->kind = Index::Kind::Const;
    col->rhs->value = perBlock;
    col->loc = col->rhs->loc = loc;
    value->col = std::move(col);
    value->loc = loc;
    auto load = std::make_unique<Assign>(loc);
    load->dst = s.tile.get();
    load->value = std::move(value);
    s.load = std::move(load);
    auto write = std::make_unique<LdsWrite>(loc);
    write->dst = s.lds;
    write->src = s.tile.get();
    s.write = std::move(write);
    return s;
  }

  Kernel &k;
  const Target &t;
};

} // namespace

void tilec::planScaleLoads(Kernel &kernel, const Target &target) { Stager(kernel, target).body(kernel.body); }

namespace {

/// The waves per SIMD the LDS of the resource model's estimate (buffers and reduction scratch) allows, with `extra`
/// bytes more.
unsigned ldsWaves(const Kernel &k, const Target &t, unsigned extra) {
  KernelResources r;
  r.ldsBytes = estimateResources(k, t).ldsBytes + extra;
  r.workgroupSize = k.workgroupSize;
  return computeOccupancy(t, r).ldsLimit;
}

void readAtLaneGroups(Body &body, Kernel &k, const Target &t) {
  for (StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<For>(s.get())) readAtLaneGroups(f->body, k, t);
    auto *m = llvm::dyn_cast<MMA>(s.get());
    if (!m || !m->scaleA || !m->scaleLoads.ldsA || m->scaleLoads.readAtLaneGroup) continue;
    ScaleLoads &sl = m->scaleLoads;
    // The buffers are the pass's own (planScaleLoads): nothing else reads or writes them.
    auto *a = const_cast<LdsBuffer *>(sl.ldsA), *b = const_cast<LdsBuffer *>(sl.ldsB);
    // Stages of whole 16-byte units, as every other buffer's: the next stage and the next buffer start as aligned as
    // without the tail (LLVM aligns LDS arrays, so a ragged one would take bytes the model does not count).
    auto tail = [&](const LdsBuffer *x) {
      unsigned rows = x->storedRows() * x->rowBytes();
      return (rows + sl.readSlack() + 15) / 16 * 16 - rows;
    };
    if (ldsWaves(k, t, a->stages * tail(a) + b->stages * tail(b)) < ldsWaves(k, t, 0)) continue;
    a->tailBytes = tail(a);
    b->tailBytes = tail(b);
    sl.readAtLaneGroup = true;
  }
}

} // namespace

void tilec::readScalesAtLaneGroups(Module &module) {
  for (auto &k : module.kernels)
    if (module.target->ldsUnalignedReads) readAtLaneGroups(k->body, *k, *module.target);
}
