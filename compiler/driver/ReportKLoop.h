//===- ReportKLoop.h - The report's K loops ---------------------------------===//
//
// How each K loop runs, as the pipelining pass planned it (ir::KLoopPlan), in the text and JSON reports: its depth
// and why, LDS stages and barriers, the order of a main-loop step, the masked steps and their buffer loads.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_REPORTKLOOP_H
#define TILEC_REPORTKLOOP_H

#include "ir/IR.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace tilec::report {

/// The K loops of a body, outermost first.
void kLoops(const ir::Body &body, std::vector<const ir::For *> &out);
/// The loop's lines of the text report.
void printKLoop(const ir::Kernel &k, const ir::For &f, llvm::raw_ostream &os);
/// The loop as a JSON object (an element of the kernel's "k_loops").
void writeKLoop(const ir::Kernel &k, const ir::For &f, llvm::json::OStream &json);

} // namespace tilec::report

#endif
