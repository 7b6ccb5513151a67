//===- KeptRows.cpp - Access rows the compiler keeps between statements ------===//
#include "analysis/KeptRows.h"

#include "llvm/Support/Casting.h"
#include <algorithm>

using namespace tilec;

namespace {

/// The global accesses of one statement outside loops, as the distributions they follow (a tile's, or the
/// expression's) with the tensors they reach. Accumulator stores are left out.
void accessesOf(const ir::Value &v, std::vector<std::pair<const Layout *, const ir::Tensor *>> &out) {
  if (v.kind == ir::Value::Kind::Load && v.layout && !v.acc) out.push_back({v.layout, v.tensor});
  for (const auto &op : v.operands) accessesOf(*op, out);
}

} // namespace

KeptRows tilec::keptRows(const ir::Kernel &k) {
  struct Group {
    const Layout *layout;
    unsigned statements = 0, perRow = 1;
  };
  std::vector<Group> groups;
  for (const ir::StmtPtr &s : k.body) {
    std::vector<std::pair<const Layout *, const ir::Tensor *>> acc;
    if (auto *a = llvm::dyn_cast<ir::Assign>(s.get())) accessesOf(*a->value, acc);
    else if (auto *st = llvm::dyn_cast<ir::Store>(s.get()); st && !st->value->acc && st->value->layout) {
      accessesOf(*st->value, acc);
      acc.push_back({st->value->layout, st->tensor});
    }
    std::vector<size_t> seen;
    for (auto [layout, tensor] : acc) {
      size_t g = 0;
      while (g < groups.size() && !groups[g].layout->sameMapping(*layout)) ++g;
      if (g == groups.size()) groups.push_back({layout});
      int64_t cols = tensor->cols.isSymbol() ? 0 : tensor->cols.value;
      if (cols > 0 && (cols & (cols - 1)) == 0) groups[g].perRow = 2;
      if (std::find(seen.begin(), seen.end(), g) == seen.end()) seen.push_back(g), ++groups[g].statements;
    }
  }
  KeptRows out;
  for (const Group &g : groups)
    // A 1-D tile's accesses are a constant distance apart (rows of the view): clang folds them into the offsets of
    // the accesses instead of keeping them (axpy_f32: 20 VGPRs, 21 modelled without them).
    if (g.statements >= 2 && !g.layout->oneD && !(g.layout->laneRows == 1 && g.layout->threads == g.layout->waveSize)) {
      out.vgprs += g.layout->accessesPerLane() * g.perRow;
      out.distributions.push_back(g.layout);
    }
  return out;
}
