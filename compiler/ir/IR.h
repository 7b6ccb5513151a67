//===- IR.h - tilec's intermediate representation --------------------------===//
//
// The IR is what Sema produces once every name, dtype, shape and distribution is known: kernels with their tensors,
// scalars and register tiles (each carrying its solved Layout), and a body of statements over
//   - index expressions (Index): uniform integer arithmetic on block.row/block.col, loop variables, dimensions;
//   - value expressions (Value): elementwise trees evaluated per tile element, whose leaves are tiles, scalars,
//     constants and loads from windows of global tensors.
// Each node keeps the source range it came from. The statement kinds are listed once in TILEC_IR_STMTS. The
// verifier (Verifier.h) states the invariants; printModule gives the textual form used by --emit=ir.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_IR_H
#define TILEC_IR_H

#include "ir/LdsBuffer.h"
#include "ir/ScaleLoads.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "layout/Layout.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/SMLoc.h"
#include "support/DType.h"
#include "target/MFMA.h"
#include "target/Target.h"
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec::ir {

using llvm::SMRange;

/// One dimension of a tensor: a symbol that becomes an `int` kernel argument, or a constant.
struct Extent {
  std::string symbol; ///< empty for a constant
  int64_t value = 0;
  bool isSymbol() const { return !symbol.empty(); }
  /// The symbol, or the constant in decimal.
  std::string text() const { return isSymbol() ? symbol : std::to_string(value); }
};

/// A global tensor: `[N]` (rank 1: one row of N elements, rows = 1), `[M, N]` (rank 2) or `[B, M, N]` (rank 3: B
/// matrices of M x N, one after the other). Rows are `rowStride()` elements apart: `cols` unless declared with
/// `stride s`; the matrices of a rank-3 tensor are rows x rowStride() elements apart.
struct Tensor {
  std::string name;
  DType dtype;
  unsigned rank = 2;
  Extent batch;          ///< rank 3: the number of matrices
  Extent rows, cols;
  std::optional<Extent> stride; ///< `stride s`
  /// A 3-D tensor shared by groups of the grid's matrices (grouped-query attention's K and V, one per G query heads):
  /// workgroup z reads its matrix z / batchGroup. Set by windows `[block.batch / G, row, col]`; 1 otherwise.
  unsigned batchGroup = 1;
  bool isRead = false, isWritten = false;
  SMRange loc;
  const Extent &rowStride() const { return stride ? *stride : cols; }
  /// `[N]`, `[M, N]`, `[B, M, N] stride s`, as declared.
  std::string shapeText() const {
    std::string out = "[" + (rank == 3 ? batch.text() + ", " : "") + (rank >= 2 ? rows.text() + ", " : "") +
                      cols.text() + "]";
    return stride ? out + " stride " + stride->text() : out;
  }
};

/// A scalar kernel argument: a declared scalar parameter or a tensor dimension symbol (i32).
struct Scalar {
  std::string name;
  DType dtype;
  bool isDimension = false;
  SMRange loc;
};

/// A register tile: `tile name: dtype[rows, cols] pattern vec`.
struct Tile {
  std::string name;
  DType dtype;
  Layout layout;
  SMRange loc;
  /// False for a tile no statement uses (Sema warns): it has a distribution to show, but no registers, and the
  /// emitted code does not declare it.
  bool used = true;
  /// Made by a pass, not declared (a scaled mma's scales staged through LDS): what for, the comment of its
  /// statements in the emitted code.
  std::string madeFor;
  unsigned rows() const { return layout.rows; }
  unsigned cols() const { return layout.cols; }
};

/// An accumulator tile: `acc name: dtype[rows, cols] mfma instr waves [Wy, Wx]`. Wave (w / Wx, w % Wx) owns a
/// (rows / Wy) x (cols / Wx) part, split into blocksY x blocksX instruction blocks whose elements sit in the
/// instruction's C/D lane layout. It starts at zero.
struct AccTile {
  std::string name;
  DType dtype;
  unsigned rows = 0, cols = 0;
  const MFMAInstr *instr = nullptr; ///< nullptr until `mfma auto` is resolved by the first mma
  /// A scaled instruction named in the declaration: its variant for the operands' formats becomes `instr` at the
  /// first mma.
  const ScaledMFMAInstr *scaled = nullptr;
  unsigned wavesY = 0, wavesX = 0;
  SMRange loc;
  unsigned waveRows() const { return rows / wavesY; }
  unsigned waveCols() const { return cols / wavesX; }
  unsigned blocksY() const { return waveRows() / instr->m; }
  unsigned blocksX() const { return waveCols() / instr->n; }
  /// Accumulator registers per lane.
  unsigned registers() const { return blocksY() * blocksX() * instr->accPerLane; }
};

/// `assume symbol % modulus == 0`.
struct Assumption {
  std::string symbol;
  int64_t modulus;
  SMRange loc;
};

//===--- Index expressions ---===//

struct Index {
  enum class Kind { Const, BlockRow, BlockCol, LoopVar, Scalar, Add, Sub, Mul, Div, Rem };
  Kind kind;
  int64_t value = 0;            ///< Const: the value; LoopVar: a power of two known to divide the variable
  std::string name;             ///< LoopVar, Scalar
  std::unique_ptr<Index> lhs, rhs;
  SMRange loc;
  bool isBinary() const { return kind >= Kind::Add; }
};
using IndexPtr = std::unique_ptr<Index>;

//===--- Value expressions ---===//

enum class ValueOp {
  Neg, Add, Sub, Mul, Div, Rem, Max, Min,
  Exp, Exp2, Log, Sqrt, Rsqrt, Abs, ///< element functions (Unary)
  Relu, Gelu, Silu,                 ///< activations, also element functions (Unary)
  Lt, Le, Gt, Ge, Eq, Ne,           ///< comparisons (Binary): a predicate, only the condition of a Select
};
llvm::StringRef spelling(ValueOp op);
inline bool isElementFunction(ValueOp op) { return op >= ValueOp::Exp && op <= ValueOp::Silu; }
inline bool isComparison(ValueOp op) { return op >= ValueOp::Lt && op <= ValueOp::Ne; }

/// A tile of one column ([rows, 1]) or one row ([1, cols]) that holds a reduction of a register tile along its
/// columns (axis 1) or rows (axis 0): `tile m: f32[64, 1];` assigned `m = max(x, axis = 1);`. It has no distribution
/// of its own: it keeps the distribution of the tile it reduces (`source`) with the reduced axis collapsed, so that
/// every lane holds the results of the rows (axis 1: one value per access) or columns (axis 0: one vector of `vec`)
/// its accesses of the source cover, and a reduced value broadcasts against tiles of the source's distribution. It
/// starts at zero (so `s += sum(x, axis = 0)` in a loop accumulates).
struct ReducedTile {
  std::string name;
  DType dtype;
  unsigned rows = 0, cols = 0;
  unsigned axis = 0;              ///< 1 for [rows, 1], 0 for [1, cols]
  const Layout *source = nullptr; ///< the distribution of the reductions assigned to it (Sema infers it)
  /// Or the accumulator whose rows it reduces (axis 1 only): every lane holds the results of the rows it holds in
  /// the accumulator's C/D layout, row lane % m of each block row (attention's running maximum and sum).
  const AccTile *sourceAcc = nullptr;
  /// Made by Sema for a reduction inside an expression (`m = max(m, max(x, axis = 1))`): it holds that reduction's
  /// result for the statement after it; `loc` is the reduction's.
  bool temporary = false;
  SMRange loc;
  /// Whether a distribution is known (a register tile's or an accumulator's).
  bool distributed() const { return source || sourceAcc; }
  /// Values per lane: R (axis 1) or vec (axis 0); for an accumulator's rows, one per block row.
  unsigned values() const {
    if (sourceAcc) return sourceAcc->blocksY();
    return axis == 1 ? source->rowsPerLane : source->vec;
  }
  /// VGPRs per lane.
  unsigned registers() const {
    return axis == 1 ? values() * ((sizeOf(dtype) + 3) / 4) : (values() * sizeOf(dtype) + 3) / 4;
  }
};

struct Value {
  /// Select: operands are (condition, if true, if false). ReducedRef: a reduced tile. A Load's one operand, when it
  /// has one, is the uniform value that elements outside the tensor read as (`load X[..] else fill`). ElementIndex:
  /// `row(t)` or `col(t)`, the row or column of each element within register tile `tile` (i32, t's distribution), or
  /// within accumulator `acc` (in its C/D layout, `tile` null). A ReducedRef of a tile that reduces an accumulator's
  /// rows (ReducedTile::sourceAcc) has `acc` set, no layout and reducedAxis 1, like a one-column epilogue load.
  /// IndexRef: an index expression as a uniform i32 value (`row`): a loop variable or block.row, in masks such as
  /// `select(t + col(s) < T, s, -inf)`.
  enum class Kind {
    TileRef, AccRef, ScalarRef, Const, Load, Unary, Binary, Cast, Select, ReducedRef, ElementIndex, IndexRef
  };
  Kind kind;
  DType dtype;                  ///< element type of the result
  bool isTile = false;          ///< varies per element (else uniform: broadcast)
  const Layout *layout = nullptr; ///< distribution of a tile value in a register tile's layout
  const AccTile *acc = nullptr;   ///< AccRef, and any value distributed like an accumulator
  const Tile *tile = nullptr;   ///< TileRef
  const ReducedTile *reduced = nullptr; ///< ReducedRef
  /// With a layout: the value is distributed as `layout` with this axis collapsed (a reduced value); -1 for a tile.
  /// A Load in an accumulator's C/D layout (acc set, no layout): 0 for a window of one row ([1, cols], the same
  /// values down the accumulator's rows), 1 for one column ([rows, 1], along its columns), -1 for the full window.
  int reducedAxis = -1;
  unsigned indexAxis = 0;       ///< ElementIndex: 0 for row(t), 1 for col(t)
  bool saturate = false;        ///< Cast: `cast<T, sat>`: values beyond T's finite range become its largest finite
  bool predicate = false;       ///< a comparison (dtype is its operands'), or a Select's condition
  const Scalar *scalar = nullptr; ///< ScalarRef
  double constant = 0;          ///< Const
  std::string spelling;         ///< Const as written
  const Tensor *tensor = nullptr; ///< Load
  IndexPtr row, col;            ///< Load: window origin; IndexRef: the index (row)
  ValueOp op = ValueOp::Neg;    ///< Unary, Binary
  std::vector<std::unique_ptr<Value>> operands;
  SMRange loc;
};
using ValuePtr = std::unique_ptr<Value>;

//===--- Statements ---===//

#define TILEC_IR_STMTS(X) X(Assign) X(Store) X(For) X(Barrier) X(LdsWrite) X(MMA) X(Reduce) X(ReducedAssign) X(LdsRead) \
  X(AccAssign) X(AccLdsWrite) X(FragmentRead)

struct Stmt {
  enum class Kind {
#define TILEC_KIND(K) K,
    TILEC_IR_STMTS(TILEC_KIND)
#undef TILEC_KIND
  };
  Stmt(Kind kind, SMRange loc) : kind(kind), loc(loc) {}
  virtual ~Stmt() = default;
  const Kind kind;
  SMRange loc;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

/// dst = value (every element of dst).
struct Assign : Stmt {
  Assign(SMRange loc) : Stmt(Kind::Assign, loc) {}
  const Tile *dst = nullptr;
  ValuePtr value;
  unsigned accessChunk = 0; ///< accesses per emitted loop (passes/UnrollChunks.h); 0: one loop over all
  static bool classof(const Stmt *s) { return s->kind == Kind::Assign; }
};

/// store tensor[row.., col..] = value, over value's layout.
struct Store : Stmt {
  Store(SMRange loc) : Stmt(Kind::Store, loc) {}
  const Tensor *tensor = nullptr;
  IndexPtr row, col;
  ValuePtr value;
  unsigned accessChunk = 0; ///< accesses per emitted loop (passes/UnrollChunks.h); 0: one loop over all
  static bool classof(const Stmt *s) { return s->kind == Kind::Store; }
};

/// tile = lds (or = transpose(lds)): every element of the register tile read from the buffer in the tile's own
/// distribution, one vector of `vec` per access where the stored rows keep it aligned. A transposed read, `u =
/// transpose(s)`, reads a buffer stored transposed (LdsBuffer::transposed: the write into it scattered the columns),
/// so that element (r, c) of u is stored row r, column c, read as a vector like any other.
struct LdsRead : Stmt {
  LdsRead(SMRange loc) : Stmt(Kind::LdsRead, loc) {}
  const Tile *dst = nullptr;
  const LdsBuffer *src = nullptr;
  bool transpose = false;
  static bool classof(const Stmt *s) { return s->kind == Kind::LdsRead; }
};

struct Assign;
struct LdsWrite;
struct MMA;

/// How a K loop runs, as the software-pipelining pass (SoftwarePipeline.h) decided it. A K loop is a loop whose body
/// is: register tiles loaded from windows that move with the loop variable, those tiles written to LDS buffers, a
/// barrier, mma products of the buffers, and optionally a closing barrier.
struct KLoopPlan {
  std::vector<const Assign *> loads;
  std::vector<const LdsWrite *> writes;
  std::vector<const MMA *> mmas;
  /// Interior workgroups (whole block inside the grid tensor) run an unmasked main loop; edge workgroups a masked
  /// copy. False when the block origins are known to keep every window inside.
  bool splitEdges = false;
  /// The last K step may be partial (the upper bound is not known to be a multiple of the step): the interior path
  /// peels it off the main loop and masks it in K only.
  bool peelTail = false;
  /// K steps in flight: 1 (none), 2 (the next step's loads before this step's mma), 3 (staged, with 2 LDS stages:
  /// the next step's tiles, loaded during the step before, wait in registers and are written to the other stage at
  /// the start of this step, while the loads of the step after it are in flight; see `staged`).
  unsigned depth = 1;
  bool depthRequested = false; ///< written as `pipeline N`
  bool doubleLds = false;     ///< with depth 2: every LDS buffer of the loop has 2 stages, one barrier per step
  /// The masked steps (edge workgroups, the partial last step) and the prologue of the vector kernel load through
  /// buffer resources: a masked-off vector gets an out-of-range offset and reads zeros, with no exec branch
  /// (Kernel::bufferLoaded names the tensors).
  bool bufferLoads = false;
  std::string why;            ///< the decision in words, for the report
  /// The order of one main-loop step for the MFMA pipe (depth 2, one mma), which the HIP emitter prints as
  /// sched_group_barrier groups: every fragment of the step is read first, one global load of the next step follows
  /// each of the first MFMAs, and the MFMAs of the last instruction K step (or of its last block rows) run among the
  /// LDS writes (after the first barrier with one LDS stage; into the other stage, before the one barrier, with 2).
  /// All counts are per lane and step, before clang pairs LDS accesses.
  struct StepSchedule {
    unsigned fragmentReads = 0; ///< LDS reads of this step's fragments
    unsigned loads = 0;         ///< global loads of the next step
    unsigned loadsPerMfma = 1;  ///< global loads issued after each of the first MFMAs, until `loads` are issued
    unsigned mfmasBefore = 0;   ///< MFMAs before the LDS writes: every instruction K step but the last, and
                                ///< the first rowsBefore block rows of the last
    unsigned mfmasAfter = 0;    ///< MFMAs of the last instruction K step's other block rows, among the LDS writes
    unsigned rowsBefore = 0;    ///< block rows of the last instruction K step issued before the LDS writes
    unsigned kSteps = 0;        ///< instruction K steps of the mma
    /// The MFMAs the next step's loads go out after, a group of up to loadsPerMfma after each.
    unsigned loadingMfmas() const { return std::min((loads + loadsPerMfma - 1) / loadsPerMfma, mfmasBefore); }
  };
  std::optional<StepSchedule> schedule;
  /// A staged main-loop step (depth 3), one segment per instruction K step j of its one mma, each fenced from the
  /// next: the fragment reads of instruction K step j + 1 (those of step 0 come first, on their own), the MFMAs of
  /// step j, and the statements placed in it (the LDS writes of the next K step, then the global loads of the one
  /// after it), interleaved with the MFMAs in the order of `groups`, which the emitter prints as
  /// sched_group_barrier groups.
  struct StagedSegment {
    enum class Group { MFMA, LDSRead, LDSWrite, GlobalLoad };
    unsigned writes = 0; ///< statements of `writes` placed here, following those of the segments before
    unsigned loads = 0;  ///< statements of `loads` placed here, likewise
    bool scales = false; ///< a scaled mma's scale loads of the next K step (ir::ScaleLoads) come first here
    std::vector<std::pair<Group, unsigned>> groups; ///< kind and instructions per lane, in issue order
  };
  std::vector<StagedSegment> staged;
  unsigned stagedReadsPerStep = 0; ///< depth 3: LDS reads per lane of one instruction K step's fragments
  /// depth 3: the main loop runs two K steps an iteration, the first reading LDS stage 0 (and writing stage 1), the
  /// second the other way round, so that every LDS address in it is a lane's base plus a constant: no stage
  /// arithmetic in the loop, and one loop branch for two steps. An odd step left over runs after it.
  bool stepPerStage = false;
  /// depth 3 with stepPerStage: the register sets of the loaded tiles (1 or 2). With 2, each step of the two-step
  /// main loop writes its own set to LDS and loads the step three ahead into it, so a load has two steps to land
  /// instead of one; the first step of a pair uses the tiles' own registers, the second a copy of them. The masked
  /// steps after the main loop use the tiles' own registers only (no set is chosen at run time).
  unsigned registerSets = 1;
  /// The depth as `pipeline N` names it: the K steps in flight, 4 for a staged loop with 2 register sets.
  unsigned pipelineDepth() const { return depth + registerSets - 1; }
};

/// for var in lower .. upper step step [pipeline depth].
struct For : Stmt {
  For(SMRange loc) : Stmt(Kind::For, loc) {}
  std::string var;
  IndexPtr lower, upper, step;
  unsigned pipeline = 0; ///< `pipeline N` as written; 0 when absent
  SMRange pipelineLoc;
  Body body;
  std::unique_ptr<KLoopPlan> plan; ///< set by planPipelines for K loops
  /// A plain loop's loads issued one step ahead (passes/RotateLoopLoads.h): the first step's before the loop, the
  /// next step's load of rotatedLoads[j] after body statement rotatedAfter[j] (the step's first barrier, or the LDS
  /// write of its tile where that comes later) instead of at its place.
  std::vector<const Assign *> rotatedLoads;
  std::vector<size_t> rotatedAfter;
  /// Some rotated loads go through buffer resources (their tensors in Kernel::bufferLoaded) in the vector kernel.
  bool rotatedBufferLoads = false;
  static bool classof(const Stmt *s) { return s->kind == Kind::For; }
};

/// Workgroup barrier with LDS fences.
struct Barrier : Stmt {
  Barrier(SMRange loc) : Stmt(Kind::Barrier, loc) {}
  /// Orders nothing the barriers around it do not (passes/DropBarriers.h): not emitted; `why` says so.
  bool dropped = false;
  std::string why;
  /// Placed by a pass, not written (passes/HoistFragments.h, passes/ShareLds.h): what it orders, in words.
  std::string madeFor;
  static bool classof(const Stmt *s) { return s->kind == Kind::Barrier; }
};

/// lds = tile: the register tile's elements written to the LDS buffer (transposed if the buffer is).
struct LdsWrite : Stmt {
  LdsWrite(SMRange loc) : Stmt(Kind::LdsWrite, loc) {}
  const LdsBuffer *dst = nullptr;
  const Tile *src = nullptr;
  static bool classof(const Stmt *s) { return s->kind == Kind::LdsWrite; }
};

/// acc += a x b with `acc->instr`: a is [M, K] in LDS, b is [K, N] (stored transposed) or, for
/// `mma(a, transpose(b))`, b is [N, K]; either way both are read as rows contiguous in K.
struct MMA : Stmt {
  MMA(SMRange loc) : Stmt(Kind::MMA, loc) {}
  const AccTile *acc = nullptr;
  const LdsBuffer *a = nullptr, *b = nullptr;
  unsigned k = 0; ///< the K extent of this product
  /// A scaled mma: the E8M0 scale tensors of A ([M, K / 32]) and B ([N, K / 32]), and the K loop variable whose
  /// value is the K column of the LDS operands' first column (null and empty otherwise).
  const Tensor *scaleA = nullptr, *scaleB = nullptr;
  std::string kVar;
  ScaleLoads scaleLoads; ///< a scaled mma: how each K step loads its scales (passes/PlanScaleLoads.h)
  /// `acc = mma(a, b)`: the accumulator restarts at zero before this product (a new S = Q K^T for each K/V block of
  /// attention), instead of adding to what it holds. A loop around it is not a K loop (its steps do not accumulate):
  /// it runs as a plain loop.
  bool restart = false;
  /// A's fragments are the values of this write, computed from its accumulator's registers (`a` is the buffer it
  /// would have filled; passes/ForwardAccOperands.h), in the K order of runs of 4 (runsOfFour) that the accumulator's
  /// C/D layout holds them in; B is read in the same order. Null: A is read from LDS.
  const struct AccLdsWrite *aFrom = nullptr;
  std::string aFromWhy; ///< the decision in words, for the report
  /// A's fragments of every instruction K step, read from LDS once before the loop that holds this mma and kept in
  /// registers through it (passes/HoistFragments.h): A's buffer is not written inside the loop. Null: read here.
  const struct FragmentRead *aHoisted = nullptr;
  std::string aHoistedWhy; ///< the decision, taken or not, in words, for the report (empty: not a candidate)
  static bool classof(const Stmt *s) { return s->kind == Kind::MMA; }
};

enum class ReduceOp { Sum, Max, Min };
llvm::StringRef spelling(ReduceOp op);

/// One cross-lane step of a reduction: every lane combines its partial with that of lane `lane ^ laneXor` (or, for
/// the mirrors, of a lane in the other half of its group, which after the earlier steps holds the same partial).
struct CrossLaneStep {
  enum class Kind { DppQuadPerm, DppRowHalfMirror, DppRowMirror, DsSwizzle, DsBpermute } kind;
  unsigned laneXor = 0;
  unsigned control = 0; ///< the dpp_ctrl or ds_swizzle offset; unused for ds_bpermute
};

/// How a reduction runs, as passes/ReductionStrategy decided it from the source's distribution: `inLane` values of
/// each lane combined in registers, then the cross-lane steps within the wave, then `waves` partials per result
/// combined through `ldsBytes` of LDS, in wave order. Every lane ends with the whole result (an all-reduce), so
/// the results broadcast without further exchange.
struct ReducePlan {
  unsigned inLane = 1;
  unsigned lanes = 1; ///< lanes that share one result within a wave
  std::vector<CrossLaneStep> steps;
  unsigned waves = 1;
  unsigned ldsBytes = 0;
  DType accumulate = DType::F32; ///< the dtype partials are combined in
  std::string why;               ///< the decision in words
};

/// dst (+)= op(value, axis): `value` is a tile value of a register tile's distribution.
struct Reduce : Stmt {
  Reduce(SMRange loc) : Stmt(Kind::Reduce, loc) {}
  const ReducedTile *dst = nullptr;
  ReduceOp op = ReduceOp::Sum;
  unsigned axis = 1;
  bool accumulate = false; ///< `dst += sum(...)`
  ValuePtr value;
  std::unique_ptr<ReducePlan> plan; ///< set by planReductions
  static bool classof(const Stmt *s) { return s->kind == Kind::Reduce; }
};

/// dst = value for a reduced tile: an element expression of reduced values of dst's own distribution (its source with
/// its axis collapsed) and uniform values, e.g. `m = -inf;`, `m = max(m, mb);`, `s = s * exp(m - mnew) + sb;`. This
/// is how a reduced tile carries state across the iterations of a loop. Each lane computes the results it holds
/// (ReducedTile::values()), with no exchange between lanes: every lane of a row or column holds its results.
struct ReducedAssign : Stmt {
  ReducedAssign(SMRange loc) : Stmt(Kind::ReducedAssign, loc) {}
  const ReducedTile *dst = nullptr;
  ValuePtr value;
  static bool classof(const Stmt *s) { return s->kind == Kind::ReducedAssign; }
};

/// acc = value: an element expression in the accumulator's own C/D layout (of itself, reduced tiles of its rows,
/// element indices, uniform values), computed by each lane for the values it holds, in place: attention's
/// `o = o * exp(m - mnew)` and the masks of `s = select(t + col(s) < T, s, -inf)`.
struct AccAssign : Stmt {
  AccAssign(SMRange loc) : Stmt(Kind::AccAssign, loc) {}
  const AccTile *dst = nullptr;
  ValuePtr value;
  static bool classof(const Stmt *s) { return s->kind == Kind::AccAssign; }
};

/// lds = value for a value in an accumulator's C/D layout (`sP = cast<f16>(exp(s - m))`): each lane writes the values
/// it holds, 4 consecutive columns of one row per group, one vector write each, into the buffer stored as declared.
/// This is how a product becomes the operand of the next mma (attention's P, read as A by `o += mma(sP, sV)`).
struct AccLdsWrite : Stmt {
  AccLdsWrite(SMRange loc) : Stmt(Kind::AccLdsWrite, loc) {}
  const LdsBuffer *dst = nullptr;
  ValuePtr value;
  /// The one mma that reads the buffer takes these values from the accumulator's registers instead
  /// (passes/ForwardAccOperands.h): nothing is written, and the buffer is not declared.
  bool forwarded = false;
  static bool classof(const Stmt *s) { return s->kind == Kind::AccLdsWrite; }
};

/// The A fragments of `mma` for every instruction K step and block row, read from LDS into registers that stay live
/// through the loop holding the mma (MMA::aHoisted; passes/HoistFragments.h). It stands in the body that holds that
/// loop, before it, after a barrier that orders A's last write before these reads.
struct FragmentRead : Stmt {
  FragmentRead(SMRange loc) : Stmt(Kind::FragmentRead, loc) {}
  const MMA *mma = nullptr;
  static bool classof(const Stmt *s) { return s->kind == Kind::FragmentRead; }
};

struct Kernel {
  std::string name;
  SMRange loc;
  std::vector<std::unique_ptr<Tensor>> tensors;   ///< in parameter order
  std::vector<std::unique_ptr<Scalar>> scalars;   ///< declared scalars, then dimension symbols
  unsigned workgroupSize = 0;
  const Tensor *gridTensor = nullptr;
  unsigned gridTileRows = 0, gridTileCols = 0;
  /// `grid over T tile [r, N]` with N T's column symbol: each workgroup owns r whole rows (block.col is 0, one
  /// workgroup across) and loops over their columns; gridTileCols is 0.
  bool gridWholeRows = false;
  /// The grid runs over the batch of a rank-3 grid tensor (`grid over C tile [1, r, c]`): workgroup id z is the
  /// batch, and every rank-3 tensor is read and written in that matrix.
  bool batched = false;
  std::vector<std::unique_ptr<Tile>> tiles;
  std::vector<std::unique_ptr<LdsBuffer>> ldsBuffers;
  std::vector<std::unique_ptr<AccTile>> accs;
  std::vector<std::unique_ptr<ReducedTile>> reducedTiles;
  std::vector<Assumption> assumptions;
  /// Tensors whose loads in masked K steps of the vector kernel (KLoopPlan::bufferLoads), or in a plain loop's
  /// rotated loads (For::rotatedBufferLoads), go through buffer resources; the launcher runs the vector kernel only
  /// when each is under 2 GiB, the reach of a buffer's 32-bit offsets (with one kernel, it refuses larger ones).
  std::vector<const Tensor *> bufferLoaded;
  /// Waves per SIMD the kernel asks of the compiler (amdgpu_waves_per_eu), for the vector kernel and its _unaligned
  /// copy: the resource model's occupancy where the target asks (Target::occupancyHint), else 0 (passes/OccupancyHint.h).
  unsigned wavesPerEU = 0, wavesPerEUUnaligned = 0;
  /// Why a target that asks did not ask for this kernel's waves (passes/OccupancyHint.h); empty otherwise.
  std::string wavesNotAsked;
  /// Bytes of the one LDS allocation that every used buffer is placed in at its LdsBuffer::offset, buffers whose
  /// lifetimes do not overlap sharing bytes (passes/ShareLds.h); 0: each buffer is an allocation of its own.
  unsigned ldsSharedBytes = 0;
  std::string ldsSharedWhy; ///< the decision, taken or not, in words, for the report (empty: nothing could share)
  Body body;

  unsigned waves(const Target &t) const { return workgroupSize / t.waveSize; }
  /// Whether `assume symbol % m == 0` (or a constant extent) guarantees divisibility by `m`.
  bool divisible(const Extent &extent, int64_t m) const;
};

struct Module {
  const Target *target = nullptr;
  std::vector<std::unique_ptr<Kernel>> kernels;
};

/// The element value statement `s` computes (Assign, Store, Reduce, ReducedAssign, AccAssign, AccLdsWrite), or null.
const Value *valueOf(const Stmt &s);

/// Calls `each(buffer, write)` for every LDS access of statement `s` (a loop: of every statement in it). A write
/// forwarded to an mma in registers is none, nor is the A operand of an mma whose fragments come from registers or
/// were read before its loop (the FragmentRead reads them). A scaled mma's scale buffers are not statements' (ir
/// ScaleLoads): `each` is called with a null buffer for them.
void forEachLdsAccess(const Stmt &s, llvm::function_ref<void(const LdsBuffer *, bool write)> each);

/// Whether statement `s` (a loop: anything in it) may write buffer `b` (a scaled mma's buffers count as any).
bool writesLds(const Stmt &s, const LdsBuffer *b);
/// Whether a barrier that is emitted stands among k's top-level statements strictly between `from` and `to`.
bool barrierBetween(const Kernel &k, long from, long to);

/// Where an LDS buffer lives: the first and last top-level statements of its kernel that access it (a loop is one
/// statement: a buffer accessed in it lives through all of it); -1 for none.
struct LdsLifetime {
  long first = -1, last = -1;
};
/// The lifetime of each of k.ldsBuffers, in order; `scaled` is set when a scaled mma accesses buffers that are no
/// statement's (forEachLdsAccess).
std::vector<LdsLifetime> ldsLifetimes(const Kernel &k, bool &scaled);

/// The textual form (--emit=ir).
void printModule(const Module &module, llvm::raw_ostream &os);
void printIndex(const Index &index, llvm::raw_ostream &os);
/// The largest power of two (up to 2^20) known to divide `index` for every workgroup and iteration.
int64_t knownDivisor(const Index &index, const Kernel &kernel);

} // namespace tilec::ir

#endif
