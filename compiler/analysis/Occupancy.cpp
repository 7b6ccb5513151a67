//===- Occupancy.cpp - The occupancy calculator -----------------------------===//
//
// Formulas of ../shared/facts/occupancy.md (LLVM AMDGPUBaseInfo, checked against clang-19's `; Occupancy:`):
//   VGPRs:   total = ceil4(arch) + agprs (arch alone without AGPRs); waves = 8 if total < 8 else
//            min(max(512 / ceil8(total), 1), 8)
//   SGPRs:   waves = 8 if sgprs + 6 <= 100 else 7
//   slots:   n = ceil(workgroup / 64) waves per workgroup; 32 workgroups per CU if n == 1 else min(32 / n, 16)
//   LDS:     groups = LDS per CU / ceil_granule(lds); waves = min(ceil(min(groups, slots) * n / 4), 8)
//   result:  the minimum; the resource giving it is the limiter.
//   launch:  a workgroup is resident as a whole: its LDS must fit the CU, and its ceil(n / 4) waves per SIMD must fit
//            the registers (1024 threads need 4 waves per SIMD, so at most 128 VGPRs); otherwise it cannot launch.
//
//===----------------------------------------------------------------------===//
#include "analysis/Occupancy.h"

#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace tilec;
using llvm::formatv;

llvm::StringRef tilec::limiterName(Limiter limiter) {
  switch (limiter) {
  case Limiter::None: return "none";
  case Limiter::VGPR: return "vgpr";
  case Limiter::SGPR: return "sgpr";
  case Limiter::LDS: return "lds";
  case Limiter::Workgroups: return "workgroups";
  }
  return "?";
}

static unsigned roundUp(unsigned v, unsigned granule) { return (v + granule - 1) / granule * granule; }
static unsigned ceilDiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

unsigned tilec::unifiedVgprs(const KernelResources &r) {
  return r.agprs ? roundUp(r.archVgprs, 4) + r.agprs : r.archVgprs;
}

static unsigned wavesOfWorkgroup(const Target &t, const KernelResources &r);

unsigned tilec::archVgprRoom(const Target &t, const KernelResources &r) {
  // The unified registers a lane has at the fewest waves per SIMD the workgroup runs at (all 512 only at 1 wave).
  unsigned unified = vgprsAtWaves(t, ceilDiv(wavesOfWorkgroup(t, r), t.simdsPerCU));
  if (!r.agprs || unified <= t.maxArchVgprs + r.agprs) return t.maxArchVgprs;
  return unified - r.agprs;
}

std::string tilec::archRoomText(const Target &t, unsigned room) {
  if (room <= t.maxArchVgprs) return llvm::formatv("the {0} a lane can address", t.maxArchVgprs).str();
  return llvm::formatv("the {0} a lane can hold ({1} ArchVGPRs and the {2} AGPRs its accumulators leave, where LLVM "
                       "places loaded values and MFMA operands)",
                       room, t.maxArchVgprs, room - t.maxArchVgprs)
      .str();
}

/// Waves of one workgroup.
static unsigned wavesOfWorkgroup(const Target &t, const KernelResources &r) {
  return std::max(ceilDiv(r.workgroupSize, t.waveSize), 1u);
}

static const char *wavesWord(unsigned n) { return n == 1 ? "wave" : "waves"; }

static std::string bytes(unsigned b) {
  if (b >= 1024 && b % 1024 == 0) return formatv("{0} KiB", b / 1024);
  return formatv("{0} B", b);
}

unsigned tilec::vgprsAtWaves(const Target &t, unsigned waves) {
  return t.vgprsPerLane / waves / t.vgprGranule * t.vgprGranule;
}

unsigned tilec::wavesForVgprs(const Target &t, unsigned total) {
  if (total < t.vgprGranule) return t.maxWavesPerSimd;
  return std::min(std::max(t.vgprsPerLane / roundUp(total, t.vgprGranule), 1u), t.maxWavesPerSimd);
}

RegisterEdge tilec::registerEdge(const Target &t, const KernelResources &r) {
  RegisterEdge e;
  e.total = unifiedVgprs(r);
  e.archVgprs = r.archVgprs;
  e.wavesNeeded = ceilDiv(wavesOfWorkgroup(t, r), t.simdsPerCU);
  e.room = vgprsAtWaves(t, e.wavesNeeded);
  auto close = [](unsigned used, unsigned room) { return used * (100 + kRegisterEdgePercent) > room * 100; };
  e.archRoom = archVgprRoom(t, r);
  e.arch = close(r.archVgprs, e.archRoom) && !close(e.total, e.room);
  e.near = close(e.total, e.room) || e.arch;
  return e;
}

namespace {

/// The limits alone, without text: used both for the result and to check hints.
struct Limits {
  unsigned vgpr, sgpr, lds, workgroups, result;
  bool fits; ///< one whole workgroup fits on a CU: its LDS, and its ceil(n / SIMDs) waves per SIMD in the registers
};

Limits limitsOf(const Target &t, const KernelResources &r) {
  unsigned total = unifiedVgprs(r);
  unsigned n = wavesOfWorkgroup(t, r);
  unsigned slots = n == 1 ? 32u : std::min(32u / n, t.barrierSlotsPerCU);
  unsigned lds = roundUp(r.ldsBytes, t.ldsGranule);
  unsigned groups = lds ? t.ldsBytesPerCU / lds : 1024u;
  Limits l;
  l.vgpr = wavesForVgprs(t, total);
  l.sgpr = r.sgprs + t.reservedSgprs <= 100 ? t.maxWavesPerSimd : t.maxWavesPerSimd - 1;
  l.lds = std::min(ceilDiv(groups * n, t.simdsPerCU), t.maxWavesPerSimd);
  l.workgroups = std::min(ceilDiv(slots * n, t.simdsPerCU), t.maxWavesPerSimd);
  l.result = std::min({l.vgpr, l.sgpr, l.lds, l.workgroups});
  l.fits = lds <= t.ldsBytesPerCU && r.archVgprs <= archVgprRoom(t, r) && r.agprs <= t.maxAgprs &&
           total <= t.vgprsPerLane && ceilDiv(n, t.simdsPerCU) <= std::min(l.vgpr, l.sgpr);
  return l;
}

} // namespace

Occupancy tilec::computeOccupancy(const Target &t, const KernelResources &r) {
  Occupancy o;
  const unsigned arch4 = roundUp(r.archVgprs, 4);
  o.totalVgprs = unifiedVgprs(r);
  o.allocatedVgprs = roundUp(o.totalVgprs, t.vgprGranule);
  o.sgprsWithReserved = r.sgprs + t.reservedSgprs;
  o.ldsAllocated = roundUp(r.ldsBytes, t.ldsGranule);
  o.wavesPerWorkgroup = wavesOfWorkgroup(t, r);
  const unsigned n = o.wavesPerWorkgroup;
  o.maxWorkgroupsPerCU = n == 1 ? 32u : std::min(32u / n, t.barrierSlotsPerCU);
  o.ldsWorkgroupsPerCU = o.ldsAllocated ? t.ldsBytesPerCU / o.ldsAllocated : 1024u;
  Limits l = limitsOf(t, r);
  o.vgprLimit = l.vgpr;
  o.sgprLimit = l.sgpr;
  o.ldsLimit = l.lds;
  o.workgroupLimit = l.workgroups;
  o.wavesPerSimd = l.result;
  o.launchable = l.fits;
  if (!o.launchable) o.wavesPerSimd = 0;

  // The limiter: the first resource (in this order) whose limit is the result, when it is below the maximum.
  if (o.wavesPerSimd < t.maxWavesPerSimd) {
    if (l.vgpr == l.result) o.limiter = Limiter::VGPR;
    else if (l.lds == l.result) o.limiter = Limiter::LDS;
    else if (l.workgroups == l.result) o.limiter = Limiter::Workgroups;
    else o.limiter = Limiter::SGPR;
  }
  // Whole workgroups are resident: as many as every limit allows, each with n waves spread over the SIMDs.
  unsigned byRegisters = t.simdsPerCU * std::min(l.vgpr, l.sgpr) / n;
  unsigned resident = std::min({o.maxWorkgroupsPerCU, o.ldsWorkgroupsPerCU, std::max(byRegisters, 1u)});
  o.wavesPerCU = o.launchable ? std::min(resident * n, t.simdsPerCU * o.wavesPerSimd) : 0;

  // Derivation, one line per resource.
  if (r.agprs)
    o.derivation.push_back(formatv("VGPRs: {0} arch (aligned to {1}) + {2} acc = {3} per lane; granule {4} -> {5}; "
                                   "{6} / {5} -> {7} {8} per SIMD",
                                   r.archVgprs, arch4, r.agprs, o.totalVgprs, t.vgprGranule, o.allocatedVgprs,
                                   t.vgprsPerLane, l.vgpr, wavesWord(l.vgpr)));
  else if (o.totalVgprs < t.vgprGranule)
    o.derivation.push_back(formatv("VGPRs: {0} per lane, fewer than {1} -> {2} waves per SIMD", o.totalVgprs,
                                   t.vgprGranule, l.vgpr));
  else
    o.derivation.push_back(formatv("VGPRs: {0} per lane; granule {1} -> {2}; {3} / {2} = {4} -> {5} {6} per SIMD",
                                   o.totalVgprs, t.vgprGranule, o.allocatedVgprs, t.vgprsPerLane,
                                   t.vgprsPerLane / o.allocatedVgprs, l.vgpr, wavesWord(l.vgpr)));
  o.derivation.push_back(formatv("SGPRs: {0} + {1} reserved = {2} {3} 100 -> {4} waves per SIMD", r.sgprs,
                                 t.reservedSgprs, o.sgprsWithReserved, o.sgprsWithReserved <= 100 ? "<=" : ">",
                                 l.sgpr));
  o.derivation.push_back(formatv("workgroups: {0} threads = {1} wave{2}; {3} workgroups per CU x {1} = {4} waves per "
                                 "CU / {5} SIMDs -> {6} waves per SIMD",
                                 r.workgroupSize, n, n == 1 ? "" : "s",
                                 n == 1 ? std::string("32") : formatv("min(32 / {0}, {1}) = {2}", n,
                                                                      t.barrierSlotsPerCU, o.maxWorkgroupsPerCU).str(),
                                 o.maxWorkgroupsPerCU * n, t.simdsPerCU, l.workgroups));
  if (!r.ldsBytes)
    o.derivation.push_back(formatv("LDS: none -> {0} waves per SIMD", l.lds));
  else
    o.derivation.push_back(formatv("LDS: {0} per workgroup; granule {1} B -> {2} B; {3} / {2} = {4} workgroup{5} per "
                                   "CU x {6} wave{7} -> {8} {9} per SIMD",
                                   bytes(r.ldsBytes), t.ldsGranule, o.ldsAllocated, t.ldsBytesPerCU,
                                   o.ldsWorkgroupsPerCU, o.ldsWorkgroupsPerCU == 1 ? "" : "s", n, n == 1 ? "" : "s",
                                   l.lds, wavesWord(l.lds)));
  if (!o.launchable) {
    unsigned needed = ceilDiv(n, t.simdsPerCU), registers = std::min(l.vgpr, l.sgpr);
    o.derivation.push_back(o.ldsAllocated <= t.ldsBytesPerCU && needed > registers
                               ? formatv("occupancy: 0, one workgroup does not fit on a CU: its {0} waves need {1} "
                                         "per SIMD, the registers allow {2}", n, needed, registers).str()
                               : std::string("occupancy: 0, one workgroup does not fit on a CU"));
    return o;
  }
  o.derivation.push_back(formatv("occupancy: min({0}, {1}, {2}, {3}) = {4} {7} per SIMD, {5} per CU{6}", l.vgpr,
                                 l.sgpr, l.workgroups, l.lds, o.wavesPerSimd, o.wavesPerCU,
                                 o.limiter == Limiter::None ? std::string(" (the maximum)")
                                                            : (", limited by " + limiterName(o.limiter)).str(),
                                 wavesWord(o.wavesPerSimd)));

  // Hints for each binding resource: the largest use that would allow one more wave, verified by recomputing the
  // whole occupancy (not only this resource's limit: when two resources tie, changing one alone raises nothing, and
  // no hint is printed for it).
  auto verified = [&](KernelResources changed, unsigned waves) {
    Limits cl = limitsOf(t, changed);
    return cl.fits && cl.result >= waves;
  };
  unsigned next = o.wavesPerSimd + 1;
  if (o.wavesPerSimd < t.maxWavesPerSimd && l.vgpr == o.wavesPerSimd) {
    unsigned fit = vgprsAtWaves(t, next);
    KernelResources c = r;
    if (r.agprs) c.agprs = fit > arch4 ? fit - arch4 : 0, c.archVgprs = std::min(r.archVgprs, fit);
    else c.archVgprs = fit;
    if (verified(c, next))
      o.hints.push_back(formatv("{0} VGPRs per lane allow {1} wave{2} per SIMD; {3} or fewer would allow {4}",
                                o.totalVgprs, l.vgpr, l.vgpr == 1 ? "" : "s", fit, next));
  }
  if (o.wavesPerSimd < t.maxWavesPerSimd && l.sgpr == o.wavesPerSimd) {
    KernelResources c = r;
    c.sgprs = 100 - t.reservedSgprs;
    if (verified(c, next))
      o.hints.push_back(formatv("{0} SGPRs (with the {1} reserved) allow {2} waves per SIMD; {3} explicit SGPRs or "
                                "fewer would allow {4}", o.sgprsWithReserved, t.reservedSgprs, l.sgpr, c.sgprs, next));
  }
  if (o.wavesPerSimd < t.maxWavesPerSimd && l.lds == o.wavesPerSimd && r.ldsBytes) {
    // The smallest number of resident workgroups that gives one more wave per SIMD, and the LDS that allows it.
    unsigned groups = ceilDiv(o.wavesPerSimd * t.simdsPerCU + 1, n);
    unsigned fit = t.ldsBytesPerCU / groups / t.ldsGranule * t.ldsGranule;
    KernelResources c = r;
    c.ldsBytes = fit;
    if (fit && verified(c, next))
      o.hints.push_back(formatv("{0} of LDS allows {1} workgroup{2} per CU; {3} or less would allow {4}",
                                bytes(o.ldsAllocated), o.ldsWorkgroupsPerCU, o.ldsWorkgroupsPerCU == 1 ? "" : "s",
                                bytes(fit), groups));
  }
  if (o.wavesPerSimd < t.maxWavesPerSimd && l.workgroups == o.wavesPerSimd) {
    // The workgroup size nearest to this one whose slots allow more waves.
    unsigned maxWaves = t.maxWorkgroupSize / t.waveSize;
    for (unsigned d = 1; d < maxWaves; ++d) {
      for (unsigned cand : {n - std::min(d, n), n + d}) {
        if (cand == 0 || cand > maxWaves) continue;
        KernelResources c = r;
        c.workgroupSize = cand * t.waveSize;
        Limits cl = limitsOf(t, c);
        if (cl.fits && cl.result > l.result) {
          o.hints.push_back(formatv("workgroups of {0} waves leave {1} of the {2} wave slots of a CU empty ({3} "
                                    "workgroups x {0}); {4} threads ({5} waves) would allow {6} waves per SIMD",
                                    n, t.simdsPerCU * t.maxWavesPerSimd - o.maxWorkgroupsPerCU * n,
                                    t.simdsPerCU * t.maxWavesPerSimd, o.maxWorkgroupsPerCU, c.workgroupSize, cand,
                                    cl.result));
          d = maxWaves;
          break;
        }
      }
    }
  }
  return o;
}

unsigned tilec::wavesToAsk(const Target &t, const KernelResources &r) {
  Occupancy o = computeOccupancy(t, r);
  if (!o.launchable) return 0;
  // Asked for N waves, the compiler meets them even by spilling to scratch. The estimate is fitted to the compilers
  // within about kRegisterEdgePercent, so only as many waves are asked for as the estimate fits with that margin
  // (test/Differential, seed 1, on the gfx950 compiler: 34 of the 43 kernels with scratch were asked for waves
  // whose registers the estimate filled to within 10%, 157 kernels in all, measured with the accumulators in AGPRs;
  // in ArchVGPRs, as a real gfx950 build keeps them, 11 kernels had scratch, 9 at the register edge; docs/gfx950.md).
  // Never fewer than the waves the workgroup needs (8 waves need 2 per SIMD): the compiler would ignore such a
  // request, and the register edge warns about those kernels instead (ResourceBudgets.cpp).
  RegisterEdge edge = registerEdge(t, r);
  return std::min(o.wavesPerSimd, std::max(edge.wavesNeeded, wavesForVgprs(t, withRegisterMargin(edge.total))));
}
