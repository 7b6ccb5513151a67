//===- LayoutPrinter.cpp - Tile thread maps as text and JSON ----------------===//
#include "driver/LayoutPrinter.h"

#include "analysis/ResourceModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using llvm::formatv;

void tilec::printTileHeading(const ir::Tile &tile, llvm::raw_ostream &os) {
  const Layout &l = tile.layout;
  if (l.oneD)
    os << formatv("tile {0}: {1}[{2}] {3} vec {4}, viewed as [{5}, {6}]: row r holds elements {6} r ..\n", tile.name,
                  name(tile.dtype), l.rows * l.cols, patternName(l.pattern), l.vec, l.rows, l.cols);
  else
    os << formatv("tile {0}: {1}[{2}, {3}] {4} vec {5}\n", tile.name, name(tile.dtype), l.rows, l.cols,
                  patternName(l.pattern), l.vec);
}

void tilec::describeDistribution(const ir::Tile &t, const Target &target, unsigned indent, llvm::raw_ostream &os) {
  const Layout &l = t.layout;
  auto plural = [](unsigned n, const char *one, const char *many) {
    return formatv("{0} {1}", n, n == 1 ? one : many).str();
  };
  os.indent(indent) << formatv("{0} over {1} threads = {2}; wave grid [{3}, {4}]: each wave owns {5} x {6}\n",
                               patternName(l.pattern), l.threads, plural(l.waves, "wave", "waves"), l.wavesY, l.wavesX,
                               plural(l.subRows, "row", "rows"), plural(l.subCols, "column", "columns"));
  os.indent(indent) << formatv("X0 = {0} / vec {1} = {2} along a row, L = {3} / {4} = {5}, R = {6} / {7} = {8} per "
                               "lane{9}\n",
                               l.subCols, l.vec, plural(l.lanesX, "lane", "lanes"), l.waveSize, l.lanesX,
                               plural(l.laneRows, "lane-row", "lane-rows"), l.subRows, l.laneRows,
                               plural(l.rowsPerLane, "row", "rows"),
                               l.pattern == Pattern::ThreadRaked ? " (consecutive)" : " (strided by L)");
  os.indent(indent) << formatv("{0} x {1} = {2} B per access{3}, {4} and {5} per lane, {6}\n", l.vec, name(t.dtype),
                               l.bytesPerAccess(), l.vecIsAuto ? " (vec auto)" : "",
                               plural(l.accessesPerLane(), "access", "accesses"),
                               plural(l.elementsPerLane(), "element", "elements"), plural(tileVGPRs(t), "VGPR", "VGPRs"));
  LayoutRequest widest{l.pattern, l.rows, l.cols, l.elemBytes, name(t.dtype), l.threads, l.waveSize,
                       target.maxBytesPerLaneAccess, std::nullopt, std::make_pair(l.wavesY, l.wavesX)};
  unsigned best = widestLegalVec(widest);
  if (best > l.vec)
    os.indent(indent) << formatv("the widest legal vec is {0} ({1} B per access, {2} accesses per lane)\n", best,
                                 best * l.elemBytes, l.rowsPerLane * l.vec / best);
}

void tilec::writeDistribution(const ir::Tile &t, llvm::json::OStream &json) {
  const Layout &l = t.layout;
  json.attribute("name", t.name);
  json.attribute("dtype", name(t.dtype));
  json.attributeArray("shape", [&] {
    json.value(l.rows);
    json.value(l.cols);
  });
  json.attribute("pattern", patternName(l.pattern));
  json.attribute("vec", l.vec);
  json.attribute("vec_auto", l.vecIsAuto);
  json.attribute("bytes_per_access", l.bytesPerAccess());
  json.attributeArray("waves_grid", [&] {
    json.value(l.wavesY);
    json.value(l.wavesX);
  });
  json.attribute("lanes_x", l.lanesX);
  json.attribute("lanes_y", l.laneRows);
  json.attribute("rows_per_lane", l.rowsPerLane);
  json.attribute("accesses_per_lane", l.accessesPerLane());
  json.attribute("elements_per_lane", l.elementsPerLane());
  json.attribute("vgprs", tileVGPRs(t));
}

void tilec::printLayouts(const ir::Module &module, llvm::raw_ostream &os) {
  bool first = true;
  for (const auto &k : module.kernels) {
    for (const auto &t : k->tiles) {
      const Layout &l = t->layout;
      if (!first) os << "\n";
      first = false;
      os << formatv("kernel {0}, tile {1}: {2}[{3}{4}, {5}] {6} vec {7}\n", k->name, t->name, name(t->dtype),
                    l.oneD ? formatv("{0}] viewed as [", l.rows * l.cols).str() : "", l.rows, l.cols,
                    patternName(l.pattern), l.vec);
      describeDistribution(*t, *module.target, 2, os);
      os << formatv("  each cell is {0} element{1} (one access); the number is the workgroup thread that owns it\n\n",
                    l.vec, l.vec == 1 ? "" : "s");
      unsigned width = std::to_string(l.threads - 1).size() + 2;
      unsigned label = std::to_string(l.rows - 1).size() + 2;
      os.indent(label + 1);
      for (unsigned c = 0; c < l.cols; c += l.vec) os << llvm::right_justify(("c" + std::to_string(c)), width);
      os << "\n";
      for (unsigned r = 0; r < l.rows; ++r) {
        os << llvm::left_justify("r" + std::to_string(r), label + 1);
        for (unsigned c = 0; c < l.cols; c += l.vec)
          os << llvm::right_justify(std::to_string(l.owner(r, c).thread), width);
        os << "\n";
      }
    }
  }
}

void tilec::printLayoutsJSON(const ir::Module &module, llvm::raw_ostream &os) {
  llvm::json::OStream json(os); // compact: the owner map is large
  json.object([&] {
    json.attribute("target", module.target->name);
    json.attributeArray("kernels", [&] {
      for (const auto &k : module.kernels) {
        json.object([&] {
          json.attribute("name", k->name);
          json.attribute("workgroup_size", k->workgroupSize);
          json.attributeArray("tiles", [&] {
            for (const auto &t : k->tiles) {
              json.object([&] {
                writeDistribution(*t, json);
                json.attributeArray("owner", [&] {
                  for (unsigned r = 0; r < t->layout.rows; ++r) {
                    json.array([&] {
                      for (unsigned c = 0; c < t->layout.cols; ++c) json.value(t->layout.owner(r, c).thread);
                    });
                  }
                });
              });
            }
          });
        });
      }
    });
  });
  os << "\n";
}
