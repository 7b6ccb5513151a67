//===- Layout.cpp - The distribution math ----------------------------------===//
//
// Notation follows docs/language.md: W waves, a wave grid [Wy, Wx], a per-wave part of H x Xs elements, vec = X1,
// X0 = Xs / vec lanes along a row, L = 64 / X0 lane-rows, R = H / L rows per lane.
//
//===----------------------------------------------------------------------===//
#include "layout/Layout.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace tilec;
using llvm::formatv;

llvm::StringRef tilec::patternName(Pattern pattern) {
  switch (pattern) {
  case Pattern::ThreadRaked: return "thread_raked";
  case Pattern::WarpRaked: return "warp_raked";
  case Pattern::BlockRaked: return "block_raked";
  }
  return "?";
}

std::pair<unsigned, unsigned> tilec::defaultWaveGrid(unsigned waves) {
  unsigned wx = 1;
  for (unsigned d = 1; d * d <= waves; ++d)
    if (waves % d == 0) wx = d;
  return {waves / wx, wx};
}

namespace {

/// The wave grid of a request, or problems explaining why it has none.
struct WaveGrid {
  unsigned wy = 0, wx = 0;
};

std::optional<WaveGrid> solveWaveGrid(const LayoutRequest &req, std::vector<LayoutProblem> &problems) {
  unsigned waves = req.threads / req.waveSize;
  WaveGrid grid;
  if (req.pattern != Pattern::BlockRaked) {
    grid = {waves, 1};
    if (req.rows % waves != 0) {
      problems.push_back({LayoutField::Shape,
                          formatv("{0} rows do not split into {1} equal wave bands ({0} % {1} = {2}); {3} needs "
                                  "the row count to be a multiple of the workgroup's {1} waves",
                                  req.rows, waves, req.rows % waves, patternName(req.pattern))});
      return std::nullopt;
    }
    return grid;
  }
  if (req.waveGrid) {
    grid = {req.waveGrid->first, req.waveGrid->second};
    uint64_t product = uint64_t(grid.wy) * grid.wx; // 64-bit: waves [65536, 65536] must not wrap around to 0
    if (product != waves) {
      problems.push_back({LayoutField::Waves,
                          formatv("waves [{0}, {1}] = {2} waves, but a workgroup of {3} threads has {3} / {4} = {5}",
                                  grid.wy, grid.wx, product, req.threads, req.waveSize, waves)});
      return std::nullopt;
    }
  } else {
    auto [wy, wx] = defaultWaveGrid(waves);
    grid = {wy, wx};
  }
  bool ok = true;
  if (req.rows % grid.wy != 0) {
    problems.push_back({req.waveGrid ? LayoutField::Waves : LayoutField::Shape,
                        formatv("{0} rows do not split over a wave grid of {1} rows ({0} % {1} = {2})", req.rows,
                                grid.wy, req.rows % grid.wy)});
    ok = false;
  }
  if (req.cols % grid.wx != 0) {
    problems.push_back({req.waveGrid ? LayoutField::Waves : LayoutField::Shape,
                        formatv("{0} columns do not split over a wave grid of {1} columns ({0} % {1} = {2})",
                                req.cols, grid.wx, req.cols % grid.wx)});
    ok = false;
  }
  if (!ok) return std::nullopt;
  return grid;
}

unsigned smallestVec(const LayoutRequest &req) { return narrowestWholeVec(req.elemBytes, req.maxAccessBytes); }

/// The problems of one candidate vec on a given wave grid; empty when it is legal. `hint` names the fix.
std::vector<LayoutProblem> checkVec(const LayoutRequest &req, WaveGrid grid, unsigned vec) {
  std::vector<LayoutProblem> out;
  if (!isWholeAccess(uint64_t(vec) * req.elemBytes)) {
    out.push_back({LayoutField::Vec, formatv("vec {0} x {1} ({2} B) = {3} B is no access of one lane, which moves 1, "
                                             "2, 4, 8, 12 or 16 bytes (vec {4} of {1}: 12)",
                                             vec, req.dtypeName, req.elemBytes, uint64_t(vec) * req.elemBytes,
                                             smallestVec(req))});
    return out;
  }
  unsigned subRows = req.rows / grid.wy, subCols = req.cols / grid.wx;
  const char *part = req.pattern == Pattern::BlockRaked ? "a wave's sub-tile row" : "a tile row";
  if (subCols % vec != 0) {
    out.push_back({LayoutField::Vec, formatv("{0} of {1} elements is not a multiple of vec {2} ({1} % {2} = {3})",
                                             part, subCols, vec, subCols % vec)});
    return out;
  }
  unsigned x0 = subCols / vec;
  if (x0 > req.waveSize) {
    // A wider vec is only a fix when it still fits in one lane's access.
    bool widerFits = uint64_t(vec) * 2 * req.elemBytes <= req.maxAccessBytes;
    const char *fix = req.pattern == Pattern::BlockRaked
                          ? (widerFits ? "use a wider vec or more waves along X" : "use more waves along X")
                          : (widerFits ? "use a wider vec or block_raked with waves along X"
                                       : "use block_raked with waves along X");
    out.push_back({LayoutField::Vec,
                   formatv("{0} of {1} elements at vec {2} needs X0 = {1} / {2} = {3} lanes, more than the {4} "
                           "lanes of a wave; a wave must cover whole rows ({5})",
                           part, subCols, vec, x0, req.waveSize, fix)});
    return out;
  }
  if (req.waveSize % x0 != 0) {
    out.push_back({LayoutField::Vec, formatv("X0 = {0} / {1} = {2} lanes along a row does not divide the {3} lanes "
                                             "of a wave ({3} % {2} = {4})",
                                             subCols, vec, x0, req.waveSize, req.waveSize % x0)});
    return out;
  }
  unsigned laneRows = req.waveSize / x0;
  if (subRows % laneRows != 0) {
    const char *what = req.pattern == Pattern::BlockRaked ? "a wave's sub-tile" : "a wave's band";
    out.push_back({LayoutField::Vec,
                   formatv("{0} of {1} rows is not a multiple of L = {2} / X0 = {2} / {3} = {4} lane-rows "
                           "({1} % {4} = {5}; X0 = {6} / {7})",
                           what, subRows, req.waveSize, x0, laneRows, subRows % laneRows, subCols, vec)});
  }
  return out;
}

/// Largest power of two v with v * elemBytes <= maxAccessBytes.
unsigned byteLimitVec(const LayoutRequest &req) {
  unsigned v = 1;
  while ((v * 2) * req.elemBytes <= req.maxAccessBytes) v *= 2;
  return v;
}

unsigned autoVec(const LayoutRequest &req, WaveGrid grid) {
  for (unsigned v = byteLimitVec(req); v >= 1; v /= 2)
    if (checkVec(req, grid, v).empty()) return v;
  return 0;
}

} // namespace

unsigned tilec::widestLegalVec(const LayoutRequest &request) {
  std::vector<LayoutProblem> ignored;
  auto grid = solveWaveGrid(request, ignored);
  return grid ? autoVec(request, *grid) : 0;
}

std::optional<Layout> tilec::solveLayout(const LayoutRequest &req, std::vector<LayoutProblem> &problems) {
  size_t before = problems.size();
  if (req.rows == 0 || req.cols == 0 || req.elemBytes == 0 || req.waveSize == 0 || req.threads == 0 ||
      req.threads % req.waveSize != 0) {
    problems.push_back({LayoutField::Shape, "a tile needs positive dimensions and whole waves"});
    return std::nullopt;
  }
  std::optional<WaveGrid> grid = solveWaveGrid(req, problems);

  unsigned vec = 0;
  if (req.vec) {
    vec = *req.vec;
    if (vec == 0 || !llvm::isPowerOf2_32(vec)) {
      problems.push_back(
          {LayoutField::Vec, formatv("vec {0} is not a power of two; one lane moves 1, 2, 4, 8 or 16 elements", vec)});
    } else if (uint64_t(vec) * req.elemBytes > req.maxAccessBytes) { // 64-bit: vec 2^30 x 4 B must not wrap to 0
      unsigned widest = grid ? autoVec(req, *grid) : 0;
      std::string fix = widest ? formatv("the widest legal vec here is {0}", widest).str()
                               : formatv("at most vec {0} fits in {1} bytes", byteLimitVec(req), req.maxAccessBytes).str();
      problems.push_back({LayoutField::Vec,
                          formatv("vec {0} x {1} ({2} B) = {3} B exceeds the {4} bytes one lane can load; {5}", vec,
                                  req.dtypeName, req.elemBytes, uint64_t(vec) * req.elemBytes, req.maxAccessBytes,
                                  fix)});
    } else if (grid) {
      std::vector<LayoutProblem> vp = checkVec(req, *grid, vec);
      if (!vp.empty()) {
        if (unsigned widest = autoVec(req, *grid))
          vp.back().message += formatv("; vec {0} works here", widest).str();
        problems.insert(problems.end(), vp.begin(), vp.end());
      }
    }
  } else if (grid) {
    vec = autoVec(req, *grid);
    if (vec == 0) {
      unsigned narrowest = smallestVec(req);
      std::vector<LayoutProblem> vp = checkVec(req, *grid, narrowest);
      for (LayoutProblem &p : vp)
        p.message = formatv("vec auto finds no legal vec: at vec {0}, {1}", narrowest, p.message).str();
      problems.insert(problems.end(), vp.begin(), vp.end());
    }
  }
  if (problems.size() != before || !grid) return std::nullopt;

  Layout l;
  l.pattern = req.pattern;
  l.rows = req.rows;
  l.cols = req.cols;
  l.elemBytes = req.elemBytes;
  l.threads = req.threads;
  l.waveSize = req.waveSize;
  l.waves = req.threads / req.waveSize;
  l.wavesY = grid->wy;
  l.wavesX = grid->wx;
  l.vec = vec;
  l.vecIsAuto = !req.vec;
  l.subRows = req.rows / grid->wy;
  l.subCols = req.cols / grid->wx;
  l.lanesX = l.subCols / vec;
  l.laneRows = req.waveSize / l.lanesX;
  l.rowsPerLane = l.subRows / l.laneRows;
  return l;
}

unsigned Layout::firstRow(unsigned wave, unsigned lane) const {
  unsigned band = (wave / wavesX) * subRows;
  unsigned laneRow = lane / lanesX;
  return band + (pattern == Pattern::ThreadRaked ? laneRow * rowsPerLane : laneRow);
}

unsigned Layout::firstCol(unsigned wave, unsigned lane) const {
  return (wave % wavesX) * subCols + (lane % lanesX) * vec;
}

Layout::Coord Layout::coord(unsigned thread, unsigned access, unsigned elem) const {
  unsigned wave = thread / waveSize, lane = thread % waveSize;
  return {firstRow(wave, lane) + access * rowStep(), firstCol(wave, lane) + elem};
}

Layout::Owner Layout::owner(unsigned row, unsigned col) const {
  unsigned wy = row / subRows, r = row % subRows;
  unsigned wx = col / subCols, c = col % subCols;
  unsigned laneRow, access;
  if (pattern == Pattern::ThreadRaked) {
    laneRow = r / rowsPerLane;
    access = r % rowsPerLane;
  } else {
    laneRow = r % laneRows;
    access = r / laneRows;
  }
  unsigned lane = laneRow * lanesX + c / vec;
  return {(wy * wavesX + wx) * waveSize + lane, access, c % vec};
}

bool Layout::sameMapping(const Layout &o) const {
  if (rows != o.rows || cols != o.cols || threads != o.threads || vec != o.vec || wavesY != o.wavesY ||
      wavesX != o.wavesX || oneD != o.oneD)
    return false;
  // thread_raked and the others agree exactly when each lane has one access (R = 1) or each wave covers one row per
  // access (L = 1): then row = band + i either way.
  return pattern == o.pattern || (rowsPerLane == 1 && o.rowsPerLane == 1) || (laneRows == 1 && o.laneRows == 1) ||
         (pattern != Pattern::ThreadRaked && o.pattern != Pattern::ThreadRaked);
}

bool tilec::isWholeAccess(uint64_t bytes) { return llvm::isPowerOf2_64(bytes) || bytes == 12; }

unsigned tilec::narrowestWholeVec(unsigned elemBytes, unsigned maxAccessBytes) {
  unsigned v = 1;
  while (!isWholeAccess(uint64_t(v) * elemBytes) && v * elemBytes < maxAccessBytes) v *= 2;
  return v;
}

unsigned tilec::accessAlignment(unsigned bytes) { return llvm::isPowerOf2_32(bytes) ? bytes : 4; }
