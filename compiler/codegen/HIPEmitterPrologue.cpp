//===- HIPEmitterPrologue.cpp - A kernel's comment, parameters and prologue -===//
//
// What comes before a kernel's statements: the comment on its distributions, the parameter list (kernel and
// launcher), and the prologue: thread and workgroup ids, the block origin, for a batched grid each 3-D tensor's
// pointer moved to the workgroup's matrix, the register tiles, LDS buffers and accumulators, and each lane's position
// in every distribution.
//
//===----------------------------------------------------------------------===//
#include "codegen/HIPEmitterKernel.h"

#include "analysis/KLoopResources.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace tilec::hip {

void KernelEmitter::signatureComment() {
  os << formatv("// {0}: workgroup {1} ({2} wave{3}), one workgroup per {4}{5}.\n", k.name, k.workgroupSize,
                k.waves(t), k.waves(t) == 1 ? "" : "s", blockText(), k.batched ? " of each matrix" : "");
  for (const auto &tile : k.tiles) {
    const Layout &l = tile->layout;
    os << formatv("//   tile {0}: {1}[{2}] {4} vec {5}: X0 = {6}, L = {7}, R = {8}; {9} B per access{10}\n",
                  tile->name, name(tile->dtype),
                  l.oneD ? formatv("{0}] viewed as [{1}, {2}", l.rows * l.cols, l.rows, l.cols).str()
                         : formatv("{0}, {1}", l.rows, l.cols).str(),
                  0, patternName(l.pattern), l.vec, l.lanesX, l.laneRows,
                  l.rowsPerLane, l.bytesPerAccess(), tile->used ? "" : " (never used: not declared below)");
  }
}

void KernelEmitter::params(bool forLauncher, const std::string *body) {
  bool first = true;
  for (const auto &tensor : k.tensors) {
    os << (first ? "" : ", ") << (tensor->isWritten ? "" : "const ") << info(tensor->dtype).cppType << " *"
       << (forLauncher ? "" : "__restrict__ ") << tensor->name;
    first = false;
  }
  for (const auto &s : k.scalars) {
    bool unused = body && !usesIdentifier(*body, s->name);
    os << (first ? "" : ", ") << (s->isDimension ? "int" : info(s->dtype).cppType.str()) << " "
       << (unused ? "/*" + s->name + "*/" : s->name);
    first = false;
  }
}

void KernelEmitter::prologue() {
  unsigned waves = k.waves(t);
  line(1) << "const int tid = __builtin_amdgcn_workitem_id_x();\n";
  if (waves > 1) {
    line(1) << formatv("const int wave = tid / {0};\n", t.waveSize);
    line(1) << formatv("const int lane = tid % {0};\n", t.waveSize);
  } else {
    line(1) << "const int lane = tid;\n";
  }
  line(1) << formatv("// Origin of this workgroup's {0}.\n", blockText());
  if (k.gridTensor->rank != 1) // a 1-D grid has one row of workgroups
    line(1) << formatv("const int block_row = __builtin_amdgcn_workgroup_id_y() * {0};\n", k.gridTileRows);
  if (!k.gridWholeRows) // whole rows start at column 0
    line(1) << formatv("const int block_col = __builtin_amdgcn_workgroup_id_x() * {0};\n", k.gridTileCols);
  if (k.batched) batchPrologue();
  if (variant == Variant::Vector && !k.bufferLoaded.empty()) {
    line(1) << formatv("// Buffer resources for the masked {0}: a vector outside the tensor is given an out-of-range "
                       "offset and reads zeros (the launcher runs this kernel only for tensors under 2 GiB).\n",
                       llvm::any_of(kLoops(k.body), [](const For *f) { return f->plan->bufferLoads; })
                           ? "K steps"
                           : "loads of the next step");
    for (const Tensor *tensor : k.bufferLoaded)
      line(1) << formatv("const tilec::Buffer {0}_buf = tilec::make_buffer({0}, {1});\n", tensor->name,
                         tensorBytes(*tensor, "unsigned"));
  }

  if (llvm::any_of(k.tiles, [](const auto &tile) { return tile->used; }))
    line(1) << "// Register tiles: element i is this lane's i-th access.\n";
  for (const auto &tile : k.tiles)
    if (tile->used) declareRegisterTile(*tile, tile->name, 1);
  if (k.ldsSharedBytes) {
    line(1) << "// One LDS allocation for every buffer, those whose lifetimes do not overlap in the same bytes (a barrier "
               "between them): "
            << k.ldsSharedWhy << ".\n";
    line(1) << formatv("__shared__ __attribute__((aligned(16))) unsigned char lds_shared[{0}];\n", k.ldsSharedBytes);
  }
  for (const auto &l : k.ldsBuffers) {
    if (!l->used) continue;
    if (l->slotted())
      line(1) << formatv("// LDS {0}: {1}[{2}, {3}], {2} rows of ({3} + {4} pad) / {5} = {6} slots of {7} B ({5} {1}, "
                         "12 B, and 4 unused) = {8} B: each lane's 12 bytes of ds_read_b96_tr_b6 start 16-byte "
                         "aligned.\n",
                         l->name, name(l->dtype), l->rows, l->cols, l->pad, LdsBuffer::kSlotElements,
                         l->pitch() / LdsBuffer::kSlotElements, LdsBuffer::kSlotBytes, l->bytes());
    else
      line(1) << formatv("// LDS {0}: {1}[{2}, {3}]{4}, {5} x ({6} + {7} pad){9} = {8} B.\n", l->name, name(l->dtype),
                         l->rows, l->cols, l->transposed ? " stored transposed (rows contiguous in K)" : "",
                         l->storedRows(), l->storedCols(), l->pad, l->bytes(),
                         l->tailBytes ? formatv(" + {0} B that the last row's scale reads reach", l->tailBytes).str()
                                      : "");
    if (l->stages > 1)
      line(1) << formatv("// {0} stages of {1} B: a pipelined K loop writes one while its mma reads the other.\n",
                         l->stages, l->stageBytes());
    std::string type = l->slotted() ? "tilec::lds_slot" : info(l->dtype).cppType.str();
    std::string dims = formatv("{0}[{1} * {2}{3}]", l->stages > 1 ? formatv("[{0}]", l->stages).str() : "",
                               l->storedRows(), l->slotted() ? l->pitch() / LdsBuffer::kSlotElements : l->pitch(),
                               l->tailBytes ? formatv(" + {0}", l->tailBytes / sizeOf(l->dtype)).str() : "");
    if (k.ldsSharedBytes)
      line(1) << formatv("{0} (&{1}){2} = *reinterpret_cast<{0} (*){2}>(lds_shared + {3});  // bytes {3} .. {4}\n",
                         type, l->name, dims, l->offset, l->offset + l->bytes() - 1);
    else line(1) << formatv("__shared__ {0} {1}{2};\n", type, l->name, dims);
  }
  for (const auto &a : k.accs) {
    const MFMAInstr &ins = *a->instr;
    line(1) << formatv("// Accumulator {0}: {1} waves [{2}, {3}]; each wave owns {4} x {5} = {6} x {7} blocks of "
                       "{8} x {9}, {10} values per lane each.\n",
                       a->name, ins.name, a->wavesY, a->wavesX, a->waveRows(), a->waveCols(), a->blocksY(),
                       a->blocksX(), ins.m, ins.n, ins.accPerLane);
    line(1) << formatv("{0} {1}[{2}][{3}] = {{};\n", ins.accType, a->name, a->blocksY(), a->blocksX());
    std::string wy = k.waves(t) == 1 ? "0" : (a->wavesX == 1 ? "wave" : formatv("(wave / {0})", a->wavesX).str());
    std::string wx = k.waves(t) == 1 || a->wavesX == 1 ? "0" : formatv("(wave % {0})", a->wavesX).str();
    line(1) << formatv("const int {0}_row = {1};\n", a->name, wy == "0" ? "0" : term(wy, a->waveRows()));
    line(1) << formatv("const int {0}_col = {1};\n", a->name, wx == "0" ? "0" : term(wx, a->waveCols()));
  }
  reducedPrologue();
  for (const auto &tile : k.tiles) {
    if (!tile->used) continue;
    std::string sharing;
    for (const auto &other : k.tiles)
      if (other->used && other->layout.sameMapping(tile->layout)) sharing += (sharing.empty() ? "" : ", ") + other->name;
    lanePosition(tile->layout, tile->name, sharing);
  }
}

std::string KernelEmitter::blockText() const {
  if (k.gridTensor->rank == 1) return formatv("{0} elements of {1}", k.gridTileCols, k.gridTensor->name);
  if (k.gridWholeRows) return formatv("{0} whole rows of {1}", k.gridTileRows, k.gridTensor->name);
  return formatv("{0} x {1} block of {2}", k.gridTileRows, k.gridTileCols, k.gridTensor->name);
}

std::string KernelEmitter::tensorBytes(const Tensor &tensor, const char *type) const {
  unsigned size = sizeOf(tensor.dtype);
  if (tensor.rank == 1) return formatv("static_cast<{0}>({1}) * {2}", type, extentExpr(tensor.cols), size);
  return formatv("static_cast<{0}>({1}) * {2} * {3}", type, extentExpr(tensor.rows), extentExpr(tensor.rowStride()),
                 size);
}

void KernelEmitter::batchPrologue() {
  bool grouped = false;
  for (const auto &tensor : k.tensors) grouped |= tensor->batchGroup > 1;
  line(1) << "// Workgroup id z picks the matrix: every 3-D tensor is read and written in matrix block_batch"
          << (grouped ? " (block_batch / G for one shared by groups of G)" : "") << ".\n";
  line(1) << "const int block_batch = __builtin_amdgcn_workgroup_id_z();\n";
  for (const auto &tensor : k.tensors)
    if (tensor->rank == 3 && tensor->batchGroup > 1)
      line(1) << formatv("{0} += static_cast<long>(block_batch / {3}) * {1} * {2};  // one matrix per {3} of the "
                         "batch\n",
                         tensor->name, extentExpr(tensor->rows), extentExpr(tensor->rowStride()), tensor->batchGroup);
    else if (tensor->rank == 3)
      line(1) << formatv("{0} += static_cast<long>(block_batch) * {1} * {2};  // matrices of {1} x {2} elements\n",
                         tensor->name, extentExpr(tensor->rows), extentExpr(tensor->rowStride()));
}

/// The lane position of distribution `l`, declared on first use and named after `tileName`.
const LanePosition &KernelEmitter::lanePosition(const Layout &l, const std::string &tileName,
                                                const std::string &tiles) {
  for (const LanePosition &p : positions)
    if (p.layout->sameMapping(l)) return p;
  unsigned waves = k.waves(t);
  std::string wy = waves == 1 ? "" : (l.wavesX == 1 ? "wave" : formatv("(wave / {0})", l.wavesX).str());
  std::string wx = waves == 1 || l.wavesX == 1 ? "" : formatv("(wave % {0})", l.wavesX).str();
  std::string laneRow = l.lanesX == t.waveSize ? "" : formatv("(lane / {0})", l.lanesX).str();
  std::string laneCol = l.lanesX == 1 ? "" : (l.lanesX == t.waveSize ? "lane" : formatv("(lane % {0})", l.lanesX).str());
  std::string row = sum({term(wy, l.subRows), term(laneRow, l.pattern == Pattern::ThreadRaked ? l.rowsPerLane : 1)});
  std::string col = sum({term(wx, l.subCols), term(laneCol, l.vec)});
  LanePosition p{&l, tileName + "_row", tileName + "_col"};
  const char *how = l.pattern == Pattern::ThreadRaked ? "access i is row + i" : "access i is row + i * L";
  line(1) << formatv("// Where this lane's part of {0} starts ({1}; {2}).\n", tiles, patternName(l.pattern), how);
  line(1) << formatv("const int {0} = {1};\n", p.row, row);
  line(1) << formatv("const int {0} = {1};\n", p.col, col);
  positions.push_back(p);
  return positions.back();
}

} // namespace tilec::hip
