// The emulator half of tests/scale_cast_bf16.test: runs launch_scale_cast_bf16 on tilec's CPU emulator for a few
// shapes (whole and partial 64 x 64 blocks) and compares Y with a double-precision alpha * X. Prints one line per
// shape; exit 1 if any is wrong.
#include "scale_cast_bf16.tile.h"

#include <cmath>
#include <cstdio>
#include <vector>

static bool check(int M, int N, float alpha) {
  std::vector<float> x(size_t(M) * N);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i % 13) - 6) * 0.375f;
  float *dx = nullptr;
  __bf16 *dy = nullptr;
  (void)hipMalloc(reinterpret_cast<void **>(&dx), x.size() * sizeof(float));
  (void)hipMalloc(reinterpret_cast<void **>(&dy), x.size() * sizeof(__bf16));
  (void)hipMemcpy(dx, x.data(), x.size() * sizeof(float), hipMemcpyHostToDevice);
  hipError_t e = launch_scale_cast_bf16(dx, dy, alpha, M, N, nullptr);
  std::vector<__bf16> y(x.size());
  (void)hipMemcpy(y.data(), dy, y.size() * sizeof(__bf16), hipMemcpyDeviceToHost);
  (void)hipFree(dx);
  (void)hipFree(dy);
  size_t wrong = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double want = double(alpha) * x[i]; // bf16 keeps 8 significant bits: one rounding is within 2^-8 relative
    if (std::fabs(double(float(y[i])) - want) > std::ldexp(std::fabs(want), -8)) ++wrong;
  }
  std::printf("%dx%d: %zu of %zu wrong (%s)\n", M, N, wrong, x.size(), hipGetErrorString(e));
  return e == hipSuccess && wrong == 0;
}

int main() {
  bool ok = check(64, 64, 2.0f);
  ok &= check(130, 72, -0.75f);
  return ok ? 0 : 1;
}
