//===- HIPEmitter.cpp - Writing the HIP translation unit --------------------===//
//
// Layout of the output, per kernel: a comment on what it computes; the kernel (ids, block origin, register tiles,
// each lane's position in every distribution, then one block per statement with the statement's source text as its
// comment); when rows are only known vector aligned at run time, the same kernel again as NAME_unaligned; the host
// launcher, which checks the alignment and picks one.
//
//===----------------------------------------------------------------------===//
#include "codegen/HIPEmitter.h"
#include "codegen/EmitterNames.h"
#include "codegen/HIPEmitterKernel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "support/Diagnostics.h"
#include "target/MFMA.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <map>
#include <numeric>

using namespace tilec;
using namespace tilec::ir;
using namespace tilec::hip;
using llvm::formatv;

namespace tilec::hip {

std::string vecType(DType dt, unsigned n) {
  if (n == 1) return info(dt).cppType.str();
  return formatv("tilec::{0}x{1}", info(dt).cppTag == "bf8" ? "fp8" : info(dt).cppTag, n);
}

std::string fp8Format(DType dt, const Target &t) {
  bool fnuz = t.fp8Encoding == Fp8Encoding::FNUZ;
  if (dt == DType::FP8) return fnuz ? "tilec::Fp8Format::E4M3FNUZ" : "tilec::Fp8Format::E4M3FN";
  return fnuz ? "tilec::Fp8Format::E5M2FNUZ" : "tilec::Fp8Format::E5M2";
}



/// A product term `factor * name`, omitted when the factor is 0 and written without `* 1`.
std::string term(const std::string &expr, unsigned factor) {
  if (factor == 0 || expr.empty()) return "";
  return factor == 1 ? expr : formatv("{0} * {1}", expr, factor).str();
}

std::string sum(std::initializer_list<std::string> terms) {
  std::string out;
  for (const std::string &t : terms)
    if (!t.empty()) out += (out.empty() ? "" : " + ") + t;
  return out.empty() ? "0" : out;
}

void KernelEmitter::emit() {
  plans = planAccesses(k);
  bool twoKernels = hasUnalignedVariant(plans);
  signatureComment();
  kernel(Variant::Vector, twoKernels);
  if (twoKernels) kernel(Variant::Unaligned, true);
  launcher(twoKernels);
  out << text;
}

void KernelEmitter::kernel(Variant v, bool twoKernels) {
  markSource(0, k.loc); // the signature and the prologue come from the kernel's declaration
  variant = v;
  positions.clear();
  reduceLds.clear();
  usedLoadNames.clear();
  loadNames.clear();
  nonNegativeLoops.clear();
  loopBounds.clear();
  std::string name = k.name;
  if (v == Variant::Unaligned) {
    name = unalignedName(k);
    os << formatv("// {0}: {1} for tensors whose rows do not all start on a vector boundary. Vectors inside a row are\n"
                  "// single accesses that need only element alignment; where one crosses the end of a row it goes "
                  "element by element.\n", name, k.name);
  } else if (twoKernels) {
    os << formatv("// Runs when {0} (the launcher checks); otherwise {1} runs.\n", vectorKernelCondition(plans),
                  unalignedName(k));
  }
  // The body first: a scalar it never reads (a bound every mask of this variant proves) keeps its place in the
  // signature, which both variants share, with its name commented out.
  size_t start = text.size();
  prologue();
  for (const StmtPtr &s : k.body) stmt(*s, 1);
  std::string body = text.substr(start);
  text.resize(start);
  unsigned waves = v == Variant::Unaligned ? k.wavesPerEUUnaligned : k.wavesPerEU;
  std::string hint;
  if (waves) {
    os << formatv("// Asks the compiler for at least {0} wave{1} per SIMD (amdgpu_waves_per_eu; the report says why).\n",
                  waves, waves == 1 ? "" : "s");
    hint = formatv(" TILEC_WAVES_PER_EU({0})", waves).str();
  }
  os << formatv("extern \"C\" __global__ __launch_bounds__({0}){2} void {1}(\n    ", k.workgroupSize, name, hint);
  params(/*forLauncher=*/false, &body);
  os << ") {\n" << body << "}\n\n";
}

/// Whether `id` occurs in `code` as a whole identifier outside a `//` comment (the emitter writes no block comments
/// or string literals in kernel bodies), so that a comment naming a parameter does not count as a use of it.
bool KernelEmitter::usesIdentifier(llvm::StringRef code, llvm::StringRef id) {
  auto isIdent = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  for (size_t at = code.find(id); at != llvm::StringRef::npos; at = code.find(id, at + 1)) {
    bool before = at > 0 && isIdent(code[at - 1]);
    bool after = at + id.size() < code.size() && isIdent(code[at + id.size()]);
    if (before || after) continue;
    size_t lineStart = code.rfind('\n', at);
    lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
    if (code.slice(lineStart, at).contains("//")) continue;
    return true;
  }
  return false;
}

void KernelEmitter::stmt(const Stmt &s, unsigned depth) {
  switch (s.kind) {
  case Stmt::Kind::Assign: {
    auto &a = llvm::cast<Assign>(s);
    std::string element = regName(*a.dst) + "[i]";
    commentOverride = a.dst->madeFor.empty() ? "" : formatv("{0} = load: {1}.", a.dst->name, a.dst->madeFor).str();
    chunked(a.accessChunk, a.dst->layout, [&] {
      accessLoop(s.loc, *a.value, a.dst->layout, depth, [&](unsigned d, const std::string &v) {
        line(d) << element << " = " << v << ";\n";
      }, nullptr, nullptr, &element);
    });
    commentOverride.clear();
    return;
  }
  case Stmt::Kind::Store: {
    auto &st = llvm::cast<Store>(s);
    if (st.value->acc && st.value->reducedAxis == 1) return accRowsStore(st, depth);
    if (st.value->acc) return accStore(st, depth);
    if (st.value->reducedAxis != -1) return reducedStore(st, depth);
    const Layout &l = *st.value->layout;
    chunked(st.accessChunk, l, [&] {
      accessLoop(s.loc, *st.value, l, depth, [&](unsigned d, const std::string &v) {
        storeAccess(*st.tensor, *st.row, *st.col, l.vec, windowRows(l), windowCols(l), v, d);
      }, st.row.get(), st.col.get());
    });
    return;
  }
  case Stmt::Kind::For: {
    auto &f = llvm::cast<For>(s);
    enterLoop(f);
    if (f.plan) return kLoop(f, depth);
    plainLoop(f, depth);
    return;
  }
  case Stmt::Kind::Barrier: {
    const auto &b = llvm::cast<Barrier>(s);
    if (!b.madeFor.empty()) line(depth) << "// A barrier placed by tilec: it orders " << b.madeFor << ".\n";
    if (b.dropped) line(depth) << "// barrier; not needed: " << b.why << ".\n";
    else line(depth) << "tilec::barrier();\n";
    return;
  }
  case Stmt::Kind::FragmentRead: fragmentRead(llvm::cast<FragmentRead>(s), depth); return;
  case Stmt::Kind::LdsWrite: ldsWrite(llvm::cast<LdsWrite>(s), depth); return;
  case Stmt::Kind::LdsRead: ldsRead(llvm::cast<LdsRead>(s), depth); return;
  case Stmt::Kind::MMA: mma(llvm::cast<MMA>(s), depth); return;
  case Stmt::Kind::Reduce: reduce(llvm::cast<Reduce>(s), depth); return;
  case Stmt::Kind::ReducedAssign: reducedAssign(llvm::cast<ReducedAssign>(s), depth); return;
  case Stmt::Kind::AccAssign: accAssign(llvm::cast<AccAssign>(s), depth); return;
  case Stmt::Kind::AccLdsWrite: accLdsWrite(llvm::cast<AccLdsWrite>(s), depth); return;
  }
}

template <typename Emit> void KernelEmitter::chunked(unsigned chunk, const Layout &layout, Emit emit) {
  unsigned all = layout.rowsPerLane;
  if (!chunk || chunk >= all) return emit();
  // Each loop declares the same names (its load temporaries are its own).
  llvm::StringSet<> names = usedLoadNames;
  for (unsigned first = 0; first < all; first += chunk) {
    accessRange = {first, std::min(all, first + chunk)};
    usedLoadNames = names;
    emit();
  }
  accessRange = {0, 0};
}

/// One loop over this lane's accesses of `layout` (those of accessRange when set); `body` writes the use of the
/// per-access value expression.
template <typename Body>
void KernelEmitter::accessLoop(llvm::SMRange loc, const Value &value, const Layout &layout, unsigned depth, Body body,
                               const Index *storeRow, const Index *storeCol, const std::string *directTarget) {
  auto [first, end] = accessRange.second ? accessRange : std::pair<unsigned, unsigned>{0, layout.rowsPerLane};
  if (first == 0) {
    markSource(depth, loc);
    line(depth) << "// " << (commentOverride.empty() ? sourceText(loc) : commentOverride) << "\n";
    if (end < layout.rowsPerLane)
      line(depth) << formatv("// In loops of {0} accesses: one loop of all {1} (fp8 conversions in software) could be "
                             "too long for LLVM to\n",
                             end, layout.rowsPerLane)
                  << formatv("{0}// unroll, and its arrays would then go to scratch.\n", std::string(2 * depth, ' '));
  }
  std::vector<const Value *> loads;
  collectLoads(value, loads);
  bool needsPosition = !loads.empty() || storeRow;
  if (end - first > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int i = {0}; i < {1}; ++i) {{\n", first, end);
  unsigned d = depth + 1;
  loadNames.clear();
  if (needsPosition) {
    const LanePosition &p = lanePosition(layout, "");
    std::string step = layout.pattern == Pattern::ThreadRaked ? "i" : formatv("i * {0}", layout.laneRows).str();
    const Index *row0 = storeRow ? storeRow : loads.front()->row.get();
    const Index *col0 = storeCol ? storeCol : loads.front()->col.get();
    // Every load and the store of one statement share the window origin when they share it in the source.
    bool shared = true;
    for (const Value *l : loads) shared &= sameIndex(*l->row, *row0) && sameIndex(*l->col, *col0);
    flatAccess = layout.oneD;
    // A 1-D tile: row r of its view is elements r * cols .. of the window, all in the one row of a 1-D tensor.
    std::string flatCol = layout.oneD ? term("(" + sum({p.row, step}) + ")", layout.cols) : "";
    if (shared && layout.oneD) {
      line(d) << formatv("const int col = {0};  // element index\n", sum({index(*col0), flatCol, p.col}));
    } else if (shared) {
      // A row origin of loads that moves with a loop: its product with the row pitch is its own term of the address,
      // which clang turns into a pointer increment per iteration instead of a 64-bit multiply per access.
      bool split = !storeRow && movesWithLoop(*row0);
      if (split) rowSplit = {index(*row0), sum({p.row, step})};
      // The parts of a staged step's buffer load (windowOffsetLoad): the origins' terms that move with the loop go to
      // the scalar offset, the rest stays with the lane's (measured on gemm_f16_gfx950 with K steps of 64: the block's
      // row in the scalar offset too, 163 cycles per step in llvm-mca-22; in the lane's offset, where it is the same
      // from step to step, 146).
      bool rowMoves = movesWithLoop(*row0), colMoves = movesWithLoop(*col0);
      accessWindow = {rowMoves ? index(*row0) : "0", rowMoves ? sum({p.row, step}) : sum({index(*row0), p.row, step}),
                      colMoves ? index(*col0) : "0", colMoves ? p.col : sum({index(*col0), p.col})};
      // Loads at the window's scalar offset (a staged K loop) address by the parts, not by row and column.
      bool byParts = !storeRow && llvm::all_of(loads, [&](const Value *l) {
        return windowOffsetLoad(*l, layout.vec, windowRows(layout), windowCols(layout));
      });
      if (!byParts && (!split || rowInMasks(loads, layout)))
        line(d) << formatv("const int row = {0};\n", sum({index(*row0), p.row, step}));
      if (!byParts) line(d) << formatv("const int col = {0};\n", sum({index(*col0), p.col}));
    }
    for (const Value *l : loads) {
      // A plain `t = load X[...]` lands in the tile itself; loads inside an expression get a named temporary.
      std::string n = &value == l && directTarget ? *directTarget : uniqueLoadName(l->tensor->name);
      loadNames[l] = n;
      std::string r = layout.oneD ? "0" : shared ? "row" : sum({index(*l->row), p.row, step});
      std::string c = shared ? "col" : sum({index(*l->col), flatCol, p.col});
      loadAccess(*l, layout.vec, windowRows(layout), windowCols(layout), n, r, c, d,
                 /*declare=*/n != (directTarget ? *directTarget : ""));
    }
    if (!shared && storeRow) {
      if (!layout.oneD) line(d) << formatv("const int row = {0};\n", sum({index(*storeRow), p.row, step}));
      line(d) << formatv("const int col = {0};\n", sum({index(*storeCol), flatCol, p.col}));
    }
  }
  if (!(directTarget && value.kind == Value::Kind::Load)) body(d, valueExpr(value, layout.vec, /*top=*/true));
  rowSplit = {};
  accessWindow = {};
  flatAccess = false;
  line(depth) << "}\n";
}

bool KernelEmitter::rowInMasks(const std::vector<const Value *> &loads, const Layout &layout) {
  for (const Value *l : loads) {
    Access kind = accessKind(*l->tensor, *l->col, layout.vec);
    std::string mask = inBounds(*l->tensor, "row", "col", *l->row, *l->col, windowRows(layout), windowCols(layout),
                                kind == Access::Crossing ? layout.vec : 0);
    if (usesIdentifier(mask, "row") || (kind == Access::Crossing && !mask.empty())) return true;
  }
  return false;
}

bool KernelEmitter::sameIndex(const Index &a, const Index &b) {
  if (a.kind != b.kind || a.value != b.value || a.name != b.name) return false;
  if (!a.isBinary()) return true;
  return sameIndex(*a.lhs, *b.lhs) && sameIndex(*a.rhs, *b.rhs);
}

void KernelEmitter::collectLoads(const Value &v, std::vector<const Value *> &out) {
  if (v.kind == Value::Kind::Load) out.push_back(&v);
  for (const auto &op : v.operands) collectLoads(*op, out);
}

std::string KernelEmitter::uniqueLoadName(const std::string &tensor) {
  std::string n = tensor + "_v";
  for (unsigned i = 1; usedLoadNames.count(n); ++i) n = tensor + "_v" + std::to_string(i);
  usedLoadNames.insert(n);
  return n;
}

void KernelEmitter::enterLoop(const For &f) {
  nonNegativeLoops[f.var] = nonNegative(*f.lower) && nonNegative(*f.step);
  // (known divisor of the start and the constant step, the upper bound): what windowInside needs.
  if (f.step->kind == Index::Kind::Const && f.lower->kind == Index::Kind::Const)
    loopBounds[f.var] = {std::gcd(f.lower->value == 0 ? f.step->value : f.lower->value, f.step->value),
                         f.upper.get()};
}

/// The reduced tiles that statements of `body` (nested loops included) assign.
static void assignedReduced(const Body &body, llvm::SmallPtrSet<const ReducedTile *, 8> &out) {
  for (const StmtPtr &s : body) {
    if (auto *r = llvm::dyn_cast<Reduce>(s.get())) out.insert(r->dst);
    else if (auto *a = llvm::dyn_cast<ReducedAssign>(s.get())) out.insert(a->dst);
    else if (auto *f = llvm::dyn_cast<For>(s.get())) assignedReduced(f->body, out);
  }
}

void KernelEmitter::plainLoop(const For &f, unsigned depth) {
  // Loads rotated one step ahead (passes/RotateLoopLoads.h), with the loop variable written as `var`: each access
  // also needs `var < upper` (the step exists), in its mask rather than a branch around the loads, so the loop stays
  // one block of straight code.
  // The loads placed after body statement `after` (all of them: SIZE_MAX).
  auto rotated = [&](const std::string &var, unsigned d, size_t after) {
    loopVarText[f.var] = var;
    accessGuard = formatv("{0} < {1}", var, index(*f.upper)).str();
    maskedBufferLoads = f.rotatedBufferLoads && variant == Variant::Vector;
    for (size_t j = 0; j < f.rotatedLoads.size(); ++j)
      if (after == SIZE_MAX || f.rotatedAfter[j] == after) stmt(*f.rotatedLoads[j], d);
    maskedBufferLoads = false;
    accessGuard.clear();
    loopVarText.erase(f.var);
  };
  std::string next = formatv("{0} + {1}", f.var, index(*f.step)).str();
  auto body = [&](unsigned d) {
    loopAssigned.emplace_back();
    assignedReduced(f.body, loopAssigned.back());
    for (size_t i = 0; i < f.body.size(); ++i) {
      const Stmt &b = *f.body[i];
      if (llvm::is_contained(f.rotatedLoads, &b)) continue;
      stmt(b, d);
      if (!llvm::is_contained(f.rotatedAfter, i)) continue;
      line(d) << formatv("// The next step's tiles, loaded during this one (their values of this step are in LDS; none "
                         "past the last step).\n");
      rotated(next, d, i);
    }
    loopAssigned.pop_back();
  };
  if (!f.rotatedLoads.empty()) {
    line(depth) << "// The first step's tiles, loaded before the loop; each step loads the next one's.\n";
    rotated(index(*f.lower), depth, SIZE_MAX);
  }
  std::set<const AccAssign *> masks;
  std::string maskFree = maskFreeSteps(f, masks);
  if (maskFree.empty()) {
    line(depth) << formatv("for (int {0} = {1}; {0} < {2}; {0} += {3}) {{\n", f.var, index(*f.lower),
                           index(*f.upper), index(*f.step));
    body(depth + 1);
    line(depth) << "}\n";
    return;
  }
  // The steps where every mask holds for all its values run first without the selects (the key blocks inside T and
  // below a causal diagonal); the others, from the first step where one does not, with them.
  line(depth) << "{\n";
  line(depth + 1) << formatv("int {0} = {1};\n", f.var, index(*f.lower));
  line(depth + 1) << formatv("// The steps where the masks select nothing: {0}.\n", maskFree);
  line(depth + 1) << formatv("for (; {0} < {1} && {2}; {0} += {3}) {{\n", f.var, index(*f.upper), maskFree,
                             index(*f.step));
  unmasked = masks;
  body(depth + 2);
  unmasked.clear();
  line(depth + 1) << "}\n";
  line(depth + 1) << "// The other steps, masked.\n";
  line(depth + 1) << formatv("for (; {0} < {1}; {0} += {2}) {{\n", f.var, index(*f.upper), index(*f.step));
  body(depth + 2);
  line(depth + 1) << "}\n";
  line(depth) << "}\n";
}

/// Whether `i` is never negative: block origins, dimensions, literals, loops counting up from such values.
bool KernelEmitter::nonNegative(const Index &i) const {
  switch (i.kind) {
  case Index::Kind::Const: return i.value >= 0;
  case Index::Kind::BlockRow:
  case Index::Kind::BlockCol: return true;
  case Index::Kind::LoopVar: {
    auto it = nonNegativeLoops.find(i.name);
    return it != nonNegativeLoops.end() && it->second;
  }
  case Index::Kind::Scalar:
    for (const auto &s : k.scalars)
      if (s->name == i.name) return s->isDimension;
    return false;
  case Index::Kind::Sub: return false;
  default: return nonNegative(*i.lhs) && nonNegative(*i.rhs);
  }
}

std::string KernelEmitter::index(const Index &i) {
  switch (i.kind) {
  case Index::Kind::Const: return std::to_string(i.value);
  case Index::Kind::BlockRow: return k.gridTensor->rank == 1 ? "0" : "block_row"; // a 1-D grid has one row
  case Index::Kind::BlockCol: return k.gridWholeRows ? "0" : "block_col"; // whole rows start at column 0
  case Index::Kind::LoopVar: {
    auto shifted = loopVarText.find(i.name);
    return shifted == loopVarText.end() ? i.name : shifted->second;
  }
  case Index::Kind::Scalar: return i.name;
  default: break;
  }
  static const char *ops[] = {"+", "-", "*", "/", "%"};
  const char *op = ops[static_cast<int>(i.kind) - static_cast<int>(Index::Kind::Add)];
  // An operand that is itself a sum (an operation, or a loop variable written as the next step's "k + 64") keeps
  // its parentheses: 2 * (k + 64).
  auto wrap = [&](const Index &c) {
    std::string text = index(c);
    return c.isBinary() || text.find(' ') != std::string::npos ? "(" + text + ")" : text;
  };
  return formatv("{0} {1} {2}", wrap(*i.lhs), op, wrap(*i.rhs));
}

std::string KernelEmitter::constant(const Value &v) {
  std::string s = v.spelling;
  if (s == "inf") return v.dtype == DType::F32 ? "__builtin_inff()" : formatv("static_cast<{0}>(__builtin_inff())",
                                                                              info(v.dtype).cppType).str();
  bool isFloatText = s.find_first_of(".eE") != std::string::npos;
  switch (v.dtype) {
  case DType::F32: return isFloatText ? s + "f" : s + ".0f";
  case DType::I32: return s;
  default: return formatv("static_cast<{0}>({1})", info(v.dtype).cppType, s);
  }
}

std::string KernelEmitter::valueExpr(const Value &v, unsigned vec, bool top) {
  auto sub = [&](const Value &o) {
    std::string e = valueExpr(o, vec);
    return o.kind == Value::Kind::Binary && o.op != ValueOp::Max && o.op != ValueOp::Min ? "(" + e + ")" : e;
  };
  switch (v.kind) {
  case Value::Kind::TileRef: return v.tile->name + "[i]";
  case Value::Kind::ReducedRef:
    if (v.reduced->sourceAcc) return v.reduced->name + "[bi]"; // the lane's row of block row bi
    if (v.reduced->axis == 0) return v.reduced->name;
    // A row's value broadcast against vectors in a loop that does not assign it (see tilec::in_loop).
    if (vec > 1 && !loopAssigned.empty() && !loopAssigned.back().count(v.reduced))
      return formatv("tilec::in_loop({0}[i])", v.reduced->name);
    return v.reduced->name + "[i]";
  case Value::Kind::AccRef:
    return vec == 1 ? v.acc->name + "[bi][bj][e]" : formatv("tilec::slice<{0}>({1}[bi][bj], e)", vec, v.acc->name).str();
  case Value::Kind::ScalarRef: return v.scalar->name;
  case Value::Kind::IndexRef: return "(" + index(*v.row) + ")";
  case Value::Kind::ElementIndex: {
    if (v.acc) return accElementIndex(*v.acc, v.indexAxis, vec);
    // The row of access i (the same for its vector), or the columns of its vec elements.
    const Layout &l = *v.layout;
    const LanePosition &p = lanePosition(l, "");
    if (v.indexAxis == 0)
      return formatv("({0} + {1})", p.row, l.pattern == Pattern::ThreadRaked ? "i" : formatv("i * {0}", l.laneRows).str());
    return vec == 1 ? p.col : formatv("tilec::iota<{0}>({1})", vec, p.col).str();
  }
  case Value::Kind::Const: return constant(v);
  case Value::Kind::Load: return loadNames.at(&v);
  case Value::Kind::Unary:
    if (isElementFunction(v.op)) return formatv("tilec::{0}({1})", spelling(v.op), valueExpr(*v.operands[0], vec));
    return "-" + sub(*v.operands[0]);
  case Value::Kind::Select: {
    // The two values as the select's own type: a uniform one (or a row's result) is splat to a vector.
    auto arg = [&](const Value &o) {
      std::string e = valueExpr(o, vec);
      return vectorValued(v, vec) && !vectorValued(o, vec) ? formatv("({0})({1})", vecType(v.dtype, vec), e).str() : e;
    };
    return formatv("tilec::select({0}, {1}, {2})", valueExpr(*v.operands[0], vec), arg(*v.operands[1]),
                   arg(*v.operands[2]));
  }
  case Value::Kind::Binary: {
    const Value &a = *v.operands[0], &b = *v.operands[1];
    if (v.op == ValueOp::Max || v.op == ValueOp::Min) {
      auto arg = [&](const Value &o) {
        std::string e = valueExpr(o, vec);
        return vectorValued(v, vec) && !vectorValued(o, vec) ? formatv("({0})({1})", vecType(v.dtype, vec), e).str()
                                                             : e;
      };
      return formatv("__builtin_elementwise_{0}({1}, {2})", spelling(v.op), arg(a), arg(b));
    }
    if (isComparison(v.op)) return formatv("({0} {1} {2})", sub(a), spelling(v.op), sub(b));
    (void)top;
    return formatv("{0} {1} {2}", sub(a), spelling(v.op), sub(b));
  }
  case Value::Kind::Cast: return castExpr(v, vec);
  }
  return "";
}

std::string KernelEmitter::castExpr(const Value &v, unsigned vec) {
  const Value &from = *v.operands[0];
  unsigned n = vectorValued(from, vec) ? vec : 1;
  std::string e = valueExpr(from, vec);
  if (from.dtype == v.dtype) return e;
  auto convert = [&](const std::string &x, DType to) {
    return n == 1 ? formatv("static_cast<{0}>({1})", info(to).cppType, x).str()
                  : formatv("__builtin_convertvector({0}, {1})", x, vecType(to, n)).str();
  };
  // cast<f16, sat> and cast<bf16, sat>: clamped in f32 to the finite range, then rounded (fp8 always saturates).
  if (v.saturate && (v.dtype == DType::F16 || v.dtype == DType::BF16))
    return convert(formatv("tilec::saturate_to<{0}>({1})", info(v.dtype).cppType,
                           from.dtype == DType::F32 ? e : convert(e, DType::F32)).str(), v.dtype);
  if (isFp8(from.dtype)) {
    e = formatv("tilec::fp8_to_f32<{0}, {1}>({2})", fp8Format(from.dtype, t), n, e);
    return v.dtype == DType::F32 ? e : (isFp8(v.dtype) ? fp8From(e, v.dtype, n) : convert(e, v.dtype));
  }
  if (isFp8(v.dtype)) return fp8From(from.dtype == DType::F32 ? e : convert(e, DType::F32), v.dtype, n);
  // clang refuses static_cast between _Float16 and __bf16, and its x86 backend (the emulator) cannot lower the
  // vector conversion; through f32 is the same value (f16 and bf16 are exact in f32, then one rounding).
  bool halves = (from.dtype == DType::F16 && v.dtype == DType::BF16) ||
                (from.dtype == DType::BF16 && v.dtype == DType::F16);
  if (halves) e = convert(e, DType::F32);
  return convert(e, v.dtype);
}

std::string KernelEmitter::fp8From(const std::string &f32, DType to, unsigned n) {
  return formatv("tilec::f32_to_fp8<{0}, {1}>({2})", fp8Format(to, t), n, f32);
}


} // namespace tilec::hip


void tilec::emitHIP(const Module &module, llvm::StringRef sourceName, llvm::raw_ostream &os, const LineOf *lineOf) {
  const Target &t = *module.target;
  os << formatv("// Generated by tilec {0} from {1} for {2} ({3}, {4}). Regenerate it rather than editing it.\n",
                TILEC_VERSION, sourceName, t.name, t.product, t.family);
  os << formatv("// Build: clang++ -x hip --offload-arch={0} -I <tilec>/runtime/include\n", t.name);
  if (t.minLLVMMajor > 19)
    os << formatv("// {0} needs a compiler built on LLVM >= {1} (e.g. ROCm 7); LLVM 19 cannot compile this file.\n",
                  t.name, t.minLLVMMajor);
  // The target, for the emulator (fp8 MFMA operands are FNUZ on gfx942, OCP on gfx950).
  os << "#define TILEC_ARCH_" << t.name.upper() << " 1\n";
  os << "#include \"tilec/runtime.h\"\n\n";
  for (const auto &k : module.kernels) {
    std::string text;
    llvm::raw_string_ostream kernelOs(text);
    MarkedNames names(const_cast<Kernel &>(*k)); // this compilation's own IR; its names are back on return
    KernelEmitter(*k, t, kernelOs, lineOf).emit();
    os << names.resolve(kernelOs.str());
  }
}
