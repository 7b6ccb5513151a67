//===- RotateLoopLoads.cpp - Loading the next step of a plain loop during this one ===//
#include "passes/RotateLoopLoads.h"

#include "target/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

bool usesVar(const Index &i, const std::string &var) {
  if (i.kind == Index::Kind::LoopVar && i.name == var) return true;
  return i.isBinary() && (usesVar(*i.lhs, var) || usesVar(*i.rhs, var));
}

/// Whether value `v` reads tile `t`.
bool readsTile(const Value &v, const Tile *t) {
  if (v.tile == t) return true;
  return llvm::any_of(v.operands, [&](const ValuePtr &o) { return readsTile(*o, t); });
}

/// Whether statement `s` (a loop: anything in it) assigns tile `t` or writes it to LDS.
bool assigns(const Stmt &s, const Tile *t) {
  if (auto *f = llvm::dyn_cast<For>(&s))
    return llvm::any_of(f->body, [&](const StmtPtr &b) { return assigns(*b, t); });
  if (auto *a = llvm::dyn_cast<Assign>(&s)) return a->dst == t;
  if (auto *r = llvm::dyn_cast<LdsRead>(&s)) return r->dst == t;
  if (auto *w = llvm::dyn_cast<LdsWrite>(&s)) return w->src == t;
  return false;
}

/// Whether statement `s` (a loop: anything in it) reads tile `t` other than by an LDS write.
bool readsOtherwise(const Stmt &s, const Tile *t) {
  if (auto *f = llvm::dyn_cast<For>(&s))
    return llvm::any_of(f->body, [&](const StmtPtr &b) { return readsOtherwise(*b, t); });
  const Value *v = valueOf(s);
  return v && readsTile(*v, t);
}

/// Whether tile `t` is assigned or read anywhere in `body` but by its load at the top of loop `f` (the first `loads`
/// statements) and LDS writes of it in f's body.
bool usesOutside(const Body &body, const Tile *t, const For &f, size_t loads) {
  for (const StmtPtr &s : body) {
    if (auto *g = llvm::dyn_cast<For>(s.get())) {
      if (g == &f) {
        for (size_t j = loads; j < f.body.size(); ++j) {
          auto *w = llvm::dyn_cast<LdsWrite>(f.body[j].get());
          if (!(w && w->src == t) && (readsOtherwise(*f.body[j], t) || assigns(*f.body[j], t))) return true;
        }
        continue;
      }
      if (usesOutside(g->body, t, f, loads)) return true;
      continue;
    }
    if (readsOtherwise(*s, t) || assigns(*s, t)) return true;
  }
  return false;
}

void rotate(For &f, Kernel &kernel) {
  // The loads at the top of the body, then (before the first barrier) only LDS writes of their tiles.
  size_t i = 0;
  std::vector<const Assign *> loads;
  for (; i < f.body.size(); ++i) {
    auto *a = llvm::dyn_cast<Assign>(f.body[i].get());
    if (!a || a->value->kind != Value::Kind::Load || !a->value->operands.empty()) break;
    if (!usesVar(*a->value->row, f.var) && !usesVar(*a->value->col, f.var)) break;
    loads.push_back(a);
  }
  if (loads.empty()) return;
  size_t first = loads.size();
  for (; i < f.body.size() && !llvm::isa<Barrier>(f.body[i].get()); ++i) {
    auto *w = llvm::dyn_cast<LdsWrite>(f.body[i].get());
    if (!w || !llvm::any_of(loads, [&](const Assign *a) { return a->dst == w->src; })) return;
  }
  if (i == f.body.size()) return; // no barrier: the tiles are read after it
  // Each tile is used by nothing else in the kernel but its LDS writes in the loop: its value after the loop, or
  // anywhere else, would be the next step's. The next step's load follows the first barrier, or the tile's last LDS
  // write where that comes later (a write after S's mma, where the MFMAs hide it).
  std::vector<size_t> after;
  for (const Assign *a : loads) {
    if (usesOutside(kernel.body, a->dst, f, first)) return;
    size_t at = i;
    for (size_t j = i; j < f.body.size(); ++j)
      if (auto *w = llvm::dyn_cast<LdsWrite>(f.body[j].get()); w && w->src == a->dst) at = j;
    after.push_back(at);
  }
  f.rotatedLoads = loads;
  f.rotatedAfter = after;
  // A step's loads are masked by the step's existence (and the tensor's edge): through a buffer resource a masked-off
  // vector gets an out-of-range offset and reads zeros, so the loop stays one block without exec branches.
  for (const Assign *a : loads) {
    const Tensor *x = a->value->tensor;
    if (!Target::hasBufferLoad(a->dst->layout.vec * sizeOf(x->dtype), x->dtype)) continue;
    f.rotatedBufferLoads = true;
    if (!llvm::is_contained(kernel.bufferLoaded, x)) kernel.bufferLoaded.push_back(x);
  }
}

void visit(Body &body, Kernel &kernel) {
  for (StmtPtr &s : body)
    if (auto *f = llvm::dyn_cast<For>(s.get())) {
      visit(f->body, kernel);
      if (!f->plan && f->step->kind == Index::Kind::Const) rotate(*f, kernel);
    }
}

} // namespace

void tilec::rotateLoopLoads(Module &module) {
  for (auto &k : module.kernels) visit(k->body, *k);
}
