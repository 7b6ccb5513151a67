//===- SemaReduce.cpp - Reductions and the tiles that hold them -------------===//
//
// `tile s: f32[64, 1];` (no distribution) declares a tile that receives reductions; `s = sum(x, axis = 1);` reduces
// the columns of each row of the register tile value x into it ([rows, 1]), `axis = 0` the rows of each column
// ([1, cols]); `s += ...` adds to it (it starts at zero). The reduced tile takes x's distribution with the axis
// collapsed (ir::ReducedTile), so later uses of s broadcast against tiles of x's distribution. How the reduction
// runs (in a lane, across lanes, across waves) is decided later by passes/ReductionStrategy.
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelSema.h"

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

Checked KernelSema::reducedValue(const ast::NameExpr &n, ir::ValuePtr v) {
  const ir::ReducedTile &r = *reducedTiles.lookup(n.name);
  used.insert(n.name);
  if (!r.source) {
    diags.error(n.range, formatv("tile '{0}' is read before any reduction is assigned to it; it takes its "
                                 "distribution from the first one ('{0} = sum(x, axis = {1});')",
                                 n.name, r.axis));
    return {};
  }
  v->kind = ir::Value::Kind::ReducedRef;
  v->reduced = &r;
  v->dtype = r.dtype;
  v->isTile = true;
  v->layout = r.source;
  v->reducedAxis = static_cast<int>(r.axis);
  return {std::move(v), false};
}

ir::StmtPtr KernelSema::reducedAssign(const ast::AssignStmt &a, ir::ReducedTile &dst) {
  used.insert(dst.name);
  assigned.insert(dst.name);
  auto *call = dyn_cast<ast::CallExpr>(a.value.get());
  std::optional<ir::ReduceOp> op = call ? reduction(*call) : std::nullopt;
  if (!op) {
    diags.error(a.value->range, formatv("tile '{0}' has no distribution of its own: it is assigned a reduction, "
                                        "'{0} = sum(x, axis = {1});' (or max, min), or accumulates one with '+='",
                                        dst.name, dst.axis));
    return nullptr;
  }
  llvm::StringRef f = ir::spelling(*op);
  // Arguments: one value, then `axis = 0 or 1`.
  const ast::Expr *value = nullptr, *axisArg = nullptr;
  for (size_t i = 0; i < call->args.size(); ++i) {
    const ast::Ident &n = call->argNames[i];
    if (n.name.empty() && !value && !axisArg) value = call->args[i].get();
    else if (n.name == "axis" && !axisArg) axisArg = call->args[i].get();
    else {
      diags.error(n.name.empty() ? call->args[i]->range : n.range,
                  formatv("{0} takes a value and 'axis = 0' (reduce the rows of each column) or 'axis = 1' (reduce "
                          "the columns of each row): {0}(x, axis = 1)", f));
      return nullptr;
    }
  }
  if (!value || !axisArg) {
    diags.error(call->range, formatv("{0} takes a value and its axis: {0}(x, axis = 1) reduces each row to one "
                                     "value, {0}(x, axis = 0) each column", f));
    return nullptr;
  }
  auto *axisLit = dyn_cast<ast::IntExpr>(axisArg);
  if (!axisLit || axisLit->value > 1) {
    diags.error(axisArg->range, "the axis of a reduction is the literal 0 (reduce the rows: one row of results, "
                                "[1, cols]) or 1 (reduce the columns: one column of results, [rows, 1])");
    return nullptr;
  }
  unsigned axis = static_cast<unsigned>(axisLit->value);
  Checked v = checkValue(*value, nullptr);
  if (!v || !notPredicate(v, value->range)) return nullptr;
  ir::Value &x = *v.value;
  if (v.untyped || !x.isTile) {
    diags.error(value->range, formatv("{0} reduces a register tile value; this expression is the same for every "
                                      "element", f));
    return nullptr;
  }
  if (x.acc) {
    diags.error(value->range, formatv("{0} of an accumulator is not supported: its values are in the MFMA C/D layout; "
                                      "reduce a register tile", f));
    return nullptr;
  }
  if (x.reducedAxis != -1) {
    diags.error(value->range, formatv("{0} of a value that is already reduced along axis {1}", f, x.reducedAxis));
    return nullptr;
  }
  if (!info(x.dtype).hasArithmetic || x.dtype == DType::I8) {
    diags.error(value->range, formatv("{0} takes f32, f16, bf16 or i32 values; {1} is {2}; convert with "
                                      "cast<{3}>(...) first",
                                      f, describe(x), name(x.dtype), x.dtype == DType::I8 ? "i32" : "f32"));
    return nullptr;
  }
  const Layout &l = *x.layout;
  if (l.oneD) {
    diags.error(a.value->range, formatv("{0} of a 1-D tile: reductions run over the rows or columns of a 2-D tile; "
                                        "view the data as [rows, cols] in a 2-D tensor", f));
    return nullptr;
  }
  unsigned rows = axis == 1 ? l.rows : 1, cols = axis == 1 ? 1 : l.cols;
  if (dst.rows == 1 && dst.cols == 1 && !dst.source) dst.axis = axis;
  if (dst.rows != rows || dst.cols != cols || dst.axis != axis) {
    diags.error(a.value->range, formatv("{0}(..., axis = {1}) of a {2} x {3} tile is [{4}, {5}], but tile '{6}' is "
                                        "[{7}, {8}]",
                                        f, axis, l.rows, l.cols, rows, cols, dst.name, dst.rows, dst.cols));
    return nullptr;
  }
  if (x.dtype != dst.dtype) {
    diags.error(a.value->range, formatv("cannot put {0} values into {1} tile '{2}'; convert with cast<{1}>(...)",
                                        name(x.dtype), name(dst.dtype), dst.name));
    return nullptr;
  }
  if (dst.source && !dst.source->sameMapping(l)) {
    diags.error(a.value->range, formatv("tile '{0}' holds reductions of {1}, but this value is distributed as {2}; "
                                        "one reduced tile keeps one distribution",
                                        dst.name, describeLayout(*dst.source), describeLayout(l)));
    return nullptr;
  }
  dst.source = &l;
  auto st = std::make_unique<ir::Reduce>(a.range);
  st->dst = &dst;
  st->op = *op;
  st->axis = axis;
  st->accumulate = a.accumulate;
  st->value = std::move(v.value);
  return st;
}
