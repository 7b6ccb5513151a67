//===- Sema.h - Checking a program and lowering it to IR --------------------===//
//
// Sema resolves every name, dtype, shape and distribution of the AST, reports each user error it finds (as many per
// run as are independent: a broken declaration poisons its name so its uses do not cascade), and builds the IR.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_SEMA_H
#define TILEC_SEMA_H

#include "frontend/AST.h"
#include "ir/IR.h"
#include "support/Diagnostics.h"
#include <memory>

namespace tilec {

/// Checks `program` and returns its IR, or nullptr when an error was reported. `targetOverride` (from
/// --offload-arch) replaces the file's `target` declaration; with neither, the default target is used. The warnings
/// about code that does nothing come last; `unusedCodeFrom`, when given, is set to the number of diagnostics the
/// engine had recorded before them (the language server orders them as a whole file would, driver/Driver.h).
std::unique_ptr<ir::Module> buildIR(const ast::Program &program, const Target *targetOverride,
                                    DiagnosticEngine &diags, size_t *unusedCodeFrom = nullptr);

} // namespace tilec

#endif
