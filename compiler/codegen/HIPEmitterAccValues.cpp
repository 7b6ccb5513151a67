//===- HIPEmitterAccValues.cpp - Accumulators as values: reductions, in-place updates, LDS writes ===//
//
// An accumulator's values stay in the MFMA C/D layout the mma left them in: lane l holds row l % m of each block
// (bi, bj) and, per group of 4 values e .. e + 3, 4 consecutive columns (HIPEmitterEpilogue.cpp). A reduction along
// its rows combines a lane's values of each block row in registers, then the 64 / m lanes that hold the same row; a
// reduced tile of its rows is one value per block row ({name}[bi]); an in-place update (`o = o * alpha`) and a write
// to LDS (`sP = cast<f16>(p)`) run over the lane's values with those indices. An mma operand in registers comes from
// an accumulator's values (MMA::aFrom), or was read from LDS before the loop (MMA::aHoisted).
//
//===----------------------------------------------------------------------===//
#include "codegen/HIPEmitterKernel.h"

#include "target/MFMA.h"

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace tilec::hip {

void KernelEmitter::accLoops(const AccTile &a, unsigned step, unsigned depth) {
  if (a.blocksY() > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int bi = 0; bi < {0}; ++bi)\n", a.blocksY());
  if (a.blocksX() > 1) line(depth + 1) << "#pragma unroll\n";
  line(depth + 1) << formatv("for (int bj = 0; bj < {0}; ++bj)\n", a.blocksX());
  line(depth + 2) << "#pragma unroll\n";
  line(depth + 2) << formatv("for (int e = 0; e < {0}; e += {1})", a.instr->accPerLane, step);
}

std::string KernelEmitter::accElementIndex(const AccTile &a, unsigned axis, unsigned vec) {
  const MFMAInstr &ins = *a.instr;
  if (axis == 0) return formatv("({0}_row + bi * {1} + lane % {1})", a.name, ins.m);
  std::string col = formatv("{0}_col + bj * {1} + {2}", a.name, ins.n, colInBlock(ins, "lane", vec == 1));
  return vec == 1 ? "(" + col + ")" : formatv("tilec::iota<{0}>({1})", vec, col).str();
}

void KernelEmitter::reduceAccRows(const Reduce &r, unsigned depth) {
  const AccTile &a = *r.dst->sourceAcc;
  const ReducePlan &p = *r.plan;
  std::string acc = info(p.accumulate).cppType.str(), op = reduceOpName(r.op), dst = r.dst->name;
  // The row maximum of MFMA results without quieting each first: v_maximum3_f32 (Target::maximum3F32).
  if (r.op == ReduceOp::Max && p.accumulate == DType::F32 && t.maximum3F32) op = "tilec::ReduceOp::Maximum";
  std::string part = dst + "_part";
  if (a.blocksY() > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int bi = 0; bi < {0}; ++bi) {{\n", a.blocksY());
  unsigned d = depth + 1;
  line(d) << formatv("{0} {1} = 0;\n", acc, part);
  if (a.blocksX() > 1) line(d) << "#pragma unroll\n";
  line(d) << formatv("for (int bj = 0; bj < {0}; ++bj)\n", a.blocksX());
  line(d + 1) << "#pragma unroll\n";
  line(d + 1) << formatv("for (int e = 0; e < {0}; e += {1}) {{\n", a.instr->accPerLane, kGroup);
  line(d + 2) << formatv("const {0} {1}_in = tilec::reduce_lane<{2}, {0}>({3});\n", acc, dst, op,
                         valueExpr(*r.value, kGroup));
  line(d + 2) << formatv("{0} = bj == 0 && e == 0 ? {1}_in : tilec::combine<{2}>({0}, {1}_in);\n", part, dst, op);
  line(d + 1) << "}\n";
  crossLaneSteps(p, op, part, d);
  std::string v = acc == info(r.dst->dtype).cppType ? part
                  : formatv("static_cast<{0}>({1})", info(r.dst->dtype).cppType, part).str();
  line(d) << formatv("{0}[bi] = {1};\n", dst, r.accumulate ? formatv("{0}[bi] + {1}", dst, v).str() : v);
  line(depth) << "}\n";
}

/// `x + y` or `x - y`, without a 0 term, in parentheses.
static std::string add(const std::string &x, const std::string &y, char op) {
  if (y == "0") return x;
  if (x == "0" && op == '+') return y;
  return "(" + x + " " + op + " " + y + ")";
}

std::optional<std::pair<std::string, std::string>> KernelEmitter::accRange(const Value &v, const AccTile &a) {
  using Range = std::pair<std::string, std::string>;
  if (v.dtype != DType::I32 || v.predicate) return std::nullopt;
  if (!v.isTile) {
    std::string e = v.kind == Value::Kind::IndexRef ? index(*v.row) : valueExpr(v, 1);
    if (e.find(' ') != std::string::npos) e = "(" + e + ")";
    return Range{e, e};
  }
  if (v.kind == Value::Kind::ElementIndex && v.acc == &a)
    return Range{"0", std::to_string((v.indexAxis == 0 ? a.rows : a.cols) - 1)}; // the accumulator's rows (columns)
  if (v.kind == Value::Kind::Unary && v.op == ValueOp::Neg) {
    auto r = accRange(*v.operands[0], a);
    if (!r) return std::nullopt;
    return Range{"-" + r->second, "-" + r->first};
  }
  if (v.kind != Value::Kind::Binary) return std::nullopt;
  auto l = accRange(*v.operands[0], a), r = accRange(*v.operands[1], a);
  if (!l || !r) return std::nullopt;
  auto both = [](const char *f, const std::string &x, const std::string &y) {
    return formatv("{0}({1}, {2})", f, x, y).str();
  };
  switch (v.op) {
  case ValueOp::Add: return Range{add(l->first, r->first, '+'), add(l->second, r->second, '+')};
  case ValueOp::Sub: return Range{add(l->first, r->second, '-'), add(l->second, r->first, '-')};
  case ValueOp::Min:
    return Range{both("__builtin_elementwise_min", l->first, r->first),
                 both("__builtin_elementwise_min", l->second, r->second)};
  case ValueOp::Max:
    return Range{both("__builtin_elementwise_max", l->first, r->first),
                 both("__builtin_elementwise_max", l->second, r->second)};
  default: return std::nullopt;
  }
}

std::string KernelEmitter::holdsForAll(const Value &c, const AccTile &a) {
  if (c.kind != Value::Kind::Binary || !isComparison(c.op)) return "";
  auto l = accRange(*c.operands[0], a), r = accRange(*c.operands[1], a);
  if (!l || !r) return "";
  switch (c.op) {
  case ValueOp::Lt: return l->second + " < " + r->first;
  case ValueOp::Le: return l->second + " <= " + r->first;
  case ValueOp::Gt: return l->first + " > " + r->second;
  case ValueOp::Ge: return l->first + " >= " + r->second;
  default: return "";
  }
}

void KernelEmitter::accAssign(const AccAssign &a, unsigned depth) {
  const AccTile &acc = *a.dst;
  markSource(depth, a.loc);
  line(depth) << "// " << sourceText(a.loc) << "\n";
  line(depth) << formatv("// In place, each of this lane's {0} values of {1} (row lane % {2} of each block).\n",
                         acc.registers(), acc.name, acc.instr->m);
  // In the steps of a loop where the select's condition holds for every value (KernelEmitter::splitMasks), its first
  // value alone.
  const Value &v = unmasked.count(&a) ? *a.value->operands[1] : *a.value;
  if (&v != a.value.get() && v.kind == Value::Kind::AccRef && v.acc == &acc) {
    line(depth) << formatv("// Its condition holds for every value in these steps: {0} is unchanged.\n", acc.name);
    return;
  }
  if (&v != a.value.get()) line(depth) << "// Its condition holds for every value in these steps: no select.\n";
  // A select value by value: it runs in the masked steps only, and as vectors LLVM 22 kept 13 more VGPRs for the
  // causal mask of attention_gqa_f16.
  if (v.kind == Value::Kind::Select) {
    accLoops(acc, 1, depth);
    os << "\n";
    line(depth + 3) << formatv("{0}[bi][bj][e] = {1};\n", acc.name, valueExpr(v, 1));
    return;
  }
  // Otherwise four values at a time (a group of the C/D layout: one row, 4 consecutive columns), as one vector
  // expression: clang computes f32 arithmetic on them as packed pairs (v_pk_mul_f32, v_pk_fma_f32), half the
  // instructions.
  std::string value = valueExpr(v, kGroup, /*top=*/true);
  if (!vectorValued(v, kGroup)) value = formatv("({0})({1})", vecType(acc.dtype, kGroup), value).str(); // a splat
  accLoops(acc, kGroup, depth);
  os << "\n";
  if (acc.instr->accPerLane == kGroup) line(depth + 3) << formatv("{0}[bi][bj] = {1};\n", acc.name, value);
  else line(depth + 3) << formatv("tilec::set_slice<{0}>({1}[bi][bj], e, {2});\n", kGroup, acc.name, value);
}

std::string KernelEmitter::maskFreeSteps(const For &f, std::set<const AccAssign *> &masks) {
  std::vector<std::string> conds;
  for (const StmtPtr &s : f.body) {
    auto *a = llvm::dyn_cast<AccAssign>(s.get());
    if (!a || a->value->kind != Value::Kind::Select) continue;
    std::string c = holdsForAll(*a->value->operands[0], *a->dst);
    if (c.empty()) continue;
    masks.insert(a);
    if (!llvm::is_contained(conds, c)) conds.push_back(c);
  }
  std::string all;
  for (const std::string &c : conds) all += (all.empty() ? "" : " && ") + c;
  return all;
}

void KernelEmitter::accLdsWrite(const AccLdsWrite &w, unsigned depth) {
  const Value &v = *w.value;
  const AccTile &a = *v.acc;
  const LdsBuffer &b = *w.dst;
  markSource(depth, w.loc);
  line(depth) << "// " << sourceText(w.loc) << "\n";
  if (w.forwarded) {
    line(depth) << formatv("// Not written: the mma that reads {0} takes these values from acc {1}'s registers.\n",
                           b.name, a.name);
    return;
  }
  line(depth) << formatv("// Each group of 4 values of acc {0} is 4 consecutive columns of one row: one {1}-byte LDS "
                         "write.\n",
                         a.name, kGroup * sizeOf(b.dtype));
  swizzleComment(b, depth);
  accLoops(a, kGroup, depth);
  os << " {\n";
  unsigned d = depth + 3;
  line(d) << formatv("const int row = {0};\n", accElementIndex(a, 0, 1));
  line(d) << formatv("const int col = {0}_col + bj * {1} + {2};\n", a.name, a.instr->n, colInBlock(*a.instr, "lane"));
  line(d) << formatv("tilec::lds_store<{0}>({1}, {2} * {3} + col, {4});\n", vecType(b.dtype, kGroup), lds(b, true),
                     storedRow(b, "row", false), b.pitch(), valueExpr(v, kGroup, /*top=*/true));
  line(depth + 2) << "}\n";
}

void KernelEmitter::accRowsStore(const Store &st, unsigned depth) {
  const Value &v = *st.value;
  const AccTile &a = *v.acc;
  markSource(depth, st.loc);
  line(depth) << "// " << sourceText(st.loc) << "\n";
  line(depth) << formatv("// One value per row of acc {0}: the lanes of the first column group (lane < {1}) store "
                         "their row of each block row.\n",
                         a.name, a.instr->m);
  line(depth) << formatv("if (lane < {0}) {{\n", a.instr->m);
  if (a.blocksY() > 1) line(depth + 1) << "#pragma unroll\n";
  line(depth + 1) << formatv("for (int bi = 0; bi < {0}; ++bi) {{\n", a.blocksY());
  unsigned d = depth + 2;
  line(d) << formatv("const int row = {0};\n", sum({index(*st.row), a.name + "_row", formatv("bi * {0}", a.instr->m).str(),
                                                      "lane"}));
  line(d) << formatv("const int col = {0};\n", index(*st.col));
  storeAccess(*st.tensor, *st.row, *st.col, 1, a.rows, 1, valueExpr(v, 1), d);
  line(depth + 1) << "}\n";
  line(depth) << "}\n";
}

void KernelEmitter::forwardedFragments(const MMA &m, const std::string &step, unsigned d) {
  const AccLdsWrite &w = *m.aFrom;
  const AccTile &x = *w.value->acc;
  const MFMAInstr &ins = *m.acc->instr;
  unsigned runs = ins.kPerLane / 4, groups = ins.kGroups(), perBlock = x.instr->n / 4;
  line(d) << formatv("// A is {0} in registers: run j of this lane's K values is run c = kk / 4 + {1} j + lane / {2} "
                     "of the row, acc {3}'s values e .. e + 3 of block bj = c / {4}{5}.\n",
                     llvm::StringRef(sourceText(w.loc)).rtrim(" ;").split(" = ").second, groups, ins.m, x.name,
                     perBlock, perBlock == groups ? " (e = 0: one run per block and lane)"
                                                  : formatv(" with e = 4 ((c % {0}) / {1})", perBlock, groups).str());
  if (x.blocksY() > 1) line(d) << "#pragma unroll\n";
  line(d) << formatv("for (int bi = 0; bi < {0}; ++bi) {{\n", x.blocksY());
  line(d + 1) << formatv("{0} a_run[{1}];\n", vecType(w.dst->dtype, 4), runs);
  if (runs > 1) line(d + 1) << "#pragma unroll\n";
  line(d + 1) << formatv("for (int j = 0; j < {0}; ++j) {{\n", runs);
  line(d + 2) << formatv("const int c = kk / 4 + {0} * j;\n", groups);
  if (perBlock == groups) line(d + 2) << formatv("const int bj = c / {0}, e = 0;\n", perBlock); // a run per block
  else line(d + 2) << formatv("const int bj = c / {0}, e = 4 * ((c % {0}) / {1});\n", perBlock, groups);
  line(d + 2) << formatv("a_run[j] = {0};\n", valueExpr(*w.value, kGroup, /*top=*/true));
  line(d + 1) << "}\n";
  line(d + 1) << formatv("a_frag{0}[bi] = __builtin_bit_cast({1}, {2});\n", step, ins.operandType,
                         runs == 1 ? "a_run[0]" : "tilec::concat(a_run[0], a_run[1])");
  line(d) << "}\n";
}

/// Before the loop: A's fragments of every instruction K step and block row, read as the mma would read them.
void KernelEmitter::fragmentRead(const FragmentRead &r, unsigned depth) {
  const MMA &m = *r.mma;
  const AccTile &a = *m.acc;
  const MFMAInstr &ins = *a.instr;
  unsigned steps = m.k / ins.k;
  std::string source = sourceText(m.loc);
  if (!source.empty() && source.back() == ';') source.pop_back();
  markSource(depth, m.loc);
  line(depth) << formatv("// The A fragments of {0}: read once, here, and kept in registers through the loop (nothing "
                         "in it writes {1}): {2} K steps x {3} block row{4} of {5}.\n",
                         source, m.a->name, steps, a.blocksY(), a.blocksY() == 1 ? "" : "s", ins.operandType);
  line(depth) << formatv("{0} {1}_a_frags[{2}][{3}];\n", ins.operandType, a.name, steps, a.blocksY());
  if (steps > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int kk = 0; kk < {0}; kk += {1}) {{\n", m.k, ins.k);
  kLane(ins, depth + 1);
  fragmentReads(ins, formatv("{0}_a_frags[kk / {1}]", a.name, ins.k).str(), "bi", a.blocksY(), ins.m, *m.a,
                a.name + "_row", "k_lane", depth + 1);
  line(depth) << "}\n";
}

void KernelEmitter::hoistedFragments(const MMA &m, const std::string &step, unsigned d) {
  const AccTile &a = *m.acc;
  line(d) << formatv("// A's fragments of this K step, read before the loop.\n");
  if (a.blocksY() > 1) line(d) << "#pragma unroll\n";
  line(d) << formatv("for (int bi = 0; bi < {0}; ++bi) a_frag{1}[bi] = {2}_a_frags[kk / {3}][bi];\n", a.blocksY(), step,
                     a.name, a.instr->k);
}

} // namespace tilec::hip
