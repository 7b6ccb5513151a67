//===- EpilogueRegisters.h - Registers of accumulator stores -------------------===//
//
// Part of the resource model (ResourceModel.h): what the stores of an accumulator need beyond its values, the
// operands an epilogue loads in the accumulator's C/D layout and the element paths of the _unaligned kernel's stores.
// The figures were measured against clang-19 for gfx942 (each function says on what).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_EPILOGUEREGISTERS_H
#define TILEC_EPILOGUEREGISTERS_H

#include "ir/IR.h"

namespace tilec {

/// VGPRs of the operands of an epilogue (loads in an accumulator's C/D layout): a [1, N] row is loaded once per lane
/// and stays live through the stores, an [M, 1] column is one value per block row, a full window one group at a time.
unsigned epilogueOperands(const ir::Value &v);
/// The largest epilogueOperands of the kernel's accumulator stores.
unsigned mostEpilogueOperands(const ir::Kernel &k);
/// The ArchVGPRs of the epilogues that compute on an accumulator before storing it.
unsigned epilogueFloor(const ir::Kernel &k);
/// The ArchVGPRs the element path of a plain accumulator store needs in the _unaligned kernel.
unsigned plainAccumulatorElementStores(const ir::Kernel &k);

} // namespace tilec

#endif
