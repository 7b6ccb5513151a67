// Checks tilec/runtime.h's fp8/bf8 conversions against an independent reference: every code is decoded from the
// format's definition (sign, exponent, mantissa, bias; FNUZ/OCP special values), and encoding is checked by searching
// all finite codes for the nearest value (ties to the even mantissa, saturation at the largest finite value).
#include "tilec/runtime.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

using tilec::Fp8Format;

struct Format {
  Fp8Format id;
  const char *name;
  int expBits, manBits, bias;
  bool fnuz, hasInf;
};

static int failures = 0;
#define EXPECT(cond, ...)                                                                                               \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      if (++failures < 20) std::printf(__VA_ARGS__);                                                                   \
    }                                                                                                                  \
  } while (0)

// The value of `code` from the definition of the format.
static double reference(const Format &f, unsigned code) {
  bool neg = code & 0x80;
  unsigned e = (code >> f.manBits) & ((1u << f.expBits) - 1), m = code & ((1u << f.manBits) - 1);
  unsigned maxE = (1u << f.expBits) - 1;
  if (f.fnuz && code == 0x80) return NAN;
  if (!f.fnuz && !f.hasInf && e == maxE && m == (1u << f.manBits) - 1) return NAN; // e4m3fn: S.1111.111
  if (f.hasInf && e == maxE) return m ? NAN : (neg ? -INFINITY : INFINITY);
  double v = e == 0 ? std::ldexp(double(m), 1 - f.bias - f.manBits)
                    : std::ldexp(1.0 + double(m) / (1 << f.manBits), int(e) - f.bias);
  return neg ? -v : v;
}

template <Fp8Format F> static float decode(unsigned char c) { return tilec::fp8_to_f32<F>(c); }
template <Fp8Format F> static unsigned char encode(float x) { return tilec::f32_to_fp8<F>(x); }

template <Fp8Format F> static void check(const Format &f) {
  // Decoding every code.
  std::vector<std::pair<double, unsigned>> finite;
  for (unsigned c = 0; c < 256; ++c) {
    double want = reference(f, c);
    float got = decode<F>(static_cast<unsigned char>(c));
    if (std::isnan(want)) EXPECT(std::isnan(got), "%s: decode(0x%02x) = %g, want NaN\n", f.name, c, got);
    else EXPECT(double(got) == want, "%s: decode(0x%02x) = %g, want %g\n", f.name, c, got, want);
    if (std::isfinite(want) && !(want == 0 && (c & 0x80))) finite.push_back({want, c});
  }
  double maxFinite = 0;
  for (auto &p : finite) maxFinite = std::max(maxFinite, p.first);
  // Encoding: nearest finite code, ties to the even mantissa, saturating; checked on every code's value, the
  // midpoints between neighbours, and a sweep of random values.
  auto expected = [&](double x) -> unsigned {
    if (std::isnan(x)) return 0x100; // any NaN code
    double a = std::fabs(x);
    if (a >= maxFinite) return (x < 0 ? 0x80u : 0u) | (f.fnuz ? 0x7Fu : (f.hasInf ? 0x7Bu : 0x7Eu));
    unsigned best = 0;
    double bestDist = INFINITY;
    for (auto &p : finite) {
      if (p.first < 0) continue;
      double d = std::fabs(p.first - a);
      if (d < bestDist || (d == bestDist && (p.second & 1) == 0)) bestDist = d, best = p.second;
    }
    if (best == 0) return (x < 0 && !f.fnuz) ? 0x80u : 0u; // zero keeps its sign only where -0 exists
    return best | (x < 0 ? 0x80u : 0u);
  };
  std::vector<double> probes;
  for (auto &p : finite) probes.push_back(p.first);
  for (size_t i = 0; i < finite.size(); ++i)
    for (size_t j = 0; j < finite.size(); ++j)
      if (finite[j].second == finite[i].second + 1 && !((finite[i].second ^ finite[j].second) & 0x80))
        probes.push_back((finite[i].first + finite[j].first) / 2);
  unsigned seed = 12345;
  for (int i = 0; i < 20000; ++i) {
    seed = seed * 1103515245u + 12345u;
    double mant = double(seed % 1000000) / 1000000.0;
    int exp = int((seed >> 8) % 48) - 30;
    probes.push_back(std::ldexp(1.0 + mant, exp) * ((seed >> 4) & 1 ? -1 : 1));
  }
  probes.push_back(INFINITY);
  probes.push_back(-INFINITY);
  probes.push_back(1e30);
  for (double x : probes) {
    unsigned want = expected(x);
    unsigned got = encode<F>(float(x));
    EXPECT(got == want, "%s: encode(%.9g) = 0x%02x, want 0x%02x\n", f.name, x, got, want);
  }
  EXPECT(std::isnan(decode<F>(encode<F>(NAN))), "%s: NaN does not stay NaN\n", f.name);
}

int main() {
  check<Fp8Format::E4M3FNUZ>({Fp8Format::E4M3FNUZ, "e4m3fnuz", 4, 3, 8, true, false});
  check<Fp8Format::E5M2FNUZ>({Fp8Format::E5M2FNUZ, "e5m2fnuz", 5, 2, 16, true, false});
  check<Fp8Format::E4M3FN>({Fp8Format::E4M3FN, "e4m3fn", 4, 3, 7, false, false});
  check<Fp8Format::E5M2>({Fp8Format::E5M2, "e5m2", 5, 2, 15, false, true});
  // Landmarks from the formats' definitions.
  EXPECT(decode<Fp8Format::E4M3FNUZ>(0x7F) == 240.0f, "e4m3fnuz max\n");
  EXPECT(decode<Fp8Format::E4M3FN>(0x7E) == 448.0f, "e4m3fn max\n");
  EXPECT(decode<Fp8Format::E5M2>(0x7B) == 57344.0f, "e5m2 max\n");
  EXPECT(decode<Fp8Format::E5M2FNUZ>(0x7F) == 57344.0f, "e5m2fnuz max\n");
  EXPECT(encode<Fp8Format::E4M3FN>(1.0f) == 0x38 && encode<Fp8Format::E4M3FNUZ>(1.0f) == 0x40, "1.0\n");
  EXPECT(encode<Fp8Format::E4M3FN>(1.0625f) == 0x38, "tie 1.0625 rounds to even 1.0\n");
  EXPECT(encode<Fp8Format::E4M3FN>(1.1875f) == 0x3A, "tie 1.1875 rounds to even 1.25\n");
  EXPECT(encode<Fp8Format::E4M3FNUZ>(-0.0f) == 0x00, "FNUZ has no negative zero\n");
  EXPECT(encode<Fp8Format::E4M3FN>(-0.0f) == 0x80, "OCP keeps negative zero\n");
  EXPECT(decode<Fp8Format::E4M3FNUZ>(0x01) == std::ldexp(1.0f, -10), "e4m3fnuz smallest subnormal 2^-10\n");
  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("fp8 conversions: all checks passed\n");
  return 0;
}
