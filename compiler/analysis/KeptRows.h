//===- KeptRows.h - Access rows the compiler keeps between statements --------===//
//
// Part of the resource model (analysis/ResourceModel.h): the registers of the rows of global accesses that several
// statements share, which clang computes once and keeps.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_KEPTROWS_H
#define TILEC_KEPTROWS_H

#include "ir/IR.h"
#include <vector>

namespace tilec {

/// Registers of the access rows that clang-19 computes once and keeps: where the loads and stores of two or more
/// statements follow one distribution, the row of each access (block row + lane row + i x step) is the same value
/// in each statement's unrolled loop, and clang keeps it (with its bounds mask) from the first statement to the last
/// rather than recomputing it. One VGPR per access, two when the row is widened to 64 bits for a row stride that is
/// a literal power of two (the multiply becomes a 64-bit shift of the sign-extended row). Nothing when the workgroup
/// is one wave whose lanes share their rows (X0 = 64): the row is then uniform and lives in an SGPR (with more waves
/// it is computed from the thread id, which clang does not know to be uniform per wave). Measured on seed 1 of
/// test/Differential (clang-19, gfx942): copies of R accesses need R (symbolic or odd literal columns) or 2R (128,
/// 256, 512 columns) VGPRs beyond the tile and 4 for addressing, e.g. f32[128, 256] block_raked vec 4 on 256
/// threads: 128 + 32 + 4 = 164, clang 164; i32[64, 128] thread_raked vec 4 on 64 threads with 256 columns:
/// 128 + 64 + 4 = 196, clang 196.
struct KeptRows {
  unsigned vgprs = 0;
  std::vector<const Layout *> distributions; ///< those whose rows are kept
};

KeptRows keptRows(const ir::Kernel &k);

} // namespace tilec

#endif
