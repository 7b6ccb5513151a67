//===- UnrollChunks.h - Loops short enough for LLVM to unroll --------------===//
//
// An IR pass, run before emission. The HIP emitter writes an elementwise statement as one loop over the lane's R
// accesses under `#pragma unroll`, with the register tiles as arrays indexed by the access: unrolled, every index is
// a constant and the arrays live in registers. LLVM unrolls a loop fully only while the unrolled body stays under its
// pragma threshold (16384 instructions, `-pragma-unroll-threshold`); past it the loop stays, the arrays are indexed at
// run time, and they live in scratch. Only the software fp8 conversions (tilec::f32_to_fp8 and fp8_to_f32, about 40
// to 85 instructions per element) make a statement that long: `y = cast<bf8>(x * alpha)` from bf16 with 128 accesses
// of 2 elements (256 conversions) kept both arrays in 784 bytes of scratch per lane with clang-19 for gfx942 and with
// the gfx950 compiler, where 96 accesses (192) unrolled. The pass cuts such a statement's accesses into loops of at
// most kConversionsPerLoop conversions, each unrolled on its own; the unrolled code is the same, in one block.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_UNROLLCHUNKS_H
#define TILEC_UNROLLCHUNKS_H

#include "ir/IR.h"

namespace tilec {

/// fp8 conversions per emitted access loop: half the number past which clang-19 left a loop rolled (bf16 -> bf8:
/// 192 of them unrolled, 256 did not; bf8 -> f32 -> fp8 of two tiles, 3 per element: 384 unrolled, 512 did not).
constexpr unsigned kConversionsPerLoop = 128;

/// Software fp8 conversions per element of `v` (a cast of a tile value from or to fp8/bf8 is one, fp8 to bf8 two).
unsigned fp8Conversions(const ir::Value &v);

/// Sets Assign::accessChunk and Store::accessChunk of every statement of `module` whose loop would be too long.
void chunkAccessLoops(ir::Module &module);

} // namespace tilec

#endif
