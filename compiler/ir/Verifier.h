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

/// True when every K loop's plan (passes/SoftwarePipeline.h) holds together: the depth, its LDS stages, and for a
/// staged loop (depth 3) one mma (a scaled one's scales loaded once), a masked loop after the main one, and one
/// segment per instruction K step that holds that step's MFMAs and places every LDS write and load once. Run after the
/// pipelining pass.
bool verifyPlans(const ir::Module &module, DiagnosticEngine &diags);

/// True when every LDS buffer's layout (passes/LdsSwizzle.h) keeps each element in its buffer and row: a row swizzle
/// only of a transposed buffer of 2^n rows, its bits read above its bits changed; a column XOR only of a buffer that
/// register tiles alone use, never with a row swizzle, its chunks permuted inside the row. Run after that pass.
bool verifyLdsLayouts(const ir::Module &module, DiagnosticEngine &diags);

/// True when every mma whose A fragments are read before its loop (passes/HoistFragments.h) has them read there,
/// after a barrier that follows A's last write and with no write of A until the loop ends, and when the LDS buffers
/// that share bytes (passes/ShareLds.h) lie inside the shared allocation and are never live at once, a barrier
/// between the lifetimes of any two that overlap. Run after those passes.
bool verifyLdsLifetimes(const ir::Module &module, DiagnosticEngine &diags);

} // namespace tilec

#endif
