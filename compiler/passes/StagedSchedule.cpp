//===- StagedSchedule.cpp - The order of a staged main-loop step -------------===//
//
// The statements of a staged step placed among its MFMAs (stagedSchedule), and the groups LLVM schedules them by.
//
// Why a wide segment's groups are sized for instructions, measured on gemm_mxfp6_kn_gfx950 as 256 x 128 blocks (a
// wave's 4 x 2 blocks of v_mfma_scale_f32_32x32x64_f8f6f4, 8 passes, 8 MFMAs an instruction K step; pipeline 4;
// clang-22, llvm-mca-22 per two steps, 256 passes):
//   - the statements' spread (2 reads after each of the first 4 MFMAs and 1 after the others, 2 write statements
//     after each but the last) puts 12 and 14 instructions in groups where the segment has 15 LDS reads (the scales'
//     with the fragments') and 18 LDS writes (a 12-byte write at a 4-byte aligned address is a ds_write2_b32 and
//     half of another): IGroupLP places the rest where it likes, 20 LDS instructions between two MFMAs: 317.3
//     cycles, 0.81;
//   - the reads in groups of 3 from the first MFMA on (3, 3, 3, 3 and, after the barrier, with the scales, 3, 3, 3,
//     3, 3), writes as before: 0.79 to 0.81; the writes in groups of 4 after every MFMA but the last (28, more than
//     the 18 there are: a group is a cap), reads as before: 0.81; both: 299.3 cycles, 0.86 (reads 4, 4, 4, 4 after
//     the barrier: 301.3, 0.85). Write groups sized exactly (4, 4, 4, 4, 2): 0.80. An 8-pass MFMA so hides 7 LDS
//     instructions, 4 writes and 3 reads.
// A segment of 4 MFMAs (2 x 2 blocks) keeps the statements' spread, which its loops were tuned with, and so does a
// loop with one register set (the reason is at the call).
//
//===----------------------------------------------------------------------===//
#include "passes/StagedSchedule.h"

#include "ir/LdsBuffer.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <vector>

using namespace tilec;
using namespace tilec::ir;

unsigned tilec::fragmentReadsPerKStep(const MMA &m) {
  const MFMAInstr &ins = *m.acc->instr;
  const MFMAInstr &insB = operandView(ins, true);
  unsigned readsB = insB.readsPerFragment() * insB.ldsReadInstructionsPerRun();
  return ins.readsPerFragment() * ins.ldsReadInstructionsPerRun() * m.acc->blocksY() +
         m.acc->blocksX() * (m.b->transposeReads ? transposeReadsOf(insB, *m.b).count : readsB);
}

void tilec::stagedSchedule(KLoopPlan &plan, bool setsPerStep) {
  const MMA &m = *plan.mmas.front();
  // Scales staged through LDS: their loads first. The next step writes every tile to LDS at its start, waiting for
  // the loads in the order they were issued, and LLVM puts the scales' small writes first: issued last, their loads
  // were the ones it waited for (gemm_mxfp8_gfx950 at true passes: 163.2 -> 141.3 cycles a step). Their writes stay
  // where they are (first as well: gemm_mxfp4_kn_gfx950 155.6 -> 159.6).
  if (m.scaleLoads.ldsA) {
    auto scaleLoad = [&](const Assign *a) {
      return llvm::any_of(plan.writes, [&](const LdsWrite *w) {
        return (w->dst == m.scaleLoads.ldsA || w->dst == m.scaleLoads.ldsB) && w->src == a->dst;
      });
    };
    std::stable_partition(plan.loads.begin(), plan.loads.end(), scaleLoad);
  }
  const MFMAInstr &ins = *m.acc->instr;
  unsigned kSteps = m.k / ins.k, blocks = m.acc->blocksY() * m.acc->blocksX();
  unsigned reads = fragmentReadsPerKStep(m);
  unsigned passes = std::max(1u, ins.cycles / 4), cap = std::max(1u, passes / 4);
  using Group = KLoopPlan::StagedSegment::Group;
  struct Item {
    Group kind;
    unsigned accesses;
  };
  std::vector<Item> queue;
  // A scaled mma's scales of the next step first: they are waited for at the start of the next step, the tiles
  // only when they are written to LDS there.
  unsigned scaleLoads =
      m.scaleA && !m.scaleLoads.ldsA ? m.scaleLoads.chunks * (m.acc->blocksY() + m.acc->blocksX()) : 0;
  if (scaleLoads) queue.push_back({Group::GlobalLoad, scaleLoads});
  for (const LdsWrite *w : plan.writes) queue.push_back({Group::LDSWrite, w->src->layout.accessesPerLane()});
  std::vector<Item> afterBarrier;
  for (const Assign *a : plan.loads)
    (setsPerStep ? afterBarrier : queue).push_back({Group::GlobalLoad, a->dst->layout.accessesPerLane()});
  plan.staged.assign(kSteps, {});
  plan.stagedReadsPerStep = reads;
  size_t next = 0;
  for (unsigned j = 0; j < kSteps; ++j) {
    KLoopPlan::StagedSegment &seg = plan.staged[j];
    bool last = j + 1 == kSteps;
    unsigned room = blocks * cap, placed = 0;
    std::vector<Item> here;
    // The last segment follows the barrier: every LDS write is placed before it, whatever the room, and so is
    // every load with one register set (with a set per step, `afterBarrier` holds them for the last segment). With
    // one set a load issued after the barrier has only the last segment's MFMAs to land in before the next
    // step writes its registers to LDS (at that step's start): with two instruction K steps that is half a step
    // (gemm_mxfp6_gfx950, 8 MFMAs of 8 passes a step: llvm-mca waited 46 and 58 cycles for them each two steps;
    // placed before the barrier, after the writes that free their registers, 303 -> 223.5 cycles per two steps
    // with the spread below).
    bool beforeLast = j + 2 == kSteps;
    while (next < queue.size() &&
           (last || here.empty() || beforeLast || placed + queue[next].accesses <= room)) {
      placed += queue[next].accesses;
      if (scaleLoads && next == 0) seg.scales = true;
      else (queue[next].kind == Group::LDSWrite ? seg.writes : seg.loads) += 1;
      here.push_back(queue[next++]);
      if (!last && !beforeLast && placed >= room) break;
    }
    if (last)
      for (const Item &i : afterBarrier) {
        placed += i.accesses;
        seg.loads += 1;
        here.push_back(i);
      }
    // Per MFMA: the MFMA, its share of the next instruction K step's reads, then up to `cap` of the placed
    // accesses (writes before loads). The segment before the barrier takes whatever is left, however much; where
    // that is more than its room, each MFMA is followed by an even share of the writes and one of the loads, so
    // that the loads follow the writes that free their registers from the first MFMA on (gemm_mxfp6_gfx950, 10
    // accesses of each over 4 MFMAs: 2 after each MFMA and 12 after the last, 121.2 cycles a step; writes, then
    // loads, 5 after each, 119.8; 3 writes and 3 loads after each, 111.8). Within the room the packing stays
    // (spread over all the MFMAs, gemm_f16_16x16_gfx950 140.7 -> 143.7 and gemm_mxfp4_kn_gfx950 139.9 -> 152.3).
    // The last segment reads the next K step's instruction K step 0 (after the barrier, from the other stage).
    unsigned readsLeft = reads;
    size_t item = 0;
    unsigned itemLeft = here.empty() ? 0 : here[0].accesses;
    auto add = [&](Group g, unsigned n) {
      if (!n) return;
      if (!seg.groups.empty() && seg.groups.back().first == g) seg.groups.back().second += n;
      else seg.groups.push_back({g, n});
    };
    bool spread = (beforeLast && placed > room) || (last && !afterBarrier.empty());
    unsigned writesLeft = 0, loadsLeft = 0;
    for (const Item &i : here) (i.kind == Group::LDSWrite ? writesLeft : loadsLeft) += i.accesses;
    for (unsigned b = 0; b < blocks; ++b) {
      // This MFMA's even share of what is left of `left` over the remaining MFMAs, taken from it.
      auto takeShare = [&](unsigned &left) {
        unsigned n = (left + (blocks - b) - 1) / (blocks - b);
        left -= n;
        return n;
      };
      add(Group::MFMA, 1);
      add(Group::LDSRead, takeShare(readsLeft));
      if (spread) {
        add(Group::LDSWrite, takeShare(writesLeft));
        add(Group::GlobalLoad, takeShare(loadsLeft));
        continue;
      }
      for (unsigned c = 0; c < cap && item < here.size(); ++c) {
        add(here[item].kind, 1);
        if (--itemLeft == 0 && ++item < here.size()) itemLeft = here[item].accesses;
      }
    }
    if (spread) continue;
    // Accesses beyond the segment's room follow its MFMAs.
    while (item < here.size()) {
      add(here[item].kind, itemLeft);
      if (++item < here.size()) itemLeft = here[item].accesses;
    }
  }
  // With a register set per step, a segment of 8 MFMAs or more is sized for its instructions (frontLoadWideSegment):
  // the last one reads the next step's scales too, 4-byte reads that LLVM pairs. Not with one set: its reads issued
  // early hold more fragment registers while the loads' are live (gemm_f16_256x256_16x16 on gfx950, 2 waves per
  // SIMD: 16 B of scratch with LLVM 22), and gemm_mxfp6_kn_gfx950 at 256 x 128 with one set measured 0.77 as spread
  // and 0.74 with the reads in the first half's groups (0.74 to 0.84 over hand-set group sizes: no rule held).
  if (!setsPerStep) return;
  unsigned scaleReads =
      m.scaleA && m.scaleLoads.ldsA ? (m.scaleLoads.chunks * (m.acc->blocksY() + m.acc->blocksX()) + 1) / 2 : 0;
  for (unsigned j = 0; j < kSteps; ++j)
    frontLoadWideSegment(plan.staged[j], blocks, passes, reads + (j + 1 == kSteps ? scaleReads : 0));
}


using Segment = KLoopPlan::StagedSegment;
using Group = Segment::Group;

void tilec::frontLoadWideSegment(Segment &seg, unsigned mfmas, unsigned passes, unsigned reads) {
  if (mfmas < kWideSegmentMfmas) return;
  // The loads after each MFMA, as the spread placed them.
  std::vector<unsigned> loads(mfmas, 0);
  bool writes = seg.writes != 0;
  unsigned at = 0;
  for (const auto &[g, n] : seg.groups) {
    if (g == Group::MFMA) at += n;
    else if (g == Group::GlobalLoad && at) loads[at - 1] += n;
  }
  // An MFMA of P passes hides about P - 1 single-issue instructions: P / 2 writes and P / 2 - 1 reads.
  unsigned writeCap = std::max(1u, passes / 2), readCap = passes > 3 ? passes / 2 - 1 : 1, readsLeft = reads;
  std::vector<std::pair<Group, unsigned>> out;
  for (unsigned b = 0; b < mfmas; ++b) {
    out.push_back({Group::MFMA, 1});
    if (unsigned n = std::min(readCap, readsLeft)) {
      out.push_back({Group::LDSRead, n});
      readsLeft -= n;
    }
    if (writes && b + 1 < mfmas) out.push_back({Group::LDSWrite, writeCap});
    if (loads[b]) out.push_back({Group::GlobalLoad, loads[b]});
  }
  seg.groups = std::move(out);
}
