//===- SemaLdsRead.cpp - Register tiles read from LDS buffers -------------------===//
//
// `t = s;` reads LDS buffer s into register tile t in t's own distribution; `t = transpose(s);` reads it transposed,
// which stores s transposed (the write into it scatters the columns) so that every read is a row of the stored
// buffer, one vector per access. Layout changes and transposes through LDS are thus one statement each; the bank model
// (analysis/LDSBanks.h) costs the reads like the writes and the pad search weighs both.
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelSema.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::sema;
using llvm::dyn_cast;
using llvm::formatv;
using llvm::isa;

const ir::LdsBuffer *KernelSema::ldsReadSource(const ast::Expr &value) const {
  const ast::Expr *e = &value;
  auto *call = dyn_cast<ast::CallExpr>(e);
  if (call && call->callee.name == "transpose" && call->args.size() == 1 && call->argNames[0].name.empty())
    e = call->args[0].get();
  auto *n = dyn_cast<ast::NameExpr>(e);
  return n ? ldsBuffers.lookup(n->name) : nullptr;
}

ir::StmtPtr KernelSema::ldsRead(const ast::AssignStmt &a, const ir::Tile &dst, ir::LdsBuffer &src) {
  bool transpose = !isa<ast::NameExpr>(a.value.get());
  gemm.readByTile.insert(&src);
  assigned.insert(dst.name);
  std::string what = transpose ? "transpose(" + src.name + ")" : src.name;
  if (a.accumulate) {
    diags.error(a.range, formatv("'{0} += {1}' is not supported; read the buffer into a tile of its own "
                                 "('t = {1};') and add that",
                                 dst.name, what));
    return nullptr;
  }
  if (dst.layout.oneD) {
    diags.error(a.target.range, formatv("tile '{0}' is 1-D; an LDS buffer is read into a 2-D tile", dst.name));
    return nullptr;
  }
  unsigned rows = transpose ? src.cols : src.rows, cols = transpose ? src.rows : src.cols;
  if (dst.rows() != rows || dst.cols() != cols) {
    diags.error(a.value->range, formatv("{0} is {1} x {2}, but tile '{3}' is {4} x {5}", what, rows, cols, dst.name,
                                        dst.rows(), dst.cols()));
    return nullptr;
  }
  if (dst.dtype != src.dtype) {
    diags.error(a.value->range, formatv("lds {0} holds {1}, but tile '{2}' is {3}; read it into a {1} tile and "
                                        "convert with cast<{3}>(...)",
                                        src.name, name(src.dtype), dst.name, name(dst.dtype)));
    return nullptr;
  }
  if (info(src.dtype).values != 1) {
    diags.error(a.value->range, formatv("lds {0} holds packed {1} values, which only an mma reads", src.name,
                                        name(src.dtype)));
    return nullptr;
  }
  // A transposed read needs the buffer stored transposed (its write scatters the columns); a plain read, as declared.
  auto [it, fresh] = gemm.orientation.try_emplace(&src, transpose, a.value->range);
  if (!fresh && it->second.first != transpose) {
    diags.error(a.value->range, formatv("{0} needs lds {1} stored {2}, but another use needs it stored {3}: a buffer "
                                        "has one layout; write the values to a second buffer",
                                        what, src.name, transpose ? "transposed" : "as declared",
                                        transpose ? "as declared" : "transposed"));
    diags.note(it->second.second, "its other use is here");
    return nullptr;
  }
  src.transposed = transpose;
  auto st = std::make_unique<ir::LdsRead>(a.range);
  st->dst = &dst;
  st->src = &src;
  st->transpose = transpose;
  return st;
}
