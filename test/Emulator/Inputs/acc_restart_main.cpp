// Inputs/acc_restart.tile on the emulator: c = mma(sA, sB) restarts c at each K block, so C is the product of the
// last block of K alone, A[:, k0 .. K) x B[k0 .. K, :] with k0 = 32 floor((K - 1) / 32), each element within 2^-18 of
// the sum of its products' magnitudes (f16 x f16 is exact in f32; the sum of up to 32 terms rounds). For K > 32 the
// full product differs, so an accumulator that did not restart fails. Tails in M, N and K.
#include "check.h"

extern "C" hipError_t launch_acc_restart(const _Float16 *A, const _Float16 *B, float *C, int M, int K, int N,
                                         hipStream_t stream);

int main() {
  int runs = 0, failures = 0;
  for (int M : {1, 64, 100})
    for (int N : {5, 64})
      for (int K : {8, 32, 70, 96}) {
        std::vector<float> pa = pattern(size_t(M) * K, M + K, 2.0f), pb = pattern(size_t(K) * N, N + K + 1, 2.0f);
        std::vector<_Float16> a(pa.size()), b(pb.size());
        for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<_Float16>(pa[i]);
        for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<_Float16>(pb[i]);
        int k0 = (K - 1) / 32 * 32;
        std::vector<double> want(size_t(M) * N), tol(want.size());
        for (int r = 0; r < M; ++r)
          for (int c = 0; c < N; ++c) {
            double s = 0, m = 0;
            for (int k = k0; k < K; ++k) {
              double p = double(a[size_t(r) * K + k]) * double(b[size_t(k) * N + c]);
              s += p, m += std::fabs(p);
            }
            want[size_t(r) * N + c] = s;
            tol[size_t(r) * N + c] = std::ldexp(m, -18);
          }
        DeviceBuffer<_Float16> da(a), db(b);
        DeviceBuffer<float> dc(want.size());
        hipError_t e = launch_acc_restart(da.ptr, db.ptr, dc.ptr, M, K, N, nullptr);
        std::vector<float> got = dc.download();
        int bad = 0;
        for (size_t i = 0; i < got.size(); ++i)
          if (!(std::fabs(got[i] - want[i]) <= tol[i]) && bad++ < 3)
            std::printf("  acc_restart M=%d N=%d K=%d: C(%zu, %zu) = %g, want %g\n", M, N, K, i / N, i % N,
                        double(got[i]), want[i]);
        ++runs;
        if (e != hipSuccess || bad) ++failures;
      }
  std::printf("acc_restart: %d of %d runs correct\n", runs - failures, runs);
  return failures != 0;
}
