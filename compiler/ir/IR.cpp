//===- IR.cpp - Printing the IR and small queries on it ---------------------===//
#include "ir/IR.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>

using namespace tilec;
using namespace tilec::ir;
using llvm::cast;

llvm::StringRef ir::spelling(ValueOp op) {
  switch (op) {
  case ValueOp::Neg: return "neg";
  case ValueOp::Add: return "+";
  case ValueOp::Sub: return "-";
  case ValueOp::Mul: return "*";
  case ValueOp::Div: return "/";
  case ValueOp::Rem: return "%";
  case ValueOp::Max: return "max";
  case ValueOp::Min: return "min";
  case ValueOp::Exp: return "exp";
  case ValueOp::Exp2: return "exp2";
  case ValueOp::Log: return "log";
  case ValueOp::Sqrt: return "sqrt";
  case ValueOp::Rsqrt: return "rsqrt";
  case ValueOp::Abs: return "abs";
  case ValueOp::Relu: return "relu";
  case ValueOp::Gelu: return "gelu";
  case ValueOp::Silu: return "silu";
  case ValueOp::Lt: return "<";
  case ValueOp::Le: return "<=";
  case ValueOp::Gt: return ">";
  case ValueOp::Ge: return ">=";
  case ValueOp::Eq: return "==";
  case ValueOp::Ne: return "!=";
  }
  return "?";
}

llvm::StringRef ir::spelling(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum: return "sum";
  case ReduceOp::Max: return "max";
  case ReduceOp::Min: return "min";
  }
  return "?";
}

bool Kernel::divisible(const Extent &extent, int64_t m) const {
  if (!extent.isSymbol()) return extent.value % m == 0;
  for (const Assumption &a : assumptions)
    if (a.symbol == extent.symbol && a.modulus % m == 0) return true;
  return false;
}

static constexpr int64_t kMaxDivisor = int64_t(1) << 20;

/// Largest power of two dividing v (kMaxDivisor for 0).
static int64_t powerOfTwoDivisor(int64_t v) {
  if (v == 0) return kMaxDivisor;
  return std::min<int64_t>(kMaxDivisor, int64_t(1) << llvm::countr_zero(static_cast<uint64_t>(v < 0 ? -v : v)));
}

int64_t ir::knownDivisor(const Index &index, const Kernel &kernel) {
  switch (index.kind) {
  case Index::Kind::Const: return powerOfTwoDivisor(index.value);
  case Index::Kind::BlockRow: return powerOfTwoDivisor(kernel.gridTileRows);
  case Index::Kind::BlockCol: return kernel.gridWholeRows ? int64_t(1) << 20 : powerOfTwoDivisor(kernel.gridTileCols);
  case Index::Kind::LoopVar: return std::max<int64_t>(index.value, 1);
  case Index::Kind::Scalar: {
    int64_t best = 1;
    for (const Assumption &a : kernel.assumptions)
      if (a.symbol == index.name) best = std::max(best, powerOfTwoDivisor(a.modulus));
    return best;
  }
  case Index::Kind::Add:
  case Index::Kind::Sub:
    return std::min(knownDivisor(*index.lhs, kernel), knownDivisor(*index.rhs, kernel));
  case Index::Kind::Mul:
    return std::min(kMaxDivisor, knownDivisor(*index.lhs, kernel) * knownDivisor(*index.rhs, kernel));
  case Index::Kind::Div: {
    // An exact division (`block.col / 2` with block.col a multiple of 128) keeps the rest of the divisor.
    int64_t lhs = knownDivisor(*index.lhs, kernel);
    if (index.rhs->kind != Index::Kind::Const || index.rhs->value <= 0 || lhs % index.rhs->value != 0) return 1;
    return std::max<int64_t>(1, powerOfTwoDivisor(lhs / index.rhs->value));
  }
  case Index::Kind::Rem:
    return 1;
  }
  return 1;
}

static const char *binarySpelling(Index::Kind k) {
  switch (k) {
  case Index::Kind::Add: return " + ";
  case Index::Kind::Sub: return " - ";
  case Index::Kind::Mul: return " * ";
  case Index::Kind::Div: return " / ";
  default: return " % ";
  }
}

void ir::printIndex(const Index &index, llvm::raw_ostream &os) {
  switch (index.kind) {
  case Index::Kind::Const: os << index.value; return;
  case Index::Kind::BlockRow: os << "block.row"; return;
  case Index::Kind::BlockCol: os << "block.col"; return;
  case Index::Kind::LoopVar: os << "%" << index.name; return;
  case Index::Kind::Scalar: os << "%" << index.name; return;
  default:
    os << "(";
    printIndex(*index.lhs, os);
    os << binarySpelling(index.kind);
    printIndex(*index.rhs, os);
    os << ")";
  }
}

namespace {

class Printer {
public:
  explicit Printer(llvm::raw_ostream &os) : os(os) {}

  void module(const Module &m) {
    os << "target " << m.target->name << "\n";
    for (const auto &k : m.kernels) kernel(*k, *m.target);
  }

private:
  void extent(const Extent &e) {
    if (e.isSymbol()) os << e.symbol;
    else os << e.value;
  }

  void kernel(const Kernel &k, const Target &target) {
    os << "\nkernel @" << k.name << "(";
    bool first = true;
    for (const auto &t : k.tensors) {
      os << (first ? "" : ", ") << "%" << t->name << ": global " << name(t->dtype) << t->shapeText()
         << (t->batchGroup > 1 ? " matrix block.batch / " + std::to_string(t->batchGroup) : "")
         << (t->isRead ? " read" : "") << (t->isWritten ? " written" : "");
      first = false;
    }
    for (const auto &s : k.scalars) {
      os << (first ? "" : ", ") << "%" << s->name << ": " << name(s->dtype) << (s->isDimension ? " dim" : "");
      first = false;
    }
    os << ")\n    workgroup " << k.workgroupSize << " (" << k.waves(target) << " waves), grid over %"
       << k.gridTensor->name << " tile [" << (k.batched ? "1, " : "")
       << (k.gridTensor->rank == 1 ? "" : std::to_string(k.gridTileRows) + ", ")
       << (k.gridWholeRows ? k.gridTensor->cols.text() + " (whole rows)" : std::to_string(k.gridTileCols)) << "]";
    for (const Assumption &a : k.assumptions) os << ", assume " << a.symbol << " % " << a.modulus << " == 0";
    os << " {\n";
    for (const auto &t : k.tiles) tile(*t);
    for (const auto &r : k.reducedTiles) {
      os << "  tile %" << r->name << ": " << name(r->dtype) << "[" << r->rows << ", " << r->cols << "] reduced along axis "
         << r->axis << (r->temporary ? " temporary" : "");
      if (r->sourceAcc)
        os << "  // " << r->values() << " rows per lane, of acc %" << r->sourceAcc->name << "'s C/D layout";
      else if (r->source)
        os << "  // " << r->values() << (r->axis == 1 ? " rows" : " columns") << " per lane, of a " << r->source->rows
           << " x " << r->source->cols << " " << patternName(r->source->pattern) << " vec " << r->source->vec;
      os << "\n";
    }
    for (const auto &l : k.ldsBuffers) {
      std::string reads;
      if (l->transposeReads)
        reads = llvm::formatv(" read transposed ({0}{1})", Target::ldsTransposeReadName(valueBits(l->dtype)),
                              l->slotted() ? ", 16-byte slots of 4" : "").str();
      os << "  lds %" << l->name << ": " << name(l->dtype) << "[" << l->rows << ", " << l->cols << "] pad " << l->pad
         << (l->transposed ? " stored transposed" : "") << reads << "  // " << l->storedRows() << " x " << l->pitch()
         << (l->tailBytes ? " + " + std::to_string(l->tailBytes) : "")
         << (l->stages > 1 ? ", " + std::to_string(l->stages) + " stages" : "") << " = " << l->bytes() << " B";
      if (k.ldsSharedBytes && l->used)
        os << ", bytes " << l->offset << " .. " << l->offset + l->bytes() - 1 << " of the shared " << k.ldsSharedBytes
           << " B";
      os << "\n";
    }
    for (const auto &a : k.accs) {
      os << "  acc %" << a->name << ": " << name(a->dtype) << "[" << a->rows << ", " << a->cols << "] mfma "
         << (a->instr ? a->instr->name : "auto") << " waves [" << a->wavesY << ", " << a->wavesX << "]";
      if (a->instr) os << "  // per wave " << a->blocksY() << " x " << a->blocksX() << " blocks, " << a->registers()
                       << " accumulators per lane";
      os << "\n";
    }
    body(k.body, 1);
    os << "}\n";
  }

  void tile(const Tile &t) {
    const Layout &l = t.layout;
    os << "  tile %" << t.name << ": " << name(t.dtype) << "[";
    if (l.oneD) os << l.rows * l.cols << "] viewed as [";
    os << l.rows << ", " << l.cols << "] "
       << patternName(l.pattern) << " vec " << l.vec << (l.vecIsAuto ? " (auto)" : "") << "  // waves [" << l.wavesY
       << ", " << l.wavesX << "], per wave " << l.subRows << " x " << l.subCols << ", X0 " << l.lanesX << ", L "
       << l.laneRows << ", R " << l.rowsPerLane << ", " << l.bytesPerAccess() << " B per access\n";
  }

  void body(const Body &b, unsigned depth) {
    for (const StmtPtr &s : b) stmt(*s, depth);
  }

  void window(const Tensor &t, const Index &row, const Index &col) {
    os << "%" << t.name << "[";
    printIndex(row, os);
    os << ", ";
    printIndex(col, os);
    os << "]";
  }

  void stmt(const Stmt &s, unsigned depth) {
    os.indent(2 * depth);
    switch (s.kind) {
    case Stmt::Kind::Assign: {
      auto &a = cast<Assign>(s);
      os << "%" << a.dst->name << " = ";
      value(*a.value);
      os << "\n";
      return;
    }
    case Stmt::Kind::Store: {
      auto &st = cast<Store>(s);
      os << "store ";
      window(*st.tensor, *st.row, *st.col);
      os << " = ";
      value(*st.value);
      os << "\n";
      return;
    }
    case Stmt::Kind::For: {
      auto &f = cast<For>(s);
      os << "for %" << f.var << " = ";
      printIndex(*f.lower, os);
      os << " to ";
      printIndex(*f.upper, os);
      os << " step ";
      printIndex(*f.step, os);
      os << " {\n";
      body(f.body, depth + 1);
      os.indent(2 * depth) << "}\n";
      return;
    }
    case Stmt::Kind::Barrier: {
      auto &b = cast<Barrier>(s);
      os << "barrier" << (b.madeFor.empty() ? "" : "  // placed: " + b.madeFor) << "\n";
      return;
    }
    case Stmt::Kind::FragmentRead: {
      auto &r = cast<FragmentRead>(s);
      os << "fragments %" << r.mma->a->name << " of %" << r.mma->acc->name << "'s mma  // "
         << r.mma->k / r.mma->acc->instr->k << " K steps x " << r.mma->acc->blocksY()
         << " block rows, kept in registers through the loop\n";
      return;
    }
    case Stmt::Kind::LdsWrite: {
      auto &w = cast<LdsWrite>(s);
      os << "%" << w.dst->name << " = lds_write %" << w.src->name << "\n";
      return;
    }
    case Stmt::Kind::Reduce: {
      auto &r = cast<Reduce>(s);
      os << "%" << r.dst->name << (r.accumulate ? " += " : " = ") << spelling(r.op) << "(";
      value(*r.value);
      os << ", axis " << r.axis << ")";
      if (r.plan) {
        os << "  // in lane " << r.plan->inLane << ", lanes " << r.plan->lanes;
        if (!r.plan->steps.empty()) {
          os << " (";
          for (size_t i = 0; i < r.plan->steps.size(); ++i) os << (i ? ", " : "") << "^" << r.plan->steps[i].laneXor;
          os << ")";
        }
        os << ", waves " << r.plan->waves << ", lds " << r.plan->ldsBytes << " B";
      }
      os << "\n";
      return;
    }
    case Stmt::Kind::LdsRead: {
      auto &r = cast<LdsRead>(s);
      os << "%" << r.dst->name << " = lds_read " << (r.transpose ? "transpose(%" : "%") << r.src->name
         << (r.transpose ? ")" : "") << "\n";
      return;
    }
    case Stmt::Kind::AccAssign: {
      auto &a = cast<AccAssign>(s);
      os << "%" << a.dst->name << " = ";
      value(*a.value);
      os << "  // in place, in its C/D layout\n";
      return;
    }
    case Stmt::Kind::AccLdsWrite: {
      auto &w = cast<AccLdsWrite>(s);
      os << "%" << w.dst->name << " = lds_write ";
      value(*w.value);
      os << "  // in %" << w.value->acc->name << "'s C/D layout" << (w.forwarded ? ", forwarded to the mma in registers" : "")
         << "\n";
      return;
    }
    case Stmt::Kind::ReducedAssign: {
      auto &a = cast<ReducedAssign>(s);
      os << "%" << a.dst->name << " = ";
      value(*a.value);
      os << "\n";
      return;
    }
    case Stmt::Kind::MMA: {
      auto &m = cast<MMA>(s);
      os << "%" << m.acc->name << (m.restart ? " = mma(%" : " += mma(%") << m.a->name << (m.aFrom ? " in registers" : m.aHoisted ? " read before the loop" : "")
         << ", %" << m.b->name << ") k " << m.k << " with " << m.acc->instr->name
         << (m.acc->instr->chunk == 4 && !m.acc->instr->scaled ? ", K in runs of 4" : "") << "\n";
      return;
    }
    }
  }

  void value(const Value &v) {
    switch (v.kind) {
    case Value::Kind::TileRef: os << "%" << v.tile->name; return;
    case Value::Kind::AccRef: os << "%" << v.acc->name; return;
    case Value::Kind::ScalarRef: os << "%" << v.scalar->name; return;
    case Value::Kind::Const: os << v.spelling << ":" << name(v.dtype); return;
    case Value::Kind::ReducedRef: os << "%" << v.reduced->name; return;
    case Value::Kind::IndexRef: printIndex(*v.row, os); return;
    case Value::Kind::ElementIndex:
      os << (v.indexAxis == 0 ? "row(%" : "col(%") << (v.tile ? v.tile->name : v.acc->name) << ")";
      return;
    case Value::Kind::Load:
      os << "load ";
      window(*v.tensor, *v.row, *v.col);
      if (v.acc)
        os << " in %" << v.acc->name << "'s C/D layout"
           << (v.reducedAxis == 0 ? ", one row down its rows" : v.reducedAxis == 1 ? ", one column along its columns" : "");
      if (!v.operands.empty()) {
        os << " else ";
        value(*v.operands[0]);
      }
      return;
    case Value::Kind::Unary:
      os << spelling(v.op) << "(";
      value(*v.operands[0]);
      os << ")";
      return;
    case Value::Kind::Select:
      os << "select(";
      value(*v.operands[0]);
      os << ", ";
      value(*v.operands[1]);
      os << ", ";
      value(*v.operands[2]);
      os << ")";
      return;
    case Value::Kind::Binary:
      if (v.op == ValueOp::Max || v.op == ValueOp::Min) {
        os << spelling(v.op) << "(";
        value(*v.operands[0]);
        os << ", ";
        value(*v.operands[1]);
        os << ")";
        return;
      }
      os << "(";
      value(*v.operands[0]);
      os << " " << spelling(v.op) << " ";
      value(*v.operands[1]);
      os << ")";
      return;
    case Value::Kind::Cast:
      os << "cast<" << name(v.dtype) << (v.saturate ? ", sat" : "") << ">(";
      value(*v.operands[0]);
      os << ")";
      return;
    }
  }

  llvm::raw_ostream &os;
};

} // namespace

const ir::Value *ir::valueOf(const Stmt &s) {
  if (auto *a = llvm::dyn_cast<Assign>(&s)) return a->value.get();
  if (auto *st = llvm::dyn_cast<Store>(&s)) return st->value.get();
  if (auto *r = llvm::dyn_cast<Reduce>(&s)) return r->value.get();
  if (auto *r = llvm::dyn_cast<ReducedAssign>(&s)) return r->value.get();
  if (auto *a = llvm::dyn_cast<AccAssign>(&s)) return a->value.get();
  if (auto *w = llvm::dyn_cast<AccLdsWrite>(&s)) return w->value.get();
  return nullptr;
}

void ir::forEachLdsAccess(const Stmt &s, llvm::function_ref<void(const LdsBuffer *, bool)> each) {
  if (auto *f = llvm::dyn_cast<For>(&s))
    for (const StmtPtr &t : f->body) forEachLdsAccess(*t, each);
  else if (auto *w = llvm::dyn_cast<LdsWrite>(&s)) each(w->dst, true);
  else if (auto *w = llvm::dyn_cast<AccLdsWrite>(&s); w && !w->forwarded) each(w->dst, true);
  else if (auto *r = llvm::dyn_cast<LdsRead>(&s)) each(r->src, false);
  else if (auto *r = llvm::dyn_cast<FragmentRead>(&s)) each(r->mma->a, false);
  else if (auto *m = llvm::dyn_cast<MMA>(&s)) {
    if (!m->aFrom && !m->aHoisted) each(m->a, false);
    each(m->b, false);
    if (m->scaleA) each(nullptr, true);
  }
}

bool ir::writesLds(const Stmt &s, const LdsBuffer *b) {
  bool found = false;
  forEachLdsAccess(s, [&](const LdsBuffer *x, bool write) { found |= write && (x == b || !x); });
  return found;
}

bool ir::barrierBetween(const Kernel &k, long from, long to) {
  for (long i = from + 1; i < to; ++i)
    if (auto *b = llvm::dyn_cast<Barrier>(k.body[i].get()); b && !b->dropped) return true;
  return false;
}

std::vector<ir::LdsLifetime> ir::ldsLifetimes(const Kernel &k, bool &scaled) {
  std::vector<LdsLifetime> life(k.ldsBuffers.size());
  scaled = false;
  for (size_t i = 0; i < k.body.size(); ++i)
    forEachLdsAccess(*k.body[i], [&](const LdsBuffer *b, bool) {
      if (!b) return void(scaled = true);
      for (size_t j = 0; j < k.ldsBuffers.size(); ++j)
        if (k.ldsBuffers[j].get() == b) {
          if (life[j].first < 0) life[j].first = static_cast<long>(i);
          life[j].last = static_cast<long>(i);
        }
    });
  return life;
}

void ir::printModule(const Module &module, llvm::raw_ostream &os) { Printer(os).module(module); }
