//===- HoistFragments.h - A loop-invariant mma operand read once, before the loop ===//
//
// Attention's S = Q K^T (`s = mma(sQ, transpose(sK));`) runs in every step of the loop over K/V blocks, and as
// written every step reads Q's fragments from LDS again, although nothing in the loop writes sQ. An IR pass over a
// kernel's top-level loops that are not K loops: for an mma directly in such a loop whose A buffer no statement of the
// loop writes (not forwarded from registers, not scaled, one LDS stage), it places a FragmentRead before the loop (A's
// fragments of every instruction K step and block row, kept in registers through the loop; MMA::aHoisted), with a
// barrier before it where A's last write before the loop has none after it. Hoisted, the loop no longer reads A from
// LDS, and A's buffer is dead once the fragments are read, so its bytes can serve the loop's buffers
// (passes/ShareLds.h): 128 query rows at d = 128 fit gfx942's 64 KiB.
//
// It is a fact of the program, so the compiler decides it, with one guard: the fragments cost registers through the
// loop (K steps x block rows x the operand's registers), so the pass keeps the reads in the loop where the registers
// the resource model estimates for the hoisted kernel, with its error margin (kRegisterEdgePercent), would allow fewer
// waves per SIMD than the kernel as written runs at (every resource counted: a kernel held by its LDS gains the
// registers for free). attention_fwd_f16_gfx950 keeps its reads so: 32 more VGPRs would leave it 1 wave per SIMD.
// MMA::aHoistedWhy says which, for the report.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_HOISTFRAGMENTS_H
#define TILEC_HOISTFRAGMENTS_H

#include "ir/IR.h"

namespace tilec {

/// Reads the loop-invariant A operands of the kernels' plain loops once, before each loop (see above).
void hoistLoopInvariantFragments(ir::Module &module);

} // namespace tilec

#endif
