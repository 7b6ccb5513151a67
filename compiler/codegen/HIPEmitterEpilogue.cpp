//===- HIPEmitterEpilogue.cpp - Writing the store of an accumulator and its epilogue ===//
//
// `store T[window] = value` over an accumulator: the mma computed each block transposed, so lane l holds row l % m of
// each block and, per group of 4 values, 4 consecutive columns: one 4-element store per group. The epilogue operands
// (loads in the accumulator's C/D layout) follow the same map: a full window loads the 4 values of each group just
// before its store (one vector load); one row ([1, N]) or one column ([M, 1]), the same for every row or column of
// the accumulator, is loaded once per lane into an array before the stores.
//
//===----------------------------------------------------------------------===//
#include "codegen/HIPEmitterKernel.h"

#include "target/MFMA.h"

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace tilec::hip {

std::string colInBlock(const MFMAInstr &ins, const char *lane, bool element) {
  if (ins.m == 16) return formatv("4 * ({0} / 16) + e", lane).str();
  return formatv("8 * (e / 4) + 4 * ({0} / 32){1}", lane, element ? " + e % 4" : "").str();
}

namespace {

/// `for (int e = 0; e < values; e += 4) {` or, for one group, `{ const int e = 0;`.
void openGroups(llvm::raw_ostream &os, unsigned indent, unsigned values) {
  if (values > kGroup) {
    os.indent(indent) << "#pragma unroll\n";
    os.indent(indent) << formatv("for (int e = 0; e < {0}; e += {1}) {{\n", values, kGroup);
  } else {
    os.indent(indent) << "{\n";
    os.indent(indent + 2) << "const int e = 0;\n";
  }
}
} // namespace

std::string KernelEmitter::accRow(const AccTile &a, const Index &row0) {
  return sum({index(row0), a.name + "_row", formatv("bi * {0}", a.instr->m).str(),
              formatv("lane % {0}", a.instr->m).str()});
}

std::string KernelEmitter::accCol(const AccTile &a, const Index &col0) {
  return sum({index(col0), a.name + "_col", formatv("bj * {0}", a.instr->n).str(), colInBlock(*a.instr, "lane")});
}

void KernelEmitter::broadcastLoads(const Store &st, const std::vector<const Value *> &loads, unsigned depth) {
  const AccTile &a = *st.value->acc;
  const MFMAInstr &ins = *a.instr;
  for (const Value *l : loads) {
    if (l->reducedAxis == -1) continue;
    const Tensor &x = *l->tensor;
    std::string n = uniqueLoadName(x.name);
    bool row = l->reducedAxis == 0;
    unsigned groups = ins.accPerLane / kGroup;
    if (row) {
      line(depth) << formatv("// Epilogue operand {0}{1}: one row, the same for every row of {2}. This lane's 4 "
                             "columns of each block column and value group, loaded once before the stores: {3} x {4} "
                             "vectors of 4 x {5}.\n",
                             x.name, x.rank == 1 ? "[...]" : "[0, ...]", a.name, a.blocksX(), groups, name(x.dtype));
      line(depth) << formatv("{0} {1}[{2}][{3}];\n", vecType(x.dtype, kGroup), n, a.blocksX(), groups);
      if (a.blocksX() > 1) line(depth) << "#pragma unroll\n";
      line(depth) << formatv("for (int bj = 0; bj < {0}; ++bj)\n", a.blocksX());
      openGroups(os, 2 * (depth + 1), ins.accPerLane);
      line(depth + 2) << formatv("const int col = {0};\n", accCol(a, *l->col));
      loadAccess(*l, kGroup, 1, a.cols, n + "[bj][e / 4]", index(*l->row), "col", depth + 2, /*declare=*/false);
      line(depth + 1) << "}\n";
      loadNames[l] = n + "[bj][e / 4]";
    } else {
      line(depth) << formatv("// Epilogue operand {0}[..., 0]: one column, the same for every column of {1}. This "
                             "lane's row of each block row, loaded once before the stores: {2} x {3}.\n",
                             x.name, a.name, a.blocksY(), name(x.dtype));
      line(depth) << formatv("{0} {1}[{2}];\n", vecType(x.dtype, 1), n, a.blocksY());
      if (a.blocksY() > 1) line(depth) << "#pragma unroll\n";
      line(depth) << formatv("for (int bi = 0; bi < {0}; ++bi) {{\n", a.blocksY());
      line(depth + 1) << formatv("const int row = {0};\n", accRow(a, *l->row));
      loadAccess(*l, 1, a.rows, 1, n + "[bi]", "row", index(*l->col), depth + 1, /*declare=*/false);
      line(depth) << "}\n";
      loadNames[l] = n + "[bi]";
    }
  }
}

void KernelEmitter::groupLoads(const Store &st, const std::vector<const Value *> &loads, unsigned depth) {
  const AccTile &a = *st.value->acc;
  for (const Value *l : loads) {
    if (l->reducedAxis != -1) continue;
    std::string n = uniqueLoadName(l->tensor->name);
    bool shared = sameIndex(*l->row, *st.row) && sameIndex(*l->col, *st.col);
    line(depth) << formatv("// Epilogue operand {0}: the 4 values at {1}.\n", sourceText(l->loc),
                           shared ? "(row, col)" : "this lane's row and columns of its window");
    loadAccess(*l, kGroup, a.rows, a.cols, n, shared ? "row" : accRow(a, *l->row), shared ? "col" : accCol(a, *l->col),
               depth, /*declare=*/true);
    loadNames[l] = n;
  }
}

void KernelEmitter::accStore(const Store &st, unsigned depth) {
  const AccTile &a = *st.value->acc;
  const MFMAInstr &ins = *a.instr;
  const Tensor &y = *st.tensor;
  markSource(depth, st.loc);
  line(depth) << "// " << sourceText(st.loc) << "\n";
  line(depth) << formatv("// Lane l holds row l % {0} of each {0} x {1} block; values e .. e + 3 are its columns {2} "
                         ".. + 3.\n", ins.m, ins.n, colInBlock(ins, "l"));
  std::vector<const Value *> loads;
  collectLoads(*st.value, loads);
  loadNames.clear();
  broadcastLoads(st, loads, depth);
  if (a.blocksY() > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int bi = 0; bi < {0}; ++bi)\n", a.blocksY());
  if (a.blocksX() > 1) line(depth + 1) << "#pragma unroll\n";
  line(depth + 1) << formatv("for (int bj = 0; bj < {0}; ++bj)\n", a.blocksX());
  openGroups(os, 2 * (depth + 2), ins.accPerLane);
  unsigned d = depth + 3;
  line(d) << formatv("const int row = {0};\n", accRow(a, *st.row));
  line(d) << formatv("const int col = {0};\n", accCol(a, *st.col));
  groupLoads(st, loads, d);
  storeAccess(y, *st.row, *st.col, kGroup, a.rows, a.cols, valueExpr(*st.value, kGroup, /*top=*/true), d);
  line(depth + 2) << "}\n";
  loadNames.clear();
}

} // namespace tilec::hip
