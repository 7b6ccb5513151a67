//===- Explore.h - A GEMM's choices beside their neighbours, measured --------===//
//
// `tilec --explore`: for each kernel with a K loop, the kernel as written and the variants a kernel engineer would
// try next (the K step doubled and halved, the block doubled down M and across N with the same waves or twice as
// many, each other pipeline depth, the target's other MFMAs of the accumulator's types), each made by editing the
// kernel's syntax tree, checked by every stage of tilec, compiled by LLVM in process and its vector kernel's K loop
// run through LLVM's MCA (the yardstick of --verify and bench/kloop.py). Per variant: the
// compiler's registers, LDS and waves per SIMD, the loop's cycles per K step and MFMA busy, and the estimate at the
// compiler's occupancy (LoopEstimate.h: min(1, waves x busy) of the MFMA peak, global memory and the LDS); or the
// first error that refuses it. The best of them is named with the lines to change, where it does no less MFMA work
// for a higher estimate; tilec does not change the kernel itself (docs/verify.md, "Exploring the K step, block and
// depth").
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_EXPLORE_H
#define TILEC_EXPLORE_H

#include "driver/Driver.h"
#include "ir/IR.h"
#include "llvm/Support/raw_ostream.h"
#include "support/Diagnostics.h"

namespace tilec {

/// Explores every K loop of `module`, compiled from buffer `buffer` of `diags`' SourceMgr (the variants are made
/// from its text), writing the tables to `os`. Returns the exit status: 0, or kExitTargetUnsupported when the linked
/// LLVM cannot compile for the target, or 1 when the kernel as written does not compile.
int exploreKernels(const ir::Module &module, unsigned buffer, llvm::StringRef shownName,
                   const CompileOptions &options, DiagnosticEngine &diags, llvm::raw_ostream &os);

} // namespace tilec

#endif
