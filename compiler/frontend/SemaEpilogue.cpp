//===- SemaEpilogue.cpp - Loads in an accumulator's layout, saturating casts ===//
//
// The epilogue of a GEMM: a store whose value combines an accumulator with values loaded from global memory
// (`store C[block] = cast<f16>(c * alpha + load C[block] * beta);`). A load in such a store has no register tile to
// land in; it takes the accumulator's MFMA C/D layout, so each lane loads exactly the elements it holds. A window of
// a tensor with one row (`Bias: global f32[1, N]`, `load Bias[0, block.col]`) is that row repeated down the
// accumulator's rows, one with one column (`Scale: global f32[M, 1]`, `load Scale[block.row, 0]`) that column
// repeated along its columns: numpy's broadcasting of an extent of 1, decided by the tensor's declared shape. Also the
// mode of `cast<T, sat>(x)` (docs/language.md, "Epilogue operands").
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelSema.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::formatv;

const ir::AccTile *KernelSema::accumulatorIn(const ast::Expr &e) const {
  if (auto *n = dyn_cast<ast::NameExpr>(&e)) {
    auto it = accs.find(n->name);
    return it != accs.end() && it->second->instr ? it->second : nullptr;
  }
  auto first = [&](std::initializer_list<const ast::Expr *> parts) -> const ir::AccTile * {
    for (const ast::Expr *p : parts)
      if (p)
        if (const ir::AccTile *a = accumulatorIn(*p)) return a;
    return nullptr;
  };
  switch (e.kind) {
  case ast::Expr::Kind::Neg: return first({cast<ast::NegExpr>(e).operand.get()});
  case ast::Expr::Kind::Cast: return first({cast<ast::CastExpr>(e).operand.get()});
  case ast::Expr::Kind::Binary: {
    auto &b = cast<ast::BinaryExpr>(e);
    return first({b.lhs.get(), b.rhs.get()});
  }
  case ast::Expr::Kind::Call:
    for (const ast::ExprPtr &a : cast<ast::CallExpr>(e).args)
      if (const ir::AccTile *acc = accumulatorIn(*a)) return acc;
    return nullptr;
  default: return nullptr;
  }
}

bool KernelSema::loadFill(const ast::LoadExpr &l, const ir::Tensor &tensor, ir::Value &v) {
  if (!l.fill) return true;
  Checked fill = checkValue(*l.fill, nullptr);
  if (!fill || !notPredicate(fill, l.fill->range)) return false;
  if (fill.value->isTile) {
    diags.error(l.fill->range, "the value after 'else' fills every element outside the tensor; it must be the "
                               "same for every element (a literal or a scalar)");
    return false;
  }
  if (!fitInto(fill, tensor.dtype, nullptr, formatv("a load of {0} tensor '{1}'", name(tensor.dtype),
                                                     tensor.name).str(), l.fill->range))
    return false;
  v.operands.push_back(std::move(fill.value));
  return true;
}

namespace {
bool isOne(const ir::Extent &e) { return !e.isSymbol() && e.value == 1; }
bool isBlockWindow(const ast::Window &w) {
  auto *n = w.indices.size() == 1 ? dyn_cast<ast::NameExpr>(w.indices[0].get()) : nullptr;
  return n && n->name == "block";
}
} // namespace

Checked KernelSema::epilogueLoad(const ast::LoadExpr &l, ir::ValuePtr v, const ir::Tensor &tensor,
                                 const ir::AccTile &acc) {
  const ast::Window &w = l.window;
  bool oneRow = isOne(tensor.rows), oneCol = isOne(tensor.cols);
  if (oneRow && oneCol) {
    diags.error(w.range, formatv("tensor '{0}' is 1 x 1; in the epilogue of acc {1} a load is the accumulator's "
                                 "{2} x {3} window, one row of it ([1, N], repeated down the rows) or one column "
                                 "([M, 1], along the columns); pass a single value as a scalar parameter",
                                 tensor.name, acc.name, acc.rows, acc.cols));
    return {};
  }
  // The broadcast index must be 0: the window starts at the tensor's only row (or column).
  auto broadcastIndex = [&](bool row) {
    const char *what = row ? "row" : "column";
    std::string example = row ? formatv("load {0}[0, block.col]", tensor.name).str()
                              : formatv("load {0}[block.row, 0]", tensor.name).str();
    if (isBlockWindow(w)) {
      diags.error(w.range, formatv("tensor '{0}' has 1 {1}: in the epilogue of acc {2} its {1} is repeated {3} "
                                   "(a {4} window), so {0}[block] ({5} x {6}) does not fit; write {7}",
                                   tensor.name, what, acc.name,
                                   formatv(row ? "down the rows of {0}" : "along the columns of {0}", acc.name).str(),
                                   row ? formatv("1 x {0}", acc.cols).str() : formatv("{0} x 1", acc.rows).str(),
                                   kernel->gridTileRows, kernel->gridTileCols, example));
      return false;
    }
    const ir::Index &i = row ? *v->row : *v->col;
    if (constantValue(i) != std::optional<int64_t>(0)) {
      std::optional<int64_t> at = constantValue(i);
      diags.error(i.loc, formatv("tensor '{0}' has 1 {1}: in the epilogue of acc {2} that {1} is repeated {3}, so "
                                 "the window starts at {1} 0, the tensor's only one, {4}; write {5}",
                                 tensor.name, what, acc.name,
                                 row ? formatv("down the {0} rows of {1}", acc.rows, acc.name).str()
                                     : formatv("along the {0} columns of {1}", acc.cols, acc.name).str(),
                                 at ? formatv("not at {0} {1} (past the tensor's 1 {0})", what, *at).str()
                                    : std::string("not at an index that moves with the block or a loop"),
                                 example));
      return false;
    }
    return true;
  };
  if (oneRow && !broadcastIndex(true)) return {};
  if (oneCol && !broadcastIndex(false)) return {};
  if (!oneRow && !oneCol && !blockShapeMatches(w, acc.rows, acc.cols)) return {};
  if (!loadFill(l, tensor, *v)) return {};
  const_cast<ir::Tensor &>(tensor).isRead = true;
  v->kind = ir::Value::Kind::Load;
  v->tensor = &tensor;
  v->dtype = tensor.dtype;
  v->isTile = true;
  v->acc = &acc;
  v->reducedAxis = oneRow ? 0 : oneCol ? 1 : -1;
  return {std::move(v), false};
}

bool KernelSema::castMode(const ast::CastExpr &c, DType to, DType from) {
  if (c.mode.name.empty()) return true;
  if (c.mode.name != "sat") {
    diags.error(c.mode.range, formatv("unknown cast mode '{0}'; cast<{1}, sat>(x) saturates to {1}'s finite range, "
                                      "cast<{1}>(x) rounds without it", c.mode.name, name(to)));
    return false;
  }
  bool narrowFloat = to == DType::F16 || to == DType::BF16 || to == DType::FP8 || to == DType::BF8;
  if (!narrowFloat) {
    diags.error(c.mode.range, formatv("cast<{0}, sat>: saturation applies to the narrow float dtypes f16, bf16, fp8 "
                                      "and bf8, whose range is smaller than f32's; {0} is not one",
                                      name(to)));
    return false;
  }
  if (!info(from).isFloat) {
    diags.error(c.mode.range, formatv("cast<{0}, sat> converts a floating-point value; this one is {1} (convert "
                                      "with cast<f32>(...) first)", name(to), name(from)));
    return false;
  }
  return true;
}
