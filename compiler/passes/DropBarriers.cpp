//===- DropBarriers.cpp - Barriers that order nothing -------------------------===//
#include "passes/DropBarriers.h"

#include "llvm/Support/Casting.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

/// Whether statement `s` certainly writes no LDS memory: reads of LDS, register and accumulator arithmetic, global
/// loads and stores, an accumulator value forwarded to an mma in registers, and reductions of an accumulator's rows
/// (their exchanges are ds_swizzle and ds_bpermute, which move registers between lanes without LDS memory).
bool writesNoLds(const Stmt &s) {
  switch (s.kind) {
  case Stmt::Kind::MMA:
  case Stmt::Kind::AccAssign:
  case Stmt::Kind::ReducedAssign:
  case Stmt::Kind::Assign:
  case Stmt::Kind::LdsRead:
  case Stmt::Kind::FragmentRead:
  case Stmt::Kind::Store: return true;
  case Stmt::Kind::AccLdsWrite: return llvm::cast<AccLdsWrite>(s).forwarded;
  case Stmt::Kind::Reduce: return llvm::cast<Reduce>(s).dst->sourceAcc != nullptr;
  default: return false;
  }
}

void visit(Body &body) {
  for (StmtPtr &s : body) {
    auto *f = llvm::dyn_cast<For>(s.get());
    if (!f) continue;
    visit(f->body);
    if (f->plan) continue;
    // Barriers with a barrier on both sides in the body, and nothing but LDS-free statements between them.
    std::vector<size_t> barriers;
    for (size_t i = 0; i < f->body.size(); ++i)
      if (llvm::isa<Barrier>(f->body[i].get())) barriers.push_back(i);
    auto quiet = [&](size_t from, size_t to) {
      for (size_t i = from + 1; i < to; ++i)
        if (!llvm::isa<Barrier>(f->body[i].get()) && !writesNoLds(*f->body[i])) return false;
      return true;
    };
    for (size_t j = 1; j + 1 < barriers.size(); ++j) {
      // The neighbour before may itself be dropped: the ordering it gave is then the one before it.
      size_t before = j - 1;
      while (before > 0 && llvm::cast<Barrier>(f->body[barriers[before]].get())->dropped) --before;
      if (!quiet(barriers[before], barriers[j]) || !quiet(barriers[j], barriers[j + 1])) continue;
      auto *b = llvm::cast<Barrier>(f->body[barriers[j]].get());
      b->dropped = true;
      b->why = "no statement between the barriers before and after it writes LDS";
    }
  }
}

} // namespace

void tilec::dropRedundantBarriers(Module &module) {
  for (auto &k : module.kernels) visit(k->body);
}
