//===- HtmlReport.h - The report as one self-contained HTML page (--emit=html) ===//
//
// Per kernel: every register tile's thread map, the accumulators with their MFMA lane layouts, the LDS buffers with
// the bank map of each access, the registers and occupancy as bars, and the loop of MFMAs under LLVM's MCA. Inline
// SVG, CSS and a few lines of script; nothing is fetched. The pictures draw the compiler's own structures (owner
// maps, the MFMA table, the bank model, the resource model); the compiler's figures and the loop come from compiling
// the emitted HIP in process, when the device compiler is there (docs/report.md).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_HTMLREPORT_H
#define TILEC_HTMLREPORT_H

#include "ir/IR.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

/// Writes the page for `module` (compiled from `fileName`). `deviceThreads` as CompileOptions::deviceThreads.
void printHtmlReport(const ir::Module &module, llvm::StringRef fileName, unsigned deviceThreads, llvm::raw_ostream &os);

} // namespace tilec

#endif
