//===- DeadCode.cpp - Warnings for valid code that does nothing -------------===//
#include "analysis/DeadCode.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using llvm::formatv;

namespace {

/// What a kernel's statements read and write, gathered once.
struct Flow {
  std::vector<const ir::Assign *> assigns;
  std::vector<const ir::Store *> stores;
  std::vector<const ir::LdsWrite *> ldsWrites;
  std::vector<const ir::MMA *> mmas;
  std::vector<const ir::Reduce *> reduces;
  std::vector<const ir::ReducedAssign *> reducedAssigns;
  std::vector<const ir::LdsRead *> ldsReads;
  std::vector<const ir::For *> loops;

  void gather(const ir::Body &body) {
    for (const ir::StmtPtr &s : body) {
      if (auto *a = llvm::dyn_cast<ir::Assign>(s.get())) assigns.push_back(a);
      else if (auto *st = llvm::dyn_cast<ir::Store>(s.get())) stores.push_back(st);
      else if (auto *w = llvm::dyn_cast<ir::LdsWrite>(s.get())) ldsWrites.push_back(w);
      else if (auto *m = llvm::dyn_cast<ir::MMA>(s.get())) mmas.push_back(m);
      else if (auto *r = llvm::dyn_cast<ir::Reduce>(s.get())) reduces.push_back(r);
      else if (auto *ra = llvm::dyn_cast<ir::ReducedAssign>(s.get())) reducedAssigns.push_back(ra);
      else if (auto *lr = llvm::dyn_cast<ir::LdsRead>(s.get())) ldsReads.push_back(lr);
      else if (auto *f = llvm::dyn_cast<ir::For>(s.get())) {
        loops.push_back(f);
        gather(f->body);
      }
    }
  }
};

/// Marks the tiles and accumulators `value` reads as live; returns whether it marked anything new.
bool markReads(const ir::Value &value, llvm::DenseSet<const void *> &live) {
  bool changed = false;
  if (value.kind == ir::Value::Kind::TileRef && value.tile) changed |= live.insert(value.tile).second;
  if (value.kind == ir::Value::Kind::AccRef && value.acc) changed |= live.insert(value.acc).second;
  if (value.kind == ir::Value::Kind::ReducedRef && value.reduced) changed |= live.insert(value.reduced).second;
  for (const ir::ValuePtr &op : value.operands) changed |= markReads(*op, live);
  return changed;
}

/// The tiles and accumulators whose values reach global memory or LDS: read by a store, written to an LDS buffer
/// (whether an mma reads that buffer is judged by the LDS warnings of SemaGEMM), or read by an assignment to a live
/// tile.
llvm::DenseSet<const void *> liveValues(const Flow &flow) {
  llvm::DenseSet<const void *> live;
  for (const ir::Store *s : flow.stores) markReads(*s->value, live);
  for (const ir::LdsWrite *w : flow.ldsWrites) live.insert(w->src);
  for (bool changed = true; changed;) {
    changed = false;
    for (const ir::Assign *a : flow.assigns)
      if (live.count(a->dst)) changed |= markReads(*a->value, live);
    for (const ir::Reduce *r : flow.reduces) // a reduction is live when its result is
      if (live.count(r->dst)) changed |= markReads(*r->value, live);
    for (const ir::ReducedAssign *r : flow.reducedAssigns)
      if (live.count(r->dst)) changed |= markReads(*r->value, live);
  }
  return live;
}

void warnLoops(const Flow &flow, DiagnosticEngine &diags) {
  for (const ir::For *f : flow.loops) {
    bool constant = f->lower && f->upper && f->lower->kind == ir::Index::Kind::Const &&
                    f->upper->kind == ir::Index::Kind::Const;
    if (constant && f->lower->value >= f->upper->value)
      diags.warning(f->loc, formatv("loop '{0}' never runs: its range {1} .. {2} is empty", f->var, f->lower->value,
                                    f->upper->value));
    else if (f->body.empty())
      diags.warning(f->loc, formatv("loop '{0}' has an empty body", f->var));
  }
}

} // namespace

void tilec::warnDeadCode(const ir::Kernel &kernel, DiagnosticEngine &diags) {
  Flow flow;
  flow.gather(kernel.body);
  warnLoops(flow, diags);
  for (const auto &t : kernel.tensors)
    if (!t->isRead && !t->isWritten && t.get() != kernel.gridTensor)
      diags.warning(t->loc, formatv("tensor '{0}' is never loaded or stored; the kernel takes its pointer for nothing",
                                    t->name));
  if (flow.stores.empty()) {
    // Everything else in the kernel is dead too; one warning says it.
    diags.warning(kernel.loc, formatv("kernel '{0}' stores nothing to global memory, so running it has no effect",
                                      kernel.name));
    return;
  }
  llvm::DenseSet<const void *> live = liveValues(flow);
  llvm::DenseSet<const void *> warned;
  for (const ir::Assign *a : flow.assigns)
    if (!live.count(a->dst) && warned.insert(a->dst).second)
      diags.warning(a->dst->loc, formatv("tile '{0}' is assigned but its values never reach a store or an lds: the "
                                         "loads and arithmetic that fill it are dead code",
                                         a->dst->name));
  for (const ir::LdsRead *r : flow.ldsReads)
    if (!live.count(r->dst) && warned.insert(r->dst).second)
      diags.warning(r->dst->loc, formatv("tile '{0}' is read from lds {1} but its values never reach a store or an "
                                         "lds: the read is dead code",
                                         r->dst->name, r->src->name));
  for (const ir::MMA *m : flow.mmas)
    if (!live.count(m->acc) && warned.insert(m->acc).second)
      diags.warning(m->acc->loc, formatv("accumulator '{0}' is updated by mma but never stored: its MMAs are dead "
                                         "code",
                                         m->acc->name));
}
