//===- SemaTensors.cpp - 1-D, batched and strided tensors, and 1-D tiles ----===//
//
// The shapes a tensor parameter may have ([N], [M, N], [B, M, N], with an optional row `stride`), the grid over each
// of them ([c], [r, c], [1, r, c]: a workgroup works in one matrix of a batch), the windows of each rank, and 1-D
// register tiles (`tile x: f32[2048] thread_raked;`), which are solved as a row-major view of rows of 64 lanes x
// vec elements. Each message carries the arithmetic behind it.
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelSema.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::sema;
using llvm::dyn_cast;
using llvm::formatv;

namespace {

/// "[N]", "[M, N]", "[B, M, N]" as written.
std::string shapeOf(const ast::Param &p) {
  std::string out = "[";
  for (size_t i = 0; i < p.dims.size(); ++i)
    out += (i ? ", " : "") + (p.dims[i].isSymbol() ? p.dims[i].symbol : std::to_string(p.dims[i].value));
  return out + "]";
}

const char *rankName(unsigned rank) { return rank == 1 ? "1-D" : rank == 2 ? "2-D" : "3-D"; }

} // namespace

//===--- Tensor parameters ---===//

std::unique_ptr<ir::Tensor> KernelSema::tensorParam(const ast::Param &p,
                                                    std::vector<std::pair<std::string, llvm::SMRange>> &dims) {
  if (p.dims.empty() || p.dims.size() > 3) {
    diags.error(p.range, formatv("tensor '{0}' has {1} dimensions; tensors are [N] (1-D), [rows, columns] (2-D) or "
                                 "[batch, rows, columns] (3-D)", p.name.name, p.dims.size()));
    return nullptr;
  }
  bool ok = true;
  auto extent = [&](const ast::Dim &d, const char *what) {
    ir::Extent e;
    if (d.isSymbol()) {
      e.symbol = d.symbol;
      dims.emplace_back(d.symbol, d.range);
    } else if (d.value <= 0) {
      diags.error(d.range, formatv("a tensor {0} must be positive", what));
      ok = false;
    } else {
      e.value = d.value;
    }
    return e;
  };
  auto t = std::make_unique<ir::Tensor>();
  t->rank = static_cast<unsigned>(p.dims.size());
  size_t at = 0;
  if (t->rank == 3) t->batch = extent(p.dims[at++], "dimension");
  if (t->rank >= 2) t->rows = extent(p.dims[at++], "dimension");
  else t->rows.value = 1; // a 1-D tensor is one row
  t->cols = extent(p.dims[at], "dimension");
  if (p.stride) {
    if (t->rank == 1) {
      diags.error(p.stride->range, formatv("tensor '{0}' is 1-D {1}: its elements are contiguous and it has no rows "
                                           "to stride; 'stride' belongs to 2-D and 3-D tensors",
                                           p.name.name, shapeOf(p)));
      ok = false;
    } else {
      t->stride = extent(*p.stride, "stride");
      if (ok && !t->stride->isSymbol() && !t->cols.isSymbol() && t->stride->value < t->cols.value) {
        diags.error(p.stride->range, formatv("tensor '{0}': stride {1} is less than its rows of {2} elements ({1} < "
                                             "{2}), so consecutive rows would overlap; the stride is the distance "
                                             "between row starts, at least the row's width",
                                             p.name.name, t->stride->value, t->cols.value));
        ok = false;
      }
    }
  }
  return ok ? std::move(t) : nullptr;
}

//===--- The grid ---===//

bool KernelSema::gridShape(const ast::GridStmt &g, const ir::Tensor &t) {
  const ast::Shape &s = g.shape;
  std::string example = t.rank == 1 ? "[1024]" : t.rank == 2 ? "[64, 64]" : "[1, 128, 128]";
  const char *form = t.rank == 1 ? "[elements]" : t.rank == 2 ? "[rows, cols]" : "[1, rows, cols]";
  if (s.dims.size() != t.rank) {
    diags.error(s.range, formatv("the grid tile has {0} dimension{1}, but '{2}' is {3} {4}: its grid tile is {5}, "
                                 "e.g. {6}{7}",
                                 s.dims.size(), s.dims.size() == 1 ? "" : "s", t.name, rankName(t.rank),
                                 t.shapeText(), form, example,
                                 t.rank == 3 ? " (a workgroup works on a block of one matrix; the batch is grid z)"
                                             : ""));
    return false;
  }
  bool ok = true, wholeRows = false;
  for (size_t i = 0; i < s.dims.size(); ++i) {
    const ast::IntLit &d = s.dims[i];
    llvm::StringRef symbol = i < g.symbols.size() ? llvm::StringRef(g.symbols[i]) : "";
    if (symbol.empty()) {
      if (d.value <= 0) diags.error(d.range, "the grid tile needs positive dimensions"), ok = false;
      continue;
    }
    // `[r, N]` with N the tensor's own column count: workgroups that own whole rows.
    if (i + 1 == s.dims.size() && t.rank >= 2 && t.cols.isSymbol() && t.cols.symbol == symbol) {
      wholeRows = true;
      continue;
    }
    diags.error(d.range,
                t.rank >= 2 && i + 1 == s.dims.size()
                    ? formatv("the grid tile's columns are a literal or '{0}', the column count of '{1}' {2} (each "
                              "workgroup then owns whole rows); '{3}' is not",
                              t.cols.text(), t.name, t.shapeText(), symbol)
                          .str()
                    : formatv("the grid tile's dimensions are literals{0}; '{1}' is a symbol",
                              t.rank >= 2 ? ", except that its columns may be the tensor's column count (whole rows)"
                                          : "",
                              symbol)
                          .str());
    ok = false;
  }
  if (!ok) return false;
  if (t.rank == 3 && s.dims[0].value != 1) {
    diags.error(s.dims[0].range, formatv("the grid tile's batch dimension is {0}; a workgroup works on one matrix of "
                                         "the batch, so it is 1: write [1, {1}, {2}] (the launcher runs the {3} "
                                         "matrices as grid z)",
                                         s.dims[0].value, s.dims[1].value,
                                         wholeRows ? t.cols.text() : std::to_string(s.dims[2].value), t.batch.text()));
    return false;
  }
  kernel->gridTensor = &t;
  kernel->batched = t.rank == 3;
  kernel->gridTileRows = t.rank == 1 ? 1 : static_cast<unsigned>(s.dims[s.dims.size() - 2].value);
  kernel->gridTileCols = static_cast<unsigned>(s.dims.back().value);
  kernel->gridWholeRows = wholeRows;
  return true;
}

void KernelSema::checkBatches() {
  const ir::Tensor *g = kernel->gridTensor;
  if (!g) return;
  for (const auto &t : kernel->tensors) {
    if (t->rank != 3) continue;
    if (g->rank != 3) {
      diags.error(t->loc, formatv("tensor '{0}' is 3-D {1}, but the grid runs over {2} tensor '{3}' {4}: grid over a "
                                  "3-D tensor ('grid over T tile [1, rows, cols];') so that each workgroup has a "
                                  "matrix of the batch",
                                  t->name, t->shapeText(), rankName(g->rank), g->name, g->shapeText()));
    }
  }
}

void KernelSema::checkBatchExtents() {
  const ir::Tensor *g = kernel->gridTensor;
  if (!g || g->rank != 3) return;
  for (const auto &t : kernel->tensors) {
    if (t->rank != 3 || t.get() == g) continue;
    unsigned G = t->batchGroup;
    // Shared by groups of G matrices: constant extents must say so; symbols are checked by the launcher.
    bool constants = !t->batch.isSymbol() && !g->batch.isSymbol();
    if (G == 1 ? t->batch.text() == g->batch.text() : !constants || t->batch.value * G == g->batch.value) continue;
    if (G == 1)
      diags.error(t->loc, formatv("tensor '{0}' has a batch of {1}, but the grid's tensor '{2}' has {3}; every 3-D "
                                  "tensor of a kernel has the grid's batch (workgroup z reads and writes matrix z of "
                                  "each), unless its windows name a group: [block.batch / G, row, col] reads matrix "
                                  "z / G (grouped-query attention's K and V)",
                                  t->name, t->batch.text(), g->name, g->batch.text()));
    else
      diags.error(t->loc, formatv("tensor '{0}' is read as matrix block.batch / {1}, so its batch is the grid's {2} / "
                                  "{1} = {3}, but it is {4}",
                                  t->name, G, g->batch.value, g->batch.value / G, t->batch.value));
  }
}

//===--- Windows ---===//

bool KernelSema::windowOfRank(const ast::Window &w, const ir::Tensor &tensor, ir::IndexPtr &row, ir::IndexPtr &col) {
  auto zero = [&] {
    auto i = blockIndex(ir::Index::Kind::Const, w.range);
    i->value = 0;
    return i;
  };
  auto *first = w.indices.empty() ? nullptr : dyn_cast<ast::NameExpr>(w.indices[0].get());
  bool isBlock = w.indices.size() == 1 && first && first->name == "block";
  if (tensor.rank == 1) {
    if (w.indices.size() != 1) {
      diags.error(w.range, formatv("a window of 1-D tensor '{0}' takes 1 index [element] or [block]; it has {1}",
                                   tensor.name, w.indices.size()));
      return false;
    }
    row = zero();
    col = isBlock ? blockIndex(ir::Index::Kind::BlockCol, first->range) : index(*w.indices[0]);
    return col != nullptr;
  }
  if (isBlock) {
    row = blockIndex(ir::Index::Kind::BlockRow, first->range);
    col = blockIndex(ir::Index::Kind::BlockCol, first->range);
    return true;
  }
  size_t at = 0;
  if (tensor.rank == 3 && w.indices.size() == 3) {
    // block.batch, or block.batch / G for a tensor shared by groups of G matrices.
    const ast::Expr *first = w.indices[0].get();
    unsigned group = 1;
    auto *div = dyn_cast<ast::BinaryExpr>(first);
    if (div && div->op == ast::BinaryOp::Div)
      if (auto *g = dyn_cast<ast::IntExpr>(div->rhs.get()); g && g->value >= 1 && g->value <= 1024)
        first = div->lhs.get(), group = static_cast<unsigned>(g->value);
    auto *m = dyn_cast<ast::MemberExpr>(first);
    if (!m || m->base.name != "block" || m->member.name != "batch" || (div && group == 1 && first != m)) {
      diags.error(w.indices[0]->range, formatv("the first index of a window of 3-D tensor '{0}' is block.batch (a "
                                               "workgroup reads and writes the matrix of its batch, grid z) or "
                                               "block.batch / G with G a literal (a matrix shared by G workgroups' "
                                               "batches: grouped-query attention's K and V)",
                                               tensor.name));
      return false;
    }
    auto &t = const_cast<ir::Tensor &>(tensor);
    auto [it, fresh] = batchGroups.try_emplace(tensor.name, group, w.indices[0]->range);
    if (!fresh && it->second.first != group) {
      diags.error(w.indices[0]->range, formatv("tensor '{0}' is read as matrix block.batch / {1} here and block.batch "
                                               "/ {2} before; a workgroup reads one matrix of each tensor",
                                               tensor.name, group, it->second.first));
      diags.note(it->second.second, "the other window is here");
      return false;
    }
    t.batchGroup = group;
    at = 1;
  }
  if (w.indices.size() - at != 2) {
    diags.error(w.range, formatv("a window of {0}'{1}' takes {2}; it has {3}",
                                 tensor.rank == 3 ? "3-D tensor " : "", tensor.name,
                                 tensor.rank == 3 ? "[row, column], [block.batch, row, column] or [block] (in the "
                                                    "workgroup's matrix)"
                                                  : "2 indices [row, column] or [block]",
                                 w.indices.size()));
    return false;
  }
  row = index(*w.indices[at]);
  col = index(*w.indices[at + 1]);
  return row && col;
}

bool KernelSema::windowFitsTile(const ast::Window &w, const ir::Tensor &tensor, const Layout &l) {
  if (tensor.rank == 1 && !l.oneD) {
    diags.error(w.range, formatv("'{0}' is a 1-D tensor {1}, but this tile value is 2-D ({2} x {3}); a 1-D tensor "
                                 "is loaded into and stored from 1-D tiles (e.g. 'tile x: {4}[{5}] thread_raked;')",
                                 tensor.name, tensor.shapeText(), l.rows, l.cols, name(tensor.dtype), l.rows * l.cols));
    return false;
  }
  if (tensor.rank != 1 && l.oneD) {
    diags.error(w.range, formatv("this tile value is 1-D ({0} elements), but '{1}' is a {2} tensor {3}; a 1-D tile "
                                 "loads from and stores to 1-D tensors",
                                 l.rows * l.cols, tensor.name, rankName(tensor.rank), tensor.shapeText()));
    return false;
  }
  return true;
}

bool KernelSema::blockElementsMatch(const ast::Window &w, unsigned elements) {
  const ir::Tensor &g = *kernel->gridTensor;
  if (g.rank != 1) {
    diags.error(w.range, formatv("{0}[block] is the workgroup's block of the grid over {1} tensor '{2}', which a 1-D "
                                 "tensor has no window of; write {0}[element]",
                                 w.tensor.name, rankName(g.rank), g.name));
    return false;
  }
  diags.error(w.range, formatv("{0}[block] is the workgroup's {1} elements of the grid, but the tile {2}; for {3} "
                               "elements from the block's origin write {0}[block.col]",
                               w.tensor.name, kernel->gridTileCols,
                               formatv("has {0}", elements).str(), elements));
  return false;
}

//===--- 1-D tiles ---===//

std::optional<Layout> KernelSema::oneDLayout(const ast::TileDecl &t, DType dt) {
  int64_t x = t.shape.dims[0].value;
  unsigned waves = kernel->workgroupSize / target.waveSize, lanes = target.waveSize;
  if (t.pattern != Pattern::ThreadRaked || t.waves) {
    diags.error(t.patternRange, formatv("tile '{0}' is 1-D: it is thread_raked (each wave's accesses cover {1} "
                                        "consecutive vectors, one per lane); warp_raked and block_raked arrange rows",
                                        t.name.name, lanes));
    return std::nullopt;
  }
  unsigned size = sizeOf(dt), widest = 1; // the widest power-of-two vec one access moves
  while (widest * 2 * size <= target.maxBytesPerLaneAccess) widest *= 2;
  unsigned vec = t.vec ? static_cast<unsigned>(t.vec->value) : widest;
  if (!t.vec) // vec auto: the widest vec whose steps of a workgroup divide the tile, down to the narrowest access
    while (vec > narrowestWholeVec(size, target.maxBytesPerLaneAccess) && x % (int64_t(waves) * lanes * vec) != 0)
      vec /= 2;
  if (vec == 0 || (vec & (vec - 1)) != 0) {
    diags.error(t.vecRange, formatv("tile '{0}': vec {1} is not a power of two; one lane moves 1, 2, 4, 8 or 16 "
                                    "elements", t.name.name, vec));
    return std::nullopt;
  }
  if (vec > widest) {
    diags.error(t.vecRange, formatv("tile '{0}': vec {1} x {2} ({3} B) = {4} B exceeds the {5} bytes one lane can "
                                    "load; the widest legal vec here is {6}",
                                    t.name.name, vec, name(dt), size, vec * size, target.maxBytesPerLaneAccess,
                                    widest));
    return std::nullopt;
  }
  int64_t step = int64_t(waves) * lanes * vec;
  if (x % step != 0) {
    std::string fix = x < step ? formatv("use a multiple of {0} elements{1}", step,
                                         t.vec && vec > 1 ? " or a smaller vec" : "").str()
                               : formatv("use {0} or {1} elements", x / step * step, (x / step + 1) * step).str();
    diags.error(t.shape.range, formatv("tile '{0}': a 1-D tile is spread over {1} waves x {2} lanes x vec {3} = {4} "
                                       "elements per access of each lane, and {5} is not a multiple of {4} ({5} % {4} "
                                       "= {6}); {7}",
                                       t.name.name, waves, lanes, vec, step, x, x % step, fix));
    return std::nullopt;
  }
  LayoutRequest req;
  req.pattern = Pattern::ThreadRaked;
  req.cols = lanes * vec;
  req.rows = static_cast<unsigned>(x / std::max<int64_t>(req.cols, 1));
  req.elemBytes = sizeOf(dt);
  req.dtypeName = name(dt);
  req.threads = kernel->workgroupSize;
  req.waveSize = lanes;
  req.maxAccessBytes = target.maxBytesPerLaneAccess;
  req.vec = vec;
  std::vector<LayoutProblem> problems;
  std::optional<Layout> layout = solveLayout(req, problems);
  for (const LayoutProblem &p : problems)
    diags.error(p.field == LayoutField::Vec ? t.vecRange : t.shape.range,
                formatv("tile '{0}': {1}", t.name.name, p.message));
  if (!layout) return std::nullopt;
  layout->oneD = true;
  layout->vecIsAuto = !t.vec;
  return layout;
}
