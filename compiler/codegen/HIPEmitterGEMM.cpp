//===- HIPEmitterGEMM.cpp - Writing LDS writes, mma and accumulator stores ---===//
//
// The GEMM statements of KernelEmitter: `lds = tile` (vector writes where the stored rows keep them aligned), `acc +=
// mma(a, b)` (per instruction K step: one LDS read per fragment, one MFMA per block, B's fragment first). The K loop's
// shapes are in HIPEmitterKLoop.cpp, the store of an accumulator in HIPEmitterEpilogue.cpp.
//
//===----------------------------------------------------------------------===//
#include "codegen/HIPEmitterKernel.h"

#include <cctype>

#include "support/Diagnostics.h"
#include "target/MFMA.h"

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
  markSource(depth, w.loc);
  line(depth) << "// "
              << (w.src->madeFor.empty() ? sourceText(w.loc)
                                         : formatv("{0} = {1}: {2}.", w.dst->name, w.src->name, w.src->madeFor).str())
              << "\n";
  if (unsigned run = b.transposedRun(l); run > 1) return transposedRunWrite(w, run, p, depth);
  if (b.transposed || b.colXorred()) swizzleComment(b, depth);
  if (l.rowsPerLane > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int i = 0; i < {0}; ++i) {{\n", l.rowsPerLane);
  std::string step = l.pattern == Pattern::ThreadRaked ? "i" : formatv("i * {0}", l.laneRows).str();
  line(depth + 1) << formatv("const int row = {0};\n", sum({p.row, step}));
  line(depth + 1) << formatv("const int col = {0};\n", p.col);
  // The widest chunk of the access whose LDS address stays aligned from row to row.
  unsigned chunk = b.transposed ? 1 : b.writeChunk(l.vec);
  if (b.slotted()) {
    // A vec 4 access of a 3-byte element is one slot's 4 elements (its column is a multiple of 4).
    line(depth + 1) << formatv("tilec::lds_store_slot({0}, row * {1} + col / {2}, {3}[i]);  // its 12 B at the "
                               "slot's start\n",
                               lds(b, true), b.pitch() / LdsBuffer::kSlotElements, LdsBuffer::kSlotElements,
                               regName(*w.src));
  } else if (chunk == l.vec && !b.transposed) {
    line(depth + 1) << formatv("tilec::lds_store<{0}>({1}, row * {2} + {4}, {3}[i]);\n", vecType(b.dtype, l.vec),
                               lds(b, true), b.pitch(), regName(*w.src), storedCol(b, "row", "col"));
  } else if (chunk > 1) {
    line(depth + 1) << formatv("// Rows of {0} B keep only {1}-byte alignment: {2} writes of {1} B.\n",
                               b.pitch() * sizeOf(b.dtype), chunk * sizeOf(b.dtype), l.vec / chunk);
    line(depth + 1) << "#pragma unroll\n";
    line(depth + 1) << formatv("for (int part = 0; part < {0}; part += {1})\n", l.vec, chunk);
    line(depth + 2) << formatv("tilec::lds_store<{0}>({1}, row * {2} + {5} + part, tilec::slice<{4}>({3}[i], "
                               "part));\n",
                               vecType(b.dtype, chunk), lds(b, true), b.pitch(), regName(*w.src), chunk,
                               storedCol(b, "row", "col"));
  } else if (l.vec == 1) {
    line(depth + 1) << formatv("tilec::lds_store<{0}>({1}, {2}, {3}[i]);\n", info(b.dtype).cppType, lds(b, true),
                               b.transposed ? formatv("{1} * {0} + {2}", b.pitch(), storedRow(b, "col", false),
                                                      storedCol(b, "col", "row")).str()
                                            : formatv("row * {0} + {1}", b.pitch(), storedCol(b, "row", "col")).str(),
                               regName(*w.src));
  } else {
    line(depth + 1) << "#pragma unroll\n";
    line(depth + 1) << formatv("for (int e = 0; e < {0}; ++e)\n", l.vec);
    line(depth + 2) << formatv("tilec::lds_store<{0}>({1}, {2}, {3}[i][e]);\n", info(b.dtype).cppType, lds(b, true),
                               b.transposed ? formatv("{1} * {0} + {2}", b.pitch(), storedRow(b, "col + e", true),
                                                      storedCol(b, "col + e", "row")).str()
                                            : formatv("row * {0} + {1} + e", b.pitch(), storedCol(b, "row", "col"))
                                                  .str(),
                               regName(*w.src));
  }
  line(depth) << "}\n";
}

void KernelEmitter::ldsRead(const LdsRead &r, unsigned depth) {
  const Layout &l = r.dst->layout;
  const LdsBuffer &b = *r.src;
  const LanePosition &p = lanePosition(l, r.dst->name);
  markSource(depth, r.loc);
  line(depth) << "// " << sourceText(r.loc) << "\n";
  if (r.transpose)
    line(depth) << formatv("// {0} is stored transposed ({1} x ({2} + {3})): element (row, col) of {4} is stored row "
                           "row, column col.\n",
                           b.name, b.storedRows(), b.storedCols(), b.pad, r.dst->name);
  swizzleComment(b, depth);
  unsigned chunk = b.writeChunk(l.vec);
  if (l.rowsPerLane > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int i = 0; i < {0}; ++i) {{\n", l.rowsPerLane);
  std::string step = l.pattern == Pattern::ThreadRaked ? "i" : formatv("i * {0}", l.laneRows).str();
  line(depth + 1) << formatv("const int row = {0};\n", sum({p.row, step}));
  line(depth + 1) << formatv("const int col = {0};\n", p.col);
  std::string at = formatv("{0} * {1} + {2}", storedRow(b, "row", false), b.pitch(), storedCol(b, "row", "col"));
  std::string dst = r.dst->name + "[i]";
  if (chunk == l.vec) {
    line(depth + 1) << formatv("{0} = tilec::lds_load<{1}>({2}, {3});\n", dst, vecType(b.dtype, l.vec), lds(b, false),
                               at);
  } else {
    line(depth + 1) << formatv("// Rows of {0} B keep only {1}-byte alignment: {2} reads of {1} B.\n",
                               b.pitch() * sizeOf(b.dtype), chunk * sizeOf(b.dtype), l.vec / chunk);
    line(depth + 1) << "#pragma unroll\n";
    line(depth + 1) << formatv("for (int part = 0; part < {0}; part += {1}) {{\n", l.vec, chunk);
    line(depth + 2) << formatv("const {0} v = tilec::lds_load<{0}>({1}, {2} + part);\n", vecType(b.dtype, chunk),
                               lds(b, false), at);
    if (chunk == 1) line(depth + 2) << dst << "[part] = v;\n";
    else {
      line(depth + 2) << "#pragma unroll\n";
      line(depth + 2) << formatv("for (int e = 0; e < {0}; ++e) {1}[part + e] = v[e];\n", chunk, dst);
    }
    line(depth + 1) << "}\n";
  }
  line(depth) << "}\n";
}

void KernelEmitter::transposedRunWrite(const LdsWrite &w, unsigned run, const LanePosition &p, unsigned depth) {
  const Layout &l = w.src->layout;
  const LdsBuffer &b = *w.dst;
  const std::string t = regName(*w.src);
  line(depth) << formatv("// {0} is stored transposed and this lane's accesses are consecutive rows: each column's {1} "
                         "values of accesses i .. i + {2} are one {3}-byte write.\n",
                         b.name, run, run - 1, run * sizeOf(b.dtype));
  swizzleComment(b, depth);
  if (l.rowsPerLane > run) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int i = 0; i < {0}; i += {1}) {{\n", l.rowsPerLane, run);
  line(depth + 1) << formatv("const int row = {0};\n", sum({p.row, "i"}));
  line(depth + 1) << formatv("const int col = {0};\n", p.col);
  std::string values;
  for (unsigned r = 0; r < run; ++r)
    values += formatv("{0}{1}[i{2}]{3}", r ? ", " : "", t, r ? formatv(" + {0}", r).str() : "", l.vec > 1 ? "[e]" : "")
                  .str();
  std::string type = vecType(b.dtype, run);
  if (l.vec > 1) {
    line(depth + 1) << "#pragma unroll\n";
    line(depth + 1) << formatv("for (int e = 0; e < {0}; ++e)\n", l.vec);
  }
  line(depth + (l.vec > 1 ? 2 : 1))
      << formatv("tilec::lds_store<{0}>({1}, {2} * {3} + {5}, {0}{{{4}});\n", type, lds(b, true),
                 storedRow(b, l.vec > 1 ? "col + e" : "col", l.vec > 1), b.pitch(), values,
                 storedCol(b, l.vec > 1 ? "col + e" : "col", "row"));
  line(depth) << "}\n";
}

/// The stored row of `row` in `b`: itself, or tilec::swizzled_row of it. `inVector`: row is "col + e" inside a lane's
/// vector, whose rows share a swizzle (the pass keeps the bits below the swizzled ones, and vectors are aligned), so
/// the bits of e below the swizzled ones are added after it and clang still sees consecutive rows.
std::string KernelEmitter::storedRow(const LdsBuffer &b, const std::string &row, bool inVector) const {
  if (!b.swizzled()) return "(" + row + ")";
  std::string fn = formatv("tilec::swizzled_row<{0}, {1}, {2}>", b.swizzleFrom, b.swizzleMask, b.swizzleShift).str();
  if (!inVector || b.swizzleShift == 0) return fn + "(" + row + ")";
  unsigned low = (1u << b.swizzleShift) - 1;
  return formatv("({0}(col + (e & ~{1})) + (e & {1}))", fn, low).str();
}

/// The placed column of element `col` of stored row `row` in `b`: itself, or tilec::xor_column of it. A buffer whose
/// columns are XORed has no row swizzle (ir/Verifier.h), so `row` is where the row is placed.
std::string KernelEmitter::storedCol(const LdsBuffer &b, const std::string &row, const std::string &col) const {
  if (!b.colXorred()) return col;
  return formatv("tilec::xor_column<{0}, {1}, {2}, {3}>({4}, {5})", b.colXorFrom, b.colXorMask, b.colXorShift,
                 b.xorChunkElements(), row, col).str();
}

void KernelEmitter::swizzleComment(const LdsBuffer &b, unsigned depth) {
  if (b.colXorred())
    line(depth) << formatv("// {0}'s columns are XORed (the LDS swizzle pass, for its banks): in row r, chunk j of {1} "
                           "elements (16 B) is placed at j ^ (((r >> {2}) & {3}) << {4}).\n",
                           b.name, b.xorChunkElements(), b.colXorFrom, b.colXorMask, b.colXorShift);
  if (!b.swizzled()) return;
  line(depth) << formatv("// {0}'s stored rows are swizzled (the LDS swizzle pass, for its banks): row r is placed "
                         "at r ^ (((r >> {1}) & {2}) << {3}).\n",
                         b.name, b.swizzleFrom, b.swizzleMask, b.swizzleShift);
}

/// The comment lines that open an mma: what it computes and why B's fragment goes first.
void KernelEmitter::mmaHeader(const MMA &m, unsigned depth) {
  const AccTile &a = *m.acc;
  const MFMAInstr &ins = *a.instr;
  const MFMAInstr &swapped = transposedMFMA(ins, t);
  markSource(depth, m.loc);
  std::string source = sourceText(m.loc);
  if (!source.empty() && source.back() == ';') source.pop_back();
  line(depth) << "// " << source << formatv(": K = {0} in steps of {1}, {2} x {3} {4} per step\n", m.k,
                                                        ins.k, a.blocksY(), a.blocksX(), ins.name);
  line(depth) << "// B's fragment goes first: each MFMA computes its block of c transposed, so a lane holds rows of c "
                 "(4 consecutive columns per 4 values), which the store writes as vectors.\n";
  if (swapped.name != ins.name)
    line(depth) << formatv("// With the operands swapped, {0} is issued as {1}.\n", ins.name, swapped.name);
}

/// This lane's fragment of each of `count` blocks (`block` names the block index; rows of `size` from `origin`) of one
/// instruction K step (k_lane in scope), read from `buf` into `frag`[block] as `view`'s operand.
void KernelEmitter::fragmentReads(const MFMAInstr &view, const std::string &frag, const char *block, unsigned count,
                                  unsigned size, const LdsBuffer &buf, const std::string &origin, const char *kLane,
                                  unsigned d) {
  if (count > 1) line(d) << "#pragma unroll\n";
  line(d) << formatv("for (int {0} = 0; {0} < {1}; ++{0})\n", block, count);
  std::string row = formatv("{0} + {1} * {2} + lane % {2}", origin, block, size).str();
  std::string at = formatv("{0} * {1} + {2}", buf.swizzled() ? storedRow(buf, row, false) : "(" + row + ")",
                           buf.pitch(), kLane).str();
  std::string value = formatv("tilec::lds_load<{0}>({1}, {2})", view.operandType, lds(buf, false), at).str();
  if (!view.scaled && view.readsPerFragment() == 2) {
    // K in runs of 4 (runsOfFour, an A from an accumulator's registers): two reads, the second run G x 4 further.
    std::string run = vecType(buf.dtype, view.kRun());
    value = formatv("__builtin_bit_cast({0}, tilec::concat(tilec::lds_load<{1}>({2}, {3}), tilec::lds_load<{1}>({2}, "
                    "{3} + {4})))",
                    view.operandType, run, lds(buf, false), at, view.kGroups() * view.kRun())
                .str();
  } else if (view.scaled) {
    // 16-byte reads: two runs of the lane's K values (8-bit formats), or one run in the low half (fp4x2); the
    // 24-byte run of a 6-bit format as three 8-byte reads.
    std::string run = formatv("tilec::lds_load<tilec::i32x4>({0}, {1}", lds(buf, false), at).str();
    value = view.ldsReadsPerRun() == 3 ? formatv("tilec::lds_load_run24({0}, {1})", lds(buf, false), at).str()
            : view.readsPerFragment() == 2
                ? formatv("tilec::concat({0}), {0} + {1}))", run, view.kGroups() * view.kRun()).str()
                : formatv("tilec::concat({0}), tilec::i32x4{{})", run).str();
  }
  line(d + 1) << formatv("{0}[{1}] = {2};\n", frag, block, value);
}

/// The fragment reads of one instruction K step (kk and k_lane in scope): one LDS read per block row of A and per
/// block column of B; `step` indexes fragment arrays that hold every step ("" for one step's). A B whose elements
/// hold another number of K values than A's (a scaled mma of fp8 by fp4x2, say) has a k_lane of its own, k_lane_b,
/// in its elements.
void KernelEmitter::mmaFragmentReads(const MMA &m, const std::string &step, unsigned d) {
  const AccTile &a = *m.acc;
  const MFMAInstr &ins = *a.instr;
  const MFMAInstr &insB = operandView(ins, true);
  if (&insB != &ins) {
    unsigned perA = info(ins.a).values, perB = info(ins.b).values;
    std::string kkB = perA > perB ? formatv("kk * {0}", perA / perB).str() : formatv("kk / {0}", perB / perA).str();
    line(d) << formatv("const int k_lane_b = {0} + (lane / {1}) * {2};  // B's K {3}: {4} values each, {5} of A's\n",
                       kkB, insB.m, insB.kRun(), perB > 1 ? "columns" : "values", perB,
                       perA > perB ? formatv("{0} per column", perA / perB).str()
                                   : formatv("a column per {0}", perB / perA).str());
  }
  if (m.aFrom) forwardedFragments(m, step, d);
  else if (m.aHoisted) hoistedFragments(m, step, d);
  else fragmentReads(ins, "a_frag" + step, "bi", a.blocksY(), ins.m, *m.a, a.name + "_row", "k_lane", d);
  if (m.b->transposeReads) return transposingFragmentReads(m, step, d);
  fragmentReads(insB, "b_frag" + step, "bj", a.blocksX(), ins.n, *m.b, a.name + "_col",
                &insB != &ins ? "k_lane_b" : "k_lane", d);
}

/// B's fragments from a K x N buffer stored as declared, with ds_read_b64_tr_b16 (16-bit values), _tr_b8 (8-bit),
/// _tr_b4 (fp4x2, N-packed) or ds_read_b96_tr_b6 (fp6x4 and bf6x4, N-packed, 12 bytes per lane in 16-byte slots, the
/// slot being the column unit; v = 16, as b4): each lane names 8 bytes, v = 4, 8 or 16 consecutive values of a row;
/// in each group of 16 lanes, lane 16g + (16 / v) r + c names row r, columns v c .. v c + v - 1 of a v x 16 piece,
/// and lane 16g + j gets column j, v consecutive K values. Lane l's fragment (column l % n, its K values: one run, or
/// the two runs of a scaled 8-bit operand) is TransposeReads::count such reads, of rows K_lane + rowOffset(h) + (l %
/// 16) / (16 / v) and columns (16 (l / 16)) % n + v (l % (16 / v)) of its block (K_lane = k_lane, or perK k_lane K
/// values for a packed A: 2 for fp4x2, 4 for fp6x4 and bf6x4).
void KernelEmitter::transposingFragmentReads(const MMA &m, const std::string &step, unsigned d) {
  const AccTile &a = *m.acc;
  const MFMAInstr &ins = operandView(*a.instr, true); // B's geometry, in its elements
  const LdsBuffer &b = *m.b;
  const TransposeReads tr = transposeReadsOf(ins, b);
  unsigned lanesPerRow = 16 / tr.values, perK = info(ins.a).values, perN = info(b.dtype).values;
  std::string kLaneName = &ins != a.instr ? "k_lane_b" : "k_lane";
  // The pieces of a scaled operand are dwords, joined into its 8; the others keep their values' type.
  std::string piece = ins.scaled ? "tilec::i32x2" : vecType(b.dtype, tr.values);
  std::string bits = perN > 1 ? formatv(", {0}", 8 * sizeOf(b.dtype) / perN).str() : "";
  std::string runs = tr.count == tr.perRun ? ""
                     : formatv("; the lane's K values are {0} runs of {1}, {2} apart", tr.count / tr.perRun,
                               tr.perRun * tr.values, tr.runStride).str();
  line(d) << formatv("// {0} is K x N as declared{1}: each fragment is {2} {3} ({4} K values of this lane's column "
                     "each{5}).\n", b.name, perN > 1 ? formatv(", {0} N values per {1}", perN, name(b.dtype)).str() : "",
                     tr.count, Target::ldsTransposeReadName(valueBits(b.dtype)), tr.values, runs);
  std::string kRow = perK > 1 ? formatv("{0} * {1}", perK, kLaneName).str() : kLaneName;
  std::string laneRow = lanesPerRow > 1 ? formatv("(lane % 16) / {0}", lanesPerRow).str() : "lane % 16";
  line(d) << formatv("const int tr_row = {0} + {1};  // the K row this lane names{2}\n", kRow, laneRow,
                     perK > 1 ? formatv(" ({0} counts {1} columns of {2} K values)", kLaneName, name(ins.a), perK)
                                    .str()
                              : "");
  // With n = 16 every group of 16 lanes covers the block's 16 columns; with n = 32 lane groups 1 and 3 take 16 .. 31.
  // Columns count elements: 16 N values are 16 / perN of them. A slotted buffer's 16 N values are one slot.
  bool slotted = b.slotted();
  unsigned unit = slotted ? 16 : perN; // N values per column index
  std::string group = ins.n == 16 ? ""
                      : slotted   ? formatv("(lane / 16) % {0}", ins.n / 16).str()
                                  : formatv("({0} * (lane / 16)) % {1}", 16 / perN, ins.n / perN).str();
  std::string within = lanesPerRow > 1 ? formatv("{0} * (lane % {1})", tr.values, lanesPerRow).str() : "";
  std::string trCol = group.empty() ? within : within.empty() ? group : group + " + " + within;
  std::string colName = slotted ? "tr_slot" : "tr_col";
  if (!trCol.empty())
    line(d) << formatv("const int {0} = {1};  // its {2} in the block\n", colName, trCol,
                       slotted    ? std::string("slot of 16 N values")
                       : perN > 1 ? formatv("{0} N values ({1} {2})", tr.values, tr.values / perN, name(b.dtype)).str()
                                  : formatv("{0} columns", tr.values).str());
  if (a.blocksX() > 1) line(d) << "#pragma unroll\n";
  line(d) << formatv("for (int bj = 0; bj < {0}; ++bj) {{\n", a.blocksX());
  std::string col = formatv("{0} + {1}{2}", unit > 1 ? formatv("{0}_col / {1}", a.name, unit).str() : a.name + "_col",
                            ins.n == unit ? std::string("bj") : formatv("bj * {0}", ins.n / unit).str(),
                            trCol.empty() ? "" : " + " + colName).str();
  unsigned rowPitch = slotted ? b.pitch() / LdsBuffer::kSlotElements : b.pitch();
  std::vector<std::string> parts;
  for (unsigned h = 0; h < tr.count; ++h) {
    std::string name = formatv("tr{0}", h).str(), row = "tr_row";
    if (unsigned offset = tr.rowOffset(h)) row = formatv("(tr_row + {0})", offset).str();
    if (slotted)
      line(d + 1) << formatv("const tilec::i32x3 {0} = tilec::lds_load_tr6({1}, {2} * {3} + {4});\n", name,
                             lds(b, false), row, rowPitch, col);
    else
      line(d + 1) << formatv("const {0} {1} = tilec::lds_load_tr<{0}{2}>({3}, {4} * {5} + {6});\n", piece, name,
                             bits, lds(b, false), row, rowPitch, col);
    parts.push_back(name);
  }
  std::string value = parts.front();
  if (slotted) {
    // Two reads of 3 dwords fill dwords 0 .. 5 of the 8; 6 and 7 are zero.
    line(d + 1) << formatv("b_frag{0}[bj] = tilec::concat({1}, {2});  // dwords 6 and 7 zero\n", step, parts[0],
                           parts[1]);
    line(d) << "}\n";
    return;
  }
  if (ins.scaled) {
    // Four reads fill the 8 dwords; two (fp4x2: 32 values) the low half, zeros above.
    while (parts.size() < 4) parts.push_back("tilec::i32x2{}");
    value = formatv("tilec::concat({0}, {1}, {2}, {3})", parts[0], parts[1], parts[2], parts[3]);
    line(d + 1) << formatv("b_frag{0}[bj] = {1};\n", step, value);
    line(d) << "}\n";
    return;
  }
  if (tr.count == 2) {
    std::string lanes;
    for (unsigned i = 0; i < 2 * tr.values; ++i) lanes += formatv(", {0}", i).str();
    value = formatv("__builtin_shufflevector({0}, {1}{2})", parts[0], parts[1], lanes);
  }
  line(d + 1) << formatv("b_frag{0}[bj] = __builtin_bit_cast({1}, {2});\n", step, ins.operandType, value);
  line(d) << "}\n";
}

/// `k_lane`: where this lane's K values of instruction K step kk start in the operands' rows.
void KernelEmitter::kLane(const MFMAInstr &ins, unsigned d) {
  if (ins.readsPerFragment() == 1) {
    unsigned values = info(ins.a).values;
    line(d) << formatv("const int k_lane = kk + (lane / {0}) * {1};  // this lane's K {3}: k_lane .. + {2}{4}\n",
                       ins.m, ins.kPerLane, ins.kPerLane - 1, values > 1 ? "columns" : "values",
                       values > 1 ? formatv(" ({0} values each)", values).str() : "");
    return;
  }
  unsigned run = ins.kRun(), next = ins.kGroups() * run;
  line(d) << formatv("const int k_lane = kk + (lane / {0}) * {1};  // this lane's K values: k_lane .. + {2} and "
                     "k_lane + {3} .. + {2}\n", ins.m, run, run - 1, next);
}

/// One MFMA per block of the accumulator for the fragments of `step`; a scaled mma's of instruction K step `j`
/// (its scale operand and opsel are constants of j: ir::ScaleLoads::select).
void KernelEmitter::mmaProducts(const MMA &m, const std::string &step, unsigned d, unsigned rowFrom, unsigned rowTo,
                                int j) {
  const AccTile &a = *m.acc;
  const MFMAInstr &swapped = transposedMFMA(*a.instr, t);
  rowTo = std::min(rowTo, a.blocksY());
  if (rowTo - rowFrom > 1) line(d) << "#pragma unroll\n";
  line(d) << formatv("for (int bi = {0}; bi < {1}; ++bi)\n", rowFrom, rowTo);
  if (a.blocksX() > 1) line(d + 1) << "#pragma unroll\n";
  line(d + 1) << formatv("for (int bj = 0; bj < {0}; ++bj)\n", a.blocksX());
  if (swapped.scaled && !m.scaleA) {
    // The f8f6f4 instruction without block scales: both scales E8M0 127 = 1.0 (tilec::e8m0_one), opsel 0. A register
    // holds it (LLVM takes the scale operands from VGPRs only); zero scales would select the unscaled opcode, but a
    // zero E8M0 byte means 2^-127 wherever the instruction reads one.
    line(d + 2) << formatv("{0}[bi][bj] = {1}(b_frag{2}[bj], a_frag{2}[bi], {0}[bi][bj], {3}, {4}, 0, "
                           "tilec::e8m0_one, 0, tilec::e8m0_one);\n",
                           a.name, swapped.builtin, step, swapped.codeB, swapped.codeA);
    return;
  }
  if (swapped.scaled) {
    // Swapped operands: B's fragment is the instruction's A (cbsz = B's format, scale_a = B's scale), A's its B.
    const ScaleLoads::Select &sel = m.scaleLoads.select.at(static_cast<size_t>(j));
    bool wide = m.scaleLoads.chunkBytes > 4;
    auto scale = [&](const char *side, const char *block) {
      std::string reg = formatv("{0}_{1}[{2}][{3}]", a.name, side, sel.chunk, block).str();
      if (!wide) return reg;
      return sel.dword ? formatv("static_cast<unsigned>({0} >> 32)", reg).str()
                       : formatv("static_cast<unsigned>({0})", reg).str();
    };
    line(d + 2) << formatv("{0}[bi][bj] = {1}(b_frag{2}[bj], a_frag{2}[bi], {0}[bi][bj], {3}, {4}, "
                           "{5}, {6}, {5}, {7});\n",
                           a.name, swapped.builtin, step, swapped.codeB, swapped.codeA, sel.opsel, scale("sb", "bj"),
                           scale("sa", "bi"));
    return;
  }
  line(d + 2) << formatv("{0}[bi][bj] = {1}(b_frag{2}[bj], a_frag{2}[bi], {0}[bi][bj], 0, 0, 0);\n", a.name,
                         swapped.builtin, step);
}

namespace {

/// The C++ type of a scale chunk's registers, and of its load.
const char *scaleRegisterType(const ScaleLoads &s) { return s.chunkBytes > 4 ? "unsigned long long" : "unsigned"; }
const char *scaleLoadType(const ScaleLoads &s) {
  return s.chunkBytes > 4 ? "unsigned long long" : s.chunkBytes > 2 ? "unsigned" : "unsigned short";
}

} // namespace

void KernelEmitter::declareScales(const MMA &m, const std::string &suffix, unsigned d) {
  const AccTile &a = *m.acc;
  const ScaleLoads &s = m.scaleLoads;
  line(d) << formatv("{0} {1}_sa{2}[{3}][{4}], {1}_sb{2}[{3}][{5}];\n", scaleRegisterType(s), a.name, suffix, s.chunks,
                     a.blocksY(), a.blocksX());
}

/// The scale registers of a scaled mma for the K step at `k` (ir::ScaleLoads): per chunk, one per block row of A
/// ({acc}_sa{suffix}) and per block column of B ({acc}_sb{suffix}), lane l holding the bytes of its row (column)
/// l % m of the block from K block k / perBlock + chunk * chunkBytes on, shifted right by 8 * (l / m) bits: its
/// byte of instruction K step j is then byte select[j]. Masked, a byte outside the scale tensor is 127 (2^0), where
/// the operands read zeros. Unmasked in a staged step, buffer loads at the step's scalar offset.
void KernelEmitter::scaleLoads(const MMA &m, const std::string &k, const std::string &suffix, bool declare,
                               unsigned d) {
  const AccTile &a = *m.acc;
  const MFMAInstr &ins = *a.instr;
  const ScaleLoads &s = m.scaleLoads;
  unsigned perBlock = ScaledMFMAInstr::kBlock / info(ins.a).values;
  if (declare) declareScales(m, suffix, d);
  // K as an operand of / (the next step's is "k + 128").
  std::string kStep = llvm::all_of(k, [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; })
                          ? k
                          : "(" + k + ")";
  line(d) << formatv("// The scales of K step {0}: {1} bytes of each row from K block {2} / {3} on{4}, shifted by "
                     "this lane's group (lane / {5}): its byte of instruction K step j is byte {6} j of them.\n",
                     k, s.bytes, kStep, perBlock,
                     s.chunks > 1 ? formatv(", {0} loads of {1}", s.chunks, s.chunkBytes).str() : "", s.laneGroup,
                     s.perInstr);
  // Whole K steps of a block inside the grid tensor: every scale is inside its tensor (the launcher checks the
  // shapes), so the loads need no mask.
  bool inside = fullSteps.count(m.kVar) && (interiorBlock || !splitEdges);
  const auto &buffers = this->k.bufferLoaded;
  bool buffer = inside && uniformOffsetLoads && s.chunkBytes >= 4 && llvm::is_contained(buffers, m.scaleA) &&
                llvm::is_contained(buffers, m.scaleB);
  std::string shift = formatv(" >> 8 * (lane / {0})", s.laneGroup).str();
  // One statement per chunk (a constant index: no loop variable of the emitter's beside the user's names).
  for (unsigned c = 0; c < s.chunks; ++c) {
    auto side = [&](const char *arr, const Tensor &t, unsigned blocks, const char *block, const char *origin,
                    const std::string &wave) {
      if (blocks > 1) line(d) << "#pragma unroll\n";
      line(d) << formatv("for (int {0} = 0; {0} < {1}; ++{0})\n", block, blocks);
      std::string row = formatv("{0} + {1} + {2} * {3} + lane % {3}", origin, wave, block, ins.m).str();
      std::string col =
          formatv("{0} / {1}{2}", kStep, perBlock, c ? formatv(" + {0}", c * s.chunkBytes).str() : "").str();
      std::string value;
      if (buffer)
        value = formatv("tilec::buffer_load_unaligned<{0}>({1}_buf, ({2}) * {3}, {4})", scaleLoadType(s), t.name, row,
                        extentExpr(t.rowStride()), col);
      else if (inside)
        value = formatv("tilec::load_scales_inside<{0}>({1}, {2}, {3}, {4})", scaleLoadType(s), t.name,
                        extentExpr(t.rowStride()), row, col);
      else
        value = formatv("tilec::load_scales<{0}>({1}, {2}, {3}, {4})", scaleLoadType(s), t.name, elementBounds(t), row,
                        col);
      line(d + 1) << formatv("{0}_{1}{2}[{3}][{4}] = {5}{6};\n", a.name, arr, suffix, c, block,
                             s.chunkBytes > 2 ? value : formatv("unsigned({0})", value).str(), shift);
    };
    side("sa", *m.scaleA, a.blocksY(), "bi", "block_row", a.name + "_row");
    side("sb", *m.scaleB, a.blocksX(), "bj", this->k.gridWholeRows ? "0" : "block_col", a.name + "_col");
  }
}

/// A scaled mma whose scales are staged through LDS (ir::ScaleLoads::ldsA, ldsB): this lane's chunks of the K step
/// whose buffers are read now, for its block rows (columns), into {acc}_sa{suffix} and {acc}_sb{suffix}; shifted by
/// the lane's group unless `raw` (a staged step shifts the next step's at its end, which is also the copy that makes
/// them this step's).
void KernelEmitter::scaleReads(const MMA &m, const std::string &suffix, bool raw, bool declare, unsigned d) {
  const AccTile &a = *m.acc;
  const ScaleLoads &s = m.scaleLoads;
  if (declare) declareScales(m, suffix, d);
  if (s.readAtLaneGroup)
    line(d) << formatv("// The scales of this step{0} from LDS: {1} bytes of each of the lane's rows, read at its lane "
                       "group's byte (lane / {2}), where each MFMA's opsel finds its byte.\n",
                       raw ? " (the next one's)" : "", s.bytes, s.laneGroup);
  else
    line(d) << formatv("// The scales of this step{0} from LDS: {1} bytes of each of the lane's rows{2}.\n",
                       raw ? " (the next one's)" : "", s.bytes,
                       raw ? "" : formatv(", shifted by its lane group (lane / {0})", s.laneGroup).str());
  for (unsigned c = 0; c < s.chunks; ++c) {
    auto side = [&](const char *arr, const LdsBuffer &buf, unsigned blocks, const char *block,
                    const std::string &wave) {
      if (blocks > 1) line(d) << "#pragma unroll\n";
      line(d) << formatv("for (int {0} = 0; {0} < {1}; ++{0})\n", block, blocks);
      std::string row = formatv("{0} + {1} * {2} + lane % {2}", wave, block, s.laneGroup).str();
      std::string at = formatv("{0} * {1}{2}", buf.swizzled() ? storedRow(buf, row, false) : "(" + row + ")",
                               buf.pitch(), c ? formatv(" + {0}", c * s.chunkBytes).str() : "").str();
      std::string value =
          s.readAtLaneGroup
              ? formatv("tilec::lds_load_unaligned<{0}>({1}, {2} + lane / {3}, {4} - lane / {3})", scaleLoadType(s),
                        lds(buf, false), at, s.laneGroup, s.chunkBytes).str()
              : formatv("tilec::lds_load<{0}>({1}, {2})", scaleLoadType(s), lds(buf, false), at).str();
      if (s.chunkBytes <= 2) value = formatv("unsigned({0})", value).str();
      line(d + 1) << formatv("{0}_{1}{2}[{3}][{4}] = {5}{6};\n", a.name, arr, suffix, c, block, value,
                             raw || s.readAtLaneGroup ? "" : formatv(" >> 8 * (lane / {0})", s.laneGroup).str());
    };
    side("sa", *s.ldsA, a.blocksY(), "bi", a.name + "_row");
    side("sb", *s.ldsB, a.blocksX(), "bj", a.name + "_col");
  }
}

/// acc += a x b: for each K step of the instruction, read this lane's A fragment of every block row and B fragment
/// of every block column (kPerLane consecutive K values: one LDS read each), then one MFMA per block.
void KernelEmitter::mma(const MMA &m, unsigned depth) {
  const AccTile &a = *m.acc;
  const MFMAInstr &ins = *a.instr;
  mmaHeader(m, depth);
  if (m.restart) {
    line(depth) << formatv("// {0} = mma(...): {0} restarts at zero.\n", a.name);
    line(depth) << formatv("for (int bi = 0; bi < {0}; ++bi)\n", a.blocksY());
    line(depth + 1) << formatv("for (int bj = 0; bj < {0}; ++bj) {1}[bi][bj] = {2}{{};\n", a.blocksX(), a.name,
                               ins.accType);
  }
  if (m.scaleA && m.scaleLoads.ldsA) scaleReads(m, "", /*raw=*/false, /*declare=*/!scalesLoaded, depth);
  else if (m.scaleA && !scalesLoaded) scaleLoads(m, m.kVar, "", true, depth);
  unsigned d = depth + 1;
  if (m.scaleA) {
    // A scaled mma selects each instruction K step's scale byte with a constant opsel: one block per step.
    for (unsigned j = 0; j < m.k / ins.k; ++j) {
      line(depth) << "{\n";
      line(d) << formatv("const int kk = {0};\n", j * ins.k);
      kLane(ins, d);
      line(d) << formatv("{0} a_frag[{1}], b_frag[{2}];\n", ins.operandType, a.blocksY(), a.blocksX());
      mmaFragmentReads(m, "", d);
      mmaProducts(m, "", d, 0, ~0u, static_cast<int>(j));
      line(depth) << "}\n";
    }
    return;
  }
  if (m.k / ins.k > 1) line(depth) << "#pragma unroll\n";
  line(depth) << formatv("for (int kk = 0; kk < {0}; kk += {1}) {{\n", m.k, ins.k);
  kLane(ins, d);
  line(d) << formatv("{0} a_frag[{1}], b_frag[{2}];\n", ins.operandType, a.blocksY(), a.blocksX());
  mmaFragmentReads(m, "", d);
  mmaProducts(m, "", d);
  line(depth) << "}\n";
}

} // namespace tilec::hip
