// examples/scale_cast_bf16.tile on the emulator: Y = bf16(alpha * X) with round-to-nearest-even, checked bit for bit
// against a reference that rounds by the bf16 format's definition.
#include "check.h"

extern "C" hipError_t launch_scale_cast_bf16(const float *X, __bf16 *Y, float alpha, int M, int N, hipStream_t stream);

int main() {
  const int sizes[] = {1, 64, 128, 200, 257};
  int failures = 0, runs = 0;
  for (float alpha : {1.0f, -0.3f, 3.0e5f})
    for (int M : sizes)
      for (int N : sizes) {
        std::vector<float> x = pattern(size_t(M) * N, M * 7 + N);
        std::vector<uint16_t> want(x.size());
        for (size_t i = 0; i < x.size(); ++i) want[i] = bf16_bits(alpha * x[i]);
        DeviceBuffer<float> dx(x);
        DeviceBuffer<__bf16> dy(x.size());
        hipError_t e = launch_scale_cast_bf16(dx.ptr, dy.ptr, alpha, M, N, nullptr);
        std::vector<__bf16> y = dy.download();
        std::vector<uint16_t> got(y.size());
        std::memcpy(got.data(), y.data(), y.size() * 2);
        int bad = e != hipSuccess ? 1 : compare("Y bits", got, want, N, [](uint16_t a, uint16_t b) { return a == b; });
        if (bad) std::printf("scale_cast_bf16 alpha=%g M=%d N=%d: %s, %d mismatches\n", alpha, M, N,
                             hipGetErrorString(e), bad);
        failures += bad != 0;
        ++runs;
      }
  std::printf("scale_cast_bf16: %d of %d runs bit-exact\n", runs - failures, runs);
  return failures != 0;
}
