//===- Hover.cpp - Hover and report texts from the compiler's own functions --===//
//
// A declaration's cost is found in the resource estimate's items, which name what they count ("tile a: 2 accesses x
// 4", "lds sA: 128 x (32 + 4) x 2 B", "swizzled rows of lds sB: ..."): every item that names the declaration is shown
// with its list's total, followed by the occupancy derivation's line for that resource and its result.
//
//===----------------------------------------------------------------------===//
#include "Hover.h"

#include "analysis/Occupancy.h"
#include "analysis/ResourceModel.h"
#include "driver/LayoutPrinter.h"
#include "driver/Report.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::lsp;
using llvm::formatv;

namespace {

template <typename T> const T *named(const std::vector<std::unique_ptr<T>> &list, llvm::StringRef name) {
  for (const auto &x : list)
    if (x->name == name) return x.get();
  return nullptr;
}

bool isNameChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// Whether `text` names `what` ("tile a") as a whole word.
bool mentions(llvm::StringRef text, llvm::StringRef what) {
  for (size_t at = text.find(what); at != llvm::StringRef::npos; at = text.find(what, at + 1)) {
    size_t end = at + what.size();
    if ((at == 0 || !isNameChar(text[at - 1])) && (end == text.size() || !isNameChar(text[end]))) return true;
  }
  return false;
}

/// The estimate's items that name `what`, each with its list's total, then the occupancy lines that start with
/// `resource` ("VGPRs:", "LDS:") and the result.
void printCosts(const ir::Kernel &k, const Target &t, llvm::StringRef what, llvm::StringRef resource,
                llvm::raw_ostream &os) {
  ResourceEstimate e = estimateResources(k, t);
  struct List {
    const std::vector<ResourceItem> &items;
    unsigned total;
    std::string title;
  };
  List lists[] = {
      {e.vgprItems, e.archVgprs, "ArchVGPRs per lane"},
      {e.agprItems, e.agprs, e.accumulatorsInAgprs ? "AGPRs per lane" : "accumulator VGPRs per lane (in ArchVGPRs)"},
      {e.sgprItems, e.sgprs, "SGPRs per wave"},
      {e.ldsItems, e.ldsBytes, "LDS bytes per workgroup"},
  };
  os << formatv("cost in kernel {0} (estimated before code generation):\n", k.name);
  bool any = false;
  for (const List &l : lists)
    for (const ResourceItem &item : l.items)
      if (mentions(item.what, what)) {
        os << formatv("  {0} of {1} {2}: {3}\n", item.count, l.total, l.title, item.what);
        any = true;
      }
  if (!any) os << "  none of its own (no statement keeps it live in registers)\n";
  Occupancy o = computeOccupancy(t, e.resources(k.workgroupSize));
  os << "occupancy on " << t.name << ":\n";
  for (const std::string &line : o.derivation)
    if (llvm::StringRef(line).starts_with(resource) || llvm::StringRef(line).starts_with("occupancy:"))
      os << "  " << line << "\n";
}

void describeTile(const ir::Kernel &k, const Target &t, const Declaration &d, llvm::raw_ostream &os) {
  if (const ir::Tile *tile = named(k.tiles, d.name)) {
    printTileHeading(*tile, os);
    describeDistribution(*tile, t, 2, os);
    if (!tile->used) os << "  no statement uses it: it takes no registers\n";
  } else if (const ir::ReducedTile *r = named(k.reducedTiles, d.name)) {
    os << formatv("tile {0}: {1}[{2}, {3}], the result of reductions along axis {4}", r->name, name(r->dtype), r->rows,
                  r->cols, r->axis);
    if (r->distributed()) os << formatv(": {0} value{1} per lane", r->values(), r->values() == 1 ? "" : "s");
    os << "\n";
  } else {
    os << "tile " << d.name << ": " << d.detail << "\n";
  }
  printCosts(k, t, "tile " + d.name, "VGPRs:", os);
}

void describeLds(const ir::Kernel &k, const Target &t, const Declaration &d, llvm::raw_ostream &os) {
  os << "lds " << d.name << ": " << d.detail << "\n";
  if (const ir::LdsBuffer *l = named(k.ldsBuffers, d.name)) {
    os << formatv("  stored as [{0}, {1} + {2}]{3}, {4} B per row{5}\n", l->storedRows(), l->storedCols(), l->pad,
                  l->transposed ? " (transposed: an mma reads it as its B operand)" : "", l->rowBytes(),
                  l->stages > 1 ? formatv(", {0} stages of {1} B", l->stages, l->stageBytes()).str() : "");
    if (l->swizzled())
      os << formatv("  rows swizzled: row r is placed at r ^ (((r >> {0}) & {1}) << {2})\n", l->swizzleFrom,
                    l->swizzleMask, l->swizzleShift);
    if (!l->used) os << "  no statement uses it: it takes no LDS\n";
    printLdsBanks(k, t, os, l);
  }
  printCosts(k, t, "lds " + d.name, "LDS:", os);
}

void describeAcc(const ir::Kernel &k, const Target &t, const Declaration &d, llvm::raw_ostream &os) {
  os << "acc " << d.name << ": " << d.detail << "\n";
  if (const ir::AccTile *a = named(k.accs, d.name)) {
    if (a->instr)
      os << formatv("  {0} x {1} waves, each owns {2} x {3} = {4} x {5} blocks of {6} ({7} x {8}), {9} values per "
                    "lane each: {10} registers per lane\n",
                    a->wavesY, a->wavesX, a->waveRows(), a->waveCols(), a->blocksY(), a->blocksX(), a->instr->name,
                    a->instr->m, a->instr->n, a->instr->accPerLane, a->registers());
    else
      os << "  mfma auto: no mma chooses its instruction\n";
  }
  printCosts(k, t, "acc " + d.name, "VGPRs:", os);
}

void describeKernel(const ir::Kernel &k, const Target &t, const Declaration &d, llvm::raw_ostream &os) {
  os << "kernel " << d.name << d.detail << "\n";
  os << formatv("  workgroup {0} threads = {1} waves on {2} ({3})\n", k.workgroupSize, k.waves(t), t.name,
                t.product);
  ResourceEstimate e = estimateResources(k, t);
  os << formatv("  resources (estimated): {0} ArchVGPRs and {1} accumulator registers per lane, {2} SGPRs per wave, "
                "{3} B of LDS per workgroup\n",
                e.archVgprs, e.agprs, e.sgprs, e.ldsBytes);
  os << "occupancy on " << t.name << ":\n";
  printOccupancy(computeOccupancy(t, e.resources(k.workgroupSize)), 2, os);
}

} // namespace

std::string tilec::lsp::describe(const Declaration &d, const SymbolIndex &index, const ir::Module *module) {
  std::string out;
  llvm::raw_string_ostream os(out);
  const Declaration &kernelDecl = index.declarations()[d.kernel];
  const ir::Kernel *k = module ? named(module->kernels, kernelDecl.name) : nullptr;
  using K = Declaration::Kind;
  bool modelled = d.kind == K::Kernel || d.kind == K::Tile || d.kind == K::Lds || d.kind == K::Acc;
  if (k && modelled) {
    const Target &t = *module->target;
    switch (d.kind) {
    case K::Kernel: describeKernel(*k, t, d, os); break;
    case K::Tile: describeTile(*k, t, d, os); break;
    case K::Lds: describeLds(*k, t, d, os); break;
    case K::Acc: describeAcc(*k, t, d, os); break;
    default: break;
    }
    return out;
  }
  if (d.kind == K::Kernel) os << "kernel " << d.name << d.detail << "\n";
  else if (d.kind == K::LoopVar) os << "for " << d.name << " " << d.detail << "\n";
  else if (d.kind == K::Dimension) os << "dimension " << d.name << ": " << d.detail << "\n";
  else os << SymbolIndex::kindName(d.kind) << " " << d.name << ": " << d.detail << "\n";
  if (d.kind != K::Kernel) os << "in kernel " << kernelDecl.name << "\n";
  if (modelled && !k) os << "(no distribution or cost: no version of this kernel compiled without errors)\n";
  return out;
}

std::string tilec::lsp::kernelReport(const ir::Module &module, llvm::StringRef fileName, llvm::StringRef kernel) {
  std::string report;
  llvm::raw_string_ostream os(report);
  printReport(module, fileName, os);
  if (kernel.empty()) return report;
  // Sections start with "kernel NAME" at the start of a line; everything inside them is indented.
  llvm::StringRef text(report);
  std::string heading = ("\nkernel " + kernel + "\n").str();
  size_t begin = text.find(heading);
  if (begin == llvm::StringRef::npos) return "";
  size_t end = text.find("\nkernel ", begin + heading.size() - 1);
  // The heading line, the blank line before the section, the section.
  return (text.take_until([](char c) { return c == '\n'; }) + "\n" + text.slice(begin, end)).str();
}

std::string tilec::lsp::occupancySummary(const ir::Module &module, llvm::StringRef kernel) {
  const ir::Kernel *k = named(module.kernels, kernel);
  if (!k) return "";
  const Target &t = *module.target;
  Occupancy o = computeOccupancy(t, estimateResources(*k, t).resources(k->workgroupSize));
  if (!o.launchable) return formatv("report: does not fit on a {0} CU", t.name);
  return formatv("report: {0} wave{1} per SIMD on {2}{3}", o.wavesPerSimd, o.wavesPerSimd == 1 ? "" : "s", t.name,
                 o.limiter == Limiter::None ? std::string(" (the maximum)")
                                            : (", limited by " + limiterName(o.limiter)).str());
}
