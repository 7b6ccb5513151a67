//===- ResourceModel.cpp - Estimating registers and LDS ---------------------===//
//
// The model, per lane unless said otherwise:
//   ArchVGPRs: each register tile holds R accesses of ceil(vec * bytes / 4) registers while it is live (the peak over
//   the statements counts; see livePeak); the statement with the most temporaries (loads inside expressions, computed
//   values wider than what they consume, such as a cast<f32> of an fp8 tile inside an expression (a statement
//   y = cast<f32>(x) widens into y itself) or a conversion through f32, a stored
//   expression's value; a software fp8 conversion counts every access, see scan) adds those; the rows of the accesses
//   that several statements share are kept (keptRows); each other distinct distribution keeps its lane's row and
//   column (2); the access in flight needs a 64-bit address and its row and column (4); the thread id (1). The
//   _unaligned kernel adds its element paths at row ends (allElementPaths with an mma, 4 without).
//   The figures behind each item were measured against clang-19 for gfx942 on the random kernels of seed 1 of
//   test/Differential (docs/differential-testing.md).
//   SGPRs (per wave): the kernel-argument pointer (2), the workgroup ids (2), each tensor pointer (2) and scalar
//   argument (1), the block origin (2), per run-time alignment check a lane mask (2), per loop its counter and bound
//   (2), and the saved exec mask of the masked accesses (2).
//   AGPRs: the accumulator tiles' values (blocks per wave x values per lane); clang may place some in ArchVGPRs.
//   The widest statement includes an mma's A and B fragments (one per block row and column, for up to four K steps).
//   LDS: each buffer, stored rows x (contiguous extent + pad) x element size, times its stages (2 when a pipelined K
//   loop double-buffers it). A pipelined K loop's prefetch keeps the loaded tiles live during the mma, which the model
//   already counts (tiles used in a loop are live across all of it); clang-19 also keeps a 64-bit address per
//   prefetched access (it turns them into pointer increments) and the bounds of the masked remaining steps: 2 per
//   access + 8 (measured on the gfx942 examples: gemm_f16 76 ArchVGPRs with pipeline 2 against 58 with pipeline 1,
//   gemm_i8 48, gemm_f32 32; the model gives 73, 43, 35). A main loop ordered for the MFMA pipe (KLoopPlan::schedule)
//   reads every fragment of a step before its first MFMA and writes the next step's tiles to LDS while the last
//   fragments are still live: every fragment of the step is live at once, where clang-19 otherwise reads 2
//   instruction K steps at a time (gemm_f16 66 -> 82 ArchVGPRs, gemm_f16 with tile b warp_raked 74 -> 90; gemm_i8,
//   2 K steps, 64 -> 64 in all; gfx950's compiler holds no more than the step's fragments, Target.h). A K
//   loop of depth 1 keeps a 64-bit address per row it loads across its iterations; a single K step known at compile
//   time has no loop (KLoopResources.cpp).
// Clang's real figures for the examples are printed beside these by test/ISA/resources.test.
//
//===----------------------------------------------------------------------===//
#include "analysis/ResourceModel.h"

#include "analysis/AccessPlan.h"
#include "analysis/EpilogueRegisters.h"
#include "analysis/KLoopResources.h"
#include "analysis/KeptRows.h"
#include "analysis/Liveness.h"
#include "analysis/ValueRegisters.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <functional>
#include <map>

using namespace tilec;
using llvm::formatv;

unsigned tilec::tileVGPRs(const ir::Tile &tile) {
  const Layout &l = tile.layout;
  return l.rowsPerLane * ((l.bytesPerAccess() + 3) / 4);
}

namespace {

/// Whether `body` reduces a tile (a Reduce statement, in loops too).
bool reduces(const ir::Body &body) {
  return llvm::any_of(body, [](const ir::StmtPtr &s) {
    if (llvm::isa<ir::Reduce>(s.get())) return true;
    auto *f = llvm::dyn_cast<ir::For>(s.get());
    return f && reduces(f->body);
  });
}

struct Widest {
  const Target *target = nullptr;
  bool unalignedVariant = false; ///< scanning for the _unaligned kernel (a staged loop runs depth 2 there)
  unsigned vgprs = 0;
  llvm::SMRange loc;
  const ir::For *loop = nullptr; ///< the innermost loop around the widest statement
  unsigned loops = 0;
};

/// Registers of the element-by-element path of the _unaligned kernel where a vector crosses the end of a row: each
/// of the vec elements of every access sits in its own register before they are packed. One-byte elements are the
/// exception: clang merges each byte into its dword as it arrives (v_perm_b32 / v_lshl_or_b32), so an access needs
/// one more register per dword, not per byte (measured, VGPR + AGPR of the _unaligned kernel over the vector one:
/// gemm_i8 +4 with clang-19 for gfx942 and +4 with the gfx950 compiler, gemm_fp8 +0 and +28, where a register per
/// byte would be +24 and +48).
/// Three-byte elements (fp6x4) arrive as a byte and a short load each, shifted across dword boundaries: 2 registers
/// per element. Measured with the gfx950 compiler on the 26 six-bit MX GEMMs of seed 1 of test/Differential
/// (26 Nov 2026): the _unaligned kernel over the vector one, per element of its element paths, 1.7 to 3.0, median
/// 2.3; 2.5 would refuse 5 of them for ArchVGPRs the compiler builds without scratch (it moves values to AGPRs at
/// one wave). Counted as for the other formats, gemm_mxfp6_gfx950_unaligned with K steps of 128 values was 223
/// VGPR + AGPR against 256 and 176 B of scratch.
unsigned elementPath(const ir::Kernel &k, const ir::Tensor &t, const Layout &l) {
  if (k.divisible(t.cols, l.vec) && (!t.stride || k.divisible(*t.stride, l.vec))) return 0;
  unsigned packed = registersPerAccess(l.vec, t.dtype);
  if (sizeOf(t.dtype) == 1) return l.accessesPerLane() * packed;
  if (sizeOf(t.dtype) == 3) return l.accessesPerLane() * 2 * l.vec;
  return l.vec > packed ? l.accessesPerLane() * (l.vec - packed) : 0;
}

unsigned elementPaths(const ir::Kernel &k, const ir::Value &v) {
  unsigned n = v.kind == ir::Value::Kind::Load ? elementPath(k, *v.tensor, *v.layout) : 0;
  for (const auto &op : v.operands) n += elementPaths(k, *op);
  return n;
}

/// Registers of all element paths of the _unaligned kernel: clang issues the element loads of every access together
/// (as it does the vector loads), so they are counted as live at once (measured on the GEMM examples: within 10%;
/// an over-estimate for a copy, whose load and store paths do not overlap). Accumulator stores are left out: they go
/// one 4-value group at a time.
/// Registers one A (or B) fragment of `m` holds until its MFMA: the instruction's operand (MFMA.h: fp4 4, fp8 8), but
/// 8 for a 6-bit format read from rows, whose 24 bytes arrive as three 8-byte reads into registers of their own before
/// they are the operand's 6 (gemm_mxfp6_gfx950: LLVM 22 156 VGPRs, the model 139 with 6 per fragment, 155 with 8). A
/// 6-bit B read with ds_read_b96_tr_b6 lands in the operand's registers, 3 at a time: 6 (gemm_mxfp6_kn_gfx950 at
/// K steps of 128 values: LLVM 22 195, the model 239 with 8, 223 with 6; the same 2 waves).
unsigned fragmentRegisters(const ir::MMA &m, bool b) {
  const MFMAInstr &instr = *m.acc->instr;
  bool rowReads6 = valueBits(b ? instr.b : instr.a) == 6 && !(b && m.b->transposeReads);
  return instr.scaled && rowReads6 ? 8 : instr.operandRegisters(b);
}

/// The registers of one instruction K step's fragments: one A fragment per block row, one B per block column.
unsigned stepFragmentRegisters(const ir::MMA &m) {
  return m.acc->blocksY() * fragmentRegisters(m, false) + m.acc->blocksX() * fragmentRegisters(m, true);
}

unsigned allElementPaths(const ir::Kernel &k, const ir::Body &body) {
  unsigned n = 0;
  for (const ir::StmtPtr &s : body) {
    if (auto *a = llvm::dyn_cast<ir::Assign>(s.get())) n += elementPaths(k, *a->value);
    else if (auto *st = llvm::dyn_cast<ir::Store>(s.get()); st && !st->value->acc)
      n += elementPaths(k, *st->value) + elementPath(k, *st->tensor, *st->value->layout);
    else if (auto *f = llvm::dyn_cast<ir::For>(s.get())) n += allElementPaths(k, f->body);
  }
  return n;
}

void scan(const ir::Kernel &k, const ir::Body &body, Widest &w, const ir::For *loop = nullptr) {
  unsigned wavePartials = 0; // of consecutive reductions across waves, which clang combines after the last one
  for (const ir::StmtPtr &s : body) {
    unsigned n = 0;
    auto *reduce = llvm::dyn_cast<ir::Reduce>(s.get());
    if (!reduce || !reduce->plan || reduce->plan->waves == 1) wavePartials = 0;
    if (auto *a = llvm::dyn_cast<ir::Assign>(s.get())) {
      n = a->value->kind == ir::Value::Kind::Load ? 0 : valueTemporaries(*a->value, a->dst->layout.vec);
      // y = cast<f32>(x) of an fp8/bf8 tile, or of a load of fp8/bf8: the widened values are y's own registers,
      // already counted with the tiles (clang-19, vec 4 on 64 threads, 8, 16 and 32 accesses: 37, 69 and 133
      // ArchVGPRs either way; counted again per access, the model said 63, 119 and 231).
      const ir::Value &v = *a->value;
      bool plain = v.kind == ir::Value::Kind::Cast && (v.operands[0]->kind == ir::Value::Kind::TileRef ||
                                                       v.operands[0]->kind == ir::Value::Kind::Load);
      if (plain && v.dtype == DType::F32 && isFp8(v.operands[0]->dtype)) n = 0;
      // An fp8/bf8 conversion is a long software sequence per element (tilec::f32_to_fp8, fp8_to_f32). Measured on
      // seed 1 of test/Differential (clang-19, gfx942):
      // - Where it widens one tile's 8-bit values, or decodes two tiles into a plain result, clang computes the f32
      //   values of every access before it encodes or stores any: the temporaries of all accesses are live together
      //   (y = cast<bf8>(x) from i8, 8 accesses of vec 16: 8 x 12 = 96 beyond the tiles, clang 142, model 142;
      //   y = cast<i8>(cast<f32>(x) + cast<f32>(z)) on bf8, 4 accesses: 4 x 24, clang 137, model 137).
      // - Where two 8-bit tiles are combined and encoded again, it goes one access at a time but keeps the encoded
      //   result of every access while the operands are still live: the born tile counts on top of the dying ones
      //   (cast<bf8>(cast<f32>(x) + cast<f32>(z)), 2 accesses of vec 16: one access 47, + y 8 + 1 = 56, clang 55;
      //   every access would be 71). With more accesses it decodes the next while it encodes this one: a share of a
      //   second access's temporaries, (accesses - 2) / 6 of them, all from 8 on (cast<fp8>(x + z) on i8, 4
      //   accesses of vec 16: 70 + 12 x 2 / 6 = 74, clang 75; the cast<bf8> above with 8 accesses: 134 + 24 = 158,
      //   clang 157; of vec 4: 38 + 6 = 44, clang 41).
      // - From f16 it does not widen every access (y = cast<fp8>(x + z) on f16, 16 accesses of vec 4: clang 87, one
      //   access counted 87).
      if (widensEveryAccess(*a->value)) {
        unsigned accesses = a->dst->layout.accessesPerLane();
        if (encodesFp8(*a->value) && tilesRead(*a->value) >= 2)
          n += tileVGPRs(*a->dst) + n * (std::min(accesses, 8u) - std::min(accesses, 2u)) / 6;
        else n *= accesses;
      }
      // The encoder needs a working register beyond the f32 values (seed 1: encodes of one element per lane, clang
      // 8 and 9 VGPRs for a model of 7 and 8 without it).
      if (encodesFp8(*a->value)) n += 1;
    } else if (auto *m = llvm::dyn_cast<ir::MMA>(s.get())) {
      // One A fragment per block row and one B fragment per block column, each kPerLane values, for up to four K
      // steps: the K loop is unrolled and clang-19 issues the LDS reads of about four steps ahead of the MFMAs
      // (measured on gemm_f16 with 32 and 64 K per mma: 56 and 72 ArchVGPRs, modelled 57 and 73).
      const ir::AccTile &a = *m->acc;
      // A staged loop's vector kernel (depth 3) reads each instruction K step during the MFMAs of the one before;
      // LLVM 22 holds up to three (gfx950, the gfx942 GEMM examples compiled for it: gemm_f16 138 VGPRs, the model
      // 125 with two steps, 133 with three; gemm_fp8 118, the model 135 with four, 123 with three).
      bool staged = loop && loop->plan && loop->plan->depth == 3 && !w.unalignedVariant;
      // Rotated, the next step's instruction K step 0 is read during the last one: a 2-step mma holds 3 (seed
      // 20261123 of test/Differential on gfx950: k0011, fp8 with 5 fragments of 2 dwords a step, LLVM 22 130 VGPRs,
      // the model 124 with 2 steps; k0022, bf16 16 x 16 with 9, 128 against 115).
      unsigned kSteps = m->k / a.instr->k;
      // In a plain loop (attention's loop over K/V blocks: each mma restarts or runs once a step) the compiler reads
      // ahead as far as the target's table says (Target::plainLoopFragmentSteps).
      unsigned ahead = loop && !loop->plan ? w.target->plainLoopFragmentSteps : 4u;
      unsigned steps = staged ? std::min(kSteps + 1, 3u) : std::min(kSteps, ahead);
      // A read before the loop (MMA::aHoisted) is counted there, with the loop's own registers.
      n = (m->aHoisted ? a.blocksX() * fragmentRegisters(*m, true) : stepFragmentRegisters(*m)) * steps;
      // A B fragment read transposed in two or more parts is put together from them while the next parts arrive: a
      // fragment's copy per block column (staged: gemm_f16_kn_gfx950, LLVM 22 148 VGPRs, the model 133 without it;
      // the scaled ones: gemm_mxfp4_kn_gfx950 160, 153 without it; mx_mixed.tile's mix_f4f8kn 190, 181 without it;
      // seed 1 of test/Differential, its MX GEMMs on gfx950: 139 of 166 kernels meet the criterion, 132 without it).
      // It over-counts where a step has one instruction K step and many block columns (test/Emulator/mx-gemm.test's
      // 16 x 16 bf6 K x N at one instruction K step a step: LLVM 22 221, the model 249, 217 without it; the same
      // waves; at two, staged, 215 against 217 with it and 193 without). An operand of more than 4 registers of the
      // 32 x 32 f8f6f4 form is read straight into place: gemm_fp8_kn_gfx950 (fp8, four ds_read_b64_tr_b8 a fragment)
      // LLVM 22 202, the model 234 with the copy, 218 without; gemm_mxfp6_kn_gfx950 (two ds_read_b96_tr_b6) 195, 223
      // and 211. The 16 x 16 form's is not (seed 20261123 of test/Differential, k0044, bf8 B of 16x16x128: 144, the
      // model 131 with the copy, 123 without).
      const unsigned bRegisters = fragmentRegisters(*m, true);
      bool inPlace = bRegisters > 4 && a.instr->m == 32;
      if (m->b->transposeReads && transposeReadsOf(operandView(*a.instr, true), *m->b).count > 1 && !inPlace)
        n += a.blocksX() * bRegisters;
      // A scaled mma: its scale chunks per block row and column (ir::ScaleLoads::registersPerRow), read from LDS with
      // the fragments (staged through LDS) or loaded by the lane; twice where the next step's are live during this
      // step's MFMAs: a staged step (read after its barrier), or lane-loaded ones in a depth-2 loop without an ordered
      // step (the next step's loads come first). (Before the chunks, one byte register per fragment and instruction
      // K step, and a second for 6-bit operands, were fitted on seed 1 of test/Differential.)
      // An f8f6f4 mma without block scales: its unit scale (E8M0 127) in one register, since LLVM takes the scale
      // operands from VGPRs only.
      if (a.instr->scaled && !m->scaleA) n += 1;
      if (m->scaleA) {
        const ir::KLoopPlan *p = loop ? loop->plan.get() : nullptr;
        bool nextLive = m->scaleLoads.ldsA ? staged
                                           : staged || (p && p->depth == 2 && !p->schedule && prefetches(*loop));
        n += (a.blocksY() + a.blocksX()) * m->scaleLoads.registersPerRow() * (nextLive ? 2 : 1);
      }
    } else if (auto *st = llvm::dyn_cast<ir::Store>(s.get())) {
      if (st->value->acc) continue;
      unsigned vec = st->value->layout->vec;
      // The stored value is computed into registers of its own (unless it is a tile).
      n = std::max(valueTemporaries(*st->value, vec),
                   st->value->kind == ir::Value::Kind::TileRef ? 0 : registersPerAccess(vec, st->tensor->dtype));
    } else if (auto *r = llvm::dyn_cast<ir::Reduce>(s.get())) {
      // The value of one access, then the partial and the value moved from another lane: 2 registers per result
      // of a row, 2 per column of the lane's vector plus the value of one column moved across lanes.
      // Along rows, clang-19 runs the cross-lane steps of a lane's R rows side by side: each row's partial and the
      // partner value it receives (the ds_swizzle result) are live together, R registers beyond the reduced tile.
      // Measured on rmsnorm_f16 with R = 1, 2, 4, 8, 16 rows per lane: clang-19 14, 21, 35, 63, 119 ArchVGPRs, the
      // model 13, 19, 31, 55, 103 without them; the gfx950 compiler 35 for R = 4.
      unsigned vec = r->value->layout ? r->value->layout->vec : 4; // an accumulator's values, 4 at a time
      bool crossLane = r->plan && !r->plan->steps.empty();
      n = valueTemporaries(*r->value, vec) +
          (r->axis == 1 ? 2 + (crossLane ? r->dst->values() : 0) : 2 * vec + 1);
      // Across waves clang loads the partials of all the waves of a result at once and adds them in wave order
      // (rmsnorm_wide_f16, 16 waves per row: four ds_read_b128 into 16 VGPRs with clang-22), after the values above
      // are dead: the waves' partials and the total.
      // Consecutive ones (the two sums of add_rmsnorm_f16's ss = sum(...) + sum(...)) keep all their partials until
      // the statement after them combines the totals: 2 x 16 partials loaded before the first add, with clang-22.
      if (r->plan && r->plan->waves > 1) {
        wavePartials += r->plan->waves;
        n = std::max(n, wavePartials + 1);
      }
    } else if (auto *ra = llvm::dyn_cast<ir::ReducedAssign>(s.get())) {
      // Element by element over the lane's results: the temporaries of one result (one vector along columns).
      n = valueTemporaries(*ra->value, ra->dst->axis == 1 ? 1 : ra->dst->source->vec);
    } else if (auto *aa = llvm::dyn_cast<ir::AccAssign>(s.get())) {
      n = valueTemporaries(*aa->value, 4); // in place, 4 values at a time (a group of the C/D layout)
    } else if (auto *aw = llvm::dyn_cast<ir::AccLdsWrite>(s.get())) {
      n = valueTemporaries(*aw->value, 4); // a group of 4 values per write
    } else if (auto *f = llvm::dyn_cast<ir::For>(s.get())) {
      ++w.loops;
      scan(k, f->body, w, f);
    }
    if (n > w.vgprs) w.vgprs = n, w.loc = s->loc, w.loop = loop;
  }
}

/// The estimate with the accumulators in AGPRs (`accsInAgprs`) or in ArchVGPRs; estimateResources picks the one the
/// compiler will choose.
ResourceEstimate estimate(const ir::Kernel &k, const Target &t, bool unalignedVariant, bool accsInAgprs) {
  ResourceEstimate e;
  e.accumulatorsInAgprs = accsInAgprs;
  auto vgpr = [&](std::string what, unsigned n, llvm::SMRange loc = {}) {
    if (n) e.vgprItems.push_back({std::move(what), n, loc}), e.archVgprs += n;
  };
  auto sgpr = [&](std::string what, unsigned n) {
    if (n) e.sgprItems.push_back({std::move(what), n, {}}), e.sgprs += n;
  };

  Widest widest;
  widest.target = &t;
  widest.unalignedVariant = unalignedVariant;
  scan(k, k.body, widest);
  // The tiles live together at their peak, and the widest statement's temporaries beside them. Where the widest
  // statement is in a plain loop and the tiles' peak lies outside it (attention's q, loaded and written to LDS
  // before the loop over K/V blocks), the two never meet: the tiles live in that loop count, unless the peak
  // outside it is larger than those and the temporaries together.
  std::vector<const ir::Tile *> peak = livePeak(k);
  if (widest.loop && !widest.loop->plan) {
    auto regs = [](const std::vector<const ir::Tile *> &tiles) {
      unsigned n = 0;
      for (const ir::Tile *t : tiles) n += tileVGPRs(*t);
      return n;
    };
    // Tiles loaded one step ahead are counted through the loop below.
    std::vector<const ir::Tile *> inLoop = livePeak(k, widest.loop);
    for (auto [a, f] : loadedAhead(k.body)) llvm::erase(inLoop, a->dst);
    if (regs(inLoop) + widest.vgprs >= regs(peak)) peak = inLoop;
  }
  for (const ir::Tile *tile : peak) {
    if (std::optional<DType> as = convertedOnce(k, *tile)) {
      unsigned perAccess = registersPerAccess(tile->layout.vec, *as);
      vgpr(formatv("tile {0}: {1} accesses x {2}, held as cast<{3}>({0}), the only way it is read (converted once)",
                   tile->name, tile->layout.accessesPerLane(), perAccess, name(*as)),
           tile->layout.accessesPerLane() * perAccess, tile->loc);
      continue;
    }
    vgpr(formatv("tile {0}: {1} accesses x {2}", tile->name, tile->layout.accessesPerLane(),
                 registersPerAccess(tile->layout.vec, tile->dtype)),
         tileVGPRs(*tile), tile->loc);
  }
  // Tiles loaded one step ahead (passes/RotateLoopLoads.h) hold the next step's values through every statement of the
  // loop, the widest among them (attention_fwd_f16, LLVM 22: 123 VGPRs with kt and v loaded ahead, 115 without).
  for (auto [a, f] : loadedAhead(k.body))
    vgpr(formatv("tile {0}: loaded one step ahead, live through the loop over {1}", a->dst->name, f->var),
         tileVGPRs(*a->dst), a->dst->loc);
  // A's fragments read before a loop (passes/HoistFragments.h) are live through all of it.
  for (const ir::StmtPtr &s : k.body)
    if (auto *r = llvm::dyn_cast<ir::FragmentRead>(s.get())) {
      const ir::MMA &m = *r->mma;
      unsigned steps = m.k / m.acc->instr->k, regs = fragmentRegisters(m, false);
      vgpr(formatv("A fragments of acc {0}'s mma, read before the loop and kept through it: {1} K steps x {2} block "
                   "rows x {3}", m.acc->name, steps, m.acc->blocksY(), regs),
           steps * m.acc->blocksY() * regs, m.loc);
    }
  // Reduced tiles live from their first reduction to their last use: those live at once count (softmax's m dies in
  // p = exp(x - m) before s = sum(p) is born).
  for (const ir::ReducedTile *r : reducedPeak(k))
    vgpr(formatv("reduced tile {0}: {1} {2} per lane", r->name, r->values(), r->axis == 1 ? "rows" : "columns"),
         r->registers(), r->loc);
  vgpr("temporaries of the widest statement", widest.vgprs, widest.loc);
  KeptRows kept = keptRows(k);
  const std::string keptRowsItem = "rows of the accesses, kept between the statements that share them";
  vgpr(keptRowsItem, kept.vgprs);
  unsigned elementPaths = 0;
  if (unalignedVariant) {
    // Without an mma, the element paths are branches of their own (the `else` of each access) that clang-19 runs
    // one at a time in a few registers: the _unaligned kernel of a copy or an elementwise kernel needed 0 to 7 more
    // VGPRs than the vector kernel on seed 1 of test/Differential (4 or 5 in most), whatever the number and width
    // of the accesses (the model counted up to 192: f16[256, 256] on 512 threads, 16 accesses of vec 8, clang +5).
    // With an mma (loads of A and B in the K loop) they are issued together and all count. LLVM 22 spends more on
    // them where the kernel has no reduction, on both targets (Target::elementPathVgprs).
    elementPaths = !k.accs.empty() ? allElementPaths(k, k.body) : reduces(k.body) ? 4 : t.elementPathVgprs;
    // Where the accumulators are in ArchVGPRs, gfx950's compiler spends next to nothing on them (Target.h); in the
    // AGPR form (a kernel held to 1 wave, estimateResources) every element counts, as clang-19 counted them.
    bool threeByte = llvm::any_of(k.tensors, [](const auto &x) { return sizeOf(x->dtype) == 3; });
    bool packed = llvm::any_of(k.tensors, [](const auto &x) { return sizeOf(x->dtype) == 1 && valueBits(x->dtype) == 4; });
    if (!k.accs.empty() && t.mmaFreeElementPaths && !accsInAgprs)
      elementPaths = threeByte ? std::min(elementPaths, t.mmaThreeByteElementPaths)
                     : packed  ? std::min(elementPaths, t.mmaPackedElementPaths)
                               : 0;
    vgpr("elements of the accesses that may cross a row end", elementPaths);
  }
  unsigned distributions = 0, oneD = 0;
  for (size_t i = 0; i < k.tiles.size(); ++i) {
    bool fresh = k.tiles[i]->used;
    for (size_t j = 0; j < i; ++j) fresh &= !(k.tiles[j]->used && k.tiles[j]->layout.sameMapping(k.tiles[i]->layout));
    for (const Layout *l : kept.distributions) fresh &= !l->sameMapping(k.tiles[i]->layout);
    distributions += fresh;
    oneD += fresh && k.tiles[i]->layout.oneD;
  }
  // A 1-D tile's lane position is one element offset (its row of the view is the wave's: uniform, in SGPRs).
  vgpr(formatv("lane rows and columns ({0} distribution{1}{2})", distributions, distributions == 1 ? "" : "s",
               oneD ? formatv(", {0} of them 1-D: one offset each", oneD).str() : ""),
       2 * distributions - oneD);
  bool flat = llvm::all_of(k.tensors, [](const auto &t) { return t->rank == 1; });
  vgpr(flat ? "address (64-bit) and element index of an access" : "address (64-bit), row and column of an access",
       flat ? 3 : 4);
  for (const ir::For *f : kLoops(k.body)) {
    // A single K step known at compile time has nothing to prefetch: no prefetch addresses, no ordered step.
    if (f->plan->depth < 2 || !prefetches(*f)) continue;
    unsigned accesses = 0;
    for (const ir::Assign *a : f->plan->loads) accesses += a->dst->layout.accessesPerLane();
    if (f->plan->depth == 3 && !unalignedVariant && f->plan->bufferLoads)
      vgpr(formatv("staged K loop over {0}: a 32-bit buffer offset per prefetched access ({1}; the window's origin is "
                   "the scalar offset) and the bounds of the masked steps (8)", f->var, accesses),
           accesses + 8);
    else
      vgpr(formatv("pipelined K loop over {0}: a 64-bit address per prefetched access ({1} x 2) and the bounds of the "
                   "masked steps (8)", f->var, accesses),
           2 * accesses + 8);
    // A staged main loop with 2 register sets (KLoopPlan::registerSets): the second set of every loaded tile (its
    // loads reuse the buffer offsets above: the step three ahead is the scalar offset's).
    if (f->plan->registerSets == 2 && !unalignedVariant)
      for (const ir::Assign *a : f->plan->loads)
        vgpr(formatv("tile {0}: its second register set in the staged loop over {1}", a->dst->name, f->var),
             tileVGPRs(*a->dst), a->dst->loc);
    // A scaled mma whose lanes load their scales themselves: a 64-bit address per chunk load of the next step's
    // (LLVM 22 kept one per fragment for the former byte loads, gemm_mxfp4_gfx950's 8 at offsets from 4 pairs).
    for (const ir::MMA *m : f->plan->mmas)
      if (m->scaleA && !m->scaleLoads.ldsA) {
        unsigned loads = m->scaleLoads.chunks * (m->acc->blocksY() + m->acc->blocksX());
        vgpr(formatv("prefetched scales of {0}'s scaled mma: a 64-bit address per chunk load ({1} x 2)", m->acc->name,
                     loads),
             2 * loads);
      }
    // A staged loop (depth 3) reads one instruction K step ahead in the vector kernel; its _unaligned kernel runs
    // the ordered step of depth 2 (HIPEmitterKLoop.cpp).
    bool staged = f->plan->depth == 3 && !unalignedVariant;
    if (const auto &s = f->plan->schedule; s && s->kSteps > 2 && !staged) {
      const ir::MMA &m = *f->plan->mmas.front();
      unsigned fragments = (s->kSteps - 2) * (m.acc->blocksY() + m.acc->blocksX());
      unsigned perStep = stepFragmentRegisters(m);
      // The element paths at row ends run only in the masked loop, never beside the main loop's fragments: only
      // what exceeds them counts (gemm_f16_unaligned: clang-19 94 ArchVGPRs, 16 + 16 would give 105).
      unsigned extra = (s->kSteps - 2) * perStep;
      // "N x R" where A's and B's fragments are as wide, else the registers alone (an MX GEMM of two formats).
      std::string times = fragmentRegisters(m, false) == fragmentRegisters(m, true)
                              ? formatv("{0} x {1}", fragments, fragmentRegisters(m, false)).str()
                              : formatv("{0} registers", extra).str();
      // Where the target's compiler holds no more than the step's fragments (Target.h: for the unscaled 32 x 32
      // MFMAs), the item counts only those the widest statement (up to 4 instruction K steps, scan()) left out.
      std::string capped;
      if (t.capsScheduledStep && m.acc->instr->m == 32 && (!m.acc->instr->scaled || m.scaleLoads.ldsA)) {
        unsigned left = (s->kSteps - std::min(s->kSteps, 4u)) * perStep;
        if (left < extra) {
          capped = formatv(", at most the {0} of the step's {1} that the widest statement leaves out: {2}'s compiler "
                           "holds no more than the step's fragments",
                           left, s->kSteps * perStep, t.name);
          extra = left;
        }
      }
      vgpr(formatv("scheduled main-loop step over {0}: every fragment is read before the first MFMA, {1} more than "
                   "the 2 instruction K steps clang reads at a time ({2}){3}{4}",
                   f->var, fragments, times, capped,
                   elementPaths ? formatv(", beyond the {0} of the element paths, which only the masked loop has",
                                          elementPaths).str()
                                : std::string()),
           extra > elementPaths ? extra - elementPaths : 0);
    }
  }
  for (const auto &l : k.ldsBuffers)
    if (l->swizzled())
      vgpr(formatv("swizzled rows of lds {0}: its writes and fragment reads need a lane address per swizzled row "
                   "(measured: 6-8)", l->name),
           kSwizzleVGPRs);
  vgpr("thread id", 1);
  std::vector<std::pair<const ir::AccTile *, unsigned>> columns;
  accIndexRegisters(k.body, false, columns);
  for (auto [acc, regs] : columns)
    vgpr(formatv("col({0}) in a loop: the loop-invariant column of its values, kept ({1} per value)", acc->name,
                 regs == acc->registers() ? "a register, compared with its rows," : "half a register"),
         regs);
  std::vector<const ir::AccTile *> packed;
  packedAccUpdates(k.body, false, packed);
  for (const ir::AccTile *acc : packed)
    vgpr(formatv("acc {0} updated in place in a loop, 4 values at a time as packed f32 pairs (fitted: {1})",
                 acc->name, t.packedUpdateVgprs),
         t.packedUpdateVgprs);
  // A loop of depth 1 keeps its rows' addresses (KLoopResources.cpp), as far as they fit: clang-19 recomputes them
  // when the ArchVGPRs run out (k0513: 96 would make 153 + 96, clang 256 ArchVGPRs and spills into AGPRs).
  for (const ir::For *f : kLoops(k.body))
    if (unsigned rows = unpipelinedLoopAddresses(*f)) {
      unsigned room = t.maxArchVgprs > e.archVgprs ? t.maxArchVgprs - e.archVgprs : 0;
      vgpr(formatv("K loop over {0} (not pipelined): a 64-bit address per row loaded ({1} x 2), kept across its "
                   "iterations{2}", f->var, rows / 2, rows > room ? formatv(", {0} of them fit", room).str() : ""),
           std::min(rows, room));
    }
  // The kept rows are cheap to recompute, and clang-19 does recompute them when the workgroup's waves leave too few
  // registers (1024 threads: 4 waves per SIMD, 128 per lane; f16 -> f32 over 32 accesses with rows of 512 elements,
  // 64 kept rows would make 133, clang allocates 102): they count only as far as they fit.
  if (kept.vgprs) {
    unsigned waves = (k.workgroupSize + t.waveSize - 1) / t.waveSize;
    unsigned limit = t.vgprsPerLane / ((waves + t.simdsPerCU - 1) / t.simdsPerCU);
    unsigned others = e.archVgprs - kept.vgprs, accs = 0;
    for (const auto &a : k.accs) accs += a->instr ? a->registers() : 0;
    unsigned room = std::min(limit > others + accs ? limit - others - accs : 0,
                             t.maxArchVgprs > others ? t.maxArchVgprs - others : 0);
    if (room < kept.vgprs) {
      auto it = std::find_if(e.vgprItems.begin(), e.vgprItems.end(),
                             [&](const ResourceItem &item) { return item.what == keptRowsItem; });
      unsigned perSimd = t.vgprsPerLane / limit;
      it->count = room;
      it->what += formatv(" (as many as fit in the {0} a lane has at {1} wave{2} per SIMD, and in {3} ArchVGPRs)",
                          limit, perSimd, perSimd == 1 ? "" : "s", t.maxArchVgprs);
      if (!room) e.vgprItems.erase(it);
      e.archVgprs = others + room;
    }
  }
  // An accumulator stored through an expression (c * alpha, a cast) is computed in ArchVGPRs: clang-19 reads every
  // accumulator value out of the AGPRs before it stores any, and needs about 8 more for addressing. After the K loop
  // nothing else is live, so this is a floor on the kernel's ArchVGPRs rather than an addition (seed 1 of
  // test/Differential, gfx942: 64 AGPRs of accumulator, clang 72 ArchVGPRs or more; 128 AGPRs, 136 in all 9
  // kernels; 256 AGPRs, 256: the whole ArchVGPR file, at 1 wave per SIMD). A plain store of the accumulator goes
  // from the AGPRs.
  // In the _unaligned kernel the store of a plain accumulator whose rows are aligned only at run time goes element by
  // element at row ends, and clang-19 reads every accumulator value into ArchVGPRs for it too (seed 1: 128 AGPRs,
  // 140 to 144 ArchVGPRs in the 9 such kernels, where the vector kernel stores from the AGPRs; with 256 AGPRs the
  // _unaligned kernel spilled 68 to 196 B to scratch in all 5: the class scratch-full-agpr-file). Not capped: the
  // budget check rejects such a fallback, which cannot fit.
  // Only where the accumulators live in AGPRs (estimateResources decides): where the compiler selects the VGPR form
  // of the MFMAs (LLVM 22: every GEMM whose ArchVGPRs and accumulators fit 256) they are in ArchVGPRs from the
  // start, and the epilogue computes them in place.
  // Epilogue operands (loads in an accumulator's layout) are live with the accumulator values; where those live in
  // ArchVGPRs only the K loop's registers, dead by then, can hold them.
  unsigned epilogue = 0, operands = mostEpilogueOperands(k);
  // A single K step known at compile time has no loop, and clang-19 may read the accumulators group by group
  // (KLoopResources.h, readsAccumulatorsFirst).
  if (accsInAgprs) {
    epilogue = std::min(epilogueFloor(k), t.maxArchVgprs);
    if (!readsAccumulatorsFirst(k, t, epilogue, unalignedVariant)) epilogue = 0;
    if (unalignedVariant) epilogue = std::max(epilogue, plainAccumulatorElementStores(k));
  } else {
    epilogue = operands ? operands + 12 : 0;
  }
  if (epilogue > e.archVgprs)
    vgpr(accsInAgprs
             ? formatv("accumulator values computed in the epilogue ({0} with addressing{1}, beyond the {2} above)",
                       epilogue,
                       operands ? formatv(" and {0} of epilogue operands", operands).str() : std::string(),
                       e.archVgprs).str()
             : formatv("epilogue operands beside the accumulator values ({0} with addressing, beyond the {1} "
                       "above)", epilogue, e.archVgprs).str(),
         epilogue - e.archVgprs);
  for (const auto &a : k.accs) {
    if (!a->instr) continue;
    e.agprItems.push_back({formatv("acc {0}: {1} x {2} blocks x {3} values of {4}", a->name, a->blocksY(),
                                   a->blocksX(), a->instr->accPerLane, a->instr->name),
                           a->registers(), a->loc});
    e.agprs += a->registers();
  }
  // Buffers that share one allocation (passes/ShareLds.h) count the bytes each adds to it, in the order of their
  // offsets.
  std::vector<const ir::LdsBuffer *> buffers;
  for (const auto &l : k.ldsBuffers) buffers.push_back(l.get());
  if (k.ldsSharedBytes)
    std::stable_sort(buffers.begin(), buffers.end(), [](auto *a, auto *b) { return a->offset < b->offset; });
  unsigned highest = 0;
  for (const ir::LdsBuffer *l : buffers) {
    if (!l->used) continue;
    std::string stages = l->stages > 1 ? formatv("{0} stages x ", l->stages).str() : "";
    e.ldsItems.push_back({l->slotted() ? formatv("lds {0}: {1}{2} x ({3} + {4}) / {5} slots x {6} B ({5} {7} in each)",
                                                 l->name, stages, l->storedRows(), l->storedCols(), l->pad,
                                                 ir::LdsBuffer::kSlotElements, ir::LdsBuffer::kSlotBytes,
                                                 name(l->dtype)).str()
                                       : formatv("lds {0}: {1}{2} x ({3} + {4}) x {5} B{6}", l->name, stages,
                                                 l->storedRows(), l->storedCols(), l->pad, sizeOf(l->dtype),
                                                 l->tailBytes ? formatv(" + {0} B", l->tailBytes).str() : "")
                                             .str(),
                          l->bytes(), l->loc});
    if (k.ldsSharedBytes) {
      unsigned end = l->offset + l->bytes(), added = end > highest ? end - highest : 0;
      e.ldsItems.back().what += formatv(", at bytes {0} .. {1} of the shared allocation{2}", l->offset, end - 1,
                                        added == l->bytes() ? "" : formatv(": {0} B beyond the buffers before", added).str());
      e.ldsItems.back().count = added;
      highest = std::max(highest, end);
    }
    e.ldsBytes += e.ldsItems.back().count;
  }

  std::function<void(const ir::Body &)> reductions = [&](const ir::Body &b) {
    for (const ir::StmtPtr &s : b) {
      if (auto *f = llvm::dyn_cast<ir::For>(s.get())) reductions(f->body);
      auto *r = llvm::dyn_cast<ir::Reduce>(s.get());
      if (!r || !r->plan || !r->plan->ldsBytes || !r->value->layout) continue;
      e.ldsItems.push_back({formatv("{0} = {1}(..., axis = {2}): {3} waves x {4} {5} x {6} B", r->dst->name,
                                    spelling(r->op), r->axis, r->plan->waves,
                                    r->axis == 1 ? r->value->layout->rows : r->value->layout->cols,
                                    r->axis == 1 ? "rows" : "columns", sizeOf(r->plan->accumulate)),
                            r->plan->ldsBytes, r->loc});
      e.ldsBytes += r->plan->ldsBytes;
    }
  };
  reductions(k.body);

  unsigned pointers = 0, scalars = 0;
  pointers = k.tensors.size();
  scalars = k.scalars.size();
  sgpr("kernel argument pointer", 2);
  sgpr(k.batched ? "workgroup ids x, y, z" : "workgroup ids x, y", k.batched ? 3 : 2);
  sgpr(formatv("{0} tensor pointer{1}", pointers, pointers == 1 ? "" : "s"), 2 * pointers);
  sgpr(formatv("{0} scalar argument{1}", scalars, scalars == 1 ? "" : "s"), scalars);
  sgpr("block origin (row, column)", 2);
  sgpr(formatv("{0} loop counter{1} and bound{1}", widest.loops, widest.loops == 1 ? "" : "s"), 2 * widest.loops);
  sgpr("saved exec mask of masked accesses", 2);
  // passes/SoftwarePipeline.cpp (useBufferLoads) and passes/RotateLoopLoads.cpp.
  if (!unalignedVariant && !k.bufferLoaded.empty())
    sgpr(formatv("buffer resources of the masked {0} ({1} x 4)",
                 kLoops(k.body).empty() ? "loads of the next step" : "K steps", k.bufferLoaded.size()),
         4 * static_cast<unsigned>(k.bufferLoaded.size()));
  return e;
}

} // namespace

ResourceEstimate tilec::estimateResources(const ir::Kernel &k, const Target &t, bool unalignedVariant) {
  // Where the MFMA accumulators live is the compiler's choice. LLVM 22, on gfx942 and gfx950 alike, selects the VGPR
  // form of every MFMA (accumulators in ArchVGPRs: gemm_f16 on gfx942, 154 ArchVGPRs and no AGPRs where LLVM 19 took
  // 90 + 64) and moves accumulators to AGPRs only where the ArchVGPRs run out, which a lane can afford only at 1
  // wave per SIMD (llvm/llvm-project#159493 and the AGPR rewrite after it). So the model counts the VGPR form, and
  // where its ArchVGPRs and accumulators exceed the 256 a lane addresses, the accumulators are in AGPRs and the
  // kernel needs the larger of the two accountings, which holds it to 1 wave:
  // - the VGPR form's registers (Inputs/single-step-operands.tile on gfx950, test/Resources: 140 + 128 = 268, where
  //   the AGPR form counts 57 + 128 = 188; LLVM 22 asked for 1 wave took 256 ArchVGPRs + 16 AGPRs without scratch,
  //   asked for 2 it kept the VGPR form and spilled 68 B);
  // - the AGPR form's, whose epilogue reads every accumulator value back into ArchVGPRs (register-edge.tile's
  //   one_wave: 256 + 256 = 512 against the VGPR form's 217 + 256; LLVM 22 needs all 512 and spills 128 B).
  // (A kernel without an mma has no accumulators to place: it is reported as the AGPR form, with none.)
  ResourceEstimate e = estimate(k, t, unalignedVariant, /*accsInAgprs=*/k.accs.empty());
  if (!k.accs.empty() && e.archVgprs + e.agprs > t.maxArchVgprs) {
    ResourceEstimate agprForm = estimate(k, t, unalignedVariant, /*accsInAgprs=*/true);
    e.accumulatorsInAgprs = true;
    if (unifiedVgprs(agprForm.resources(k.workgroupSize)) >= unifiedVgprs(e.resources(k.workgroupSize)))
      e = std::move(agprForm);
  }
  return e;
}
