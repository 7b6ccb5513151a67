//===- LdsSwizzle.h - Swizzled rows and XORed columns of LDS buffers -------===//
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
// A buffer that only register tiles write and read (a transpose, a layout change) may instead have its columns
// XORed in 16-byte chunks by a function of the row (LdsBuffer::colXor*): with no pad, where every row starts on bank
// 0 and no row swizzle can help, that spreads the rows a write's lanes reach over the banks while every access
// stays whole, so the reads are 16 bytes (docs/performance.md, "A transpose through LDS"). The pass costs those
// too and keeps a column XOR only when it is cheaper than the best row swizzle (tilec::xor_column in the HIP).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LDSSWIZZLE_H
#define TILEC_LDSSWIZZLE_H

#include "ir/IR.h"
#include "target/Target.h"
#include <optional>
#include <utility>
#include <vector>

namespace tilec {

/// Chooses the row swizzle of every transposed LDS buffer of `module` (LdsBuffer::swizzle*), or the column XOR of a
/// buffer of register tiles (LdsBuffer::colXor*), or neither.
void chooseLdsSwizzles(ir::Module &module);

/// The LDS cycles per wave (and their ideal) of every access of buffer `index` of `kernel` with `pads` (one per
/// buffer) in place of the declared pads, under the layout this pass would choose with them; for an mma operand (whose
/// search is costly) the better of no swizzle and the one chosen for the declared pad, at most the pass's figure.
/// The kernel is left as it was. std::nullopt when no access of the buffer is costed. What the bank-conflict
/// warning's pad search compares.
std::optional<std::pair<unsigned, unsigned>> ldsCyclesWithPads(ir::Kernel &kernel, const Target &target,
                                                              unsigned index, const std::vector<unsigned> &pads);

} // namespace tilec

#endif
