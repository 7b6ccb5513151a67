//===- SemaExpr.cpp - Element values and index expressions ------------------===//
//
// The expressions inside a kernel's statements. Windows and indices (integer arithmetic on dimensions, i32 scalars,
// loop variables and the block's origin) become ir::Index; element values become ir::Value, type-checked on the way:
// literals take their dtype from context, operands agree in dtype and distribution, a load follows the distribution
// of the tile it lands in. Messages carry the arithmetic that decided them.
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelSema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::formatv;

//===--- Windows and index expressions ---===//

bool KernelSema::window(const ast::Window &w, const ir::Tensor *&tensor, ir::IndexPtr &row, ir::IndexPtr &col) {
  auto it = tensors.find(w.tensor.name);
  if (it == tensors.end()) {
    if (!poisoned.count(w.tensor.name))
      diags.error(w.tensor.range, formatv("'{0}' is not a tensor parameter{1}", w.tensor.name,
                                          suggest(w.tensor.name, tensorNames())));
    return false;
  }
  tensor = it->second;
  return windowOfRank(w, *tensor, row, col);
}

std::optional<int64_t> KernelSema::constantValue(const ir::Index &i) {
  if (i.kind == ir::Index::Kind::Const) return i.value;
  if (!i.isBinary()) return std::nullopt;
  std::optional<int64_t> l = constantValue(*i.lhs), r = constantValue(*i.rhs);
  int64_t out = 0;
  if (!l || !r) return std::nullopt;
  switch (i.kind) {
  case ir::Index::Kind::Add: return __builtin_add_overflow(*l, *r, &out) ? std::nullopt : std::optional(out);
  case ir::Index::Kind::Sub: return __builtin_sub_overflow(*l, *r, &out) ? std::nullopt : std::optional(out);
  case ir::Index::Kind::Mul: return __builtin_mul_overflow(*l, *r, &out) ? std::nullopt : std::optional(out);
  case ir::Index::Kind::Div: return *r == 0 || (*r == -1 && *l == INT64_MIN) ? std::nullopt : std::optional(*l / *r);
  case ir::Index::Kind::Rem: return *r == 0 || (*r == -1 && *l == INT64_MIN) ? std::nullopt : std::optional(*l % *r);
  default: return std::nullopt;
  }
}

bool KernelSema::blockShapeMatches(const ast::Window &w, unsigned rows, unsigned cols) {
  struct { unsigned rows, cols; } tile{rows, cols};
  auto *n = w.indices.size() == 1 ? dyn_cast<ast::NameExpr>(w.indices[0].get()) : nullptr;
  if (!n || n->name != "block" || !kernel->gridTensor) return true;
  if (tile.rows == kernel->gridTileRows && tile.cols == kernel->gridTileCols) return true;
  if (kernel->gridWholeRows) {
    diags.error(w.range, formatv("{0}[block] would be {1} whole rows of {2} columns, which no tile holds; walk the "
                                 "columns in a loop and name the window: 'for c in 0 .. {2} step {3} {{ ... "
                                 "{0}[block.row, c] ... }'",
                                 w.tensor.name, kernel->gridTileRows, kernel->gridTensor->cols.text(), tile.cols));
    return false;
  }
  if (kernel->gridTensor->rank == 1 || tensors.lookup(w.tensor.name)->rank == 1)
    return blockElementsMatch(w, tile.rows * tile.cols);
  diags.error(w.range, formatv("{0}[block] is the workgroup's {1} x {2} block of the grid, but the tile is {3} x "
                               "{4}; for a {3} x {4} window at the block's origin write {0}[block.row, block.col]",
                               w.tensor.name, kernel->gridTileRows, kernel->gridTileCols, tile.rows, tile.cols));
  return false;
}

ir::IndexPtr KernelSema::blockIndex(ir::Index::Kind kind, llvm::SMRange loc) {
  auto i = std::make_unique<ir::Index>();
  i->kind = kind;
  i->loc = loc;
  return i;
}

ir::IndexPtr KernelSema::index(const ast::Expr &e) {
  auto out = std::make_unique<ir::Index>();
  out->loc = e.range;
  switch (e.kind) {
  case ast::Expr::Kind::Int:
    out->kind = ir::Index::Kind::Const;
    out->value = cast<ast::IntExpr>(e).value;
    return out;
  case ast::Expr::Kind::Member: {
    auto &m = cast<ast::MemberExpr>(e);
    if (m.base.name == "block" && m.member.name == "batch") {
      diags.error(e.range, "block.batch is the workgroup's matrix of the batch; it is only the first index of a window "
                           "of a 3-D tensor ([block.batch, row, col])");
      return nullptr;
    }
    if (m.base.name != "block" || (m.member.name != "row" && m.member.name != "col")) {
      diags.error(e.range, formatv("unknown index '{0}.{1}'; the block's origin is block.row and block.col",
                                   m.base.name, m.member.name));
      return nullptr;
    }
    out->kind = m.member.name == "row" ? ir::Index::Kind::BlockRow : ir::Index::Kind::BlockCol;
    return out;
  }
  case ast::Expr::Kind::Name: {
    const std::string &n = cast<ast::NameExpr>(e).name;
    for (const auto &l : llvm::reverse(loops))
      if (l.name == n) {
        out->kind = ir::Index::Kind::LoopVar;
        out->name = n;
        out->value = l.divisor;
        return out;
      }
    if (auto it = scalars.find(n); it != scalars.end() && it->second->dtype == DType::I32) {
      out->kind = ir::Index::Kind::Scalar;
      out->name = n;
      return out;
    }
    if (poisoned.count(n)) return nullptr;
    if (n == "block")
      diags.error(e.range, "'block' names the whole window ([block]); in an index use block.row or block.col");
    else if (declared.count(n))
      diags.error(e.range, formatv("'{0}' cannot be used as an index; indices are i32 dimensions, i32 scalars, "
                                   "loop variables, block.row and block.col", n));
    else
      diags.error(e.range, formatv("unknown name '{0}'{1}", n, suggest(n, knownNames())));
    return nullptr;
  }
  case ast::Expr::Kind::Neg: {
    out->kind = ir::Index::Kind::Sub;
    out->lhs = std::make_unique<ir::Index>();
    out->lhs->kind = ir::Index::Kind::Const;
    out->rhs = index(*cast<ast::NegExpr>(e).operand);
    return out->rhs ? std::move(out) : nullptr;
  }
  case ast::Expr::Kind::Binary: {
    auto &b = cast<ast::BinaryExpr>(e);
    static const ir::Index::Kind kinds[] = {ir::Index::Kind::Add, ir::Index::Kind::Sub, ir::Index::Kind::Mul,
                                            ir::Index::Kind::Div, ir::Index::Kind::Rem};
    if (b.op >= ast::BinaryOp::Eq) {
      diags.error(b.opRange, formatv("'{0}' is not allowed in an index; comparisons are allowed in 'assume' and as "
                                     "the condition of select(...)", spelling(b.op)));
      return nullptr;
    }
    out->kind = kinds[static_cast<int>(b.op)];
    out->lhs = index(*b.lhs);
    out->rhs = index(*b.rhs);
    if (!out->lhs || !out->rhs) return nullptr;
    if ((b.op == ast::BinaryOp::Div || b.op == ast::BinaryOp::Rem) && constantValue(*out->rhs) == 0) {
      diags.error(b.opRange, formatv("division by zero: the right operand of '{0}' is 0", spelling(b.op)));
      return nullptr;
    }
    return out;
  }
  default:
    diags.error(e.range, "not an index expression; indices are integer arithmetic on dimensions, i32 scalars, "
                         "loop variables, block.row and block.col");
    return nullptr;
  }
}

//===--- Element values ---===//

std::string KernelSema::describe(const ir::Value &v) {
  switch (v.kind) {
  case ir::Value::Kind::TileRef: return formatv("{0} tile '{1}'", name(v.dtype), v.tile->name);
  case ir::Value::Kind::ScalarRef: return formatv("{0} scalar '{1}'", name(v.dtype), v.scalar->name);
  case ir::Value::Kind::Load: return formatv("load of {0} tensor '{1}'", name(v.dtype), v.tensor->name);
  case ir::Value::Kind::ReducedRef: return formatv("{0} tile '{1}'", name(v.dtype), v.reduced->name);
  case ir::Value::Kind::ElementIndex:
    return formatv("{0}({1}), an i32 tile expression", v.indexAxis == 0 ? "row" : "col",
                   v.tile ? v.tile->name : v.acc->name);
  case ir::Value::Kind::AccRef: return formatv("acc {0}", v.acc->name);
  case ir::Value::Kind::IndexRef: return "i32 index";
  default: return formatv("{0} {1}", name(v.dtype), v.isTile ? "tile expression" : "scalar expression");
  }
}

std::string KernelSema::describeLayout(const Layout &l) {
  return formatv("{0}{1} vec {2}, waves [{3}, {4}], X0 {5}, R {6}", l.oneD ? "1-D " : "", patternName(l.pattern),
                 l.vec, l.wavesY, l.wavesX, l.lanesX, l.rowsPerLane);
}

bool KernelSema::coerce(ir::Value &v, DType dt) {
  v.dtype = dt;
  if (!info(dt).hasArithmetic) {
    diags.error(v.loc, formatv("literals cannot be {0}; write cast<{0}>(...) of an f32 value", name(dt)));
    return false;
  }
  if (v.kind == ir::Value::Kind::Const && !info(dt).isFloat && v.spelling.find_first_of(".eE") != std::string::npos) {
    diags.error(v.loc, formatv("float literal {0} used as {1}", v.spelling, name(dt)));
    return false;
  }
  if (v.kind == ir::Value::Kind::Binary && !operatorFits(v.op, dt, *v.operands[1], v.loc)) return false;
  if (v.kind == ir::Value::Kind::Unary && ir::isElementFunction(v.op) && v.op != ir::ValueOp::Abs &&
      v.op != ir::ValueOp::Relu &&
      !info(dt).isFloat) {
    diags.error(v.loc, formatv("{0} needs a floating-point operand, but this literal expression is used as {1}",
                               spelling(v.op), name(dt)));
    return false;
  }
  if (v.kind == ir::Value::Kind::Const && v.spelling == "inf" && !info(dt).isFloat) {
    diags.error(v.loc, formatv("float literal inf used as {0}", name(dt)));
    return false;
  }
  bool ok = true;
  // A select's condition keeps the dtype of its own operands.
  for (size_t i = v.kind == ir::Value::Kind::Select ? 1 : 0; i < v.operands.size(); ++i) ok &= coerce(*v.operands[i], dt);
  return ok;
}

bool KernelSema::fitInto(Checked &v, DType dt, const Layout *layout, const std::string &what, llvm::SMRange range) {
  if (!notPredicate(v, range)) return false;
  if (v.untyped) return coerce(*v.value, dt);
  if (v.value->dtype != dt) {
    diags.error(range, formatv("cannot put {0} values into {1} {2}; convert with cast<{1}>(...)",
                               name(v.value->dtype), name(dt), what));
    return false;
  }
  if (layout && v.value->acc) {
    diags.error(range, formatv("{0} is distributed as {1}, but the value is in acc {2}'s MFMA layout; accumulators "
                               "are stored straight to memory", what, describeLayout(*layout), v.value->acc->name));
    return false;
  }
  if (layout && v.value->layout && !layout->sameMapping(*v.value->layout)) {
    diags.error(range, formatv("{0} is distributed as {1}, but the value as {2}; elementwise operations need the "
                               "same distribution", what, describeLayout(*layout), describeLayout(*v.value->layout)));
    return false;
  }
  return true;
}

bool KernelSema::operatorFits(ir::ValueOp op, DType dt, const ir::Value &rhs, llvm::SMRange at) {
  if (!info(dt).hasArithmetic) {
    diags.error(at, formatv("{0} has no arithmetic; convert with cast<f32>(...) first", name(dt)));
    return false;
  }
  if (op == ir::ValueOp::Rem && info(dt).isFloat) {
    diags.error(at, formatv("'%' needs integer operands; {0} is a floating-point dtype", name(dt)));
    return false;
  }
  if ((op == ir::ValueOp::Div || op == ir::ValueOp::Rem) && !info(dt).isFloat &&
      rhs.kind == ir::Value::Kind::Const && rhs.constant == 0) {
    diags.error(at, formatv("{0} division by zero: the right operand of '{1}' is 0", name(dt), spelling(op)));
    return false;
  }
  return true;
}

bool KernelSema::sameAcc(const ir::AccTile &a, const ir::AccTile &b) {
  return a.instr == b.instr && a.rows == b.rows && a.cols == b.cols && a.wavesY == b.wavesY && a.wavesX == b.wavesX;
}

std::string KernelSema::accRowsText(const ir::AccTile &a) {
  return formatv("{0} rows over waves [{1}, {2}] in blocks of {3}", a.rows, a.wavesY, a.wavesX,
                 a.instr ? a.instr->m : 0).str();
}

bool KernelSema::sameAccRows(const ir::AccTile &a, const ir::AccTile &b) {
  return a.instr && b.instr && a.instr->m == b.instr->m && a.rows == b.rows && a.wavesY == b.wavesY &&
         a.wavesX == b.wavesX;
}

Checked KernelSema::combine(ir::ValueOp op, Checked lhs, Checked rhs, llvm::SMRange range, llvm::SMRange opRange,
                            llvm::StringRef shown) {
  ir::Value &l = *lhs.value, &r = *rhs.value;
  if (shown.empty()) shown = spelling(op);
  if (!notPredicate(lhs, l.loc) || !notPredicate(rhs, r.loc)) return {};
  if (!lhs.untyped && !rhs.untyped && l.dtype != r.dtype) {
    diags.error(opRange, formatv("operands of '{0}' differ in dtype: {1} and {2}; convert one with cast<..>(...)",
                                 shown, describe(l), describe(r)));
    return {};
  }
  // With one typed operand the literal side takes its dtype; untyped ones are checked when they get a dtype.
  if (!lhs.untyped || !rhs.untyped) {
    DType dt = lhs.untyped ? r.dtype : l.dtype;
    if (!operatorFits(op, dt, r, opRange) || (lhs.untyped && !coerce(l, dt)) || (rhs.untyped && !coerce(r, dt)))
      return {};
  }
  if (!lhs.untyped && !rhs.untyped) {
    // A value reduced along an accumulator's rows applies to every accumulator whose lanes hold the same rows.
    bool rowsOnly = l.acc && r.acc && (l.reducedAxis == 1 || r.reducedAxis == 1);
    if (rowsOnly && !sameAccRows(*l.acc, *r.acc)) {
      diags.error(opRange, formatv("operands of '{0}' are in the C/D layouts of acc {1} and acc {2}, whose lanes hold "
                                   "different rows: {3} and {4}; a value per row applies to accumulators of the same "
                                   "rows, waves and instruction block height",
                                   shown, l.acc->name, r.acc->name, accRowsText(*l.acc), accRowsText(*r.acc)));
      return {};
    }
    if ((l.acc && r.layout) || (l.layout && r.acc) ||
        (l.acc && r.acc && !(rowsOnly ? sameAccRows(*l.acc, *r.acc) : sameAcc(*l.acc, *r.acc)))) {
      diags.error(opRange, formatv("operands of '{0}' are distributed differently: {1} and {2} (an accumulator "
                                   "keeps its MFMA C/D layout{3})", shown, describe(l), describe(r),
                                   (l.layout && l.kind == ir::Value::Kind::TileRef) ||
                                           (r.layout && r.kind == ir::Value::Kind::TileRef)
                                       ? "; a tensor combined with an accumulator is loaded in the store itself, "
                                         "e.g. 'c + load X[block]', where the load takes the accumulator's layout"
                                       : ""));
      return {};
    }
    if (l.layout && r.layout && !l.layout->sameMapping(*r.layout)) {
      diags.error(opRange, formatv("operands of '{0}' are distributed differently: {1} is {2}, {3} is {4}",
                                   shown, describe(l), describeLayout(*l.layout), describe(r),
                                   describeLayout(*r.layout)));
      return {};
    }
  }
  auto v = std::make_unique<ir::Value>();
  v->kind = ir::Value::Kind::Binary;
  v->op = op;
  v->dtype = l.dtype;
  v->isTile = l.isTile || r.isTile;
  v->reducedAxis = resultAxis({&l, &r});
  // A reduced value broadcasts against a full tile of its distribution: the result has the full tile's.
  v->layout = l.layout && (l.reducedAxis == v->reducedAxis || !r.layout) ? l.layout : r.layout;
  v->acc = l.acc && (l.reducedAxis == v->reducedAxis || !r.acc) ? l.acc : r.acc;
  v->loc = range;
  bool untyped = lhs.untyped && rhs.untyped;
  v->operands.push_back(std::move(lhs.value));
  v->operands.push_back(std::move(rhs.value));
  return {std::move(v), untyped};
}

Checked KernelSema::checkValue(const ast::Expr &e, const Layout *context) {
  auto v = std::make_unique<ir::Value>();
  v->loc = e.range;
  switch (e.kind) {
  case ast::Expr::Kind::Int:
  case ast::Expr::Kind::Float: {
    v->kind = ir::Value::Kind::Const;
    if (auto *i = dyn_cast<ast::IntExpr>(&e)) v->constant = double(i->value), v->spelling = std::to_string(i->value);
    else v->constant = cast<ast::FloatExpr>(e).value, v->spelling = cast<ast::FloatExpr>(e).spelling;
    return {std::move(v), true};
  }
  case ast::Expr::Kind::Name: return nameValue(cast<ast::NameExpr>(e), std::move(v));
  case ast::Expr::Kind::Member: {
    // block.row and block.col as uniform i32 values (masks such as 'select(block.row + row(s) < M, s, 0.0)').
    v->kind = ir::Value::Kind::IndexRef;
    v->dtype = DType::I32;
    v->row = index(e);
    if (!v->row) return {};
    return {std::move(v), false};
  }
  case ast::Expr::Kind::Neg: {
    Checked o = checkValue(*cast<ast::NegExpr>(e).operand, context);
    if (!o || !notPredicate(o, o.value->loc)) return {};
    if (!o.untyped && !info(o.value->dtype).hasArithmetic) {
      diags.error(e.range, formatv("{0} has no arithmetic; convert with cast<f32>(...) first", name(o.value->dtype)));
      return {};
    }
    return unaryOf(ir::ValueOp::Neg, v->loc, std::move(o));
  }
  case ast::Expr::Kind::Binary: {
    auto &b = cast<ast::BinaryExpr>(e);
    if (b.op >= ast::BinaryOp::Eq) return comparison(b, context);
    Checked l = checkValue(*b.lhs, context), r = checkValue(*b.rhs, context);
    if (!l || !r) return {};
    static const ir::ValueOp ops[] = {ir::ValueOp::Add, ir::ValueOp::Sub, ir::ValueOp::Mul, ir::ValueOp::Div,
                                      ir::ValueOp::Rem};
    return combine(ops[static_cast<int>(b.op)], std::move(l), std::move(r), e.range, b.opRange);
  }
  case ast::Expr::Kind::Call: return call(cast<ast::CallExpr>(e), context);
  case ast::Expr::Kind::Cast: {
    auto &c = cast<ast::CastExpr>(e);
    std::optional<DType> dt = dtype(c.dtype);
    Checked o = checkValue(*c.operand, context);
    if (!dt || !o || !notPredicate(o, c.operand->range)) return {};
    for (DType d : {*dt, o.value->dtype})
      if (!info(d).convertible) {
        diags.error(e.range, formatv("{0} has no conversions: {1} are only loaded, staged in LDS and multiplied by "
                                     "a scaled mma (docs/mx.md)", name(d),
                                     d == DType::E8M0    ? "block scales"
                                     : d == DType::FP4X2 ? "packed fp4 values"
                                                         : "packed 6-bit values"));
        return {};
      }
    if (o.untyped && !coerce(*o.value, info(*dt).hasArithmetic ? *dt : DType::F32)) return {};
    if (!castMode(c, *dt, o.value->dtype)) return {};
    v->kind = ir::Value::Kind::Cast;
    v->saturate = !c.mode.name.empty();
    v->dtype = *dt;
    v->isTile = o.value->isTile;
    v->layout = o.value->layout;
    v->reducedAxis = o.value->reducedAxis;
    v->acc = o.value->acc;
    v->operands.push_back(std::move(o.value));
    return {std::move(v), false};
  }
  case ast::Expr::Kind::Load: {
    auto &l = cast<ast::LoadExpr>(e);
    const ir::Tensor *tensor = nullptr;
    if (!window(l.window, tensor, v->row, v->col)) return {};
    if (!context && epilogueAcc) return epilogueLoad(l, std::move(v), *tensor, *epilogueAcc);
    if (!context) {
      if (!missingTarget)
        diags.error(e.range, "a load needs a register tile to land in; assign it to a tile first, e.g. "
                             "'t = load X[block];'");
      return {};
    }
    if (!windowFitsTile(l.window, *tensor, *context)) return {};
    if (!blockShapeMatches(l.window, context->oneD ? 1 : context->rows,
                           context->oneD ? context->rows * context->cols : context->cols))
      return {};
    if (context->vec * sizeOf(tensor->dtype) > target.maxBytesPerLaneAccess) {
      // The load follows its destination's distribution; with a wider dtype than the destination it may not fit.
      diags.error(e.range, formatv("this load of {0} tensor '{1}' follows its destination's vec {2}: {2} x {0} "
                                   "({3} B) = {4} B exceeds the {5} bytes one lane can load; give the destination "
                                   "vec {6} or load into {7} {0} tile first",
                                   name(tensor->dtype), tensor->name, context->vec, sizeOf(tensor->dtype),
                                   context->vec * sizeOf(tensor->dtype), target.maxBytesPerLaneAccess,
                                   llvm::bit_floor(target.maxBytesPerLaneAccess / sizeOf(tensor->dtype)),
                                   name(tensor->dtype).front() == 'b' ? "a" : "an"));
      return {};
    }
    if (!loadFill(l, *tensor, *v)) return {};
    const_cast<ir::Tensor *>(tensor)->isRead = true;
    v->kind = ir::Value::Kind::Load;
    v->tensor = tensor;
    v->dtype = tensor->dtype;
    v->isTile = true;
    v->layout = context;
    return {std::move(v), false};
  }
  }
  return {};
}

void KernelSema::readTile(const std::string &n, llvm::SMRange at) {
  if (assigned.count(n) || !warnedUnassigned.insert(n).second) return;
  unassignedReads.emplace_back(n, at);
}

Checked KernelSema::nameValue(const ast::NameExpr &n, ir::ValuePtr v) {
  if (auto it = tiles.find(n.name); it != tiles.end()) {
    used.insert(n.name);
    readTile(n.name, n.range);
    v->kind = ir::Value::Kind::TileRef;
    v->tile = it->second;
    v->dtype = it->second->dtype;
    v->isTile = true;
    v->layout = &it->second->layout;
    return {std::move(v), false};
  }
  if (auto it = accs.find(n.name); it != accs.end()) {
    used.insert(n.name);
    if (accBeforeMMA(*it->second, n.range)) return {}; // (nothing more when its mma failed before choosing)
    v->kind = ir::Value::Kind::AccRef;
    v->acc = it->second;
    v->dtype = it->second->dtype;
    v->isTile = true;
    return {std::move(v), false};
  }
  if (reducedTiles.count(n.name)) return reducedValue(n, std::move(v));
  if (ldsBuffers.count(n.name)) {
    diags.error(n.range, formatv("lds {0} is read by mma(...) or into a register tile of its own ('t = {0};' or "
                                 "'t = transpose({0});'); element values come from register tiles, reduced tiles and "
                                 "accumulators",
                                 n.name));
    return {};
  }
  if (auto it = scalars.find(n.name); it != scalars.end()) {
    v->kind = ir::Value::Kind::ScalarRef;
    v->scalar = it->second;
    v->dtype = it->second->dtype;
    return {std::move(v), false};
  }
  if (poisoned.count(n.name)) return {};
  if (n.name == "inf") { // not a declared name: the float literal infinity
    v->kind = ir::Value::Kind::Const;
    v->constant = __builtin_inf();
    v->spelling = "inf";
    return {std::move(v), true};
  }
  if (tensors.count(n.name))
    diags.error(n.range, formatv("tensor '{0}' is read with 'load {0}[...]'", n.name));
  else if (isLoopVar(n.name)) {
    // A loop variable as a uniform i32 value (masks such as 'select(t + col(s) < T, s, -inf)').
    v->kind = ir::Value::Kind::IndexRef;
    v->dtype = DType::I32;
    v->row = index(n);
    if (!v->row) return {};
    return {std::move(v), false};
  } else
    diags.error(n.range, formatv("unknown name '{0}'{1}", n.name, suggest(n.name, knownNames())));
  return {};
}

Checked KernelSema::call(const ast::CallExpr &c, const Layout *context) {
  const std::string &f = c.callee.name;
  if (f == "mma" || f == "transpose") {
    diags.error(c.callee.range, "mma(...) is only used as 'acc += mma(A, B);' with A and B LDS buffers "
                                "(transpose(B) for a B stored N x K)");
    return {};
  }
  if (std::optional<ir::ReduceOp> r = reduction(c)) return foldedReduction(c, *r);
  if (f == "row" || f == "col") return elementIndex(c);
  static const std::pair<llvm::StringRef, ir::ValueOp> functions[] = {
      {"exp", ir::ValueOp::Exp},   {"exp2", ir::ValueOp::Exp2},   {"log", ir::ValueOp::Log},
      {"sqrt", ir::ValueOp::Sqrt}, {"rsqrt", ir::ValueOp::Rsqrt}, {"abs", ir::ValueOp::Abs},
      {"relu", ir::ValueOp::Relu}, {"gelu", ir::ValueOp::Gelu},   {"silu", ir::ValueOp::Silu}};
  for (auto [fname, op] : functions)
    if (f == fname) return elementFunction(c, op, context);
  if (f == "select") return select(c, context);
  if (f != "max" && f != "min") {
    diags.error(c.callee.range,
                formatv("unknown function '{0}'; element functions are max, min, exp, exp2, log, sqrt, rsqrt, abs, "
                        "relu, gelu, silu and select, element indices row and col, reductions sum, max and min with "
                        "an axis{1}",
                        f, suggest(f, {"max", "min", "exp", "exp2", "log", "sqrt", "rsqrt", "abs", "relu", "gelu",
                                       "silu", "select", "row", "col", "sum"})));
    return {};
  }
  for (const ast::Ident &n : c.argNames)
    if (!n.name.empty()) {
      diags.error(n.range, formatv("{0} takes no argument named '{1}'; the reduction is {0}(x, axis = 0 or 1)", f,
                                   n.name));
      return {};
    }
  if (c.args.size() != 2) {
    diags.error(c.range, formatv("{0} takes 2 arguments; it has {1}", f, c.args.size()));
    return {};
  }
  Checked l = checkValue(*c.args[0], context), r = checkValue(*c.args[1], context);
  if (!l || !r) return {};
  return combine(f == "max" ? ir::ValueOp::Max : ir::ValueOp::Min, std::move(l), std::move(r), c.range,
                 c.callee.range);
}
