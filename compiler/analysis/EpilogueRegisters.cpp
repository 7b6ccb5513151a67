//===- EpilogueRegisters.cpp - Registers of accumulator stores -----------------===//
//
// See EpilogueRegisters.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/EpilogueRegisters.h"

#include "analysis/AccessPlan.h"
#include "llvm/Support/Casting.h"
#include <algorithm>

using namespace tilec;

/// VGPRs of the operands of an epilogue (loads in an accumulator's C/D layout, HIPEmitterEpilogue.cpp). One row
/// ([1, N]) is loaded once per lane before the stores and stays live through them: a vector of 4 per block column and
/// group of 4 values (gemm_bias_relu_f16: 2 x 4 x f32x4 = 32); one column
/// ([M, 1]) one value per block row. A full window is loaded group by group, just before each store: clang-19 keeps
/// about one group's vector (gemm_alpha_beta_f16, 16 loads of f16x4: 92 ArchVGPRs, not the 64 + 8 + 32 of all).
unsigned tilec::epilogueOperands(const ir::Value &v) {
  unsigned n = 0;
  if (v.kind == ir::Value::Kind::Load && v.acc) {
    const ir::AccTile &a = *v.acc;
    unsigned vector = (4 * sizeOf(v.dtype) + 3) / 4;
    n = v.reducedAxis == 0   ? a.blocksX() * (a.instr->accPerLane / 4) * vector
        : v.reducedAxis == 1 ? a.blocksY() * ((sizeOf(v.dtype) + 3) / 4)
                             : vector;
  }
  for (const auto &op : v.operands) n += epilogueOperands(*op);
  return n;
}

/// The largest epilogueOperands of the kernel's accumulator stores.
unsigned tilec::mostEpilogueOperands(const ir::Kernel &k) {
  unsigned most = 0;
  for (const ir::StmtPtr &s : k.body)
    if (auto *st = llvm::dyn_cast<ir::Store>(s.get()); st && st->value->acc && st->value->acc->instr)
      most = std::max(most, epilogueOperands(*st->value));
  return most;
}

/// The ArchVGPRs of the epilogues that compute on an accumulator before storing it: its values + 8; with operands,
/// + their registers + 4, the group's f32 result, which no longer fits in the operands' registers
/// (gemm_bias_relu_f16: 64 + 8 + 32 + 4 = 108 ArchVGPRs, clang-19 108, 2 waves per SIMD).
unsigned tilec::epilogueFloor(const ir::Kernel &k) {
  unsigned most = 0;
  for (const ir::StmtPtr &s : k.body)
    if (auto *st = llvm::dyn_cast<ir::Store>(s.get()); st && st->value->acc && st->value->acc->instr &&
                                                       st->value->kind != ir::Value::Kind::AccRef) {
      unsigned operands = epilogueOperands(*st->value);
      most = std::max(most, st->value->acc->registers() + 8 + (operands ? operands + 4 : 0));
    }
  return most;
}

/// The ArchVGPRs the element path of a plain accumulator store needs in the _unaligned kernel: its values + 12, when
/// the stored tensor's rows are aligned only at run time.
unsigned tilec::plainAccumulatorElementStores(const ir::Kernel &k) {
  unsigned most = 0;
  for (const AccessPlan &p : planAccesses(k))
    if (p.viaAcc && p.viaAcc->instr && p.isStore && !p.alignedAtCompileTime && p.vec > 1)
      for (const ir::StmtPtr &s : k.body)
        if (auto *st = llvm::dyn_cast<ir::Store>(s.get());
            st && st->value->acc == p.viaAcc && st->value->kind == ir::Value::Kind::AccRef && st->tensor == p.tensor)
          most = std::max(most, p.viaAcc->registers() + 12);
  return most;
}
