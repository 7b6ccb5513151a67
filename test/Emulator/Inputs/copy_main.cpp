// examples/copy_f16.tile on the emulator: every element copied exactly, for sizes with tails in both dimensions.
// With --broken the launcher is given one column fewer than the data has, which the check must catch.
#include "check.h"
#include <cstring>

extern "C" hipError_t launch_copy_f16(const _Float16 *X, _Float16 *Y, int M, int N, hipStream_t stream);

int main(int argc, char **argv) {
  bool broken = argc > 1 && std::strcmp(argv[1], "--broken") == 0;
  const int sizes[] = {1, 63, 64, 128, 200, 257};
  int failures = 0, runs = 0;
  for (int M : sizes)
    for (int N : sizes) {
      std::vector<float> values = pattern(size_t(M) * N, M * 1000 + N);
      std::vector<_Float16> x(values.begin(), values.end()), zeros(x.size(), _Float16(0));
      DeviceBuffer<_Float16> dx(x), dy(zeros);
      hipError_t e = launch_copy_f16(dx.ptr, dy.ptr, M, broken ? N - 1 : N, nullptr);
      if (e == hipSuccess) e = hipDeviceSynchronize();
      int bad = e != hipSuccess ? 1
                                : compare("Y", dy.download(), x, N, [](_Float16 a, _Float16 b) { return a == b; });
      if (bad) std::printf("copy_f16 M=%d N=%d: %s, %d mismatches\n", M, N, hipGetErrorString(e), bad);
      failures += bad != 0;
      ++runs;
    }
  std::printf("copy_f16: %d of %d sizes correct\n", runs - failures, runs);
  return failures != 0;
}
