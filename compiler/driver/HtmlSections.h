//===- HtmlSections.h - The sections of one kernel in the HTML report -------===//
//
// Each function writes one part of a kernel's section of the page (HtmlReport.h) from the compiler's own structures:
// the tiles' owner maps (Layout::owner), the MFMA table's lane layouts, the bank model's costs (LDSBanks.h), the
// resource model's items and the occupancy calculator (ResourceModel.h, Occupancy.h), and the compiler's figures and
// its K loop under LLVM's MCA when the device compiler ran.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_HTMLSECTIONS_H
#define TILEC_HTMLSECTIONS_H

#include "device/ISAInfo.h"
#include "ir/IR.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>

namespace tilec::html {

/// What the in-process compile of the module gave: the assembly, or why there is none.
struct CompiledModule {
  bool ok = false;
  std::string why; ///< when not ok: the device compiler's message
  std::string assembly;
  std::string llvmVersion;
};

/// Every register tile's thread map, one SVG grid each.
void writeTileMaps(const ir::Kernel &k, const Target &t, llvm::raw_ostream &os);
/// Every accumulator: its waves and instruction blocks, the C/D layout of one block as the kernel holds it, and the
/// A and B fragment layouts of its instruction.
void writeMFMALayouts(const ir::Kernel &k, const Target &t, llvm::raw_ostream &os);
/// Every LDS buffer (rows, pad, swizzle) and, per access statement, the bank map of its costliest phase.
void writeLds(const ir::Kernel &k, const Target &t, llvm::raw_ostream &os);
/// The model's registers as stacked bars beside the compiler's figures, and the occupancy limiters with the hints.
void writeResources(const ir::Kernel &k, const Target &t, const CompiledKernel *compiled, llvm::raw_ostream &os);
/// The K loop (or any loop with MFMAs) of kernel `name` in the compiled code under LLVM's MCA, or why it is absent.
void writeLoop(const ir::Kernel &k, const Target &t, const CompiledModule &compiled, const CompiledKernel *kernelInfo,
               llvm::raw_ostream &os);

} // namespace tilec::html

#endif
