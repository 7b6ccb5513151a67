//===- Hover.h - What the server says about a name and about a kernel ------===//
//
// The text of a hover and of the `tilec.report` command, from the compiler's own report functions (driver/Report.h,
// driver/LayoutPrinter.h) and models (the resource estimate, the occupancy calculator), never recomputed here: a
// tile's heading and distribution as `--emit=report` prints them, an LDS buffer's bank costs, an accumulator's
// blocks, each with the registers or LDS bytes it costs and the occupancy line they enter; a kernel's occupancy
// derivation; and a kernel's section of the report.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LSP_HOVER_H
#define TILEC_LSP_HOVER_H

#include "Symbols.h"
#include "ir/IR.h"
#include <string>

namespace tilec::lsp {

/// Plain text about declaration `d` of `index`, with what `module` (null when no version of the file checked) knows
/// of it.
std::string describe(const Declaration &d, const SymbolIndex &index, const ir::Module *module);

/// The report (`tilec --emit=report`) of kernel `kernel` of `module`: the report's heading line and that kernel's
/// section; the whole report when `kernel` is empty. Empty when there is no such kernel.
std::string kernelReport(const ir::Module &module, llvm::StringRef fileName, llvm::StringRef kernel);

/// One line for a code lens over a kernel: its occupancy and what limits it.
std::string occupancySummary(const ir::Module &module, llvm::StringRef kernel);

} // namespace tilec::lsp

#endif
