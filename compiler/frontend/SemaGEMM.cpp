//===- SemaGEMM.cpp - The rules of LDS staging and MFMA ---------------------===//
#include "frontend/SemaGEMM.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <string>
#include <vector>

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
  if (decl.pad) l->padLoc = decl.pad->range;
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
  if (const ScaledMFMAInstr *scaled = ins ? nullptr : lookupScaledMFMA(decl.mfma.name)) {
    if (!scaled->availableOn(target)) {
      diags.error(decl.mfma.range, formatv("{0} has no scaled MFMA: {1} is a gfx950 instruction (block-scaled MX "
                                           "operands, docs/mx.md)", target.name, scaled->name));
      return nullptr;
    }
    if (!ok) return nullptr;
    if (dtype != DType::F32) {
      diags.error(decl.dtype.range, formatv("{0} accumulates in f32, but acc {1} is {2}", scaled->name, a->name,
                                            name(dtype)));
      return nullptr;
    }
    if (a->waveRows() % scaled->m || a->waveCols() % scaled->n) {
      diags.error(decl.shape.range,
                  formatv("acc {0}: each wave owns {1} x {2} (= {3} x {4} over waves [{5}, {6}]), which is not a "
                          "whole number of {7} x {8} blocks of {9} ({1} % {7} = {10}, {2} % {8} = {11})",
                          a->name, a->waveRows(), a->waveCols(), a->rows, a->cols, a->wavesY, a->wavesX, scaled->m,
                          scaled->n, scaled->name, a->waveRows() % scaled->m, a->waveCols() % scaled->n));
      return nullptr;
    }
    a->scaled = scaled; // its format variant is chosen by the first mma, from the operands' dtypes
    return a;
  }
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

/// Bytes of one fragment read of `ins` from a buffer of `dtype`: kRun() consecutive K values (kPerLane but for the
/// scaled 8-bit operands, read in two runs), read at once.
unsigned fragmentBytes(const MFMAInstr &ins, DType dtype) { return ins.kRun() * sizeOf(dtype); }

/// Elements of a stored row of `l` when it is stored `transposed` or as declared (K + pad for an mma operand).
unsigned pitchAs(const ir::LdsBuffer &l, bool transposed) { return (transposed ? l.rows : l.cols) + l.pad; }

/// `mfma auto` passed over `preferred` for `chosen` because some operand's stored rows break `preferred`'s fragment
/// reads: a note naming them, with the smallest larger pad that keeps the rows aligned.
void noteSkipped(const MFMAInstr &chosen, const MFMAInstr &preferred, const ir::AccTile &acc,
                 llvm::ArrayRef<std::pair<const ir::LdsBuffer *, bool>> operands, llvm::SMRange at,
                 DiagnosticEngine &diags) {
  struct Rows {
    std::string names;
    unsigned k, pad, size, fragment;
    DType dtype;
  };
  std::vector<Rows> broken; // operands with the same rows share one clause: "lds sA and lds sB have rows of ..."
  for (const auto &operand : operands) {
    const ir::LdsBuffer *l = operand.first; // not a structured binding: the lambda below captures it (C++17)
    unsigned size = sizeOf(l->dtype), k = pitchAs(*l, operand.second) - l->pad;
    unsigned fragment = fragmentBytes(preferred, l->dtype);
    if ((k + l->pad) * size % fragment == 0) continue;
    auto same = llvm::find_if(broken, [&](const Rows &r) {
      return r.k == k && r.pad == l->pad && r.dtype == l->dtype;
    });
    if (same != broken.end()) same->names += " and lds " + l->name;
    else broken.push_back({"lds " + l->name, k, l->pad, size, fragment, l->dtype});
  }
  std::string why;
  for (const Rows &r : broken) {
    unsigned rowBytes = (r.k + r.pad) * r.size, pad = r.pad + 1;
    while ((r.k + pad) * r.size % r.fragment != 0) ++pad; // ends within fragment / size steps
    why += formatv("{0}{1} {2} rows of {3} + {4} pad = {5} {6} = {7} B ({7} % {8} = {9}); pad {10} makes them "
                   "{3} + {10} = {11} {6} = {12} B, {8}-byte aligned",
                   why.empty() ? "" : "; ", r.names, r.names.find(" and ") == std::string::npos ? "has" : "have",
                   r.k, r.pad, r.k + r.pad, name(r.dtype), rowBytes, r.fragment, rowBytes % r.fragment, pad,
                   r.k + pad, (r.k + pad) * r.size)
               .str();
  }
  if (broken.empty()) return;
  diags.note(at, formatv("mfma auto chose {0} for acc {1} over {2}, whose {3}-byte fragment reads need stored rows "
                         "that are a multiple of {3} B: {4}",
                         chosen.name, acc.name, preferred.name, broken.front().fragment, why));
}

/// An 8-bit float MFMA (fp8/bf8 operands) on a target with the f8f6f4 instructions: those take the same operands
/// at twice the products per pass, unscaled when the mma gives no scales. A note, once per accumulator (its first
/// mma): the choice stays the user's.
void noteFasterFp8(const MFMAInstr &ins, const ir::AccTile &acc, llvm::SMRange at, const Target &target,
                   DiagnosticEngine &diags) {
  if (ins.scaled || !isFp8(ins.a) || !isFp8(ins.b)) return;
  const ScaledMFMAInstr *f8f6f4 =
      lookupScaledMFMA(ins.m == 32 ? "v_mfma_scale_f32_32x32x64_f8f6f4" : "v_mfma_scale_f32_16x16x128_f8f6f4");
  if (!f8f6f4 || !f8f6f4->availableOn(target) || ins.n != f8f6f4->n) return;
  unsigned passes = ins.cycles / 4, fastPasses = scaledCycles(*f8f6f4, MXFormat::FP8, MXFormat::FP8) / 4;
  if (f8f6f4->k * passes != 2 * ins.k * fastPasses) return; // the note's "twice", from the tables
  diags.note(at, formatv("acc {0}: {1} multiplies {2} K values in {3} passes on {4}; {5} multiplies {6} in {7}, "
                         "twice the products per pass, and without scale_a and scale_b its operands are unscaled: "
                         "'mfma {5}' (docs/mx.md)",
                         acc.name, ins.name, ins.k, passes, target.name, f8f6f4->name, f8f6f4->k, fastPasses));
}

} // namespace

bool sema::chooseAuto(ir::AccTile &acc, const ir::LdsBuffer &a, const ir::LdsBuffer &b, bool bIsNK, llvm::SMRange at,
                      const Target &target, GEMMState &state, DiagnosticEngine &diags) {
  // The best instruction whose fragment reads the operands' stored rows (K + pad, as oriented by this mma) keep
  // aligned. When the pad rules out a better one, say so; when it rules out all, take the best anyway and let the
  // alignment check of makeMMA explain which pad it needs.
  unsigned k = a.cols;
  const MFMAInstr *best = chooseMFMA(target, a.dtype, b.dtype, acc.dtype, acc.waveRows(), acc.waveCols(), k);
  acc.instr = chooseMFMA(target, a.dtype, b.dtype, acc.dtype, acc.waveRows(), acc.waveCols(), k,
                         pitchAs(a, false) * sizeOf(a.dtype), pitchAs(b, !bIsNK) * sizeOf(b.dtype));
  if (acc.instr && acc.instr != best) noteSkipped(*acc.instr, *best, acc, {{&a, false}, {&b, !bIsNK}}, at, diags);
  if (!acc.instr) acc.instr = best;
  if (!acc.instr) {
    diags.error(at, formatv("mfma auto finds no instruction on {0} for {1} x {2} -> {3} with {4} x {5} per wave and K "
                            "= {6}; {0} has {7}",
                            target.name, name(a.dtype), name(b.dtype), name(acc.dtype), acc.waveRows(),
                            acc.waveCols(), k, mfmaNamesFor(target)));
    state.autoFailed.insert(&acc);
    return false;
  }
  return true;
}

ir::StmtPtr sema::makeMMA(const ast::AssignStmt &stmt, ir::AccTile &acc, ir::LdsBuffer &a, ir::LdsBuffer &b,
                          bool bIsNK, llvm::SMRange aRange, llvm::SMRange bRange, const Target &target,
                          GEMMState &state, DiagnosticEngine &diags) {
  // Shapes: a is [M, K], b is [K, N] (or [N, K] under transpose), the accumulator [M, N]. A B of packed values given
  // K x N (fp4x2: two N values per byte) has K values along its rows and N / 2 columns.
  // Operands of two column widths (a scaled mma of fp8 by fp4x2, say) agree in K values: B's K is A's K x perK /
  // perN of its own elements.
  unsigned k = a.cols;
  unsigned bK = bIsNK ? b.cols : b.rows, bN = bIsNK ? b.rows : b.cols;
  // Only a scaled mma takes packed values; for any other the dtype check below says so, and shapes count elements.
  unsigned perK = acc.scaled ? info(a.dtype).values : 1, perN = acc.scaled ? info(b.dtype).values : 1;
  bool packedKN = !bIsNK && perN > 1;
  unsigned kB = bIsNK ? k * perK / perN : k * perK; // B's K in its elements along K (rows of a K x N B are values)
  bool ok = true;
  if (bIsNK && k * perK % perN != 0) {
    diags.error(bRange, formatv("K = {0} columns of {1} are {2} K values, not a whole number of {3} columns of {4} "
                                "values each ({2} % {4} = {5})", k, a.name, k * perK, name(b.dtype), perN,
                                k * perK % perN));
    return nullptr;
  }
  if (a.rows != acc.rows) {
    diags.error(aRange, formatv("lds {0} has {1} rows, but acc {2} has {3}: the A operand is [M, K] with M the "
                                "accumulator's rows", a.name, a.rows, acc.name, acc.rows));
    ok = false;
  }
  if (packedKN) {
    if (b.rows != k * perK || b.cols * perN != acc.cols) {
      diags.error(bRange, formatv("lds {0} is a K x N B of {1} ({2} N values per element): it must be [K values, N / "
                                  "{2}] = [{3}, {4}] ({5}, N = {6}, the columns of acc {7}), but it is [{8}, {9}]",
                                  b.name, name(b.dtype), perN, k * perK, acc.cols / perN,
                                  perK > 1 ? formatv("K = {0} columns of {1}, {2} values each", k, a.name, perK).str()
                                           : formatv("K = {0}, the columns of {1}", k, a.name).str(),
                                  acc.cols, acc.name, b.rows, b.cols));
      ok = false;
    }
  } else if ((bK != kB || bN != acc.cols) && !bIsNK) {
    diags.error(bRange, formatv("lds {0} is [{1}, {2}], but the B operand must be [K, N] = [{3}, {4}] (K from {5}'s "
                                "columns{6}, N the accumulator's columns); a B stored N x K is written "
                                "mma(A, transpose(B))",
                                b.name, b.rows, b.cols, kB, acc.cols, a.name,
                                perK > 1 ? formatv(", {0} values each", perK).str() : ""));
    ok = false;
  } else if (bK != kB || bN != acc.cols) {
    // State the shape the mma sees (transpose(b) is [cols, rows]), what it must be and where K and N come from.
    bool untransposedFits = b.rows == k && b.cols == acc.cols;
    std::string kWhy = perK == perN ? formatv("K = {0}, the columns of {1} (the K step)", kB, a.name).str()
                       : formatv("K = {0} {1} columns, the {2} K values of {3}'s {4} {5} columns (the K step)", kB,
                                 name(b.dtype), k * perK, a.name, k, name(a.dtype)).str();
    diags.error(bRange, formatv("transpose({0}) is [{1}, {2}] (lds {0} is [{2}, {1}]), but the B operand must be "
                                "[K, N] = [{3}, {4}]: {7}, and N = {4}, the columns of acc {6}; declare {0} as [N, "
                                "K] = [{4}, {3}] for transpose({0}){8}",
                                b.name, b.cols, b.rows, kB, acc.cols, a.name, acc.name, kWhy,
                                untransposedFits && perK == perN
                                    ? formatv(", or write mma({0}, {1}) for a B stored K x N", a.name, b.name).str()
                                    : std::string()));
    ok = false;
  }
  if (!ok) return nullptr;
  if (!acc.instr && state.autoFailed.count(&acc)) return nullptr; // reported at its first mma
  if (!acc.instr && acc.scaled) {
    acc.instr = scaledVariant(*acc.scaled, a.dtype, b.dtype);
    if (!acc.instr) {
      diags.error(stmt.range, formatv("{0} multiplies operands of fp8, bf8, fp4x2, fp6x4 or bf6x4, in any pair "
                                      "(docs/mx.md), but lds {1} is {2} and lds {3} is {4}",
                                      acc.scaled->name, a.name, name(a.dtype), b.name, name(b.dtype)));
      state.autoFailed.insert(&acc);
      return nullptr;
    }
  }
  if (!acc.instr && !chooseAuto(acc, a, b, bIsNK, stmt.range, target, state, diags)) return nullptr;
  const MFMAInstr &ins = *acc.instr;
  noteFasterFp8(ins, acc, stmt.range, target, diags);
  if (packedKN && !b.transposeReadRows(b.cols + b.pad)) {
    // Only a transposing read turns N-packed values into K values (every target with a scaled MFMA has those of 4-
    // and 6-bit values: test/unit/TargetTest.cpp), and each lane's read must stay aligned
    // (LdsBuffer::transposeReadRows): ds_read_b96_tr_b6's 12 bytes (16 N values, 4 elements) start 16-byte aligned, so
    // 6-bit values are stored 4 elements to a 16-byte slot (LdsBuffer::slotted) in rows of whole slots; the 8-byte
    // reads need rows of whole 8-byte pieces.
    unsigned bits = valueBits(b.dtype), pitch = b.cols + b.pad;
    if (bits == 6) {
      unsigned slot = ir::LdsBuffer::kSlotElements, pad = b.pad + (slot - pitch % slot);
      diags.error(b.padLoc ? *b.padLoc : b.loc,
                  formatv("lds {0}: stored rows of {1} + {2} pad = {3} {4} are not whole 16-byte slots of {5} "
                          "elements ({3} % {5} = {6}): ds_read_b96_tr_b6 reads 12 bytes (16 six-bit N values) per "
                          "lane at 16-byte aligned addresses, so a K x N {4} B is stored {5} elements to a slot; pad "
                          "{7} makes the rows {1} + {7} = {8} elements, {9} slots of 16 B",
                          b.name, b.cols, b.pad, pitch, name(b.dtype), slot, pitch % slot, pad, b.cols + pad,
                          (b.cols + pad) / slot));
    } else {
      unsigned rowBytes = pitch * sizeOf(b.dtype);
      diags.error(b.loc, formatv("lds {0}: stored rows of {1} + {2} pad = {3} {4} ({5} B) are not a multiple of the "
                                 "8-byte {6} reads that turn its N-packed values into K values ({5} % 8 = {7}); "
                                 "choose a pad that keeps {1} + pad a multiple of 8",
                                 b.name, b.cols, b.pad, pitch, name(b.dtype), rowBytes,
                                 Target::ldsTransposeReadName(bits), rowBytes % 8));
    }
    return nullptr;
  }
  if (a.dtype != ins.a || b.dtype != ins.b) {
    diags.error(stmt.range, formatv("{0} multiplies {1} by {2}, but lds {3} is {4} and lds {5} is {6}", ins.name,
                                    name(ins.a), name(ins.b), a.name, name(a.dtype), b.name, name(b.dtype)));
    return nullptr;
  }
  if (k % ins.k != 0) {
    unsigned values = info(a.dtype).values;
    diags.error(aRange, formatv("K = {0} (the columns of {1}) is not a multiple of the K = {2} of {3} ({0} % {2} = "
                                "{4}){5}", k, a.name, ins.k, ins.name, k % ins.k,
                                values > 1 ? formatv(", counted in {0} columns of {1} values each", name(a.dtype),
                                                     values).str()
                                           : std::string()));
    return nullptr;
  }
  if (!orient(a, false, aRange, state.orientation, diags) || !orient(b, !bIsNK, bRange, state.orientation, diags))
    return nullptr;
  // Every fragment read is kPerLane consecutive K values: one aligned LDS read of that many bytes (a packed K x N B
  // is read with 8-byte transposing reads, checked above).
  for (ir::LdsBuffer *l : {&a, &b}) {
    if (l == &b && packedKN) continue;
    const MFMAInstr &view = operandView(ins, l == &b);
    unsigned fragment = fragmentBytes(view, l->dtype), rowBytes = l->pitch() * sizeOf(l->dtype);
    if (rowBytes % fragment != 0) {
      diags.error(l->loc, formatv("lds {0}: stored rows of {1} + {2} pad = {3} {4} ({5} B) are not a multiple of "
                                  "the {6}-byte fragment reads of {7}, which then lose their alignment; choose a pad "
                                  "that keeps {1} + pad a multiple of {8}",
                                  l->name, l->storedCols(), l->pad, l->pitch(), name(l->dtype), rowBytes, fragment,
                                  ins.name, view.kRun()));
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

namespace {

/// A load whose row or column index carries the variable of the K loop, reached from an LDS write.
struct KAxis {
  const TileSource *source;
  bool alongCols;
  const LdsSource *write;
};

/// Collects what the sources of `tile` say about where `loop`'s variable runs; false when it is ambiguous (the
/// variable in both indices of one load).
bool collectKAxis(const GEMMState &state, const std::string &tile, const ast::ForStmt *loop, const LdsSource &write,
                  std::set<std::string> &seen, std::vector<KAxis> &out) {
  if (!seen.insert(tile).second) return true;
  auto it = state.tileSources.find(tile);
  if (it == state.tileSources.end()) return true;
  for (const TileSource &s : it->second) {
    if (!s.load) {
      if (!collectKAxis(state, s.fromTile, loop, write, seen, out)) return false;
      continue;
    }
    bool inRow = s.rowLoops.count(loop) != 0, inCol = s.colLoops.count(loop) != 0;
    if (inRow && inCol) return false;
    if (inRow || inCol) out.push_back({&s, inCol, &write});
  }
  return true;
}

} // namespace

void sema::checkOperandOrientation(const GEMMState &state, DiagnosticEngine &diags) {
  for (const MMAUse &m : state.mmas) {
    if (!m.loop) continue;
    struct Operand {
      const ir::LdsBuffer *lds;
      bool isA, kAlongCols;
      llvm::SMRange at;
    };
    for (const Operand &op : {Operand{m.a, true, true, m.aRange}, Operand{m.b, false, m.bIsNK, m.bRange}}) {
      auto writes = state.ldsSources.find(op.lds);
      if (writes == state.ldsSources.end()) continue;
      std::vector<KAxis> found;
      bool known = true;
      for (const LdsSource &w : writes->second) {
        std::set<std::string> seen;
        known = known && collectKAxis(state, w.tile, m.loop, w, seen, found);
      }
      if (!known || found.empty()) continue;
      bool alongCols = found.front().alongCols;
      if (llvm::any_of(found, [&](const KAxis &k) { return k.alongCols != alongCols; })) continue; // they disagree
      if (alongCols == op.kAlongCols) continue;
      const KAxis &k = found.front();
      const std::string &var = m.loop->var.name;
      std::string write = llvm::StringRef(sourceText(k.write->at)).rtrim(" ;").str();
      std::string shape = op.isA ? "[M, K]" : m.bIsNK ? "[N, K]" : "[K, N]";
      std::string fix = op.isA ? formatv("the A operand has no transpose: give {0} an M x K window, with '{1}' in "
                                         "its column index", op.lds->name, var).str()
                               : formatv("did you mean mma({0}, {1})?", m.a->name,
                                         m.bIsNK ? op.lds->name : "transpose(" + op.lds->name + ")").str();
      const char *index = alongCols ? "column" : "row";
      diags.error(op.at, formatv("{0} reads {1} as {2}, with K along its {3}, but {1} holds K along its {4}: '{5}' "
                                 "stores '{6}', whose {7} index carries the K loop variable '{8}'; {9}",
                                 sourceText(m.call), op.lds->name, shape, op.kAlongCols ? "columns" : "rows",
                                 alongCols ? "columns" : "rows", write, sourceText(k.source->load->range), index, var,
                                 fix));
      const ast::Expr *idx = alongCols ? k.source->colIndex : k.source->rowIndex;
      diags.note(idx->range, formatv("the K loop variable '{0}' is in the {1} index of this load", var, index));
    }
  }
}

void sema::warnUnusedLds(ir::Kernel &kernel, const GEMMState &state, DiagnosticEngine &diags) {
  for (const auto &l : kernel.ldsBuffers) {
    bool written = state.written.count(l.get()) != 0,
         read = state.readByMMA.count(l.get()) != 0 || state.readByTile.count(l.get()) != 0;
    if (!written && !read) {
      diags.warning(l->loc, formatv("lds {0} is declared but never used", l->name));
      l->used = false;
    } else if (!written)
      diags.warning(l->loc, formatv("lds {0} is read by mma but never written; its values are undefined", l->name));
    else if (!read)
      diags.warning(l->loc, formatv("lds {0} is written but never read (by an mma or into a tile)", l->name));
  }
}

namespace {

/// Whether `e` is `x` (times == divide == 1), `times * x` or `x * times`, or `x / divide`, with `isX(x)`.
bool isScaledIndex(const ast::Expr *e, unsigned times, unsigned divide,
                   llvm::function_ref<bool(const ast::Expr *)> isX) {
  if (!e) return false;
  if (times == 1 && divide == 1) return isX(e);
  auto *bin = llvm::dyn_cast<ast::BinaryExpr>(e);
  if (!bin) return false;
  auto isInt = [](const ast::Expr *x, unsigned v) {
    auto *i = llvm::dyn_cast<ast::IntExpr>(x);
    return i && i->value == static_cast<int64_t>(v);
  };
  if (divide > 1) return bin->op == ast::BinaryOp::Div && isX(bin->lhs.get()) && isInt(bin->rhs.get(), divide);
  return bin->op == ast::BinaryOp::Mul && ((isInt(bin->lhs.get(), times) && isX(bin->rhs.get())) ||
                                           (isX(bin->lhs.get()) && isInt(bin->rhs.get(), times)));
}

} // namespace

void sema::checkScaledWindows(const GEMMState &state, DiagnosticEngine &diags) {
  for (const MMAUse &m : state.mmas) {
    if (!m.scaled || !m.loop) continue;
    const std::string &var = m.loop->var.name;
    // The scale of K value k is column k / 32 (k / 16 in fp4x2 columns, k / 8 in fp6x4): every K step must start on a
    // block.
    unsigned perBlock = ScaledMFMAInstr::kBlock / info(m.a->dtype).values;
    for (const ast::Expr *bound : {m.loop->lower.get(), m.loop->step.get()}) {
      auto *c = llvm::dyn_cast_or_null<ast::IntExpr>(bound);
      if (!bound || (c && c->value % perBlock == 0)) continue;
      diags.error(bound->range, formatv("the K loop of a scaled mma starts and steps on whole scale blocks of {0} K "
                                        "values ({1} {2} columns): '{3}' is not a constant multiple of {1}",
                                        ScaledMFMAInstr::kBlock, perBlock, name(m.a->dtype), sourceText(bound->range)));
    }
    struct Operand {
      const ir::LdsBuffer *lds;
      bool kAlongCols;
      const char *member, *scale, *lines;
    };
    for (const Operand &op : {Operand{m.a, true, "row", "scale_a", "rows"},
                              Operand{m.b, m.bIsNK, "col", "scale_b", "columns"}}) {
      auto writes = state.ldsSources.find(op.lds);
      if (writes == state.ldsSources.end()) continue; // never written: warned at its declaration
      std::vector<const TileSource *> loads;
      std::set<std::string> seen;
      std::function<void(const std::string &)> collect = [&](const std::string &tile) {
        if (!seen.insert(tile).second) return;
        auto it = state.tileSources.find(tile);
        if (it == state.tileSources.end()) return;
        for (const TileSource &s : it->second)
          if (s.load) loads.push_back(&s);
          else collect(s.fromTile);
      };
      for (const LdsSource &w : writes->second) collect(w.tile);
      // A B of packed values given K x N (fp4x2) counts K values along its rows, the loop's variable A's columns of
      // perK values, and N / perN columns: its window is [perK * k, block.col / perN].
      // A B of another column width given N x K (fp4x2 by an fp8 A, say) counts its K columns in its own elements:
      // [block.col, k x perA / perB], written `k / 2` or `2 * k`.
      unsigned perK = 1, perN = 1, kDivide = 1;
      unsigned perA = info(m.a->dtype).values, perB = info(m.b->dtype).values;
      if (op.lds == m.b && !m.bIsNK && (perA > 1 || perB > 1)) perK = perA, perN = perB;
      if (op.lds == m.b && m.bIsNK && perA != perB) {
        if (perA > perB) perK = perA / perB;
        else kDivide = perB / perA;
      }
      for (const TileSource *s : loads) {
        const ast::Expr *kIndex = op.kAlongCols ? s->colIndex : s->rowIndex;
        const ast::Expr *other = op.kAlongCols ? s->rowIndex : s->colIndex;
        if (isScaledIndex(kIndex, perK, kDivide, [&](const ast::Expr *e) {
              auto *k = llvm::dyn_cast<ast::NameExpr>(e);
              return k && k->name == var;
            }) &&
            isScaledIndex(other, 1, perN, [&](const ast::Expr *e) {
              auto *b = llvm::dyn_cast<ast::MemberExpr>(e);
              return b && b->base.name == "block" && b->member.name == op.member;
            }))
          continue;
        std::string kWant = perK > 1     ? formatv("{0} * {1}", perK, var).str()
                            : kDivide > 1 ? formatv("{0} / {1}", var, kDivide).str()
                                          : var;
        std::string bWant = formatv("block.{0}{1}", op.member, perN > 1 ? formatv(" / {0}", perN).str() : "").str();
        std::string want = op.kAlongCols ? formatv("[{0}, {1}]", bWant, kWant).str()
                                         : formatv("[{0}, {1}]", kWant, bWant).str();
        diags.error(s->load->range,
                    formatv("{0} fills lds {1}, an operand of a scaled mma, whose {2} are read for {7} block.{3} "
                            "+ 0 .. and K blocks at the loop variable '{4}': the window must be {5}{6}",
                            sourceText(s->load->range), op.lds->name, op.scale, op.member, var,
                            s->load->window.tensor.name, want, op.lines));
        diags.note(m.call, "the scaled mma is here");
      }
    }
  }
}
