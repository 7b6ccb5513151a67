//===- AccessPlan.cpp - How each tensor access is made, and what the vector kernel needs -===//
#include "analysis/AccessPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace tilec;
using llvm::formatv;

namespace {

/// Whether every row of `t` is known to start on a boundary of `vec` elements and hold whole vectors: its width and
/// its row stride (when it has one) are multiples of vec.
bool rowsAligned(const ir::Kernel &k, const ir::Tensor &t, unsigned vec) {
  return k.divisible(t.cols, vec) && (!t.stride || k.divisible(*t.stride, vec));
}

const ir::Tile *tileOf(const ir::Value &v) {
  if (v.tile) return v.tile;
  for (const auto &op : v.operands)
    if (const ir::Tile *t = tileOf(*op)) return t;
  return nullptr;
}

void add(const ir::Kernel &k, const ir::Tensor *t, const Layout &l, const ir::Tile *via, bool store,
         std::vector<AccessPlan> &out) {
  for (const AccessPlan &p : out)
    if (p.tensor == t && p.vec == l.vec && p.isStore == store) return;
  out.push_back({t, via, nullptr, l.vec, l.vec * sizeOf(t->dtype), store, rowsAligned(k, *t, l.vec)});
}

void collectValue(const ir::Kernel &k, const ir::Value &v, const ir::Tile *dst, std::vector<AccessPlan> &out) {
  if (v.kind == ir::Value::Kind::Load) add(k, v.tensor, *v.layout, dst, false, out);
  for (const auto &op : v.operands) collectValue(k, *op, dst, out);
}

/// The loads of an epilogue, in the accumulator's layout: 4 consecutive columns per load, one element per row of a
/// one-column tensor.
void collectEpilogue(const ir::Kernel &k, const ir::Value &v, const ir::AccTile &acc, std::vector<AccessPlan> &out) {
  if (v.kind == ir::Value::Kind::Load && v.acc) {
    unsigned vec = v.reducedAxis == 1 ? 1 : 4;
    bool seen = false;
    for (const AccessPlan &p : out) seen |= p.tensor == v.tensor && p.vec == vec && !p.isStore;
    if (!seen) {
      out.push_back({v.tensor, nullptr, &acc, vec, vec * sizeOf(v.tensor->dtype), false,
                     k.divisible(v.tensor->cols, vec)});
      out.back().broadcast = v.reducedAxis;
    }
  }
  for (const auto &op : v.operands) collectEpilogue(k, *op, acc, out);
}

void collect(const ir::Kernel &k, const ir::Body &body, std::vector<AccessPlan> &out) {
  for (const ir::StmtPtr &s : body) {
    if (auto *a = llvm::dyn_cast<ir::Assign>(s.get())) collectValue(k, *a->value, a->dst, out);
    else if (auto *st = llvm::dyn_cast<ir::Store>(s.get())) {
      if (st->value->acc) { // 4 consecutive columns of a row per store, in the (transposed) accumulator layout
        collectEpilogue(k, *st->value, *st->value->acc, out);
        unsigned vec = 4;
        bool seen = false;
        for (const AccessPlan &p : out) seen |= p.tensor == st->tensor && p.vec == vec && p.isStore;
        if (!seen)
          out.push_back({st->tensor, nullptr, st->value->acc, vec, vec * sizeOf(st->tensor->dtype), true,
                         rowsAligned(k, *st->tensor, vec)});
        continue;
      }
      collectValue(k, *st->value, tileOf(*st->value), out);
      // A reduced value of one column ([rows, 1]) is stored one element per row; one of one row ([1, cols]) with its
      // source's vec.
      Layout stored = *st->value->layout;
      if (st->value->reducedAxis == 1) stored.vec = 1;
      add(k, st->tensor, stored, tileOf(*st->value), true, out);
      if (st->value->reducedAxis != -1)
        for (AccessPlan &p : out)
          if (p.tensor == st->tensor && p.vec == stored.vec && p.isStore && !p.via)
            p.reducedAccesses = st->value->reducedAxis == 1 ? stored.rowsPerLane : 1;
    } else if (auto *f = llvm::dyn_cast<ir::For>(s.get())) collect(k, f->body, out);
  }
}

} // namespace

std::vector<AccessPlan> tilec::planAccesses(const ir::Kernel &kernel) {
  std::vector<AccessPlan> out;
  collect(kernel, kernel.body, out);
  for (AccessPlan &p : out) p.viaBuffer = !p.isStore && llvm::is_contained(kernel.bufferLoaded, p.tensor);
  return out;
}

std::vector<AlignmentCheck> tilec::alignmentChecks(const std::vector<AccessPlan> &plans) {
  std::vector<AlignmentCheck> out;
  for (const AccessPlan &p : plans) {
    if (p.vec == 1) continue;
    bool seen = llvm::any_of(out, [&](const AlignmentCheck &c) { return c.tensor == p.tensor && c.vec == p.vec; });
    if (!seen) out.push_back({p.tensor, p.vec, accessAlignment(p.bytes), !p.alignedAtCompileTime});
  }
  return out;
}

bool tilec::hasUnalignedVariant(const std::vector<AccessPlan> &plans) {
  return llvm::any_of(alignmentChecks(plans), [](const AlignmentCheck &c) { return c.rows; });
}

std::string tilec::unalignedName(const ir::Kernel &kernel) { return kernel.name + "_unaligned"; }

namespace {

/// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string> &parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return out;
}

void addOnce(std::vector<std::string> &parts, const std::string &s) {
  if (std::find(parts.begin(), parts.end(), s) == parts.end()) parts.push_back(s);
}

} // namespace

std::string tilec::vectorKernelCondition(const std::vector<AccessPlan> &plans) {
  std::vector<AlignmentCheck> checks = alignmentChecks(plans);
  std::vector<std::string> parts;
  // "N % 4 == 0" goes when "N % 8 == 0" is there.
  for (const AlignmentCheck &c : checks) {
    if (!c.rows) continue;
    bool implied = llvm::any_of(checks, [&](const AlignmentCheck &d) {
      return d.rows && d.vec > c.vec && d.vec % c.vec == 0 && d.tensor->cols.text() == c.tensor->cols.text();
    });
    if (!implied) addOnce(parts, formatv("{0} % {1} == 0", c.tensor->cols.text(), c.vec));
    if (c.tensor->stride) addOnce(parts, formatv("{0} % {1} == 0", c.tensor->stride->text(), c.vec));
  }
  // Each tensor's base pointer, aligned to its widest access.
  for (const AlignmentCheck &c : checks) {
    unsigned bytes = c.bytes;
    for (const AlignmentCheck &d : checks)
      if (d.tensor == c.tensor) bytes = std::max(bytes, d.bytes);
    addOnce(parts, formatv("{0} {1}-byte aligned", c.tensor->name, bytes));
  }
  // Tensors read through buffer resources in masked K steps: within reach of a buffer's 32-bit offsets.
  for (const AccessPlan &p : plans)
    if (p.viaBuffer) addOnce(parts, formatv("{0} under 2 GiB", p.tensor->name));
  return listed(parts);
}

std::string tilec::assumesRemovingUnaligned(const std::vector<AccessPlan> &plans) {
  std::vector<AlignmentCheck> checks = alignmentChecks(plans);
  std::vector<std::string> parts;
  for (const AlignmentCheck &c : checks) {
    if (!c.rows) continue;
    if (!c.tensor->cols.isSymbol() || (c.tensor->stride && !c.tensor->stride->isSymbol())) return "";
    // "assume N % 4 == 0" goes when "assume N % 16 == 0" is there.
    bool implied = llvm::any_of(checks, [&](const AlignmentCheck &d) {
      return d.rows && d.vec > c.vec && d.vec % c.vec == 0 && d.tensor->cols.text() == c.tensor->cols.text();
    });
    if (!implied) addOnce(parts, formatv("'assume {0} % {1} == 0;'", c.tensor->cols.symbol, c.vec));
    if (c.tensor->stride) addOnce(parts, formatv("'assume {0} % {1} == 0;'", c.tensor->stride->symbol, c.vec));
  }
  if (parts.empty()) return "";
  return listed(parts) + (parts.size() == 1 ? " removes the fallback" : " remove the fallback");
}
