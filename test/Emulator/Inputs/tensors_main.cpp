// 1-D, batched and strided tensors on the emulator, against references computed here element by element:
//   -DAXPY:         examples/axpy_f32.tile, y = a x + y for N with tails (not a multiple of the 2048 elements of a
//                   workgroup, nor of the vec 4) and for tensors one element past a 16-byte boundary;
//   -DBATCHED:      examples/gemm_batched_f16.tile, C[z] = A[z] x B[z] for batches of 1 to 3 with tails in M, N, K;
//   -DSTRIDED:      examples/gemm_strided_f16.tile on sub-matrices of larger ones (lda > K, ldb > N, ldc > N);
//   -DCOPY_STRIDED: Inputs/copy_strided.tile, a copy between sub-matrices.
// For the strided tensors every element outside the M x N view (between N and the stride) holds a sentinel that must
// survive. Each run prints which kernel the launcher picked. --broken gives the launcher a wrong size or stride, which
// the checks must catch.
#include "check.h"
#include <cstring>

static bool broken = false;
static int failures = 0, runs = 0;

static void report(const char *what, hipError_t e, int bad) {
  std::printf("%s: %s%s\n", what, e == hipSuccess ? tilec::emu::last_kernel() : hipGetErrorString(e),
              bad ? " MISMATCH" : "");
  failures += bad != 0;
  ++runs;
}

/// |got - ref| <= 2^-20 sum |a b| + 1e-6 (f16 products are exact in f32; f32 accumulation, see gemm_main.cpp).
[[maybe_unused]] static bool close(double got, double ref, double magnitude) {
  return std::fabs(got - ref) <= std::ldexp(magnitude, -20) + 1e-6;
}

#if defined(AXPY)
extern "C" hipError_t launch_axpy_f32(const float *X, float *Y, float a, int N, hipStream_t stream);

static void axpy(int N, size_t shift) {
  const float a = 1.5f;
  std::vector<float> x = pattern(size_t(N), N), y = pattern(size_t(N), N + 7);
  DeviceBuffer<float> dx(x, shift), dy(y, shift);
  hipError_t e = launch_axpy_f32(dx.ptr, dy.ptr, a, broken ? N - 1 : N, nullptr);
  if (e == hipSuccess) e = hipDeviceSynchronize();
  std::vector<float> got = dy.download();
  int bad = e != hipSuccess;
  for (int i = 0; i < N; ++i) {
    // One rounding of a * x and one of the sum, or one of a fused multiply-add: within 2 ulp of the exact value.
    double ref = double(a) * x[i] + y[i], ulp = std::ldexp(std::fabs(double(a) * x[i]) + std::fabs(y[i]), -23);
    if (std::fabs(got[i] - ref) > 2 * ulp && bad++ < 3) std::printf("  Y[%d] = %.9g, want %.9g\n", i, got[i], ref);
  }
  char what[64];
  std::snprintf(what, sizeof what, "axpy N=%d shift=%zu", N, shift);
  report(what, e, bad);
}

int main(int argc, char **argv) {
  broken = argc > 1 && std::strcmp(argv[1], "--broken") == 0;
  for (int N : {2048, 8192, 1, 3, 1000, 2049, 5001}) axpy(N, 0);
  axpy(4096, 1);
  std::printf("axpy: %d of %d runs correct\n", runs - failures, runs);
  return failures != 0;
}
#elif defined(BATCHED)
extern "C" hipError_t launch_gemm_batched_f16(const _Float16 *A, const _Float16 *B, float *C, int batch, int M, int K,
                                              int N, hipStream_t stream);

static void batched(int batch, int M, int N, int K) {
  size_t sa = size_t(M) * K, sb = size_t(K) * N, sc = size_t(M) * N;
  std::vector<float> av = pattern(batch * sa, M + K, 4.0f), bv = pattern(batch * sb, N + 3 * K, 4.0f);
  std::vector<_Float16> a(av.begin(), av.end()), b(bv.begin(), bv.end());
  DeviceBuffer<_Float16> da(a), db(b);
  DeviceBuffer<float> dc(batch * sc);
  // --broken: the matrices of B are taken as those of A's batch neighbour (one matrix too few).
  hipError_t e = launch_gemm_batched_f16(da.ptr, db.ptr, dc.ptr, broken ? batch - 1 : batch, M, K, N, nullptr);
  if (e == hipSuccess) e = hipDeviceSynchronize();
  std::vector<float> c = dc.download();
  int bad = e != hipSuccess;
  for (int z = 0; z < batch; ++z)
    for (int m = 0; m < M && bad < 4; ++m)
      for (int n = 0; n < N && bad < 4; ++n) {
        double ref = 0, magnitude = 0;
        for (int k = 0; k < K; ++k) {
          double p = double(a[z * sa + size_t(m) * K + k]) * double(b[z * sb + size_t(k) * N + n]);
          ref += p, magnitude += std::fabs(p);
        }
        double got = c[z * sc + size_t(m) * N + n];
        if (!close(got, ref, magnitude) && bad++ < 3)
          std::printf("  C[%d](%d, %d) = %.9g, want %.9g\n", z, m, n, got, ref);
      }
  char what[96];
  std::snprintf(what, sizeof what, "batched batch=%d M=%d N=%d K=%d", batch, M, N, K);
  report(what, e, bad);
}

int main(int argc, char **argv) {
  broken = argc > 1 && std::strcmp(argv[1], "--broken") == 0;
  batched(3, 128, 128, 64);
  batched(2, 200, 136, 72);
  batched(3, 130, 33, 40);
  batched(1, 1, 1, 1);
  std::printf("gemm_batched_f16: %d of %d runs correct\n", runs - failures, runs);
  return failures != 0;
}
#elif defined(STRIDED) || defined(COPY_STRIDED)
constexpr float kSentinel = -7.0f;

/// A rows x cols view with rows `stride` apart inside an allocation of rows x stride; `values` fills the view,
/// the sentinel the rest.
template <typename T> std::vector<T> strided(int rows, int cols, int stride, const std::vector<float> &values) {
  std::vector<T> out(size_t(rows) * stride, T(kSentinel));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) out[size_t(r) * stride + c] = T(values[size_t(r) * cols + c]);
  return out;
}

/// Counts sentinels overwritten outside the view.
template <typename T> int sentinelsLost(const std::vector<T> &buf, int rows, int cols, int stride) {
  int lost = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = cols; c < stride; ++c) lost += float(buf[size_t(r) * stride + c]) != kSentinel;
  if (lost) std::printf("  %d elements outside the view were written\n", lost);
  return lost;
}
#if defined(STRIDED)
extern "C" hipError_t launch_gemm_strided_f16(const _Float16 *A, const _Float16 *B, float *C, int M, int K, int lda,
                                              int N, int ldb, int ldc, hipStream_t stream);

static void gemm(int M, int N, int K, int lda, int ldb, int ldc) {
  std::vector<float> av = pattern(size_t(M) * K, M + K, 4.0f), bv = pattern(size_t(K) * N, N + 3 * K, 4.0f);
  std::vector<_Float16> a = strided<_Float16>(M, K, lda, av), b = strided<_Float16>(K, N, ldb, bv);
  std::vector<float> c0 = strided<float>(M, N, ldc, std::vector<float>(size_t(M) * N, 0.0f));
  DeviceBuffer<_Float16> da(a), db(b);
  DeviceBuffer<float> dc(c0);
  // --broken: B's stride given as N (a dense B), which reads the wrong rows when ldb > N.
  hipError_t e = launch_gemm_strided_f16(da.ptr, db.ptr, dc.ptr, M, K, lda, N, broken ? N : ldb, ldc, nullptr);
  if (e == hipSuccess) e = hipDeviceSynchronize();
  std::vector<float> c = dc.download();
  int bad = e != hipSuccess;
  for (int m = 0; m < M && bad < 4; ++m)
    for (int n = 0; n < N && bad < 4; ++n) {
      double ref = 0, magnitude = 0;
      for (int k = 0; k < K; ++k) {
        double p = double(a[size_t(m) * lda + k]) * double(b[size_t(k) * ldb + n]); // the f16 values given
        ref += p, magnitude += std::fabs(p);
      }
      double got = c[size_t(m) * ldc + n];
      if (!close(got, ref, magnitude) && bad++ < 3) std::printf("  C(%d, %d) = %.9g, want %.9g\n", m, n, got, ref);
    }
  bad += sentinelsLost(c, M, N, ldc);
  char what[96];
  std::snprintf(what, sizeof what, "gemm_strided M=%d N=%d K=%d lda=%d ldb=%d ldc=%d", M, N, K, lda, ldb, ldc);
  report(what, e, bad);
}

int main(int argc, char **argv) {
  broken = argc > 1 && std::strcmp(argv[1], "--broken") == 0;
  gemm(128, 128, 64, 72, 136, 136);   // every stride a multiple of 8: the vector kernel
  gemm(200, 136, 72, 80, 144, 140);   // ldc % 4 == 0: still the vector kernel
  gemm(128, 128, 64, 67, 136, 136);   // lda % 8 != 0: the _unaligned kernel
  gemm(130, 33, 40, 41, 35, 37);      // tails everywhere, odd strides
  std::printf("gemm_strided_f16: %d of %d runs correct\n", runs - failures, runs);
  return failures != 0;
}
#else
extern "C" hipError_t launch_copy_strided(const _Float16 *X, _Float16 *Y, int M, int N, int ldx, int ldy,
                                          hipStream_t stream);

static void copy(int M, int N, int ldx, int ldy) {
  std::vector<float> v = pattern(size_t(M) * N, M * 1000 + N);
  std::vector<_Float16> x = strided<_Float16>(M, N, ldx, v);
  std::vector<_Float16> y0 = strided<_Float16>(M, N, ldy, std::vector<float>(size_t(M) * N, 0.0f));
  DeviceBuffer<_Float16> dx(x), dy(y0);
  hipError_t e = launch_copy_strided(dx.ptr, dy.ptr, M, N, broken ? ldx + 1 : ldx, ldy, nullptr);
  if (e == hipSuccess) e = hipDeviceSynchronize();
  std::vector<_Float16> y = dy.download();
  int bad = e != hipSuccess;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      if (float(y[size_t(r) * ldy + c]) != float(_Float16(v[size_t(r) * N + c])) && bad++ < 3)
        std::printf("  Y(%d, %d) = %g, want %g\n", r, c, double(y[size_t(r) * ldy + c]), double(v[size_t(r) * N + c]));
  bad += sentinelsLost(y, M, N, ldy);
  char what[64];
  std::snprintf(what, sizeof what, "copy_strided M=%d N=%d ldx=%d ldy=%d", M, N, ldx, ldy);
  report(what, e, bad);
}

int main(int argc, char **argv) {
  broken = argc > 1 && std::strcmp(argv[1], "--broken") == 0;
  copy(64, 64, 64, 64);     // dense: the vector kernel
  copy(100, 96, 104, 120);  // strides multiples of 8: the vector kernel, a row tail of workgroups
  copy(100, 96, 100, 120);  // ldx % 8 == 4: the _unaligned kernel
  copy(63, 61, 67, 70);     // tails in both dimensions, odd strides
  std::printf("copy_strided: %d of %d runs correct\n", runs - failures, runs);
  return failures != 0;
}
#endif
#endif
