//===- Sema.cpp - Names, dtypes, shapes and distributions -------------------===//
//
// Per kernel, three passes: parameters; declarations (workgroup, grid, assume, tiles: the layout math runs here);
// statements, lowered to IR with elementwise values type-checked against their destination's dtype and distribution.
// Messages carry the arithmetic that decided them. The element values and index expressions inside statements are
// checked in SemaExpr.cpp; KernelSema.h declares the state both files share.
//
//===----------------------------------------------------------------------===//
#include "frontend/Sema.h"

#include "analysis/DeadCode.h"

#include "analysis/LDSBanks.h"
#include "codegen/ReservedNames.h"
#include "frontend/KernelSema.h"
#include "frontend/SemaGEMM.h"
#include "passes/ForwardAccOperands.h"
#include "passes/LdsTransposeReads.h"
#include "passes/PlanScaleLoads.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::formatv;

std::string sema::suggest(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> candidates) {
  llvm::StringRef best;
  unsigned bestDistance = 3;
  for (llvm::StringRef c : candidates) {
    if (c == name) continue;
    // One edit turns any one-letter name into any other: only suggest names that keep most of what was written.
    unsigned d = name.equals_insensitive(c) ? 0 : name.edit_distance(c, true, bestDistance);
    if (d < bestDistance && d < name.size()) bestDistance = d, best = c;
  }
  return best.empty() ? "" : ("; did you mean '" + best + "'?").str();
}

namespace {

/// Names the emitted HIP C++ cannot use as they are: C++ keywords and identifiers the C++ standard reserves.
bool reservedInHIP(llvm::StringRef n) {
  static const llvm::StringSet<> keywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "main"};
  return keywords.contains(n) || n.starts_with("__") || (n.size() > 1 && n[0] == '_' && n[1] >= 'A' && n[1] <= 'Z');
}

} // namespace

bool sema::usableInHIP(const std::string &n, llvm::SMRange range, DiagnosticEngine &diags) {
  if (isHIPName(n)) {
    diags.error(range, formatv("'{0}' is a name of HIP or tilec's runtime that the emitted code uses; choose another "
                               "name", n));
    return false;
  }
  if (!reservedInHIP(n)) return true;
  diags.error(range, formatv("'{0}' is reserved in C++, the language of tilec's output; choose another name", n));
  return false;
}

std::unique_ptr<ir::Kernel> KernelSema::run(const ast::Kernel &ak) {
  kernel = std::make_unique<ir::Kernel>();
  kernel->name = ak.name.name;
  kernel->loc = ak.name.range;
  unsigned before = diags.errorCount();
  errorsAtStart = before;
  params(ak);
  declarations(ak);
  inferReducedSources(ak);
  resolveAutoAccs(ak.body);
  for (const ast::StmtPtr &s : ak.body) append(kernel->body, statement(*s, /*topLevel=*/true));
  checkBatchExtents();
  sema::checkOperandOrientation(gemm, diags);
  sema::checkScaledWindows(gemm, diags);
  warnings();
  return diags.errorCount() == before ? std::move(kernel) : nullptr;
}

//===--- Names ---===//

bool KernelSema::declare(const ast::Ident &id, llvm::StringRef what) {
  auto [it, inserted] = declared.try_emplace(id.name, id.range);
  if (inserted) {
    usableInHIP(id.name, id.range, diags); // reported, but the name is declared: its uses are no further errors
    return true;
  }
  diags.error(id.range, formatv("{0} '{1}' redeclares a name", what, id.name));
  diags.note(it->second, "previous declaration is here");
  return false;
}

std::optional<DType> KernelSema::dtype(const ast::Ident &id) {
  if (auto d = parseDType(id.name)) return d;
  if (id.name == "fp4") {
    diags.error(id.range, "fp4 (E2M1) values are stored two per byte: declare the tensor, tile or LDS buffer fp4x2, "
                          "with half as many K columns (the lower K index in the low nibble; docs/mx.md)");
    return std::nullopt;
  }
  if (id.name == "fp6" || id.name == "bf6") {
    diags.error(id.range, formatv("{0} ({1}) values are stored four per 3 bytes: declare the tensor, tile or LDS "
                                  "buffer {0}x4, with a quarter as many K columns (value e of a column at bits 6e .. "
                                  "6e + 5; docs/mx.md)", id.name, id.name == "fp6" ? "E2M3" : "E3M2"));
    return std::nullopt;
  }
  diags.error(id.range, formatv("unknown dtype '{0}'; the dtypes are {1}{2}", id.name, allDTypeNames(),
                                suggest(id.name, dtypeNames())));
  return std::nullopt;
}

std::vector<llvm::StringRef> KernelSema::tensorNames() const {
  std::vector<llvm::StringRef> names;
  for (const auto &e : tensors) names.push_back(e.getKey());
  return names;
}

std::vector<llvm::StringRef> KernelSema::knownNames() const {
  std::vector<llvm::StringRef> names;
  for (const auto &e : declared) names.push_back(e.getKey());
  for (const auto &l : loops) names.push_back(l.name);
  return names;
}

ir::StmtPtr KernelSema::ldsWrite(const ast::AssignStmt &a, const ir::LdsBuffer &dst) {
  gemm.written.insert(&dst);
  auto *src = dyn_cast<ast::NameExpr>(a.value.get());
  auto it = src ? tiles.find(src->name) : tiles.end();
  if (!a.accumulate && it == tiles.end() && accumulatorIn(*a.value))
    return accLdsWrite(a, const_cast<ir::LdsBuffer &>(dst));
  if (a.accumulate || it == tiles.end()) {
    if (src && poisoned.count(src->name)) return nullptr;
    diags.error(a.value->range, formatv("an LDS buffer is written from a register tile: '{0} = tile;'",
                                        dst.name));
    return nullptr;
  }
  if (it->second->layout.oneD) {
    diags.error(a.value->range, formatv("tile '{0}' is 1-D; an LDS buffer (an mma operand) is written from a 2-D "
                                        "register tile", src->name));
    return nullptr;
  }
  used.insert(src->name);
  readTile(src->name, src->range);
  gemm.ldsSources[&dst].push_back({src->name, a.range});
  return sema::makeLdsWrite(a, dst, *it->second, diags);
}

ir::StmtPtr KernelSema::mmaUpdate(const ast::AssignStmt &s, ir::AccTile &acc) {
  ir::StmtPtr mma = mmaProduct(s, acc);
  chosenAhead.erase(&acc); // its mma is checked (any error reported there)
  // An `mfma auto` accumulator whose first mma failed has no instruction; its later uses would only repeat that.
  if (!mma && !acc.instr) gemm.autoFailed.insert(&acc);
  return mma;
}

ir::StmtPtr KernelSema::mmaProduct(const ast::AssignStmt &s, ir::AccTile &acc) {
  auto *call = dyn_cast<ast::CallExpr>(s.value.get());
  if (!call || call->callee.name != "mma") {
    if (!s.accumulate) return accAssign(s, acc);
    diags.error(s.range, formatv("an accumulator adds products: '{0} += mma(A, B);' (it starts at zero); '{0} = "
                                 "mma(A, B);' restarts it, '{0} = {0} * x;' rescales it in place",
                                 acc.name));
    return nullptr;
  }
  // mma(A, B) or mma(A, B, scale_a = SA, scale_b = SB): two positional operands, then the named scales.
  unsigned positional = 0;
  while (positional < call->args.size() && call->argNames[positional].name.empty()) ++positional;
  if (positional != 2) {
    diags.error(call->range, formatv("mma takes 2 operands (A and B){0}; it has {1}",
                                     acc.scaled ? ", then scale_a = and scale_b =" : "", positional));
    return nullptr;
  }
  const ir::Tensor *scales[2] = {nullptr, nullptr};
  if (!mmaScales(*call, acc, scales)) return nullptr;
  const ast::Expr *bArg = call->args[1].get();
  bool nk = false;
  if (auto *t = dyn_cast<ast::CallExpr>(bArg); t && t->callee.name == "transpose" && t->args.size() == 1) {
    nk = true;
    bArg = t->args[0].get();
  }
  ir::LdsBuffer *a = ldsOperand(*call->args[0]), *b = ldsOperand(*bArg);
  if (!a || !b) return nullptr;
  ir::StmtPtr mma =
      sema::makeMMA(s, acc, *a, *b, nk, call->args[0]->range, call->args[1]->range, target, gemm, diags);
  if (!mma) return nullptr;
  cast<ir::MMA>(*mma).restart = !s.accumulate;
  // A restarting mma's enclosing loop is not its K loop (its product starts afresh each iteration).
  gemm.mmas.push_back({a, b, nk, loops.empty() || !s.accumulate ? nullptr : loops.back().stmt, call->range,
                       call->args[0]->range,
                       call->args[1]->range});
  if (acc.scaled && scales[0]) {
    auto &m = cast<ir::MMA>(*mma);
    m.scaleA = scales[0];
    m.scaleB = scales[1];
    m.kVar = loops.back().name;
    gemm.mmas.back().scaled = true;
  }
  return mma;
}

bool KernelSema::mmaScales(const ast::CallExpr &call, const ir::AccTile &acc, const ir::Tensor *(&out)[2]) {
  static const char *const kNames[] = {"scale_a", "scale_b"};
  bool ok = true;
  for (size_t i = 2; i < call.args.size(); ++i) {
    const ast::Ident &n = call.argNames[i];
    int which = n.name == "scale_a" ? 0 : n.name == "scale_b" ? 1 : -1;
    if (which < 0 || n.name.empty()) {
      diags.error(n.name.empty() ? call.args[i]->range : n.range,
                  n.name.empty() ? std::string("mma's operands come first; after them only scale_a = and scale_b =")
                                 : formatv("unknown mma argument '{0}'; a scaled mma takes scale_a = and scale_b = "
                                           "(the E8M0 scales of A and B)", n.name).str());
      ok = false;
      continue;
    }
    if (!acc.scaled) {
      diags.error(n.range, formatv("{0} is a block scale of a scaled mma, but acc {1}'s {2} takes none; declare the "
                                   "accumulator with v_mfma_scale_f32_32x32x64_f8f6f4 or "
                                   "v_mfma_scale_f32_16x16x128_f8f6f4 (gfx950, docs/mx.md)",
                                   n.name, acc.name, acc.instr ? acc.instr->name : "instruction"));
      ok = false;
      continue;
    }
    if (out[which]) {
      diags.error(n.range, formatv("{0} is given twice", n.name));
      ok = false;
      continue;
    }
    auto *e = dyn_cast<ast::NameExpr>(call.args[i].get());
    auto t = e ? tensors.find(e->name) : tensors.end();
    if (t == tensors.end()) {
      if (!e || !poisoned.count(e->name))
        diags.error(call.args[i]->range, formatv("{0} is a tensor parameter of e8m0 scales, [{1}, K / 32]", n.name,
                                                 which == 0 ? "M" : "N"));
      ok = false;
      continue;
    }
    ir::Tensor &st = *t->second;
    if (st.dtype != DType::E8M0 || st.rank != 2) {
      diags.error(call.args[i]->range,
                  formatv("{0} = {1}: the scales are a 2-D e8m0 tensor, [{2}, K / 32] (one per {3} K values of each "
                          "{4}); {1} is {5}{6}", n.name, st.name, which == 0 ? "M" : "N", ScaledMFMAInstr::kBlock,
                          which == 0 ? "row of A" : "column of B", name(st.dtype), st.shapeText()));
      ok = false;
      continue;
    }
    st.isRead = true;
    out[which] = &st;
  }
  // Without scale_a and scale_b the f8f6f4 instruction multiplies its operands unscaled (both scales 1.0): gfx950's
  // fp8 at twice the rate of v_mfma_f32_32x32x16_fp8 (docs/mx.md). One scale alone is an error.
  if (acc.scaled && ok && (out[0] != nullptr) != (out[1] != nullptr)) {
    int missing = out[0] ? 1 : 0;
    diags.error(call.range, formatv("{0} multiplies block-scaled operands: give mma {1} = (an e8m0 tensor [{2}, K / "
                                    "32]) beside {3}, or neither for unscaled operands",
                                    acc.scaled->name, kNames[missing], missing == 0 ? "M" : "N", kNames[1 - missing]));
    ok = false;
  }
  if (acc.scaled && ok && out[0] && loops.empty()) {
    diags.error(call.range, formatv("a scaled mma reads its scales at the K loop's variable: put it in the loop over "
                                    "K ('for k in 0 .. K step ...')"));
    ok = false;
  }
  return ok;
}

void KernelSema::recordSources(const std::string &tile, const ast::Expr &value) {
  switch (value.kind) {
  case ast::Expr::Kind::Load: {
    const auto &l = cast<ast::LoadExpr>(value);
    sema::TileSource source;
    source.load = &l;
    if (l.window.indices.size() == 2) {
      source.rowIndex = l.window.indices[0].get();
      source.colIndex = l.window.indices[1].get();
      loopsIn(*source.rowIndex, source.rowLoops);
      loopsIn(*source.colIndex, source.colLoops);
    }
    gemm.tileSources[tile].push_back(std::move(source));
    return;
  }
  case ast::Expr::Kind::Name: {
    const std::string &n = cast<ast::NameExpr>(value).name;
    if (n != tile && tiles.count(n)) gemm.tileSources[tile].push_back({nullptr, {}, {}, nullptr, nullptr, n});
    return;
  }
  case ast::Expr::Kind::Neg: return recordSources(tile, *cast<ast::NegExpr>(value).operand);
  case ast::Expr::Kind::Binary:
    recordSources(tile, *cast<ast::BinaryExpr>(value).lhs);
    return recordSources(tile, *cast<ast::BinaryExpr>(value).rhs);
  case ast::Expr::Kind::Cast: return recordSources(tile, *cast<ast::CastExpr>(value).operand);
  case ast::Expr::Kind::Call:
    for (const ast::ExprPtr &arg : cast<ast::CallExpr>(value).args) recordSources(tile, *arg);
    return;
  default: return;
  }
}

void KernelSema::loopsIn(const ast::Expr &e, std::set<const ast::ForStmt *> &out) const {
  if (auto *n = dyn_cast<ast::NameExpr>(&e)) {
    for (const auto &l : llvm::reverse(loops))
      if (l.name == n->name) return (void)out.insert(l.stmt);
  } else if (auto *b = dyn_cast<ast::BinaryExpr>(&e)) {
    loopsIn(*b->lhs, out);
    loopsIn(*b->rhs, out);
  } else if (auto *neg = dyn_cast<ast::NegExpr>(&e)) {
    loopsIn(*neg->operand, out);
  }
}

ir::LdsBuffer *KernelSema::ldsOperand(const ast::Expr &e) {
  auto *n = dyn_cast<ast::NameExpr>(&e);
  if (n && ldsBuffers.count(n->name)) {
    gemm.readByMMA.insert(ldsBuffers[n->name]);
    return ldsBuffers[n->name];
  }
  if (n && poisoned.count(n->name)) return nullptr;
  diags.error(e.range, "an mma operand is an LDS buffer (or transpose of one for a B stored N x K)");
  return nullptr;
}

//===--- Statements ---===//

void KernelSema::append(ir::Body &body, ir::StmtPtr st) {
  if (st)
    for (ir::StmtPtr &h : hoisted) body.push_back(std::move(h));
  hoisted.clear();
  statementTarget.clear();
  if (st) body.push_back(std::move(st));
}

ir::StmtPtr KernelSema::statement(const ast::Stmt &s, bool topLevel) {
  switch (s.kind) {
  case ast::Stmt::Kind::Workgroup:
  case ast::Stmt::Kind::Grid:
  case ast::Stmt::Kind::Tile:
  case ast::Stmt::Kind::Lds:
  case ast::Stmt::Kind::Acc:
  case ast::Stmt::Kind::Assume:
    if (!topLevel) diags.error(s.range, "declarations belong at the top level of the kernel body, not inside 'for'");
    return nullptr;
  case ast::Stmt::Kind::Assign: return assign(cast<ast::AssignStmt>(s));
  case ast::Stmt::Kind::Store: return store(cast<ast::StoreStmt>(s));
  case ast::Stmt::Kind::For: return forLoop(cast<ast::ForStmt>(s));
  case ast::Stmt::Kind::Barrier: return std::make_unique<ir::Barrier>(s.range);
  }
  return nullptr;
}

ir::StmtPtr KernelSema::assign(const ast::AssignStmt &a) {
  const std::string &n = a.target.name;
  statementTarget = n;
  if (auto l = ldsBuffers.find(n); l != ldsBuffers.end()) return ldsWrite(a, *l->second);
  if (auto c = accs.find(n); c != accs.end()) return mmaUpdate(a, *c->second);
  if (auto r = reducedTiles.find(n); r != reducedTiles.end()) return reducedAssign(a, *r->second);
  auto it = tiles.find(n);
  if (it == tiles.end()) {
    if (poisoned.count(n)) return nullptr;
    if (tensors.count(n))
      diags.error(a.target.range, formatv("cannot assign to tensor '{0}'; write it with 'store {0}[...] = ...'", n));
    else if (declared.count(n) || isLoopVar(n))
      diags.error(a.target.range, formatv("cannot assign to '{0}'; only register tiles are assigned", n));
    else
      diags.error(a.target.range, formatv("'{0}' is not declared; declare it with 'tile {0}: dtype[rows, cols] "
                                          "pattern;'{1}", n, suggest(n, knownNames())));
    // Still report errors inside the value, but not that its loads lack a tile: that is the error just reported.
    missingTarget = true;
    checkValue(*a.value, nullptr);
    missingTarget = false;
    return nullptr;
  }
  const ir::Tile *dst = it->second;
  used.insert(n);
  if (const ir::LdsBuffer *src = ldsReadSource(*a.value)) return ldsRead(a, *dst, *const_cast<ir::LdsBuffer *>(src));
  recordSources(n, *a.value);
  Checked v = checkValue(*a.value, &dst->layout);
  if (!v) return nullptr;
  if (a.accumulate) {
    readTile(n, a.target.range);
    auto self = std::make_unique<ir::Value>();
    self->kind = ir::Value::Kind::TileRef;
    self->dtype = dst->dtype;
    self->isTile = true;
    self->layout = &dst->layout;
    self->tile = dst;
    self->loc = a.target.range;
    // Errors about the implied '+' point at the '+=' the user wrote.
    const char *from = a.target.range.End.getPointer(), *to = a.value->range.Start.getPointer();
    size_t at = llvm::StringRef(from, to - from).find("+=");
    llvm::SMRange opRange = at == llvm::StringRef::npos
                                ? a.range
                                : llvm::SMRange(llvm::SMLoc::getFromPointer(from + at),
                                                llvm::SMLoc::getFromPointer(from + at + 2));
    v = combine(ir::ValueOp::Add, Checked{std::move(self)}, std::move(v), a.range, opRange, "+=");
    if (!v) return nullptr;
  }
  assigned.insert(n);
  if (!fitInto(v, dst->dtype, &dst->layout, formatv("tile '{0}'", n).str(), a.value->range)) return nullptr;
  linkTiles(dst, *v.value);
  auto st = std::make_unique<ir::Assign>(a.range);
  st->dst = dst;
  st->value = std::move(v.value);
  return st;
}

ir::StmtPtr KernelSema::store(const ast::StoreStmt &s) {
  const ir::Tensor *tensor = nullptr;
  ir::IndexPtr row, col;
  bool windowOk = window(s.window, tensor, row, col);
  statementTarget = llvm::StringRef(s.window.tensor.name).lower();
  // An epilogue: loads in the value take the layout of the accumulator it names.
  epilogueAcc = accumulatorIn(*s.value);
  Checked v = checkValue(*s.value, nullptr);
  epilogueAcc = nullptr;
  if (!windowOk || !v) return nullptr;
  if (!v.value->isTile) {
    diags.error(s.value->range, "a store needs a tile value; this expression is the same for every element");
    return nullptr;
  }
  if (!fitInto(v, tensor->dtype, nullptr, formatv("tensor '{0}'", tensor->name).str(), s.value->range))
    return nullptr;
  const Layout *l = v.value->layout;
  if (l && v.value->reducedAxis != -1 && tensor->rank == 1) {
    diags.error(s.window.range, formatv("'{0}' is a 1-D tensor; a reduced value is stored into a window of a 2-D "
                                        "tensor ([rows, 1] or [1, cols])", tensor->name));
    return nullptr;
  }
  if (l && v.value->reducedAxis == -1 && !windowFitsTile(s.window, *tensor, *l)) return nullptr;
  if (v.value->acc && tensor->rank == 1) {
    diags.error(s.window.range, formatv("'{0}' is a 1-D tensor; an accumulator is stored into a 2-D or 3-D tensor",
                                        tensor->name));
    return nullptr;
  }
  if (l && !blockShapeMatches(s.window, v.value->reducedAxis == 0 || l->oneD ? 1 : l->rows,
                              v.value->reducedAxis == 1 ? 1 : l->oneD ? l->rows * l->cols : l->cols))
    return nullptr;
  if (v.value->acc && !blockShapeMatches(s.window, v.value->acc->rows, v.value->acc->cols)) return nullptr;
  const_cast<ir::Tensor *>(tensor)->isWritten = true;
  auto st = std::make_unique<ir::Store>(s.range);
  st->tensor = tensor;
  st->row = std::move(row);
  st->col = std::move(col);
  st->value = std::move(v.value);
  return st;
}

ir::StmtPtr KernelSema::forLoop(const ast::ForStmt &f) {
  bool shadows = declared.count(f.var.name) || isLoopVar(f.var.name);
  bool reserved = !shadows && !usableInHIP(f.var.name, f.var.range, diags);
  if (shadows) {
    diags.error(f.var.range, formatv("loop variable '{0}' shadows another name", f.var.name));
    for (const auto &l : loops)
      if (l.name == f.var.name) diags.note(l.range, "the enclosing loop's variable is here");
    if (!isLoopVar(f.var.name))
      diags.note(declared.lookup(f.var.name), formatv("'{0}' is declared here", f.var.name));
  }
  auto loop = std::make_unique<ir::For>(f.range);
  loop->var = f.var.name;
  loop->lower = index(*f.lower);
  loop->upper = index(*f.upper);
  if (f.step) {
    loop->step = index(*f.step);
  } else {
    loop->step = std::make_unique<ir::Index>();
    loop->step->kind = ir::Index::Kind::Const;
    loop->step->value = 1;
  }
  bool stepOk = true;
  if (std::optional<int64_t> step = loop->step ? constantValue(*loop->step) : std::nullopt; step && *step <= 0) {
    diags.error(f.step->range, formatv("the step of a 'for' must be positive; it is {0}", *step));
    stepOk = false;
  }
  if (f.pipelineRange.isValid() && (f.pipeline < 1 || f.pipeline > 4)) {
    diags.error(f.pipelineRange, formatv("pipeline depth {0}: tilec pipelines a K loop 1 step deep (no overlap), 2 "
                                         "(the next step's loads issued before this step's mma), 3 (the next step "
                                         "staged in registers, the loads of the step after it in flight) or 4 (as 3, "
                                         "with a register set for each step of a two-step main loop: the loads of the "
                                         "step three ahead in flight)",
                                         f.pipeline));
    stepOk = false;
  } else {
    loop->pipeline = static_cast<unsigned>(f.pipeline);
    loop->pipelineLoc = f.pipelineRange;
  }
  int64_t divisor = 1;
  if (loop->lower && loop->step)
    divisor = std::min(ir::knownDivisor(*loop->lower, *kernel), ir::knownDivisor(*loop->step, *kernel));
  loops.push_back({f.var.name, divisor, f.var.range, &f});
  for (const ast::StmtPtr &s : f.body) append(loop->body, statement(*s, false));
  loops.pop_back();
  if (shadows || reserved || !stepOk || !loop->lower || !loop->upper || !loop->step) return nullptr;
  return loop;
}

bool KernelSema::isLoopVar(llvm::StringRef n) const {
  for (const auto &l : loops)
    if (l.name == n) return true;
  return false;
}

//===--- Warnings ---===//

void KernelSema::linkTiles(const ir::Tile *dst, const ir::Value &v) {
  if (v.tile && v.tile != dst) links.emplace_back(dst, v.tile);
  for (const auto &op : v.operands) linkTiles(dst, *op);
}

void KernelSema::warnings() {
  if (diags.errorCount() == errorsAtStart)
    for (auto &[n, at] : unassignedReads)
      diags.warning(at, formatv("tile '{0}' is read before anything is assigned to it; its values are undefined",
                                n));
  // Like the reads above, LDS flow is only judged in kernels without errors: a statement that failed (an mma whose
  // accumulator was not declared, say) would make its buffers look unused.
  if (diags.errorCount() == errorsAtStart) sema::warnUnusedLds(*kernel, gemm, diags);
  if (diags.errorCount() == errorsAtStart) {
    // How a buffer is stored decides its bank conflicts: forward accumulator values to the mmas that read them
    // (the buffer goes; B is read in runs of 4), then choose the transposing reads. The bank-conflict warning waits
    // for the layout the LDS swizzle pass chooses (driver/Driver.cpp).
    forwardAccOperands(*kernel);
    useLdsTransposeReads(*kernel, target);
  }
  for (const auto &t : kernel->tiles) {
    const ast::TileDecl *decl = tileDecls[t->name];
    if (!used.count(t->name)) {
      diags.warning(decl->name.range, formatv("tile '{0}' is declared but never used", t->name));
      t->used = false;
      continue;
    }
    const Layout &l = t->layout;
    if (l.vecIsAuto) continue;
    LayoutRequest req{l.pattern, l.rows, l.cols, l.elemBytes, name(t->dtype), l.threads, l.waveSize,
                      target.maxBytesPerLaneAccess, std::nullopt,
                      std::make_pair(l.wavesY, l.wavesX)};
    unsigned widest = widestLegalVec(req);
    if (widest <= l.vec) continue;
    // A narrower vec that matches a linked tile's (e.g. f32 vec 4 cast to bf16) is what elementwise code needs.
    bool matched = false;
    for (auto [a, b] : links)
      if ((a == t.get() && b->layout.vec == l.vec) || (b == t.get() && a->layout.vec == l.vec)) matched = true;
    if (matched) continue;
    diags.warning(decl->vecRange,
                  formatv("tile '{0}': vec {1} ({2} B per access) is narrower than the widest legal vec {3} "
                          "({4} B): each lane issues {5} accesses instead of {6}",
                          t->name, l.vec, l.bytesPerAccess(), widest, widest * l.elemBytes, l.rowsPerLane,
                          l.rowsPerLane * l.vec / widest));
  }
  // A scaled mma's scales: after the checks above, which know only the declared tiles and buffers, since in a K
  // loop they become register tiles and LDS buffers of their own.
  if (diags.errorCount() == errorsAtStart) planScaleLoads(*kernel, target);
}

std::unique_ptr<ir::Module> tilec::buildIR(const ast::Program &program, const Target *targetOverride,
                                           DiagnosticEngine &diags, size_t *unusedCodeFrom) {
  unsigned before = diags.errorCount(), hardBefore = diags.hardErrorCount();
  auto module = std::make_unique<ir::Module>();
  module->target = targetOverride;
  if (program.target) {
    const Target *named = lookupTarget(program.target->name);
    if (!named)
      diags.error(program.target->range, formatv("unknown target '{0}'; tilec knows {1}", program.target->name,
                                                 allTargetNames()));
    if (!module->target) module->target = named;
  }
  if (!module->target) module->target = &defaultTarget();
  llvm::StringMap<llvm::SMRange> kernelNames;
  for (const ast::Kernel &k : program.kernels) {
    auto [it, fresh] = kernelNames.try_emplace(k.name.name, k.name.range);
    if (fresh) usableInHIP(k.name.name, k.name.range, diags);
    if (!fresh) {
      diags.error(k.name.range, formatv("kernel '{0}' is defined twice", k.name.name));
      diags.note(it->second, "first definition is here");
    }
    if (auto ik = KernelSema(*module->target, diags).run(k)) module->kernels.push_back(std::move(ik));
  }
  if (unusedCodeFrom) *unusedCodeFrom = diags.record ? diags.record->size() : 0;
  // Code that does nothing is only worth a word in a file that is otherwise right.
  if (diags.hardErrorCount() == hardBefore)
    for (const auto &k : module->kernels) warnDeadCode(*k, diags);
  return diags.errorCount() == before ? std::move(module) : nullptr;
}
