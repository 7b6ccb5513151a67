//===- HoistFragments.cpp - A loop-invariant mma operand read once, before the loop ===//
#include "passes/HoistFragments.h"

#include "analysis/Occupancy.h"
#include "analysis/ResourceModel.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace {

/// Waves per SIMD the kernel's estimated registers allow with the model's margin.
unsigned vgprWaves(const Kernel &k, const Target &t) {
  return wavesForVgprs(t, withRegisterMargin(unifiedVgprs(estimateResources(k, t).resources(k.workgroupSize))));
}

/// The model's occupancy of the kernel as it stands (0 when it cannot launch).
unsigned occupancy(const Kernel &k, const Target &t) {
  Occupancy o = computeOccupancy(t, estimateResources(k, t).resources(k.workgroupSize));
  return o.launchable ? o.wavesPerSimd : 0;
}

/// Places A's fragment read of `m` (in loop body[at]) before the loop, after a barrier where A's last write before
/// it is not followed by one. Returns the statements added before the loop.
unsigned place(Body &body, size_t at, MMA &m) {
  bool needsBarrier = false;
  for (size_t i = at; i-- > 0;) {
    if (llvm::isa<Barrier>(body[i].get())) break;
    if (writesLds(*body[i], m.a)) {
      needsBarrier = true;
      break;
    }
  }
  auto read = std::make_unique<FragmentRead>(m.loc);
  read->mma = &m;
  m.aHoisted = read.get();
  body.insert(body.begin() + at, std::move(read));
  if (!needsBarrier) return 1;
  auto barrier = std::make_unique<Barrier>(m.loc);
  barrier->madeFor = formatv("the LDS writes of {0} before the reads of its fragments", m.a->name).str();
  body.insert(body.begin() + at, std::move(barrier));
  return 2;
}

/// Undoes place(): removes the `added` statements before body[at] (the loop).
void unplace(Body &body, size_t at, unsigned added, MMA &m) {
  body.erase(body.begin() + (at - added), body.begin() + at);
  m.aHoisted = nullptr;
}

void hoist(Kernel &k, const Target &t) {
  Body &body = k.body;
  for (size_t i = 0; i < body.size(); ++i) {
    auto *f = llvm::dyn_cast<For>(body[i].get());
    if (!f || f->plan) continue;
    for (StmtPtr &s : f->body) {
      auto *m = llvm::dyn_cast<MMA>(s.get());
      if (!m || m->aFrom || m->scaleA || m->acc->instr->scaled || m->a->transposeReads || m->a->stages != 1 ||
          writesLds(*f, m->a))
        continue;
      unsigned before = occupancy(k, t);
      unsigned added = place(body, i, *m);
      const MFMAInstr &ins = *m->acc->instr;
      unsigned kSteps = m->k / ins.k, regs = kSteps * m->acc->blocksY() * ins.operandRegisters(false);
      unsigned after = vgprWaves(k, t);
      if (after < before) {
        unplace(body, i + added, added, *m);
        m->aHoistedWhy = formatv("A's fragments are read in every step of the loop over {0}: kept in registers "
                                 "through it ({1} K steps x {2} block rows x {3} = {4} VGPRs), the model's registers "
                                 "with their {5}% margin would allow {6} wave{7} per SIMD, fewer than the kernel's "
                                 "{8} as written",
                                 f->var, kSteps, m->acc->blocksY(), ins.operandRegisters(false), regs,
                                 kRegisterEdgePercent, after, after == 1 ? "" : "s", before)
                             .str();
        continue;
      }
      i += added;
      m->aHoistedWhy = formatv("A's fragments are read once, before the loop over {0}, and kept in registers through "
                               "it ({1} K steps x {2} block rows x {3} = {4} VGPRs): no statement of the loop writes "
                               "lds {5}; the loop reads no A fragments from LDS{6}",
                               f->var, kSteps, m->acc->blocksY(), ins.operandRegisters(false), regs, m->a->name,
                               before ? "" : " (as written, the kernel cannot launch)")
                           .str();
    }
  }
}

} // namespace

void tilec::hoistLoopInvariantFragments(Module &module) {
  for (auto &k : module.kernels) hoist(*k, *module.target);
}
