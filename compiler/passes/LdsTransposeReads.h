//===- LdsTransposeReads.h - K x N B operands read with ds_read_*_tr_b* ----===//
//
// An IR pass over one kernel, run by Sema once the kernel has no errors (before the LDS bank warning, which must
// judge the buffer as it will be stored) and so before the K loops are planned. A K x N B operand (B given K x N in
// memory, `mma(sA, sB)`) is stored transposed, as [N][K + pad], so that each MFMA fragment (kPerLane consecutive K
// values of one column) is one contiguous LDS read; its writes are then column by column, 4 bytes (a K pair of 16-bit
// values or a quad of 8-bit ones), 2 or one value at a time. gfx950 has transposing LDS reads of 8 bytes per lane,
// ds_read_b64_tr_b16, _tr_b8 and _tr_b4 for 16-, 8- and 4-bit values (docs/gemm.md, "Transposing LDS reads on
// gfx950"): within each 16 lanes, rows of 16 values named 8 bytes per lane come back one column per lane; and
// ds_read_b96_tr_b6 for 6-bit values, 12 bytes per lane (docs/mx.md, "B given K x N"). With them the buffer is stored
// as declared ([K][N + pad], written with the tile's own vectors) and each fragment is TransposeReads::count such
// reads (ir/IR.h). The pass chooses that where the target has the read for the buffer's values, every mma reads the
// buffer as its K x N B operand with an instruction of N 16 or 32 whose fragment is whole reads (16-bit: kPerLane 8
// only, as 8-byte fragments were measured no better with transposing reads; 8-bit: kPerLane a multiple of 8, or the
// two runs of 16 of a scaled operand; fp4x2, fp6x4 and bf6x4, whose elements pack N values: always, Sema having
// required it), and its stored rows keep the reads aligned ((N + pad) x element bytes a multiple of 8; for 6-bit
// values N + pad a multiple of 4 elements, each 4 stored in a 16-byte slot, LdsBuffer::slotted).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LDSTRANSPOSEREADS_H
#define TILEC_LDSTRANSPOSEREADS_H

#include "ir/IR.h"

namespace tilec {

/// Marks the LDS buffers of `kernel` whose fragments are read with ds_read_b64_tr_b16, _tr_b8, _tr_b4 or _b96_tr_b6 on
/// `target` (LdsBuffer::transposeReads) and stores them as declared.
void useLdsTransposeReads(ir::Kernel &kernel, const Target &target);

} // namespace tilec

#endif
