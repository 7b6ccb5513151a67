// The reduction examples on the emulator against double-precision host references, for sizes with tails in both
// dimensions (M, N not multiples of the tile; N below the row capacity of softmax and RMSNorm):
//   softmax_f32: each element within (2^-20 + |x - max| 2^-22) (relative) of the exact softmax: exp(d) is computed
//     as 2^(d log2 e), and the rounding of d and of d log2 e (2^-24 relative each) shifts the exponent by up to
//     |d| 2^-23, a relative error of as much in the result (v_exp_f32 is modelled with libm's exp2);
//   rmsnorm_f16: each f16 output within 1 f16 ulp of the exact value rounded to f16;
//   colsum_f32:  each column sum within 2^-20 x sum |x| of the exact sum (the summation order differs);
//   rowsum_waves (test/Emulator/Inputs/rowsum_waves.tile): row sums, maxima and minima of a tile whose rows span 2
//   waves (through LDS), max and min exact; colabs_waves (same file): column sums of |x| whose columns span 2
//   wave-rows of a [2, 2] wave grid, within 2^-20 x sum |x|; colsum_narrow (same file): column sums whose lanes are
//   4 apart (ds_swizzle xor 4, 8, 16), within 2^-20 x sum |x|.
// Every output element past the tensor must stay untouched (guard values around the output).
#include "check.h"
#include <algorithm>

extern "C" hipError_t launch_softmax_f32(const float *X, float *Y, int M, int N, hipStream_t stream);
extern "C" hipError_t launch_rmsnorm_f16(const _Float16 *X, _Float16 *Y, float eps, int M, int N, hipStream_t stream);
extern "C" hipError_t launch_colsum_f32(const float *X, float *S, int M, int N, hipStream_t stream);
extern "C" hipError_t launch_rowsum_waves(const float *X, float *S, float *Mx, float *Mn, int M, int N,
                                          hipStream_t stream);

extern "C" hipError_t launch_colsum_narrow(const float *X, float *S, int M, int N, hipStream_t stream);
extern "C" hipError_t launch_colabs_waves(const float *X, float *S, int M, int N, hipStream_t stream);

static Runs all;

static void record(const char *kernel, int M, int N, hipError_t e, int bad) { all.record(kernel, M, N, e, bad); }

static void softmax(int M, int N) {
  std::vector<float> x = pattern(size_t(M) * N, M * 31 + N, 20.0f);
  std::vector<double> want(x.size()), tolerance(x.size());
  for (int r = 0; r < M; ++r) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < N; ++c) m = std::max(m, double(x[r * N + c]));
    for (int c = 0; c < N; ++c) s += std::exp(double(x[r * N + c]) - m);
    for (int c = 0; c < N; ++c) {
      double d = double(x[r * N + c]) - m;
      want[r * N + c] = std::exp(d) / s;
      tolerance[r * N + c] = (std::ldexp(1.0, -20) + std::fabs(d) * std::ldexp(1.0, -22)) * want[r * N + c];
    }
  }
  DeviceBuffer<float> dx(x), dy(x.size());
  hipError_t e = launch_softmax_f32(dx.ptr, dy.ptr, M, N, nullptr);
  std::vector<float> got = dy.download();
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= tolerance[i]) && bad++ < 3)
      std::printf("  softmax: element (%zu, %zu) = %g, want %g\n", i / N, i % N, double(got[i]), want[i]);
  record("softmax_f32", M, N, e, bad);
}

static void rmsnorm(int M, int N) {
  const float eps = 1e-5f;
  std::vector<float> pat = pattern(size_t(M) * N, M * 17 + N, 4.0f);
  std::vector<_Float16> x(pat.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<_Float16>(pat[i]);
  std::vector<double> want(x.size());
  for (int r = 0; r < M; ++r) {
    double ss = 0;
    for (int c = 0; c < N; ++c) ss += double(x[r * N + c]) * double(x[r * N + c]);
    double scale = 1.0 / std::sqrt(ss / N + double(eps));
    for (int c = 0; c < N; ++c) want[r * N + c] = double(x[r * N + c]) * scale;
  }
  DeviceBuffer<_Float16> dx(x), dy(x.size());
  hipError_t e = launch_rmsnorm_f16(dx.ptr, dy.ptr, eps, M, N, nullptr);
  // One f16 ulp at |w|: 2^(floor(log2 |w|) - 10), at least the smallest normal's 2^-24.
  int bad = compare("rmsnorm", dy.download(), want, N, [](_Float16 g, double w) {
    double ulp = std::ldexp(1.0, std::max(-24, int(std::floor(std::log2(std::fabs(w) + 1e-300))) - 10));
    return std::fabs(double(g) - w) <= ulp;
  });
  record("rmsnorm_f16", M, N, e, bad);
}

static void colsum(int M, int N, bool narrow = false) {
  std::vector<float> x = pattern(size_t(M) * N, M * 13 + N);
  std::vector<double> want(N, 0.0), mag(N, 0.0);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) want[c] += x[r * N + c], mag[c] += std::fabs(x[r * N + c]);
  DeviceBuffer<float> dx(x), ds(N);
  hipError_t e = narrow ? launch_colsum_narrow(dx.ptr, ds.ptr, M, N, nullptr)
                       : launch_colsum_f32(dx.ptr, ds.ptr, M, N, nullptr);
  std::vector<float> got = ds.download();
  int bad = 0;
  for (int c = 0; c < N; ++c)
    if (!(std::fabs(got[c] - want[c]) <= std::ldexp(1.0, -20) * mag[c]) && bad++ < 3)
      std::printf("  colsum: column %d = %g, want %g\n", c, got[c], want[c]);
  record(narrow ? "colsum_narrow" : "colsum_f32", M, N, e, bad);
}

static void rowsum_waves(int M, int N) {
  std::vector<float> x = pattern(size_t(M) * N, M * 5 + N);
  std::vector<double> sum(M, 0.0), mag(M, 0.0);
  std::vector<float> mx(M, -INFINITY), mn(M, INFINITY);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      float v = x[r * N + c];
      sum[r] += v, mag[r] += std::fabs(v), mx[r] = std::max(mx[r], v), mn[r] = std::min(mn[r], v);
    }
  // Guards: one element before and after each output, which the kernel must not touch.
  const float guard = 12345.0f;
  std::vector<float> init(M + 2, guard);
  DeviceBuffer<float> dx(x), ds(init), dmx(init), dmn(init);
  hipError_t e = launch_rowsum_waves(dx.ptr, ds.ptr + 1, dmx.ptr + 1, dmn.ptr + 1, M, N, nullptr);
  std::vector<float> s = ds.download(), a = dmx.download(), b = dmn.download();
  int bad = 0;
  for (const std::vector<float> *v : {&s, &a, &b})
    bad += (*v)[0] != guard || (*v)[M + 1] != guard;
  for (int r = 0; r < M; ++r) {
    bool ok = std::fabs(s[r + 1] - sum[r]) <= std::ldexp(1.0, -20) * mag[r] && a[r + 1] == mx[r] && b[r + 1] == mn[r];
    if (!ok && bad++ < 3)
      std::printf("  rowsum_waves: row %d = %g %g %g, want %g %g %g\n", r, s[r + 1], a[r + 1], b[r + 1], sum[r],
                  double(mx[r]), double(mn[r]));
  }
  record("rowsum_waves", M, N, e, bad);
}

static void colabs_waves(int M, int N) {
  std::vector<float> x = pattern(size_t(M) * N, M * 11 + N);
  std::vector<double> want(N, 0.0);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) want[c] += std::fabs(x[r * N + c]);
  DeviceBuffer<float> dx(x), ds(N);
  hipError_t e = launch_colabs_waves(dx.ptr, ds.ptr, M, N, nullptr);
  int bad = compare("colabs", ds.download(), want, N,
                    [](float g, double w) { return std::fabs(g - w) <= std::ldexp(1.0, -20) * w; });
  record("colabs_waves", M, N, e, bad);
}

int main(int argc, char **argv) {
  std::string which = argc > 1 ? argv[1] : "";
  const int rows[] = {1, 16, 37, 100};
  if (which == "softmax")
    for (int M : rows)
      for (int N : {1, 5, 200, 256}) softmax(M, N);
  if (which == "rmsnorm")
    for (int M : rows)
      for (int N : {1, 7, 100, 128}) rmsnorm(M, N);
  if (which == "colsum")
    for (int M : {1, 63, 64, 200})
      for (int N : {4, 20, 64, 132}) colsum(M, N); // the example assumes N % 4 == 0
  if (which == "rowsum")
    for (int M : {1, 8, 33})
      for (int N : {1, 31, 50, 64}) rowsum_waves(M, N);
  if (which == "narrow")
    for (int M : {1, 63, 130})
      for (int N : {3, 16, 37}) colsum(M, N, true);
  if (which == "colabs")
    for (int M : {1, 65, 130})
      for (int N : {2, 62, 130}) colabs_waves(M, N);
  std::printf("%s: %d of %d runs correct\n", which.c_str(), all.runs - all.failures, all.runs);
  return all.failures != 0;
}
