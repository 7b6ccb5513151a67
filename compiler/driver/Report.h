//===- Report.h - What tilec tells a kernel engineer (--emit=report) --------===//
//
// Per kernel: workgroup and waves, the grid, the launcher's signature, each tile's distribution with its arithmetic,
// and the memory accesses (width, and what decides whether the 16-byte path is taken). Text for people, JSON for
// tools; both come from the same numbers.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_REPORT_H
#define TILEC_REPORT_H

#include "analysis/Occupancy.h"
#include "ir/IR.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

void printReport(const ir::Module &module, llvm::StringRef fileName, llvm::raw_ostream &os);
void printReportJSON(const ir::Module &module, llvm::StringRef fileName, llvm::raw_ostream &os);

/// Every LDS write and fragment read of kernel `k` (of buffer `only`, when given) with its cost in the target's LDS
/// banks, one line each under a heading; nothing when there is none.
void printLdsBanks(const ir::Kernel &k, const Target &t, llvm::raw_ostream &os, const ir::LdsBuffer *only = nullptr);
/// The calculator's answer alone (`tilec --occupancy`), as text or JSON.
void printOccupancyQuery(const Target &target, const KernelResources &r, bool json, llvm::raw_ostream &os);
/// The derivation and hints, indented.
void printOccupancy(const Occupancy &o, unsigned indent, llvm::raw_ostream &os);
/// "occupancy": {...} as an attribute of the current JSON object.
void writeOccupancy(const Occupancy &o, llvm::json::OStream &json);
void writeRegisterEdge(const RegisterEdge &e, llvm::json::OStream &json);
void printRegisterEdge(const RegisterEdge &e, llvm::StringRef kernel, llvm::raw_ostream &os);

} // namespace tilec

#endif
