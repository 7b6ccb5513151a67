//===- ValueRegisters.cpp - Registers of computed values ---------------------===//
//
// What one access of a computed value needs in ArchVGPRs beyond the register tiles it reads: conversions through
// f32, fp8/bf8 in software, temporaries of nested expressions. Used by the resource model (ResourceModel.cpp); the
// figures were measured against clang-19 for gfx942 on seed 1 of test/Differential.
//
//===----------------------------------------------------------------------===//
#include "analysis/ValueRegisters.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"

#include <algorithm>

using namespace tilec;

unsigned tilec::registersPerAccess(unsigned vec, DType dt) { return (vec * sizeOf(dt) + 3) / 4; }

/// Whether the emitted conversion goes through f32 (fp8 and bf8 are encoded and decoded in software from and to f32;
/// f16 <-> bf16 converts through f32), so that one access holds vec f32 values on the way (cast<bf8> of an i8 tile of
/// vec 16: 16 VGPRs for 4 in and 4 out).
bool tilec::throughF32(DType from, DType to) {
  if (from == to || from == DType::F32 || to == DType::F32) return false;
  bool halves = (from == DType::F16 && to == DType::BF16) || (from == DType::BF16 && to == DType::F16);
  return isFp8(from) || isFp8(to) || halves;
}

/// VGPRs the result of `v` needs for one access beyond the register tiles it reads directly (a result as wide as
/// its tile operand can take that operand's registers, e.g. x * alpha; a widening cast cannot, e.g. cast<f32> of an
/// fp8 tile of vec 16 needs 16 for 4). Register tiles, scalars and constants need none.
unsigned tilec::heldRegisters(const ir::Value &v, unsigned vec) {
  using K = ir::Value::Kind;
  if (!v.isTile ||
      (v.kind != K::Load && v.kind != K::Unary && v.kind != K::Binary && v.kind != K::Cast && v.kind != K::ElementIndex))
    return 0;
  unsigned own = registersPerAccess(vec, v.dtype), reused = 0;
  if (v.kind == K::Cast && throughF32(v.operands[0]->dtype, v.dtype)) own = std::max(own, vec);
  // gfx942 has no bf16 arithmetic: clang-19 widens the operands to f32, computes and rounds back (seed 1:
  // y = cast<i8>(x * alpha) on bf16 tiles of vec 8, clang 14 VGPRs, 10 without these 4).
  if ((v.kind == K::Unary || v.kind == K::Binary) && v.dtype == DType::BF16) own = std::max(own, vec);
  // gelu and silu read their operand twice (x * sigmoid(f(x))): the sigmoid of each element needs its own f32
  // register beside x and the result (y = cast<f16, sat>(gelu(x) + relu(x)) on f32 tiles of vec 4: clang-19 30 VGPRs,
  // 25 without these 4).
  unsigned sigmoid = v.kind == K::Unary && (v.op == ir::ValueOp::Gelu || v.op == ir::ValueOp::Silu) ? vec : 0;
  // The result may take the registers of an operand it consumes: a register tile's access, or the result of a
  // computed operand (cast<i32>(max(x, z)) converts max's result in place: clang-19 needs nothing beyond x and z).
  for (const auto &op : v.operands)
    if (op->isTile && op->kind != K::AccRef)
      reused = std::max(reused, registersPerAccess(vec, op->dtype));
  return (own > reused ? own - reused : 0) + sigmoid;
}

/// Whether `v` encodes fp8/bf8 (in software, from f32).
bool tilec::encodesFp8(const ir::Value &v) {
  if (v.kind == ir::Value::Kind::Cast && v.dtype != v.operands[0]->dtype &&
      isFp8(v.dtype))
    return true;
  for (const auto &op : v.operands)
    if (encodesFp8(*op)) return true;
  return false;
}

/// How many register-tile operands `v` reads.
unsigned tilec::tilesRead(const ir::Value &v) {
  unsigned n = v.kind == ir::Value::Kind::TileRef;
  for (const auto &op : v.operands) n += tilesRead(*op);
  return n;
}

/// Whether `v` converts through f32 in a way clang-19 hoists over all accesses: a software fp8/bf8 conversion of 8-bit
/// values (decodes fp8/bf8, or encodes fp8/bf8 from i8, fp8 or bf8: 4 bytes of f32 per byte of input), or any
/// conversion through f32 applied to a register tile itself (f16 <-> bf16 of a tile: y = cast<bf16>(x) on f16 tiles,
/// 4 accesses of vec 8, clang 42 VGPRs for 29 with one access's f32 values, 41 with all), or an fp8/bf8 encode of a
/// value computed from one tile and uniform operands (cast<bf8>(x * alpha) on bf16, vec 4 on 64 threads, 8, 16 and
/// 32 accesses: clang-19 38, 70 and 134, as for cast<bf8>(x); counted per access, 40, 72, 136; for one access, 26,
/// 42, 74). Not the same through f32 between f16 and bf16 (cast<bf16>(x * alpha) on f16, seed 1 k0546: one access,
/// clang 88, model 89), nor an encode of two tiles' value, which goes one access at a time (cast<fp8>(x + z) on f16,
/// 16 accesses of vec 4: clang 87, one access counted 87).
bool tilec::widensEveryAccess(const ir::Value &v) {
  if (v.kind == ir::Value::Kind::Cast && v.dtype != v.operands[0]->dtype) {
    DType from = v.operands[0]->dtype;
    if (sizeOf(from) == 1 && (isFp8(v.dtype) || isFp8(from))) return true;
    if (v.operands[0]->kind == ir::Value::Kind::TileRef && throughF32(from, v.dtype)) return true;
    if (isFp8(v.dtype) && tilesRead(*v.operands[0]) == 1 && throughF32(from, v.dtype)) return true;
  }
  for (const auto &op : v.operands)
    if (widensEveryAccess(*op)) return true;
  return false;
}

/// VGPRs of the temporaries of one value at their peak: each load inside an expression lands in its own registers,
/// a computed operand keeps its result while the operands after it are computed, then the value's own result.
/// (y = cast<i8>(max(cast<f32>(x), cast<f32>(z))) on fp8 tiles of vec 16: 12 + 12 = 24; clang-19 needs 23 beyond
/// the tiles and addressing, test/Differential/known-model-under.test.)
unsigned tilec::valueTemporaries(const ir::Value &v, unsigned vec) {
  if (v.kind == ir::Value::Kind::Load) return heldRegisters(v, vec);
  unsigned peak = 0, live = 0;
  for (const auto &op : v.operands) {
    peak = std::max(peak, live + valueTemporaries(*op, vec));
    live += heldRegisters(*op, vec);
  }
  return std::max(peak, heldRegisters(v, vec));
}

namespace {
/// Whether `v` reads the row index of accumulator `a`.
bool readsAccRow(const ir::Value &v, const ir::AccTile *a) {
  if (v.kind == ir::Value::Kind::ElementIndex && v.acc == a && v.indexAxis == 0) return true;
  return llvm::any_of(v.operands, [&](const ir::ValuePtr &o) { return readsAccRow(*o, a); });
}

void accColumns(const ir::Value &v, const ir::Value &whole,
                std::vector<std::pair<const ir::AccTile *, unsigned>> &out) {
  if (v.kind == ir::Value::Kind::ElementIndex && v.acc && v.indexAxis == 1 &&
      llvm::none_of(out, [&](const auto &e) { return e.first == v.acc; }))
    out.push_back({v.acc, readsAccRow(whole, v.acc) ? v.acc->registers() : v.acc->registers() / 2});
  for (const ir::ValuePtr &o : v.operands) accColumns(*o, whole, out);
}
} // namespace

void tilec::accIndexRegisters(const ir::Body &body, bool inLoop,
                              std::vector<std::pair<const ir::AccTile *, unsigned>> &out) {
  for (const ir::StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<ir::For>(s.get())) accIndexRegisters(f->body, true, out);
    if (!inLoop) continue;
    if (const ir::Value *v = ir::valueOf(*s); v && (v->acc || llvm::isa<ir::Reduce>(s.get()))) accColumns(*v, *v, out);
  }
}

void tilec::packedAccUpdates(const ir::Body &body, bool inLoop, std::vector<const ir::AccTile *> &out) {
  for (const ir::StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<ir::For>(s.get())) packedAccUpdates(f->body, true, out);
    auto *a = llvm::dyn_cast<ir::AccAssign>(s.get());
    if (inLoop && a && !llvm::is_contained(out, a->dst)) out.push_back(a->dst);
  }
}
