// test/Emulator/names.test: the kernels of test/CodeGen/names.tile, whose tiles, buffers, loop variables, sizes and
// scalars are spelled like the emitter's own locals (row, col, e, kk, lane, wave, stream, ...), on the CPU emulator
// against a double-precision reference. `--broken` passes softmax_names a wrong scalar, so that the comparison is seen
// to fail.
#include "check.h"

#include <cstring>

extern "C" hipError_t launch_gemm_names(const _Float16 *A, const _Float16 *B, float *C, int tid, int kk, int bj,
                                        hipStream_t stream);
extern "C" hipError_t launch_softmax_names(const float *X, float *Y, float stream, float vectors_aligned, int bi,
                                           int i, hipStream_t stream_1);
extern "C" hipError_t launch_layernorm_names(const _Float16 *X, const _Float16 *G, const _Float16 *B, _Float16 *Y,
                                             float part, int block_batch, int stage, hipStream_t stream);

namespace {

/// C = A x B, M x K times K x N: f16 products are exact in f32, and at these sizes the f32 sums are within 2^-20 of
/// sum |a b|.
int gemm(int M, int K, int N, Runs &runs) {
  std::vector<_Float16> a = halfPattern(size_t(M) * K, 1), b = halfPattern(size_t(K) * N, 2);
  DeviceBuffer<_Float16> da(a), db(b);
  DeviceBuffer<float> dc(size_t(M) * N);
  hipError_t e = launch_gemm_names(da.ptr, db.ptr, dc.ptr, M, K, N, nullptr);
  std::vector<float> c = dc.download();
  int bad = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double want = 0, size = 0;
      for (int k = 0; k < K; ++k) {
        double p = double(a[size_t(m) * K + k]) * double(b[size_t(k) * N + n]);
        want += p;
        size += std::fabs(p);
      }
      if (std::fabs(c[size_t(m) * N + n] - want) > std::ldexp(size, -20) + 1e-6) ++bad;
    }
  runs.record("gemm_names", M, N, e, bad);
  return bad;
}

/// Y = p / sum(p) + shift per row, p = exp(x - max(x)) * scale: within 1e-5 relative of the reference.
int softmax(int M, int N, float scale, float shift, Runs &runs, bool broken) {
  std::vector<float> x = pattern(size_t(M) * N, 3, 4.0f);
  DeviceBuffer<float> dx(x), dy(size_t(M) * N);
  hipError_t e = launch_softmax_names(dx.ptr, dy.ptr, scale, broken ? shift + 1 : shift, M, N, nullptr);
  std::vector<float> y = dy.download();
  int bad = 0;
  for (int m = 0; m < M; ++m) {
    const float *row = &x[size_t(m) * N];
    double most = row[0], sum = 0;
    for (int n = 0; n < N; ++n) most = std::max(most, double(row[n]));
    for (int n = 0; n < N; ++n) sum += std::exp(row[n] - most) * scale;
    for (int n = 0; n < N; ++n) {
      double want = std::exp(row[n] - most) * scale / sum + shift;
      if (std::fabs(y[size_t(m) * N + n] - want) > 1e-5 * std::fabs(want) + 1e-6) ++bad;
    }
  }
  runs.record("softmax_names", M, N, e, bad);
  return bad;
}

/// Y = (x - mean) / sqrt(variance + eps) * g + b per row, rounded to f16: within 2^-9 relative (and 2^-12 absolute)
/// of the reference.
int layernorm(int M, int N, float eps, Runs &runs) {
  std::vector<_Float16> x = halfPattern(size_t(M) * N, 4, 2.0f, 1.0f), g = halfPattern(N, 5), b = halfPattern(N, 6);
  DeviceBuffer<_Float16> dx(x), dg(g), db(b), dy(size_t(M) * N);
  hipError_t e = launch_layernorm_names(dx.ptr, dg.ptr, db.ptr, dy.ptr, eps, M, N, nullptr);
  std::vector<_Float16> y = dy.download();
  int bad = 0;
  for (int m = 0; m < M; ++m) {
    double mean = 0, variance = 0;
    for (int n = 0; n < N; ++n) mean += double(x[size_t(m) * N + n]) / N;
    for (int n = 0; n < N; ++n) variance += std::pow(double(x[size_t(m) * N + n]) - mean, 2) / N;
    for (int n = 0; n < N; ++n) {
      double want = (double(x[size_t(m) * N + n]) - mean) / std::sqrt(variance + eps) * double(g[n]) + double(b[n]);
      if (std::fabs(double(y[size_t(m) * N + n]) - want) > std::ldexp(std::fabs(want), -9) + std::ldexp(1.0, -12))
        ++bad;
    }
  }
  runs.record("layernorm_names", M, N, e, bad);
  return bad;
}

} // namespace

int main(int argc, char **argv) {
  bool broken = argc > 1 && std::strcmp(argv[1], "--broken") == 0;
  Runs runs;
  gemm(128, 64, 128, runs);
  gemm(200, 72, 136, runs); // partial blocks in M and N
  gemm(67, 40, 33, runs);   // N not a multiple of 8: the _unaligned kernel
  softmax(16, 256, 0.5f, 0.25f, runs, broken);
  softmax(37, 200, 2.0f, -1.0f, runs, broken); // partial blocks (a workgroup holds whole rows of up to 256)
  softmax(20, 250, 1.0f, 0.0f, runs, broken);  // N not a multiple of 4: the _unaligned kernel
  layernorm(3, 1000, 1e-5f, runs);
  layernorm(2, 8192, 1e-3f, runs);
  std::printf("names: %d of %d runs correct\n", runs.runs - runs.failures, runs.runs);
  return runs.failures ? 1 : 0;
}
