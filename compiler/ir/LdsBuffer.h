//===- LdsBuffer.h - An LDS buffer of the IR and how it is stored ------------===//
//
// Part of the IR (IR.h includes it): a buffer declared `lds name: dtype[rows, cols] pad p`, its stored form (as
// declared or transposed, slotted 6-bit values), the layout the LDS swizzle pass chooses for it (rows swizzled or
// 16-byte column chunks XORed) and the byte offset of every element under it, which the emitter, the bank model, the
// report and the HTML picture all use; and the transposing reads of a B operand stored as declared.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LDSBUFFER_H
#define TILEC_LDSBUFFER_H

#include "layout/Layout.h"
#include "llvm/Support/SMLoc.h"
#include "support/DType.h"
#include "target/MFMA.h"
#include "target/Target.h"
#include <cstdint>
#include <optional>
#include <string>

namespace tilec::ir {

using llvm::SMRange;

/// An LDS buffer: `lds name: dtype[rows, cols] pad p`, one per workgroup. Stored row by row, `pitch()` elements
/// apart. A buffer that an mma reads as its B operand in [K, N] form is stored transposed, as [N][K + pad], so every
/// MFMA fragment (consecutive K values of one row or column) is one contiguous LDS read.
struct LdsBuffer {
  std::string name;
  DType dtype;
  unsigned rows = 0, cols = 0; ///< as declared
  unsigned pad = 0;            ///< elements added to each stored row
  bool transposed = false;     ///< stored as [cols][rows + pad]
  /// A K x N B operand stored as declared whose fragments are read with ds_read_b64_tr_b16, _tr_b8, _tr_b4 or
  /// ds_read_b96_tr_b6 (gfx950): reads of 8 (12) bytes per lane (TransposeReads, passes/LdsTransposeReads.h).
  bool transposeReads = false;
  /// Values one transposing read gives a lane: 8 bytes, 4 16-bit, 8 8-bit or 16 4-bit values; 12 bytes, 16 6-bit ones.
  unsigned transposeReadValues() const {
    return 8 * Target::ldsTransposeReadBytes(valueBits(dtype)) / valueBits(dtype);
  }
  /// A 6-bit K x N B read with ds_read_b96_tr_b6 is stored in slots: each 4 elements of a row (16 N values, 12 bytes)
  /// in 16 bytes, the last 4 unused, so that every lane's 12 bytes start 16-byte aligned (docs/mx.md).
  bool slotted() const { return transposeReads && valueBits(dtype) == 6; }
  static constexpr unsigned kSlotElements = 4, kSlotBytes = 16;
  /// Whether rows of `rowPitch` elements, the buffer stored as declared, keep every lane's transposing read aligned:
  /// rows of whole 8-byte pieces, or for 6-bit values of whole slots. The rule of the pass that chooses the reads,
  /// of Sema's check of an N-packed B (which only they can read) and of the bank model's pad search.
  bool transposeReadRows(unsigned rowPitch) const {
    return valueBits(dtype) == 6 ? rowPitch % kSlotElements == 0 : rowPitch * sizeOf(dtype) % 8 == 0;
  }
  unsigned stages = 1;         ///< copies of the buffer: 2 when a pipelined K loop double-buffers it
  /// Bytes after each stage's rows that no statement writes: a scaled mma's scales read at a lane group's byte reach
  /// up to 64 / m - 1 bytes past the last row's (ScaleLoads::readAtLaneGroup, passes/PlanScaleLoads.h).
  unsigned tailBytes = 0;
  /// Its first byte in the kernel's shared LDS allocation (Kernel::ldsSharedBytes, passes/ShareLds.h), where it may
  /// overlap buffers whose lifetimes do not overlap its own; unused when the kernel has no shared allocation.
  unsigned offset = 0;
  /// Set by the LDS swizzle pass (passes/LdsSwizzle.h): stored row r is placed at row
  /// r ^ (((r >> swizzleFrom) & swizzleMask) << swizzleShift); swizzleMask 0 keeps every row in place.
  unsigned swizzleFrom = 0, swizzleMask = 0, swizzleShift = 0;
  /// Set by the same pass for a buffer that only register tiles write and read (no mma fragment reads it): in
  /// (placed) row r, the 16-byte chunk j of the stored columns is placed at chunk j ^ (((r >> colXorFrom) &
  /// colXorMask) << colXorShift); colXorMask 0 keeps every column in place. Every access tilec emits to such a
  /// buffer is at most 16 bytes and aligned to its width, so it stays inside one chunk and contiguous.
  unsigned colXorFrom = 0, colXorMask = 0, colXorShift = 0;
  static constexpr unsigned kXorChunkBytes = 16;
  SMRange loc;
  std::optional<SMRange> padLoc; ///< the `pad` literal, when the declaration has one
  /// False for a buffer no statement uses (Sema warns): the emitted code does not declare it, so it takes no LDS.
  bool used = true;
  unsigned storedRows() const { return transposed ? cols : rows; }
  unsigned storedCols() const { return transposed ? rows : cols; }
  unsigned pitch() const { return storedCols() + pad; }
  bool swizzled() const { return swizzleMask != 0; }
  /// Where stored row r is placed (r itself unless the rows are swizzled).
  unsigned placedRow(unsigned r) const { return r ^ (((r >> swizzleFrom) & swizzleMask) << swizzleShift); }
  bool colXorred() const { return colXorMask != 0; }
  /// Elements of one 16-byte chunk that the column XOR permutes.
  unsigned xorChunkElements() const { return kXorChunkBytes / sizeOf(dtype); }
  /// Where column `col` of (placed) row `row` is placed (col itself unless the columns are XORed).
  uint64_t placedCol(uint64_t row, uint64_t col) const {
    return col ^ (((row >> colXorFrom) & colXorMask) << colXorShift) * xorChunkElements();
  }
  /// Bytes of a stored row of `rowPitch` elements (a trial pad's, in the bank model's pad search), and of this
  /// buffer's rows.
  unsigned rowBytes(unsigned rowPitch) const {
    return slotted() ? rowPitch / kSlotElements * kSlotBytes : rowPitch * sizeOf(dtype);
  }
  unsigned rowBytes() const { return rowBytes(pitch()); }
  /// The byte offset of element `col` of stored row `row` (placed, if swizzled, by the caller) in rows of `rowPitch`.
  uint64_t byteOffset(uint64_t row, uint64_t col, unsigned rowPitch) const {
    if (slotted())
      return row * rowBytes(rowPitch) + col / kSlotElements * kSlotBytes + col % kSlotElements * sizeOf(dtype);
    return (row * rowPitch + placedCol(row, col)) * sizeOf(dtype);
  }
  /// Bytes of one stage.
  unsigned stageBytes() const { return storedRows() * rowBytes() + tailBytes; }
  unsigned bytes() const { return stages * stageBytes(); }
  /// How many consecutive rows (K values) of a register tile with layout `src` one lane writes to this buffer as one
  /// vector when it is stored transposed: a thread_raked tile's accesses of a lane are consecutive rows, so each
  /// column's values of up to 16 B of them are one write (whole runs per lane and per wave, stored aligned); 1 means
  /// element by element.
  unsigned transposedRun(const Layout &src) const {
    if (!transposed || src.pattern != Pattern::ThreadRaked) return 1;
    unsigned size = sizeOf(dtype), run = 1;
    while (src.rowsPerLane % (run * 2) == 0 && src.subRows % (run * 2) == 0 && (pitch() * size) % (run * 2 * size) == 0 &&
           run * 2 * size <= 16 && isWholeAccess(run * 2 * size))
      run *= 2;
    return run;
  }
  /// The elements of one LDS write of a `vec`-element access into this (untransposed) buffer: the widest part of it
  /// whose address stays aligned from row to row and that is one access (1: element by element; a 3-byte element
  /// writes 4 at a time or one).
  unsigned writeChunk(unsigned vec) const { return writeChunk(vec, pitch()); }
  /// The same for rows of `rowPitch` elements (a trial pad's, in the bank model's pad search).
  unsigned writeChunk(unsigned vec, unsigned rowPitch) const {
    unsigned size = sizeOf(dtype), chunk = vec;
    while (chunk > 1 && ((rowPitch * size) % (chunk * size) != 0 || !isWholeAccess(chunk * size))) chunk /= 2;
    return chunk;
  }
};

/// The transposing reads of one B fragment of `ins` from a K x N buffer read with them (LdsBuffer::transposeReads).
/// Rows of the buffer count K values; a lane's K values are runs of consecutive ones (one run, or the two of a scaled
/// 8-bit operand, kGroups * 16 apart), each read gives it `values` of them, and read j starts rowOffset(j) rows after
/// the lane's first K value. The reads fill the operand in order, 8 bytes each, or 12 for 6-bit values (a scaled fp4
/// operand's upper half, a 6-bit one's last 2 dwords, stay zero). Shared by the emitter, the LDS bank model and the
/// pipelining plan.
struct TransposeReads {
  unsigned values;    ///< K values per read: 4 (16-bit), 8 (8-bit) or 16 (6- and 4-bit)
  unsigned count;     ///< reads per fragment
  unsigned perRun;    ///< reads per run of consecutive K values
  unsigned runStride; ///< K values from the start of one run to the next
  unsigned rowOffset(unsigned j) const { return (j / perRun) * runStride + (j % perRun) * values; }
};
inline TransposeReads transposeReadsOf(const MFMAInstr &ins, const LdsBuffer &b) {
  unsigned v = b.transposeReadValues(), perValue = info(ins.a).values; // K values per element of A
  unsigned run = ins.kRun() * perValue;
  return {v, ins.kPerLane * perValue / v, run / v, ins.kGroups() * run};
}

} // namespace tilec::ir

#endif
