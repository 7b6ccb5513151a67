//===- RotateLoopLoads.h - Loading the next step of a plain loop during this one ===//
//
// A loop that is not a K loop (attention's loop over K/V blocks, whose first mma restarts) loads its tiles at the top
// of each step and writes them to LDS at once, so every step waits for global memory's whole latency. An IR pass over
// one kernel, run with the K-loop plans: in a plain loop whose body starts with loads of tiles (windows that move
// with the loop variable) that only LDS writes read, those before the first barrier writes of these tiles alone, the
// load of the next step is issued right after that barrier, or after the tile's last LDS write where that comes later
// (the tile's values are in LDS by then), under a uniform `var + step < upper` guard, and the first step's before the
// loop (For::rotatedLoads, For::rotatedAfter). A tile written to LDS after the first mma (attention's V, written while
// S's MFMAs run) thus keeps its load one step ahead. The next step's tiles then arrive while this
// step's products and softmax run. Their registers are live across the loop either way (the resource model counts a
// tile used in a loop over the whole loop).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_ROTATELOOPLOADS_H
#define TILEC_ROTATELOOPLOADS_H

#include "ir/IR.h"

namespace tilec {

/// Marks the loads of every plain loop of `module` that can run one step ahead (see above).
void rotateLoopLoads(ir::Module &module);

} // namespace tilec

#endif
