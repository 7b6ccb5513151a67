// Attention forward (examples/attention_fwd_*.tile) on the emulator against a double-precision reference:
// O = softmax(Q K^T * c) V row by row, with c = scale / log2(e) (the kernel's exponentials are exp2 of s * scale).
// Query and key counts that are not multiples of the blocks (M = 1, 100, 130; T = 1, 63, 64, 100, 200) test the
// masked columns past T and the rows past M. Q, K, V are f16 patterns; O is f16, so each element must be within
// 2^-9 of the reference relative to the largest |V| (P is rounded to f16 before P V, the output to f16).
#include "check.h"

#ifndef HEAD_DIM
#define HEAD_DIM 64
#endif
#ifndef KERNEL
#define KERNEL attention_fwd_f16
#endif
#define LAUNCH_NAME(k) launch_##k
#define LAUNCH(k) LAUNCH_NAME(k)

extern "C" hipError_t LAUNCH(KERNEL)(const _Float16 *Q, const _Float16 *K, const _Float16 *V, _Float16 *O,
                                     float scale, int M, int T, hipStream_t stream);

int main() {
  const int D = HEAD_DIM;
  Runs runs;
  for (int M : {1, 100, 130})
    for (int T : {1, 63, 64, 100, 200}) {
      std::vector<_Float16> q = halfPattern(size_t(M) * D, M + 7, 2.0f), k = halfPattern(size_t(T) * D, T + 11, 2.0f),
                            v = halfPattern(size_t(T) * D, T + 13, 4.0f);
      const double c = 1.0 / std::sqrt(double(D));
      const float scale = float(c * 1.4426950408889634); // c * log2(e)
      std::vector<double> want(size_t(M) * D);
      for (int r = 0; r < M; ++r) {
        std::vector<double> s(T);
        double mx = -INFINITY, sum = 0;
        for (int j = 0; j < T; ++j) {
          double dot = 0;
          for (int d = 0; d < D; ++d) dot += double(q[size_t(r) * D + d]) * double(k[size_t(j) * D + d]);
          s[j] = dot * c;
          mx = std::fmax(mx, s[j]);
        }
        for (int j = 0; j < T; ++j) sum += (s[j] = std::exp(s[j] - mx));
        for (int d = 0; d < D; ++d) {
          double o = 0;
          for (int j = 0; j < T; ++j) o += s[j] * double(v[size_t(j) * D + d]);
          want[size_t(r) * D + d] = o / sum;
        }
      }
      DeviceBuffer<_Float16> dq(q), dk(k), dv(v), dout(size_t(M) * D);
      hipError_t e = LAUNCH(KERNEL)(dq.ptr, dk.ptr, dv.ptr, dout.ptr, scale, M, T, nullptr);
      std::vector<_Float16> got = dout.download();
      int bad = compare("O", got, want, D, [](_Float16 g, double w) { return std::fabs(double(g) - w) <= 4.0 / 512; });
      runs.record("attention", M, T, e, bad);
    }
  std::printf("attention (d = %d): %d of %d runs correct\n", D, runs.runs - runs.failures, runs.runs);
  return runs.failures != 0;
}
