//===- ScaleLoads.h - How a scaled mma's E8M0 scales reach its MFMAs --------===//
//
// Part of the IR (included by IR.h): the plan of passes/PlanScaleLoads.h for one scaled mma. A K step of the mma
// covers `bytes` consecutive scale blocks of 32 K values, the same for A's rows and B's columns. Instruction K step j
// of the step takes blocks j * perInstr .. + perInstr - 1, one per group of m lanes (lane l takes block
// j * perInstr + l / m). So each block row of A (column of B) loads its row's `bytes` scale bytes once per K step, in
// `chunks` loads of `chunkBytes`, and shifts each chunk right by 8 * (l / m) bits: the lane's byte of instruction K
// step j is then byte j * perInstr of the row, which `select[j]` names as (chunk, dword of the chunk, byte of the
// dword): the MFMA's scale operand is that dword, and the byte its opsel. In a K loop the scales go through LDS with
// the operands, so that they follow the loop's pipeline (ldsA, ldsB); read from there at the lane group's byte
// (readAtLaneGroup), they need no shift.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_IR_SCALELOADS_H
#define TILEC_IR_SCALELOADS_H

#include <vector>

namespace tilec::ir {

struct LdsBuffer;

struct ScaleLoads {
  unsigned bytes = 0;      ///< scale bytes per row (column) and K step
  unsigned chunkBytes = 0; ///< bytes per load: 2, 4 or 8
  unsigned chunks = 0;     ///< loads per row (column) and K step: bytes / chunkBytes
  unsigned perInstr = 0;   ///< scale blocks per instruction K step (= 64 / m lane groups)
  unsigned laneGroup = 0;  ///< m: lanes l with the same l / m take the same block
  struct Select {
    unsigned chunk = 0, dword = 0, opsel = 0;
  };
  std::vector<Select> select; ///< per instruction K step of the K step
  /// Staged through LDS (the mma's K loop loads the step's scales as register tiles and writes them to these
  /// buffers with its operands, [block rows, bytes] of A's and of B's): the lanes read their rows' chunks from them
  /// with the fragments. Null: each lane loads its rows' chunks from global memory itself.
  const LdsBuffer *ldsA = nullptr, *ldsB = nullptr;
  /// Staged through LDS on a target with unaligned LDS reads (Target::ldsUnalignedReads): a lane reads its row's
  /// chunk at byte l / m past the chunk's start, which puts the bytes the shift would have moved where the MFMA's
  /// opsel selects them, with no shift. The bytes past the chunk (the next chunk's or the next row's) are never
  /// selected; past the last row they are the buffers' tail (LdsBuffer::tailBytes, readSlack() bytes at least).
  bool readAtLaneGroup = false;
  /// Bytes past its row's chunk a lane group's read reaches: the most of them, 64 / m - 1.
  unsigned readSlack() const { return laneGroup ? 64 / laneGroup - 1 : 0; }
  /// Registers per lane of one row's (column's) scales: a dword per 4 bytes of a chunk, at least one.
  unsigned registersPerRow() const { return chunks * (chunkBytes > 4 ? chunkBytes / 4 : 1); }
};

} // namespace tilec::ir

#endif
