//===- HIPEmitterKernel.h - The per-kernel HIP writer, shared by its files --===//
//
// Private to the HIP emitter: KernelEmitter writes one kernel (and its _unaligned copy and launcher). Its comment,
// parameters and prologue are in HIPEmitterPrologue.cpp, its general statements and expressions in HIPEmitter.cpp,
// its global memory accesses in HIPEmitterAccess.cpp, its launcher in HIPEmitterLauncher.cpp; the GEMM statements
// (LDS writes, mma) in HIPEmitterGEMM.cpp, the accumulator's store in HIPEmitterEpilogue.cpp and the K loop's shapes
// (pipelined, staged) in HIPEmitterKLoop.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_HIPEMITTERKERNEL_H
#define TILEC_HIPEMITTERKERNEL_H

#include "analysis/AccessPlan.h"
#include "codegen/HIPEmitter.h"
#include "codegen/LineMap.h"
#include "ir/IR.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tilec::hip {

using namespace tilec::ir;

/// The C++ type of `n` elements of `dt`: the scalar type, or tilec::TAGxN.
std::string vecType(DType dt, unsigned n);
/// The runtime's Fp8Format of an fp8/bf8 dtype on `t`.
std::string fp8Format(DType dt, const Target &t);
/// The tensor whose loads fill the B of the scaled mma `m` when its shape is not A's and C's own symbols, found
/// through the LDS write and the load in `loop`'s body: a K x N B where either operand packs values ([perA K, ceil(N
/// / perB)]) or an N x K B of another column width than A ([N, ceil(K perA / perB)]); nullptr otherwise. The
/// launcher checks that shape.
const Tensor *scaledBTensor(const For &loop, const MMA &m);
inline std::string extentExpr(const Extent &e) { return e.isSymbol() ? e.symbol : std::to_string(e.value); }
/// A product term `factor * name`, omitted when the factor is 0 and written without `* 1`.
std::string term(const std::string &expr, unsigned factor);
/// The non-empty terms joined by " + " ("0" when there are none).
std::string sum(std::initializer_list<std::string> terms);

/// Where a lane's accesses of one distribution start; shared by all tiles with the same mapping.
/// Consecutive columns a lane holds per group of an accumulator's values (the C/D layout, HIPEmitterEpilogue.cpp).
constexpr unsigned kGroup = 4;
/// The column within its block of accumulator value e of lane `lane`: 16 x 16 blocks hold 4 columns per lane group of
/// 16, 32 x 32 blocks 4 per half wave and group of 4 values. The column of the group's first value, or with
/// `element` of value e itself.
std::string colInBlock(const MFMAInstr &ins, const char *lane, bool element = false);
/// "tilec::ReduceOp::Sum" and the like.
std::string reduceOpName(ReduceOp op);

struct LanePosition {
  const Layout *layout;
  std::string row, col;
};

class KernelEmitter {
public:
  KernelEmitter(const Kernel &k, const Target &t, llvm::raw_ostream &out, const LineOf *lineOf = nullptr)
      : k(k), t(t), out(out), lineOf(lineOf), os(text) {}

  void emit();
  /// Only the launcher's declaration, with its comment (--emit=header).
  void emitDeclaration();

private:
  /// Which copy of a kernel with run-time row alignment is being written (see hasUnalignedVariant).
  enum class Variant { Vector, Unaligned };

  void kernel(Variant v, bool twoKernels);

  /// Whether `id` occurs in `code` as a whole identifier.
  static bool usesIdentifier(llvm::StringRef code, llvm::StringRef id);

  //===--- Declarations ---===//

  void signatureComment();

  void params(bool forLauncher, const std::string *body = nullptr);

  void prologue();
  /// block_batch, and each 3-D tensor's pointer moved to the workgroup's matrix.
  void batchPrologue();
  /// "64 x 64 block of Y", or "1024 elements of X" for a 1-D grid tensor.
  std::string blockText() const;
  /// Whether this workgroup's whole grid block lies inside the grid tensor (rows only for whole rows).
  std::string interiorCondition() const;

  /// The lane position of distribution `l`, declared on first use and named after `tileName`.
  const LanePosition &lanePosition(const Layout &l, const std::string &tileName, const std::string &tiles = "");

  //===--- Statements ---===//

  llvm::raw_ostream &line(unsigned depth) { return os.indent(2 * depth); }
  /// In the copy compiled in process, marks where the code of the statement at `loc` begins (LineMap.h).
  void markSource(unsigned depth, llvm::SMRange loc) {
    if (lineOf && loc.isValid()) line(depth) << kLineMarker << (*lineOf)(loc.Start) << "\n";
  }

  void stmt(const Stmt &s, unsigned depth);

  /// What the masks of the accesses inside loop `f` may rely on.
  void enterLoop(const For &f);
  /// `for` as written.
  void plainLoop(const For &f, unsigned depth);
  /// Per enclosing plain loop, innermost last: the reduced tiles its body assigns (the others are loop-invariant).
  std::vector<llvm::SmallPtrSet<const ReducedTile *, 8>> loopAssigned;
  /// A K loop in the shape its plan (KLoopPlan) gives: an unmasked main loop over the whole steps of interior
  /// workgroups, then the remaining steps masked.
  void kLoop(const For &f, unsigned depth);
  /// A K loop of depth 2: the loads of step k + step are issued before the mma of step k.
  void pipelinedLoop(const For &f, unsigned depth);
  /// One step of a pipelined K loop: the next step's loads, this step's mma, the LDS writes and barriers.
  void pipelinedStep(const For &f, unsigned depth);
  /// A main-loop step in the order the pipelining pass planned (KLoopPlan::schedule).
  void scheduledStep(const For &f, unsigned depth);
  /// The loads (and a scaled mma's scales) of the step after this one, issued during this step's `during`.
  void nextStepLoads(const For &f, const char *during, unsigned depth);
  /// A staged (depth 3) loop (HIPEmitterKLoop.cpp): the registers of the main loop's first step, and its step.
  void stagedPrefetch(const For &f, const std::string &mainLoopCondition, unsigned depth);
  /// One staged main-loop step; `constStage` 0 or 1: the LDS stage it reads as a constant (KLoopPlan::stepPerStage),
  /// -1: the variable `stage`, which the step flips.
  void stagedStep(const For &f, unsigned depth, int constStage = -1);
  /// The fragment reads of instruction K step j of a staged step into a_frag[j], b_frag[j].
  void stagedFragmentReads(const MMA &m, unsigned j, unsigned depth);

  /// lds = tile: each access of the tile written to the buffer; one vector write per access when the stored rows
  /// keep it aligned, element by element for transposed buffers.
  void ldsWrite(const LdsWrite &w, unsigned depth);
  /// tile = lds (or transpose(lds)): each access read in the tile's own distribution.
  void ldsRead(const LdsRead &r, unsigned depth);
  /// The writes of `run` consecutive rows per column as one vector.
  void transposedRunWrite(const LdsWrite &w, unsigned run, const LanePosition &p, unsigned depth);

  /// acc += a x b: for each K step of the instruction, read this lane's A fragment of every block row and B fragment
  /// of every block column (kPerLane consecutive K values: one LDS read each), then one MFMA per block.
  void mma(const MMA &m, unsigned depth);
  void mmaHeader(const MMA &m, unsigned depth);
  std::string storedRow(const LdsBuffer &b, const std::string &row, bool inVector) const;
  std::string storedCol(const LdsBuffer &b, const std::string &row, const std::string &col) const;
  void swizzleComment(const LdsBuffer &b, unsigned depth);
  void mmaFragmentReads(const MMA &m, const std::string &step, unsigned depth);
  void fragmentReads(const MFMAInstr &view, const std::string &frag, const char *block, unsigned count, unsigned size,
                     const LdsBuffer &buf, const std::string &origin, const char *kLane, unsigned depth);
  /// A's fragments of every instruction K step, read before the loop (FragmentRead, MMA::aHoisted) into
  /// {acc}_a_frags[step][bi]; inside the loop, instruction K step kk's taken from there.
  void fragmentRead(const FragmentRead &r, unsigned depth);
  void hoistedFragments(const MMA &m, const std::string &step, unsigned depth);
  void kLane(const MFMAInstr &ins, unsigned depth);
  /// The launcher's checks of the scale tensors' shapes of the scaled mma in `body` (inside `loop`).
  void scaleChecks(const Body &body, const For *loop);
  /// A scaled mma's scale registers for the K step at `k` ({acc}_sa{suffix}, {acc}_sb{suffix}), declared first
  /// when `declare` (declareScales), as ir::ScaleLoads plans them.
  void scaleLoads(const MMA &m, const std::string &k, const std::string &suffix, bool declare, unsigned depth);
  void declareScales(const MMA &m, const std::string &suffix, unsigned depth);
  void scaleReads(const MMA &m, const std::string &suffix, bool raw, bool declare, unsigned depth);
  /// The scaled mma of a pipelined K loop: the scale registers declared before the loop (this step's, and the next
  /// step's where they are loaded or read ahead: ir::ScaleLoads), and, for lane-loaded scales, the copy that makes the
  /// next step's current (a staged step shifts LDS-read ones at its end instead).
  void scaleRegisters(const KLoopPlan &p, bool staged, unsigned depth);
  void stepScales(const KLoopPlan &p, const std::string &k, const std::string &suffix, unsigned depth);
  void advanceScales(const KLoopPlan &p, unsigned depth);
  void transposingFragmentReads(const MMA &m, const std::string &step, unsigned depth);
  /// One MFMA per block of block rows rowFrom .. rowTo - 1 (all by default) and every block column; a scaled mma's
  /// of instruction K step j (its scales' opsel is a constant of j).
  void mmaProducts(const MMA &m, const std::string &step, unsigned depth, unsigned rowFrom = 0, unsigned rowTo = ~0u,
                   int j = -1);

  /// store T[window] = value over an accumulator: the mma computed each block transposed, so lane l holds row
  /// l % m of each block and, per group of 4 values, 4 consecutive columns: one 4-element store per group.
  void accStore(const Store &st, unsigned depth);
  /// The loads of an epilogue of one row ([1, N]) or one column ([M, 1]), each lane's values loaded once into an
  /// array before the stores (HIPEmitterEpilogue.cpp).
  void broadcastLoads(const Store &st, const std::vector<const Value *> &loads, unsigned depth);
  /// The loads of an epilogue in the accumulator's full window, for the 4 values at (row, col).
  void groupLoads(const Store &st, const std::vector<const Value *> &loads, unsigned depth);
  /// This lane's row and column of accumulator values e .. e + 3 of block (bi, bj), from window origin (row0, col0).
  std::string accRow(const AccTile &a, const Index &row0);
  std::string accCol(const AccTile &a, const Index &col0);

  /// s (+)= sum/max/min(value, axis) as its plan (ReducePlan) says: in the lane, across lanes, across waves through
  /// LDS (HIPEmitterReduce.cpp).
  void reduce(const Reduce &r, unsigned depth);
  void reduceRows(const Reduce &r, unsigned depth);
  void reduceColumns(const Reduce &r, unsigned depth);
  /// Accumulators as values (HIPEmitterAccValues.cpp): a reduction along an accumulator's rows, in the lane over its
  /// blocks' values and across the lanes that hold each row; `acc = value` in place; `lds = value` of an
  /// accumulator's values, 4 consecutive columns per write; the store of a value per row, by the lanes of one column.
  void reduceAccRows(const Reduce &r, unsigned depth);
  void accAssign(const AccAssign &a, unsigned depth);
  void accLdsWrite(const AccLdsWrite &w, unsigned depth);
  void accRowsStore(const Store &st, unsigned depth);
  /// The A fragments of an mma whose A comes from an accumulator's registers (MMA::aFrom), for instruction K step kk.
  void forwardedFragments(const MMA &m, const std::string &step, unsigned depth);
  /// The least and greatest value of i32 value `v` over the values of `a` (uniform sub-expressions, row(a) and col(a),
  /// +, -, min, max), as expressions: interval arithmetic, sound but not always tight; nullopt otherwise.
  std::optional<std::pair<std::string, std::string>> accRange(const Value &v, const AccTile &a);
  /// A condition, uniform across the workgroup, under which comparison `c` holds for every value of `a`; empty when
  /// none is known.
  std::string holdsForAll(const Value &c, const AccTile &a);
  /// The masks of loop `f` (`acc = select(c, x, y)` in its body) whose condition holds for every value in some steps
  /// (a key block inside T, below the causal diagonal), into `masks`, and the condition of those steps ("" if none).
  std::string maskFreeSteps(const For &f, std::set<const AccAssign *> &masks);
  /// A uniform condition every access being written needs besides its window's (the step a load one step ahead is
  /// for must exist: `t + 64 < T`); empty elsewhere.
  std::string accessGuard;
  /// The masks being written without their select (plainLoop's first loop).
  std::set<const AccAssign *> unmasked;
  /// The loops over this lane's values of `a`, `step` values at a time (bi, bj, e); the caller writes the body.
  void accLoops(const AccTile &a, unsigned step, unsigned depth);
  /// row(a) or col(a) of value e of block (bi, bj), relative to the accumulator's origin; `vec` columns from e.
  std::string accElementIndex(const AccTile &a, unsigned axis, unsigned vec);
  /// A reduced tile assigned an element expression of reduced values: each lane computes the results it holds.
  void reducedAssign(const ReducedAssign &a, unsigned depth);
  /// `part = combine(part, <the value of the lane the step pairs this lane with>)` for each cross-lane step.
  void crossLaneSteps(const ReducePlan &p, const std::string &op, const std::string &part, unsigned depth);
  /// store T[window] = a reduced value: one lane per row (axis 1) or per column vector (axis 0) stores it.
  void reducedStore(const Store &st, unsigned depth);
  /// The reduced tiles' registers and the LDS of the reductions that cross waves.
  void reducedPrologue();
  /// Whether `v` is a vector of `vec` elements per access (a scalar when uniform or reduced along its rows' columns).
  /// Whether `v` written for `vec` elements at once is a vector: not when it is uniform, a row's reduced value, or
  /// made only of such and of an accumulator's row index (the same row for a group's values).
  static bool vectorValued(const Value &v, unsigned vec) {
    if (vec <= 1 || !v.isTile || v.reducedAxis == 1) return false;
    switch (v.kind) {
    case Value::Kind::ElementIndex: return !(v.acc && v.indexAxis == 0);
    case Value::Kind::Unary:
    case Value::Kind::Binary:
    case Value::Kind::Select:
    case Value::Kind::Cast:
      return llvm::any_of(v.operands, [&](const ValuePtr &o) { return vectorValued(*o, vec); });
    default: return true;
    }
  }

  /// One loop over this lane's accesses of `layout`; `body` writes the use of the per-access value expression.
  template <typename Body> void accessLoop(llvm::SMRange loc, const Value &value, const Layout &layout, unsigned depth,
                                           Body body, const Index *storeRow = nullptr, const Index *storeCol = nullptr,
                                           const std::string *directTarget = nullptr);

  /// Calls `emit` once per loop of `chunk` accesses (Assign::accessChunk) with accessRange set, or once.
  template <typename Emit> void chunked(unsigned chunk, const Layout &layout, Emit emit);

  static bool sameIndex(const Index &a, const Index &b);

  void collectLoads(const Value &v, std::vector<const Value *> &out);

  std::string uniqueLoadName(const std::string &tensor);

  /// How a vector access of `tensor` at window column origin `col0` is written in the current variant.
  enum class Access {
    Aligned,   ///< one vector access under the window's mask
    Unaligned, ///< one element-aligned vector access under the window's mask (it never crosses a row end)
    Crossing,  ///< element-aligned vector inside the row, element by element where it crosses a row end
  };
  Access accessKind(const Tensor &tensor, const Index &col0, unsigned vec) const;

  /// The element offset of (r, c) in `tensor`: 64-bit row products when `wide`, else 32-bit.
  std::string elementOffset(const Tensor &tensor, const std::string &r, const std::string &c, bool wide);
  std::string address(const Tensor &tensor, const std::string &r, const std::string &c);
  /// The bounds the element path checks: "rows, cols", and the row stride for a tensor declared with one.
  static std::string elementBounds(const Tensor &x) {
    return extentExpr(x.rows) + ", " + extentExpr(x.cols) + (x.stride ? ", " + extentExpr(*x.stride) : "");
  }
  /// The window a tile of `l` covers: its rows x cols, or one row of all its elements for a 1-D tile.
  static unsigned windowRows(const Layout &l) { return l.oneD ? 1 : l.rows; }
  static unsigned windowCols(const Layout &l) { return l.oneD ? l.rows * l.cols : l.cols; }
  /// Whether the masks (or element paths) of these loads of one access loop read `row`.
  bool rowInMasks(const std::vector<const Value *> &loads, const Layout &layout);
  /// Whether an index uses a loop variable.
  static bool movesWithLoop(const Index &i);

  /// The mask of one access; lower bounds only where the window origin may be negative.
  /// With `vecEnd`, the column test is that the whole vector of vecEnd elements lies inside the row.
  std::string inBounds(const Tensor &tensor, const std::string &r, const std::string &c, const Index &row0,
                       const Index &col0, unsigned windowRows, unsigned windowCols, unsigned vecEnd = 0);

  /// `statement;` under `if (mask)`, or alone when nothing needs checking.
  static std::string guarded(const std::string &mask, const std::string &statement);

  /// Whether a window of `size` elements from `origin` always ends inside `extent`, so its mask can go: the origin
  /// is the block origin of a grid over the same extent (assumed or known divisible by the block), or a loop
  /// variable running from a multiple of `size` up to the extent in steps that are multiples of `size`.
  bool windowInside(const Index &origin, const Extent &extent, unsigned size, bool isRow) const;
  bool packedWindow(const Body &body, const Index &origin, const Extent &extent, const Index *&inner,
                    Extent &innerExtent, unsigned &factor, bool &divides) const;

  /// Whether `i` is never negative: block origins, dimensions, literals, loops counting up from such values.
  bool nonNegative(const Index &i) const;

  /// One access of `vec` elements at (r, c): under the window's mask; for a Crossing access the mask requires the
  /// whole vector inside its row, and `elementStmt` handles the rest element by element.
  void vectorAccess(const Tensor &x, const std::string &r, const std::string &c, const Index &row0, const Index &col0,
                    unsigned windowRows, unsigned windowCols, unsigned vec, Access kind, const std::string &vectorStmt,
                    const std::string &elementStmt, unsigned d);

  /// The load `l` of `vec` elements at (r, c) of a window of rows x cols, into `dst` (declared when `declare`).
  void loadAccess(const Value &l, unsigned vec, unsigned rows, unsigned cols, const std::string &dst,
                  const std::string &r, const std::string &c, unsigned d, bool declare);

  /// The store of `v` (`vec` elements) at (row, col) of a window of windowRows x windowCols; an expression is first
  /// named Y_out.
  void storeAccess(const Tensor &y, const Index &row0, const Index &col0, unsigned vec, unsigned windowRows,
                   unsigned windowCols, const std::string &v, unsigned d);

  //===--- Expressions ---===//

  std::string index(const Index &i);

  std::string constant(const Value &v);

  std::string valueExpr(const Value &v, unsigned vec, bool top = false);

  std::string castExpr(const Value &v, unsigned vec);

  std::string fp8From(const std::string &f32, DType to, unsigned n);

  //===--- Launcher ---===//

  void launcher(bool twoKernels);
  /// The launcher's comment and signature, without the body or ';'.
  void launcherDeclaration(bool twoKernels);

  const Kernel &k;
  const Target &t;
  llvm::raw_ostream &out;
  const LineOf *lineOf;
  std::string text; ///< everything written so far; a kernel's body is written before its signature
  llvm::raw_string_ostream os;
  std::vector<AccessPlan> plans;
  std::vector<LanePosition> positions;
  Variant variant = Variant::Vector;
  llvm::StringSet<> usedLoadNames;
  std::map<const Value *, std::string> loadNames;
  /// The LDS array of each reduction across waves.
  std::map<const Reduce *, std::string> reduceLds;
  std::map<std::string, bool> nonNegativeLoops;
  std::map<std::string, std::pair<int64_t, const Index *>> loopBounds;
  /// Loops whose current path runs whole steps only (var + step <= upper): variable -> step.
  std::map<std::string, int64_t> fullSteps;
  /// Writing the interior path of a K loop: the workgroup's block lies inside the grid tensor.
  bool interiorBlock = false;
  /// Loop variables written as another expression (the prefetch of the next K step: "k + 32").
  std::map<std::string, std::string> loopVarText;
  /// Writing the masked steps (or the prologue) of a K loop whose plan loads through buffer resources, in the vector
  /// kernel: loads of Kernel::bufferLoaded tensors become buffer loads.
  bool maskedBufferLoads = false;
  /// Writing a staged main-loop step (depth 3, vector kernel): unmasked loads of Kernel::bufferLoaded tensors become
  /// buffer loads whose window origin is the scalar offset.
  bool uniformOffsetLoads = false;
  /// The access being written, where its lanes share the window: row origin, the lane's row in the window, column
  /// origin, the lane's column (empty strings elsewhere).
  std::array<std::string, 4> accessWindow;
  /// Whether load `l`, written now, is a buffer load at the window's scalar offset (see uniformOffsetLoads).
  bool windowOffsetLoad(const Value &l, unsigned vec, unsigned rows, unsigned cols);
  /// The byte size of `tensor` (one matrix of a batched one) as an expression of type `type`.
  std::string tensorBytes(const Tensor &tensor, const char *type) const;
  /// The LDS stage that mma reads and that writes fill, for buffers with 2 stages.
  std::string readStage = "0", writeStage = "0";
  /// The comment of the statement being written when it is not a source line (Tile::madeFor).
  std::string commentOverride;
  /// Writing a K loop whose scaled mma reads scale registers declared before it ({acc}_sa), not its own.
  bool scalesLoaded = false;
  /// The K loop being written splits interior from edge workgroups (KLoopPlan::splitEdges).
  bool splitEdges = true;
  /// Inside an access loop whose row origin moves with a loop: (origin, lane part) of `row`, for address().
  std::pair<std::string, std::string> rowSplit;
  /// Inside an access loop of a 1-D tile: `col` is the element index, and there is no `row`.
  bool flatAccess = false;
  /// The accesses the next access loop runs over, [first, second); {0, 0}: all of them.
  std::pair<unsigned, unsigned> accessRange;
  /// Writing the second step of a staged main loop's iteration with 2 register sets (KLoopPlan::registerSets): the
  /// loaded tiles whose registers are the second set's, named `{tile}_set1`.
  std::set<const ir::Tile *> secondSet;
  /// The registers of register tile `t` in the set being written (in the second set when `secondSet` holds it, or
  /// when asked for).
  std::string regName(const ir::Tile &t, bool inSecondSet = false) const {
    return inSecondSet || secondSet.count(&t) ? t.name + "_set1" : t.name;
  }
  /// `type name[accesses];`: the registers of register tile `t` (one element per access of a lane).
  void declareRegisterTile(const ir::Tile &t, const std::string &name, unsigned depth) {
    line(depth) << llvm::formatv("{0} {1}[{2}];\n", vecType(t.dtype, t.layout.vec), name, t.layout.rowsPerLane);
  }
  /// How an LDS buffer is named in an access: `sA`, or `sA[stage]` for a buffer with stages.
  std::string lds(const LdsBuffer &b, bool write) const {
    return b.stages > 1 ? b.name + "[" + (write ? writeStage : readStage) + "]" : b.name;
  }
};

} // namespace tilec::hip

#endif
