//===- LayoutPrinter.h - Showing how tiles are distributed (--emit=layout) ---===//
//
// The text form draws each register tile's thread map: one line per tile row, one cell per vec-wide group of
// elements, holding the workgroup thread that owns it. The JSON form gives the distribution numbers and the full
// `owner` map (one array per row, one thread id per element). describeDistribution and writeDistribution are shared
// with the report so both say the same thing.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LAYOUTPRINTER_H
#define TILEC_LAYOUTPRINTER_H

#include "ir/IR.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

void printLayouts(const ir::Module &module, llvm::raw_ostream &os);
void printLayoutsJSON(const ir::Module &module, llvm::raw_ostream &os);

/// The line that names a tile in the report (and in the language server's hover): `tile a: f16[128, 32] warp_raked vec
/// 8`, a 1-D tile with the [rows, cols] it is viewed as.
void printTileHeading(const ir::Tile &tile, llvm::raw_ostream &os);
/// The derivation of a tile's distribution, a few indented lines of plain arithmetic.
void describeDistribution(const ir::Tile &tile, const Target &target, unsigned indent, llvm::raw_ostream &os);
/// The distribution numbers of a tile as attributes of the current JSON object.
void writeDistribution(const ir::Tile &tile, llvm::json::OStream &json);

} // namespace tilec

#endif
