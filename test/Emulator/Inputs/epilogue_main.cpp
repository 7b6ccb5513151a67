// GEMM epilogues on the emulator (test/Emulator/epilogue.test): each kernel's output against a double-precision
// reference computed from the very inputs, for sizes with tails in M, N and K and with element-aligned tensors
// (the _unaligned kernel). Tolerances, with mag = sum_k |a b|:
//   the f32 accumulation: 2^-20 mag (the emulated MFMA rounds to f32 once per instruction, as in gemm_main.cpp);
//   the rounding to the output: f16 2^-10 |ref| (one ulp), bf16 2^-7 |ref| (one ulp: the activation's own f32
//   error can move a value across a rounding boundary), fp8 e4m3 2^-3 |ref| (one ulp) + 2^-9 (its subnormal step).
// Saturation is checked exactly: f16 outputs beyond 65504 are 65504, fp8 (FNUZ, gfx942) beyond 240 are 240.
// --broken swaps alpha and beta (alpha_beta), negates the bias (bias_relu), uses the erf GELU as the reference
// (scale_gelu: it differs from the tanh form by up to 4.7e-4 absolute, at x = 2.70), or drops the row scale (bias_silu): the
// check must fail.
#include "check.h"
#include <cmath>
#include <cstring>

namespace {
using f16 = _Float16;
using bf16 = __bf16;

// 0.5 x (1 + tanh(u)) = x / (1 + e^(-2u)): the second form has no cancellation for negative x.
[[maybe_unused]] double gelu_tanh(double x) {
  return x / (1.0 + std::exp(-2.0 * std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}
[[maybe_unused]] double gelu_erf(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
[[maybe_unused]] double silu(double x) { return x / (1.0 + std::exp(-x)); }

#if defined(ALPHA_BETA)
extern "C" hipError_t launch_gemm_alpha_beta_f16(const f16 *, const f16 *, f16 *, float, float, int, int, int,
                                                 hipStream_t);
const char *kName = "gemm_alpha_beta_f16";
#elif defined(BIAS_RELU)
extern "C" hipError_t launch_gemm_bias_relu_f16(const f16 *, const f16 *, const float *, f16 *, int, int, int,
                                                hipStream_t);
const char *kName = "gemm_bias_relu_f16";
#elif defined(SCALE_GELU)
extern "C" hipError_t launch_gemm_scale_gelu_bf16(const f16 *, const f16 *, const float *, bf16 *, int, int, int,
                                                  hipStream_t);
const char *kName = "gemm_scale_gelu_bf16";
#elif defined(BIAS_SILU)
extern "C" hipError_t launch_gemm_bias_silu_fp8(const f16 *, const f16 *, const f16 *, const float *, unsigned char *,
                                                int, int, int, hipStream_t);
const char *kName = "gemm_bias_silu_fp8";
#endif
} // namespace

int main(int argc, char **argv) {
  bool broken = argc > 1 && std::strcmp(argv[1], "--broken") == 0;
  const int sizes[][4] = {{128, 128, 128, 0}, {200, 136, 72, 0}, {200, 257, 200, 0},
                          {64, 33, 96, 0},    {1, 1, 1, 0},      {128, 128, 128, 1}};
  int failures = 0, runs = 0, saturated = 0;
  for (const auto &size : sizes) {
    const int M = size[0], N = size[1], K = size[2];
    const size_t shift = size_t(size[3]);
    std::vector<float> av = pattern(size_t(M) * K, M + K, 4.0f), bv = pattern(size_t(K) * N, N + 3 * K, 4.0f);
    std::vector<f16> a(av.begin(), av.end()), b(bv.begin(), bv.end());
    DeviceBuffer<f16> da(a, shift), db(b, shift);
    // The per-column and per-row operands, with special values where the test of saturation needs them.
    std::vector<float> colv = pattern(size_t(N), N + 7, 50.0f), rowv = pattern(size_t(M), M + 11, 2.0f);
#if defined(BIAS_RELU)
    for (int n = 0; n < N; ++n) {
      if (n % 37 == 3) colv[n] = 1e6f;  // 65504 (inf without sat)
      if (n % 37 == 5) colv[n] = -1e6f; // 0
    }
#endif
    hipError_t e;
    std::vector<double> want(size_t(M) * N), got(size_t(M) * N), tol(size_t(M) * N);
    std::vector<double> sum(size_t(M) * N), mag(size_t(M) * N);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        double s = 0, g = 0;
        for (int k = 0; k < K; ++k) {
          double p = double(a[size_t(m) * K + k]) * double(b[size_t(k) * N + n]);
          s += p;
          g += std::fabs(p);
        }
        sum[size_t(m) * N + n] = s;
        mag[size_t(m) * N + n] = g;
      }
#if defined(ALPHA_BETA)
    const float alpha = 0.75f, beta = -1.5f;
    std::vector<float> cv = pattern(size_t(M) * N, M + N, 8.0f);
    std::vector<f16> c0(cv.begin(), cv.end());
    DeviceBuffer<f16> dc(c0, shift);
    e = launch_gemm_alpha_beta_f16(da.ptr, db.ptr, dc.ptr, broken ? beta : alpha, broken ? alpha : beta, M, K, N,
                                   nullptr);
    std::vector<f16> out = dc.download();
    for (size_t i = 0; i < want.size(); ++i) {
      double c = double(c0[i]);
      want[i] = alpha * sum[i] + beta * c;
      got[i] = double(out[i]);
      tol[i] = std::ldexp(std::fabs(want[i]), -10) + std::ldexp(std::fabs(alpha) * mag[i] + std::fabs(beta * c), -20) +
               std::ldexp(1.0, -24);
    }
#elif defined(BIAS_RELU)
    DeviceBuffer<float> dbias(colv, shift);
    DeviceBuffer<f16> dd(size_t(M) * N, shift);
    if (broken)
      for (float &x : colv) x = -x, dbias.upload(colv);
    e = launch_gemm_bias_relu_f16(da.ptr, db.ptr, dbias.ptr, dd.ptr, M, K, N, nullptr);
    if (broken)
      for (float &x : colv) x = -x;
    std::vector<f16> out = dd.download();
    for (size_t i = 0; i < want.size(); ++i) {
      double v = sum[i] + colv[i % N];
      want[i] = std::min(std::max(v, 0.0), 65504.0);
      saturated += want[i] == 65504.0;
      got[i] = double(out[i]);
      tol[i] = want[i] == 65504.0 ? 0 : std::ldexp(want[i], -10) + std::ldexp(mag[i], -20) + std::ldexp(1.0, -24);
    }
#elif defined(SCALE_GELU)
    DeviceBuffer<float> dscale(rowv, shift);
    DeviceBuffer<bf16> dd(size_t(M) * N, shift);
    e = launch_gemm_scale_gelu_bf16(da.ptr, db.ptr, dscale.ptr, dd.ptr, M, K, N, nullptr);
    std::vector<bf16> out = dd.download();
    for (size_t i = 0; i < want.size(); ++i) {
      double s = std::fabs(rowv[i / N]);
      double x = sum[i] * rowv[i / N];
      want[i] = broken ? gelu_erf(x) : gelu_tanh(x);
      got[i] = double(float(out[i]));
      // gelu' is within [-0.13, 1.13]: the accumulation error passes through at most 1.13 times.
      tol[i] = std::ldexp(std::fabs(want[i]), -7) + 1.13 * std::ldexp(mag[i] * s, -20) + 1e-6;
    }
#elif defined(BIAS_SILU)
    std::vector<f16> bias(colv.begin(), colv.end());
    DeviceBuffer<f16> dbias(bias, shift);
    DeviceBuffer<float> dscale(rowv, shift);
    DeviceBuffer<unsigned char> dd(size_t(M) * N, shift);
    if (broken) dscale.upload(std::vector<float>(size_t(M), 1.0f));
    e = launch_gemm_bias_silu_fp8(da.ptr, db.ptr, dbias.ptr, dscale.ptr, dd.ptr, M, K, N, nullptr);
    std::vector<unsigned char> out = dd.download();
    for (size_t i = 0; i < want.size(); ++i) {
      double v = silu(sum[i] + double(bias[i % N])) * rowv[i / N];
      want[i] = std::min(std::max(v, -240.0), 240.0);
      saturated += std::fabs(want[i]) == 240.0;
      got[i] = double(tilec::fp8_to_f32<tilec::Fp8Format::E4M3FNUZ>(out[i]));
      tol[i] = std::fabs(want[i]) == 240.0 ? 0 : std::ldexp(std::fabs(want[i]), -3) + std::ldexp(1.0, -9) +
                                                     1.1 * std::ldexp(mag[i] * std::fabs(rowv[i / N]), -20);
    }
#endif
    std::printf("M=%d N=%d K=%d shift=%zu: %s\n", M, N, K, shift, tilec::emu::last_kernel());
    int bad = e != hipSuccess;
    for (size_t i = 0; i < want.size(); ++i)
      if (!(std::fabs(got[i] - want[i]) <= tol[i]) && bad++ < 3)
        std::printf("  D(%zu, %zu) = %.9g, want %.9g (tolerance %.3g)\n", i / N, i % N, got[i], want[i], tol[i]);
    if (bad) std::printf("%s M=%d N=%d K=%d: %s, wrong\n", kName, M, N, K, hipGetErrorString(e));
    failures += bad != 0;
    ++runs;
  }
  if (!broken) std::printf("saturated outputs: %s\n", saturated ? "some" : "none");
  std::printf("%s: %d of %d sizes correct\n", kName, runs - failures, runs);
  return failures != 0;
}
