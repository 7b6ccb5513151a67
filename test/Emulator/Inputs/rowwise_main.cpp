// The row-wise examples whose workgroups own whole rows (grid over T tile [r, N]) and carry reduced tiles across a
// loop over the columns, on the emulator against double-precision host references, with tails in both dimensions
// (M not a multiple of the rows of a workgroup, N below, at and past a multiple of the column step, and odd N for the
// _unaligned kernel):
//   softmax_online_f16 and softmax_wide_f16 (rows of up to 8,192 held in one workgroup's registers): each f16 output
//   within 1 f16 ulp of the exact softmax of the f16 inputs. The f32 work
//     (online maximum and rescaled sum, exp as 2^(d log2 e)) is within about 2^-20 relative for |d| < 16, far below
//     the half ulp of f16 (2^-11) that the final rounding adds.
//   rmsnorm_wide_f16, add_rmsnorm_f16: each f16 output within 1 f16 ulp of the exact value from the f16 inputs (the
//     f32 sum of squares over up to 16,384 values, 8 in a lane then a butterfly and 16 waves, is within about 2^-19
//     relative, below the half ulp of f16); add_rmsnorm's H exactly f16(x + r), rounded once;
//   layernorm_f16 on rows centred at 100 (spread +-2): within 1 f16 ulp of the exact two-pass result, or 2^-16 of
//     the magnitudes of its terms where (x - mean) rstd g and b cancel;
//   fold (test/CodeGen/Inputs/loop-state-fold.tile): reductions inside expressions and a reduced tile updated from
//     itself, per 64 x 64 block (elements outside X read as 0): Y = (X - rowmax + rowmax) * colsum, within 2^-22
//     (|x| + 2 |rowmax|) |colsum| + 2^-18 |x| sum |x| of X * colsum (the roundings of x - m + m and of the product,
//     and the f32 sum of 64 terms); T = the block's row minima, exactly; C = the
//     block's column sums of Y, halved, plus 1, within 2^-20 (sum (|y| + its tolerance) / 2 + 1).
// Every output element past the tensor must stay untouched (guard values around the output).
#include "check.h"
#include <algorithm>
#include <cstring>

extern "C" hipError_t launch_softmax_online_f16(const _Float16 *X, _Float16 *Y, int M, int N, hipStream_t stream);
extern "C" hipError_t launch_softmax_wide_f16(const _Float16 *X, _Float16 *Y, int M, int N, hipStream_t stream);

extern "C" hipError_t launch_rmsnorm_wide_f16(const _Float16 *X, const _Float16 *W, _Float16 *Y, float eps, int M, int N,
                                               hipStream_t stream);
extern "C" hipError_t launch_add_rmsnorm_f16(const _Float16 *X, const _Float16 *R, const _Float16 *W, _Float16 *H,
                                             _Float16 *Y, float eps, int M, int N, hipStream_t stream);
extern "C" hipError_t launch_layernorm_f16(const _Float16 *X, const _Float16 *G, const _Float16 *B, _Float16 *Y, float eps,
                                           int M, int N, hipStream_t stream);
extern "C" hipError_t launch_fold(const float *X, float *Y, float *T, float *C, int M, int N, int B, int R,
                                  hipStream_t stream);

static Runs all;

static void record(const char *kernel, int M, int N, hipError_t e, int bad) { all.record(kernel, M, N, e, bad); }

/// One f16 ulp at |w|: 2^(floor(log2 |w|) - 10), at least the smallest subnormal step 2^-24.
static bool withinF16Ulp(_Float16 g, double w) {
  double ulp = std::ldexp(1.0, std::max(-24, int(std::floor(std::log2(std::fabs(w) + 1e-300))) - 10));
  return std::fabs(double(g) - w) <= ulp;
}

static void softmax(const char *kernel, hipError_t (*launch)(const _Float16 *, _Float16 *, int, int, hipStream_t),
                    int M, int N) {
  // Rows whose maximum sits late in the row make the running maximum grow (and s be rescaled) along the way.
  std::vector<_Float16> x = halfPattern(size_t(M) * N, M * 29 + N, 8.0f);
  for (int r = 0; r < M; ++r) x[size_t(r) * N + (N - 1 - r % N)] = static_cast<_Float16>(9.0f + r % 3);
  std::vector<double> want(x.size());
  for (int r = 0; r < M; ++r) {
    const _Float16 *row = &x[size_t(r) * N];
    double m = -INFINITY, s = 0;
    for (int c = 0; c < N; ++c) m = std::max(m, double(row[c]));
    for (int c = 0; c < N; ++c) s += std::exp(double(row[c]) - m);
    for (int c = 0; c < N; ++c) want[size_t(r) * N + c] = std::exp(double(row[c]) - m) / s;
  }
  DeviceBuffer<_Float16> dx(x), dy(x.size());
  hipError_t e = launch(dx.ptr, dy.ptr, M, N, nullptr);
  record(kernel, M, N, e, compare(kernel, dy.download(), want, N, withinF16Ulp));
}

static void rmsnormWide(int M, int N) {
  const float eps = 1e-5f;
  std::vector<_Float16> x = halfPattern(size_t(M) * N, M * 13 + N, 3.0f), w = halfPattern(N, N, 2.0f);
  std::vector<double> want(x.size());
  for (int r = 0; r < M; ++r) {
    double ss = 0;
    for (int c = 0; c < N; ++c) ss += double(x[size_t(r) * N + c]) * double(x[size_t(r) * N + c]);
    double scale = 1.0 / std::sqrt(ss / N + double(eps));
    for (int c = 0; c < N; ++c) want[size_t(r) * N + c] = double(x[size_t(r) * N + c]) * scale * double(w[c]);
  }
  DeviceBuffer<_Float16> dx(x), dw(w), dy(x.size());
  hipError_t e = launch_rmsnorm_wide_f16(dx.ptr, dw.ptr, dy.ptr, eps, M, N, nullptr);
  record("rmsnorm_wide_f16", M, N, e, compare("rmsnorm_wide", dy.download(), want, N, withinF16Ulp));
}

static void addRmsnorm(int M, int N) {
  const float eps = 1e-6f;
  std::vector<_Float16> x = halfPattern(size_t(M) * N, M * 5 + N, 3.0f), res = halfPattern(size_t(M) * N, M * 3 + N + 1, 3.0f),
                        w = halfPattern(N, N + 7, 2.0f);
  std::vector<_Float16> wantH(x.size());
  std::vector<double> want(x.size());
  for (size_t i = 0; i < x.size(); ++i) wantH[i] = static_cast<_Float16>(float(x[i]) + float(res[i])); // one rounding
  for (int r = 0; r < M; ++r) {
    double ss = 0;
    for (int c = 0; c < N; ++c) ss += double(wantH[size_t(r) * N + c]) * double(wantH[size_t(r) * N + c]);
    double scale = 1.0 / std::sqrt(ss / N + double(eps));
    for (int c = 0; c < N; ++c) want[size_t(r) * N + c] = double(wantH[size_t(r) * N + c]) * scale * double(w[c]);
  }
  DeviceBuffer<_Float16> dx(x), dr(res), dw(w), dh(x.size()), dy(x.size());
  hipError_t e = launch_add_rmsnorm_f16(dx.ptr, dr.ptr, dw.ptr, dh.ptr, dy.ptr, eps, M, N, nullptr);
  std::vector<_Float16> h = dh.download();
  int bad = 0;
  for (size_t i = 0; i < h.size(); ++i) // f16 + f16 rounded once, exactly as the host does
    if (std::memcmp(&h[i], &wantH[i], 2) != 0 && bad++ < 3)
      std::printf("  add_rmsnorm: H(%zu, %zu) = %g, want %g\n", i / N, i % N, double(h[i]), double(wantH[i]));
  bad += compare("add_rmsnorm", dy.download(), want, N, withinF16Ulp);
  record("add_rmsnorm_f16", M, N, e, bad);
}

static void layernorm(int M, int N) {
  const float eps = 1e-5f;
  // Rows centred at 100 with a spread of +-2: the variance is small against the mean's square (a one-pass
  // E[x^2] - mean^2 in f32 would lose most of its digits).
  std::vector<_Float16> x = halfPattern(size_t(M) * N, M * 23 + N, 2.0f, 100.0f), g = halfPattern(N, N + 3, 2.0f),
                        b = halfPattern(N, N + 5, 1.0f);
  std::vector<double> want(x.size()), slack(x.size());
  for (int r = 0; r < M; ++r) {
    const _Float16 *row = &x[size_t(r) * N];
    double mean = 0, var = 0;
    for (int c = 0; c < N; ++c) mean += double(row[c]);
    mean /= N;
    for (int c = 0; c < N; ++c) var += (double(row[c]) - mean) * (double(row[c]) - mean);
    var /= N;
    double rstd = 1.0 / std::sqrt(var + double(eps));
    for (int c = 0; c < N; ++c) {
      double t = (double(row[c]) - mean) * rstd * double(g[c]);
      want[size_t(r) * N + c] = t + double(b[c]);
      slack[size_t(r) * N + c] = std::ldexp(1.0, -16) * (std::fabs(t) + std::fabs(double(b[c])));
    }
  }
  DeviceBuffer<_Float16> dx(x), dg(g), db(b), dy(x.size());
  hipError_t e = launch_layernorm_f16(dx.ptr, dg.ptr, db.ptr, dy.ptr, eps, M, N, nullptr);
  // The f32 mean is off by about 2^-24 x 100 x log2(N) and x - mean cancels most of 100: about 2^-15 relative error
  // on |x - mean| ~ 2, far below f16's 2^-11, except where the output itself cancels ((x - mean) rstd g against b):
  // there the bound is 2^-16 of the terms' magnitudes on top of one f16 ulp of the result.
  std::vector<_Float16> got = dy.download();
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!withinF16Ulp(got[i], want[i]) && !(std::fabs(double(got[i]) - want[i]) <= slack[i] + std::ldexp(std::fabs(want[i]), -10)) &&
        bad++ < 3)
      std::printf("  layernorm: element (%zu, %zu) = %g, want %g\n", i / N, i % N, double(got[i]), want[i]);
  record("layernorm_f16", M, N, e, bad);
}

static void fold(int M, int N) {
  const int B = (N + 63) / 64, R = (M + 63) / 64;
  std::vector<float> x = pattern(size_t(M) * N, M * 7 + N, 4.0f);
  // Per 64 x 64 block, elements outside X read as 0: a row's maximum and minimum over the block's 64 columns, a
  // column's sum over the block's 64 rows.
  auto at = [&](int r, int c) { return r < M && c < N ? double(x[size_t(r) * N + c]) : 0.0; };
  auto rowMax = [&](int r, int c) {
    double m = -INFINITY;
    for (int cc = c / 64 * 64; cc < c / 64 * 64 + 64; ++cc) m = std::max(m, at(r, cc));
    return m;
  };
  auto colSum = [&](int r, int c, bool absolute = false) {
    double s = 0;
    for (int rr = r / 64 * 64; rr < r / 64 * 64 + 64; ++rr) s += absolute ? std::fabs(at(rr, c)) : at(rr, c);
    return s;
  };
  std::vector<double> wantY(x.size()), tolY(x.size()), wantT(size_t(M) * B), wantC(size_t(R) * N), tolC(wantC.size());
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      double m = rowMax(r, c), s = colSum(r, c);
      wantY[size_t(r) * N + c] = at(r, c) * s; // (x - m + m) * s, exactly
      // Three roundings of x - m + m at |m| and of the product, and the f32 sum of 64 terms (2^-18 sum |x|).
      tolY[size_t(r) * N + c] = std::ldexp(1.0, -22) * (std::fabs(at(r, c)) + 2 * std::fabs(m)) * std::fabs(s) +
                                std::fabs(at(r, c)) * std::ldexp(1.0, -18) * colSum(r, c, true);
    }
  for (int r = 0; r < M; ++r)
    for (int b = 0; b < B; ++b) {
      double mn = INFINITY;
      for (int c = b * 64; c < b * 64 + 64; ++c) mn = std::min(mn, at(r, c));
      wantT[size_t(r) * B + b] = mn;
    }
  for (int rb = 0; rb < R; ++rb)
    for (int c = 0; c < N; ++c) {
      double s = 0, err = 0;
      for (int r = rb * 64; r < std::min(M, rb * 64 + 64); ++r) {
        s += wantY[size_t(r) * N + c];
        err += std::fabs(wantY[size_t(r) * N + c]) + tolY[size_t(r) * N + c];
      }
      wantC[size_t(rb) * N + c] = s * 0.5 + 1.0;
      tolC[size_t(rb) * N + c] = std::ldexp(1.0, -20) * (err * 0.5 + 1.0);
    }
  DeviceBuffer<float> dx(x), dy(x.size()), dt(wantT.size()), dc(wantC.size());
  hipError_t e = launch_fold(dx.ptr, dy.ptr, dt.ptr, dc.ptr, M, N, B, R, nullptr);
  std::vector<float> y = dy.download(), t = dt.download(), cc = dc.download();
  int bad = 0;
  for (size_t i = 0; i < y.size(); ++i)
    if (!(std::fabs(y[i] - wantY[i]) <= tolY[i]) && bad++ < 3)
      std::printf("  fold: Y(%zu, %zu) = %g, want %g\n", i / N, i % N, double(y[i]), wantY[i]);
  for (size_t i = 0; i < t.size(); ++i)
    if (t[i] != wantT[i] && bad++ < 3)
      std::printf("  fold: T(%zu, %zu) = %g, want %g\n", i / B, i % B, double(t[i]), wantT[i]);
  for (size_t i = 0; i < cc.size(); ++i)
    if (!(std::fabs(cc[i] - wantC[i]) <= tolC[i]) && bad++ < 3)
      std::printf("  fold: C(%zu, %zu) = %g, want %g\n", i / N, i % N, double(cc[i]), wantC[i]);
  record("fold", M, N, e, bad);
}

int main(int argc, char **argv) {
  std::string which = argc > 1 ? argv[1] : "";
  if (which == "softmax_online")
    for (int M : {1, 17, 40})
      for (int N : {1, 7, 512, 513, 1500, 4104}) softmax("softmax_online_f16", launch_softmax_online_f16, M, N);
  if (which == "softmax_wide")
    for (int M : {1, 3})
      for (int N : {8, 1000, 4096, 8192}) softmax("softmax_wide_f16", launch_softmax_wide_f16, M, N);
  if (which == "norms")
    for (int M : {1, 3}) {
      for (int N : {8, 1000, 4096, 8192}) rmsnormWide(M, N), layernorm(M, N);
      for (int N : {8, 8200, 16384}) addRmsnorm(M, N);
    }
  if (which == "fold")
    for (int M : {1, 64, 100})
      for (int N : {4, 64, 132}) fold(M, N);
  if (which == "softmax_online_long") // a vocabulary row of 256k + 3 columns
    softmax("softmax_online_f16", launch_softmax_online_f16, 1, 262147);
  std::printf("%s: %d of %d runs correct\n", which.c_str(), all.runs - all.failures, all.runs);
  return all.failures != 0;
}
