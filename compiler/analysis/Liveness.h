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
#include <optional>
#include <vector>

namespace tilec {

/// The register tiles live at the statement where they take the most registers (among the statements of loop
/// `within` when given). Where a tile dies and another is born in the same elementwise statement, access i of one is
/// consumed as access i of the other: the larger counts.
std::vector<const ir::Tile *> livePeak(const ir::Kernel &k, const ir::For *within = nullptr);

/// The reduced tiles live at the statement where they take the most registers: a reduced tile is live from its
/// first reduction to the last statement that reads it (a whole loop when used inside one).
std::vector<const ir::ReducedTile *> reducedPeak(const ir::Kernel &k);

/// The dtype a tile is held in after the compiler converts it once: when every statement of one body that reads f16
/// or bf16 tile `t` reads it only as `cast<f32>(t)`, clang converts the values where they are loaded
/// and keeps them converted instead of the tile (softmax_online_f16: max(cast<f32>(x)) and sum(exp(cast<f32>(x) -
/// m)), 32 VGPRs of f32 where x's f16 took 16; layernorm_f16's gamma, read once as cast<f32>(g), converted in the
/// branch of its masked load). std::nullopt otherwise.
std::optional<DType> convertedOnce(const ir::Kernel &k, const ir::Tile &t);

/// The loads of plain loops issued one step ahead (For::rotatedLoads), with their loops, in program order.
std::vector<std::pair<const ir::Assign *, const ir::For *>> loadedAhead(const ir::Body &body);

} // namespace tilec

#endif
