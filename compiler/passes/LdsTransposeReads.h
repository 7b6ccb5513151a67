//===- LdsTransposeReads.h - K x N B operands read with ds_read_b64_tr_b16 --===//
//
// An IR pass, run after the verifier and before the K loops are planned. A K x N B operand (B given K x N in memory,
// `mma(sA, sB)`) is stored transposed, as [N][K + pad], so that each MFMA fragment (kPerLane consecutive K values of
// one column) is one contiguous LDS read; its writes are then column by column, 4 bytes (a K pair) or 2 at a time.
// gfx950 has a transposing LDS read for 16-bit values, ds_read_b64_tr_b16 (docs/gemm.md, "Transposing LDS reads on
// gfx950"): within each 16 lanes, 4 rows of 16 consecutive values read 8 bytes per lane come back one column per
// lane. With it the buffer is stored as declared ([K][N + pad], written with the tile's own 16- or 8-byte vectors)
// and each fragment is kPerLane / 4 such reads. The pass chooses that where the target has the instruction, the
// buffer holds 16-bit values, every mma reads it as its K x N B operand with an instruction whose kPerLane is 8
// (16-byte fragments; with 8-byte ones the transposing reads were measured no better), and its stored rows keep the 8-byte reads aligned (N + pad a multiple of 4).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LDSTRANSPOSEREADS_H
#define TILEC_LDSTRANSPOSEREADS_H

#include "ir/IR.h"

namespace tilec {

/// Marks the LDS buffers of `module` whose fragments are read with ds_read_b64_tr_b16 (LdsBuffer::transposeReads) and
/// stores them as declared.
void useLdsTransposeReads(ir::Module &module);

} // namespace tilec

#endif
