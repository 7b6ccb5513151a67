// The element functions on the emulator against double-precision references, for sizes with tails. The emulator
// models v_exp_f32, v_log_f32, v_sqrt_f32 and v_rsq_f32 with libm (exact to within libm's error), so:
//   exp2, sqrt: within 2^-22 relative (libm's error, and the device's 1 ulp is 2^-23);
//   exp(x) = 2^(x log2 e): the product's rounding (2^-24 relative) moves the exponent by |x log2 e| 2^-24, so within
//     (2^-22 + |x| 2^-23) relative; log(x) = log2(x) ln 2: within 2^-22 relative plus 2^-40 absolute;
//   rsqrt: 1 / sqrt in two roundings: 2^-22 relative; abs and select exact;
//   f16 (computed in f32, rounded once to f16): within 1 f16 ulp of the exact value.
#include "check.h"
#include <functional>

extern "C" hipError_t launch_math_f32(const float *X, float *E, float *E2, float *L, float *Q, float *R, float *A,
                                      float *S, int M, int N, hipStream_t stream);
extern "C" hipError_t launch_math_f16(const _Float16 *X, _Float16 *E, _Float16 *R, _Float16 *A, int M, int N,
                                      hipStream_t stream);

static double f16ulp(double w) {
  return std::ldexp(1.0, std::max(-24, int(std::floor(std::log2(std::fabs(w) + 1e-300))) - 10));
}

int main() {
  int runs = 0, failures = 0;
  for (int M : {1, 32, 45})
    for (int N : {3, 32, 70}) {
      size_t n = size_t(M) * N;
      std::vector<float> x = pattern(n, M * 3 + N, 30.0f);
      DeviceBuffer<float> dx(x), e(n), e2(n), l(n), q(n), r(n), a(n), s(n);
      hipError_t err = launch_math_f32(dx.ptr, e.ptr, e2.ptr, l.ptr, q.ptr, r.ptr, a.ptr, s.ptr, M, N, nullptr);
      auto rel = [](double tol) { return [tol](float g, double w) { return std::fabs(g - w) <= tol * std::fabs(w); }; };
      std::vector<double> we(n), we2(n), wl(n), wq(n), wr(n), wa(n), ws(n);
      for (size_t i = 0; i < n; ++i) {
        double v = x[i];
        we[i] = std::exp(v), we2[i] = std::exp2(v), wl[i] = std::log(std::fabs(v)), wq[i] = std::sqrt(std::fabs(v));
        wr[i] = 1 / std::sqrt(std::fabs(v)), wa[i] = std::fabs(v), ws[i] = v < 0 ? -2 * v : v;
      }
      int bad = err != hipSuccess;
      std::vector<float> ge = e.download();
      for (size_t i = 0; i < n; ++i)
        if (!(std::fabs(ge[i] - we[i]) <= (std::ldexp(1.0, -22) + std::fabs(x[i]) * std::ldexp(1.0, -23)) * we[i]) &&
            bad++ < 3)
          std::printf("  exp(%g) = %g, want %g\n", x[i], ge[i], we[i]);
      bad += compare("exp2", e2.download(), we2, N, rel(std::ldexp(1.0, -22)));
      bad += compare("log", l.download(), wl, N, [](float g, double w) {
        return std::fabs(g - w) <= std::ldexp(1.0, -22) * std::fabs(w) + std::ldexp(1.0, -40);
      });
      bad += compare("sqrt", q.download(), wq, N, rel(std::ldexp(1.0, -22)));
      bad += compare("rsqrt", r.download(), wr, N, rel(std::ldexp(1.0, -22)));
      bad += compare("abs", a.download(), wa, N, [](float g, double w) { return g == w; });
      bad += compare("select", s.download(), ws, N, [](float g, double w) { return g == w; });
      failures += bad != 0;
      ++runs;
      if (bad) std::printf("math_f32 M=%d N=%d: %s, %d mismatches\n", M, N, hipGetErrorString(err), bad);

      std::vector<_Float16> h(n);
      for (size_t i = 0; i < n; ++i) h[i] = static_cast<_Float16>(x[i] / 4); // exp stays inside f16's range
      DeviceBuffer<_Float16> dh(h), he(n), hr(n), ha(n);
      err = launch_math_f16(dh.ptr, he.ptr, hr.ptr, ha.ptr, M, N, nullptr);
      std::vector<double> whe(n), whr(n), wha(n);
      for (size_t i = 0; i < n; ++i) {
        double v = double(h[i]);
        whe[i] = std::exp(v), whr[i] = 1 / std::sqrt(std::fabs(v)), wha[i] = std::fabs(v);
      }
      auto ulp1 = [](_Float16 g, double w) { return std::isinf(w) ? std::isinf(double(g)) : std::fabs(double(g) - w) <= f16ulp(w); };
      bad = err != hipSuccess;
      bad += compare("exp f16", he.download(), whe, N, ulp1);
      bad += compare("rsqrt f16", hr.download(), whr, N, ulp1);
      bad += compare("abs f16", ha.download(), wha, N, [](_Float16 g, double w) { return double(g) == w; });
      failures += bad != 0;
      ++runs;
      if (bad) std::printf("math_f16 M=%d N=%d: %s, %d mismatches\n", M, N, hipGetErrorString(err), bad);
    }
  std::printf("functions: %d of %d runs within their bounds\n", runs - failures, runs);
  return failures != 0;
}
