//===- HIPEmitterGEMM.cpp - Writing LDS writes, mma and accumulator stores ---===//
//
// The GEMM statements of KernelEmitter: `lds = tile` (vector writes where the stored rows keep them aligned), `acc +=
// mma(a, b)` (per instruction K step: one LDS read per fragment, one MFMA per block, B's fragment first) and the
// store of an accumulator (lane l holds rows of each block, 4 consecutive columns per store).
//
//===----------------------------------------------------------------------===//
#include "HIPEmitterKernel.h"

#include "Diagnostics.h"
#include "MFMA.h"

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace tilec::hip {

/// lds = tile: each access of the tile written to the buffer; one vector write per access when the stored rows
/// keep it aligned, element by element for transposed buffers.
void KernelEmitter::ldsWrite(const LdsWrite &w, unsigned depth) {
  const Layout &l = w.src->layout;
  const LdsBuffer &b = *w.dst;
  const LanePosition &p = lanePosition(l, w.src->name);
  line(depth) << "// " << sourceText(w.loc) << "\n";
  if (l.rowsPerLane > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int i = 0; i < {0}; ++i) {{\n", l.rowsPerLane);
  std::string step = l.pattern == Pattern::ThreadRaked ? "i" : formatv("i * {0}", l.laneRows).str();
  line(depth + 1) << formatv("const int row = {0};\n", sum({p.row, step}));
  line(depth + 1) << formatv("const int col = {0};\n", p.col);
  // The widest chunk of the access whose LDS address stays aligned from row to row.
  unsigned chunk = b.transposed ? 1 : l.vec;
  while (chunk > 1 && (b.pitch() * sizeOf(b.dtype)) % (chunk * sizeOf(b.dtype)) != 0) chunk /= 2;
  if (chunk == l.vec && !b.transposed) {
    line(depth + 1) << formatv("tilec::lds_store<{0}>({1}, row * {2} + col, {3}[i]);\n", vecType(b.dtype, l.vec),
                               b.name, b.pitch(), w.src->name);
  } else if (chunk > 1) {
    line(depth + 1) << formatv("// Rows of {0} B keep only {1}-byte alignment: {2} writes of {1} B.\n",
                               b.pitch() * sizeOf(b.dtype), chunk * sizeOf(b.dtype), l.vec / chunk);
    line(depth + 1) << "#pragma unroll\n";
    line(depth + 1) << formatv("for (int part = 0; part < {0}; part += {1})\n", l.vec, chunk);
    line(depth + 2) << formatv("tilec::lds_store<{0}>({1}, row * {2} + col + part, tilec::slice<{4}>({3}[i], part));\n",
                               vecType(b.dtype, chunk), b.name, b.pitch(), w.src->name, chunk);
  } else if (l.vec == 1) {
    line(depth + 1) << formatv("tilec::lds_store<{0}>({1}, {2}, {3}[i]);\n", info(b.dtype).cppType, b.name,
                               b.transposed ? formatv("col * {0} + row", b.pitch()).str()
                                            : formatv("row * {0} + col", b.pitch()).str(),
                               w.src->name);
  } else {
    line(depth + 1) << "#pragma unroll\n";
    line(depth + 1) << formatv("for (int e = 0; e < {0}; ++e)\n", l.vec);
    line(depth + 2) << formatv("tilec::lds_store<{0}>({1}, {2}, {3}[i][e]);\n", info(b.dtype).cppType, b.name,
                               b.transposed ? formatv("(col + e) * {0} + row", b.pitch()).str()
                                            : formatv("row * {0} + col + e", b.pitch()).str(),
                               w.src->name);
  }
  line(depth) << "}\n";
}

/// acc += a x b: for each K step of the instruction, read this lane's A fragment of every block row and B fragment
/// of every block column (kPerLane consecutive K values: one LDS read each), then one MFMA per block.
void KernelEmitter::mma(const MMA &m, unsigned depth) {
  const AccTile &a = *m.acc;
  const MFMAInstr &ins = *a.instr;
  const MFMAInstr &swapped = transposedMFMA(ins, t);
  std::string source = sourceText(m.loc);
  if (!source.empty() && source.back() == ';') source.pop_back();
  line(depth) << "// " << source << formatv(": K = {0} in steps of {1}, {2} x {3} {4} per step\n", m.k,
                                                        ins.k, a.blocksY(), a.blocksX(), ins.name);
  line(depth) << "// B's fragment goes first: each MFMA computes its block of c transposed, so a lane holds rows of c "
                 "(4 consecutive columns per 4 values), which the store writes as vectors.\n";
  if (&swapped != &ins)
    line(depth) << formatv("// With the operands swapped, {0} is issued as {1}.\n", ins.name, swapped.name);
  if (m.k / ins.k > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int kk = 0; kk < {0}; kk += {1}) {{\n", m.k, ins.k);
  unsigned d = depth + 1;
  line(d) << formatv("const int k_lane = kk + (lane / {0}) * {1};  // this lane's K values: k_lane .. + {2}\n", ins.m,
                     ins.kPerLane, ins.kPerLane - 1);
  line(d) << formatv("{0} a_frag[{1}], b_frag[{2}];\n", ins.operandType, a.blocksY(), a.blocksX());
  auto fragments = [&](const char *frag, const char *block, unsigned count, unsigned size, const LdsBuffer &buf,
                       const std::string &origin) {
    if (count > 1) line(d) << "#pragma unroll\n";
    line(d) << formatv("for (int {0} = 0; {0} < {1}; ++{0})\n", block, count);
    line(d + 1) << formatv("{0}[{1}] = tilec::lds_load<{2}>({3}, ({4} + {1} * {5} + lane % {5}) * {6} + k_lane);\n",
                           frag, block, ins.operandType, buf.name, origin, size, buf.pitch());
  };
  fragments("a_frag", "bi", a.blocksY(), ins.m, *m.a, a.name + "_row");
  fragments("b_frag", "bj", a.blocksX(), ins.n, *m.b, a.name + "_col");
  if (a.blocksY() > 1) line(d) << "#pragma unroll\n";
  line(d) << formatv("for (int bi = 0; bi < {0}; ++bi)\n", a.blocksY());
  if (a.blocksX() > 1) line(d + 1) << "#pragma unroll\n";
  line(d + 1) << formatv("for (int bj = 0; bj < {0}; ++bj)\n", a.blocksX());
  line(d + 2) << formatv("{0}[bi][bj] = {1}(b_frag[bj], a_frag[bi], {0}[bi][bj], 0, 0, 0);\n", a.name,
                         swapped.builtin);
  line(depth) << "}\n";
}

/// store T[window] = value over an accumulator: the mma computed each block transposed, so lane l holds row
/// l % m of each block and, per group of 4 values, 4 consecutive columns: one 4-element store per group.
void KernelEmitter::accStore(const Store &st, unsigned depth) {
  const AccTile &a = *st.value->acc;
  const MFMAInstr &ins = *a.instr;
  const Tensor &y = *st.tensor;
  constexpr unsigned kGroup = 4;
  std::string colInBlock = ins.m == 16 ? "4 * (lane / 16) + e" : "8 * (e / 4) + 4 * (lane / 32)";
  line(depth) << "// " << sourceText(st.loc) << "\n";
  line(depth) << formatv("// Lane l holds row l % {0} of each {0} x {1} block; values e .. e + 3 are its columns {2} "
                         ".. + 3.\n", ins.m, ins.n,
                         ins.m == 16 ? "4 * (l / 16) + e" : "8 * (e / 4) + 4 * (l / 32)");
  if (a.blocksY() > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int bi = 0; bi < {0}; ++bi)\n", a.blocksY());
  if (a.blocksX() > 1) line(depth + 1) << "#pragma unroll\n";
  line(depth + 1) << formatv("for (int bj = 0; bj < {0}; ++bj)\n", a.blocksX());
  unsigned d = depth + 2;
  if (ins.accPerLane > kGroup) {
    line(depth + 2) << "#pragma unroll\n";
    line(depth + 2) << formatv("for (int e = 0; e < {0}; e += {1}) {{\n", ins.accPerLane, kGroup);
    d = depth + 3;
  } else {
    line(depth + 2) << "{\n";
    line(depth + 3) << "const int e = 0;\n";
    d = depth + 3;
  }
  line(d) << formatv("const int row = {0};\n",
                     sum({index(*st.row), a.name + "_row", formatv("bi * {0}", ins.m).str(),
                          formatv("lane % {0}", ins.m).str()}));
  line(d) << formatv("const int col = {0};\n",
                     sum({index(*st.col), a.name + "_col", formatv("bj * {0}", ins.n).str(), colInBlock}));
  storeAccess(y, *st.row, *st.col, kGroup, a.rows, a.cols, valueExpr(*st.value, kGroup, /*top=*/true), d);
  line(depth + 2) << "}\n";
}

} // namespace tilec::hip

namespace tilec::hip {

void KernelEmitter::kLoop(const For &f, unsigned depth) {
  const KLoopPlan &p = *f.plan;
  std::string var = f.var, step = index(*f.step), upper = index(*f.upper);
  line(depth) << formatv("// K loop: {0} from {1} to {2} in steps of {3}; {4}.\n", var, index(*f.lower), upper, step,
                         p.why);
  if (!p.splitEdges && !p.peelTail) {
    line(depth) << formatv("// Every workgroup's block lies inside {0} and every K step is whole: no masks.\n",
                           k.gridTensor->name);
    fullSteps[var] = f.step->value;
    plainLoop(f, depth);
    fullSteps.erase(var);
    return;
  }
  line(depth) << "{\n";
  line(depth + 1) << formatv("int {0} = {1};\n", var, index(*f.lower));
  std::string cond = formatv("{0} <= {1} - {2}", var, upper, step);
  if (p.splitEdges) {
    const Tensor &g = *k.gridTensor;
    line(depth + 1) << formatv("// Interior workgroups (the whole {0} x {1} block inside {2}) run the main loop; edge "
                               "workgroups run every step masked.\n", k.gridTileRows, k.gridTileCols, g.name);
    line(depth + 1) << formatv("const bool interior = block_row + {0} <= {1} && block_col + {2} <= {3};\n",
                               k.gridTileRows, extentExpr(g.rows), k.gridTileCols, extentExpr(g.cols));
    cond = "interior && " + cond;
  }
  line(depth + 1) << formatv("// Main loop: whole K steps ({0} + {1} <= {2}){3}, no masks.\n", var, step, upper,
                             p.splitEdges ? " of interior workgroups" : "");
  line(depth + 1) << formatv("for (; {0}; {1} += {2}) {{\n", cond, var, step);
  interiorBlock = p.splitEdges;
  fullSteps[var] = f.step->value;
  for (const StmtPtr &b : f.body) stmt(*b, depth + 2);
  fullSteps.erase(var);
  interiorBlock = false;
  line(depth + 1) << "}\n";
  line(depth + 1) << formatv("// The remaining steps, masked: {0}.\n",
                             p.splitEdges && p.peelTail ? formatv("every step of an edge workgroup, the partial last "
                                                                  "step ({0} % {1} != 0) of an interior one", upper,
                                                                  step).str()
                             : p.splitEdges ? "every step of an edge workgroup"
                                            : formatv("the partial last step ({0} % {1} != 0)", upper, step).str());
  line(depth + 1) << formatv("for (; {0} < {1}; {0} += {2}) {{\n", var, upper, step);
  for (const StmtPtr &b : f.body) stmt(*b, depth + 2);
  line(depth + 1) << "}\n";
  line(depth) << "}\n";
}

} // namespace tilec::hip
