//===- LdsTransposeReads.cpp - K x N B operands read with ds_read_b64_tr_b16 ===//
//
// See LdsTransposeReads.h. Every mma of a kernel is visited; a transposed buffer qualifies only when all its uses do.
//
//===----------------------------------------------------------------------===//
#include "passes/LdsTransposeReads.h"

#include "llvm/Support/Casting.h"
#include <map>

using namespace tilec;
using namespace tilec::ir;

namespace {

/// Every mma of `body`, in loops too.
void collectMMAs(const Body &body, std::vector<const MMA *> &out) {
  for (const StmtPtr &s : body) {
    if (auto *m = llvm::dyn_cast<MMA>(s.get())) out.push_back(m);
    else if (auto *f = llvm::dyn_cast<For>(s.get())) collectMMAs(f->body, out);
  }
}

/// Whether `m` can read `b` as its B operand with ds_read_b64_tr_b16 on `t`.
bool readsWithTransposes(const MMA &m, const LdsBuffer &b, const Target &t) {
  if (m.b != &b || m.a == &b || !m.acc || !m.acc->instr) return false;
  const MFMAInstr &ins = *m.acc->instr;
  // Only 16-byte fragments (kPerLane 8, the K16 / K32 instructions): there 2 transposing reads replace one
  // ds_read_b128 and the writes become the tile's own vectors (gemm_f16 with v_mfma_f32_32x32x16_f16 on gfx950: 61
  // instructions in the main loop -> 54). An 8-byte fragment (kPerLane 4) is one read either way, but transposing
  // reads cannot be paired into ds_read2_b64 (32x32x8: 69 -> 70).
  return t.ldsTransposeRead16 && sizeOf(b.dtype) == 2 && ins.kPerLane == 8 && (ins.n == 16 || ins.n == 32);
}

} // namespace

void tilec::useLdsTransposeReads(Module &module) {
  const Target &t = *module.target;
  for (auto &k : module.kernels) {
    std::vector<const MMA *> mmas;
    collectMMAs(k->body, mmas);
    for (auto &b : k->ldsBuffers) {
      if (!b->transposed || (b->cols + b->pad) % 4 != 0) continue;
      bool used = false, all = true;
      for (const MMA *m : mmas) {
        if (m->a != b.get() && m->b != b.get()) continue;
        used = true;
        all &= readsWithTransposes(*m, *b, t);
      }
      if (!used || !all) continue;
      b->transposed = false;
      b->transposeReads = true;
    }
  }
}
