//===- tilec/emulator_mx.h - Microscaling formats and the scaled MFMA -------===//
//
// Part of the emulator (included by tilec/emulator_mfma.h). The OCP MX element formats (fp8 E4M3 and bf8 E5M2 in
// their OCP encodings, fp6 E2M3, bf6 E3M2, fp4 E2M1) and the E8M0 block scale, decoded bit-exactly, and gfx950's
// v_mfma_scale_f32_16x16x128_f8f6f4 / v_mfma_scale_f32_32x32x64_f8f6f4 as wave collectives. docs/mx.md gives every
// fact used here with its source; in short:
//   - an element code is sign | exponent | mantissa with the format's bias; exponent 0 is subnormal; fp6 and fp4 have
//     no infinity and no NaN; E4M3 (OCP) has NaN = S.1111.111 and no infinity; E5M2 has IEEE infinities and NaNs.
//   - E8M0 code e is 2^(e - 127); 0xFF is NaN, and a NaN scale makes its whole block NaN.
//   - cbsz (A) and blgp (B) are the format codes 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4; opsel_a / opsel_b (0..3) pick the
//     byte of the lane's 32-bit scale register.
//   - fp4 A[i][k]: lane i + M * (k / 32), nibble k % 32 (low nibble first) of the low 16 bytes of the operand.
//     fp6/bf6 A[i][k]: the same lane, 6-bit field k % 32 of the low 24 bytes taken as one little-endian bit string
//     (bits 6e .. 6e + 5; the CDNA4 ISA guide, section 7.1.4 and the tables of 7.1.5.1).
//     fp8/bf8 A[i][k]: K in chunks of 16, chunk c = k / 16 in lane group c % G (G = 64 / M) and lane half c / G:
//     lane i + M * ((k / 16) % G), byte 16 * ((k / 16) / G) + k % 16. B[k][j] likewise with j.
//   - the scale of A's row i, K block b = k / 32, is in lane i + M * b (B's column j likewise).
//   - D = C + sum_b 2^(sa - 127) * 2^(sb - 127) * sum_{k in b} A[i][k] * B[k][j], D laid out as the 16x16 / 32x32
//     MFMAs' D.
// The sum is exact products added in double and rounded to f32 once, as for the other float MFMAs (emulator_mfma.h).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_EMULATOR_MX_H
#define TILEC_EMULATOR_MX_H

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tilec::emu {

/// The format codes of the scaled MFMA's cbsz (A) and blgp (B) fields.
enum class MxFormat : int { FP8 = 0, BF8 = 1, FP6 = 2, BF6 = 3, FP4 = 4 };

/// One element format of the OCP MX specification.
struct MxFormatInfo {
  MxFormat format;
  const char *name;      ///< tilec's dtype name
  unsigned bits;         ///< width of one element
  unsigned manBits;      ///< mantissa (trailing significand) bits
  int bias;              ///< exponent bias
  unsigned dwords;       ///< operand dwords per lane of a scaled MFMA (32 elements)
};

// clang-format off
inline constexpr MxFormatInfo kMxFormats[] = {
  {MxFormat::FP8, "fp8", 8, 3,  7, 8},
  {MxFormat::BF8, "bf8", 8, 2, 15, 8},
  {MxFormat::FP6, "fp6", 6, 3,  1, 6},
  {MxFormat::BF6, "bf6", 6, 2,  3, 6},
  {MxFormat::FP4, "fp4", 4, 1,  1, 4},
};
// clang-format on

inline const MxFormatInfo &mx_info(MxFormat f) { return kMxFormats[static_cast<int>(f)]; }

/// An E8M0 scale byte as a number: 2^(e - 127), NaN for 0xFF.
inline double decode_e8m0(std::uint8_t e) {
  if (e == 0xFF) return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(1.0, static_cast<int>(e) - 127);
}

/// An element code (its low `bits` bits) of format `f` as a number.
inline double decode_mx(unsigned code, MxFormat f) {
  const MxFormatInfo &fi = mx_info(f);
  code &= (1u << fi.bits) - 1u;
  const unsigned expBits = fi.bits - 1 - fi.manBits;
  const unsigned exp = (code >> fi.manBits) & ((1u << expBits) - 1u), man = code & ((1u << fi.manBits) - 1u);
  const bool negative = code >> (fi.bits - 1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (f == MxFormat::FP8 && exp == 15 && man == 7) return nan; // E4M3: only S.1111.111 is special
  if (f == MxFormat::BF8 && exp == 31) // E5M2: IEEE-style specials
    return man ? nan : (negative ? -1.0 : 1.0) * std::numeric_limits<double>::infinity();
  const double magnitude = exp == 0 ? std::ldexp(man, 1 - fi.bias - static_cast<int>(fi.manBits))
                                    : std::ldexp((1u << fi.manBits) + man,
                                                 static_cast<int>(exp) - fi.bias - static_cast<int>(fi.manBits));
  return negative ? -magnitude : magnitude;
}

/// The code of element `elem` (0..31) of one lane's 8-dword operand in format `f`: the operand's dwords are one
/// little-endian bit string, element e at bits bits * e .. bits * e + bits - 1 (fp8/bf8: byte e; fp4: nibble e, low
/// nibble first; fp6/bf6: 6 bits, so that elements 5, 10, 21 and 26 straddle two dwords).
inline unsigned mx_operand_code(const std::uint32_t (&words)[8], MxFormat f, unsigned elem) {
  const unsigned bits = mx_info(f).bits, bit = elem * bits;
  std::uint64_t window = words[bit / 32];
  if (bit / 32 + 1 < 8) window |= std::uint64_t(words[bit / 32 + 1]) << 32;
  return static_cast<unsigned>(window >> (bit % 32)) & ((1u << bits) - 1u);
}

/// One scaled MFMA instruction (numbers of compiler/target/MFMA.cpp's scaled table; test/unit/MFMATest.cpp compares).
struct MxInstr {
  const char *name, *builtin;
  unsigned m, n, k;
  unsigned kPerLane, accPerLane;
};

namespace mx_instr {
inline constexpr MxInstr f32_16x16x128 {"v_mfma_scale_f32_16x16x128_f8f6f4",
                                        "__builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4", 16, 16, 128, 32, 4};
inline constexpr MxInstr f32_32x32x64 {"v_mfma_scale_f32_32x32x64_f8f6f4",
                                       "__builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4", 32, 32, 64, 32, 16};
} // namespace mx_instr

inline constexpr const MxInstr *kAllMx[] = {&mx_instr::f32_16x16x128, &mx_instr::f32_32x32x64};

/// Which lane and element hold A[i][k] (or B[k][j], with j for i) in format `f`: the formats narrower than a byte
/// (fp6, bf6, fp4) in runs of 32 consecutive K values, fp8/bf8 in chunks of 16 spread over the lane groups.
inline MfmaSlot mx_slot(const MxInstr &ins, MxFormat f, unsigned i, unsigned k) {
  if (mx_info(f).bits < 8) return {i + ins.m * (k / 32), k % 32};
  const unsigned groups = 64 / ins.m, chunk = k / 16;
  return {i + ins.m * (chunk % groups), 16 * (chunk / groups) + k % 16};
}

/// The lane whose scale register holds the scale of row i of A (or column i of B) for K block b (K 32b .. 32b + 31).
inline unsigned mx_scale_lane(const MxInstr &ins, unsigned i, unsigned b) { return i + ins.m * b; }

/// What one lane passes to a scaled MFMA.
template <typename Acc> struct MxOperands {
  std::uint32_t a[8], b[8];
  Acc c;
  std::uint32_t scaleA, scaleB;
  int cbsz, blgp, opselA, opselB; // the same constants in every lane of one call site
};

/// D = A x B scaled + C for one wave, from every lane's operands.
template <typename Acc> void mx_compute(const void *op, const void *const in[], void *const out[]) {
  const MxInstr &ins = *static_cast<const MxInstr *>(op);
  auto lane = [&](unsigned l) -> const MxOperands<Acc> & { return *static_cast<const MxOperands<Acc> *>(in[l]); };
  const MxOperands<Acc> &first = lane(0);
  const MxFormat fa = static_cast<MxFormat>(first.cbsz), fb = static_cast<MxFormat>(first.blgp);
  auto scaleByte = [](std::uint32_t reg, int opsel) { return static_cast<std::uint8_t>(reg >> (8 * opsel)); };
  const unsigned blocks = ins.k / 32;
  std::vector<double> a(ins.m * ins.k), b(ins.k * ins.n); // A row-major (m x k), B column-major (n x k)
  std::vector<double> sa(ins.m * blocks), sb(ins.n * blocks);
  for (unsigned i = 0; i < ins.m; ++i)
    for (unsigned k = 0; k < ins.k; ++k) {
      const MfmaSlot s = mx_slot(ins, fa, i, k);
      a[i * ins.k + k] = decode_mx(mx_operand_code(lane(s.lane).a, fa, s.elem), fa);
    }
  for (unsigned j = 0; j < ins.n; ++j)
    for (unsigned k = 0; k < ins.k; ++k) {
      const MfmaSlot s = mx_slot(ins, fb, j, k);
      b[j * ins.k + k] = decode_mx(mx_operand_code(lane(s.lane).b, fb, s.elem), fb);
    }
  for (unsigned i = 0; i < ins.m; ++i)
    for (unsigned blk = 0; blk < blocks; ++blk) {
      sa[i * blocks + blk] = decode_e8m0(scaleByte(lane(mx_scale_lane(ins, i, blk)).scaleA, first.opselA));
      sb[i * blocks + blk] = decode_e8m0(scaleByte(lane(mx_scale_lane(ins, i, blk)).scaleB, first.opselB));
    }
  MfmaInstr dShape{}; // D is laid out as in the unscaled MFMA of the same M x N
  dShape.m = ins.m;
  dShape.n = ins.n;
  for (unsigned i = 0; i < ins.m; ++i)
    for (unsigned j = 0; j < ins.n; ++j) {
      const MfmaSlot s = mfma_slot_d(dShape, i, j);
      double sum = lane(s.lane).c[s.elem];
      for (unsigned blk = 0; blk < blocks; ++blk) {
        double dot = 0; // products of at most 4-bit significands: exact; the sum is double's
        for (unsigned k = 32 * blk; k < 32 * blk + 32; ++k) dot += a[i * ins.k + k] * b[j * ins.k + k];
        // Scales are powers of two: exact unless the product leaves double's range.
        sum += sa[i * blocks + blk] * sb[j * blocks + blk] * dot;
      }
      (*static_cast<Acc *>(out[s.lane]))[s.elem] = static_cast<float>(sum);
    }
}

/// One lane's call of a scaled MFMA builtin: checks the immediates, then runs the wave collective.
template <typename Operand, typename Acc>
MfmaResult<Acc> mx_mfma(const MxInstr &ins, const Operand &a, const Operand &b, const Acc &c, int cbsz, int blgp,
                        int opselA, std::uint32_t scaleA, int opselB, std::uint32_t scaleB, const char *file,
                        unsigned line) {
  static_assert(sizeof(Operand) == 32, "the scaled MFMA builtins take 8 x i32 A and B operands");
  const std::string at = std::string(ins.name) + " at " + file + ":" + std::to_string(line);
  for (int code : {cbsz, blgp})
    if (code < 0 || code > 4)
      fail(at + ": format code " + std::to_string(code) + " (cbsz and blgp are 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4)");
  for (int sel : {opselA, opselB})
    if (sel < 0 || sel > 3) fail(at + ": opsel " + std::to_string(sel) + " (a scale byte is selected by 0..3)");
  MxOperands<Acc> operands{};
  __builtin_memcpy(operands.a, &a, 32);
  __builtin_memcpy(operands.b, &b, 32);
  operands.c = c;
  operands.scaleA = scaleA;
  operands.scaleB = scaleB;
  operands.cbsz = cbsz;
  operands.blgp = blgp;
  operands.opselA = opselA;
  operands.opselB = opselB;
  MfmaResult<Acc> result{};
  WaveCall call;
  call.name = ins.name;
  call.op = &ins;
  call.compute = &mx_compute<Acc>;
  call.file = file;
  call.line = line;
  call.in = &operands;
  call.out = &result.d;
  wave_collective(call);
  return result;
}

} // namespace tilec::emu

//===--- The builtins (gfx950 only, as a gfx942 compiler rejects them) ---===//

#if defined(TILEC_ARCH_GFX950)
#define TILEC_EMU_MX_MFMA(INSTR, ACC, a, b, c, cbsz, blgp, opselA, scaleA, opselB, scaleB)                             \
  (::tilec::emu::mx_mfma<::tilec::i32x8, ACC>(::tilec::emu::mx_instr::INSTR, (a), (b), (c), (cbsz), (blgp), (opselA),  \
                                              static_cast<std::uint32_t>(scaleA), (opselB),                          \
                                              static_cast<std::uint32_t>(scaleB), __FILE__, __LINE__)                \
       .d)
// clang-format off
#define __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c, cbsz, blgp, opselA, scaleA, opselB, scaleB) TILEC_EMU_MX_MFMA(f32_16x16x128, ::tilec::f32x4,  a, b, c, cbsz, blgp, opselA, scaleA, opselB, scaleB)
#define __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a, b, c, cbsz, blgp, opselA, scaleA, opselB, scaleB)  TILEC_EMU_MX_MFMA(f32_32x32x64,  ::tilec::f32x16, a, b, c, cbsz, blgp, opselA, scaleA, opselB, scaleB)
// clang-format on
#endif

#endif // TILEC_EMULATOR_MX_H
