//===- LdsTransposeReads.cpp - K x N B operands read with ds_read_*_tr_b* --===//
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

/// Whether `m` can read `b` as its B operand with a transposing read (ds_read_b64_tr_b16, _tr_b8, _tr_b4, or
/// ds_read_b96_tr_b6) on `t`.
bool readsWithTransposes(const MMA &m, const LdsBuffer &b, const Target &t) {
  if (m.b != &b || m.a == &b || !m.acc || !m.acc->instr) return false;
  const MFMAInstr &ins = operandView(*m.acc->instr, true); // B's geometry in its own elements
  if (!t.hasLdsTransposeRead(valueBits(b.dtype)) || (ins.n != 16 && ins.n != 32)) return false;
  const TransposeReads tr = transposeReadsOf(ins, b);
  // The scaled MFMA's operands: an 8-bit one is two runs of 16 K values per lane, 2 ds_read_b64_tr_b8 each (4 per
  // fragment, where stored transposed it is 2 ds_read_b128 but each 16-byte load is written as 4-byte K quads); an
  // fp4x2 (fp6x4, bf6x4) B given K x N packs N values, which only ds_read_b64_tr_b4 (ds_read_b96_tr_b6) turns into K
  // values (Sema requires it).
  if (ins.scaled) return tr.perRun * tr.values == ins.kRun() * info(ins.a).values;
  // 16-bit: only 16-byte fragments (kPerLane 8, the K16 / K32 instructions): there 2 transposing reads replace one
  // ds_read_b128 and the writes become the tile's own vectors (gemm_f16 with v_mfma_f32_32x32x16_f16 on gfx950: 61
  // instructions in the main loop -> 54). An 8-byte fragment (kPerLane 4) is one read either way, but transposing
  // reads cannot be paired into ds_read2_b64 (32x32x8: 69 -> 70).
  if (sizeOf(b.dtype) == 2) return ins.kPerLane == 8;
  // 8-bit: any whole number of 8-value reads. Stored transposed, a K x N 8-bit operand is written 2 bytes (a K pair)
  // at a time, 16 ds_write_b16 per lane per 64 x 128 K step; stored as declared, 2 ds_write_b128.
  return ins.kPerLane % tr.values == 0;
}

} // namespace

void tilec::useLdsTransposeReads(Kernel &k, const Target &t) {
  std::vector<const MMA *> mmas;
  collectMMAs(k.body, mmas);
  for (auto &b : k.ldsBuffers) {
    // Each lane's read must stay aligned in rows of N + pad elements (LdsBuffer::transposeReadRows).
    if (!b->transposed || !b->transposeReadRows(b->cols + b->pad)) continue;
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
