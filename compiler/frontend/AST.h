//===- AST.h - The syntax tree of a .tile file -----------------------------===//
//
// What the user wrote, before any meaning is given to it: names are strings, dtypes are identifiers, shapes are integer
// literals. Every node keeps the source range it came from, so errors found by Sema (or later, on the IR) point at the
// exact text. Parser.cpp builds it; Sema.cpp checks it and lowers it to IR; dumpAST prints it for --emit=ast.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_AST_H
#define TILEC_AST_H

#include "layout/Layout.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec::ast {

using llvm::SMRange;

/// A name as written, with where it was written.
struct Ident {
  std::string name;
  SMRange range;
};

/// An integer literal in a declaration (shape, workgroup size, vec, ...).
struct IntLit {
  int64_t value = 0;
  SMRange range;
};

//===--- Expressions ---===//

enum class BinaryOp { Add, Sub, Mul, Div, Rem, Eq, Ne, Lt, Le, Gt, Ge };
llvm::StringRef spelling(BinaryOp op);

struct Expr {
  enum class Kind { Int, Float, Name, Member, Neg, Binary, Call, Cast, Load };
  Expr(Kind kind, SMRange range) : kind(kind), range(range) {}
  virtual ~Expr() = default;
  const Kind kind;
  SMRange range;
};
using ExprPtr = std::unique_ptr<Expr>;

struct IntExpr : Expr {
  IntExpr(SMRange r, int64_t v) : Expr(Kind::Int, r), value(v) {}
  int64_t value;
  static bool classof(const Expr *e) { return e->kind == Kind::Int; }
};

struct FloatExpr : Expr {
  FloatExpr(SMRange r, double v, std::string s) : Expr(Kind::Float, r), value(v), spelling(std::move(s)) {}
  double value;
  std::string spelling; ///< as written, so the emitter reproduces it exactly
  static bool classof(const Expr *e) { return e->kind == Kind::Float; }
};

struct NameExpr : Expr {
  NameExpr(SMRange r, std::string n) : Expr(Kind::Name, r), name(std::move(n)) {}
  std::string name;
  static bool classof(const Expr *e) { return e->kind == Kind::Name; }
};

/// `base.member`, e.g. `block.row`.
struct MemberExpr : Expr {
  MemberExpr(SMRange r, Ident b, Ident m) : Expr(Kind::Member, r), base(std::move(b)), member(std::move(m)) {}
  Ident base, member;
  static bool classof(const Expr *e) { return e->kind == Kind::Member; }
};

struct NegExpr : Expr {
  NegExpr(SMRange r, ExprPtr o) : Expr(Kind::Neg, r), operand(std::move(o)) {}
  ExprPtr operand;
  static bool classof(const Expr *e) { return e->kind == Kind::Neg; }
};

struct BinaryExpr : Expr {
  BinaryExpr(SMRange r, BinaryOp op, SMRange opRange, ExprPtr l, ExprPtr rr)
      : Expr(Kind::Binary, r), op(op), opRange(opRange), lhs(std::move(l)), rhs(std::move(rr)) {}
  BinaryOp op;
  SMRange opRange;
  ExprPtr lhs, rhs;
  static bool classof(const Expr *e) { return e->kind == Kind::Binary; }
};

/// `callee(args...)`: element functions, reductions, mma. An argument may be named (`axis = 1`).
struct CallExpr : Expr {
  CallExpr(SMRange r, Ident c, std::vector<ExprPtr> a, std::vector<Ident> n)
      : Expr(Kind::Call, r), callee(std::move(c)), args(std::move(a)), argNames(std::move(n)) {}
  Ident callee;
  std::vector<ExprPtr> args;
  std::vector<Ident> argNames; ///< one per argument; an empty name for a positional one
  static bool classof(const Expr *e) { return e->kind == Kind::Call; }
};

/// `cast<dtype>(operand)` or `cast<dtype, mode>(operand)` (mode `sat`: saturate to the finite range).
struct CastExpr : Expr {
  CastExpr(SMRange r, Ident d, ExprPtr o) : Expr(Kind::Cast, r), dtype(std::move(d)), operand(std::move(o)) {}
  Ident dtype;
  Ident mode; ///< empty name when absent
  ExprPtr operand;
  static bool classof(const Expr *e) { return e->kind == Kind::Cast; }
};

/// `tensor[i, j]` or `tensor[block]`: a window of a global tensor whose shape is the tile's.
struct Window {
  Ident tensor;
  std::vector<ExprPtr> indices;
  SMRange range;
};

/// `load T[window]` or `load T[window] else fill`: elements outside the tensor read as `fill` (0 without it).
struct LoadExpr : Expr {
  LoadExpr(SMRange r, Window w, ExprPtr f) : Expr(Kind::Load, r), window(std::move(w)), fill(std::move(f)) {}
  Window window;
  ExprPtr fill; ///< may be null
  static bool classof(const Expr *e) { return e->kind == Kind::Load; }
};

//===--- Statements ---===//

struct Stmt {
  enum class Kind { Workgroup, Grid, Tile, Lds, Acc, Assume, Assign, Store, For, Barrier };
  Stmt(Kind kind, SMRange range) : kind(kind), range(range) {}
  virtual ~Stmt() = default;
  const Kind kind;
  SMRange range;
};
using StmtPtr = std::unique_ptr<Stmt>;

/// `[a, b, ...]` of integer literals.
struct Shape {
  std::vector<IntLit> dims;
  SMRange range;
};

struct WorkgroupStmt : Stmt {
  WorkgroupStmt(SMRange r, IntLit s) : Stmt(Kind::Workgroup, r), size(s) {}
  IntLit size;
  static bool classof(const Stmt *s) { return s->kind == Kind::Workgroup; }
};

/// `grid over T tile [a, b];`
struct GridStmt : Stmt {
  GridStmt(SMRange r, Ident t, Shape s) : Stmt(Kind::Grid, r), tensor(std::move(t)), shape(std::move(s)) {}
  Ident tensor;
  Shape shape;                      ///< a symbol's dimension is 0 here, its name in `symbols`
  std::vector<std::string> symbols; ///< per dimension: the dimension symbol written (`[16, N]`), or empty
  static bool classof(const Stmt *s) { return s->kind == Kind::Grid; }
};

/// `waves [Wy, Wx]`
struct WavesSpec {
  IntLit wy, wx;
  SMRange range;
};

/// `tile name: dtype[shape] pattern [waves [..]] [vec N | vec auto];`
struct TileDecl : Stmt {
  TileDecl(SMRange r) : Stmt(Kind::Tile, r) {}
  Ident name, dtype;
  Shape shape;
  Pattern pattern = Pattern::ThreadRaked;
  bool hasDistribution = true; ///< false: `tile s: f32[64, 1];`, a tile that receives reductions
  SMRange patternRange;
  std::optional<WavesSpec> waves;
  std::optional<IntLit> vec; ///< absent: `vec auto` (written or implied)
  SMRange vecRange;          ///< the `vec ...` clause, or the pattern when there is none
  static bool classof(const Stmt *s) { return s->kind == Kind::Tile; }
};

/// `lds name: dtype[shape] [pad N];`
struct LdsDecl : Stmt {
  LdsDecl(SMRange r) : Stmt(Kind::Lds, r) {}
  Ident name, dtype;
  Shape shape;
  std::optional<IntLit> pad;
  static bool classof(const Stmt *s) { return s->kind == Kind::Lds; }
};

/// `acc name: dtype[shape] mfma (instruction | auto) [waves [..]];`
struct AccDecl : Stmt {
  AccDecl(SMRange r) : Stmt(Kind::Acc, r) {}
  Ident name, dtype, mfma;
  Shape shape;
  std::optional<WavesSpec> waves;
  static bool classof(const Stmt *s) { return s->kind == Kind::Acc; }
};

/// `assume expr;`, e.g. `assume N % 8 == 0;`
struct AssumeStmt : Stmt {
  AssumeStmt(SMRange r, ExprPtr c) : Stmt(Kind::Assume, r), cond(std::move(c)) {}
  ExprPtr cond;
  static bool classof(const Stmt *s) { return s->kind == Kind::Assume; }
};

/// `name = expr;` or `name += expr;`
struct AssignStmt : Stmt {
  AssignStmt(SMRange r, Ident t, bool acc, ExprPtr v)
      : Stmt(Kind::Assign, r), target(std::move(t)), accumulate(acc), value(std::move(v)) {}
  Ident target;
  bool accumulate;
  ExprPtr value;
  static bool classof(const Stmt *s) { return s->kind == Kind::Assign; }
};

/// `store T[window] = expr;`
struct StoreStmt : Stmt {
  StoreStmt(SMRange r, Window w, ExprPtr v) : Stmt(Kind::Store, r), window(std::move(w)), value(std::move(v)) {}
  Window window;
  ExprPtr value;
  static bool classof(const Stmt *s) { return s->kind == Kind::Store; }
};

/// `for var in lower .. upper [step s] [pipeline d] { body }`
struct ForStmt : Stmt {
  ForStmt(SMRange r) : Stmt(Kind::For, r) {}
  Ident var;
  ExprPtr lower, upper, step; ///< step may be null (1)
  int64_t pipeline = 0;       ///< `pipeline d` as written (0: absent)
  SMRange pipelineRange;      ///< the depth's literal
  std::vector<StmtPtr> body;
  static bool classof(const Stmt *s) { return s->kind == Kind::For; }
};

struct BarrierStmt : Stmt {
  BarrierStmt(SMRange r) : Stmt(Kind::Barrier, r) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::Barrier; }
};

//===--- Declarations ---===//

/// One dimension of a tensor parameter: a symbol (`M`) or a literal (`64`).
struct Dim {
  std::string symbol; ///< empty for a literal
  int64_t value = 0;
  SMRange range;
  bool isSymbol() const { return !symbol.empty(); }
};

/// `name: global dtype[dims] stride s` or `name: dtype`.
struct Param {
  Ident name, dtype;
  bool isTensor = false;
  std::vector<Dim> dims;
  std::optional<Dim> stride; ///< `stride s`: elements between the starts of consecutive rows
  SMRange range;
};

struct Kernel {
  Ident name;
  std::vector<Param> params;
  std::vector<StmtPtr> body;
  SMRange range;
};

struct Program {
  std::optional<Ident> target;
  std::vector<Kernel> kernels;
};

/// Prints the tree, one node per line with its line:col, for --emit=ast.
void dumpAST(const Program &program, const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os);

} // namespace tilec::ast

#endif
