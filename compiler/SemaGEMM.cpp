//===- SemaGEMM.cpp - The rules of LDS staging and MFMA ---------------------===//
#include "SemaGEMM.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::sema;
using llvm::formatv;

std::unique_ptr<ir::LdsBuffer> sema::makeLds(const ast::LdsDecl &decl, DType dtype, DiagnosticEngine &) {
  auto l = std::make_unique<ir::LdsBuffer>();
  l->name = decl.name.name;
  l->dtype = dtype;
  l->rows = static_cast<unsigned>(decl.shape.dims[0].value);
  l->cols = static_cast<unsigned>(decl.shape.dims[1].value);
  l->pad = decl.pad ? static_cast<unsigned>(decl.pad->value) : 0;
  l->loc = decl.name.range;
  return l;
}

std::unique_ptr<ir::AccTile> sema::makeAcc(const ast::AccDecl &decl, DType dtype, unsigned workgroupSize,
                                           const Target &target, DiagnosticEngine &diags) {
  auto a = std::make_unique<ir::AccTile>();
  a->name = decl.name.name;
  a->dtype = dtype;
  a->rows = static_cast<unsigned>(decl.shape.dims[0].value);
  a->cols = static_cast<unsigned>(decl.shape.dims[1].value);
  a->loc = decl.name.range;
  // One error for a wrong accumulator dtype: against the named instruction's C/D type when there is one, else
  // against the C/D types of the table.
  const MFMAInstr *named = decl.mfma.name == "auto" ? nullptr : lookupMFMA(decl.mfma.name);
  bool ok = true;
  if (named && named->acc != dtype) {
    diags.error(decl.dtype.range, formatv("{0} accumulates in {1}, but acc {2} is {3}", named->name,
                                          name(named->acc), a->name, name(dtype)));
    ok = false;
  } else if (dtype != DType::F32 && dtype != DType::I32) {
    diags.error(decl.dtype.range, formatv("an accumulator is f32 or i32 (the MFMA C/D types), not {0}", name(dtype)));
    ok = false;
  }
  unsigned waves = workgroupSize / target.waveSize;
  if (decl.waves) {
    a->wavesY = static_cast<unsigned>(decl.waves->wy.value);
    a->wavesX = static_cast<unsigned>(decl.waves->wx.value);
    if (uint64_t(a->wavesY) * a->wavesX != waves) {
      diags.error(decl.waves->range, formatv("waves [{0}, {1}] = {2} waves, but a workgroup of {3} threads has {4}",
                                             a->wavesY, a->wavesX, uint64_t(a->wavesY) * a->wavesX, workgroupSize,
                                             waves));
      return nullptr;
    }
  } else {
    std::tie(a->wavesY, a->wavesX) = defaultWaveGrid(waves);
  }
  if (a->rows % a->wavesY || a->cols % a->wavesX) {
    diags.error(decl.shape.range, formatv("acc {0}: {1} x {2} does not split over waves [{3}, {4}] ({1} % {3} = {5}, "
                                          "{2} % {4} = {6})", a->name, a->rows, a->cols, a->wavesY, a->wavesX,
                                          a->rows % a->wavesY, a->cols % a->wavesX));
    return nullptr;
  }
  if (decl.mfma.name == "auto") return ok ? std::move(a) : nullptr; // chosen by the first mma
  const MFMAInstr *ins = named;
  if (!ins) {
    diags.error(decl.mfma.range, formatv("unknown MFMA instruction '{0}'; on {1}: {2}", decl.mfma.name, target.name,
                                         mfmaNamesFor(target)));
    return nullptr;
  }
  if (!ins->availableOn(target)) {
    diags.error(decl.mfma.range, formatv("{0} is not available on {1} ({2}); {1} has {3}", ins->name, target.name,
                                         ins->availableOn(*lookupTarget("gfx950")) ? "it is a gfx950 instruction"
                                                                                    : "not in its ISA",
                                         mfmaNamesFor(target, ins->a)));
    return nullptr;
  }
  if (a->waveRows() % ins->m || a->waveCols() % ins->n) {
    diags.error(decl.shape.range,
                formatv("acc {0}: each wave owns {1} x {2} (= {3} x {4} over waves [{5}, {6}]), which is not a whole "
                        "number of {7} x {8} blocks of {9} ({1} % {7} = {10}, {2} % {8} = {11})",
                        a->name, a->waveRows(), a->waveCols(), a->rows, a->cols, a->wavesY, a->wavesX, ins->m, ins->n,
                        ins->name, a->waveRows() % ins->m, a->waveCols() % ins->n));
    return nullptr;
  }
  a->instr = ins;
  return ok ? std::move(a) : nullptr;
}

ir::StmtPtr sema::makeLdsWrite(const ast::AssignStmt &stmt, const ir::LdsBuffer &dst, const ir::Tile &src,
                               DiagnosticEngine &diags) {
  if (dst.dtype != src.dtype || dst.rows != src.rows() || dst.cols != src.cols()) {
    diags.error(stmt.range, formatv("lds {0} is {1}[{2}, {3}] but tile {4} is {5}[{6}, {7}]; an LDS buffer is written "
                                    "from a tile of its own dtype and shape",
                                    dst.name, name(dst.dtype), dst.rows, dst.cols, src.name, name(src.dtype),
                                    src.rows(), src.cols()));
    return nullptr;
  }
  auto w = std::make_unique<ir::LdsWrite>(stmt.range);
  w->dst = &dst;
  w->src = &src;
  return w;
}

namespace {

/// Records how `b` is stored; false (with an error) when an earlier mma needs it the other way.
bool orient(ir::LdsBuffer &b, bool transposed, llvm::SMRange at, LdsOrientation &orientation,
            DiagnosticEngine &diags) {
  auto [it, fresh] = orientation.try_emplace(&b, transposed, at);
  if (!fresh && it->second.first != transposed) {
    diags.error(at, formatv("lds {0} would have to be stored both as declared and transposed; use it either as a "
                            "K x N B operand or as an M x K (or transpose(N x K)) operand", b.name));
    diags.note(it->second.second, "its other use is here");
    return false;
  }
  b.transposed = transposed;
  return true;
}

} // namespace

ir::StmtPtr sema::makeMMA(const ast::AssignStmt &stmt, ir::AccTile &acc, ir::LdsBuffer &a, ir::LdsBuffer &b,
                          bool bIsNK, llvm::SMRange aRange, llvm::SMRange bRange, const Target &target,
                          GEMMState &state, DiagnosticEngine &diags) {
  // Shapes: a is [M, K], b is [K, N] (or [N, K] under transpose), the accumulator [M, N].
  unsigned k = a.cols;
  unsigned bK = bIsNK ? b.cols : b.rows, bN = bIsNK ? b.rows : b.cols;
  bool ok = true;
  if (a.rows != acc.rows) {
    diags.error(aRange, formatv("lds {0} has {1} rows, but acc {2} has {3}: the A operand is [M, K] with M the "
                                "accumulator's rows", a.name, a.rows, acc.name, acc.rows));
    ok = false;
  }
  if ((bK != k || bN != acc.cols) && !bIsNK) {
    diags.error(bRange, formatv("lds {0} is [{1}, {2}], but the B operand must be [K, N] = [{3}, {4}] (K from {5}'s "
                                "columns, N the accumulator's columns); a B stored N x K is written "
                                "mma(A, transpose(B))",
                                b.name, b.rows, b.cols, k, acc.cols, a.name));
    ok = false;
  } else if (bK != k || bN != acc.cols) {
    // State the shape the mma sees (transpose(b) is [cols, rows]), what it must be and where K and N come from.
    bool untransposedFits = b.rows == k && b.cols == acc.cols;
    diags.error(bRange, formatv("transpose({0}) is [{1}, {2}] (lds {0} is [{2}, {1}]), but the B operand must be "
                                "[K, N] = [{3}, {4}]: K = {3}, the columns of {5} (the K step), and N = {4}, the columns of acc "
                                "{6}; declare {0} as [N, K] = [{4}, {3}] for transpose({0}){7}",
                                b.name, b.cols, b.rows, k, acc.cols, a.name, acc.name,
                                untransposedFits ? formatv(", or write mma({0}, {1}) for a B stored K x N", a.name,
                                                           b.name).str()
                                                 : std::string()));
    ok = false;
  }
  if (!ok) return nullptr;
  if (!acc.instr && state.autoFailed.count(&acc)) return nullptr; // reported at its first mma
  if (!acc.instr) {
    acc.instr = chooseMFMA(target, a.dtype, b.dtype, acc.dtype, acc.waveRows(), acc.waveCols(), k);
    if (!acc.instr) {
      diags.error(stmt.range, formatv("mfma auto finds no instruction on {0} for {1} x {2} -> {3} with {4} x {5} per "
                                      "wave and K = {6}; {0} has {7}",
                                      target.name, name(a.dtype), name(b.dtype), name(acc.dtype), acc.waveRows(),
                                      acc.waveCols(), k, mfmaNamesFor(target)));
      state.autoFailed.insert(&acc);
      return nullptr;
    }
  }
  const MFMAInstr &ins = *acc.instr;
  if (a.dtype != ins.a || b.dtype != ins.b) {
    diags.error(stmt.range, formatv("{0} multiplies {1} by {2}, but lds {3} is {4} and lds {5} is {6}", ins.name,
                                    name(ins.a), name(ins.b), a.name, name(a.dtype), b.name, name(b.dtype)));
    return nullptr;
  }
  if (k % ins.k != 0) {
    diags.error(aRange, formatv("K = {0} (the columns of {1}) is not a multiple of the K = {2} of {3} ({0} % {2} = "
                                "{4})", k, a.name, ins.k, ins.name, k % ins.k));
    return nullptr;
  }
  if (!orient(a, false, aRange, state.orientation, diags) || !orient(b, !bIsNK, bRange, state.orientation, diags))
    return nullptr;
  // Every fragment read is kPerLane consecutive K values: one aligned LDS read of that many bytes.
  for (ir::LdsBuffer *l : {&a, &b}) {
    unsigned fragment = ins.kPerLane * sizeOf(l->dtype), rowBytes = l->pitch() * sizeOf(l->dtype);
    if (rowBytes % fragment != 0) {
      diags.error(l->loc, formatv("lds {0}: stored rows of {1} + {2} pad = {3} {4} ({5} B) break the {6}-byte "
                                  "alignment of {7}'s fragment reads; choose a pad that keeps {1} + pad a multiple "
                                  "of {8}",
                                  l->name, l->storedCols(), l->pad, l->pitch(), name(l->dtype), rowBytes, fragment,
                                  ins.name, ins.kPerLane));
      return nullptr;
    }
  }
  auto m = std::make_unique<ir::MMA>(stmt.range);
  m->acc = &acc;
  m->a = &a;
  m->b = &b;
  m->k = k;
  return m;
}
