//===- Liveness.h - Which tiles the model counts as live together ------------===//
//
// Part of the resource model (ResourceModel.h): statements in program order, a tile used anywhere inside a loop live
// across the whole loop, and the set of register tiles, or of reduced tiles, live at the statement where they take
// the most registers.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIVENESS_H
#define TILEC_LIVENESS_H

#include "ir/IR.h"
#include <vector>

namespace tilec {

/// The register tiles live at the statement where they take the most registers. Where a tile dies and another is
/// born in the same elementwise statement, access i of one is consumed as access i of the other: the larger counts.
std::vector<const ir::Tile *> livePeak(const ir::Kernel &k);

/// The reduced tiles live at the statement where they take the most registers: a reduced tile is live from its
/// first reduction to the last statement that reads it (a whole loop when used inside one).
std::vector<const ir::ReducedTile *> reducedPeak(const ir::Kernel &k);

} // namespace tilec

#endif
