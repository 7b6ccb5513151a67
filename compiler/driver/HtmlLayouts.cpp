//===- HtmlLayouts.cpp - Tile thread maps and MFMA lane layouts as SVG ------===//
//
// A register tile is drawn one cell per access: the `vec` elements one lane moves at once, a cell wide in proportion,
// coloured by the wave of the workgroup thread that owns it (Layout::owner), shaded by lane mod 8, with the thread,
// lane and the tile's registers of that access in the cell's <title>. Thread 0's first access is outlined and its
// elements ticked. Cells are as large as fit about 960 px across, at least 6 px wide and 4 px tall (wider tiles
// scroll); a tile of more than kMaxCells accesses draws its first rows only, and says so. The MFMA pictures draw the
// MFMA table's lane formulas (laneOfA, laneOfB, laneOfD), one cell per element, coloured by lane.
//
//===----------------------------------------------------------------------===//
#include "analysis/ResourceModel.h"
#include "driver/HtmlSections.h"
#include "driver/HtmlWriter.h"
#include "driver/LayoutPrinter.h"
#include "target/MFMA.h"

#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <functional>

using namespace tilec;
using llvm::formatv;

namespace {

constexpr unsigned kMaxCells = 16384; ///< accesses drawn per tile; past it, the first rows only
constexpr unsigned kWidth = 960, kHeight = 640;
constexpr unsigned kLeft = 44, kTop = 16; ///< room for the row and column labels

unsigned clampTo(unsigned v, unsigned lo, unsigned hi) { return std::max(lo, std::min(hi, v)); }

void writeTileMap(const ir::Kernel &k, const ir::Tile &tile, const Target &target, llvm::raw_ostream &os) {
  const Layout &l = tile.layout;
  const unsigned perRow = l.cols / l.vec;
  const unsigned rowsDrawn = std::min(l.rows, std::max(1u, kMaxCells / perRow));
  const unsigned cw = clampTo(kWidth / perRow, 6, 48), ch = clampTo(kHeight / rowsDrawn, 4, 16);
  const unsigned regsPerAccess = l.rowsPerLane ? tileVGPRs(tile) / l.rowsPerLane : 0;
  std::string heading;
  llvm::raw_string_ostream headingStream(heading);
  printTileHeading(tile, headingStream);
  describeDistribution(tile, target, 0, headingStream);
  os << "<figure>\n<figcaption><pre>" << html::escape(heading) << "</pre>";
  os << formatv("Each cell is one access ({0} element{1}, {2} B), coloured by wave and shaded by lane mod 8; hover a "
                "cell to outline every cell of its thread. The outlined cell is thread 0's first access.",
                l.vec, l.vec == 1 ? "" : "s", l.bytesPerAccess());
  if (rowsDrawn < l.rows)
    os << formatv(" Rows 0 to {0} of {1} are drawn ({2} accesses; the page draws at most {3} per tile): "
                  "<code>--emit=layout</code> lists every row.",
                  rowsDrawn - 1, l.rows, rowsDrawn * perRow, kMaxCells);
  if (!tile.used) os << " The tile is not used: the emitted code does not declare it.";
  os << "</figcaption>\n<div class=\"scroll\">";
  unsigned width = kLeft + perRow * cw + 4, height = kTop + rowsDrawn * ch + 4;
  os << formatv("<svg class=\"tilemap\" data-lanes=\"thread\" data-kernel=\"{0}\" data-tile=\"{1}\" data-rows=\"{2}\" "
                "data-rows-drawn=\"{3}\" data-cols=\"{4}\" data-vec=\"{5}\" data-cw=\"{6}\" data-ch=\"{7}\" "
                "data-x0=\"{8}\" data-y0=\"{9}\" width=\"{10}\" height=\"{11}\" viewBox=\"0 0 {10} {11}\" role=\"img\" "
                "aria-label=\"thread map of tile {1}: {2} x {4} elements over {12} threads\">",
                html::escape(k.name), html::escape(tile.name), l.rows, rowsDrawn, l.cols, l.vec, cw, ch, kLeft, kTop,
                width, height, l.threads);
  // Column labels 48 px apart or more; row labels every max(1, rows / 16) rows.
  for (unsigned a = 0; a < perRow; a += std::max(1u, 48 / cw))
    os << formatv("<text x=\"{0}\" y=\"{1}\">c{2}</text>", kLeft + a * cw, kTop - 4, a * l.vec);
  unsigned rowLabelStep = std::max(1u, rowsDrawn / 16);
  rowLabelStep = std::max(rowLabelStep, (10 + ch - 1) / ch); // labels 10 px apart at least
  for (unsigned r = 0; r < rowsDrawn; r += rowLabelStep)
    os << formatv("<text x=\"2\" y=\"{0}\">r{1}</text>", kTop + r * ch + std::min(ch, 10u), r);
  for (unsigned r = 0; r < rowsDrawn; ++r)
    for (unsigned a = 0; a < perRow; ++a) {
      unsigned c = a * l.vec;
      Layout::Owner o = l.owner(r, c);
      unsigned wave = o.thread / l.waveSize, lane = o.thread % l.waveSize;
      std::string regs =
          !tile.used || !regsPerAccess ? std::string("no registers")
          : regsPerAccess == 1
              ? formatv("tile VGPR {0}", o.access).str()
              : formatv("tile VGPRs {0}-{1}", o.access * regsPerAccess, (o.access + 1) * regsPerAccess - 1).str();
      os << formatv(
          "<rect class=\"cell {0} {14}\" x=\"{1}\" y=\"{2}\" width=\"{3}\" height=\"{4}\" data-t=\"{5}\"><title>[{6}, "
          "{7}..{8}]: thread {5} (wave {9}, lane {10}), access {11} of {12}, {13}</title></rect>",
          html::waveClass(wave), kLeft + a * cw, kTop + r * ch, cw, ch, o.thread, r, c, c + l.vec - 1, wave, lane,
          o.access, l.rowsPerLane, regs, html::shadeClass(lane));
    }
  // Thread 0's first access, outlined, with a tick between its elements where they are 3 px apart or more.
  Layout::Coord first = l.coord(0, 0, 0);
  if (first.row < rowsDrawn) {
    unsigned x = kLeft + first.col / l.vec * cw, y = kTop + first.row * ch;
    os << formatv("<rect class=\"outline\" x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\"><title>one access: thread "
                  "0 moves elements [{4}, {5}..{6}] at once ({7} B)</title></rect>",
                  x, y, cw, ch, first.row, first.col, first.col + l.vec - 1, l.bytesPerAccess());
    if (l.vec > 1 && cw / l.vec >= 3)
      for (unsigned e = 1; e < l.vec; ++e)
        os << formatv("<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", x + e * cw / l.vec, y,
                      y + ch);
  }
  os << "</svg></div>\n</figure>\n";
}

/// A rows x cols grid of elements, each drawn at slot(i, j): coloured by lane, the lane written in cells of 16 px
/// or more, lane and value in the <title>.
void writeLaneGrid(llvm::raw_ostream &os, llvm::StringRef kind, llvm::StringRef caption, unsigned rows, unsigned cols,
                   llvm::StringRef rowName, llvm::StringRef colName,
                   const std::function<LaneSlot(unsigned, unsigned)> &slot) {
  const unsigned cell = clampTo(900 / cols, 9, 20);
  const unsigned width = kLeft + cols * cell + 4, height = kTop + rows * cell + 4;
  os << "<figure>\n<figcaption>" << caption << "</figcaption>\n<div class=\"scroll\">";
  os << formatv("<svg class=\"lanegrid\" data-lanes=\"lane\" data-kind=\"{0}\" data-rows=\"{1}\" data-cols=\"{2}\" "
                "data-cell=\"{3}\" data-x0=\"{4}\" data-y0=\"{5}\" width=\"{6}\" height=\"{7}\" viewBox=\"0 0 {6} "
                "{7}\" role=\"img\" aria-label=\"{8}\">",
                kind, rows, cols, cell, kLeft, kTop, width, height, html::escape(kind));
  for (unsigned j = 0; j < cols; j += std::max(1u, 40 / cell))
    os << formatv("<text x=\"{0}\" y=\"{1}\">{2}{3}</text>", kLeft + j * cell, kTop - 4, colName, j);
  for (unsigned i = 0; i < rows; i += std::max(1u, 12 / cell + 1))
    os << formatv("<text x=\"2\" y=\"{0}\">{1}{2}</text>", kTop + i * cell + std::min(cell, 10u), rowName, i);
  for (unsigned i = 0; i < rows; ++i)
    for (unsigned j = 0; j < cols; ++j) {
      LaneSlot s = slot(i, j);
      os << formatv("<rect class=\"cell h{0}\" x=\"{1}\" y=\"{2}\" width=\"{3}\" height=\"{3}\" "
                    "data-t=\"{4}\"><title>{5}{6}, {7}{8}: lane {4}, value {9}</title></rect>",
                    s.lane % 64, kLeft + j * cell, kTop + i * cell, cell, s.lane, rowName, i, colName, j, s.elem);
      if (cell >= 16)
        os << formatv("<text x=\"{0}\" y=\"{1}\">{2}</text>", kLeft + j * cell + 1, kTop + i * cell + cell - 5, s.lane);
    }
  os << "</svg></div>\n</figure>\n";
}

/// The accumulator's waves and instruction blocks: one cell per block, coloured by the wave that owns it.
void writeAccBlocks(const ir::AccTile &acc, llvm::raw_ostream &os) {
  const MFMAInstr &ins = *acc.instr;
  unsigned blocksDown = acc.rows / ins.m, blocksAcross = acc.cols / ins.n;
  unsigned cell = clampTo(640 / std::max(blocksDown, blocksAcross), 8, 40);
  os << formatv(
      "<svg class=\"accblocks\" data-lanes=\"wave\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "aria-label=\"the waves and {2} x {3} blocks of {4}\">",
      blocksAcross * cell + 2, blocksDown * cell + 2, ins.m, ins.n, html::escape(acc.name));
  for (unsigned by = 0; by < blocksDown; ++by)
    for (unsigned bx = 0; bx < blocksAcross; ++bx) {
      unsigned wy = by / acc.blocksY(), wx = bx / acc.blocksX(), wave = wy * acc.wavesX + wx;
      unsigned block = (by % acc.blocksY()) * acc.blocksX() + bx % acc.blocksX();
      os << formatv("<rect class=\"cell {0}\" x=\"{1}\" y=\"{2}\" width=\"{3}\" height=\"{3}\" "
                    "data-t=\"{4}\"><title>rows {5}..{6}, columns {7}..{8}: wave {4}, its block {9}, accumulator "
                    "registers {10}-{11} of each lane</title></rect>",
                    html::waveClass(wave), bx * cell + 1, by * cell + 1, cell, wave, by * ins.m, by * ins.m + ins.m - 1,
                    bx * ins.n, bx * ins.n + ins.n - 1, block, block * ins.accPerLane,
                    (block + 1) * ins.accPerLane - 1);
    }
  os << "</svg>\n";
}

} // namespace

void html::writeTileMaps(const ir::Kernel &k, const Target &t, llvm::raw_ostream &os) {
  if (k.tiles.empty()) return;
  os << "<h3>Register tiles</h3>\n";
  for (const auto &tile : k.tiles) writeTileMap(k, *tile, t, os);
}

void html::writeMFMALayouts(const ir::Kernel &k, const Target &t, llvm::raw_ostream &os) {
  if (k.accs.empty()) return;
  os << "<h3>Accumulators and MFMA layouts</h3>\n";
  for (const auto &accPtr : k.accs) {
    const ir::AccTile &acc = *accPtr;
    if (!acc.instr) continue; // `mfma auto` that no mma resolved: no layout to draw
    const MFMAInstr &ins = *acc.instr;
    os << formatv("<h4>acc {0}: {1}[{2}, {3}], {4}, waves [{5}, {6}]</h4>\n", html::escape(acc.name), name(acc.dtype),
                  acc.rows, acc.cols, ins.name, acc.wavesY, acc.wavesX);
    os << formatv("<p>Each wave owns {0} x {1} elements: {2} x {3} blocks of {4} x {5}, {6} registers a lane ({7} per "
                  "block). Colour: the owning wave.</p>\n",
                  acc.waveRows(), acc.waveCols(), acc.blocksY(), acc.blocksX(), ins.m, ins.n, acc.registers(),
                  ins.accPerLane);
    writeAccBlocks(acc, os);
    // The emitter issues the instruction with the operands exchanged, so a lane holds rows of each block.
    const MFMAInstr &swapped = transposedMFMA(ins, t);
    writeLaneGrid(os, "acc",
                  formatv("One {0} x {1} block of <code>{2}</code> as the kernel holds it: the kernel issues "
                          "<code>{3}</code> with B's fragment first, so element (i, j) is that instruction's D[j][i]; "
                          "the cell is its lane, the title gives the value (the register of the block's {4}).",
                          ins.m, ins.n, html::escape(acc.name), swapped.name, ins.accPerLane)
                      .str(),
                  ins.m, ins.n, "i", "j", [&](unsigned i, unsigned j) { return laneOfD(swapped, j, i); });
    writeLaneGrid(os, "A",
                  formatv("The A fragment layout of <code>{0}</code> ({1} x {2}, A[i][k]): {3} values a lane.",
                          ins.name, ins.m, ins.k, ins.kPerLane)
                      .str(),
                  ins.m, ins.k, "i", "k", [&](unsigned i, unsigned kk) { return laneOfA(ins, i, kk); });
    const MFMAInstr &bView = operandView(ins, true);
    writeLaneGrid(
        os, "B",
        formatv("The B fragment layout of <code>{0}</code> ({1} x {2}, B[k][j]).", ins.name, bView.k, bView.n).str(),
        bView.k, bView.n, "k", "j", [&](unsigned kk, unsigned j) { return laneOfB(bView, kk, j); });
  }
}
