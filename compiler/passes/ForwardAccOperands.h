//===- ForwardAccOperands.h - An accumulator's values as the next mma's A, in registers ===//
//
// Attention's P = exp2(S - m) is written to LDS from S's accumulator registers (`sP = cast<f16>(s);`) only to be read
// back as the A operand of the next product (`o += mma(sP, sV);`). An IR pass over one kernel, run by Sema once the
// kernel has no errors and before the LDS bank warning and the transposing-read choice (both judge the buffers as they
// will be used): where the lanes already hold A's fragments, it removes the round trip. Lane l of an accumulator of
// block height m holds row l % m of each block and, per group of 4 values, 4 consecutive columns, group c of a row in
// lane group c % (64 / m); an instruction of the same m reads A's K values in runs of 4 the same way (runsOfFour:
// its own order where a lane's K values are one run of 4, a permutation of K common to A and B otherwise). So when
// the mma's accumulator has the same rows, waves and block height as the written one, the write's K extent is the
// mma's, the buffer has no other reader or writer, and nothing between the write and the mma changes what the write
// reads, the mma takes the values from registers (MMA::aFrom), the write and the buffer go, and B's fragments are
// read in runs of 4. The choice is always the faster where it is legal: it removes the buffer's LDS writes and
// reads, their bank conflicts and its LDS bytes, and adds no instruction (the f16 conversions happen either way);
// the report says so (MMA::aFromWhy).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FORWARDACCOPERANDS_H
#define TILEC_FORWARDACCOPERANDS_H

#include "ir/IR.h"

namespace tilec {

/// Forwards every accumulator value written to LDS only for the A operand of one mma (see above).
void forwardAccOperands(ir::Kernel &kernel);

} // namespace tilec

#endif
