//===- KernelSema.h - The state of Sema while it checks one kernel ----------===//
//
// Private to Sema: the class that checks one kernel, its method declarations and the names, IR objects, enclosing
// loops and warning state they share. Sema.cpp holds the passes (parameters, declarations, statements, warnings) and
// the name helpers; SemaExpr.cpp holds element values and index expressions. The rest of tilec sees only buildIR
// (Sema.h).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_KERNELSEMA_H
#define TILEC_KERNELSEMA_H

#include "frontend/AST.h"
#include "frontend/SemaGEMM.h"
#include "ir/IR.h"
#include "support/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SMLoc.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tilec::sema {

/// " (did you mean 'x'?)" for the closest of `candidates` to `name`, or "".
std::string suggest(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> candidates);

/// Reports a name the HIP output cannot use (a C++ keyword or reserved identifier, or a name of HIP or the runtime
/// that emitted code uses; the emitter's own locals give way to user names: codegen/EmitterNames.h); true when the
/// name is fine.
bool usableInHIP(const std::string &n, llvm::SMRange range, DiagnosticEngine &diags);

/// A checked element value; `untyped` for literal-only expressions whose dtype comes from context.
struct Checked {
  ir::ValuePtr value;
  bool untyped = false;
  explicit operator bool() const { return value != nullptr; }
};

/// `op` applied elementwise to `o`: the result keeps the operand's dtype, distribution, collapsed axis and
/// accumulator (negation and the one-operand element functions).
inline Checked unaryOf(ir::ValueOp op, llvm::SMRange loc, Checked o) {
  auto v = std::make_unique<ir::Value>();
  v->kind = ir::Value::Kind::Unary;
  v->op = op;
  v->loc = loc;
  v->dtype = o.value->dtype;
  v->isTile = o.value->isTile;
  v->layout = o.value->layout;
  v->reducedAxis = o.value->reducedAxis;
  v->acc = o.value->acc;
  v->operands.push_back(std::move(o.value));
  return {std::move(v), o.untyped};
}

/// The collapsed axis of a value computed from operands: the one they share, or -1 (a full tile: a reduced value
/// broadcasts against a full one, and a column of results against a row of them gives their outer combination).
inline int resultAxis(std::initializer_list<const ir::Value *> operands) {
  int axis = -2;
  for (const ir::Value *o : operands) {
    if (!o->layout && !o->acc) continue;
    axis = axis == -2 ? o->reducedAxis : (axis == o->reducedAxis ? axis : -1);
  }
  return axis == -2 ? -1 : axis;
}

/// Checks one kernel (parameters, then declarations, then statements) and lowers it to IR.
class KernelSema {
public:
  KernelSema(const Target &target, DiagnosticEngine &diags) : target(target), diags(diags) {}

  /// The IR of `ak`, or nullptr when an error was reported.
  std::unique_ptr<ir::Kernel> run(const ast::Kernel &ak);

private:
  //===--- Names ---===//

  bool declare(const ast::Ident &id, llvm::StringRef what);
  std::optional<DType> dtype(const ast::Ident &id);
  std::vector<llvm::StringRef> tensorNames() const;
  std::vector<llvm::StringRef> knownNames() const;

  //===--- Parameters ---===//

  void params(const ast::Kernel &ak);
  void addScalar(const std::string &n, DType dt, bool isDim, llvm::SMRange loc);

  //===--- 1-D, batched and strided tensors, 1-D tiles (SemaTensors.cpp) ---===//

  /// The tensor a parameter declares ([N], [M, N] or [B, M, N], with an optional `stride`), its dimension symbols
  /// appended to `dims`; nullptr after an error.
  std::unique_ptr<ir::Tensor> tensorParam(const ast::Param &p,
                                          std::vector<std::pair<std::string, llvm::SMRange>> &dims);
  /// The grid tile of `grid over t tile [...]` for t's rank: [c], [r, c] or [1, r, c].
  bool gridShape(const ast::GridStmt &g, const ir::Tensor &t);
  /// Every 3-D tensor needs a grid over a 3-D tensor (at the declarations) with the same batch, or the grid's batch
  /// / G for one read as matrix block.batch / G (after the statements, which name the groups).
  void checkBatches();
  void checkBatchExtents();
  /// The group G of each 3-D tensor's windows `[block.batch / G, ...]` (1 for block.batch), where first named.
  llvm::StringMap<std::pair<unsigned, llvm::SMRange>> batchGroups;
  /// A window's indices for the tensor's rank: [i] or [block] (1-D); [row, col] or [block]; for a 3-D tensor also
  /// [block.batch, row, col].
  bool windowOfRank(const ast::Window &w, const ir::Tensor &tensor, ir::IndexPtr &row, ir::IndexPtr &col);
  /// `T[block]` where the block or the tensor is 1-D and the tile does not fill the block: the error, and false.
  bool blockElementsMatch(const ast::Window &w, unsigned elements);
  /// 1-D tiles go with 1-D tensors, 2-D tiles with 2-D and 3-D ones.
  bool windowFitsTile(const ast::Window &w, const ir::Tensor &tensor, const Layout &l);
  /// `tile x: dtype[X] thread_raked [vec v];`: a row-major view of X / (64 vec) rows of 64 lanes x vec elements.
  std::optional<Layout> oneDLayout(const ast::TileDecl &t, DType dt);

  //===--- Declarations ---===//

  void declarations(const ast::Kernel &ak);
  void ldsDecl(const ast::LdsDecl &l);
  void accDecl(const ast::AccDecl &a);

  /// `lds = tile`.
  ir::StmtPtr ldsWrite(const ast::AssignStmt &a, const ir::LdsBuffer &dst);
  /// The buffer `tile = lds` or `tile = transpose(lds)` reads, if the value is one of those.
  const ir::LdsBuffer *ldsReadSource(const ast::Expr &value) const;
  /// `tile = lds` or `tile = transpose(lds)`.
  ir::StmtPtr ldsRead(const ast::AssignStmt &a, const ir::Tile &dst, ir::LdsBuffer &src);

  /// `acc += mma(a, b)` or `acc += mma(a, transpose(b))`.
  ir::StmtPtr mmaUpdate(const ast::AssignStmt &s, ir::AccTile &acc);
  ir::StmtPtr mmaProduct(const ast::AssignStmt &s, ir::AccTile &acc);
  /// The `scale_a = SA, scale_b = SB` arguments of an mma into `out`: required by a scaled accumulator, refused by
  /// any other; each a 2-D e8m0 tensor. False after reporting errors.
  bool mmaScales(const ast::CallExpr &call, const ir::AccTile &acc, const ir::Tensor *(&out)[2]);

  ir::LdsBuffer *ldsOperand(const ast::Expr &e);

  /// Provenance for the orientation check of mma operands: where the value assigned to `tile` comes from.
  void recordSources(const std::string &tile, const ast::Expr &value);
  /// The enclosing loops whose variables index expression `e` uses.
  void loopsIn(const ast::Expr &e, std::set<const ast::ForStmt *> &out) const;
  bool workgroup(const ast::WorkgroupStmt &w);
  void gridStatement(const ast::GridStmt &g);
  bool shape2D(const ast::Shape &s, llvm::StringRef what);
  void assume(const ast::AssumeStmt &a);
  void tile(const ast::TileDecl &t);
  /// Checks a solved tile's registers and declares it (nothing after an error: `layout` is empty).
  void addTile(const ast::TileDecl &t, DType dt, std::optional<Layout> layout);
  /// `tile s: dtype[rows, 1];` or `[1, cols]` without a distribution: a tile that receives reductions
  /// (SemaReduce.cpp).
  void reducedTile(const ast::TileDecl &t, DType dt);

  //===--- Statements ---===//

  ir::StmtPtr statement(const ast::Stmt &s, bool topLevel);
  ir::StmtPtr assign(const ast::AssignStmt &a);
  ir::StmtPtr store(const ast::StoreStmt &s);
  ir::StmtPtr forLoop(const ast::ForStmt &f);
  /// An assignment to a reduced tile: `s = sum(x, axis = 1);`, `s += sum(...)` (SemaReduce.cpp).
  ir::StmtPtr reducedAssign(const ast::AssignStmt &a, ir::ReducedTile &dst);
  /// The reduction function a call names (sum, or max/min with an axis), if it is one.
  static std::optional<ir::ReduceOp> reduction(const ast::CallExpr &c);
  /// An assignment to a reduced tile of an element expression of reduced and uniform values (ir::ReducedAssign).
  ir::StmtPtr reducedExpression(const ast::AssignStmt &a, ir::ReducedTile &dst);
  /// The checked operand of `op(x, axis = A)` (a register tile value) and its axis; empty after an error.
  Checked reductionOperand(const ast::CallExpr &call, ir::ReduceOp op, unsigned &axis);
  /// A reduction inside an expression: a Reduce into a temporary reduced tile, hoisted in front of the statement,
  /// and the temporary as the value.
  Checked foldedReduction(const ast::CallExpr &call, ir::ReduceOp op);
  /// A name for a temporary reduced tile of the statement being checked that no user name or emitted local takes.
  std::string temporaryName(ir::ReduceOp op);
  /// Gives every reduced tile the distribution of the reductions (or reduced values) assigned to it anywhere in the
  /// kernel, so that it can be initialised and read before the statement that reduces into it.
  void inferReducedSources(const ast::Kernel &ak);
  /// The errors for a reduced tile that nothing gives a distribution, and for a value of another distribution.
  void noDistribution(const ir::ReducedTile &r, llvm::SMRange at);
  void otherDistribution(const ir::ReducedTile &r, const ir::Value &x, llvm::SMRange at);
  /// Gives `dst` the distribution of reduced (or reducible) value `x` when it has none; false with an error when it
  /// has another.
  bool takeDistribution(ir::ReducedTile &dst, const ir::Value &x, llvm::SMRange at);
  /// The operand of a reduction of an accumulator's values (SemaAccValues.cpp): only along its rows, within waves.
  Checked accReductionOperand(const ast::CallExpr &call, ir::ReduceOp op, unsigned axis, Checked v);
  /// Resolves `mfma auto` of every accumulator at its first mma before the statements are checked, so that the
  /// accumulator's C/D layout is known to statements above that mma (attention rescales `o` before `o += mma(...)`).
  void resolveAutoAccs(const std::vector<ast::StmtPtr> &body);
  /// The accumulators resolveAutoAccs gave an instruction whose mma has not been checked yet: outside a loop, a use
  /// of one is a use before any mma (an error, as before the instruction was chosen early).
  std::set<const ir::AccTile *> chosenAhead;
  /// Whether `acc` has no instruction yet at this point of the kernel (reported at `at` unless its mma failed).
  bool accBeforeMMA(const ir::AccTile &acc, llvm::SMRange at);
  /// `acc = value`: an element expression in the accumulator's C/D layout, in place (SemaAccValues.cpp).
  ir::StmtPtr accAssign(const ast::AssignStmt &a, ir::AccTile &acc);
  /// `lds = value` for a value in an accumulator's C/D layout (SemaAccValues.cpp).
  ir::StmtPtr accLdsWrite(const ast::AssignStmt &a, ir::LdsBuffer &dst);
  /// Whether `e` names a poisoned name (one whose declaration failed).
  bool mentionsPoisoned(const ast::Expr &e) const;

public:
  static bool isReduction(const ast::CallExpr &c);

private:
  bool isLoopVar(llvm::StringRef n) const;

  //===--- Windows and index expressions ---===//

  bool window(const ast::Window &w, const ir::Tensor *&tensor, ir::IndexPtr &row, ir::IndexPtr &col);

  /// The value of an index expression of literals only (std::nullopt for anything else, or on overflow).
  static std::optional<int64_t> constantValue(const ir::Index &i);

  /// `T[block]` is the workgroup's whole grid block; the tile that moves through it must have the block's shape.
  bool blockShapeMatches(const ast::Window &w, unsigned rows, unsigned cols);

  ir::IndexPtr blockIndex(ir::Index::Kind kind, llvm::SMRange loc);
  ir::IndexPtr index(const ast::Expr &e);

  //===--- Element values ---===//

  static std::string describe(const ir::Value &v);

public:
  static std::string describeLayout(const Layout &l);

private:

  /// Gives untyped literals in `v` the dtype `dt`; false (with an error) for a float literal in an integer context,
  /// any literal in an fp8/bf8 context, and the checks `combine` makes on typed operands.
  bool coerce(ir::Value &v, DType dt);

  /// Checks that `v` can be stored as `dt` values (with distribution `layout`, when given).
  bool fitInto(Checked &v, DType dt, const Layout *layout, const std::string &what, llvm::SMRange range);

  /// Whether `op` applies to `dt` values (with `rhs` its right operand); reports at `at` when not.
  bool operatorFits(ir::ValueOp op, DType dt, const ir::Value &rhs, llvm::SMRange at);

  static bool sameAcc(const ir::AccTile &a, const ir::AccTile &b);
  /// Whether lanes hold the same rows of both accumulators (a value reduced along one's rows applies to the other's).
  static bool sameAccRows(const ir::AccTile &a, const ir::AccTile &b);
  /// "128 rows over waves [8, 1] in blocks of 16": what sameAccRows compares, for its errors.
  static std::string accRowsText(const ir::AccTile &a);
  Checked combine(ir::ValueOp op, Checked lhs, Checked rhs, llvm::SMRange range, llvm::SMRange opRange,
                  llvm::StringRef shown = {});
  Checked checkValue(const ast::Expr &e, const Layout *context);

  /// Warns (once per tile) when a tile is read before any statement above assigns it: its registers hold garbage.
  /// Reported at the end, and only for kernels without errors (flow warnings on broken code are noise).
  void readTile(const std::string &n, llvm::SMRange at);

  Checked nameValue(const ast::NameExpr &n, ir::ValuePtr v);
  Checked call(const ast::CallExpr &c, const Layout *context);
  /// exp, exp2, log, sqrt, rsqrt, abs (SemaFunctions.cpp).
  Checked elementFunction(const ast::CallExpr &c, ir::ValueOp op, const Layout *context);
  /// select(c, a, b) with c a comparison.
  Checked select(const ast::CallExpr &c, const Layout *context);
  /// a < b, a == b, ...: a predicate, only the condition of select.
  Checked comparison(const ast::BinaryExpr &b, const Layout *context);
  /// An error (and false) when `v` is a predicate outside the condition of select.
  bool notPredicate(const Checked &v, llvm::SMRange at);
  /// row(t) and col(t): the row and column of each element within register tile t (SemaFunctions.cpp).
  Checked elementIndex(const ast::CallExpr &c);
  /// A reference to a reduced tile.
  Checked reducedValue(const ast::NameExpr &n, ir::ValuePtr v);

  //===--- Epilogues (SemaEpilogue.cpp) ---===//

  /// The first accumulator (with its instruction chosen) that expression `e` names, if any.
  const ir::AccTile *accumulatorIn(const ast::Expr &e) const;
  /// A load in the store of an expression of `acc`: in the accumulator's C/D layout, of its whole window, of one row
  /// ([1, N] tensors) or of one column ([M, 1] tensors).
  Checked epilogueLoad(const ast::LoadExpr &l, ir::ValuePtr v, const ir::Tensor &tensor, const ir::AccTile &acc);
  /// The `else` value of a load, checked and appended to `v`'s operands.
  bool loadFill(const ast::LoadExpr &l, const ir::Tensor &tensor, ir::Value &v);
  /// Whether the mode of `cast<to, mode>` (if any) applies to a value of `from`.
  bool castMode(const ast::CastExpr &c, DType to, DType from);

  //===--- Warnings ---===//

  void linkTiles(const ir::Tile *dst, const ir::Value &v);

  void warnings();

  const Target &target;
  DiagnosticEngine &diags;
  std::unique_ptr<ir::Kernel> kernel;
  bool workgroupOk = false;
  bool missingTarget = false; ///< checking the value of an assignment to an undeclared name
  /// Checking the value of a store that names this accumulator: its loads take the accumulator's C/D layout.
  const ir::AccTile *epilogueAcc = nullptr;
  llvm::StringMap<llvm::SMRange> declared;
  llvm::StringSet<> poisoned, used, assigned, warnedUnassigned;
  std::vector<std::pair<std::string, llvm::SMRange>> unassignedReads;
  unsigned errorsAtStart = 0;
  llvm::StringMap<ir::Tensor *> tensors;
  llvm::StringMap<ir::Scalar *> scalars;
  llvm::StringMap<ir::Tile *> tiles;
  llvm::StringMap<ir::LdsBuffer *> ldsBuffers;
  llvm::StringMap<ir::AccTile *> accs;
  llvm::StringMap<ir::ReducedTile *> reducedTiles;
  sema::GEMMState gemm;
  llvm::StringMap<const ast::TileDecl *> tileDecls;
  struct LoopVar {
    std::string name;
    int64_t divisor; ///< a power of two known to divide the variable
    llvm::SMRange range;
    const ast::ForStmt *stmt;
  };
  std::vector<LoopVar> loops; ///< enclosing loop variables
  std::vector<std::string> allLoopVars; ///< every loop variable of the kernel
  /// Statements that run before the one being checked: the reductions inside its expressions.
  std::vector<ir::StmtPtr> hoisted;
  /// The name the statement being checked assigns (a tile, or a stored tensor): temporaries are named after it.
  std::string statementTarget;
  /// Appends `st` to `body` after the statements hoisted out of it (discards them when `st` failed).
  void append(ir::Body &body, ir::StmtPtr st);
  std::vector<std::pair<const ir::Tile *, const ir::Tile *>> links;
};

} // namespace tilec::sema

#endif
