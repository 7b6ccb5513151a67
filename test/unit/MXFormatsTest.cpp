//===- MXFormatsTest.cpp - The emulator's MX formats against the OCP MX spec ===//
//
// The reference below is written from the OCP Microscaling Formats (MX) Specification v1.0 (docs/mx.md): each format
// is sign, exponent field and mantissa field with a bias, exponent 0 subnormal, and the specials of its table. It
// computes values by multiplying and dividing by two (no ldexp), apart from the emulator's formulas. Every code of
// every format is compared (bit for bit, NaN with NaN), a few values per format are typed in by hand from the spec's
// tables, and the scaled MFMA is checked against the sum it must compute, with operands packed by the layouts of
// docs/mx.md typed in again here.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

// Last: the emulator header defines HIP's keywords (__global__, ...) as macros.
#include "tilec/emulator.h"

using namespace tilec::emu;

namespace {

/// A format as the spec describes it.
struct SpecFormat {
  const char *name;
  unsigned expBits, manBits;
  int bias;
  enum Specials { None, E4M3, IEEE } specials;
};

/// 2^e by repeated doubling or halving.
double pow2(int e) {
  double v = 1;
  for (; e > 0; --e) v *= 2;
  for (; e < 0; ++e) v /= 2;
  return v;
}

double reference(const SpecFormat &f, unsigned code) {
  const unsigned bits = 1 + f.expBits + f.manBits;
  const bool negative = (code >> (bits - 1)) & 1;
  const unsigned exp = (code >> f.manBits) & ((1u << f.expBits) - 1), man = code & ((1u << f.manBits) - 1);
  const unsigned expMax = (1u << f.expBits) - 1, manMax = (1u << f.manBits) - 1;
  if (f.specials == SpecFormat::E4M3 && exp == expMax && man == manMax) return NAN;
  if (f.specials == SpecFormat::IEEE && exp == expMax) return man ? NAN : (negative ? -INFINITY : INFINITY);
  // Significand as an integer over 2^manBits: 0.m for subnormals (exponent 1 - bias), 1.m otherwise.
  const double significand = (exp == 0 ? man : (1u << f.manBits) + man) / pow2(static_cast<int>(f.manBits));
  const double v = significand * pow2((exp == 0 ? 1 : static_cast<int>(exp)) - f.bias);
  return negative ? -v : v;
}

// OCP MX v1.0: E4M3 and E5M2 as in the OCP 8-bit spec, E2M3, E3M2, E2M1 with no specials.
const SpecFormat kE4M3{"e4m3", 4, 3, 7, SpecFormat::E4M3}, kE5M2{"e5m2", 5, 2, 15, SpecFormat::IEEE},
    kE2M3{"e2m3", 2, 3, 1, SpecFormat::None}, kE3M2{"e3m2", 3, 2, 3, SpecFormat::None},
    kE2M1{"e2m1", 2, 1, 1, SpecFormat::None};

/// Same double, bit for bit (so -0 differs from +0), or both NaN.
bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

void checkAllCodes(MxFormat f, const SpecFormat &spec, unsigned codes) {
  unsigned agree = 0;
  for (unsigned code = 0; code < codes; ++code) {
    const double got = decode_mx(code, f), want = reference(spec, code);
    EXPECT_TRUE(same(got, want)) << spec.name << " code 0x" << std::hex << code << ": " << got << " vs " << want;
    agree += same(got, want);
  }
  EXPECT_EQ(agree, codes);
}

TEST(MXFormatsTest, EveryCodeMatchesTheSpec) {
  checkAllCodes(MxFormat::FP8, kE4M3, 256);
  checkAllCodes(MxFormat::BF8, kE5M2, 256);
  checkAllCodes(MxFormat::FP6, kE2M3, 64);
  checkAllCodes(MxFormat::BF6, kE3M2, 64);
  checkAllCodes(MxFormat::FP4, kE2M1, 16);
}

TEST(MXFormatsTest, OcpFp8AgreesWithTheMfmaDecoder) {
  // emulator_mfma.h decodes OCP fp8 for the unscaled gfx950 MFMAs with its own formula: the two must agree.
  for (unsigned code = 0; code < 256; ++code) {
    EXPECT_TRUE(same(decode_mx(code, MxFormat::FP8), decode_f8(code, false, Fp8Encoding::OCP))) << code;
    EXPECT_TRUE(same(decode_mx(code, MxFormat::BF8), decode_f8(code, true, Fp8Encoding::OCP))) << code;
  }
}

TEST(MXFormatsTest, HandCheckedValues) {
  // E2M1: the eight magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6, then their negatives (0x8 is -0).
  const double e2m1[] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (unsigned c = 0; c < 8; ++c) {
    EXPECT_EQ(decode_mx(c, MxFormat::FP4), e2m1[c]);
    EXPECT_EQ(decode_mx(c | 8, MxFormat::FP4), -e2m1[c]);
  }
  EXPECT_TRUE(std::signbit(decode_mx(0x8, MxFormat::FP4)));
  // E2M3: max 7.5 (0x1F), min normal 1 (0x08), min subnormal 0.125 (0x01); no NaN or infinity anywhere.
  EXPECT_EQ(decode_mx(0x1F, MxFormat::FP6), 7.5);
  EXPECT_EQ(decode_mx(0x3F, MxFormat::FP6), -7.5);
  EXPECT_EQ(decode_mx(0x08, MxFormat::FP6), 1.0);
  EXPECT_EQ(decode_mx(0x01, MxFormat::FP6), 0.125);
  EXPECT_EQ(decode_mx(0x0B, MxFormat::FP6), 1.375);
  // E3M2: max 28 (0x1F), min normal 0.25 (0x04), min subnormal 0.0625 (0x01).
  EXPECT_EQ(decode_mx(0x1F, MxFormat::BF6), 28.0);
  EXPECT_EQ(decode_mx(0x04, MxFormat::BF6), 0.25);
  EXPECT_EQ(decode_mx(0x01, MxFormat::BF6), 0.0625);
  EXPECT_EQ(decode_mx(0x3A, MxFormat::BF6), -12.0); // 1 110 10: -(1 + 2/4) x 2^(6 - 3)
  EXPECT_EQ(decode_mx(0x2E, MxFormat::BF6), -1.5);  // 1 011 10: -(1 + 2/4) x 2^(3 - 3)
  for (unsigned c = 0; c < 64; ++c) {
    EXPECT_TRUE(std::isfinite(decode_mx(c, MxFormat::FP6)));
    EXPECT_TRUE(std::isfinite(decode_mx(c, MxFormat::BF6)));
  }
  // E4M3 (OCP): 448 = S.1111.110, NaN = S.1111.111, 1 = 0x38, min normal 2^-6 = 0x08, min subnormal 2^-9 = 0x01.
  EXPECT_EQ(decode_mx(0x7E, MxFormat::FP8), 448.0);
  EXPECT_EQ(decode_mx(0xFE, MxFormat::FP8), -448.0);
  EXPECT_TRUE(std::isnan(decode_mx(0x7F, MxFormat::FP8)));
  EXPECT_TRUE(std::isnan(decode_mx(0xFF, MxFormat::FP8)));
  EXPECT_EQ(decode_mx(0x78, MxFormat::FP8), 256.0) << "exponent field 15 is a normal number in E4M3";
  EXPECT_EQ(decode_mx(0x38, MxFormat::FP8), 1.0);
  EXPECT_EQ(decode_mx(0x08, MxFormat::FP8), 1.0 / 64);
  EXPECT_EQ(decode_mx(0x01, MxFormat::FP8), 1.0 / 512);
  // E5M2: 57344 = 0x7B, infinities 0x7C / 0xFC, NaN 0x7D..0x7F, 1 = 0x3C, min subnormal 2^-16 = 0x01.
  EXPECT_EQ(decode_mx(0x7B, MxFormat::BF8), 57344.0);
  EXPECT_EQ(decode_mx(0x7C, MxFormat::BF8), INFINITY);
  EXPECT_EQ(decode_mx(0xFC, MxFormat::BF8), -INFINITY);
  EXPECT_TRUE(std::isnan(decode_mx(0x7D, MxFormat::BF8)));
  EXPECT_TRUE(std::isnan(decode_mx(0xFF, MxFormat::BF8)));
  EXPECT_EQ(decode_mx(0x3C, MxFormat::BF8), 1.0);
  EXPECT_EQ(decode_mx(0x01, MxFormat::BF8), 1.0 / 65536);
  // E8M0: 2^(e - 127); 0xFF is NaN; no zero.
  EXPECT_EQ(decode_e8m0(0x7F), 1.0);
  EXPECT_EQ(decode_e8m0(0x80), 2.0);
  EXPECT_EQ(decode_e8m0(0x7D), 0.25);
  EXPECT_EQ(decode_e8m0(0x00), pow2(-127));
  EXPECT_EQ(decode_e8m0(0xFE), pow2(127));
  EXPECT_TRUE(std::isnan(decode_e8m0(0xFF)));
  for (unsigned e = 0; e < 255; ++e) EXPECT_EQ(decode_e8m0(static_cast<std::uint8_t>(e)), pow2(int(e) - 127));
}

//===--- The scaled product ---===//

/// C/D of one lane (the unit tests are compiled by GCC, which has no ext_vector_type).
template <unsigned N> struct AccOf {
  float v[N];
  float &operator[](unsigned i) { return v[i]; }
  const float &operator[](unsigned i) const { return v[i]; }
};
using Acc4 = AccOf<4>;
using Acc16 = AccOf<16>;

/// One instruction's logical operands: codes of A (m x k), B (k x n), scale bytes (m x blocks, n x blocks), C.
struct Problem {
  unsigned m, n, k;
  MxFormat fa, fb;
  std::vector<unsigned> a, b;        // a[i * k + kk], b[kk * n + j]
  std::vector<std::uint8_t> sa, sb;  // sa[i * blocks + blk], sb[j * blocks + blk]
  std::vector<float> c;              // c[i * n + j]
};

/// docs/mx.md's layouts, typed in again: fp4 lane i + M * (k / 32), nibble k % 32; fp8 lane i + M * ((k / 16) % G),
/// byte 16 * ((k / 16) / G) + k % 16; fp6/bf6 as the CDNA4 ISA guide's tables draw them: lane i + M * (k / 32), K
/// offsets 0-15 of the lane's 32 in v0-v2 and 16-31 in v3-v5, each triple a 96-bit register with item n at bits
/// 6n .. 6n + 5 (item 5 at bits 30-35 crosses into the next dword).
void place(unsigned m, MxFormat f, unsigned i, unsigned k, unsigned code, std::uint32_t (*lanes)[8]) {
  unsigned lane, bit;
  if (f == MxFormat::FP6 || f == MxFormat::BF6) {
    lane = i + m * (k / 32);
    const unsigned offset = k % 32, triple = offset / 16, item = offset % 16;
    const unsigned lo = 6 * item; // within the triple's 96 bits
    std::uint32_t *regs = lanes[lane] + 3 * triple;
    regs[lo / 32] |= code << (lo % 32);
    if (lo % 32 > 26) regs[lo / 32 + 1] |= code >> (32 - lo % 32);
    return;
  }
  if (f == MxFormat::FP4) {
    lane = i + m * (k / 32);
    bit = 4 * (k % 32);
  } else {
    const unsigned groups = 64 / m;
    lane = i + m * ((k / 16) % groups);
    bit = 8 * (16 * ((k / 16) / groups) + k % 16);
  }
  lanes[lane][bit / 32] |= code << (bit % 32);
}

/// D[i][j] of the 16x16 / 32x32 MFMAs (shared/facts/mfma.md).
std::pair<unsigned, unsigned> slotD(unsigned m, unsigned i, unsigned j) {
  if (m == 16) return {j + 16 * (i / 4), i % 4};
  return {j + 32 * ((i / 4) % 2), 4 * (i / 8) + i % 4};
}

/// Runs the emulator's instruction on the packed operands (scale bytes at byte `opsel` of each lane's register, the
/// other bytes filled with 0xFF, NaN, so reading the wrong byte shows) and returns D (m x n).
template <typename Acc>
std::vector<float> run(const MxInstr &ins, const Problem &p, int opselA, int opselB) {
  std::vector<MxOperands<Acc>> lanes(64);
  std::uint32_t a[64][8] = {}, b[64][8] = {};
  for (unsigned i = 0; i < p.m; ++i)
    for (unsigned k = 0; k < p.k; ++k) place(p.m, p.fa, i, k, p.a[i * p.k + k], a);
  for (unsigned j = 0; j < p.n; ++j)
    for (unsigned k = 0; k < p.k; ++k) place(p.m, p.fb, j, k, p.b[k * p.n + j], b);
  const unsigned blocks = p.k / 32;
  for (unsigned l = 0; l < 64; ++l) {
    std::memcpy(lanes[l].a, a[l], 32);
    std::memcpy(lanes[l].b, b[l], 32);
    lanes[l].scaleA = lanes[l].scaleB = 0xFFFFFFFFu;
    lanes[l].cbsz = static_cast<int>(p.fa);
    lanes[l].blgp = static_cast<int>(p.fb);
    lanes[l].opselA = opselA;
    lanes[l].opselB = opselB;
  }
  auto setByte = [](std::uint32_t &reg, int sel, std::uint8_t v) {
    reg = (reg & ~(0xFFu << (8 * sel))) | (std::uint32_t(v) << (8 * sel));
  };
  for (unsigned i = 0; i < p.m; ++i)
    for (unsigned blk = 0; blk < blocks; ++blk) {
      setByte(lanes[i + p.m * blk].scaleA, opselA, p.sa[i * blocks + blk]);
      setByte(lanes[i + p.m * blk].scaleB, opselB, p.sb[i * blocks + blk]);
    }
  for (unsigned i = 0; i < p.m; ++i)
    for (unsigned j = 0; j < p.n; ++j) {
      auto [lane, elem] = slotD(p.m, i, j);
      lanes[lane].c[elem] = p.c[i * p.n + j];
    }
  std::vector<Acc> out(64);
  const void *in[64];
  void *outp[64];
  for (unsigned l = 0; l < 64; ++l) {
    in[l] = &lanes[l];
    outp[l] = &out[l];
  }
  mx_compute<Acc>(&ins, in, outp);
  std::vector<float> d(p.m * p.n);
  for (unsigned i = 0; i < p.m; ++i)
    for (unsigned j = 0; j < p.n; ++j) {
      auto [lane, elem] = slotD(p.m, i, j);
      d[i * p.n + j] = out[lane][elem];
    }
  return d;
}

const SpecFormat &specOf(MxFormat f) {
  switch (f) {
  case MxFormat::FP8: return kE4M3;
  case MxFormat::BF8: return kE5M2;
  case MxFormat::FP6: return kE2M3;
  case MxFormat::BF6: return kE3M2;
  case MxFormat::FP4: return kE2M1;
  }
  return kE2M1;
}

/// D = C + sum over blocks of 2^(sa - 127) 2^(sb - 127) times the block's dot product, from the spec's values.
std::vector<float> expected(const Problem &p) {
  const unsigned blocks = p.k / 32;
  std::vector<float> d(p.m * p.n);
  for (unsigned i = 0; i < p.m; ++i)
    for (unsigned j = 0; j < p.n; ++j) {
      double sum = p.c[i * p.n + j];
      for (unsigned blk = 0; blk < blocks; ++blk) {
        const double xa = p.sa[i * blocks + blk] == 0xFF ? NAN : pow2(p.sa[i * blocks + blk] - 127);
        const double xb = p.sb[j * blocks + blk] == 0xFF ? NAN : pow2(p.sb[j * blocks + blk] - 127);
        double dot = 0;
        for (unsigned k = 32 * blk; k < 32 * blk + 32; ++k)
          dot += reference(specOf(p.fa), p.a[i * p.k + k]) * reference(specOf(p.fb), p.b[k * p.n + j]);
        sum += xa * xb * dot;
      }
      d[i * p.n + j] = static_cast<float>(sum);
    }
  return d;
}

/// Random finite codes (fp8 NaN codes and bf8 specials avoided), scales near 1 (2^-4 .. 2^4), C small.
Problem randomProblem(const MxInstr &ins, MxFormat fa, MxFormat fb, std::mt19937 &rng) {
  Problem p{ins.m, ins.n, ins.k, fa, fb, {}, {}, {}, {}, {}};
  auto code = [&](MxFormat f) {
    for (;;) {
      const unsigned c = rng() % (1u << mx_info(f).bits);
      if (std::isfinite(decode_mx(c, f))) return c;
    }
  };
  for (unsigned x = 0; x < p.m * p.k; ++x) p.a.push_back(code(fa));
  for (unsigned x = 0; x < p.k * p.n; ++x) p.b.push_back(code(fb));
  for (unsigned x = 0; x < p.m * p.k / 32; ++x) p.sa.push_back(static_cast<std::uint8_t>(123 + rng() % 9));
  for (unsigned x = 0; x < p.n * p.k / 32; ++x) p.sb.push_back(static_cast<std::uint8_t>(123 + rng() % 9));
  for (unsigned x = 0; x < p.m * p.n; ++x) p.c.push_back(static_cast<float>(static_cast<int>(rng() % 64) - 32) / 8);
  return p;
}

template <typename Acc> void checkInstr(const MxInstr &ins) {
  std::mt19937 rng(14);
  const MxFormat formats[] = {MxFormat::FP8, MxFormat::BF8, MxFormat::FP6, MxFormat::BF6, MxFormat::FP4};
  for (MxFormat fa : formats)
    for (MxFormat fb : formats) {
      SCOPED_TRACE(std::string(ins.name) + " " + mx_info(fa).name + " x " + mx_info(fb).name);
      const Problem p = randomProblem(ins, fa, fb, rng);
      const int opselA = static_cast<int>(rng() % 4), opselB = static_cast<int>(rng() % 4);
      const std::vector<float> got = run<Acc>(ins, p, opselA, opselB), want = expected(p);
      unsigned agree = 0;
      for (unsigned x = 0; x < got.size(); ++x) agree += same(got[x], want[x]);
      EXPECT_EQ(agree, got.size()) << "first: " << got[0] << " vs " << want[0];
    }
}

TEST(MXFormatsTest, ScaledProduct16x16x128) { checkInstr<Acc4>(mx_instr::f32_16x16x128); }
TEST(MXFormatsTest, ScaledProduct32x32x64) { checkInstr<Acc16>(mx_instr::f32_32x32x64); }

TEST(MXFormatsTest, ScalesSelectBlocksAndNaNScalesPoison) {
  // One-hot data: A[i][k] = 1 only at (3, 40), B[k][j] = 1 only at (40, 5); fp4 code 2 is 1.0.
  const MxInstr &ins = mx_instr::f32_16x16x128;
  Problem p{16, 16, 128, MxFormat::FP4, MxFormat::FP4, std::vector<unsigned>(16 * 128), std::vector<unsigned>(128 * 16),
            std::vector<std::uint8_t>(16 * 4, 127), std::vector<std::uint8_t>(16 * 4, 127), std::vector<float>(256)};
  p.a[3 * 128 + 40] = 2;
  p.b[40 * 16 + 5] = 2;
  p.sa[3 * 4 + 1] = 130; // block 1 (K 32..63) of row 3: x 8
  p.sb[5 * 4 + 1] = 125; // block 1 of column 5: x 1/4
  std::vector<float> d = run<Acc4>(ins, p, 1, 2);
  for (unsigned x = 0; x < 256; ++x) EXPECT_EQ(d[x], x == 3 * 16 + 5 ? 2.0f : 0.0f) << x;
  // A NaN scale (0xFF) makes its block's contribution NaN even where the data is zero, and only its row.
  p.sa[7 * 4 + 2] = 0xFF;
  d = run<Acc4>(ins, p, 0, 3);
  for (unsigned j = 0; j < 16; ++j) EXPECT_TRUE(std::isnan(d[7 * 16 + j])) << j;
  EXPECT_EQ(d[3 * 16 + 5], 2.0f);
  EXPECT_EQ(d[6 * 16 + 5], 0.0f);
}

} // namespace
