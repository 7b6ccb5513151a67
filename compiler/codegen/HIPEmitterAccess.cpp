//===- HIPEmitterAccess.cpp - Writing global memory accesses -----------------===//
//
// How KernelEmitter addresses a tensor and guards an access: vector or element-by-element (accessKind), the address
// and element offset of a row and column, the mask of an access and whether a window is known inside, and the loads
// and stores themselves: global loads, buffer loads whose masked-off offset reads zeros, and the buffer loads of a
// staged K loop whose loop-moving window origin is the instruction's scalar offset.
//
//===----------------------------------------------------------------------===//
#include "codegen/HIPEmitterKernel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace tilec::hip {

KernelEmitter::Access KernelEmitter::accessKind(const Tensor &tensor, const Index &col0, unsigned vec) const {
  if (vec == 1) return Access::Aligned;
  bool rowsRuntime = false;
  for (const AccessPlan &p : plans)
    rowsRuntime |= p.tensor == &tensor && p.vec == vec && !p.alignedAtCompileTime;
  bool originAligned = knownDivisor(col0, k) % vec == 0;
  if (!originAligned || (rowsRuntime && variant == Variant::Unaligned)) return Access::Crossing;
  return variant == Variant::Unaligned ? Access::Unaligned : Access::Aligned;
}

std::string KernelEmitter::address(const Tensor &tensor, const std::string &r, const std::string &c) {
  std::string offset = elementOffset(tensor, r, c, /*wide=*/true);
  return offset == "0" ? tensor.name : tensor.name + " + " + offset;
}

std::string KernelEmitter::elementOffset(const Tensor &tensor, const std::string &r, const std::string &c, bool wide) {
  if (tensor.rank == 1) return c;
  // Rows are the row stride apart: the width, or the `stride` the tensor was declared with.
  std::string pitch = extentExpr(tensor.rowStride());
  auto rowTerm = [&](const std::string &row) {
    if (wide) return formatv("static_cast<long>({0}) * {1}", row, pitch).str();
    bool simple = row.find_first_of(" +-*/%") == std::string::npos;
    return formatv(simple ? "{0} * {1}" : "({0}) * {1}", row, pitch).str();
  };
  if (r == "row" && !rowSplit.first.empty())
    return formatv("{0} + {1} + {2}", rowTerm(rowSplit.first), rowTerm(rowSplit.second), c);
  if (r == "0") return c; // a tensor's only row
  if (c == "0" && !tensor.stride && extentExpr(tensor.cols) == "1") return r; // its only column
  return formatv("{0} + {1}", rowTerm(r), c);
}

bool KernelEmitter::movesWithLoop(const Index &i) {
  if (i.kind == Index::Kind::LoopVar) return true;
  return i.isBinary() && (movesWithLoop(*i.lhs) || movesWithLoop(*i.rhs));
}

/// The mask of one access; lower bounds only where the window origin may be negative.
/// With `vecEnd`, the column test is that the whole vector of vecEnd elements lies inside the row.
std::string KernelEmitter::inBounds(const Tensor &tensor, const std::string &r, const std::string &c,
                                    const Index &row0, const Index &col0, unsigned windowRows, unsigned windowCols,
                                    unsigned vecEnd) {
  std::vector<std::string> terms;
  if (!accessGuard.empty()) terms.push_back(accessGuard);
  // A 1-D tensor has one row, and its windows start in it.
  if (tensor.rank != 1 && !nonNegative(row0)) terms.push_back(r + " >= 0");
  if (tensor.rank != 1 && !windowInside(row0, tensor.rows, windowRows, /*isRow=*/true))
    terms.push_back(formatv("{0} < {1}", r, extentExpr(tensor.rows)));
  if (!nonNegative(col0)) terms.push_back(c + " >= 0");
  if (!windowInside(col0, tensor.cols, windowCols, /*isRow=*/false))
    terms.push_back(vecEnd ? formatv("{0} + {1} <= {2}", c, vecEnd, extentExpr(tensor.cols)).str()
                           : formatv("{0} < {1}", c, extentExpr(tensor.cols)).str());
  std::string mask;
  for (const std::string &t : terms) mask += (mask.empty() ? "" : " && ") + t;
  return mask;
}

/// `statement;` under `if (mask)`, or alone when nothing needs checking.
std::string KernelEmitter::guarded(const std::string &mask, const std::string &statement) {
  return mask.empty() ? statement + ";\n" : formatv("if ({0}) {1};\n", mask, statement).str();
}

/// Whether a window of `size` elements from `origin` always ends inside `extent`, so its mask can go: the origin
/// is the block origin of a grid over the same extent (assumed or known divisible by the block), or a loop
/// variable running from a multiple of `size` up to the extent in steps that are multiples of `size`.
bool KernelEmitter::windowInside(const Index &origin, const Extent &extent, unsigned size, bool isRow) const {
  // A scaled mma's B checked by the launcher (packedWindow): [perA k, block.col / perB] of a K x N B is inside where
  // k's window of size / perA is inside K (the rows are perA K) and block.col's of size x perB inside N (the columns
  // are ceil(N / perB)); [block.col, k / d] of an N x K B where k's window of size x d is inside K. With a factor of
  // 1 (an fp8 A over a K x N fp4 B's rows KV = K, say) the window is k's or block.col's in K or N.
  const Index *inner = nullptr;
  Extent innerExtent;
  unsigned factor = 1;
  bool divides = false;
  if (packedWindow(k.body, origin, extent, inner, innerExtent, factor, divides))
    return divides ? windowInside(*inner, innerExtent, size * factor, isRow)
                   : size % factor == 0 && windowInside(*inner, innerExtent, size / factor, isRow);
  if (origin.kind == Index::Kind::BlockRow || origin.kind == Index::Kind::BlockCol) {
    bool row = origin.kind == Index::Kind::BlockRow;
    const Extent &grid = row ? k.gridTensor->rows : k.gridTensor->cols;
    unsigned block = row ? k.gridTileRows : k.gridTileCols;
    if (grid.symbol != extent.symbol || grid.value != extent.value || size > block) return false;
    // On the interior path of a K loop the whole block lies inside the grid tensor.
    return interiorBlock || (k.divisible(extent, size) && k.divisible(extent, block));
  }
  if (origin.kind == Index::Kind::Const) // a literal window inside a literal extent (the row of a [1, N] tensor)
    return !extent.isSymbol() && origin.value >= 0 && origin.value + size <= extent.value;
  if (origin.kind == Index::Kind::LoopVar) {
    auto it = loopBounds.find(origin.name);
    if (it == loopBounds.end() || !it->second.second) return false;
    const Index &upper = *it->second.second;
    bool upperIsExtent = upper.kind == Index::Kind::Scalar ? extent.isSymbol() && upper.name == extent.symbol
                                                           : upper.kind == Index::Kind::Const && !extent.isSymbol() &&
                                                                 upper.value == extent.value;
    // In the main loop of a K loop every step is whole: var + step <= upper.
    auto whole = fullSteps.find(origin.name);
    if (whole != fullSteps.end() && upperIsExtent && size <= whole->second) return true;
    // A prefetch reads the window of the next step, which may lie past the upper bound.
    if (loopVarText.count(origin.name)) return false;
    return k.divisible(extent, size) && it->second.first % size == 0 && upperIsExtent && extent.isSymbol();
  }
  // A literal origin in a literal extent (the row 0 of a 1-D tensor's one row).
  return origin.kind == Index::Kind::Const && !extent.isSymbol() && origin.value >= 0 &&
         origin.value + size <= extent.value;
}

/// One access of `vec` elements at (r, c): under the window's mask; for a Crossing access the mask requires the
/// whole vector inside its row, and `elementStmt` handles the rest element by element.
void KernelEmitter::vectorAccess(const Tensor &x, const std::string &r, const std::string &c, const Index &row0,
                                 const Index &col0, unsigned windowRows, unsigned windowCols, unsigned vec,
                                 Access kind, const std::string &vectorStmt, const std::string &elementStmt,
                                 unsigned d) {
  std::string mask = inBounds(x, r, c, row0, col0, windowRows, windowCols, kind == Access::Crossing ? vec : 0);
  line(d) << guarded(mask, vectorStmt);
  if (kind == Access::Crossing && !mask.empty()) line(d) << formatv("else {0};\n", elementStmt);
}

bool KernelEmitter::windowOffsetLoad(const Value &l, unsigned vec, unsigned rows, unsigned cols) {
  const Tensor &x = *l.tensor;
  return uniformOffsetLoads && !accessWindow[0].empty() && l.operands.empty() &&
         accessKind(x, *l.col, vec) == Access::Aligned && Target::hasBufferLoad(vec * sizeOf(x.dtype), x.dtype) &&
         llvm::is_contained(k.bufferLoaded, &x) && inBounds(x, "row", "col", *l.row, *l.col, rows, cols, 0).empty();
}

void KernelEmitter::loadAccess(const Value &l, unsigned vec, unsigned rows, unsigned cols, const std::string &dst,
                               const std::string &r, const std::string &c, unsigned d, bool declare) {
  const Tensor &x = *l.tensor;
  std::string type = vecType(x.dtype, vec);
  Access kind = accessKind(x, *l.col, vec);
  bool masked = !inBounds(x, r, c, *l.row, *l.col, rows, cols, kind == Access::Crossing ? vec : 0).empty();
  // Masked-off lanes keep zeros, or the load's `else` value.
  std::string fill = l.operands.empty() ? "" : valueExpr(*l.operands[0], 1);
  if (r == "row" && c == "col" && windowOffsetLoad(l, vec, rows, cols)) {
    // The window's origin is the same in every lane: the instruction's scalar offset, which the loop advances with
    // one scalar add (the lanes' offsets stay as they are from step to step).
    std::string uniform = accessWindow[2];
    if (x.rank != 1 && accessWindow[0] != "0") {
      uniform = formatv("({0}) * {1}", accessWindow[0], extentExpr(x.rowStride())).str();
      if (accessWindow[2] != "0") uniform += " + " + accessWindow[2];
    }
    auto bytes = [&](const std::string &elements) {
      return sizeOf(x.dtype) == 1 ? elements : formatv("({0}) * {1}", elements, sizeOf(x.dtype)).str();
    };
    line(d) << formatv("{0}{1} = tilec::buffer_load<{2}>({3}_buf, {4}, {5});\n", declare ? type + " " : "", dst, type,
                       x.name, bytes(elementOffset(x, accessWindow[1], accessWindow[3], /*wide=*/false)),
                       bytes(uniform));
    return;
  }
  if (maskedBufferLoads && kind == Access::Aligned && fill.empty() &&
      Target::hasBufferLoad(vec * sizeOf(x.dtype), x.dtype) &&
      llvm::is_contained(k.bufferLoaded, &x)) {
    // A buffer load: a masked-off vector's offset (-1, 0xFFFFFFFF) lies outside the buffer and reads zeros.
    std::string mask = inBounds(x, r, c, *l.row, *l.col, rows, cols, 0);
    // 32-bit arithmetic: the launcher runs this kernel only for tensors under 2 GiB. (A 64-bit product here makes
    // clang branch around the offset instead of selecting it.)
    std::string offset = formatv("({0}) * {1}", elementOffset(x, r, c, /*wide=*/false), sizeOf(x.dtype)).str();
    line(d) << formatv("{0}{1} = tilec::buffer_load<{2}>({3}_buf, {4});\n", declare ? type + " " : "", dst, type,
                       x.name, mask.empty() ? offset : formatv("tilec::buffer_offset({0}, {1})", mask, offset).str());
    return;
  }
  // One assignment of the whole vector, selected: assigned in a branch, a tile element makes LLVM 22 keep the whole
  // tile in one value and copy it at every join (scale_cast_bf16 on gfx942: 56 VGPRs, 26 this way).
  std::string prefix = declare ? type + " " : "";
  std::string vector = formatv("tilec::global_load{0}<{1}>({2})", kind == Access::Aligned ? "" : "_unaligned", type,
                               address(x, r, c)).str();
  if (!masked) {
    line(d) << formatv("{0}{1} = {2};\n", prefix, dst, vector);
    return;
  }
  std::string mask = inBounds(x, r, c, *l.row, *l.col, rows, cols, kind == Access::Crossing ? vec : 0);
  std::string otherwise;
  if (kind == Access::Crossing)
    otherwise = formatv("tilec::load_elements{0}<{1}>({2}, {3}, {4}, {5}{6})", x.stride ? "_strided" : "", vec, x.name,
                        r, c, elementBounds(x), fill.empty() ? "" : ", " + fill).str();
  else if (!fill.empty()) otherwise = formatv("({0})({1})", type, fill).str();
  // A vector splats a 0 ("T{}" would not parse for T = unsigned char); the packed 6-bit types are structs, which
  // take no 0 (tilec/fp6x4.h).
  else if (valueBits(x.dtype) == 6) otherwise = type + "{}";
  else otherwise = formatv("({0})(0)", type).str();
  line(d) << formatv("{0}{1} = {2} ? {3} : {4};\n", prefix, dst, mask, vector, otherwise);
}

/// The store of `v` (`vec` elements) at (row, col) of a window of windowRows x windowCols; an expression is first
/// named Y_out.
void KernelEmitter::storeAccess(const Tensor &y, const Index &row0, const Index &col0, unsigned vec,
                                unsigned windowRows, unsigned windowCols, const std::string &v, unsigned d) {
  std::string type = vecType(y.dtype, vec), value = v;
  if (v.find_first_of(" (") != std::string::npos) {
    line(d) << formatv("const {0} {1}_out = {2};\n", type, y.name, v);
    value = y.name + "_out";
  }
  Access kind = accessKind(y, col0, vec);
  std::string r = flatAccess ? "0" : "row";
  vectorAccess(y, r, "col", row0, col0, windowRows, windowCols, vec, kind,
               formatv("tilec::global_store{0}<{1}>({2}, {3})", kind == Access::Aligned ? "" : "_unaligned", type,
                       address(y, r, "col"), value),
               formatv("tilec::store_elements{0}<{1}>({2}, {3}, col, {4}, {5})", y.stride ? "_strided" : "", vec,
                       y.name, r, elementBounds(y), value),
               d);
}

} // namespace tilec::hip
