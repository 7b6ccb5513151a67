//===- ValueRegisters.h - Registers of computed values -----------*- C++ -*-===//
//
// Per-access register figures of computed values (expressions, casts, loads inside expressions), beyond the register
// tiles they read. The resource model sums them per statement (ResourceModel.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_VALUEREGISTERS_H
#define TILEC_VALUEREGISTERS_H

#include "ir/IR.h"

namespace tilec {

/// VGPRs of one access of `vec` values of `dt` (4-byte registers).
unsigned registersPerAccess(unsigned vec, DType dt);

/// Whether the emitted conversion from `from` to `to` goes through f32 (fp8/bf8 in software, f16 <-> bf16).
bool throughF32(DType from, DType to);

/// VGPRs the result of `v` needs for one access beyond the register tiles it reads directly.
unsigned heldRegisters(const ir::Value &v, unsigned vec);

/// Whether `v` encodes fp8/bf8 (in software, from f32).
bool encodesFp8(const ir::Value &v);

/// How many register-tile operands `v` reads.
unsigned tilesRead(const ir::Value &v);

/// Whether `v` converts through f32 in a way clang-19 hoists over all accesses.
bool widensEveryAccess(const ir::Value &v);

/// VGPRs of the temporaries of one value at their peak (loads inside the expression, computed operands kept while
/// the next ones are computed, then the value's own result).
unsigned valueTemporaries(const ir::Value &v, unsigned vec);

/// The columns of an accumulator's values that element indices (`col(s)`) read inside a loop, which the compiler
/// keeps across its iterations: per accumulator, half a register per value (its loop-invariant part; measured on
/// attention_fwd_f16 with LLVM 22, gfx942: 114 VGPRs with the mask `t + col(s) < T`, 106 without, for 16 values);
/// a register per value where the same statement compares them with the accumulator's rows (the causal mask of
/// attention_gqa_f16, `t + col(s) <= min(block.row + row(s), T - 1)`: 141 VGPRs against 128 with `t + col(s) < T`).
/// Appends one (accumulator, registers) per accumulator.
void accIndexRegisters(const ir::Body &body, bool inLoop, std::vector<std::pair<const ir::AccTile *, unsigned>> &out);

/// The accumulators a loop updates in place (ir::AccAssign: `o = o * alpha`, `s = exp2(s * c - m)`), which the emitter
/// writes 4 values at a time so that clang computes them as packed f32 pairs; the model adds the target's fitted
/// Target::packedUpdateVgprs for each. Appends each such accumulator once.
void packedAccUpdates(const ir::Body &body, bool inLoop, std::vector<const ir::AccTile *> &out);

} // namespace tilec

#endif
