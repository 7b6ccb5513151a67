//===- SemaGEMM.h - Checking LDS buffers, accumulators and mma --------------===//
//
// The GEMM part of Sema: `lds` and `acc` declarations, `lds = tile` writes and `acc += mma(a, b)` products. Name
// resolution stays in Sema.cpp, which hands these functions the declarations it found; here are the rules of the
// MFMA table (instruction on the target, dtypes, whole instruction blocks per wave, K a multiple of the
// instruction's K) and the LDS layouts (B stored transposed when it is K x N; fragment reads aligned).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_SEMAGEMM_H
#define TILEC_SEMAGEMM_H

#include "AST.h"
#include "Diagnostics.h"
#include "IR.h"
#include <map>
#include <memory>
#include <set>

namespace tilec::sema {

/// `lds name: dtype[rows, cols] pad p` with its dtype and shape already checked.
std::unique_ptr<ir::LdsBuffer> makeLds(const ast::LdsDecl &decl, DType dtype, DiagnosticEngine &diags);

/// `acc name: dtype[rows, cols] mfma (instr | auto) [waves [Wy, Wx]]`; nullptr after reporting errors.
std::unique_ptr<ir::AccTile> makeAcc(const ast::AccDecl &decl, DType dtype, unsigned workgroupSize,
                                     const Target &target, DiagnosticEngine &diags);

/// `lds = tile`: same shape and dtype.
ir::StmtPtr makeLdsWrite(const ast::AssignStmt &stmt, const ir::LdsBuffer &dst, const ir::Tile &src,
                         DiagnosticEngine &diags);

/// How each LDS buffer is read by mma so far: stored as declared, or transposed (a K x N B operand).
using LdsOrientation = std::map<const ir::LdsBuffer *, std::pair<bool, llvm::SMRange>>;

/// What the GEMM checks of one kernel remember between statements.
struct GEMMState {
  LdsOrientation orientation;
  /// Accumulators with `mfma auto` whose first mma failed before an instruction was chosen (none fits, or the mma
  /// itself was wrong): later mma and reads of them stay quiet instead of repeating the failure.
  std::set<const ir::AccTile *> autoFailed;
};

/// `acc += mma(a, b)` or `acc += mma(a, transpose(b))` (`bIsNK`). Resolves `mfma auto`.
ir::StmtPtr makeMMA(const ast::AssignStmt &stmt, ir::AccTile &acc, ir::LdsBuffer &a, ir::LdsBuffer &b, bool bIsNK,
                    llvm::SMRange aRange, llvm::SMRange bRange, const Target &target, GEMMState &state,
                    DiagnosticEngine &diags);

} // namespace tilec::sema

#endif
