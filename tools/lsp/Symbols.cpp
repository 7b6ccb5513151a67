//===- Symbols.cpp - Walking the syntax tree for declarations and uses ------===//
//
// One walk per kernel: its parameters (the first appearance of a dimension symbol declares it, later ones use it), then
// its statements, collecting declarations with their scopes and every name written where a value, tensor, tile,
// buffer or accumulator goes. Uses are resolved when the kernel's declarations are all known, so a use before its
// declaration (which Sema reports) still finds it.
//
//===----------------------------------------------------------------------===//
#include "Symbols.h"

#include "llvm/Support/Casting.h"
#include "support/Diagnostics.h"
#include <algorithm>

using namespace tilec;
using namespace tilec::lsp;
using llvm::SMRange;

namespace {

/// The text between a declared name and the end of its declaration, without the ':' after the name and the ';'.
std::string detailAfter(SMRange name, SMRange whole) {
  if (!name.isValid() || !whole.isValid() || whole.End.getPointer() < name.End.getPointer()) return "";
  std::string text = sourceText({name.End, whole.End});
  llvm::StringRef s = llvm::StringRef(text).trim();
  s.consume_front(":");
  s.consume_back(";");
  return s.trim().str();
}

} // namespace

void SymbolIndex::add(const ast::Program &program, llvm::StringRef text, size_t prefix, size_t start) {
  buffer = text;
  prefixBytes = prefix;
  begin = start;
  for (const ast::Kernel &k : program.kernels) kernel(k);
}

void SymbolIndex::finish() {
  std::sort(refs.begin(), refs.end(),
            [](const Reference &a, const Reference &b) { return a.span.begin < b.span.begin; });
}

Span SymbolIndex::span(SMRange r) const {
  const char *base = buffer.data();
  if (!r.isValid() || r.Start.getPointer() < base || r.End.getPointer() > base + buffer.size() ||
      r.End.getPointer() < r.Start.getPointer())
    return {};
  auto offset = [&](const char *p) {
    size_t i = static_cast<size_t>(p - base);
    return i < prefixBytes ? i : i - prefixBytes + begin;
  };
  return {offset(r.Start.getPointer()), offset(r.End.getPointer())};
}

size_t SymbolIndex::declare(Declaration::Kind kind, const ast::Ident &name, SMRange whole, SMRange scope,
                            std::string detail, int parent) {
  Declaration d{kind, name.name, std::move(detail), span(name.range), span(whole), span(scope), currentKernel, parent};
  // The outline needs the name inside the whole declaration.
  if (d.whole.end <= d.whole.begin || d.nameSpan.begin < d.whole.begin || d.nameSpan.end > d.whole.end)
    d.whole = d.nameSpan;
  decls.push_back(std::move(d));
  refs.push_back({decls.back().nameSpan, decls.size() - 1});
  return decls.size() - 1;
}

void SymbolIndex::use(const std::string &name, SMRange range) {
  Span s = span(range);
  if (!name.empty() && s.end > s.begin) unresolved.emplace_back(name, s);
}

void SymbolIndex::expr(const ast::Expr *e) {
  if (!e) return;
  using K = ast::Expr::Kind;
  switch (e->kind) {
  case K::Int:
  case K::Float: return;
  case K::Name: {
    auto *n = llvm::cast<ast::NameExpr>(e);
    return use(n->name, n->range);
  }
  case K::Member: return use(llvm::cast<ast::MemberExpr>(e)->base);
  case K::Neg: return expr(llvm::cast<ast::NegExpr>(e)->operand.get());
  case K::Binary: {
    auto *b = llvm::cast<ast::BinaryExpr>(e);
    expr(b->lhs.get());
    return expr(b->rhs.get());
  }
  case K::Call:
    for (const ast::ExprPtr &a : llvm::cast<ast::CallExpr>(e)->args) expr(a.get());
    return;
  case K::Cast: return expr(llvm::cast<ast::CastExpr>(e)->operand.get());
  case K::Load: {
    auto *l = llvm::cast<ast::LoadExpr>(e);
    use(l->window.tensor);
    for (const ast::ExprPtr &i : l->window.indices) expr(i.get());
    return expr(l->fill.get());
  }
  }
}

void SymbolIndex::stmt(const ast::Stmt &s, SMRange scope, int parent) {
  using K = ast::Stmt::Kind;
  switch (s.kind) {
  case K::Workgroup:
  case K::Barrier: return;
  case K::Grid: {
    auto &g = llvm::cast<ast::GridStmt>(s);
    use(g.tensor);
    for (size_t i = 0; i < g.symbols.size() && i < g.shape.dims.size(); ++i) use(g.symbols[i], g.shape.dims[i].range);
    return;
  }
  case K::Tile: {
    auto &t = llvm::cast<ast::TileDecl>(s);
    declare(Declaration::Kind::Tile, t.name, t.range, scope, detailAfter(t.name.range, t.range), parent);
    return;
  }
  case K::Lds: {
    auto &l = llvm::cast<ast::LdsDecl>(s);
    declare(Declaration::Kind::Lds, l.name, l.range, scope, detailAfter(l.name.range, l.range), parent);
    return;
  }
  case K::Acc: {
    auto &a = llvm::cast<ast::AccDecl>(s);
    declare(Declaration::Kind::Acc, a.name, a.range, scope, detailAfter(a.name.range, a.range), parent);
    return;
  }
  case K::Assume: return expr(llvm::cast<ast::AssumeStmt>(s).cond.get());
  case K::Assign: {
    auto &a = llvm::cast<ast::AssignStmt>(s);
    use(a.target);
    return expr(a.value.get());
  }
  case K::Store: {
    auto &st = llvm::cast<ast::StoreStmt>(s);
    use(st.window.tensor);
    for (const ast::ExprPtr &i : st.window.indices) expr(i.get());
    return expr(st.value.get());
  }
  case K::For: {
    auto &f = llvm::cast<ast::ForStmt>(s);
    expr(f.lower.get());
    expr(f.upper.get());
    expr(f.step.get());
    // The header as written: from the variable to the step, or to the pipeline depth.
    SMRange header = f.var.range;
    for (const ast::Expr *e : {f.lower.get(), f.upper.get(), f.step.get()})
      if (e && e->range.isValid() && e->range.End.getPointer() > header.End.getPointer()) header.End = e->range.End;
    if (f.pipeline && f.pipelineRange.isValid() && f.pipelineRange.End.getPointer() > header.End.getPointer())
      header.End = f.pipelineRange.End;
    std::string detail = header.End.getPointer() > f.var.range.End.getPointer()
                             ? sourceText({f.var.range.End, header.End})
                             : std::string();
    int loop = static_cast<int>(declare(Declaration::Kind::LoopVar, f.var, f.range, f.range, detail, parent));
    body(f.body, f.range, loop);
    return;
  }
  }
}

void SymbolIndex::body(const std::vector<ast::StmtPtr> &statements, SMRange scope, int parent) {
  for (const ast::StmtPtr &s : statements)
    if (s) stmt(*s, scope, parent);
}

void SymbolIndex::kernel(const ast::Kernel &k) {
  currentKernel = decls.size();
  std::string signature = "(";
  for (const ast::Param &p : k.params)
    signature += (signature.size() > 1 ? ", " : "") + sourceText(p.range);
  declare(Declaration::Kind::Kernel, k.name, k.range, k.range, signature + ")", -1);
  int self = static_cast<int>(currentKernel);
  auto dimension = [&](const ast::Dim &d, const ast::Param &p, const char *what) {
    if (!d.isSymbol()) return;
    bool known = std::any_of(decls.begin() + currentKernel, decls.end(), [&](const Declaration &x) {
      return x.kind == Declaration::Kind::Dimension && x.name == d.symbol;
    });
    if (known) return use(d.symbol, d.range);
    declare(Declaration::Kind::Dimension, ast::Ident{d.symbol, d.range}, d.range, k.range,
            what + p.name.name, self);
  };
  for (const ast::Param &p : k.params) {
    declare(p.isTensor ? Declaration::Kind::Tensor : Declaration::Kind::Scalar, p.name, p.range, k.range,
            detailAfter(p.name.range, p.range), self);
    for (const ast::Dim &d : p.dims) dimension(d, p, "a dimension of ");
    if (p.stride) dimension(*p.stride, p, "the row stride of ");
  }
  body(k.body, k.range, self);

  // Each use names the declaration of the innermost scope that holds it.
  for (auto &[name, s] : unresolved) {
    const Declaration *best = nullptr;
    size_t bestIndex = 0;
    for (size_t i = currentKernel; i < decls.size(); ++i) {
      const Declaration &d = decls[i];
      if (d.kind == Declaration::Kind::Kernel || d.name != name || !d.scope.contains(s.begin)) continue;
      if (!best || d.scope.end - d.scope.begin < best->scope.end - best->scope.begin) {
        best = &d;
        bestIndex = i;
      }
    }
    if (best) refs.push_back({s, bestIndex});
  }
  unresolved.clear();
}

const Reference *SymbolIndex::at(size_t offset) const {
  // The use whose word holds the offset, else the one that ends there (the cursor just after a name).
  auto after = std::upper_bound(refs.begin(), refs.end(), offset,
                                [](size_t o, const Reference &r) { return o < r.span.begin; });
  const Reference *touching = nullptr;
  for (auto it = after; it != refs.begin();) {
    --it;
    if (it->span.contains(offset)) return &*it;
    if (it->span.end == offset && !touching) touching = &*it;
    if (offset - it->span.begin > 4096) break; // names are short; nothing further back can reach
  }
  return touching;
}

const Declaration *SymbolIndex::kernelAt(size_t offset) const {
  for (const Declaration &d : decls)
    if (d.kind == Declaration::Kind::Kernel && d.whole.contains(offset)) return &d;
  return nullptr;
}

llvm::StringRef SymbolIndex::kindName(Declaration::Kind kind) {
  switch (kind) {
  case Declaration::Kind::Kernel: return "kernel";
  case Declaration::Kind::Tensor: return "tensor";
  case Declaration::Kind::Scalar: return "scalar";
  case Declaration::Kind::Dimension: return "dimension";
  case Declaration::Kind::Tile: return "tile";
  case Declaration::Kind::Lds: return "lds";
  case Declaration::Kind::Acc: return "acc";
  case Declaration::Kind::LoopVar: return "loop variable";
  }
  return "name";
}
