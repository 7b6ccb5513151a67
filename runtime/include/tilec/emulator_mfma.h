//===- tilec/emulator_mfma.h - MFMA instructions on the CPU -----------------===//
//
// Part of the emulator (included by tilec/emulator.h). Every MFMA builtin of tilec's table (compiler/MFMA.cpp) is a
// macro that makes the call a wave collective: each lane leaves its A, B and C operands and waits; when all 64 lanes
// of the wave have arrived, D = A x B + C is computed once, from all 64 lanes' operands placed by the lane layouts of
// shared/facts/mfma.md, and every lane resumes with its part of D:
//   A[i][k]: lane = i + M * (k / kpl), elem = k % kpl        (kpl = K values per lane)
//   B[k][j]: lane = j + N * (k / kpl), elem = k % kpl
//   D[i][j]: 16x16: lane = j + 16 * (i / 4),         elem = i % 4
//            32x32: lane = j + 32 * ((i / 4) % 2),  elem = 4 * (i / 8) + i % 4
// `elem` indexes the operand as passed to the builtin; the 8-bit forms pass 8 bytes in a `long`, element 0 in the
// lowest byte.
//
// Arithmetic:
//   - float results (f16, bf16, fp8/bf8, f32 inputs): every product is exact in double (inputs have at most 24
//     significant bits), C and the K products are summed in double, and the sum is rounded to f32 once per
//     instruction (round to nearest even). So D is the exact A x B + C rounded once, up to the double sum's error
//     (at most (K + 1) * 2^-53 of the sum of |terms|). The hardware's internal rounding is not modelled, so a GPU's
//     result may differ in the last bits; NaN and infinity propagate as in IEEE double arithmetic.
//   - i8 x i8 -> i32: exact, C plus the sum of products taken modulo 2^32 (wrapping like the hardware's adders).
//   - fp8 / bf8 bytes are E4M3FNUZ / E5M2FNUZ when the file defines TILEC_ARCH_GFX942 (or neither target macro) and
//     OCP E4M3FN / E5M2 with TILEC_ARCH_GFX950, as on the hardware. The macro is read where emulator.h is included.
//   - cbsz, abid and blgp must be 0 (tilec never emits the broadcast and lane-permutation forms); anything else is
//     reported and fails the launch.
// The gfx950-only builtins (the K32/K16 f16 and bf16 forms) exist only when the file defines TILEC_ARCH_GFX950, as a
// gfx942 compiler rejects them. The scaled MX forms are in tilec/emulator_mx.h (included at the end).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_EMULATOR_MFMA_H
#define TILEC_EMULATOR_MFMA_H

#include "tilec/emulator.h" // WaveCall, wave_collective, fail (emulator.h includes this file after defining them)
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#if defined(TILEC_ARCH_GFX942) && defined(TILEC_ARCH_GFX950)
#error "define one of TILEC_ARCH_GFX942 and TILEC_ARCH_GFX950, not both"
#endif

namespace tilec::emu {

/// How one A or B element is held in the builtin's operand.
enum class MfmaElem { F32, F16, BF16, I8, FP8, BF8 };
/// What an fp8 (E4M3) or bf8 (E5M2) byte means: FNUZ on gfx942, OCP on gfx950.
enum class Fp8Encoding { FNUZ, OCP };

/// One MFMA instruction: the numbers of compiler/MFMA.cpp's row (test/unit/MFMATest.cpp checks that they agree).
struct MfmaInstr {
  const char *name;    ///< ISA mnemonic
  const char *builtin; ///< clang builtin
  unsigned m, n, k;    ///< D (m x n) = A (m x k) x B (k x n) + C
  unsigned kPerLane;   ///< A and B values per lane, consecutive in K
  unsigned accPerLane; ///< C/D values per lane
  MfmaElem a, b;
  bool gfx950Only;
};

namespace mfma_instr {
using E = MfmaElem;
// clang-format off
inline constexpr MfmaInstr f32_16x16x16_f16     {"v_mfma_f32_16x16x16_f16",     "__builtin_amdgcn_mfma_f32_16x16x16f16",      16, 16, 16, 4,  4, E::F16,  E::F16,  false};
inline constexpr MfmaInstr f32_32x32x8_f16      {"v_mfma_f32_32x32x8_f16",      "__builtin_amdgcn_mfma_f32_32x32x8f16",       32, 32,  8, 4, 16, E::F16,  E::F16,  false};
inline constexpr MfmaInstr f32_16x16x16_bf16    {"v_mfma_f32_16x16x16_bf16",    "__builtin_amdgcn_mfma_f32_16x16x16bf16_1k",  16, 16, 16, 4,  4, E::BF16, E::BF16, false};
inline constexpr MfmaInstr f32_32x32x8_bf16     {"v_mfma_f32_32x32x8_bf16",     "__builtin_amdgcn_mfma_f32_32x32x8bf16_1k",   32, 32,  8, 4, 16, E::BF16, E::BF16, false};
inline constexpr MfmaInstr i32_16x16x32_i8      {"v_mfma_i32_16x16x32_i8",      "__builtin_amdgcn_mfma_i32_16x16x32_i8",      16, 16, 32, 8,  4, E::I8,   E::I8,   false};
inline constexpr MfmaInstr i32_32x32x16_i8      {"v_mfma_i32_32x32x16_i8",      "__builtin_amdgcn_mfma_i32_32x32x16_i8",      32, 32, 16, 8, 16, E::I8,   E::I8,   false};
inline constexpr MfmaInstr f32_16x16x32_fp8_fp8 {"v_mfma_f32_16x16x32_fp8_fp8", "__builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8", 16, 16, 32, 8,  4, E::FP8,  E::FP8,  false};
inline constexpr MfmaInstr f32_32x32x16_fp8_fp8 {"v_mfma_f32_32x32x16_fp8_fp8", "__builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8", 32, 32, 16, 8, 16, E::FP8,  E::FP8,  false};
inline constexpr MfmaInstr f32_16x16x32_fp8_bf8 {"v_mfma_f32_16x16x32_fp8_bf8", "__builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8", 16, 16, 32, 8,  4, E::FP8,  E::BF8,  false};
inline constexpr MfmaInstr f32_32x32x16_fp8_bf8 {"v_mfma_f32_32x32x16_fp8_bf8", "__builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8", 32, 32, 16, 8, 16, E::FP8,  E::BF8,  false};
inline constexpr MfmaInstr f32_16x16x32_bf8_fp8 {"v_mfma_f32_16x16x32_bf8_fp8", "__builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8", 16, 16, 32, 8,  4, E::BF8,  E::FP8,  false};
inline constexpr MfmaInstr f32_32x32x16_bf8_fp8 {"v_mfma_f32_32x32x16_bf8_fp8", "__builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8", 32, 32, 16, 8, 16, E::BF8,  E::FP8,  false};
inline constexpr MfmaInstr f32_16x16x32_bf8_bf8 {"v_mfma_f32_16x16x32_bf8_bf8", "__builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8", 16, 16, 32, 8,  4, E::BF8,  E::BF8,  false};
inline constexpr MfmaInstr f32_32x32x16_bf8_bf8 {"v_mfma_f32_32x32x16_bf8_bf8", "__builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8", 32, 32, 16, 8, 16, E::BF8,  E::BF8,  false};
inline constexpr MfmaInstr f32_16x16x4_f32      {"v_mfma_f32_16x16x4_f32",      "__builtin_amdgcn_mfma_f32_16x16x4f32",       16, 16,  4, 1,  4, E::F32,  E::F32,  false};
inline constexpr MfmaInstr f32_32x32x2_f32      {"v_mfma_f32_32x32x2_f32",      "__builtin_amdgcn_mfma_f32_32x32x2f32",       32, 32,  2, 1, 16, E::F32,  E::F32,  false};
inline constexpr MfmaInstr f32_16x16x32_f16     {"v_mfma_f32_16x16x32_f16",     "__builtin_amdgcn_mfma_f32_16x16x32_f16",     16, 16, 32, 8,  4, E::F16,  E::F16,  true};
inline constexpr MfmaInstr f32_32x32x16_f16     {"v_mfma_f32_32x32x16_f16",     "__builtin_amdgcn_mfma_f32_32x32x16_f16",     32, 32, 16, 8, 16, E::F16,  E::F16,  true};
inline constexpr MfmaInstr f32_16x16x32_bf16    {"v_mfma_f32_16x16x32_bf16",    "__builtin_amdgcn_mfma_f32_16x16x32_bf16",    16, 16, 32, 8,  4, E::BF16, E::BF16, true};
inline constexpr MfmaInstr f32_32x32x16_bf16    {"v_mfma_f32_32x32x16_bf16",    "__builtin_amdgcn_mfma_f32_32x32x16_bf16",    32, 32, 16, 8, 16, E::BF16, E::BF16, true};
// clang-format on
} // namespace mfma_instr

/// Every instruction the emulator implements, for tests.
inline constexpr const MfmaInstr *kAllMfma[] = {
    &mfma_instr::f32_16x16x16_f16,     &mfma_instr::f32_32x32x8_f16,      &mfma_instr::f32_16x16x16_bf16,
    &mfma_instr::f32_32x32x8_bf16,     &mfma_instr::i32_16x16x32_i8,      &mfma_instr::i32_32x32x16_i8,
    &mfma_instr::f32_16x16x32_fp8_fp8, &mfma_instr::f32_32x32x16_fp8_fp8, &mfma_instr::f32_16x16x32_fp8_bf8,
    &mfma_instr::f32_32x32x16_fp8_bf8, &mfma_instr::f32_16x16x32_bf8_fp8, &mfma_instr::f32_32x32x16_bf8_fp8,
    &mfma_instr::f32_16x16x32_bf8_bf8, &mfma_instr::f32_32x32x16_bf8_bf8, &mfma_instr::f32_16x16x4_f32,
    &mfma_instr::f32_32x32x2_f32,      &mfma_instr::f32_16x16x32_f16,     &mfma_instr::f32_32x32x16_f16,
    &mfma_instr::f32_16x16x32_bf16,    &mfma_instr::f32_32x32x16_bf16,
};

//===--- Lane layouts (shared/facts/mfma.md) ---===//

struct MfmaSlot {
  unsigned lane, elem;
};
inline MfmaSlot mfma_slot_a(const MfmaInstr &ins, unsigned i, unsigned k) {
  return {i + ins.m * (k / ins.kPerLane), k % ins.kPerLane};
}
inline MfmaSlot mfma_slot_b(const MfmaInstr &ins, unsigned k, unsigned j) {
  return {j + ins.n * (k / ins.kPerLane), k % ins.kPerLane};
}
inline MfmaSlot mfma_slot_d(const MfmaInstr &ins, unsigned i, unsigned j) {
  if (ins.m == 16) return {j + 16 * (i / 4), i % 4};
  return {j + 32 * ((i / 4) % 2), 4 * (i / 8) + i % 4};
}

//===--- Element values ---===//

/// An fp8 (E4M3) or bf8 (E5M2) byte as a number, from the formats' definitions (written apart from runtime.h's
/// conversions, which the tests compare it with). FNUZ: biases 8 / 16, 0x80 is the only NaN, no infinities and no
/// negative zero. OCP: E4M3FN has bias 7, no infinities and NaN = S.1111.111; E5M2 has bias 15 and IEEE infinities
/// and NaNs (exponent field all ones).
inline double decode_f8(unsigned char byte, bool bf8, Fp8Encoding encoding) {
  const int manBits = bf8 ? 2 : 3, expBits = 7 - manBits;
  const int bias = (1 << (expBits - 1)) - (encoding == Fp8Encoding::OCP ? 1 : 0);
  const unsigned mag = byte & 0x7Fu, exp = mag >> manBits, man = mag & ((1u << manBits) - 1u);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool negative = byte & 0x80u;
  if (encoding == Fp8Encoding::FNUZ && byte == 0x80) return nan;
  if (encoding == Fp8Encoding::OCP && !bf8 && mag == 0x7F) return nan;
  if (encoding == Fp8Encoding::OCP && bf8 && exp == (1u << expBits) - 1u)
    return man ? nan : (negative ? -1.0 : 1.0) * std::numeric_limits<double>::infinity();
  const double value = exp == 0 ? std::ldexp(man, 1 - bias - manBits) // subnormal
                                : std::ldexp((1u << manBits) + man, static_cast<int>(exp) - bias - manBits);
  return negative ? -value : value;
}

/// bf16 bits as a number.
inline double decode_bf16(std::uint16_t bits) {
  return __builtin_bit_cast(float, static_cast<std::uint32_t>(bits) << 16);
}

/// Element `e` of one lane's A or B operand, exactly, as a double.
template <typename Operand> double mfma_element(const Operand &v, unsigned e, MfmaElem kind, Fp8Encoding encoding) {
  if constexpr (std::is_same_v<Operand, float>) { // f32 forms: one value per lane
    return v;
  } else if constexpr (std::is_same_v<Operand, long>) { // 8-bit forms: 8 bytes, element 0 in the lowest
    const auto byte = static_cast<unsigned char>(static_cast<unsigned long>(v) >> (8 * e));
    if (kind == MfmaElem::I8) return static_cast<signed char>(byte);
    return decode_f8(byte, kind == MfmaElem::BF8, encoding);
  } else { // 16-bit elements: _Float16 for f16; bf16 bits in a short (the *_bf16_1k builtins) or a __bf16
    const auto x = v[e];
    static_assert(sizeof(x) == 2, "16-bit operand elements");
    if (kind == MfmaElem::BF16) return decode_bf16(__builtin_bit_cast(std::uint16_t, x));
    return static_cast<double>(x);
  }
}

//===--- The instruction ---===//

/// What one lane passes.
template <typename Operand, typename Acc> struct MfmaOperands {
  Operand a, b;
  Acc c;
};

/// D = A x B + C for one wave: gathers A and B from the 64 lanes' operands, multiplies, and writes every lane's D.
template <typename Operand, typename Acc, Fp8Encoding Encoding>
void mfma_compute(const void *op, const void *const in[], void *const out[]) {
  const MfmaInstr &ins = *static_cast<const MfmaInstr *>(op);
  using Lane = MfmaOperands<Operand, Acc>;
  auto lane = [&](unsigned l) -> const Lane & { return *static_cast<const Lane *>(in[l]); };
  double a[32][32], b[32][32]; // m x k and k x n; m, n <= 32 and k <= 32
  for (unsigned i = 0; i < ins.m; ++i)
    for (unsigned k = 0; k < ins.k; ++k) {
      const MfmaSlot s = mfma_slot_a(ins, i, k);
      a[i][k] = mfma_element(lane(s.lane).a, s.elem, ins.a, Encoding);
    }
  for (unsigned k = 0; k < ins.k; ++k)
    for (unsigned j = 0; j < ins.n; ++j) {
      const MfmaSlot s = mfma_slot_b(ins, k, j);
      b[k][j] = mfma_element(lane(s.lane).b, s.elem, ins.b, Encoding);
    }
  using T = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<Acc &>()[0])>>; // float or int
  for (unsigned i = 0; i < ins.m; ++i)
    for (unsigned j = 0; j < ins.n; ++j) {
      const MfmaSlot s = mfma_slot_d(ins, i, j);
      const T c = lane(s.lane).c[s.elem];
      T d;
      if constexpr (std::is_integral_v<T>) { // exact products, sum modulo 2^32
        std::uint32_t sum = static_cast<std::uint32_t>(c);
        for (unsigned k = 0; k < ins.k; ++k)
          sum += static_cast<std::uint32_t>(static_cast<std::int32_t>(a[i][k]) * static_cast<std::int32_t>(b[k][j]));
        d = static_cast<std::int32_t>(sum);
      } else { // exact products, summed in double, rounded to f32 once
        double sum = c;
        for (unsigned k = 0; k < ins.k; ++k) sum += a[i][k] * b[k][j];
        d = static_cast<float>(sum);
      }
      (*static_cast<Acc *>(out[s.lane]))[s.elem] = d;
    }
}

/// What one lane gets back. (A struct: returning or passing a 64-byte vector such as f32x16 by value draws clang's
/// -Wpsabi warning on x86 hosts without AVX-512.)
template <typename Acc> struct MfmaResult {
  Acc d;
};

/// One lane's call of an MFMA builtin: a wave collective; returns this lane's part of D.
template <typename Operand, typename Acc, Fp8Encoding Encoding>
MfmaResult<Acc> mfma(const MfmaInstr &ins, const Operand &a, const Operand &b, const Acc &c, int cbsz, int abid,
                     int blgp, const char *file, unsigned line) {
  if (cbsz != 0 || abid != 0 || blgp != 0)
    fail(std::string(ins.name) + " with cbsz " + std::to_string(cbsz) + ", abid " + std::to_string(abid) +
         ", blgp " + std::to_string(blgp) + " at " + file + ":" + std::to_string(line) +
         ": the emulator implements only cbsz = abid = blgp = 0 (no broadcast or lane permutation)");
  const MfmaOperands<Operand, Acc> operands{a, b, c};
  MfmaResult<Acc> result{};
  WaveCall call;
  call.name = ins.name;
  call.op = &ins;
  call.compute = &mfma_compute<Operand, Acc, Encoding>;
  call.file = file;
  call.line = line;
  call.in = &operands;
  call.out = &result.d;
  wave_collective(call);
  return result;
}

} // namespace tilec::emu

//===--- The builtins ---===//
// Each expands where emitted code calls it, after tilec/runtime.h has defined the vector types.

#if defined(TILEC_ARCH_GFX950)
#define TILEC_EMU_FP8_ENCODING ::tilec::emu::Fp8Encoding::OCP
#else
#define TILEC_EMU_FP8_ENCODING ::tilec::emu::Fp8Encoding::FNUZ
#endif

#define TILEC_EMU_MFMA(INSTR, OPERAND, ACC, a, b, c, cbsz, abid, blgp)                                               \
  (::tilec::emu::mfma<OPERAND, ACC, TILEC_EMU_FP8_ENCODING>(::tilec::emu::mfma_instr::INSTR, (a), (b), (c), (cbsz),    \
                                                            (abid), (blgp), __FILE__, __LINE__)                    \
       .d)

// clang-format off
#define __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, cbsz, abid, blgp)       TILEC_EMU_MFMA(f32_16x16x16_f16,     ::tilec::f16x4, ::tilec::f32x4,  a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, cbsz, abid, blgp)        TILEC_EMU_MFMA(f32_32x32x8_f16,      ::tilec::f16x4, ::tilec::f32x16, a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, cbsz, abid, blgp)   TILEC_EMU_MFMA(f32_16x16x16_bf16,    ::tilec::i16x4, ::tilec::f32x4,  a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, cbsz, abid, blgp)    TILEC_EMU_MFMA(f32_32x32x8_bf16,     ::tilec::i16x4, ::tilec::f32x16, a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_i32_16x16x32_i8(a, b, c, cbsz, abid, blgp)       TILEC_EMU_MFMA(i32_16x16x32_i8,      long,           ::tilec::i32x4,  a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_i32_32x32x16_i8(a, b, c, cbsz, abid, blgp)       TILEC_EMU_MFMA(i32_32x32x16_i8,      long,           ::tilec::i32x16, a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, c, cbsz, abid, blgp)  TILEC_EMU_MFMA(f32_16x16x32_fp8_fp8, long,           ::tilec::f32x4,  a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, b, c, cbsz, abid, blgp)  TILEC_EMU_MFMA(f32_32x32x16_fp8_fp8, long,           ::tilec::f32x16, a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8(a, b, c, cbsz, abid, blgp)  TILEC_EMU_MFMA(f32_16x16x32_fp8_bf8, long,           ::tilec::f32x4,  a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8(a, b, c, cbsz, abid, blgp)  TILEC_EMU_MFMA(f32_32x32x16_fp8_bf8, long,           ::tilec::f32x16, a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8(a, b, c, cbsz, abid, blgp)  TILEC_EMU_MFMA(f32_16x16x32_bf8_fp8, long,           ::tilec::f32x4,  a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8(a, b, c, cbsz, abid, blgp)  TILEC_EMU_MFMA(f32_32x32x16_bf8_fp8, long,           ::tilec::f32x16, a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(a, b, c, cbsz, abid, blgp)  TILEC_EMU_MFMA(f32_16x16x32_bf8_bf8, long,           ::tilec::f32x4,  a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(a, b, c, cbsz, abid, blgp)  TILEC_EMU_MFMA(f32_32x32x16_bf8_bf8, long,           ::tilec::f32x16, a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_16x16x4f32(a, b, c, cbsz, abid, blgp)        TILEC_EMU_MFMA(f32_16x16x4_f32,      float,          ::tilec::f32x4,  a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_32x32x2f32(a, b, c, cbsz, abid, blgp)        TILEC_EMU_MFMA(f32_32x32x2_f32,      float,          ::tilec::f32x16, a, b, c, cbsz, abid, blgp)
#if defined(TILEC_ARCH_GFX950)
#define __builtin_amdgcn_mfma_f32_16x16x32_f16(a, b, c, cbsz, abid, blgp)      TILEC_EMU_MFMA(f32_16x16x32_f16,     ::tilec::f16x8,  ::tilec::f32x4,  a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_32x32x16_f16(a, b, c, cbsz, abid, blgp)      TILEC_EMU_MFMA(f32_32x32x16_f16,     ::tilec::f16x8,  ::tilec::f32x16, a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, cbsz, abid, blgp)     TILEC_EMU_MFMA(f32_16x16x32_bf16,    ::tilec::bf16x8, ::tilec::f32x4,  a, b, c, cbsz, abid, blgp)
#define __builtin_amdgcn_mfma_f32_32x32x16_bf16(a, b, c, cbsz, abid, blgp)     TILEC_EMU_MFMA(f32_32x32x16_bf16,    ::tilec::bf16x8, ::tilec::f32x16, a, b, c, cbsz, abid, blgp)
#endif
// clang-format on

// gfx950's scaled MFMAs with microscaling formats: their own header, built on the pieces above.
#include "tilec/emulator_mx.h"

#endif // TILEC_EMULATOR_MFMA_H
