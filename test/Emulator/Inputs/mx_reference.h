// The block-scaled (MX) arithmetic written from the OCP MX specification (docs/mx.md), for the emulator tests: element
// codes as numbers, packing, and the reference product. Independent of tilec's emulator (tilec/emulator_mx.h) and of
// its compiler tables.
#pragma once
#include <cmath>
#include <vector>

namespace mxref {

/// Format codes of cbsz / blgp, the numbering of LLVM's tests and AMD's documentation.
enum Format { FP8 = 0, BF8 = 1, FP6 = 2, BF6 = 3, FP4 = 4 };

constexpr int bitsOf(int format) { return format == FP4 ? 4 : format == FP6 || format == BF6 ? 6 : 8; }

/// An element code as a number, from the spec: sign, exponent and mantissa fields, bias; exponent 0 subnormal; E4M3's
/// S.1111.111 is NaN; E5M2's exponent 31 is infinity (mantissa 0) or NaN.
inline double value(int format, unsigned code) {
  const int bits = bitsOf(format), manBits = format == FP8 || format == FP6 ? 3 : format == FP4 ? 1 : 2;
  const int expBits = bits - 1 - manBits, bias = (1 << (expBits - 1)) - 1;
  const unsigned exp = (code >> manBits) & ((1u << expBits) - 1), man = code & ((1u << manBits) - 1);
  const double sign = (code >> (bits - 1)) & 1 ? -1.0 : 1.0;
  if (format == FP8 && exp == 15 && man == 7) return NAN;
  if (format == BF8 && exp == 31) return man ? NAN : sign * INFINITY;
  if (exp == 0) return sign * std::ldexp(double(man), 1 - bias - manBits);
  return sign * std::ldexp(double((1u << manBits) | man), int(exp) - bias - manBits);
}

/// Codes of a rows x k matrix packed row by row (fp4: two per byte, the even k in the low nibble; fp6/bf6: four per 3
/// bytes as AMD's packers write them: value 4q in bits 0-5 of byte 3q, 4q + 1 in its bits 6-7 and bits 0-3 of byte
/// 3q + 1, 4q + 2 in bits 4-7 of that byte and bits 0-1 of byte 3q + 2, 4q + 3 in its bits 2-7; k a multiple of 4).
inline std::vector<unsigned char> pack(int format, const std::vector<unsigned> &codes, int rows, int k) {
  const int rowBytes = k * bitsOf(format) / 8;
  std::vector<unsigned char> out(size_t(rows) * rowBytes, 0);
  for (int r = 0; r < rows; ++r)
    for (int kk = 0; kk < k; ++kk) {
      const unsigned c = codes[size_t(r) * k + kk];
      unsigned char *row = &out[size_t(r) * rowBytes];
      if (format == FP4) row[kk / 2] |= c << (4 * (kk % 2));
      else if (bitsOf(format) == 6) {
        unsigned char *q = row + 3 * (kk / 4);
        switch (kk % 4) {
        case 0: q[0] |= c; break;
        case 1: q[0] |= (c & 0x3) << 6, q[1] |= c >> 2; break;
        case 2: q[1] |= (c & 0xF) << 4, q[2] |= c >> 4; break;
        case 3: q[2] |= c << 2; break;
        }
      } else row[kk] = static_cast<unsigned char>(c);
    }
  return out;
}

/// D[i][j] of A (m x k codes) times B given n x k, with ks = ceil(k / 32) scales per row of each: each instruction of
/// K `stepK` adds the exact sum of its K values' scaled block products to the f32 accumulator and rounds once (the
/// rounding tilec's emulator documents for every MFMA). K values past k count zero.
inline float product(int fa, int fb, const std::vector<unsigned> &a, const std::vector<unsigned> &b,
                     const std::vector<unsigned char> &sa, const std::vector<unsigned char> &sb, int k, int ks,
                     int stepK, int i, int j) {
  float acc = 0;
  for (int k0 = 0; k0 < k; k0 += stepK) {
    double sum = acc;
    for (int blk = k0 / 32; blk < (k0 + stepK) / 32 && blk < ks; ++blk) {
      double dot = 0;
      for (int kk = 32 * blk; kk < 32 * blk + 32 && kk < k; ++kk)
        dot += value(fa, a[size_t(i) * k + kk]) * value(fb, b[size_t(j) * k + kk]);
      sum += std::ldexp(dot, sa[size_t(i) * ks + blk] - 127 + sb[size_t(j) * ks + blk] - 127);
    }
    acc = float(sum);
  }
  return acc;
}

} // namespace mxref
