//===- HIPEmitterReduce.cpp - Writing reductions and reduced tiles ----------===//
//
// Prints what passes/ReductionStrategy decided for each `s = sum(x, axis = ...)`: the partial of each lane, combined
// in registers; one line per cross-lane step (a DPP move, a ds_swizzle or a ds_bpermute, through tilec/runtime.h);
// and, when several waves share a row or column, the partials written to LDS, a barrier, and all of them combined in
// wave order. Also the registers of reduced tiles and the stores of reduced values (one lane per result).
//
//===----------------------------------------------------------------------===//
#include "codegen/HIPEmitterKernel.h"

#include "llvm/Support/Casting.h"

using namespace tilec;
using namespace tilec::ir;
using namespace tilec::hip;
using llvm::formatv;

std::string tilec::hip::reduceOpName(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum: return "tilec::ReduceOp::Sum";
  case ReduceOp::Max: return "tilec::ReduceOp::Max";
  case ReduceOp::Min: return "tilec::ReduceOp::Min";
  }
  return "";
}

namespace {

void collectReduces(const Body &body, std::vector<const Reduce *> &out) {
  for (const StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<For>(s.get())) collectReduces(f->body, out);
    else if (auto *r = llvm::dyn_cast<Reduce>(s.get())) out.push_back(r);
  }
}

} // namespace

void KernelEmitter::reducedPrologue() {
  for (const auto &r : k.reducedTiles) {
    if (const AccTile *a = r->sourceAcc) {
      line(1) << formatv("// Reduced tile {0}: {1}[{2}, 1], the results of the rows this lane holds of acc {3} (row "
                         "lane % {4} of each of its {5} block rows; every lane of a row holds them){6}.\n",
                         r->name, name(r->dtype), r->rows, a->name, a->instr->m, a->blocksY(),
                         r->temporary ? ", a reduction inside an expression" : "; it starts at zero");
      line(1) << formatv("{0} {1}[{2}] = {{};\n", info(r->dtype).cppType, r->name, a->blocksY());
      continue;
    }
    if (!r->source) continue;
    const Layout &l = *r->source;
    if (r->axis == 1) {
      line(1) << formatv("// Reduced tile {0}: {1}[{2}, 1], the results of the {3} rows of this lane's accesses of a "
                         "{4} x {5} tile (every lane of a row holds them){6}.\n",
                         r->name, name(r->dtype), r->rows, l.rowsPerLane, l.rows, l.cols,
                         r->temporary ? ", a reduction inside an expression" : "; it starts at zero");
      line(1) << formatv("{0} {1}[{2}] = {{};\n", info(r->dtype).cppType, r->name, l.rowsPerLane);
    } else {
      line(1) << formatv("// Reduced tile {0}: {1}[1, {2}], the results of the {3} columns of this lane's vector of "
                         "a {4} x {5} tile (every lane of a column holds them){6}.\n",
                         r->name, name(r->dtype), r->cols, l.vec, l.rows, l.cols,
                         r->temporary ? ", a reduction inside an expression" : "; it starts at zero");
      line(1) << formatv("{0} {1} = {{};\n", vecType(r->dtype, l.vec), r->name);
    }
  }
  std::vector<const Reduce *> reduces;
  collectReduces(k.body, reduces);
  for (const Reduce *r : reduces) {
    if (!r->plan || r->plan->waves == 1) continue;
    std::string n = r->dst->name + "_lds";
    for (unsigned i = 1; llvm::any_of(reduceLds, [&](const auto &e) { return e.second == n; }); ++i)
      n = r->dst->name + "_lds" + std::to_string(i);
    reduceLds[r] = n;
    const Layout &l = *r->value->layout;
    unsigned results = r->axis == 1 ? l.rows : l.cols;
    line(1) << formatv("// LDS {0}: the partials of {1} waves for each of the {2} {3} of {4} ({5} B).\n", n,
                       r->plan->waves, results, r->axis == 1 ? "rows" : "columns", r->dst->name, r->plan->ldsBytes);
    line(1) << formatv("__shared__ {0} {1}[{2} * {3}];\n", info(r->plan->accumulate).cppType, n, r->plan->waves,
                       results);
  }
}

void KernelEmitter::crossLaneSteps(const ReducePlan &p, const std::string &op, const std::string &part,
                                   unsigned depth) {
  for (const CrossLaneStep &s : p.steps) {
    std::string moved;
    switch (s.kind) {
    case CrossLaneStep::Kind::DppQuadPerm:
      moved = s.laneXor == 1 ? "tilec::dpp_move<tilec::dpp::quad_perm(1, 0, 3, 2)>"
                             : "tilec::dpp_move<tilec::dpp::quad_perm(2, 3, 0, 1)>";
      moved += "(" + part + ")";
      break;
    case CrossLaneStep::Kind::DppRowHalfMirror:
      moved = formatv("tilec::dpp_move<tilec::dpp::row_half_mirror>({0})", part);
      break;
    case CrossLaneStep::Kind::DppRowMirror: moved = formatv("tilec::dpp_move<tilec::dpp::row_mirror>({0})", part); break;
    case CrossLaneStep::Kind::DsSwizzle:
      moved = formatv("tilec::swizzle<tilec::swizzle_xor({0})>({1})", s.laneXor, part);
      break;
    case CrossLaneStep::Kind::DsBpermute: moved = formatv("tilec::bpermute({0}, lane ^ {1})", part, s.laneXor); break;
    }
    line(depth) << formatv("{0} = tilec::combine<{1}>({0}, {2});\n", part, op, moved);
  }
}

void KernelEmitter::reduce(const Reduce &r, unsigned depth) {
  markSource(depth, r.loc);
  line(depth) << "// " << sourceText(r.loc) << "\n";
  line(depth) << "// " << r.plan->why << ".\n";
  if (r.dst->sourceAcc) reduceAccRows(r, depth);
  else if (r.axis == 1) reduceRows(r, depth);
  else reduceColumns(r, depth);
}

void KernelEmitter::reduceRows(const Reduce &r, unsigned depth) {
  const Layout &l = *r.value->layout;
  const ReducePlan &p = *r.plan;
  std::string acc = info(p.accumulate).cppType.str(), op = reduceOpName(r.op), dst = r.dst->name;
  std::string type = info(r.dst->dtype).cppType.str();
  const LanePosition &pos = lanePosition(l, "");
  std::string step = l.pattern == Pattern::ThreadRaked ? "i" : formatv("i * {0}", l.laneRows).str();
  std::string part = dst + "_part";
  auto loop = [&]() {
    if (l.rowsPerLane > 1) line(depth) << "#pragma unroll\n";
    line(depth) << formatv("for (int i = 0; i < {0}; ++i) {{\n", l.rowsPerLane);
  };
  auto finish = [&](unsigned d, const std::string &total) {
    std::string v = acc == type ? total : formatv("static_cast<{0}>({1})", type, total).str();
    line(d) << formatv("{0}[i] = {1};\n", dst, r.accumulate ? formatv("{0}[i] + {1}", dst, v).str() : v);
  };
  loop();
  line(depth + 1) << formatv("{0} {1} = tilec::reduce_lane<{2}, {0}>({3});\n", acc, part, op,
                             valueExpr(*r.value, l.vec));
  crossLaneSteps(p, op, part, depth + 1);
  if (p.waves == 1) {
    finish(depth + 1, part);
    line(depth) << "}\n";
    return;
  }
  // Each row's partials of the Wx waves of a wave-row meet in LDS: [row][wx].
  const std::string &lds = reduceLds.at(&r);
  std::string wx = formatv("(wave % {0})", l.wavesX);
  std::string store = formatv("tilec::lds_store<{0}>({1}, ({2} + {3}) * {4} + {5}, {6});", acc, lds, pos.row, step,
                              p.waves, wx, part);
  line(depth + 1) << (l.lanesX == 1 ? store : formatv("if (lane % {0} == 0) {1}", l.lanesX, store).str()) << "\n";
  line(depth) << "}\n";
  line(depth) << "tilec::barrier();\n";
  loop();
  line(depth + 1) << formatv("const int row = {0} + {1};\n", pos.row, step);
  line(depth + 1) << formatv("{0} {1}_total = tilec::lds_load<{0}>({2}, row * {3});\n", acc, dst, lds, p.waves);
  line(depth + 1) << formatv("for (int {4}_w = 1; {4}_w < {0}; ++{4}_w) {4}_total = tilec::combine<{1}>({4}_total, "
                             "tilec::lds_load<{2}>({3}, row * {0} + {4}_w));\n",
                             p.waves, op, acc, lds, dst);
  finish(depth + 1, dst + "_total");
  line(depth) << "}\n";
  if (depth > 1) line(depth) << "tilec::barrier(); // the next iteration writes " << lds << " again\n";
}

void KernelEmitter::reduceColumns(const Reduce &r, unsigned depth) {
  const Layout &l = *r.value->layout;
  const ReducePlan &p = *r.plan;
  std::string acc = info(p.accumulate).cppType.str(), op = reduceOpName(r.op), dst = r.dst->name;
  std::string accVec = vecType(p.accumulate, l.vec), part = dst + "_part";
  const LanePosition &pos = lanePosition(l, "");
  auto element = [&](const std::string &v) { return l.vec == 1 ? v : v + "[e]"; };
  // In the lane: the R accesses of each column, in access order.
  std::string value = valueExpr(*r.value, l.vec);
  if (r.value->dtype != p.accumulate)
    value = l.vec == 1 ? formatv("static_cast<{0}>({1})", acc, value).str()
                       : formatv("__builtin_convertvector({0}, {1})", value, accVec).str();
  line(depth) << formatv("{0} {1} = {{};\n", accVec, part);
  if (l.rowsPerLane > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int i = 0; i < {0}; ++i) {{\n", l.rowsPerLane);
  line(depth + 1) << formatv("const {0} {1}_in = {2};\n", accVec, dst, value);
  line(depth + 1) << formatv("{0} = i == 0 ? {2}_in : tilec::combine<{1}>({0}, {2}_in);\n", part, op, dst);
  line(depth) << "}\n";
  // Across lanes and waves, one 32-bit element at a time.
  unsigned inner = depth;
  bool perElement = l.vec > 1 && (!p.steps.empty() || p.waves > 1);
  if (perElement) {
    line(depth) << "#pragma unroll\n";
    line(depth) << formatv("for (int e = 0; e < {0}; ++e) {{\n", l.vec);
    inner = depth + 1;
  }
  if (!p.steps.empty()) {
    line(inner) << formatv("{0} {1}_lane = {2};\n", acc, dst, element(part));
    crossLaneSteps(p, op, dst + "_lane", inner);
    line(inner) << formatv("{0} = {1}_lane;\n", element(part), dst);
  }
  if (p.waves > 1) {
    // Each column's partials of the Wy waves of a wave-column meet in LDS: [wy][column].
    const std::string &lds = reduceLds.at(&r);
    std::string wy = l.wavesX == 1 ? "wave" : formatv("(wave / {0})", l.wavesX).str();
    std::string col = l.vec == 1 ? pos.col : pos.col + " + e";
    std::string store = formatv("tilec::lds_store<{0}>({1}, {2} * {3} + {4}, {5});", acc, lds, wy, l.cols, col,
                                element(part));
    line(inner) << (l.laneRows == 1 ? store : formatv("if (lane < {0}) {1}", l.lanesX, store).str()) << "\n";
    if (perElement) line(depth) << "}\n";
    line(depth) << "tilec::barrier();\n";
    if (perElement) {
      line(depth) << "#pragma unroll\n";
      line(depth) << formatv("for (int e = 0; e < {0}; ++e) {{\n", l.vec);
    }
    line(inner) << formatv("{0} {1}_total = tilec::lds_load<{0}>({2}, {3});\n", acc, dst, lds, col);
    line(inner) << formatv("for (int {6}_w = 1; {6}_w < {0}; ++{6}_w) {6}_total = tilec::combine<{1}>({6}_total, "
                           "tilec::lds_load<{2}>({3}, {6}_w * {4} + {5}));\n",
                           p.waves, op, acc, lds, l.cols, col, dst);
    line(inner) << formatv("{0} = {1}_total;\n", element(part), dst);
  }
  if (perElement) line(depth) << "}\n";
  if (p.waves > 1 && depth > 1)
    line(depth) << "tilec::barrier(); // the next iteration writes " << reduceLds.at(&r) << " again\n";
  std::string v = part;
  if (r.dst->dtype != p.accumulate)
    v = l.vec == 1 ? formatv("static_cast<{0}>({1})", info(r.dst->dtype).cppType, part).str()
                   : formatv("__builtin_convertvector({0}, {1})", part, vecType(r.dst->dtype, l.vec)).str();
  line(depth) << formatv("{0} = {1};\n", dst, r.accumulate ? formatv("{0} + {1}", dst, v).str() : v);
}

void KernelEmitter::reducedAssign(const ReducedAssign &a, unsigned depth) {
  const ReducedTile &r = *a.dst;
  markSource(depth, a.loc);
  line(depth) << "// " << sourceText(a.loc) << "\n";
  if (const AccTile *acc = r.sourceAcc) {
    // One result per block row of the accumulator: the lane's row of each.
    if (acc->blocksY() > 1) line(depth) << "#pragma unroll\n";
    line(depth) << formatv("for (int bi = 0; bi < {0}; ++bi) {1}[bi] = {2};\n", acc->blocksY(), r.name,
                           valueExpr(*a.value, 1));
    return;
  }
  const Layout &l = *r.source;
  if (r.axis == 1) {
    // One result per row of the lane's accesses: R values, each computed from the same row's values.
    if (l.rowsPerLane > 1) line(depth) << "#pragma unroll\n";
    line(depth) << formatv("for (int i = 0; i < {0}; ++i) {1}[i] = {2};\n", l.rowsPerLane, r.name,
                           valueExpr(*a.value, 1));
    return;
  }
  // One vector of the lane's vec columns; a uniform value is splat to it.
  std::string v = valueExpr(*a.value, l.vec);
  if (l.vec > 1 && !vectorValued(*a.value, l.vec)) v = formatv("({0})({1})", vecType(r.dtype, l.vec), v).str();
  line(depth) << formatv("{0} = {1};\n", r.name, v);
}

void KernelEmitter::reducedStore(const Store &st, unsigned depth) {
  const Value &v = *st.value;
  const Layout &l = *v.layout;
  markSource(depth, st.loc);
  line(depth) << "// " << sourceText(st.loc) << "\n";
  const LanePosition &pos = lanePosition(l, "");
  bool rows = v.reducedAxis == 1;
  unsigned waves = k.waves(t);
  // One copy of each result stores it: the first lane of its lane-row and the first wave of its wave-row (axis 1),
  // the first lane-row and the first wave-row (axis 0).
  std::string lanes = rows ? (l.lanesX == 1 ? "" : formatv("lane % {0} == 0", l.lanesX).str())
                           : (l.laneRows == 1 ? "" : formatv("lane < {0}", l.lanesX).str());
  std::string wave = waves == 1 ? ""
                     : rows     ? (l.wavesX == 1 ? "" : formatv("wave % {0} == 0", l.wavesX).str())
                                : (l.wavesY == 1 ? ""
                                   : l.wavesX == 1 ? "wave == 0"
                                                   : formatv("wave < {0}", l.wavesX).str());
  std::string cond = lanes.empty() ? wave : (wave.empty() ? lanes : lanes + " && " + wave);
  line(depth) << (cond.empty() ? "{\n" : "if (" + cond + ") {\n");
  unsigned d = depth + 1;
  if (rows) {
    if (l.rowsPerLane > 1) line(d) << "#pragma unroll\n";
    line(d) << formatv("for (int i = 0; i < {0}; ++i) {{\n", l.rowsPerLane);
    std::string step = l.pattern == Pattern::ThreadRaked ? "i" : formatv("i * {0}", l.laneRows).str();
    line(d + 1) << formatv("const int row = {0};\n", sum({index(*st.row), pos.row, step}));
    line(d + 1) << formatv("const int col = {0};\n", index(*st.col));
    storeAccess(*st.tensor, *st.row, *st.col, 1, l.rows, 1, valueExpr(v, 1), d + 1);
    line(d) << "}\n";
  } else {
    line(d) << formatv("const int row = {0};\n", index(*st.row));
    line(d) << formatv("const int col = {0};\n", sum({index(*st.col), pos.col}));
    storeAccess(*st.tensor, *st.row, *st.col, l.vec, 1, l.cols, valueExpr(v, l.vec), d);
  }
  line(depth) << "}\n";
}
