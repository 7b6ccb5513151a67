// The activations and saturation of runtime/include/tilec/runtime.h, compiled for the emulator (their v_exp_f32 and
// v_rcp_f32 are the host's exp2 and division there), against double-precision formulas:
//   gelu (tanh form) = x / (1 + e^(-2u)), u = sqrt(2 / pi) (x + 0.044715 x^3); silu = x / (1 + e^-x);
// over x in [-20, 20] in steps of 1e-5, where the sigmoid is at least 2^-126 (below it, 2^t overflows and the
// result is 0). Bounds in units of 2^-23 relative: gelu 96 (measured 83; the rounding of the exponent's
// argument, up to |2u log2 e| 2^-24, dominates for very negative x), 8 where |gelu(x)| >= 1e-3; silu 10. relu is
// exact and keeps NaN and -0. saturate_to clamps to the finite range before rounding: f16 70000, 65520 (which
// rounds to inf) and inf give 65504; bf16 3.4e38 gives 0x7F7F; NaN stays NaN.
#include "tilec/runtime.h"
#include <cmath>
#include <cstdio>
#include <cstring>

static int failures = 0;
static void expect(bool ok, const char *what) {
  if (!ok) std::printf("FAILED: %s\n", what), ++failures;
}

int main() {
  double gelu = 0, geluLarge = 0, silu = 0;
  for (int i = -2000000; i <= 2000000; ++i) {
    const float x = float(i) * 1e-5f;
    const double xd = x;
    const double g = xd / (1.0 + std::exp(-2.0 * std::sqrt(2.0 / M_PI) * (xd + 0.044715 * xd * xd * xd)));
    const double s = xd / (1.0 + std::exp(-xd));
    const double ulp = std::ldexp(1.0, -23);
    // Where the sigmoid falls below 2^-126 (|result| < 2^-126 |x|) its 2^t overflows f32 and the result is 0.
    if (std::fabs(g) >= std::ldexp(std::fabs(xd), -126)) {
      double e = std::fabs(double(tilec::gelu(x)) - g) / std::fabs(g) / ulp;
      gelu = std::fmax(gelu, e);
      if (std::fabs(g) >= 1e-3) geluLarge = std::fmax(geluLarge, e);
    }
    if (std::fabs(s) >= std::ldexp(std::fabs(xd), -126)) silu = std::fmax(silu, std::fabs(double(tilec::silu(x)) - s) / std::fabs(s) / ulp);
  }
  std::printf("gelu: %.1f ulp (%.1f where |gelu| >= 1e-3), silu: %.1f ulp\n", gelu, geluLarge, silu);
  expect(gelu <= 96 && geluLarge <= 8 && silu <= 10, "activation precision");
  // The vector forms compute element by element, f16 through f32.
  tilec::f16x4 h = {_Float16(-1.5f), _Float16(0.0f), _Float16(2.0f), _Float16(-0.0f)};
  tilec::f16x4 r = tilec::relu(h);
  expect(float(r[0]) == 0.0f && float(r[2]) == 2.0f && std::signbit(float(r[3])), "relu of f16x4");
  expect(std::isnan(tilec::relu(NAN)), "relu keeps NaN");
  expect(tilec::relu(-7) == 0 && tilec::relu(7) == 7, "relu of i32");
  expect(float(tilec::gelu(_Float16(1.0f))) == float(_Float16(tilec::gelu(1.0f))), "gelu of f16 rounds once");
  // Saturation.
  auto f16sat = [](float x) { return float(static_cast<_Float16>(tilec::saturate_to<_Float16>(x))); };
  expect(f16sat(70000.0f) == 65504.0f && f16sat(-70000.0f) == -65504.0f, "f16 beyond the range");
  expect(f16sat(65520.0f) == 65504.0f && float(static_cast<_Float16>(65520.0f)) == INFINITY, "f16 65520");
  expect(f16sat(INFINITY) == 65504.0f && f16sat(-INFINITY) == -65504.0f, "f16 infinities");
  expect(std::isnan(f16sat(NAN)), "f16 NaN");
  expect(f16sat(1.0f) == 1.0f && f16sat(-3.5f) == -3.5f, "f16 inside the range");
  __bf16 b = static_cast<__bf16>(tilec::saturate_to<__bf16>(3.4e38f));
  unsigned short bits;
  std::memcpy(&bits, &b, 2);
  expect(bits == 0x7F7F, "bf16 3.4e38 gives the largest finite bf16");
  tilec::f32x4 v = {1e10f, -1e10f, NAN, 2.0f};
  tilec::f32x4 sv = tilec::saturate_to<_Float16>(v);
  expect(sv[0] == 65504.0f && sv[1] == -65504.0f && std::isnan(sv[2]) && sv[3] == 2.0f, "f32x4 saturated for f16");
  std::printf(failures ? "activations: %d checks failed\n" : "activations: all checks passed\n", failures);
  return failures != 0;
}
