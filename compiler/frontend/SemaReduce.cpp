//===- SemaReduce.cpp - Reductions and the tiles that hold them -------------===//
//
// `tile s: f32[64, 1];` (no distribution) declares a tile that receives reductions; `s = sum(x, axis = 1);` reduces
// the columns of each row of the register tile value x into it ([rows, 1]), `axis = 0` the rows of each column
// ([1, cols]); `s += ...` adds to it (it starts at zero). The reduced tile takes x's distribution with the axis
// collapsed (ir::ReducedTile), so later uses of s broadcast against tiles of x's distribution. How the reduction
// runs (in a lane, across lanes, across waves) is decided later by passes/ReductionStrategy.
//
// Reduced tiles are also loop state: assigned uniform values (`m = -inf;`) and element expressions of reduced values
// of their distribution (`s = s * exp(m - mnew) + sum(p, axis = 1);`, ir::ReducedAssign). A reduction inside any
// expression becomes a Reduce into a temporary reduced tile, hoisted in front of the statement. A reduced tile's
// distribution is inferred before the statements are checked, from the reductions (and reduced values) assigned to it
// anywhere in the kernel, so that it may be initialised before the loop that reduces into it.
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelSema.h"
#include "codegen/ReservedNames.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::sema;
using llvm::dyn_cast;
using llvm::formatv;

std::optional<ir::ReduceOp> KernelSema::reduction(const ast::CallExpr &c) {
  const std::string &f = c.callee.name;
  if (f == "sum") return ir::ReduceOp::Sum;
  bool axis = false;
  for (const ast::Ident &n : c.argNames) axis |= n.name == "axis";
  if (!axis) return std::nullopt; // max(a, b) and min(a, b) are element functions
  if (f == "max") return ir::ReduceOp::Max;
  if (f == "min") return ir::ReduceOp::Min;
  return std::nullopt;
}

void KernelSema::reducedTile(const ast::TileDecl &t, DType dt) {
  int64_t rows = t.shape.dims[0].value, cols = t.shape.dims[1].value;
  if (rows != 1 && cols != 1) {
    diags.error(t.shape.range,
                formatv("tile '{0}' has no distribution; only a tile of one column ([rows, 1]) or one row ([1, cols]) "
                        "that receives a reduction may omit it, and this one is {1} x {2}; add one, e.g. "
                        "'thread_raked'",
                        t.name.name, rows, cols));
    poisoned.insert(t.name.name);
    return;
  }
  if (!info(dt).hasArithmetic || dt == DType::I8) {
    diags.error(t.dtype.range, formatv("tile '{0}' receives reductions, which are f32, f16, bf16 or i32; not {1}",
                                       t.name.name, name(dt)));
    poisoned.insert(t.name.name);
    return;
  }
  auto r = std::make_unique<ir::ReducedTile>();
  r->name = t.name.name;
  r->dtype = dt;
  r->rows = static_cast<unsigned>(rows);
  r->cols = static_cast<unsigned>(cols);
  r->axis = cols == 1 ? 1 : 0; // a [1, 1] tile takes its axis from its first reduction
  r->loc = t.name.range;
  reducedTiles[r->name] = r.get();
  kernel->reducedTiles.push_back(std::move(r));
}

void KernelSema::noDistribution(const ir::ReducedTile &r, llvm::SMRange at) {
  diags.error(at, formatv("tile '{0}' has no distribution of its own and takes one from a reduction assigned to it, "
                          "but none is: assign it '{0} = sum(x, axis = {1});' (or max, min) somewhere in the kernel",
                          r.name, r.axis));
}

/// How a reduced tile's or a value's distribution is described: a register tile's, or an accumulator's rows.
static std::string distributionText(const Layout *l, const ir::AccTile *acc) {
  return l ? KernelSema::describeLayout(*l) : formatv("the rows of acc {0}'s MFMA C/D layout", acc->name).str();
}

void KernelSema::otherDistribution(const ir::ReducedTile &r, const ir::Value &x, llvm::SMRange at) {
  diags.error(at, formatv("tile '{0}' holds reductions of {1}, but this value is distributed as {2}; one reduced tile "
                          "keeps one distribution",
                          r.name, distributionText(r.source, r.sourceAcc), distributionText(x.layout, x.acc)));
}

bool KernelSema::takeDistribution(ir::ReducedTile &dst, const ir::Value &x, llvm::SMRange at) {
  bool same = x.acc ? !dst.source && (!dst.sourceAcc || sameAccRows(*dst.sourceAcc, *x.acc))
                    : !dst.sourceAcc && (!dst.source || dst.source->sameMapping(*x.layout));
  if (!same) {
    otherDistribution(dst, x, at);
    return false;
  }
  if (x.acc && !dst.sourceAcc) dst.sourceAcc = x.acc;
  if (!x.acc && !dst.source) dst.source = x.layout;
  return true;
}

/// A reference to reduced tile `r` (distributed), at `loc`.
static ir::ValuePtr reducedRef(const ir::ReducedTile &r, llvm::SMRange loc) {
  auto v = std::make_unique<ir::Value>();
  v->kind = ir::Value::Kind::ReducedRef;
  v->reduced = &r;
  v->dtype = r.dtype;
  v->isTile = true;
  v->layout = r.source;
  v->acc = r.sourceAcc;
  v->reducedAxis = static_cast<int>(r.axis);
  v->loc = loc;
  return v;
}

Checked KernelSema::reducedValue(const ast::NameExpr &n, ir::ValuePtr v) {
  const ir::ReducedTile &r = *reducedTiles.lookup(n.name);
  used.insert(n.name);
  if (!r.distributed() && poisoned.count(n.name)) return {}; // its reduction's tile had an error, reported there
  if (!r.distributed()) {
    noDistribution(r, n.range);
    return {};
  }
  return {reducedRef(r, v->loc), false};
}

namespace {
/// A distribution a reduction's operand may have: a register tile's or an accumulator's.
struct Operand {
  const ir::Tile *tile = nullptr;
  const ir::AccTile *acc = nullptr;
  explicit operator bool() const { return tile || acc; }
};
} // namespace

/// The register tile (or accumulator) whose distribution a reduction's operand has: the first the operand names.
static Operand operandTile(const ast::Expr &e, const llvm::StringMap<ir::Tile *> &tiles,
                           const llvm::StringMap<ir::AccTile *> &accs) {
  switch (e.kind) {
  case ast::Expr::Kind::Name: {
    const std::string &n = llvm::cast<ast::NameExpr>(e).name;
    if (auto it = tiles.find(n); it != tiles.end()) return {it->second, nullptr};
    if (auto it = accs.find(n); it != accs.end()) return {nullptr, it->second};
    return {};
  }
  case ast::Expr::Kind::Neg: return operandTile(*llvm::cast<ast::NegExpr>(e).operand, tiles, accs);
  case ast::Expr::Kind::Cast: return operandTile(*llvm::cast<ast::CastExpr>(e).operand, tiles, accs);
  case ast::Expr::Kind::Binary: {
    auto &b = llvm::cast<ast::BinaryExpr>(e);
    if (Operand t = operandTile(*b.lhs, tiles, accs)) return t;
    return operandTile(*b.rhs, tiles, accs);
  }
  case ast::Expr::Kind::Call:
    for (const ast::ExprPtr &a : llvm::cast<ast::CallExpr>(e).args)
      if (Operand t = operandTile(*a, tiles, accs)) return t;
    return {};
  default: return {};
  }
}

namespace {

/// The distribution (and axis) an assigned expression gives a reduced tile: that of a reduction in it, else that of
/// a reduced tile it reads whose distribution is known.
struct SourceHint {
  const Layout *layout = nullptr;
  const ir::AccTile *acc = nullptr;
  unsigned axis = 1;
  bool known() const { return layout || acc; }
};

struct Names {
  const llvm::StringMap<ir::Tile *> &tiles;
  const llvm::StringMap<ir::AccTile *> &accs;
  const llvm::StringMap<ir::ReducedTile *> &reduced;
};

} // namespace

static void hintOf(const ast::Expr &e, const Names &names, SourceHint &out, bool &fromReduction) {
  if (fromReduction) return;
  switch (e.kind) {
  case ast::Expr::Kind::Name: {
    auto it = names.reduced.find(llvm::cast<ast::NameExpr>(e).name);
    if (it != names.reduced.end() && it->second->distributed() && !out.known())
      out = {it->second->source, it->second->sourceAcc, it->second->axis};
    return;
  }
  case ast::Expr::Kind::Neg: return hintOf(*llvm::cast<ast::NegExpr>(e).operand, names, out, fromReduction);
  case ast::Expr::Kind::Cast: return hintOf(*llvm::cast<ast::CastExpr>(e).operand, names, out, fromReduction);
  case ast::Expr::Kind::Binary: {
    auto &b = llvm::cast<ast::BinaryExpr>(e);
    hintOf(*b.lhs, names, out, fromReduction);
    return hintOf(*b.rhs, names, out, fromReduction);
  }
  case ast::Expr::Kind::Call: {
    auto &c = llvm::cast<ast::CallExpr>(e);
    if (KernelSema::isReduction(c)) {
      const ast::Expr *value = nullptr, *axis = nullptr;
      for (size_t i = 0; i < c.args.size(); ++i) {
        if (c.argNames[i].name.empty() && !value) value = c.args[i].get();
        else if (c.argNames[i].name == "axis") axis = c.args[i].get();
      }
      auto *lit = axis ? llvm::dyn_cast<ast::IntExpr>(axis) : nullptr;
      Operand t = value ? operandTile(*value, names.tiles, names.accs) : Operand{};
      if (t && lit && lit->value <= 1 && (t.acc || !t.tile->layout.oneD)) {
        out = {t.tile ? &t.tile->layout : nullptr, t.acc, static_cast<unsigned>(lit->value)};
        fromReduction = true;
      }
      return;
    }
    for (const ast::ExprPtr &a : c.args) hintOf(*a, names, out, fromReduction);
    return;
  }
  default: return;
  }
}

static void reducedAssignments(const std::vector<ast::StmtPtr> &body, const llvm::StringMap<ir::ReducedTile *> &reduced,
                               std::vector<const ast::AssignStmt *> &out, std::vector<std::string> &loopVars) {
  for (const ast::StmtPtr &s : body) {
    if (auto *a = llvm::dyn_cast<ast::AssignStmt>(s.get()); a && reduced.count(a->target.name)) out.push_back(a);
    if (auto *f = llvm::dyn_cast<ast::ForStmt>(s.get())) {
      loopVars.push_back(f->var.name);
      reducedAssignments(f->body, reduced, out, loopVars);
    }
  }
}

void KernelSema::inferReducedSources(const ast::Kernel &ak) {
  std::vector<const ast::AssignStmt *> assigns;
  reducedAssignments(ak.body, reducedTiles, assigns, allLoopVars);
  // A reduction fixes the distribution; a reduced value read passes its own on. Each round settles at least one
  // tile or ends.
  for (bool changed = true; changed;) {
    changed = false;
    for (const ast::AssignStmt *a : assigns) {
      ir::ReducedTile &dst = *reducedTiles[a->target.name];
      if (dst.distributed()) continue;
      SourceHint hint;
      bool fromReduction = false;
      hintOf(*a->value, Names{tiles, accs, reducedTiles}, hint, fromReduction);
      if (!hint.known()) {
        // A reduction of a tile whose declaration failed: the tile's error says it all.
        if (mentionsPoisoned(*a->value) && poisoned.insert(dst.name).second) changed = true;
        continue;
      }
      unsigned sourceRows = hint.layout ? hint.layout->rows : hint.acc->rows;
      unsigned sourceCols = hint.layout ? hint.layout->cols : hint.acc->cols;
      unsigned rows = hint.axis == 1 ? sourceRows : 1, cols = hint.axis == 1 ? 1 : sourceCols;
      if (dst.rows != rows || dst.cols != cols || (hint.acc && hint.axis != 1)) continue; // the statement reports it
      dst.source = hint.layout;
      dst.sourceAcc = hint.acc;
      dst.axis = hint.axis;
      changed = true;
    }
  }
}

bool KernelSema::mentionsPoisoned(const ast::Expr &e) const {
  switch (e.kind) {
  case ast::Expr::Kind::Name: return poisoned.count(llvm::cast<ast::NameExpr>(e).name) != 0;
  case ast::Expr::Kind::Neg: return mentionsPoisoned(*llvm::cast<ast::NegExpr>(e).operand);
  case ast::Expr::Kind::Cast: return mentionsPoisoned(*llvm::cast<ast::CastExpr>(e).operand);
  case ast::Expr::Kind::Binary:
    return mentionsPoisoned(*llvm::cast<ast::BinaryExpr>(e).lhs) || mentionsPoisoned(*llvm::cast<ast::BinaryExpr>(e).rhs);
  case ast::Expr::Kind::Call:
    return llvm::any_of(llvm::cast<ast::CallExpr>(e).args, [&](const ast::ExprPtr &a) { return mentionsPoisoned(*a); });
  default: return false;
  }
}

bool KernelSema::isReduction(const ast::CallExpr &c) { return reduction(c).has_value(); }

Checked KernelSema::reductionOperand(const ast::CallExpr &call, ir::ReduceOp op, unsigned &axis) {
  llvm::StringRef f = ir::spelling(op);
  // Arguments: one value, then `axis = 0 or 1`.
  const ast::Expr *value = nullptr, *axisArg = nullptr;
  for (size_t i = 0; i < call.args.size(); ++i) {
    const ast::Ident &n = call.argNames[i];
    if (n.name.empty() && !value && !axisArg) value = call.args[i].get();
    else if (n.name == "axis" && !axisArg) axisArg = call.args[i].get();
    else {
      diags.error(n.name.empty() ? call.args[i]->range : n.range,
                  formatv("{0} takes a value and 'axis = 0' (reduce the rows of each column) or 'axis = 1' (reduce "
                          "the columns of each row): {0}(x, axis = 1)", f));
      return {};
    }
  }
  if (!value || !axisArg) {
    diags.error(call.range, formatv("{0} takes a value and its axis: {0}(x, axis = 1) reduces each row to one "
                                    "value, {0}(x, axis = 0) each column", f));
    return {};
  }
  auto *axisLit = dyn_cast<ast::IntExpr>(axisArg);
  if (!axisLit || axisLit->value > 1) {
    diags.error(axisArg->range, "the axis of a reduction is the literal 0 (reduce the rows: one row of results, "
                                "[1, cols]) or 1 (reduce the columns: one column of results, [rows, 1])");
    return {};
  }
  axis = static_cast<unsigned>(axisLit->value);
  Checked v = checkValue(*value, nullptr);
  if (!v || !notPredicate(v, value->range)) return {};
  ir::Value &x = *v.value;
  if (v.untyped || !x.isTile) {
    diags.error(value->range, formatv("{0} reduces a register tile value; this expression is the same for every "
                                      "element", f));
    return {};
  }
  if (x.reducedAxis != -1) {
    diags.error(value->range, formatv("{0} of a value that is already reduced along axis {1}", f, x.reducedAxis));
    return {};
  }
  if (!info(x.dtype).hasArithmetic || x.dtype == DType::I8) {
    diags.error(value->range, formatv("{0} takes f32, f16, bf16 or i32 values; {1} is {2}; convert with "
                                      "cast<{3}>(...) first",
                                      f, describe(x), name(x.dtype), x.dtype == DType::I8 ? "i32" : "f32"));
    return {};
  }
  if (x.acc) return accReductionOperand(call, op, axis, std::move(v));
  if (x.layout->oneD) {
    diags.error(call.range, formatv("{0} of a 1-D tile: reductions run over the rows or columns of a 2-D tile; view "
                                    "the data as [rows, cols] in a 2-D tensor", f));
    return {};
  }
  return v;
}

std::string KernelSema::temporaryName(ir::ReduceOp op) {
  std::string base = (statementTarget.empty() ? std::string("r") : statementTarget) + "_" + ir::spelling(op).str();
  auto free = [&](const std::string &n) {
    if (declared.count(n) || reducedTiles.count(n) || isHIPName(n) || llvm::is_contained(allLoopVars, n))
      return false;
    for (const auto &r : kernel->reducedTiles)
      if (r->name == n) return false;
    // The emitter names its locals after the tile (n_part, n_lds, ...): a name no declared name starts with keeps
    // them at their usual spelling (they would give way otherwise: codegen/EmitterNames.h).
    for (const auto &d : declared)
      if (d.getKey().starts_with(n + "_")) return false;
    return true;
  };
  std::string n = base;
  for (unsigned i = 2; !free(n); ++i) n = base + std::to_string(i);
  return n;
}

Checked KernelSema::foldedReduction(const ast::CallExpr &call, ir::ReduceOp op) {
  unsigned axis = 1;
  Checked v = reductionOperand(call, op, axis);
  if (!v) return {};
  const Layout *l = v.value->layout;
  const ir::AccTile *acc = l ? nullptr : v.value->acc;
  auto r = std::make_unique<ir::ReducedTile>();
  r->name = temporaryName(op);
  r->dtype = v.value->dtype;
  r->rows = axis == 1 ? (l ? l->rows : acc->rows) : 1;
  r->cols = axis == 1 ? 1 : l->cols;
  r->axis = axis;
  r->source = l;
  r->sourceAcc = acc;
  r->temporary = true;
  r->loc = call.range;
  auto st = std::make_unique<ir::Reduce>(call.range);
  st->dst = r.get();
  st->op = op;
  st->axis = axis;
  st->value = std::move(v.value);
  hoisted.push_back(std::move(st));
  ir::ValuePtr ref = reducedRef(*r, call.range);
  kernel->reducedTiles.push_back(std::move(r));
  return {std::move(ref), false};
}

ir::StmtPtr KernelSema::reducedAssign(const ast::AssignStmt &a, ir::ReducedTile &dst) {
  used.insert(dst.name);
  assigned.insert(dst.name);
  auto *call = dyn_cast<ast::CallExpr>(a.value.get());
  std::optional<ir::ReduceOp> op = call ? reduction(*call) : std::nullopt;
  if (!op) return reducedExpression(a, dst);
  llvm::StringRef f = ir::spelling(*op);
  unsigned axis = 1;
  Checked v = reductionOperand(*call, *op, axis);
  if (!v) return nullptr;
  ir::Value &x = *v.value;
  unsigned xRows = x.layout ? x.layout->rows : x.acc->rows, xCols = x.layout ? x.layout->cols : x.acc->cols;
  unsigned rows = axis == 1 ? xRows : 1, cols = axis == 1 ? 1 : xCols;
  if (dst.rows == 1 && dst.cols == 1 && !dst.distributed()) dst.axis = axis;
  if (dst.rows != rows || dst.cols != cols || dst.axis != axis) {
    diags.error(a.value->range, formatv("{0}(..., axis = {1}) of a {2} x {3} {9} is [{4}, {5}], but tile '{6}' is "
                                        "[{7}, {8}]",
                                        f, axis, xRows, xCols, rows, cols, dst.name, dst.rows, dst.cols,
                                        x.layout ? "tile" : "accumulator"));
    return nullptr;
  }
  if (x.dtype != dst.dtype) {
    diags.error(a.value->range, formatv("cannot put {0} values into {1} tile '{2}'; convert with cast<{1}>(...)",
                                        name(x.dtype), name(dst.dtype), dst.name));
    return nullptr;
  }
  if (!takeDistribution(dst, x, a.value->range)) return nullptr;
  auto st = std::make_unique<ir::Reduce>(a.range);
  st->dst = &dst;
  st->op = *op;
  st->axis = axis;
  st->accumulate = a.accumulate;
  st->value = std::move(v.value);
  return st;
}

ir::StmtPtr KernelSema::reducedExpression(const ast::AssignStmt &a, ir::ReducedTile &dst) {
  if (!dst.distributed() && poisoned.count(dst.name)) return checkValue(*a.value, nullptr), nullptr;
  const char *shape = dst.axis == 1 ? "one value per row" : "one value per column";
  Checked v = checkValue(*a.value, nullptr);
  if (!v) return nullptr;
  if (a.accumulate) {
    if (!dst.distributed()) {
      noDistribution(dst, a.target.range);
      return nullptr;
    }
    v = combine(ir::ValueOp::Add, Checked{reducedRef(dst, a.target.range)}, std::move(v), a.range, a.range, "+=");
    if (!v) return nullptr;
  }
  const ir::Value &x = *v.value;
  if (x.isTile && x.reducedAxis == -1) {
    diags.error(a.value->range,
                formatv("tile '{0}' is [{1}, {2}] ({3}), but this value is a whole {4} x {5} {7}; reduce it with "
                        "sum, max or min(..., axis = {6})",
                        dst.name, dst.rows, dst.cols, shape, x.layout ? x.layout->rows : x.acc->rows,
                        x.layout ? x.layout->cols : x.acc->cols, dst.axis, x.layout ? "tile" : "accumulator"));
    return nullptr;
  }
  if (x.isTile && x.reducedAxis != static_cast<int>(dst.axis)) {
    diags.error(a.value->range, formatv("tile '{0}' is [{1}, {2}] ({3}), but this value has one per {4}", dst.name,
                                        dst.rows, dst.cols, shape, x.reducedAxis == 1 ? "row" : "column"));
    return nullptr;
  }
  if (x.isTile && !takeDistribution(dst, x, a.value->range)) return nullptr;
  if (!dst.distributed()) {
    noDistribution(dst, a.target.range);
    return nullptr;
  }
  if (!fitInto(v, dst.dtype, nullptr, formatv("tile '{0}'", dst.name).str(), a.value->range)) return nullptr;
  auto st = std::make_unique<ir::ReducedAssign>(a.range);
  st->dst = &dst;
  st->value = std::move(v.value);
  return st;
}
