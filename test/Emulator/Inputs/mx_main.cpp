// The block-scaled GEMM of mx_kernels.h on the CPU emulator (gfx950), against the reference of mx_reference.h written
// from the OCP MX specification (docs/mx.md). Shapes with tails in M, N and K (K a multiple of 32 that is not one of the instruction's
// K), both instructions, fp8 / bf8 / fp6 / bf6 / fp4 operands and mixed pairs, every scale byte selection (opsel).
//   (no argument)   every configuration: D must equal the reference exactly (per instruction, the emulator rounds
//                   the exact sum once to f32; the reference does the same, K step by K step)
//   cbsz            a fault the emulator must report (format code 5)
#include "check.h"
#include "mx_kernels.h"
#include "mx_reference.h"
#include <cmath>
#include <cstring>
#include <random>

namespace {

struct Config {
  int m, fa, fb, opsel;
  void (*kernel)(const unsigned char *, const unsigned char *, const unsigned char *, const unsigned char *, float *,
                 int, int, int);
  const char *name;
};

bool run(const Config &c, int m, int n, int k, std::mt19937 &rng) {
  auto codes = [&](int format, int rows) {
    std::vector<unsigned> v(size_t(rows) * k);
    for (unsigned &x : v)
      do x = rng() % (1u << mx::bitsOf(format));
      while (!std::isfinite(mxref::value(format, x)));
    return v;
  };
  auto scales = [&](int rows) {
    std::vector<unsigned char> v(size_t(rows) * (k / 32));
    for (unsigned char &x : v) x = static_cast<unsigned char>(122 + rng() % 11); // 2^-5 .. 2^5
    return v;
  };
  const std::vector<unsigned> a = codes(c.fa, m), b = codes(c.fb, n);
  const std::vector<unsigned char> sa = scales(m), sb = scales(n);
  DeviceBuffer<unsigned char> dA(mxref::pack(c.fa, a, m, k)), dB(mxref::pack(c.fb, b, n, k)), dSA(sa), dSB(sb);
  DeviceBuffer<float> dD(size_t(m) * n);
  const int blocks = (c.m == 16 ? 16 : 32);
  hipLaunchKernelGGL(c.kernel, dim3((n + blocks - 1) / blocks, (m + blocks - 1) / blocks), dim3(64), 0, nullptr,
                     dA.ptr, dB.ptr, dSA.ptr, dSB.ptr, dD.ptr, m, n, k);
  if (hipGetLastError() != hipSuccess) {
    std::printf("%s: launch failed\n", c.name);
    return false;
  }
  // Each instruction adds the exact sum of its K step (C first, then block by block) rounded once to f32, as the
  // emulator documents; the f32 accumulator carries it to the next K step.
  const int stepK = c.m == 16 ? 128 : 64;
  std::vector<float> want(size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      want[size_t(i) * n + j] = mxref::product(c.fa, c.fb, a, b, sa, sb, k, k / 32, stepK, i, j);
  const int bad = compare(c.name, dD.download(), want, n, [](float x, float y) { return x == y; });
  std::printf("%s %dx%dx%d: %s\n", c.name, m, n, k, bad ? "FAILED" : "ok");
  return !bad;
}

using namespace mx;

// clang-format off
const Config kConfigs[] = {
  {16, FP4, FP4, 0, mx_gemm<16, FP4, FP4, 0>, "16x16x128 fp4 x fp4 opsel 0"},
  {32, FP4, FP4, 1, mx_gemm<32, FP4, FP4, 1>, "32x32x64 fp4 x fp4 opsel 1"},
  {16, FP8, FP8, 2, mx_gemm<16, FP8, FP8, 2>, "16x16x128 fp8 x fp8 opsel 2"},
  {32, FP8, BF8, 3, mx_gemm<32, FP8, BF8, 3>, "32x32x64 fp8 x bf8 opsel 3"},
  {16, BF8, FP4, 1, mx_gemm<16, BF8, FP4, 1>, "16x16x128 bf8 x fp4 opsel 1"},
  {32, FP4, FP8, 2, mx_gemm<32, FP4, FP8, 2>, "32x32x64 fp4 x fp8 opsel 2"},
  {16, FP6, BF6, 0, mx_gemm<16, FP6, BF6, 0>, "16x16x128 fp6 x bf6 opsel 0"},
  {32, BF6, FP6, 3, mx_gemm<32, BF6, FP6, 3>, "32x32x64 bf6 x fp6 opsel 3"},
  {16, FP8, FP6, 1, mx_gemm<16, FP8, FP6, 1>, "16x16x128 fp8 x fp6 opsel 1"},
  {32, BF6, FP4, 2, mx_gemm<32, BF6, FP4, 2>, "32x32x64 bf6 x fp4 opsel 2"},
};
// clang-format on

int fault(const char *mode) {
  DeviceBuffer<unsigned char> bytes(64 * 256);
  DeviceBuffer<float> d(64 * 64);
  if (!std::strcmp(mode, "cbsz"))
    hipLaunchKernelGGL((mx_gemm<32, 5, FP4, 0>), dim3(1), dim3(64), 0, nullptr, bytes.ptr, bytes.ptr, bytes.ptr,
                       bytes.ptr, d.ptr, 32, 32, 64);
  else {
    std::printf("unknown mode %s\n", mode);
    return 2;
  }
  std::printf("%s: %s\n", mode, hipGetErrorString(hipGetLastError()));
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1) return fault(argv[1]);
  std::mt19937 rng(950);
  int ok = 0, total = 0;
  for (const Config &c : kConfigs) {
    ok += run(c, 50, 40, 224, rng); // tails: 50 = 3 x 16 + 2 = 32 + 18, 40 = 2 x 16 + 8, 224 = 128 + 96 = 3 x 64 + 32
    ok += run(c, c.m, c.m, c.m == 16 ? 128 : 64, rng); // one instruction, no tail
    total += 2;
  }
  std::printf("mx: %d of %d GEMMs correct\n", ok, total);
  return ok == total ? 0 : 1;
}
