//===- SemaFunctions.cpp - Element functions, comparisons and select --------===//
//
// exp, exp2, log, sqrt, rsqrt, abs and the activations relu, gelu, silu of an element value; comparisons (`<`, `<=`, `>`, `>=`, `==`, `!=`), which give a
// predicate; and select(c, a, b), the only place a predicate may go. The functions keep their operand's dtype,
// distribution and (for a reduced value) its collapsed axis; what each computes on the device, and how precisely, is
// in docs/language.md ("Element functions").
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelSema.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::sema;
using llvm::dyn_cast;
using llvm::formatv;

bool KernelSema::notPredicate(const Checked &v, llvm::SMRange at) {
  if (!v.value->predicate) return true;
  diags.error(at, "a comparison gives a predicate, not an element value; use it as the condition of "
                  "select(c, a, b), e.g. select(x < 0.0, -x, x)");
  return false;
}

Checked KernelSema::elementFunction(const ast::CallExpr &c, ir::ValueOp op, const Layout *context) {
  llvm::StringRef f = ir::spelling(op);
  if (c.args.size() != 1) {
    diags.error(c.range, formatv("{0} takes 1 argument; it has {1}", f, c.args.size()));
    return {};
  }
  if (!c.argNames[0].name.empty()) {
    diags.error(c.argNames[0].range, formatv("{0} takes no named arguments", f));
    return {};
  }
  Checked o = checkValue(*c.args[0], context);
  if (!o || !notPredicate(o, c.args[0]->range)) return {};
  if (!o.untyped) {
    const DTypeInfo &in = info(o.value->dtype);
    if (!in.hasArithmetic) {
      diags.error(c.args[0]->range, formatv("{0} has no arithmetic; convert with cast<f32>(...) first", in.name));
      return {};
    }
    if (op != ir::ValueOp::Abs && op != ir::ValueOp::Relu && !in.isFloat) {
      diags.error(c.args[0]->range, formatv("{0} needs a floating-point operand; {1} has the integer dtype {2}; "
                                            "convert with cast<f32>(...)", f, describe(*o.value), in.name));
      return {};
    }
  }
  return unaryOf(op, c.range, std::move(o));
}

Checked KernelSema::comparison(const ast::BinaryExpr &b, const Layout *context) {
  static const ir::ValueOp ops[] = {ir::ValueOp::Eq, ir::ValueOp::Ne, ir::ValueOp::Lt,
                                    ir::ValueOp::Le, ir::ValueOp::Gt, ir::ValueOp::Ge};
  ir::ValueOp op = ops[static_cast<int>(b.op) - static_cast<int>(ast::BinaryOp::Eq)];
  Checked l = checkValue(*b.lhs, context), r = checkValue(*b.rhs, context);
  if (!l || !r) return {};
  Checked v = combine(op, std::move(l), std::move(r), b.range, b.opRange);
  if (v) v.value->predicate = true;
  return v;
}

Checked KernelSema::select(const ast::CallExpr &c, const Layout *context) {
  if (c.args.size() != 3) {
    diags.error(c.range, formatv("select takes 3 arguments (condition, value if true, value if false); it has {0}",
                                 c.args.size()));
    return {};
  }
  for (const ast::Ident &n : c.argNames)
    if (!n.name.empty()) {
      diags.error(n.range, "select takes no named arguments");
      return {};
    }
  Checked cond = checkValue(*c.args[0], context), a = checkValue(*c.args[1], context),
          b = checkValue(*c.args[2], context);
  if (!cond || !a || !b) return {};
  if (!cond.value->predicate) {
    diags.error(c.args[0]->range, formatv("the condition of select is a comparison such as 'x < 0.0'; this is {0}",
                                          describe(*cond.value)));
    return {};
  }
  if (!notPredicate(a, c.args[1]->range) || !notPredicate(b, c.args[2]->range)) return {};
  if (cond.untyped && !coerce(*cond.value, DType::F32)) return {};
  if (!a.untyped && !b.untyped && a.value->dtype != b.value->dtype) {
    diags.error(c.callee.range, formatv("the values of select differ in dtype: {0} and {1}; convert one with "
                                        "cast<..>(...)", describe(*a.value), describe(*b.value)));
    return {};
  }
  if (a.untyped != b.untyped && !coerce(a.untyped ? *a.value : *b.value, a.untyped ? b.value->dtype : a.value->dtype))
    return {};
  const ir::Value *parts[] = {cond.value.get(), a.value.get(), b.value.get()};
  const ir::Value *first = nullptr, *firstAcc = nullptr;
  for (const ir::Value *p : parts) {
    if (p->acc) {
      // Values in an accumulator's C/D layout select among themselves (a mask of attention's scores).
      bool rowsOnly = firstAcc && (firstAcc->reducedAxis == 1 || p->reducedAxis == 1);
      if (first || (firstAcc && !(rowsOnly ? sameAccRows(*firstAcc->acc, *p->acc) : sameAcc(*firstAcc->acc, *p->acc)))) {
        diags.error(c.callee.range, formatv("operands of 'select' are distributed differently: {0} and {1} (an "
                                            "accumulator keeps its MFMA C/D layout)",
                                            describe(first ? *first : *firstAcc), describe(*p)));
        return {};
      }
      if (!firstAcc || firstAcc->reducedAxis != -1) firstAcc = p;
      continue;
    }
    if (!p->layout) continue;
    if (firstAcc) {
      diags.error(c.callee.range, formatv("operands of 'select' are distributed differently: {0} and {1} (an "
                                          "accumulator keeps its MFMA C/D layout)", describe(*firstAcc), describe(*p)));
      return {};
    }
    if (first && !first->layout->sameMapping(*p->layout)) {
      diags.error(c.callee.range, formatv("operands of 'select' are distributed differently: {0} is {1}, {2} is {3}",
                                          describe(*first), describeLayout(*first->layout), describe(*p),
                                          describeLayout(*p->layout)));
      return {};
    }
    if (!first || first->reducedAxis != -1) first = p;
  }
  auto v = std::make_unique<ir::Value>();
  v->kind = ir::Value::Kind::Select;
  v->loc = c.range;
  v->dtype = a.untyped ? b.value->dtype : a.value->dtype;
  v->isTile = cond.value->isTile || a.value->isTile || b.value->isTile;
  v->layout = first ? first->layout : nullptr;
  v->acc = firstAcc ? firstAcc->acc : nullptr;
  v->reducedAxis = resultAxis({parts[0], parts[1], parts[2]});
  bool untyped = a.untyped && b.untyped;
  v->operands.push_back(std::move(cond.value));
  v->operands.push_back(std::move(a.value));
  v->operands.push_back(std::move(b.value));
  return {std::move(v), untyped};
}

Checked KernelSema::elementIndex(const ast::CallExpr &c) {
  const std::string &f = c.callee.name;
  auto *n = c.args.size() == 1 && c.argNames[0].name.empty() ? dyn_cast<ast::NameExpr>(c.args[0].get()) : nullptr;
  auto it = n ? tiles.find(n->name) : tiles.end();
  if (auto a = n ? accs.find(n->name) : accs.end(); a != accs.end()) {
    // An accumulator's element indices, in its C/D layout (attention's masks: 'select(t + col(s) < T, s, -inf)').
    if (accBeforeMMA(*a->second, n->range)) return {};
    used.insert(n->name);
    auto v = std::make_unique<ir::Value>();
    v->kind = ir::Value::Kind::ElementIndex;
    v->dtype = DType::I32;
    v->isTile = true;
    v->acc = a->second;
    v->indexAxis = f == "row" ? 0 : 1;
    v->loc = c.range;
    return {std::move(v), false};
  }
  if (it == tiles.end()) {
    if (n && poisoned.count(n->name)) return {};
    diags.error(c.args.size() == 1 ? c.args[0]->range : c.range,
                formatv("{0}(t) takes one register tile or accumulator t and gives the {1} of each of its elements within the tile "
                        "(0 .. {2} - 1), an i32 value of t's distribution, e.g. 'select({0}(x) < N, x, 0.0)'",
                        f, f == "row" ? "row" : "column", f == "row" ? "rows" : "columns"));
    return {};
  }
  const ir::Tile &t = *it->second;
  if (t.layout.oneD) {
    diags.error(c.args[0]->range, formatv("{0}({1}): tile '{1}' is 1-D; row and col index the rows and columns of "
                                          "2-D tiles",
                                          f, t.name));
    return {};
  }
  used.insert(t.name);
  auto v = std::make_unique<ir::Value>();
  v->kind = ir::Value::Kind::ElementIndex;
  v->dtype = DType::I32;
  v->isTile = true;
  v->tile = &t;
  v->layout = &t.layout;
  v->indexAxis = f == "row" ? 0 : 1;
  v->loc = c.range;
  return {std::move(v), false};
}
