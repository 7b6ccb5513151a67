//===- tilec/fp8.h - fp8 and bf8 conversions of code emitted by tilec --------===//
//
// The fp8 half of tilec/runtime.h: the four 8-bit float encodings of gfx942 (FNUZ) and gfx950 (OCP), converted to and
// from f32 in software where no instruction does it. tilec/runtime.h includes it after its reductions; including it
// first includes tilec/runtime.h.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FP8_H
#define TILEC_FP8_H

#include "tilec/runtime.h"

namespace tilec {

//===--- fp8 / bf8 ---===//
//
// Four 8-bit float encodings. FNUZ (gfx942): no negative zero, no infinities, 0x80 is the only NaN. OCP (gfx950):
// e4m3fn has no infinities and NaN = S.1111.111; e5m2 is IEEE-like with infinities. Conversion from f32 rounds to
// nearest even; finite values beyond the largest finite fp8 value and infinities saturate to it (with their sign);
// NaN stays NaN. Subnormals are kept.

enum class Fp8Format { E4M3FNUZ, E5M2FNUZ, E4M3FN, E5M2 };

template <Fp8Format F> struct Fp8Traits;
template <> struct Fp8Traits<Fp8Format::E4M3FNUZ> {
  static constexpr int man = 3, bias = 8;
  static constexpr unsigned char maxFinite = 0x7F, nan = 0x80;
  static constexpr bool fnuz = true, hasInf = false;
};
template <> struct Fp8Traits<Fp8Format::E5M2FNUZ> {
  static constexpr int man = 2, bias = 16;
  static constexpr unsigned char maxFinite = 0x7F, nan = 0x80;
  static constexpr bool fnuz = true, hasInf = false;
};
template <> struct Fp8Traits<Fp8Format::E4M3FN> {
  static constexpr int man = 3, bias = 7;
  static constexpr unsigned char maxFinite = 0x7E, nan = 0x7F;
  static constexpr bool fnuz = false, hasInf = false;
};
template <> struct Fp8Traits<Fp8Format::E5M2> {
  static constexpr int man = 2, bias = 15;
  static constexpr unsigned char maxFinite = 0x7B, nan = 0x7F;
  static constexpr bool fnuz = false, hasInf = true;
};

/// f32 -> one fp8 byte of format F (round to nearest even, saturating).
template <Fp8Format F> TILEC_DEVICE unsigned char f32_to_fp8(float f) {
  using T = Fp8Traits<F>;
  const std::uint32_t bits = __builtin_bit_cast(std::uint32_t, f);
  const unsigned char sign = static_cast<unsigned char>((bits >> 24) & 0x80);
  const std::uint32_t mag = bits & 0x7FFFFFFFu;
  if (mag > 0x7F800000u) return T::nan;
  const int exp = static_cast<int>(mag >> 23) - 127;
  const int minExp = 1 - T::bias; // smallest normal exponent of the target
  unsigned code;
  if (exp >= 32) {
    code = T::maxFinite + 1u; // far beyond every fp8 range (infinity too): saturates below
  } else {
    const std::uint32_t significand = (mag & 0x7FFFFFu) | (exp > -127 ? 0x800000u : 0u);
    const int shift = 23 - T::man + (exp < minExp ? minExp - exp : 0);
    std::uint32_t q = 0;
    if (shift < 25) {
      q = significand >> shift;
      const std::uint32_t rest = significand & ((1u << shift) - 1u), half = 1u << (shift - 1);
      if (rest > half || (rest == half && (q & 1u))) ++q;
    }
    // Subnormal: the code is q itself (a carry into 1 << man is the smallest normal). Normal: q holds the implicit bit.
    code = exp < minExp ? q : (static_cast<unsigned>(exp + T::bias) << T::man) + q - (1u << T::man);
  }
  if (code > T::maxFinite) code = T::maxFinite;
  if (code == 0 && T::fnuz) return 0; // FNUZ has no negative zero
  return static_cast<unsigned char>(code | sign);
}

/// One fp8 byte of format F -> f32 (exact).
template <Fp8Format F> TILEC_DEVICE float fp8_to_f32(unsigned char b) {
  using T = Fp8Traits<F>;
  const float nan = __builtin_bit_cast(float, 0x7FC00000u);
  if (T::fnuz && b == 0x80) return nan;
  const unsigned mag = b & 0x7Fu;
  const unsigned expField = mag >> T::man, man = mag & ((1u << T::man) - 1u);
  const unsigned maxExpField = (1u << (7 - T::man)) - 1u;
  if (!T::fnuz && !T::hasInf && mag == 0x7F) return (b & 0x80) ? -nan : nan;
  if (T::hasInf && expField == maxExpField) {
    const float inf = __builtin_bit_cast(float, 0x7F800000u);
    return man ? nan : ((b & 0x80) ? -inf : inf);
  }
  float v;
  if (expField == 0) // subnormal: man * 2^(1 - bias - man)
    v = static_cast<float>(man) *
        __builtin_bit_cast(float, static_cast<std::uint32_t>(127 + 1 - T::bias - T::man) << 23);
  else
    v = __builtin_bit_cast(float, (static_cast<std::uint32_t>(static_cast<int>(expField) - T::bias + 127) << 23) |
                                      (man << (23 - T::man)));
  return (b & 0x80) ? -v : v;
}

/// Element-wise fp8 conversions of whole accesses.
template <Fp8Format F, int N> TILEC_DEVICE vec_t<unsigned char, N> f32_to_fp8(vec_t<float, N> v) {
  if constexpr (N == 1) {
    return f32_to_fp8<F>(static_cast<float>(v));
  } else {
    vec_t<unsigned char, N> out;
#pragma unroll
    for (int e = 0; e < N; ++e) out[e] = f32_to_fp8<F>(static_cast<float>(v[e]));
    return out;
  }
}
template <Fp8Format F, int N> TILEC_DEVICE vec_t<float, N> fp8_to_f32(vec_t<unsigned char, N> v) {
  if constexpr (N == 1) {
    return fp8_to_f32<F>(static_cast<unsigned char>(v));
  } else {
    vec_t<float, N> out;
#pragma unroll
    for (int e = 0; e < N; ++e) out[e] = fp8_to_f32<F>(static_cast<unsigned char>(v[e]));
    return out;
  }
}

} // namespace tilec

#endif // TILEC_FP8_H
