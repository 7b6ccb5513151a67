//===- Layout.h - How a register tile is spread over a workgroup -----------===//
//
// The distribution math of the Tile language (docs/language.md, "Tile distribution"): given a tile of Y rows x X
// columns, its dtype, the workgroup's size, a pattern (thread_raked, warp_raked, block_raked) and a vec, solve for
// X0 (lanes along a row), L (lane-rows per access), R (rows per lane) and the wave grid, and map every element to the
// workgroup thread that owns it. Pure arithmetic: no AST, no diagnostics engine; problems come back as text with the
// arithmetic in it, tagged with the part of the declaration they are about.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LAYOUT_H
#define TILEC_LAYOUT_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilec {

enum class Pattern { ThreadRaked, WarpRaked, BlockRaked };
llvm::StringRef patternName(Pattern pattern);

/// What a `tile` declaration asks for.
struct LayoutRequest {
  Pattern pattern = Pattern::ThreadRaked;
  unsigned rows = 0, cols = 0;        ///< Y, X (X contiguous in memory)
  unsigned elemBytes = 0;
  llvm::StringRef dtypeName;          ///< only for messages
  unsigned threads = 0;               ///< workgroup size, a multiple of waveSize
  unsigned waveSize = 64;
  unsigned maxAccessBytes = 16;       ///< the widest access of one lane
  std::optional<unsigned> vec;        ///< std::nullopt: `vec auto`
  std::optional<std::pair<unsigned, unsigned>> waveGrid; ///< block_raked `waves [Wy, Wx]`
};

/// The part of a declaration a problem should point at.
enum class LayoutField { Vec, Shape, Waves };

struct LayoutProblem {
  LayoutField field;
  std::string message;
};

/// A solved distribution. Thread ids are workgroup thread ids: wave * waveSize + lane.
struct Layout {
  Pattern pattern = Pattern::ThreadRaked;
  unsigned rows = 0, cols = 0, elemBytes = 0;
  unsigned threads = 0, waveSize = 64, waves = 0;
  unsigned wavesY = 0, wavesX = 0;    ///< wave grid; [W, 1] for thread_raked and warp_raked
  unsigned vec = 0;                   ///< X1: elements one lane moves per access
  bool vecIsAuto = false;
  unsigned subRows = 0, subCols = 0;  ///< one wave's part: band (or sub-tile) rows and columns
  unsigned lanesX = 0;                ///< X0 = subCols / vec
  unsigned laneRows = 0;              ///< L = waveSize / X0
  unsigned rowsPerLane = 0;           ///< R = subRows / L: accesses per lane
  /// A 1-D tile (`tile x: f32[2048]`) of rows * cols elements, viewed as rows x cols in row-major order: its element
  /// (r, c) is element r * cols + c of the window.
  bool oneD = false;

  unsigned bytesPerAccess() const { return vec * elemBytes; }
  unsigned accessesPerLane() const { return rowsPerLane; }
  unsigned elementsPerLane() const { return rowsPerLane * vec; }
  /// Distance in rows between a lane's successive accesses: 1 for thread_raked, L otherwise.
  unsigned rowStep() const { return pattern == Pattern::ThreadRaked ? 1 : laneRows; }
  /// First row of (wave, lane)'s accesses inside the tile; access i is at firstRow + i * rowStep().
  unsigned firstRow(unsigned wave, unsigned lane) const;
  /// First column of (wave, lane)'s vector inside the tile.
  unsigned firstCol(unsigned wave, unsigned lane) const;

  struct Coord { unsigned row, col; };
  struct Owner { unsigned thread, access, elem; };
  /// Tile coordinates of element `elem` of access `access` of workgroup thread `thread`.
  Coord coord(unsigned thread, unsigned access, unsigned elem) const;
  /// Which thread, access and element hold tile element (row, col).
  Owner owner(unsigned row, unsigned col) const;
  /// Same placement of every element (pattern names may differ, e.g. one wave's thread_raked vs warp_raked).
  bool sameMapping(const Layout &other) const;
};

/// Solves `request`. On failure returns std::nullopt and appends every problem found to `problems`.
std::optional<Layout> solveLayout(const LayoutRequest &request, std::vector<LayoutProblem> &problems);

/// The vec that `vec auto` picks for `request` (its own vec ignored), or 0 when no vec is legal.
unsigned widestLegalVec(const LayoutRequest &request);

/// One lane's access moves 1, 2, 4, 8 or 16 bytes (byte, short, dword .. dwordx4) or 12 (dwordx3, the vec 4 of a
/// 3-byte element such as fp6x4); a vec of 3-byte elements that moves 3 or 6 bytes is no single access.
bool isWholeAccess(uint64_t bytes);
/// The narrowest vec of `elemBytes`-byte elements that is one access: 1, or 4 for a 3-byte element.
unsigned narrowestWholeVec(unsigned elemBytes, unsigned maxAccessBytes);
/// The alignment an access of `bytes` needs: its size, or a dword for the 12-byte dwordx3.
unsigned accessAlignment(unsigned bytes);

/// The wave grid block_raked uses when `waves [..]` is not given: Wx the largest divisor of W with Wx*Wx <= W.
std::pair<unsigned, unsigned> defaultWaveGrid(unsigned waves);

} // namespace tilec

#endif
