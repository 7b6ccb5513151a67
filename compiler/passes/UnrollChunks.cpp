//===- UnrollChunks.cpp - Loops short enough for LLVM to unroll ------------===//
//
// See UnrollChunks.h.
//
//===----------------------------------------------------------------------===//
#include "passes/UnrollChunks.h"

#include "llvm/Support/Casting.h"
#include <algorithm>

using namespace tilec;
using namespace tilec::ir;

namespace {

/// The accesses per loop for a statement of `accesses` accesses of `vec` elements whose value converts `perElement`
/// times per element; 0 when one loop of all of them is short enough.
unsigned chunkFor(unsigned accesses, unsigned vec, unsigned perElement) {
  unsigned perAccess = vec * perElement;
  if (!perAccess || accesses * perAccess <= kConversionsPerLoop) return 0;
  return std::max(1u, kConversionsPerLoop / perAccess);
}

void chunkBody(Body &body) {
  for (StmtPtr &s : body) {
    if (auto *a = llvm::dyn_cast<Assign>(s.get()))
      a->accessChunk = chunkFor(a->dst->layout.rowsPerLane, a->dst->layout.vec, fp8Conversions(*a->value));
    else if (auto *st = llvm::dyn_cast<Store>(s.get()); st && !st->value->acc && st->value->layout)
      st->accessChunk = chunkFor(st->value->layout->rowsPerLane, st->value->layout->vec, fp8Conversions(*st->value));
    else if (auto *f = llvm::dyn_cast<For>(s.get())) chunkBody(f->body);
  }
}

} // namespace

unsigned tilec::fp8Conversions(const Value &v) {
  unsigned n = 0;
  // A cast of a uniform value (a scalar, a constant, a row's reduced value) converts once per access, not per element.
  if (v.kind == Value::Kind::Cast && v.isTile && v.operands[0]->dtype != v.dtype)
    n += isFp8(v.operands[0]->dtype) + isFp8(v.dtype);
  for (const auto &op : v.operands) n += fp8Conversions(*op);
  return n;
}

void tilec::chunkAccessLoops(Module &module) {
  for (auto &k : module.kernels) chunkBody(k->body);
}
