//===- Verifier.h - The invariants of the IR --------------------------------===//
//
// Checks what every later stage relies on, independently of how Sema got there: each tile's layout re-solves to
// itself under the target's rules, values are well typed and equally distributed, indices only name what is in
// scope. A failure is a tilec bug, reported as an internal error at the offending node (never an assertion).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_VERIFIER_H
#define TILEC_VERIFIER_H

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec {

/// True when `module` satisfies the IR invariants; otherwise reports each violation and returns false.
bool verifyModule(const ir::Module &module, DiagnosticEngine &diags);

} // namespace tilec

#endif
