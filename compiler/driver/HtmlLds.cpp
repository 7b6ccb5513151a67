//===- HtmlLds.cpp - LDS buffers and their bank maps as SVG -----------------===//
//
// A buffer is drawn as its stored rows (each a bar of its columns, then the pad in grey), coloured by where the
// swizzle places them (LdsBuffer::placedRow), or for a buffer whose columns are XORed as its 16-byte chunks where the
// XOR places them, each coloured by the chunk it holds (LdsBuffer::placedCol). Each access statement the bank model costs (ldsAccessCosts) gets the
// bank map of its costliest instruction's costliest phase: one row per lane of the phase, a cell under each bank
// the lane's bytes fall in (dword d in bank d mod banks), the lanes the model finds delayed by a conflict
// (BankCost::worstPhaseConflicts) in red, the bank it names as the worst outlined, each bank's cycles in the phase
// under it, and the statement's cycles against the ideal.
//
//===----------------------------------------------------------------------===//
#include "analysis/LDSBanks.h"
#include "driver/HtmlSections.h"
#include "driver/HtmlWriter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace tilec;
using llvm::formatv;

namespace {

/// Stored row `r` of a buffer whose columns are XORed: one cell per 16-byte chunk where it is placed, coloured by the
/// chunk it holds.
void writeXorredRow(const ir::LdsBuffer &b, unsigned r, double perElem, unsigned rowH, llvm::raw_ostream &os) {
  const unsigned chunk = b.xorChunkElements(), chunks = b.storedCols() / chunk;
  for (unsigned j = 0; j < chunks; ++j) {
    unsigned at = b.placedCol(r, j * chunk) / chunk;
    os << formatv("<rect style=\"fill:{0}\" x=\"{1:F1}\" y=\"{2}\" width=\"{3:F1}\" height=\"{4}\"><title>stored row "
                  "{5}: columns {6}..{7} (chunk {8}) placed at chunk {9}</title></rect>",
                  html::hueFill(j, chunks), perElem * at * chunk, r * rowH + 1, perElem * chunk, rowH, r, j * chunk,
                  j * chunk + chunk - 1, j, at);
  }
}

void writeBuffer(const ir::LdsBuffer &b, llvm::raw_ostream &os) {
  const unsigned rows = b.storedRows(), pitch = b.pitch();
  os << formatv("<h4>lds {0}: {1}[{2}, {3}]{4}</h4>\n<p>", html::escape(b.name), name(b.dtype), b.rows, b.cols,
                b.transposed ? ", stored transposed" : "");
  os << formatv("{0} stored rows of {1} elements + pad {2} = pitch {3} ({4} B a row){6}, {5} B a stage", rows,
                b.storedCols(), b.pad, pitch, b.rowBytes(), b.stageBytes(),
                b.tailBytes ? formatv(", and {0} B after them that the last row's scale reads reach", b.tailBytes).str()
                            : "");
  if (b.stages > 1) os << formatv(", {0} stages (double-buffered): {1} B", b.stages, b.bytes());
  if (b.transposeReads) os << "; B's fragments are read with the transposing LDS reads";
  if (b.swizzled())
    os << formatv(". Swizzled: stored row r is placed at row r ^ (((r &gt;&gt; {0}) &amp; {1}) &lt;&lt; {2}); a row's "
                  "colour is r XOR its place",
                  b.swizzleFrom, b.swizzleMask, b.swizzleShift);
  else if (b.colXorred())
    os << formatv(". Columns XORed: in stored row r, the 16-byte chunk j ({0} elements) is placed at chunk j ^ (((r "
                  "&gt;&gt; {1}) &amp; {2}) &lt;&lt; {3}); each chunk is coloured by the chunk it holds",
                  b.xorChunkElements(), b.colXorFrom, b.colXorMask, b.colXorShift);
  else
    os << ". Not swizzled: every row in place";
  if (!b.used) os << ". Not used: it takes no LDS";
  os << ".</p>\n";
  const unsigned width = 600, rowH = std::max(1u, std::min(10u, 160 / std::max(1u, rows)));
  const double perElem = static_cast<double>(width) / pitch;
  unsigned mask = b.swizzleMask << b.swizzleShift;
  os << formatv("<div class=\"scroll\"><svg class=\"ldsrows\" data-buffer=\"{0}\" width=\"{1}\" height=\"{2}\" "
                "viewBox=\"0 0 {1} {2}\" role=\"img\" aria-label=\"the stored rows of {0} with their pad\">",
                html::escape(b.name), width + 120, rows * rowH + 2);
  for (unsigned r = 0; r < rows; ++r) {
    unsigned placed = b.placedRow(r), xorred = r ^ placed;
    std::string fill = b.swizzled() ? html::hueFill(xorred, mask + 1) : std::string("#a6c8e5");
    if (b.colXorred())
      writeXorredRow(b, r, perElem, rowH, os);
    else
      os << formatv("<rect style=\"fill:{0}\" x=\"0\" y=\"{1}\" width=\"{2:F1}\" height=\"{3}\"><title>stored row "
                    "{4}: placed at row {5}, columns 0..{6}</title></rect>",
                    fill, r * rowH + 1, perElem * b.storedCols(), rowH, r, placed, b.storedCols() - 1);
    if (b.pad)
      os << formatv("<rect class=\"pad\" x=\"{0:F1}\" y=\"{1}\" width=\"{2:F1}\" height=\"{3}\"><title>row {4}: pad of "
                    "{5} elements</title></rect>",
                    perElem * b.storedCols(), r * rowH + 1, perElem * b.pad, rowH, r, b.pad);
  }
  os << formatv("<text x=\"{0}\" y=\"12\">{1} rows x {2}</text></svg></div>\n", width + 6, rows, pitch);
}

void writeBankMap(const LdsAccessCost &c, const Target &t, llvm::raw_ostream &os) {
  const BankCost &w = c.worst;
  const LdsPhases &rule = *w.rule;
  std::vector<unsigned> lanes;
  for (unsigned lane = 0; lane < c.worstAccess.addr.size() && lane < 64; ++lane)
    if (rule.phases[w.worstPhase] >> lane & 1 && c.worstAccess.addr[lane]) lanes.push_back(lane);
  os << formatv("<figure>\n<figcaption><b>{0}</b>: {1} x <code>{2}</code> per wave, {3} LDS cycles per wave (ideal "
                "{4}, one per phase){5}. ",
                html::escape(c.what), c.instructions, c.instruction, c.cycles, c.ideal,
                rule.measured ? "" : "; phases inferred, not measured");
  if (c.conflictFree())
    os << "Conflict-free. ";
  else
    os << formatv("Up to {0}-way conflicts: bank {1} serves {0} distinct dwords in this phase; the lanes the bank "
                  "model finds delayed are red. ",
                  w.ways, w.worstBank);
  os << formatv("Drawn: phase {0} of {1} of wave {2}'s costliest instruction ({3} lanes), lanes down, the {4} banks "
                "across.</figcaption>\n",
                w.worstPhase, rule.phases.size(), c.worstWave, lanes.size(), rule.banks);
  html::Segment ideal{static_cast<double>(c.ideal), "seg4", formatv("ideal: {0} cycles", c.ideal).str()};
  html::Segment extra{static_cast<double>(c.cycles - c.ideal), "seg3",
                      formatv("bank conflicts: {0} more cycles", c.cycles - c.ideal).str()};
  html::writeBar(os, {ideal, extra}, std::max(c.cycles, 1u), 300,
                 formatv("{0} cycles per wave, {1} without conflicts", c.cycles, c.ideal).str());
  const unsigned cell = 12, left = 60, top = 16;
  std::vector<unsigned> conflicts = w.worstPhaseConflicts;
  os << formatv("<div class=\"scroll\"><svg class=\"bankmap\" data-lanes=\"lane\" data-what=\"{0}\" data-phase=\"{1}\" "
                "data-wave=\"{2}\" width=\"{3}\" height=\"{4}\" viewBox=\"0 0 {3} {4}\" role=\"img\" aria-label=\"bank "
                "map of {0}\">",
                html::escape(c.what), w.worstPhase, c.worstWave, left + rule.banks * cell + 4,
                top + lanes.size() * cell + 16);
  for (unsigned bank = 0; bank < rule.banks; bank += 4)
    os << formatv("<text x=\"{0}\" y=\"{1}\">{2}</text>", left + bank * cell, top - 4, bank);
  if (!c.conflictFree())
    os << formatv("<rect class=\"outline\" x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\"><title>bank {4}: {5} "
                  "distinct dwords, {5} cycles in this phase</title></rect>",
                  left + w.worstBank * cell, top, cell, lanes.size() * cell, w.worstBank, w.ways);
  const unsigned bankBytes = t.ldsBankBytes;
  for (unsigned row = 0; row < lanes.size(); ++row) {
    unsigned lane = lanes[row];
    bool delayed = llvm::is_contained(conflicts, lane);
    uint64_t a = *c.worstAccess.addr[lane];
    os << formatv("<text x=\"2\" y=\"{0}\">lane {1}</text>", top + row * cell + 10, lane);
    os << formatv("<g class=\"lane{0}\" data-lane=\"{1}\">", delayed ? " conflict" : "", lane);
    for (uint64_t d = a / bankBytes; d <= (a + c.bytes - 1) / bankBytes; ++d) {
      unsigned bank = d % rule.banks;
      os << formatv("<rect class=\"cell bank{0}\" x=\"{1}\" y=\"{2}\" width=\"{3}\" height=\"{3}\" "
                    "data-t=\"{4}\"><title>lane {4}: bytes {5}..{6}, dword {7} in bank {8}{9}</title></rect>",
                    delayed ? " conflict" : "", left + bank * cell, top + row * cell, cell, lane, a, a + c.bytes - 1, d,
                    bank, delayed ? "; delayed by a bank conflict" : "");
    }
    os << "</g>";
  }
  // The bank model's cycles per bank in this phase, under the lanes.
  const unsigned countsY = top + lanes.size() * cell + 10;
  os << formatv("<text x=\"2\" y=\"{0}\">cycles</text>", countsY);
  for (unsigned bank = 0; bank < w.worstPhaseBankDwords.size(); ++bank)
    if (unsigned n = w.worstPhaseBankDwords[bank])
      os << formatv("<text class=\"count{0}\" x=\"{1}\" y=\"{2}\"><title>bank {3}: {4} distinct dword{5}, {4} "
                    "cycle{5}</title>{4}</text>",
                    n > 1 ? " over" : "", left + bank * cell + 3, countsY, bank, n, n == 1 ? "" : "s");
  os << "</svg></div>\n</figure>\n";
}

} // namespace

void html::writeLds(const ir::Kernel &k, const Target &t, llvm::raw_ostream &os) {
  if (k.ldsBuffers.empty()) return;
  os << formatv("<h3>LDS</h3>\n<p>{0}: LDS banks of {2} B ({1} for the first access kind of its table; each picture "
                "names its own); an instruction is served in phases (groups of lanes), and lanes of a phase that need "
                "distinct dwords of one bank take a cycle each.</p>\n",
                t.name, t.ldsPhases.empty() ? 0 : t.ldsPhases.front().banks, t.ldsBankBytes);
  std::vector<LdsAccessCost> costs = ldsAccessCosts(k, t);
  for (const auto &b : k.ldsBuffers) {
    writeBuffer(*b, os);
    for (const LdsAccessCost &c : costs)
      if (c.buffer == b.get() && c.worst.rule) writeBankMap(c, t, os);
  }
}
