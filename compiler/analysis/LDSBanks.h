//===- LDSBanks.h - LDS bank conflicts of the accesses tilec emits ---------===//
//
// The LDS of gfx942 and gfx950 is split into 4-byte banks; one LDS instruction of a wave is serviced in phases (groups of
// lanes, Target::ldsPhases), and within a phase lanes that need different dwords of one bank are serialised. This file
// has the model (per-lane byte addresses of one instruction -> cycles against the ideal, with the worst bank) and
// applies it to what tilec emits for `lds = tile` writes and for the fragment reads of `acc += mma(..)`, using the same
// address formulas as the HIP emitter (row * pitch + column, pitch = stored columns + pad). Sema uses it to warn about
// a pad whose accesses conflict when another pad would not; the report lists every access with its cost. Every address
// goes through LdsBuffer::byteOffset, so a buffer's column XOR (passes/LdsSwizzle.h) is costed as emitted.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LDSBANKS_H
#define TILEC_LDSBANKS_H

#include "ir/IR.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "support/Diagnostics.h"
#include "target/Target.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// One LDS instruction of one wave: each lane's byte address (std::nullopt: the lane does not take part) and the
/// bytes every lane moves.
struct LdsLaneAccess {
  bool write = false;
  unsigned bytes = 0;
  std::vector<std::optional<uint64_t>> addr; ///< one entry per lane
};

/// What one LDS instruction costs under the target's bank model.
struct BankCost {
  const LdsPhases *rule = nullptr;
  unsigned cycles = 0; ///< sum over phases of the most distinct dwords any one bank serves in that phase
  unsigned ideal = 0;  ///< phases with an active lane: one cycle each when nothing conflicts
  unsigned ways = 0;   ///< the worst phase's cycles: an N-way conflict (1: none)
  unsigned worstPhase = 0, worstBank = 0;
  /// Lanes of the worst phase that need distinct dwords of worstBank (the first lane for each dword), with the byte
  /// address each one uses.
  std::vector<std::pair<unsigned, uint64_t>> worstLanes;
  /// Every lane of the worst phase whose dword shares its bank with another distinct dword there (all the lanes the
  /// conflict delays, lanes that share a dword included), in order; empty when the worst phase has no conflict.
  std::vector<unsigned> worstPhaseConflicts;
  /// Per bank, the distinct dwords it serves in the worst phase: its cycles there (the phase takes the largest).
  std::vector<unsigned> worstPhaseBankDwords;
  bool conflictFree() const { return cycles == ideal; }
};

/// The cost of `access` on `target`: every lane's bytes split into dwords, dword d in bank d % banks; in each phase a
/// bank serves one distinct dword per cycle (lanes reading the same bytes of one dword share it). Two lanes touching
/// different bytes of one dword count as two (conservative: documented only for reads of one half). std::nullopt when
/// the target has no phases for this width.
std::optional<BankCost> ldsBankCost(const Target &target, const LdsLaneAccess &access);

/// The LDS writes tilec emits for `lds = tile` in wave `wave`, in program order, with byte addresses inside the buffer
/// (rows of `pitch` elements): per access of the tile the widest chunk whose address stays aligned from row to row
/// (row * pitch + column), element by element into a transposed buffer ((column + e) * pitch + row).
std::vector<LdsLaneAccess> ldsWriteAccesses(const ir::LdsWrite &write, unsigned pitch, unsigned wave);
/// The reads tilec emits for `tile = lds` (or `= transpose(lds)`, from a buffer stored transposed) in wave `wave`:
/// per access of the tile the widest chunk whose address stays aligned from row to row, at stored row `row` (placed)
/// and column `col` of the tile's own element.
std::vector<LdsLaneAccess> ldsReadAccesses(const ir::LdsRead &read, unsigned pitch, unsigned wave);
/// The fragment reads of operand A (isA) or B of `mma` in wave `wave`: per K step of the instruction and per block row
/// (A) or column (B), lane l reads kPerLane values of stored row origin + block * m + l % m at K = kk + (l / m) *
/// kPerLane, the wave's origin being its part of the accumulator.
std::vector<LdsLaneAccess> ldsFragmentAccesses(const ir::MMA &mma, bool isA, unsigned pitch, unsigned wave,
                                               unsigned waveSize);

/// One kind of LDS instruction that tilec emits for a statement, costed over every wave.
struct LdsAccessCost {
  const ir::LdsBuffer *buffer = nullptr;
  bool write = false;
  const ir::Tile *tile = nullptr; ///< the tile a write stores
  std::string what;          ///< e.g. "lds sA = a" or "fragment reads of sA (A of v_mfma_f32_32x32x8_f16)"
  llvm::SMRange loc;         ///< the statement
  unsigned bytes = 0;        ///< per lane and instruction
  std::string instruction;   ///< e.g. "ds_write_b64", or "ds_read_b64_tr_b16" for transposing fragment reads
  unsigned instructions = 0; ///< per wave and execution of the statement
  unsigned cycles = 0, ideal = 0; ///< summed over one wave's instructions (the costliest wave)
  BankCost worst;            ///< the costliest single instruction
  unsigned worstWave = 0;    ///< the wave it belongs to
  LdsLaneAccess worstAccess; ///< its lanes' addresses (the HTML report draws the bank map of its worst phase)
  unsigned pitch = 0;        ///< elements per stored row used for the addresses
  bool conflictFree() const { return cycles == ideal; }
};

/// Every LDS write and fragment read of `kernel`, with `pads` (one per kernel.ldsBuffers entry, in order) in place of
/// the declared pads when given, only those of buffer `only` when given. Accesses whose width the target table lacks
/// are left out. `phasesOnly`: each statement's cycles and ideal are the phases its instructions take in the wave that
/// takes the most (no bank model), a lower bound of its cycles; its worst access is not filled in.
std::vector<LdsAccessCost> ldsAccessCosts(const ir::Kernel &kernel, const Target &target,
                                          const std::vector<unsigned> *pads = nullptr,
                                          const ir::LdsBuffer *only = nullptr, bool phasesOnly = false);

/// "ds_write_b64" etc.: the instruction of one lane moving `bytes` (what tilec asks for; clang may pair two of them
/// into ds_read2_b64 / ds_write2_b64).
std::string ldsInstructionName(bool write, unsigned bytes);

namespace sema {
/// LDS cycles per wave (and their ideal) of every access of buffer `index` of a kernel with `pads` (one per buffer) in
/// place of the declared pads, under the layout the passes would choose with them (passes/LdsSwizzle.h,
/// ldsCyclesWithPads); std::nullopt when nothing of it is costed.
using LdsCyclesWithPads =
    llvm::function_ref<std::optional<std::pair<unsigned, unsigned>>(unsigned index, const std::vector<unsigned> &pads)>;
/// Warns at the pad (or the name) of each LDS buffer whose emitted writes or reads have bank conflicts, in the layout
/// the passes chose, when another pad that keeps the fragment reads aligned costs fewer cycles in the layout they
/// would choose with it (`cyclesWithPads`): the conflicting access with its lanes, banks and conflict degree, and the
/// pad that avoids it. Run after the LDS swizzle pass.
void warnLdsBankConflicts(const ir::Kernel &kernel, const Target &target, DiagnosticEngine &diags,
                          LdsCyclesWithPads cyclesWithPads);
} // namespace sema

} // namespace tilec

#endif
