//===- Liveness.cpp - Which tiles the model counts as live together ----------===//
//
// See Liveness.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/Liveness.h"

#include "analysis/ResourceModel.h"
#include "llvm/Support/Casting.h"
#include <algorithm>
#include <map>
#include <tuple>

using namespace tilec;

namespace {

/// Statements in program order; a tile used anywhere inside a loop is live across the whole loop. Register tiles
/// and reduced tiles alike: the first and last statement index of each.
struct Liveness {
  std::map<const ir::Tile *, std::pair<unsigned, unsigned>> range;
  std::map<const ir::ReducedTile *, std::pair<unsigned, unsigned>> reducedRange;
  std::map<const ir::For *, std::pair<unsigned, unsigned>> loops; ///< each loop's first and last statement index
  unsigned next = 0;

  template <typename T>
  static void use(std::map<const T *, std::pair<unsigned, unsigned>> &ranges, const T *t, unsigned at,
                  unsigned loopStart, unsigned loopEnd) {
    unsigned lo = std::min(at, loopStart), hi = std::max(at, loopEnd);
    auto [it, fresh] = ranges.try_emplace(t, lo, hi);
    if (!fresh) it->second = {std::min(it->second.first, lo), std::max(it->second.second, hi)};
  }
  void value(const ir::Value &v, unsigned at, unsigned ls, unsigned le) {
    if (v.tile) use(range, v.tile, at, ls, le);
    if (v.reduced) use(reducedRange, v.reduced, at, ls, le);
    for (const auto &op : v.operands) value(*op, at, ls, le);
  }
  static unsigned count(const ir::Body &b) {
    unsigned n = 0;
    for (const ir::StmtPtr &s : b)
      n += 1 + (llvm::isa<ir::For>(s.get()) ? count(llvm::cast<ir::For>(s.get())->body) : 0);
    return n;
  }
  void body(const ir::Body &b, unsigned ls, unsigned le) {
    for (const ir::StmtPtr &s : b) {
      unsigned at = next++;
      if (auto *a = llvm::dyn_cast<ir::Assign>(s.get())) use(range, a->dst, at, ls, le), value(*a->value, at, ls, le);
      else if (auto *st = llvm::dyn_cast<ir::Store>(s.get())) value(*st->value, at, ls, le);
      else if (auto *w = llvm::dyn_cast<ir::LdsWrite>(s.get())) use(range, w->src, at, ls, le);
      else if (auto *r = llvm::dyn_cast<ir::LdsRead>(s.get())) use(range, r->dst, at, ls, le);
      else if (auto *r = llvm::dyn_cast<ir::Reduce>(s.get()))
        value(*r->value, at, ls, le), use(reducedRange, r->dst, at, ls, le);
      else if (auto *ra = llvm::dyn_cast<ir::ReducedAssign>(s.get()))
        value(*ra->value, at, ls, le), use(reducedRange, ra->dst, at, ls, le);
      else if (auto *aa = llvm::dyn_cast<ir::AccAssign>(s.get())) value(*aa->value, at, ls, le);
      else if (auto *aw = llvm::dyn_cast<ir::AccLdsWrite>(s.get())) value(*aw->value, at, ls, le);
      else if (auto *f = llvm::dyn_cast<ir::For>(s.get())) {
        unsigned end = at + count(f->body);
        loops[f] = {at, end};
        // Inside the outermost loop, the loop's whole range is what counts.
        body(f->body, ls == ~0u ? at : ls, ls == ~0u ? end : le);
      }
    }
  }
};

} // namespace

/// The register tiles live at the statement where they take the most registers. Where a tile dies and another is
/// born in the same elementwise statement, access i of one is consumed as access i of the other: the larger counts.
std::vector<const ir::Tile *> tilec::livePeak(const ir::Kernel &k, const ir::For *within) {
  Liveness live;
  live.body(k.body, ~0u, 0);
  std::vector<const ir::Tile *> best;
  unsigned bestRegs = 0, from = 0, to = live.next;
  if (within) std::tie(from, to) = live.loops.at(within), ++to;
  for (unsigned at = from; at < to; ++at) {
    std::vector<const ir::Tile *> through, dying, born;
    unsigned throughRegs = 0, dyingRegs = 0, bornRegs = 0;
    for (const auto &tile : k.tiles) {
      auto it = live.range.find(tile.get());
      if (it == live.range.end()) continue;
      auto [first, last] = it->second;
      unsigned regs = tileVGPRs(*tile);
      if (first < at && last > at) through.push_back(tile.get()), throughRegs += regs;
      else if (first < at && last == at) dying.push_back(tile.get()), dyingRegs += regs;
      else if (first == at) born.push_back(tile.get()), bornRegs += regs;
    }
    unsigned regs = throughRegs + std::max(dyingRegs, bornRegs);
    if (regs > bestRegs) {
      bestRegs = regs;
      best = through;
      const auto &larger = dyingRegs >= bornRegs ? dying : born;
      best.insert(best.end(), larger.begin(), larger.end());
    }
  }
  std::sort(best.begin(), best.end(), [&](const ir::Tile *a, const ir::Tile *b) {
    return a->loc.Start.getPointer() < b->loc.Start.getPointer();
  });
  return best;
}

namespace {

/// How `v` reads tile `t`: whether at all, and whether every read is `cast<T>(t)` with one T (`as`).
struct Reads {
  bool any = false, onlyCast = true;
  std::optional<DType> as;
};

void readsOf(const ir::Value &v, const ir::Tile &t, Reads &r) {
  if (v.kind == ir::Value::Kind::Cast && v.operands[0]->kind == ir::Value::Kind::TileRef && v.operands[0]->tile == &t) {
    r.any = true;
    if (r.as && *r.as != v.dtype) r.onlyCast = false;
    r.as = v.dtype;
    return;
  }
  if (v.kind == ir::Value::Kind::TileRef && v.tile == &t) r.any = true, r.onlyCast = false;
  for (const auto &op : v.operands) readsOf(*op, t, r);
}

std::optional<DType> convertedIn(const ir::Body &body, const ir::Tile &t) {
  Reads all;
  unsigned statements = 0;
  for (const ir::StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<ir::For>(s.get())) {
      if (std::optional<DType> inner = convertedIn(f->body, t)) return inner;
      continue;
    }
    const ir::Value *v = ir::valueOf(*s);
    if (!v) continue;
    Reads here;
    readsOf(*v, t, here);
    if (!here.any) continue;
    ++statements;
    all.any = true;
    all.onlyCast &= here.onlyCast && (!all.as || all.as == here.as);
    all.as = here.as;
  }
  // Measured for f16 and bf16 tiles read as f32 (one conversion instruction per element); fp8 and i8 widen in other
  // ways (analysis/ValueRegisters.h).
  bool halfToF32 = (t.dtype == DType::F16 || t.dtype == DType::BF16) && all.as == DType::F32;
  if (statements == 0 || !all.onlyCast || !halfToF32) return std::nullopt;
  return all.as;
}

} // namespace

std::optional<DType> tilec::convertedOnce(const ir::Kernel &k, const ir::Tile &t) { return convertedIn(k.body, t); }

/// The reduced tiles live at the statement where they take the most registers: a reduced tile is live from its
/// first reduction to the last statement that reads it (a whole loop when used inside one, as for register tiles).
std::vector<const ir::ReducedTile *> tilec::reducedPeak(const ir::Kernel &k) {
  Liveness live;
  live.body(k.body, ~0u, 0);
  std::vector<const ir::ReducedTile *> best;
  unsigned bestRegs = 0;
  for (unsigned at = 0; at < live.next; ++at) {
    std::vector<const ir::ReducedTile *> here;
    unsigned regs = 0;
    for (const auto &r : k.reducedTiles)
      if (auto it = live.reducedRange.find(r.get());
          r->distributed() && it != live.reducedRange.end() && it->second.first <= at && it->second.second >= at)
        here.push_back(r.get()), regs += r->registers();
    if (regs > bestRegs) bestRegs = regs, best = here;
  }
  return best;
}

std::vector<std::pair<const ir::Assign *, const ir::For *>> tilec::loadedAhead(const ir::Body &body) {
  std::vector<std::pair<const ir::Assign *, const ir::For *>> out;
  for (const ir::StmtPtr &s : body)
    if (auto *f = llvm::dyn_cast<ir::For>(s.get())) {
      for (auto inner : loadedAhead(f->body)) out.push_back(inner);
      for (const ir::Assign *a : f->rotatedLoads) out.push_back({a, f});
    }
  return out;
}
