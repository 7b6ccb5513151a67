//===- ResourceBudgets.cpp - Estimates against the target's budgets -------===//
//
// checkBudgets turns the resource model's estimates into diagnostics: a kernel whose ArchVGPRs, AGPRs or LDS exceed
// what the target has is an error that lists the items and points at the declaration that crosses the limit; one
// whose fallback for unaligned rows does not fit is an error naming the assumption that removes it; one that cannot
// launch is an error and one that runs at a single wave per SIMD a warning, both with the occupancy's reasoning.
//
//===----------------------------------------------------------------------===//
#include "analysis/AccessPlan.h"
#include "analysis/Occupancy.h"
#include "analysis/ResourceModel.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <optional>

using namespace tilec;
using llvm::formatv;

namespace {

/// Where a budget is exceeded: the items as "N for what + ...", and the first counted declaration whose count takes
/// `start` plus the counted items before it over `limit` (the kernel when none does).
struct Overflow {
  std::string items;
  llvm::SMRange at;
};

Overflow overflow(const std::vector<ResourceItem> &items, unsigned start, unsigned limit, llvm::SMRange kernel,
                  llvm::function_ref<bool(const ResourceItem &)> counted) {
  Overflow o{"", kernel};
  bool found = false;
  unsigned running = start;
  for (const ResourceItem &item : items) {
    o.items += formatv("{0}{1} for {2}", o.items.empty() ? "" : " + ", item.count, item.what).str();
    if (!counted(item)) continue;
    if (!found && running + item.count > limit) o.at = item.loc, found = true;
    running += item.count;
  }
  return o;
}

/// Warns when the estimate of the kernel, or else of its _unaligned kernel, lies within the model's error of the
/// registers a lane can have (Occupancy.h, registerEdge): the compiler may spill there.
void warnAtRegisterEdge(const ir::Kernel &k, const Target &t, const ResourceEstimate &e,
                        const std::optional<ResourceEstimate> &unaligned, DiagnosticEngine &diags) {
  const ResourceEstimate *at = &e;
  RegisterEdge edge = registerEdge(t, e.resources(k.workgroupSize));
  if (!edge.near && unaligned) {
    at = &*unaligned;
    edge = registerEdge(t, unaligned->resources(k.workgroupSize));
  }
  if (!edge.near) return;
  std::string which = at == &e ? "kernel '" + k.name + "'" : "the fallback '" + unalignedName(k) + "' of kernel '" +
                                                                  k.name + "' (element paths at row ends)";
  // In the VGPR form of the MFMAs the accumulators are ArchVGPRs too.
  std::string parts = at->accumulatorsInAgprs
                          ? formatv("{0} ArchVGPRs{1}", at->archVgprs,
                                    at->agprs ? formatv(" + {0} AGPRs", at->agprs).str() : "").str()
                          : formatv("{0} ArchVGPRs + {1} accumulators in ArchVGPRs", at->archVgprs, at->agprs).str();
  unsigned arch = at->accumulatorsInAgprs ? at->archVgprs : at->archVgprs + at->agprs;
  std::string where =
      edge.arch ? formatv("about {0} ArchVGPRs per lane of {1}", arch, archRoomText(t, edge.archRoom)).str()
                : formatv("about {0} VGPRs per lane ({1}) of the {2} a lane has at {3} wave{4} per SIMD, the fewest its "
                          "workgroup of {5} wave{6} runs at",
                          edge.total, parts, edge.room, edge.wavesNeeded, edge.wavesNeeded == 1 ? "" : "s", k.waves(t),
                          k.waves(t) == 1 ? "" : "s")
                      .str();
  diags.warning(k.loc, formatv("{0} is at the edge of the register file: {1}; the estimate is within about {2}% of "
                               "the compiler's, so it may spill to scratch (check .private_segment_fixed_size in "
                               "--emit=asm); fewer register-tile accesses or a smaller accumulator per wave leave room",
                               which, where, kRegisterEdgePercent));
}

bool isTileItem(const ResourceItem &item) { return item.loc.isValid() && item.what.rfind("tile ", 0) == 0; }

} // namespace

bool tilec::checkBudgets(const ir::Module &m, DiagnosticEngine &diags) {
  const Target &t = *m.target;
  bool ok = true;
  for (const auto &k : m.kernels) {
    ResourceEstimate e = estimateResources(*k, t);
    unsigned room = archVgprRoom(t, e.resources(k->workgroupSize));
    if (e.archVgprs > room) {
      // Tiles are what the user can change: count the fixed overhead first and point at the tile that crosses.
      unsigned tiles = 0;
      for (const ResourceItem &item : e.vgprItems) tiles += isTileItem(item) ? item.count : 0;
      Overflow o = overflow(e.vgprItems, e.archVgprs - tiles, room, k->loc, isTileItem);
      diags.error(o.at, formatv("kernel '{0}' needs about {1} ArchVGPRs per lane, more than {2} on {3}: {4}; use "
                                "fewer or narrower register tiles, or a larger workgroup",
                                k->name, e.archVgprs, archRoomText(t, room), t.name, o.items));
      ok = false;
      continue;
    }
    if (e.agprs > t.maxAgprs) {
      Overflow o = overflow(e.agprItems, 0, t.maxAgprs, k->loc, [](const ResourceItem &) { return true; });
      diags.error(o.at, formatv("kernel '{0}' needs {1} AGPRs per lane for its accumulators, more than the {2} a lane "
                                "has on {3}: {4}; use a smaller accumulator per wave (more waves, or a smaller block)",
                                k->name, e.agprs, t.maxAgprs, t.name, o.items));
      ok = false;
      continue;
    }
    if (e.ldsBytes > t.ldsBytesPerCU) {
      Overflow o = overflow(e.ldsItems, 0, t.ldsBytesPerCU, k->loc, [](const ResourceItem &) { return true; });
      diags.error(o.at, formatv("kernel '{0}' needs {1} B of LDS per workgroup, more than the {2} B of a CU on {3}: "
                                "{4}", k->name, e.ldsBytes, t.ldsBytesPerCU, t.name, o.items));
      ok = false;
      continue;
    }
    // The _unaligned kernel is compiled too: its element paths must fit as well.
    std::vector<AccessPlan> plans = planAccesses(*k);
    if (hasUnalignedVariant(plans)) {
      ResourceEstimate u = estimateResources(*k, t, /*unalignedVariant=*/true);
      unsigned uRoom = archVgprRoom(t, u.resources(k->workgroupSize));
      if (u.archVgprs > uRoom) {
        std::string assumes = assumesRemovingUnaligned(plans);
        diags.error(k->loc, formatv("kernel '{0}' has a fallback for rows that are not vector aligned, '{1}', which "
                                    "needs about {2} ArchVGPRs per lane, more than {3} on {4} ({5} of the vector "
                                    "kernel + {6} for the elements of accesses that may cross a row end); {7}use "
                                    "narrower tiles",
                                    k->name, unalignedName(*k), u.archVgprs, archRoomText(t, uRoom), t.name, e.archVgprs,
                                    u.archVgprs - e.archVgprs,
                                    assumes.empty() ? "" : assumes + ", or "));
        ok = false;
        continue;
      }
    }
    Occupancy o = computeOccupancy(t, e.resources(k->workgroupSize));
    if (!o.launchable) {
      llvm::StringRef why = o.derivation.back();
      why.consume_front("occupancy: 0, ");
      diags.error(k->loc, formatv("kernel '{0}' cannot launch on {1}: {2} ({3} VGPRs per lane)", k->name, t.name, why,
                                  o.totalVgprs));
      ok = false;
      continue;
    }
    if (o.wavesPerSimd == 1) {
      std::string why = o.derivation.back();
      diags.warning(k->loc, formatv("kernel '{0}' runs at 1 wave per SIMD ({1}){2}", k->name, why,
                                    o.hints.empty() ? "" : "; " + o.hints.front()));
    }
  }
  return ok;
}

void tilec::warnAtRegisterEdges(const ir::Module &m, DiagnosticEngine &diags) {
  const Target &t = *m.target;
  for (const auto &k : m.kernels) {
    std::optional<ResourceEstimate> unaligned;
    if (hasUnalignedVariant(planAccesses(*k))) unaligned = estimateResources(*k, t, /*unalignedVariant=*/true);
    warnAtRegisterEdge(*k, t, estimateResources(*k, t), unaligned, diags);
  }
}
