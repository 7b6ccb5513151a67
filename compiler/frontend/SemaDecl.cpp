//===- SemaDecl.cpp - Parameters and declarations ----------------------------===//
//
// The first two of Sema's passes per kernel: the parameters (tensors with their dimension names, scalars) and the
// declarations (workgroup, grid, assume, LDS buffers, accumulators, register tiles: the layout math runs here). The
// statements that use them are checked in Sema.cpp.
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelSema.h"
#include "frontend/SemaGEMM.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::formatv;

//===--- Parameters ---===//

void KernelSema::params(const ast::Kernel &ak) {
  std::vector<std::pair<std::string, llvm::SMRange>> dims;
  for (const ast::Param &p : ak.params) {
    bool fresh = declare(p.name, p.isTensor ? "tensor" : "scalar");
    std::optional<DType> dt = dtype(p.dtype);
    if (!p.isTensor) {
      if (dt && !info(*dt).hasArithmetic)
        diags.error(p.dtype.range, formatv("scalar parameters cannot be {0}; pass f32 and cast", name(*dt)));
      if (fresh && dt) addScalar(p.name.name, *dt, false, p.range);
      else if (fresh) poisoned.insert(p.name.name);
      continue;
    }
    auto t = tensorParam(p, dims);
    if (!fresh || !dt || !t) {
      if (fresh) poisoned.insert(p.name.name); // uses of it would only repeat the error
      continue;
    }
    t->name = p.name.name;
    t->dtype = *dt;
    t->loc = p.range;
    tensors[t->name] = t.get();
    kernel->tensors.push_back(std::move(t));
  }
  // Dimension symbols become i32 arguments after the declared ones; a scalar i32 parameter may name one.
  for (auto &[sym, range] : dims) {
    if (scalars.count(sym)) {
      if (scalars[sym]->dtype != DType::I32 && !scalars[sym]->isDimension)
        diags.error(range, formatv("dimension '{0}' is also a scalar parameter of dtype {1}; dimensions are i32", sym,
                                   name(scalars[sym]->dtype)));
      else
        scalars[sym]->isDimension = true; // `N: i32` declared explicitly: the same argument, still a dimension
      continue;
    }
    if (tensors.count(sym)) {
      diags.error(range, formatv("dimension '{0}' has the name of a tensor", sym));
      continue;
    }
    declared.try_emplace(sym, range);
    usableInHIP(sym, range, diags);
    addScalar(sym, DType::I32, true, range);
  }
}

void KernelSema::addScalar(const std::string &n, DType dt, bool isDim, llvm::SMRange loc) {
  auto s = std::make_unique<ir::Scalar>();
  s->name = n;
  s->dtype = dt;
  s->isDimension = isDim;
  s->loc = loc;
  scalars[n] = s.get();
  kernel->scalars.push_back(std::move(s));
}

//===--- Declarations ---===//

void KernelSema::declarations(const ast::Kernel &ak) {
  const ast::WorkgroupStmt *wg = nullptr;
  const ast::GridStmt *grid = nullptr;
  for (const ast::StmtPtr &s : ak.body) {
    if (auto *w = dyn_cast<ast::WorkgroupStmt>(s.get())) {
      if (wg) diags.error(w->range, "a kernel has one 'workgroup' statement"), diags.note(wg->range, "first one here");
      else wg = w;
    } else if (auto *g = dyn_cast<ast::GridStmt>(s.get())) {
      if (grid) diags.error(g->range, "a kernel has one 'grid' statement"), diags.note(grid->range, "first one here");
      else grid = g;
    }
  }
  if (!wg) diags.error(ak.name.range, formatv("kernel '{0}' has no 'workgroup' statement; add one, e.g. "
                                              "'workgroup 256;'", ak.name.name));
  else workgroupOk = workgroup(*wg);
  if (!grid) diags.error(ak.name.range, formatv("kernel '{0}' has no 'grid over T tile [rows, cols]' statement",
                                                ak.name.name));
  else gridStatement(*grid);
  checkBatches();
  for (const ast::StmtPtr &s : ak.body) {
    if (auto *a = dyn_cast<ast::AssumeStmt>(s.get())) assume(*a);
    else if (auto *t = dyn_cast<ast::TileDecl>(s.get())) tile(*t);
    else if (auto *l = dyn_cast<ast::LdsDecl>(s.get())) ldsDecl(*l);
    else if (auto *a = dyn_cast<ast::AccDecl>(s.get())) accDecl(*a);
  }
}

void KernelSema::ldsDecl(const ast::LdsDecl &l) {
  bool fresh = declare(l.name, "lds buffer");
  std::optional<DType> dt = dtype(l.dtype);
  bool shapeOk = shape2D(l.shape, formatv("lds '{0}'", l.name.name).str());
  if (!fresh) return; // declare() has checked the name against the HIP output
  if (!dt || !shapeOk) return (void)poisoned.insert(l.name.name);
  auto buffer = sema::makeLds(l, *dt, diags);
  ldsBuffers[buffer->name] = buffer.get();
  kernel->ldsBuffers.push_back(std::move(buffer));
}

void KernelSema::accDecl(const ast::AccDecl &a) {
  bool fresh = declare(a.name, "acc tile");
  std::optional<DType> dt = dtype(a.dtype);
  bool shapeOk = shape2D(a.shape, formatv("acc '{0}'", a.name.name).str());
  if (!fresh) return; // declare() has checked the name against the HIP output
  std::unique_ptr<ir::AccTile> acc;
  if (dt && shapeOk && workgroupOk) acc = sema::makeAcc(a, *dt, kernel->workgroupSize, target, diags);
  if (!acc) return (void)poisoned.insert(a.name.name);
  accs[acc->name] = acc.get();
  kernel->accs.push_back(std::move(acc));
}

bool KernelSema::workgroup(const ast::WorkgroupStmt &w) {
  int64_t n = w.size.value, wave = target.waveSize;
  if (n <= 0) {
    diags.error(w.size.range, formatv("workgroup {0} has no threads; a workgroup is a positive multiple of the {1} "
                                      "lanes of a wave, e.g. 256", n, wave));
    return false;
  }
  if (n % wave != 0) {
    int64_t below = n / wave * wave, above = below + wave;
    std::string fix = below == 0                            ? formatv("use {0}", above).str()
                      : above > target.maxWorkgroupSize ? formatv("use {0}", below).str()
                                                            : formatv("use {0} or {1}", below, above).str();
    diags.error(w.size.range, formatv("workgroup {0} is not a multiple of the {1} lanes of a wave ({0} % {1} = {2}); "
                                      "{3}", n, wave, n % wave, fix));
    return false;
  }
  if (n > target.maxWorkgroupSize) {
    diags.error(w.size.range, formatv("workgroup {0} exceeds the {1} threads a workgroup may have on {2}", n,
                                      target.maxWorkgroupSize, target.name));
    return false;
  }
  kernel->workgroupSize = static_cast<unsigned>(n);
  return true;
}

void KernelSema::gridStatement(const ast::GridStmt &g) {
  auto it = tensors.find(g.tensor.name);
  if (it == tensors.end()) {
    if (!poisoned.count(g.tensor.name))
      diags.error(g.tensor.range, formatv("'grid over' needs a tensor parameter; '{0}' is not one{1}",
                                          g.tensor.name, suggest(g.tensor.name, tensorNames())));
    if (llvm::all_of(g.symbols, [](const std::string &s) { return s.empty(); })) shape2D(g.shape, "the grid tile");
    return;
  }
  gridShape(g, *it->second);
}

bool KernelSema::shape2D(const ast::Shape &s, llvm::StringRef what) {
  if (s.dims.size() != 2) {
    diags.error(s.range, formatv("{0} has {1} dimension{2}; it must be 2-D [rows, columns]", what, s.dims.size(),
                                 s.dims.size() == 1 ? "" : "s"));
    return false;
  }
  bool ok = true;
  for (const ast::IntLit &d : s.dims)
    if (d.value <= 0) diags.error(d.range, formatv("{0} needs positive dimensions", what)), ok = false;
  return ok;
}

void KernelSema::assume(const ast::AssumeStmt &a) {
  // assume SYMBOL % INT == 0
  auto *eq = dyn_cast<ast::BinaryExpr>(a.cond.get());
  auto *rem = eq ? dyn_cast<ast::BinaryExpr>(eq->lhs.get()) : nullptr;
  auto *zero = eq ? dyn_cast<ast::IntExpr>(eq->rhs.get()) : nullptr;
  auto *sym = rem ? dyn_cast<ast::NameExpr>(rem->lhs.get()) : nullptr;
  auto *mod = rem ? dyn_cast<ast::IntExpr>(rem->rhs.get()) : nullptr;
  if (!eq || eq->op != ast::BinaryOp::Eq || !rem || rem->op != ast::BinaryOp::Rem || !zero || zero->value != 0 ||
      !sym || !mod) {
    diags.error(a.cond->range, "'assume' takes the form 'N % 8 == 0', with N a tensor dimension");
    return;
  }
  auto it = scalars.find(sym->name);
  if (it == scalars.end() || !it->second->isDimension) {
    diags.error(sym->range, formatv("'{0}' is not a tensor dimension; 'assume' constrains dimensions", sym->name));
    return;
  }
  if (mod->value <= 0) {
    diags.error(mod->range, "the modulus of an 'assume' must be positive");
    return;
  }
  kernel->assumptions.push_back({sym->name, mod->value, a.range});
}

void KernelSema::tile(const ast::TileDecl &t) {
  bool fresh = declare(t.name, "tile");
  std::optional<DType> dt = dtype(t.dtype);
  bool oneD = t.shape.dims.size() == 1 && t.hasDistribution;
  bool shapeOk = oneD ? t.shape.dims[0].value > 0 : shape2D(t.shape, formatv("tile '{0}'", t.name.name).str());
  if (oneD && !shapeOk) diags.error(t.shape.range, formatv("tile '{0}' needs a positive size", t.name.name));
  if (!fresh) return;
  if (!dt || !shapeOk || !workgroupOk) {
    poisoned.insert(t.name.name);
    return;
  }
  if (!t.hasDistribution) return reducedTile(t, *dt);
  if (oneD) return addTile(t, *dt, oneDLayout(t, *dt));
  LayoutRequest req;
  req.pattern = t.pattern;
  req.rows = static_cast<unsigned>(t.shape.dims[0].value);
  req.cols = static_cast<unsigned>(t.shape.dims[1].value);
  req.elemBytes = sizeOf(*dt);
  req.dtypeName = name(*dt);
  req.threads = kernel->workgroupSize;
  req.waveSize = target.waveSize;
  req.maxAccessBytes = target.maxBytesPerLaneAccess;
  if (t.vec) req.vec = static_cast<unsigned>(t.vec->value);
  if (t.waves) req.waveGrid = {static_cast<unsigned>(t.waves->wy.value), static_cast<unsigned>(t.waves->wx.value)};
  std::vector<LayoutProblem> problems;
  std::optional<Layout> layout = solveLayout(req, problems);
  for (const LayoutProblem &p : problems) {
    llvm::SMRange at = p.field == LayoutField::Vec     ? t.vecRange
                       : p.field == LayoutField::Waves ? (t.waves ? t.waves->range : t.patternRange)
                                                       : t.shape.range;
    diags.error(at, formatv("tile '{0}': {1}", t.name.name, p.message));
  }
  addTile(t, *dt, std::move(layout));
}

void KernelSema::addTile(const ast::TileDecl &t, DType dt, std::optional<Layout> layout) {
  if (!layout) {
    poisoned.insert(t.name.name);
    return;
  }
  // A lane holds R accesses of vec elements, each in ceil(bytes / 4) 32-bit registers.
  uint64_t regsPerAccess = (layout->bytesPerAccess() + 3) / 4, vgprs = uint64_t(layout->rowsPerLane) * regsPerAccess;
  if (vgprs > target.maxArchVgprs) {
    diags.error(t.shape.range,
                formatv("tile '{0}' needs R x ceil({1} B / 4) = {2} x {3} = {4} VGPRs per lane, more than the {5} "
                        "a lane has on {6}; use a smaller tile or a larger workgroup",
                        t.name.name, layout->bytesPerAccess(), layout->rowsPerLane, regsPerAccess, vgprs,
                        target.maxArchVgprs, target.name));
    poisoned.insert(t.name.name);
    return;
  }
  auto tile = std::make_unique<ir::Tile>();
  tile->name = t.name.name;
  tile->dtype = dt;
  tile->layout = *layout;
  tile->loc = t.name.range;
  tiles[tile->name] = tile.get();
  tileDecls[tile->name] = &t;
  kernel->tiles.push_back(std::move(tile));
}
