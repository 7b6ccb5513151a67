//===- EmulatorBench.cpp - How fast the CPU emulator runs emitted kernels ---===//
//
// Built by the bench-emulator target with clang++ -DTILEC_EMULATOR together with the emitted copy_f16 and gemm_f16
// kernels. Prints the median over repetitions of a 4096 x 4096 f16 copy and a 256 x 256 x 256 f16 GEMM, with the
// emulated throughput. A benchmark, not a test: it checks nothing but that the launches succeed.
//
//===----------------------------------------------------------------------===//
#include "tilec/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

extern "C" hipError_t launch_copy_f16(const _Float16 *, _Float16 *, int, int, hipStream_t);
extern "C" hipError_t launch_gemm_f16(const _Float16 *, const _Float16 *, float *, int, int, int, hipStream_t);

template <typename F> static double medianSeconds(int repetitions, F &&run) {
  std::vector<double> times;
  for (int r = 0; r < repetitions; ++r) {
    auto start = std::chrono::steady_clock::now();
    if (run() != hipSuccess) {
      std::printf("launch failed\n");
      return -1;
    }
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

int main() {
  const int n = 4096;
  _Float16 *x, *y;
  hipMalloc(&x, size_t(n) * n * 2);
  hipMalloc(&y, size_t(n) * n * 2);
  hipMemset(x, 0, size_t(n) * n * 2);
  double copy = medianSeconds(5, [&] { return launch_copy_f16(x, y, n, n, nullptr); });
  std::printf("copy_f16 4096 x 4096: median %.3f s, %.1f M elements/s emulated (%u workgroups of 256 threads)\n",
              copy, double(n) * n / copy / 1e6, unsigned(n / 64 * n / 64));
  hipFree(x);
  hipFree(y);

  const int m = 256;
  _Float16 *a, *b;
  float *c;
  hipMalloc(&a, size_t(m) * m * 2);
  hipMalloc(&b, size_t(m) * m * 2);
  hipMalloc(&c, size_t(m) * m * 4);
  hipMemset(a, 0, size_t(m) * m * 2);
  hipMemset(b, 0, size_t(m) * m * 2);
  double gemm = medianSeconds(5, [&] { return launch_gemm_f16(a, b, c, m, m, m, nullptr); });
  std::printf("gemm_f16 256 x 256 x 256: median %.3f s, %.2f GFLOP/s emulated (%d MFMA instructions)\n", gemm,
              2.0 * m * m * m / gemm / 1e9, (m / 128) * (m / 128) * 4 * (m / 32) * 16);
  hipFree(a);
  hipFree(b);
  hipFree(c);
  return 0;
}
