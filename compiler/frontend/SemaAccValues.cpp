//===- SemaAccValues.cpp - Accumulators as values inside a loop ------------===//
//
// Attention keeps its products in registers between two mmas: S = Q K^T restarts for every K/V block (`s = mma(sQ,
// transpose(sK));`), its rows are reduced (`m = max(s, axis = 1)`), combined element by element with those row
// values (`exp2(s - m)`), written to LDS as the next mma's operand (`sP = cast<f16>(exp2(s - m));`), and the output
// accumulator is rescaled in place (`o = o * alpha;`). All of it happens in the accumulator's MFMA C/D layout, where
// lane l holds row l % m of each block: a value reduced along the rows is one value per block row and lane, which
// broadcasts against every accumulator whose lanes hold the same rows (KernelSema::sameAccRows).
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelSema.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::sema;
using llvm::formatv;

Checked KernelSema::accReductionOperand(const ast::CallExpr &call, ir::ReduceOp op, unsigned axis, Checked v) {
  const ir::AccTile &a = *v.value->acc;
  llvm::StringRef f = ir::spelling(op);
  if (axis != 1) {
    diags.error(call.range, formatv("{0}(..., axis = 0) of acc {1}: an accumulator's values reduce along its rows "
                                    "(axis = 1), where a row's values sit in the lanes that hold it; reduce its "
                                    "columns after storing it, or compute the transposed product",
                                    f, a.name));
    return {};
  }
  if (a.wavesX != 1) {
    diags.error(call.range, formatv("{0}(..., axis = 1) of acc {1}, whose waves [{2}, {3}] split each row over {3} "
                                    "waves: the rows of an accumulator reduce within a wave; declare it with waves "
                                    "[{4}, 1]",
                                    f, a.name, a.wavesY, a.wavesX, a.wavesY * a.wavesX));
    return {};
  }
  return v;
}

/// Whether value `x` is in accumulator `acc`'s C/D layout (its own values, values reduced along its rows, element
/// indices) or uniform; reports `what` otherwise.
static bool inAccLayout(const ir::Value &x, const ir::AccTile &acc, llvm::StringRef what, llvm::SMRange at,
                        DiagnosticEngine &diags) {
  if (x.layout) {
    diags.error(at, formatv("{0} is in acc {1}'s MFMA C/D layout, but this value is distributed as {2}; values of a "
                            "register tile do not combine with an accumulator's",
                            what, acc.name, KernelSema::describeLayout(*x.layout)));
    return false;
  }
  return true;
}

ir::StmtPtr KernelSema::accAssign(const ast::AssignStmt &a, ir::AccTile &acc) {
  used.insert(acc.name);
  if (accBeforeMMA(acc, a.target.range)) return nullptr;
  Checked v = checkValue(*a.value, nullptr);
  if (!v) return nullptr;
  ir::Value &x = *v.value;
  std::string what = formatv("acc {0}", acc.name).str();
  if (!inAccLayout(x, acc, what, a.value->range, diags)) return nullptr;
  if (x.acc && !(x.reducedAxis == 1 ? sameAccRows(acc, *x.acc) : sameAcc(acc, *x.acc))) {
    diags.error(a.value->range, formatv("acc {0} is assigned a value in acc {1}'s C/D layout, whose lanes hold other "
                                        "{2} ({3} x {4} over waves [{5}, {6}] with {7}, against {8} x {9} over "
                                        "waves [{10}, {11}] with {12})",
                                        acc.name, x.acc->name, x.reducedAxis == 1 ? "rows" : "elements", x.acc->rows,
                                        x.acc->cols, x.acc->wavesY, x.acc->wavesX, x.acc->instr->name, acc.rows,
                                        acc.cols, acc.wavesY, acc.wavesX, acc.instr->name));
    return nullptr;
  }
  if (!fitInto(v, acc.dtype, nullptr, what, a.value->range)) return nullptr;
  auto st = std::make_unique<ir::AccAssign>(a.range);
  st->dst = &acc;
  st->value = std::move(v.value);
  return st;
}

ir::StmtPtr KernelSema::accLdsWrite(const ast::AssignStmt &a, ir::LdsBuffer &dst) {
  Checked v = checkValue(*a.value, nullptr);
  if (!v) return nullptr;
  ir::Value &x = *v.value;
  if (!x.isTile || !x.acc || x.reducedAxis != -1) {
    diags.error(a.value->range, formatv("lds {0} is written from a register tile ('{0} = tile;') or from an "
                                        "accumulator's values ('{0} = cast<{1}>(acc);'); this is {2}",
                                        dst.name, name(dst.dtype),
                                        x.acc ? "one value per row of an accumulator" : describe(x)));
    return nullptr;
  }
  const ir::AccTile &acc = *x.acc;
  if (dst.rows != acc.rows || dst.cols != acc.cols) {
    diags.error(a.value->range, formatv("lds {0} is [{1}, {2}], but acc {3}'s values are [{4}, {5}]; an LDS buffer "
                                        "is written whole",
                                        dst.name, dst.rows, dst.cols, acc.name, acc.rows, acc.cols));
    return nullptr;
  }
  if (!fitInto(v, dst.dtype, nullptr, formatv("lds {0}", dst.name).str(), a.value->range)) return nullptr;
  // Each lane writes 4 consecutive columns of a row per group: the buffer is stored as declared, so an mma reads it
  // as A ([M, K]) or transposed B ([N, K]); as a K x N B it would have to be stored transposed.
  auto [it, fresh] = gemm.orientation.try_emplace(&dst, false, a.range);
  if (!fresh && it->second.first) {
    diags.error(a.range, formatv("lds {0} is read by an mma as a K x N B operand, which stores it transposed, but an "
                                 "accumulator's values are written to it row by row; read it as mma({0}, ...) or "
                                 "mma(..., transpose({0}))",
                                 dst.name));
    diags.note(it->second.second, "its other use is here");
    return nullptr;
  }
  auto w = std::make_unique<ir::AccLdsWrite>(a.range);
  w->dst = &dst;
  w->value = std::move(v.value);
  return w;
}

void KernelSema::resolveAutoAccs(const std::vector<ast::StmtPtr> &body) {
  for (const ast::StmtPtr &st : body) {
    if (auto *f = llvm::dyn_cast<ast::ForStmt>(st.get())) {
      resolveAutoAccs(f->body);
      continue;
    }
    auto *a = llvm::dyn_cast<ast::AssignStmt>(st.get());
    auto acc = a ? accs.find(a->target.name) : accs.end();
    if (acc == accs.end() || acc->second->instr || acc->second->scaled || gemm.autoFailed.count(acc->second)) continue;
    // `acc (+)= mma(A, B)` or `mma(A, transpose(B))` with two LDS buffers whose shapes fit the accumulator; anything
    // else is left to the statement's own checks, which choose the instruction as before.
    auto *call = llvm::dyn_cast<ast::CallExpr>(a->value.get());
    if (!call || call->callee.name != "mma" || call->args.size() != 2 || !call->argNames[1].name.empty()) continue;
    const ast::Expr *bArg = call->args[1].get();
    bool nk = false;
    if (auto *t = llvm::dyn_cast<ast::CallExpr>(bArg); t && t->callee.name == "transpose" && t->args.size() == 1) {
      nk = true;
      bArg = t->args[0].get();
    }
    auto *an = llvm::dyn_cast<ast::NameExpr>(call->args[0].get());
    auto *bn = llvm::dyn_cast<ast::NameExpr>(bArg);
    auto la = an ? ldsBuffers.find(an->name) : ldsBuffers.end(), lb = bn ? ldsBuffers.find(bn->name) : ldsBuffers.end();
    if (la == ldsBuffers.end() || lb == ldsBuffers.end()) continue;
    const ir::LdsBuffer &A = *la->second, &B = *lb->second;
    const ir::AccTile &c = *acc->second;
    unsigned bK = nk ? B.cols : B.rows, bN = nk ? B.rows : B.cols;
    if (A.rows != c.rows || bK != A.cols || bN != c.cols || info(A.dtype).values != 1 || info(B.dtype).values != 1)
      continue;
    if (sema::chooseAuto(*acc->second, A, B, nk, a->range, target, gemm, diags)) chosenAhead.insert(acc->second);
  }
}

bool KernelSema::accBeforeMMA(const ir::AccTile &acc, llvm::SMRange at) {
  // Inside a loop a use above the mma reads the product of the iteration before (attention's `o = o * alpha`).
  if (acc.instr && (!chosenAhead.count(&acc) || !loops.empty())) return false;
  if (!gemm.autoFailed.count(&acc))
    diags.error(at, formatv("acc {0} is read before any mma chose its instruction (mfma auto)", acc.name));
  return true;
}
