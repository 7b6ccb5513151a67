//===- DeadCode.h - Warnings for valid code that does nothing ---------------===//
//
// A kernel can pass every check and still do nothing a user meant: store nothing, load a tile whose values never
// reach memory, update an accumulator that is never stored, take a tensor it never touches, or run a loop that is
// empty or never iterates. These are warnings (errors under -Werror), given once per kernel that has no errors.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DEADCODE_H
#define TILEC_DEADCODE_H

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec {

/// Warns about the statements and declarations of `kernel` whose work never reaches global memory.
void warnDeadCode(const ir::Kernel &kernel, DiagnosticEngine &diags);

} // namespace tilec

#endif
