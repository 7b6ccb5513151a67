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

#include "frontend/AST.h"
#include "ir/IR.h"
#include "support/Diagnostics.h"
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

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

/// Where the values of one assignment to a register tile come from: a load (with the loops whose variables its row
/// and column indices use), or another register tile.
struct TileSource {
  const ast::LoadExpr *load = nullptr;
  std::set<const ast::ForStmt *> rowLoops, colLoops;
  const ast::Expr *rowIndex = nullptr, *colIndex = nullptr;
  std::string fromTile; ///< when not a load
};

/// One `lds = tile` write.
struct LdsSource {
  std::string tile;
  llvm::SMRange at; ///< the whole statement
};

/// One checked mma, for the orientation check at the end of the kernel.
struct MMAUse {
  const ir::LdsBuffer *a = nullptr, *b = nullptr;
  bool bIsNK = false;
  const ast::ForStmt *loop = nullptr; ///< the innermost loop around the mma: its variable walks K
  llvm::SMRange call, aRange, bRange;
  bool scaled = false; ///< a scaled mma: its operands' windows must start at the K loop's variable
};

/// What the GEMM checks of one kernel remember between statements.
struct GEMMState {
  LdsOrientation orientation;
  /// Accumulators with `mfma auto` whose first mma failed before an instruction was chosen (none fits, or the mma
  /// itself was wrong): later mma and reads of them stay quiet instead of repeating the failure.
  std::set<const ir::AccTile *> autoFailed;
  /// Provenance: every assignment to each register tile, every write to each LDS buffer, every checked mma.
  std::map<std::string, std::vector<TileSource>> tileSources;
  std::map<const ir::LdsBuffer *, std::vector<LdsSource>> ldsSources;
  std::vector<MMAUse> mmas;
  /// LDS buffers with a write (`lds = ...`, even a wrong one) and with a read by an mma (even a failed one).
  std::set<const ir::LdsBuffer *> written, readByMMA;
  /// LDS buffers read into register tiles (`t = lds`, `t = transpose(lds)`).
  std::set<const ir::LdsBuffer *> readByTile;
};

/// Warnings at the declaration of an LDS buffer that is never used, read by mma but never written (its values are
/// undefined), or written but never read by an mma.
void warnUnusedLds(ir::Kernel &kernel, const GEMMState &state, DiagnosticEngine &diags);

/// A square operand cannot tell K x N from N x K by its shape; its provenance can. An LDS buffer written from a tile
/// that was loaded from a window whose row (column) index uses the variable of the loop around the mma holds K along
/// its rows (columns). A needs K along its columns, B along its rows, transpose(B) along its columns. Reports an mma
/// operand whose known provenance contradicts that; unknown or ambiguous provenance (several sources that disagree,
/// the variable in both indices, a tile whose values come from nowhere known) says nothing.
void checkOperandOrientation(const GEMMState &state, DiagnosticEngine &diags);

/// A scaled mma reads its scales at rows block.row (A) / block.col (B) and K blocks of the K loop's variable: every
/// load that fills its operands must have the window [block.row, k] ([block.col, k], or [k, block.col] for a K x N
/// B). Reports each load that does not.
void checkScaledWindows(const GEMMState &state, DiagnosticEngine &diags);

/// Resolves `mfma auto` for `acc` from the operands of its first mma (A [M, K], B [K, N] or, when bIsNK, [N, K]): the
/// best instruction whose fragment reads keep the operands' stored rows aligned, with a note when the pad rules out a
/// better one; false (with an error, and `acc` remembered as failed) when the target has none.
bool chooseAuto(ir::AccTile &acc, const ir::LdsBuffer &a, const ir::LdsBuffer &b, bool bIsNK, llvm::SMRange at,
                const Target &target, GEMMState &state, DiagnosticEngine &diags);

/// `acc += mma(a, b)` or `acc += mma(a, transpose(b))` (`bIsNK`). Resolves `mfma auto`.
ir::StmtPtr makeMMA(const ast::AssignStmt &stmt, ir::AccTile &acc, ir::LdsBuffer &a, ir::LdsBuffer &b, bool bIsNK,
                    llvm::SMRange aRange, llvm::SMRange bRange, const Target &target, GEMMState &state,
                    DiagnosticEngine &diags);

} // namespace tilec::sema

#endif
