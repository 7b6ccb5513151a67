//===- ForwardAccOperands.cpp - An accumulator's values as the next mma's A, in registers ===//
#include "passes/ForwardAccOperands.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace {

/// How often each LDS buffer is written and read, over the whole kernel.
struct BufferUses {
  std::map<const LdsBuffer *, unsigned> writes, reads;
  void body(const Body &b) {
    for (const StmtPtr &s : b) {
      if (auto *f = llvm::dyn_cast<For>(s.get())) body(f->body);
      else if (auto *w = llvm::dyn_cast<LdsWrite>(s.get())) ++writes[w->dst];
      else if (auto *w = llvm::dyn_cast<AccLdsWrite>(s.get())) ++writes[w->dst];
      else if (auto *r = llvm::dyn_cast<LdsRead>(s.get())) ++reads[r->src];
      else if (auto *m = llvm::dyn_cast<MMA>(s.get())) ++reads[m->a], ++reads[m->b];
    }
  }
};

/// What statement `s` assigns: register tiles, reduced tiles, accumulators (a loop: everything in it).
void assigned(const Stmt &s, llvm::SmallPtrSetImpl<const void *> &out) {
  if (auto *f = llvm::dyn_cast<For>(&s))
    for (const StmtPtr &t : f->body) assigned(*t, out);
  else if (auto *a = llvm::dyn_cast<Assign>(&s)) out.insert(a->dst);
  else if (auto *a = llvm::dyn_cast<LdsRead>(&s)) out.insert(a->dst);
  else if (auto *a = llvm::dyn_cast<Reduce>(&s)) out.insert(a->dst);
  else if (auto *a = llvm::dyn_cast<ReducedAssign>(&s)) out.insert(a->dst);
  else if (auto *a = llvm::dyn_cast<AccAssign>(&s)) out.insert(a->dst);
  else if (auto *a = llvm::dyn_cast<MMA>(&s)) out.insert(a->acc);
}

/// Whether value `v` reads anything in `changed`.
bool reads(const Value &v, const llvm::SmallPtrSetImpl<const void *> &changed) {
  if ((v.tile && changed.count(v.tile)) || (v.reduced && changed.count(v.reduced)) ||
      (v.kind == Value::Kind::AccRef && changed.count(v.acc)))
    return true;
  for (const ValuePtr &o : v.operands)
    if (reads(*o, changed)) return true;
  return false;
}

/// Whether accumulator `x`'s C/D layout holds the A fragments of `m` (with B read in runs of 4): the same rows over
/// the same waves, each row in one wave, the same block height, and x's columns the mma's K.
bool holdsFragments(const AccTile &x, const MMA &m) {
  const AccTile &a = *m.acc;
  const MFMAInstr &ins = *a.instr;
  return x.instr && !ins.scaled && x.rows == a.rows && x.wavesY == a.wavesY && x.wavesX == 1 && a.wavesX == 1 &&
         x.instr->m == ins.m && x.cols == m.k && ins.kPerLane % 4 == 0 && info(ins.a).values == 1;
}

void forward(Body &body, const BufferUses &uses) {
  for (size_t i = 0; i < body.size(); ++i) {
    if (auto *f = llvm::dyn_cast<For>(body[i].get())) {
      forward(f->body, uses);
      continue;
    }
    auto *w = llvm::dyn_cast<AccLdsWrite>(body[i].get());
    if (!w || uses.writes.at(w->dst) != 1 || !uses.reads.count(w->dst) || uses.reads.at(w->dst) != 1) continue;
    llvm::SmallPtrSet<const void *, 8> changed;
    for (size_t j = i + 1; j < body.size(); ++j) {
      auto *m = llvm::dyn_cast<MMA>(body[j].get());
      if (m && m->a == w->dst) {
        const AccTile &x = *w->value->acc;
        if (!holdsFragments(x, *m) || reads(*w->value, changed)) break;
        const MFMAInstr &view = runsOfFour(*m->acc->instr);
        const_cast<AccTile *>(m->acc)->instr = &view;
        m->aFrom = w;
        w->forwarded = true;
        const_cast<LdsBuffer *>(w->dst)->used = false;
        unsigned runs = view.kPerLane / 4;
        m->aFromWhy =
            formatv("A of this mma is {0}'s value in registers: acc {1}'s C/D layout holds row lane % {2} of each block, "
                    "4 consecutive columns per group of values, in the lane groups where {3} reads its K values{4}; "
                    "the LDS writes and fragment reads of lds {0} ({5} B) are not emitted",
                    w->dst->name, x.name, view.m, view.name,
                    runs == 1 ? "" : formatv(" when K is taken in runs of 4 ({0} per fragment; B is read in the same "
                                             "order)", runs).str(),
                    w->dst->bytes())
                .str();
        break;
      }
      if (llvm::isa<For>(body[j].get())) break; // the mma must be in the same iteration
      assigned(*body[j], changed);
    }
  }
}

} // namespace

void tilec::forwardAccOperands(Kernel &kernel) {
  BufferUses uses;
  uses.body(kernel.body);
  forward(kernel.body, uses);
}
