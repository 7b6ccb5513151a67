//===- ShareLds.h - LDS buffers of disjoint lifetimes in the same bytes ---------===//
//
// Once attention's Q fragments are read before the loop over K/V blocks (passes/HoistFragments.h), sQ is dead for the
// whole loop, where sK and sV live: the three need not each have bytes of their own. An IR pass over a kernel's
// top-level statements: each used LDS buffer lives from the first to the last top-level statement that accesses it
// (a loop is one statement: a buffer accessed in it lives through all of it), and two buffers may share bytes when
// their lifetimes do not overlap and a barrier separates the last access of the earlier from the first of the later
// (the pass places one just before the later buffer's first statement where none is). Buffers are placed first fit,
// in the order they come to life, at 16-byte aligned offsets of one allocation (Kernel::ldsSharedBytes,
// LdsBuffer::offset), which the emitter declares once and names each buffer in.
//
// The pass shares only where the buffers as written do not fit the target's LDS; elsewhere every buffer keeps an
// allocation of its own and the emitted code is as before. Sharing where it would only let more workgroups share a
// CU was measured to cost more than it gives: with LDS for more waves, LLVM 22 schedules the loop in the registers of
// more waves (attention_fwd_f16 on gfx942, sQ sharing with sK and sV: 17 KiB instead of 34, 128 VGPRs and 4 waves per
// SIMD, but 282.6 llvm-mca cycles per K/V block against 245.3, MFMA busy 0.45 against 0.52; attention_gqa_f16 0.45
// against 0.52), and the VALU bounds such a loop at the same share of the MFMA pipe at 2 waves as at 4.
// Kernel::ldsSharedWhy says which, for the report. A kernel with a scaled mma (whose scale buffers a K loop's plan
// writes, not its statements) is left alone.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_SHARELDS_H
#define TILEC_SHARELDS_H

#include "ir/IR.h"

namespace tilec {

/// Places the LDS buffers of each kernel whose lifetimes do not overlap in the same bytes, where that pays (above).
void shareLdsBuffers(ir::Module &module);

} // namespace tilec

#endif
