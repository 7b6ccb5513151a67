//===- Symbols.h - The names of a .tile file: declarations and their uses ---===//
//
// A SymbolIndex is built from one syntax tree: every declaration (a kernel, its tensor and scalar parameters, the
// dimension symbols of its tensors, its tiles, LDS buffers, accumulators and loop variables) with the span of its name,
// of the whole declaration and of the scope it is visible in; and every use of a name that resolves to one, the
// declaration's own name included. Go to definition, hover and the document outline read it. Names resolve as Sema
// resolves them: inside one kernel, the innermost scope (a loop's variable and what the loop declares) first.
// Positions are byte offsets into the file, whose kernels may have been parsed one at a time (FileAnalysis.h).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LSP_SYMBOLS_H
#define TILEC_LSP_SYMBOLS_H

#include "frontend/AST.h"
#include <string>
#include <vector>

namespace tilec::lsp {

/// Bytes [begin, end) of the text.
struct Span {
  size_t begin = 0, end = 0;
  bool contains(size_t offset) const { return begin <= offset && offset < end; }
};

struct Declaration {
  enum class Kind { Kernel, Tensor, Scalar, Dimension, Tile, Lds, Acc, LoopVar };
  Kind kind;
  std::string name;
  /// The declaration as written after the name, whitespace collapsed: `f16[128, 32] warp_raked vec 8`.
  std::string detail;
  Span nameSpan, whole, scope;
  size_t kernel = 0; ///< the index of its kernel's declaration (a kernel's own index)
  /// The declaration it is listed under in the outline (its kernel or the loop that declares it); -1 for a kernel.
  int parent = -1;
};

struct Reference {
  Span span;
  size_t declaration;
};

class SymbolIndex {
public:
  /// Adds the names of `program`, whose ranges point into `buffer`. Byte i of `buffer` lies at file offset i when i <
  /// prefixBytes and i - prefixBytes + begin after (a part of a file, FileAnalysis.h; 0 and 0 for the whole file).
  void add(const ast::Program &program, llvm::StringRef buffer, size_t prefixBytes = 0, size_t begin = 0);
  /// Orders the uses for at(); after the last add().
  void finish();

  const std::vector<Declaration> &declarations() const { return decls; }
  /// The use of a name at `offset` (a declaration's own name included), or null. A name that ends at `offset` counts,
  /// for a cursor just after it.
  const Reference *at(size_t offset) const;
  const Declaration &declaration(const Reference &r) const { return decls[r.declaration]; }
  /// The innermost kernel whose text contains `offset`, or null.
  const Declaration *kernelAt(size_t offset) const;
  /// Kind words for people: "tile", "lds", "acc", "tensor", "scalar", "dimension", "loop variable", "kernel".
  static llvm::StringRef kindName(Declaration::Kind kind);

private:
  size_t declare(Declaration::Kind kind, const ast::Ident &name, llvm::SMRange whole, llvm::SMRange scope,
                 std::string detail, int parent);
  void use(const ast::Ident &name) { use(name.name, name.range); }
  void use(const std::string &name, llvm::SMRange range);
  void expr(const ast::Expr *e);
  void body(const std::vector<ast::StmtPtr> &statements, llvm::SMRange scope, int parent);
  void stmt(const ast::Stmt &s, llvm::SMRange scope, int parent);
  void kernel(const ast::Kernel &k);
  Span span(llvm::SMRange r) const;

  llvm::StringRef buffer;
  size_t prefixBytes = 0, begin = 0;
  std::vector<Declaration> decls;
  std::vector<Reference> refs;
  size_t currentKernel = 0;
  /// Uses seen before the declarations of their kernel were all known, resolved at the kernel's end.
  std::vector<std::pair<std::string, Span>> unresolved;
};

} // namespace tilec::lsp

#endif
