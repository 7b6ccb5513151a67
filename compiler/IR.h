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

#include "DType.h"
#include "Layout.h"
#include "Target.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tilec::ir {

using llvm::SMRange;

/// One dimension of a tensor: a symbol that becomes an `int` kernel argument, or a constant.
struct Extent {
  std::string symbol; ///< empty for a constant
  int64_t value = 0;
  bool isSymbol() const { return !symbol.empty(); }
};

struct Tensor {
  std::string name;
  DType dtype;
  Extent rows, cols;
  bool isRead = false, isWritten = false;
  SMRange loc;
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
  unsigned rows() const { return layout.rows; }
  unsigned cols() const { return layout.cols; }
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

enum class ValueOp { Neg, Add, Sub, Mul, Div, Rem, Max, Min };
llvm::StringRef spelling(ValueOp op);

struct Value {
  enum class Kind { TileRef, ScalarRef, Const, Load, Unary, Binary, Cast };
  Kind kind;
  DType dtype;                  ///< element type of the result
  bool isTile = false;          ///< varies per element (else uniform: broadcast)
  const Layout *layout = nullptr; ///< distribution of a tile value
  const Tile *tile = nullptr;   ///< TileRef
  const Scalar *scalar = nullptr; ///< ScalarRef
  double constant = 0;          ///< Const
  std::string spelling;         ///< Const as written
  const Tensor *tensor = nullptr; ///< Load
  IndexPtr row, col;            ///< Load: window origin
  ValueOp op = ValueOp::Neg;    ///< Unary, Binary
  std::vector<std::unique_ptr<Value>> operands;
  SMRange loc;
};
using ValuePtr = std::unique_ptr<Value>;

//===--- Statements ---===//

#define TILEC_IR_STMTS(X) X(Assign) X(Store) X(For) X(Barrier)

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
  static bool classof(const Stmt *s) { return s->kind == Kind::Assign; }
};

/// store tensor[row.., col..] = value, over value's layout.
struct Store : Stmt {
  Store(SMRange loc) : Stmt(Kind::Store, loc) {}
  const Tensor *tensor = nullptr;
  IndexPtr row, col;
  ValuePtr value;
  static bool classof(const Stmt *s) { return s->kind == Kind::Store; }
};

/// for var in lower .. upper step step.
struct For : Stmt {
  For(SMRange loc) : Stmt(Kind::For, loc) {}
  std::string var;
  IndexPtr lower, upper, step;
  Body body;
  static bool classof(const Stmt *s) { return s->kind == Kind::For; }
};

/// Workgroup barrier with LDS fences.
struct Barrier : Stmt {
  Barrier(SMRange loc) : Stmt(Kind::Barrier, loc) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::Barrier; }
};

struct Kernel {
  std::string name;
  SMRange loc;
  std::vector<std::unique_ptr<Tensor>> tensors;   ///< in parameter order
  std::vector<std::unique_ptr<Scalar>> scalars;   ///< declared scalars, then dimension symbols
  unsigned workgroupSize = 0;
  const Tensor *gridTensor = nullptr;
  unsigned gridTileRows = 0, gridTileCols = 0;
  std::vector<std::unique_ptr<Tile>> tiles;
  std::vector<Assumption> assumptions;
  Body body;

  unsigned waves(const Target &t) const { return workgroupSize / t.waveSize; }
  /// Whether `assume symbol % m == 0` (or a constant extent) guarantees divisibility by `m`.
  bool divisible(const Extent &extent, int64_t m) const;
};

struct Module {
  const Target *target = nullptr;
  std::vector<std::unique_ptr<Kernel>> kernels;
};

/// The textual form (--emit=ir).
void printModule(const Module &module, llvm::raw_ostream &os);
void printIndex(const Index &index, llvm::raw_ostream &os);
/// The largest power of two (up to 2^20) known to divide `index` for every workgroup and iteration.
int64_t knownDivisor(const Index &index, const Kernel &kernel);

} // namespace tilec::ir

#endif
