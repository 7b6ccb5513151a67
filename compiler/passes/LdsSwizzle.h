//===- LdsSwizzle.h - Swizzled rows for transposed LDS buffers -------------===//
//
// An IR pass, run after the K loops are planned. A buffer stored transposed (a K x N operand kept as [N][K + pad]) is
// written column by column: in one write instruction the lanes of a phase write columns that are a vector apart
// (8 f16 for 16-byte loads), so with any pad their stored rows fall on a few banks (gemm_f16: 8-way). No pad cures
// that; placing stored row r at r ^ (((r >> from) & mask) << shift) does, for the writes and the fragment reads
// together. The pass tries the swizzles that keep the rows a lane writes as one run of a vector in order (the low
// `shift` bits of a row stay, so clang still pairs the writes into ds_write2) and keep each aligned group of
// rows in place, costs each with the LDS bank model (analysis/LDSBanks.h) and keeps the cheapest when it beats the
// unswizzled layout. The HIP emitter prints the result (tilec::swizzled_row), the bank model and report use it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LDSSWIZZLE_H
#define TILEC_LDSSWIZZLE_H

#include "ir/IR.h"

namespace tilec {

/// Chooses the row swizzle of every transposed LDS buffer of `module` (LdsBuffer::swizzle*), or none.
void chooseLdsSwizzles(ir::Module &module);

} // namespace tilec

#endif
