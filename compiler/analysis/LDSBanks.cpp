//===- LDSBanks.cpp - The LDS bank model and the accesses tilec emits -------===//
#include "analysis/LDSBanks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <numeric>

using namespace tilec;
using llvm::formatv;

std::optional<BankCost> tilec::ldsBankCost(const Target &target, const LdsLaneAccess &access) {
  const LdsPhases *rule = target.ldsPhasesFor(access.write, access.bytes);
  if (!rule) return std::nullopt;
  BankCost cost;
  cost.rule = rule;
  const unsigned bankBytes = target.ldsBankBytes;
  // Per bank, the distinct (dword, bytes) pairs of this phase, each with the first lane that needs it: lanes sharing
  // all of a dword's bytes share one read, so the bank's cycles in the phase are the number of pairs. Buckets rather
  // than a sort: the pad search of warnLdsBankConflicts calls this hundreds of times per kernel.
  struct Use {
    uint64_t dword;
    unsigned bytes; ///< mask of the dword's bytes the lane touches
    unsigned lane;
    uint64_t addr;
  };
  std::vector<llvm::SmallVector<Use, 2>> banks(rule->banks);
  for (unsigned p = 0; p < rule->phases.size(); ++p) {
    for (auto &b : banks) b.clear();
    bool any = false;
    for (unsigned lane = 0; lane < access.addr.size() && lane < 64; ++lane) {
      if (!(rule->phases[p] >> lane & 1) || !access.addr[lane]) continue;
      uint64_t a = *access.addr[lane];
      for (uint64_t d = a / bankBytes; d <= (a + access.bytes - 1) / bankBytes; ++d) {
        uint64_t lo = std::max(a, d * bankBytes), hi = std::min(a + access.bytes, (d + 1) * bankBytes);
        unsigned mask = ((1u << (hi - lo)) - 1) << (lo - d * bankBytes);
        auto &bucket = banks[d % rule->banks];
        if (llvm::none_of(bucket, [&](const Use &u) { return u.dword == d && u.bytes == mask; }))
          bucket.push_back({d, mask, lane, a});
        any = true;
      }
    }
    if (!any) continue;
    unsigned worst = 0, worstBank = 0;
    for (unsigned b = 0; b < banks.size(); ++b)
      if (banks[b].size() > worst) worst = banks[b].size(), worstBank = b;
    cost.cycles += worst;
    cost.ideal += 1;
    if (worst > cost.ways) {
      cost.ways = worst;
      cost.worstPhase = p;
      cost.worstBank = worstBank;
      cost.worstLanes.clear();
      for (const Use &u : banks[worstBank]) cost.worstLanes.push_back({u.lane, u.addr});
      llvm::sort(cost.worstLanes);
      cost.worstPhaseBankDwords.clear();
      for (const auto &b : banks) cost.worstPhaseBankDwords.push_back(b.size());
      cost.worstPhaseConflicts.clear();
      if (worst > 1)
        for (unsigned lane = 0; lane < access.addr.size() && lane < 64; ++lane) {
          if (!(rule->phases[p] >> lane & 1) || !access.addr[lane]) continue;
          uint64_t a = *access.addr[lane];
          for (uint64_t d = a / bankBytes; d <= (a + access.bytes - 1) / bankBytes; ++d)
            if (banks[d % rule->banks].size() > 1) {
              cost.worstPhaseConflicts.push_back(lane);
              break;
            }
        }
    }
  }
  return cost;
}

std::string tilec::ldsInstructionName(bool write, unsigned bytes) {
  std::string op = write ? "ds_write_b" : "ds_read_";
  if (!write) op += bytes < 4 ? "u" : "b";
  return op + std::to_string(bytes * 8);
}

std::vector<LdsLaneAccess> tilec::ldsWriteAccesses(const ir::LdsWrite &w, unsigned pitch, unsigned wave) {
  const Layout &l = w.src->layout;
  const ir::LdsBuffer &b = *w.dst;
  unsigned size = sizeOf(b.dtype);
  // The emitter's choice: the widest chunk of a vector whose address stays aligned from row to row and is one access
  // (LdsBuffer::writeChunk); into a transposed buffer, each column's run of consecutive rows of the lane
  // (LdsBuffer::transposedRun; 1: element by element).
  unsigned run = b.transposedRun(l);
  // `pitch` may be a trial pad's, not the buffer's: the chunk is computed for it.
  unsigned chunk = b.transposed ? run : b.writeChunk(l.vec, pitch);
  unsigned perAccess = b.transposed ? l.vec : l.vec / chunk;
  // A 12-byte write (vec 4 of a 3-byte element) reaches the banks as three dwords (ds_write2_b32 and ds_write_b32 in
  // the gfx950 compiler's output, test/ISA/gfx950-mx-gemm.test); into a slotted buffer it is one ds_write_b96 at the
  // slot's 16-byte aligned start (tilec::lds_store_slot), costed with a 16-byte write's phases (the target's table).
  bool slot = b.slotted();
  unsigned pieces = chunk * size == 12 && !slot ? 3 : 1, pieceBytes = chunk * size / pieces;
  std::vector<LdsLaneAccess> out;
  for (unsigned i = 0; i < l.rowsPerLane; i += b.transposed ? run : 1)
    for (unsigned part = 0; part < perAccess; ++part)
      for (unsigned piece = 0; piece < pieces; ++piece) {
        LdsLaneAccess a{true, pieceBytes, std::vector<std::optional<uint64_t>>(l.waveSize)};
        for (unsigned lane = 0; lane < l.waveSize; ++lane) {
          uint64_t row = l.firstRow(wave, lane) + i * l.rowStep(), col = l.firstCol(wave, lane);
          a.addr[lane] = (b.transposed ? b.byteOffset(b.placedRow(col + part), row, pitch)
                                       : b.byteOffset(b.placedRow(row), col + part * chunk, pitch)) +
                         piece * pieceBytes;
        }
        out.push_back(std::move(a));
      }
  return out;
}

std::vector<LdsLaneAccess> tilec::ldsReadAccesses(const ir::LdsRead &r, unsigned pitch, unsigned wave) {
  const Layout &l = r.dst->layout;
  const ir::LdsBuffer &b = *r.src;
  unsigned chunk = b.writeChunk(l.vec, pitch), bytes = chunk * sizeOf(b.dtype);
  std::vector<LdsLaneAccess> out;
  for (unsigned i = 0; i < l.rowsPerLane; ++i)
    for (unsigned part = 0; part < l.vec / chunk; ++part) {
      LdsLaneAccess a{false, bytes, std::vector<std::optional<uint64_t>>(l.waveSize)};
      for (unsigned lane = 0; lane < l.waveSize; ++lane) {
        uint64_t row = l.firstRow(wave, lane) + i * l.rowStep(), col = l.firstCol(wave, lane);
        a.addr[lane] = b.byteOffset(b.placedRow(row), col + part * chunk, pitch);
      }
      out.push_back(std::move(a));
    }
  return out;
}

std::vector<LdsLaneAccess> tilec::ldsFragmentAccesses(const ir::MMA &m, bool isA, unsigned pitch, unsigned wave,
                                                      unsigned waveSize) {
  const ir::AccTile &acc = *m.acc;
  // The operand's geometry in its own elements (operandView: a B of another column width than A's has its own runs);
  // kk walks A's columns, kkOf converts it.
  const MFMAInstr &ins = operandView(*acc.instr, !isA);
  const ir::LdsBuffer &b = isA ? *m.a : *m.b;
  unsigned perA = info(acc.instr->a).values, perOwn = info(ins.a).values;
  auto kkOf = [&](unsigned kk) { return kk * perA / perOwn; };
  unsigned size = sizeOf(b.dtype), blocks = isA ? acc.blocksY() : acc.blocksX(), side = isA ? ins.m : ins.n;
  unsigned origin = isA ? (wave / acc.wavesX) * acc.waveRows() : (wave % acc.wavesX) * acc.waveCols();
  std::vector<LdsLaneAccess> out;
  if (!isA && b.transposeReads) {
    // ds_read_b64_tr_b16 / _tr_b8 / _tr_b4 / ds_read_b96_tr_b6 (passes/LdsTransposeReads.h): TransposeReads::count
    // reads of 8 bytes (v = 4, 8 or 16 values; 12 bytes, 16 six-bit values) per fragment; lane l names row K_lane +
    // rowOffset(h) + (l % 16) / (16 / v), columns (16 (l / 16)) % n + v (l % (16 / v)) .. + v - 1 of its block, in N
    // values (an element holds perN of them). Costed with the phases of an 8-byte read (the 6-bit read with a 16-byte
    // read's): no source gives the instructions' own.
    const ir::TransposeReads tr = ir::transposeReadsOf(ins, b);
    unsigned lanesPerRow = 16 / tr.values, perK = info(ins.a).values, perN = info(b.dtype).values;
    unsigned bytes = Target::ldsTransposeReadBytes(valueBits(b.dtype));
    for (unsigned kk = 0; kk < m.k; kk += acc.instr->k)
      for (unsigned block = 0; block < blocks; ++block)
        for (unsigned h = 0; h < tr.count; ++h) {
          LdsLaneAccess a{false, bytes, std::vector<std::optional<uint64_t>>(waveSize)};
          for (unsigned lane = 0; lane < waveSize; ++lane) {
            uint64_t k = perK * (kkOf(kk) + (lane / ins.n) * ins.kRun()) + tr.rowOffset(h) + (lane % 16) / lanesPerRow;
            uint64_t col = origin + block * side + (16 * (lane / 16)) % side + tr.values * (lane % lanesPerRow);
            a.addr[lane] = b.byteOffset(k, col / perN, pitch);
          }
          out.push_back(std::move(a));
        }
    return out;
  }
  // One read per run of kRun() K values: run h of lane group g starts at K kk + kRun (g + G h) (one run: h = 0). The
  // 24-byte run of a 6-bit format is three 8-byte reads (tilec::lds_load_run24).
  unsigned run = ins.kRun(), pieces = ins.ldsReadsPerRun(), pieceBytes = run * size / pieces;
  for (unsigned kk = 0; kk < m.k; kk += acc.instr->k)
    for (unsigned block = 0; block < blocks; ++block)
      for (unsigned h = 0; h < ins.readsPerFragment(); ++h)
        for (unsigned piece = 0; piece < pieces; ++piece) {
          LdsLaneAccess a{false, pieceBytes, std::vector<std::optional<uint64_t>>(waveSize)};
          for (unsigned lane = 0; lane < waveSize; ++lane) {
            uint64_t row = origin + block * side + lane % side;
            uint64_t k = kkOf(kk) + (lane / ins.m + ins.kGroups() * h) * run;
            a.addr[lane] = (b.placedRow(row) * pitch + k) * size + piece * pieceBytes;
          }
          out.push_back(std::move(a));
        }
  return out;
}

namespace {

/// The costs of one statement's instructions, accumulated wave by wave.
struct Accumulator {
  const Target &target;
  LdsAccessCost out;
  /// Only the phases each access takes, its ideal, as its cycles too (no bank model): a lower bound of the cycles
  /// that the pad search filters its trial pads with.
  bool phasesOnly = false;
  unsigned waveCycles = 0, waveIdeal = 0;
  bool any = false;

  void add(unsigned wave, const LdsLaneAccess &a) {
    if (phasesOnly) {
      const LdsPhases *rule = target.ldsPhasesFor(a.write, a.bytes);
      if (!rule) return;
      uint64_t lanes = 0;
      for (unsigned lane = 0; lane < a.addr.size() && lane < 64; ++lane)
        if (a.addr[lane]) lanes |= uint64_t(1) << lane;
      unsigned phases = llvm::count_if(rule->phases, [&](uint64_t mask) { return (mask & lanes) != 0; });
      any = true;
      waveCycles += phases;
      waveIdeal += phases;
      out.worst.rule = rule;
      return;
    }
    std::optional<BankCost> c = ldsBankCost(target, a);
    if (!c) return;
    any = true;
    waveCycles += c->cycles;
    waveIdeal += c->ideal;
    if (!out.worst.rule || c->cycles - c->ideal > out.worst.cycles - out.worst.ideal) {
      out.worst = *c;
      out.worstWave = wave;
      out.worstAccess = a;
    }
  }
  void endWave() {
    if (waveCycles > out.cycles || !out.ideal) out.cycles = waveCycles, out.ideal = waveIdeal;
    waveCycles = waveIdeal = 0;
  }
};

unsigned pitchOf(const ir::Kernel &kernel, const ir::LdsBuffer &b, const std::vector<unsigned> *pads) {
  if (!pads) return b.pitch();
  for (unsigned i = 0; i < kernel.ldsBuffers.size(); ++i)
    if (kernel.ldsBuffers[i].get() == &b) return b.storedCols() + (*pads)[i];
  return b.pitch();
}

/// One register tile's LDS accesses (a write `lds = tile` or a read `tile = lds`), costed over every wave of its
/// distribution: `instructions(wave)` gives one wave's instructions as the emitter issues them.
template <typename Instructions>
LdsAccessCost tileAccessCost(const ir::LdsBuffer &b, const ir::Tile &tile, bool write, std::string what,
                             llvm::SMRange loc, unsigned pitch, const Target &target, bool phasesOnly,
                             Instructions instructions) {
  Accumulator acc{target, {}};
  acc.phasesOnly = phasesOnly;
  acc.out.buffer = &b;
  acc.out.write = write;
  acc.out.tile = &tile;
  acc.out.what = std::move(what);
  acc.out.loc = loc;
  acc.out.pitch = pitch;
  for (unsigned wave = 0; wave < tile.layout.waves; ++wave) {
    std::vector<LdsLaneAccess> instrs = instructions(wave);
    acc.out.instructions = instrs.size();
    acc.out.bytes = instrs.empty() ? 0 : instrs.front().bytes;
    acc.out.instruction = ldsInstructionName(write, acc.out.bytes);
    for (const LdsLaneAccess &a : instrs) acc.add(wave, a);
    acc.endWave();
  }
  return acc.out;
}

/// `lds = tile`, as the emitter writes it: per access the widest chunk whose address stays aligned from row to row
/// (element by element into a transposed buffer).
LdsAccessCost writeCost(const ir::LdsWrite &w, unsigned pitch, const Target &target, bool phasesOnly) {
  return tileAccessCost(*w.dst, *w.src, true, formatv("lds {0} = {1}", w.dst->name, w.src->name).str(), w.loc, pitch,
                        target, phasesOnly, [&](unsigned wave) { return ldsWriteAccesses(w, pitch, wave); });
}

/// `lds = value` of an accumulator's values, as the emitter writes them: per block and group of 4 values one write of
/// 4 elements, lane l at row l % m of the block and its 4 consecutive columns (16 x 16: 4 (l / 16); 32 x 32: 8 g +
/// 4 (l / 32) for group g).
LdsAccessCost accWriteCost(const ir::AccLdsWrite &w, unsigned pitch, const Target &target, bool phasesOnly) {
  const ir::AccTile &a = *w.value->acc;
  const MFMAInstr &ins = *a.instr;
  const ir::LdsBuffer &b = *w.dst;
  Accumulator acc{target, {}};
  acc.phasesOnly = phasesOnly;
  acc.out.buffer = &b;
  acc.out.write = true;
  acc.out.what = formatv("lds {0} = acc {1}'s values", b.name, a.name).str();
  acc.out.loc = w.loc;
  acc.out.pitch = pitch;
  for (unsigned wave = 0; wave < a.wavesY * a.wavesX; ++wave) {
    unsigned rowOrigin = wave / a.wavesX * a.waveRows(), colOrigin = wave % a.wavesX * a.waveCols();
    std::vector<LdsLaneAccess> instrs;
    for (unsigned bi = 0; bi < a.blocksY(); ++bi)
      for (unsigned bj = 0; bj < a.blocksX(); ++bj)
        for (unsigned g = 0; g < ins.accPerLane / 4; ++g) {
          LdsLaneAccess x{true, 4 * sizeOf(b.dtype), std::vector<std::optional<uint64_t>>(target.waveSize)};
          for (unsigned lane = 0; lane < target.waveSize; ++lane) {
            uint64_t row = rowOrigin + bi * ins.m + lane % ins.m;
            uint64_t col = colOrigin + bj * ins.n + (ins.m == 16 ? 4 * (lane / 16) : 8 * g + 4 * (lane / 32));
            x.addr[lane] = b.byteOffset(b.placedRow(row), col, pitch);
          }
          instrs.push_back(std::move(x));
        }
    acc.out.instructions = instrs.size();
    acc.out.bytes = 4 * sizeOf(b.dtype);
    acc.out.instruction = ldsInstructionName(true, acc.out.bytes);
    for (const LdsLaneAccess &x : instrs) acc.add(wave, x);
    acc.endWave();
  }
  return acc.out;
}

/// `tile = lds`, as the emitter reads it.
LdsAccessCost readCost(const ir::LdsRead &r, unsigned pitch, const Target &target, bool phasesOnly) {
  std::string what = formatv("{0} = {1}{2}{3}", r.dst->name, r.transpose ? "transpose(" : "", r.src->name,
                             r.transpose ? ")" : "").str();
  return tileAccessCost(*r.src, *r.dst, false, what, r.loc, pitch, target, phasesOnly,
                        [&](unsigned wave) { return ldsReadAccesses(r, pitch, wave); });
}

LdsAccessCost fragmentCost(const ir::MMA &m, bool isA, unsigned pitch, const Target &target, bool phasesOnly) {
  const ir::AccTile &acc = *m.acc;
  const ir::LdsBuffer &b = isA ? *m.a : *m.b;
  Accumulator sum{target, {}};
  sum.phasesOnly = phasesOnly;
  sum.out.buffer = &b;
  sum.out.what = formatv("fragment reads of {0} ({1} of {2})", b.name, isA ? "A" : "B", acc.instr->name).str();
  sum.out.loc = m.loc;
  sum.out.pitch = pitch;
  for (unsigned wave = 0; wave < acc.wavesY * acc.wavesX; ++wave) {
    std::vector<LdsLaneAccess> instrs = ldsFragmentAccesses(m, isA, pitch, wave, target.waveSize);
    sum.out.instructions = instrs.size();
    sum.out.bytes = instrs.empty() ? 0 : instrs.front().bytes;
    sum.out.instruction = !isA && b.transposeReads ? Target::ldsTransposeReadName(valueBits(b.dtype))
                                                   : ldsInstructionName(false, sum.out.bytes);
    for (const LdsLaneAccess &a : instrs) sum.add(wave, a);
    sum.endWave();
  }
  return sum.out;
}

void collect(const ir::Body &body, const ir::Kernel &kernel, const Target &target, const std::vector<unsigned> *pads,
             const ir::LdsBuffer *only, bool phasesOnly, std::vector<LdsAccessCost> &out) {
  for (const ir::StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<ir::For>(s.get())) {
      collect(f->body, kernel, target, pads, only, phasesOnly, out);
    } else if (auto *w = llvm::dyn_cast<ir::LdsWrite>(s.get())) {
      if (only && w->dst != only) continue;
      LdsAccessCost c = writeCost(*w, pitchOf(kernel, *w->dst, pads), target, phasesOnly);
      if (c.worst.rule) out.push_back(std::move(c));
    } else if (auto *w = llvm::dyn_cast<ir::AccLdsWrite>(s.get())) {
      if ((only && w->dst != only) || w->forwarded) continue;
      LdsAccessCost c = accWriteCost(*w, pitchOf(kernel, *w->dst, pads), target, phasesOnly);
      if (c.worst.rule) out.push_back(std::move(c));
    } else if (auto *r = llvm::dyn_cast<ir::LdsRead>(s.get())) {
      if (only && r->src != only) continue;
      LdsAccessCost c = readCost(*r, pitchOf(kernel, *r->src, pads), target, phasesOnly);
      if (c.worst.rule) out.push_back(std::move(c));
    } else if (auto *m = llvm::dyn_cast<ir::MMA>(s.get())) {
      if (!m->acc || !m->acc->instr) continue;
      for (bool isA : {true, false}) {
        if (only && (isA ? m->a : m->b) != only) continue;
        if (isA && m->aFrom) continue; // A from registers (passes/ForwardAccOperands.h)
        LdsAccessCost c = fragmentCost(*m, isA, pitchOf(kernel, isA ? *m->a : *m->b, pads), target, phasesOnly);
        if (c.worst.rule) out.push_back(std::move(c));
      }
    }
  }
}

} // namespace

std::vector<LdsAccessCost> tilec::ldsAccessCosts(const ir::Kernel &kernel, const Target &target,
                                                 const std::vector<unsigned> *pads, const ir::LdsBuffer *only,
                                                 bool phasesOnly) {
  std::vector<LdsAccessCost> out;
  collect(kernel.body, kernel, target, pads, only, phasesOnly, out);
  return out;
}

//===--- The warning ---===//

namespace {

/// "0-3, 20-23": the lanes of a mask as ranges.
std::string laneRanges(uint64_t mask) {
  std::string out;
  for (unsigned lane = 0; lane < 64;) {
    if (!(mask >> lane & 1)) {
      ++lane;
      continue;
    }
    unsigned end = lane;
    while (end + 1 < 64 && (mask >> (end + 1) & 1)) ++end;
    out += (out.empty() ? "" : ", ") + (end == lane ? std::to_string(lane) : formatv("{0}-{1}", lane, end).str());
    lane = end + 1;
  }
  return out;
}

/// The mma statements of `body` that read `b`.
void mmasReading(const ir::Body &body, const ir::LdsBuffer &b, std::vector<const ir::MMA *> &out) {
  for (const ir::StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<ir::For>(s.get())) mmasReading(f->body, b, out);
    else if (auto *m = llvm::dyn_cast<ir::MMA>(s.get()); m && (m->a == &b || m->b == &b)) out.push_back(m);
  }
}

/// Whether `pad` keeps every fragment read of `b` aligned (the rule SemaGEMM checks) and the kernel's LDS in budget.
bool padAllowed(const ir::Kernel &kernel, const Target &target, const ir::LdsBuffer &b, unsigned pad) {
  unsigned size = sizeOf(b.dtype), rowPitch = b.storedCols() + pad, rowBytes = b.rowBytes(rowPitch);
  // A K x N B read with transposing reads (every mma reads it so, passes/LdsTransposeReads.h) keeps each lane's read
  // aligned; other fragment reads need rows of whole runs.
  if (b.transposeReads) {
    if (!b.transposeReadRows(rowPitch)) return false;
  } else {
    std::vector<const ir::MMA *> mmas;
    mmasReading(kernel.body, b, mmas);
    for (const ir::MMA *m : mmas)
      if (m->acc->instr && rowBytes % (operandView(*m->acc->instr, m->b == &b).kRun() * size) != 0) return false;
  }
  uint64_t bytes = 0, trial = uint64_t(b.storedRows()) * rowBytes;
  for (const auto &l : kernel.ldsBuffers)
    bytes += l.get() == &b ? trial : l->bytes();
  // Buffers sharing one allocation (passes/ShareLds.h): at most what b grows by beyond it.
  if (kernel.ldsSharedBytes) bytes = kernel.ldsSharedBytes + (trial > b.bytes() ? trial - b.bytes() : 0);
  return bytes <= target.ldsBytesPerCU;
}

} // namespace

void sema::warnLdsBankConflicts(const ir::Kernel &kernel, const Target &target, DiagnosticEngine &diags,
                                LdsCyclesWithPads cyclesWithPads) {
  std::vector<LdsAccessCost> costs = ldsAccessCosts(kernel, target);
  std::vector<unsigned> pads;
  for (const auto &l : kernel.ldsBuffers) pads.push_back(l->pad);
  for (unsigned i = 0; i < kernel.ldsBuffers.size(); ++i) {
    const ir::LdsBuffer &b = *kernel.ldsBuffers[i];
    // The costliest conflicting access of this buffer, for the arithmetic.
    const LdsAccessCost *worst = nullptr;
    for (const LdsAccessCost &c : costs)
      if (c.buffer == &b && !c.conflictFree() && (!worst || c.cycles - c.ideal > worst->cycles - worst->ideal))
        worst = &c;
    if (!worst) continue;
    // The chosen layout's cycles: every access of the buffer as costed above.
    unsigned cycles = 0, ideal = 0;
    for (const LdsAccessCost &c : costs)
      if (c.buffer == &b) cycles += c.cycles, ideal += c.ideal;
    // The smallest pad with the fewest cycles; one bank row of the widest bank set covers every distinct pattern.
    // Pads past 64 banks of bytes repeat a pattern: 64 x bank bytes / gcd(size, that) pads cover them all (a 3-byte
    // element's 256 pads, not 256 / 3).
    unsigned size = sizeOf(b.dtype), bankRow = 64 * target.ldsBankBytes,
             span = bankRow / std::gcd(size, bankRow);
    // Each pad's ideal (its access widths; no layout moves it) bounds what the passes' layout can do with it, so
    // the costly search of that layout runs only where the bound beats the best so far: the pads of the lowest
    // ideal first, the smallest of equal cost winning. The bound counts phases only (no bank model): it was a third
    // of a compile costed in full (attention_fwd_d128_f16), and the pad chosen is the same whatever the order.
    std::vector<std::pair<unsigned, unsigned>> trials; // (ideal, pad)
    for (unsigned pad = 0; pad < span; ++pad) {
      if (pad == b.pad || !padAllowed(kernel, target, b, pad)) continue;
      std::vector<unsigned> trial = pads;
      trial[i] = pad;
      unsigned bound = 0;
      for (const LdsAccessCost &c : ldsAccessCosts(kernel, target, &trial, &b, /*phasesOnly=*/true)) bound += c.ideal;
      trials.push_back({bound, pad});
    }
    llvm::sort(trials);
    unsigned bestPad = b.pad, bestCycles = cycles, bestIdeal = ideal;
    for (auto [bound, pad] : trials) {
      if (bound > bestCycles || (bound == bestCycles && (bestPad == b.pad || pad > bestPad))) continue;
      std::vector<unsigned> trial = pads;
      trial[i] = pad;
      std::optional<std::pair<unsigned, unsigned>> c = cyclesWithPads(i, trial);
      if (c && (c->first < bestCycles || (c->first == bestCycles && bestPad != b.pad && pad < bestPad)))
        bestPad = pad, bestCycles = c->first, bestIdeal = c->second;
    }
    if (bestPad == b.pad) continue; // no pad does better: only a swizzle would
    const BankCost &w = worst->worst;
    // The first lanes that collide, with their bytes; the rest as a count.
    std::string lanes, bytes;
    unsigned shown = std::min<size_t>(w.worstLanes.size(), 4);
    for (unsigned j = 0; j < shown; ++j) {
      auto [lane, addr] = w.worstLanes[j];
      lanes += (j ? ", " : "") + std::to_string(lane);
      bytes += formatv("{0}{1} (dword {2})", j ? ", " : "", addr, addr / target.ldsBankBytes).str();
    }
    if (w.worstLanes.size() > shown) {
      lanes += formatv(" and {0} more", w.worstLanes.size() - shown).str();
      bytes += ", ...";
    }
    std::string message = formatv(
        "lds {0}: {1} makes '{2}' conflict in the LDS banks of {3}: each lane {4} {5} B ({6}) at {7}; in phase {8} "
        "(lanes {9}) lanes {10} need {11} distinct dwords of bank {12} of {13} (dword % {13}), bytes {14}: {27} "
        "{11}-way conflict{15}. Per wave that statement takes {16} LDS cycles where {17} would do, and all accesses "
        "of {0} take {18} (ideal {19}); pad {20} (rows of {21} + {20} = {22} {23}) {24}: {25} cycles (ideal {26})",
        b.name, b.padLoc ? formatv("pad {0}", b.pad).str() : std::string("no pad"), worst->what, target.name, worst->write ? "writes" : "reads", worst->bytes,
        worst->instruction,
        b.slotted() ? formatv("stored row x {0} B + (stored column / 4) x 16 B (16-byte slots of 4 {1})",
                              b.rowBytes(worst->pitch), name(b.dtype)).str()
                    : formatv("(stored row * {0} + stored column) x {1} B", worst->pitch, size).str(),
        w.worstPhase,
        laneRanges(w.rule->phases[w.worstPhase]), lanes, w.ways, w.worstBank, w.rule->banks, bytes,
        !w.rule->measured ? " (these phases are inferred, not measured: docs/performance.md)"
        : worst->instruction != ldsInstructionName(worst->write, worst->bytes)
            ? formatv(" (costed with the phases of {0}: no source gives {1}'s own)",
                      ldsInstructionName(worst->write, worst->bytes), worst->instruction).str()
            : "",
        worst->cycles,
        worst->ideal, cycles, ideal, bestPad, b.storedCols(), b.storedCols() + bestPad, name(b.dtype),
        bestCycles == bestIdeal ? "avoids it" : "reduces it", bestCycles, bestIdeal,
        w.ways == 8 || w.ways == 11 || w.ways == 18 ? "an" : "a");
    diags.warning(b.padLoc ? *b.padLoc : b.loc, message);
  }
}
