// Register tiles read from LDS on the emulator: examples/transpose_f16.tile (Y = X^T, exactly) and
// Inputs/lds_convert.tile (a thread_raked tile written to LDS and read back block_raked: Y = X + Z, rounded once to
// f16 as the host does), for sizes with tails in both dimensions and odd widths (the _unaligned kernels). Every output
// element past the tensor must stay untouched (guard values around the output).
#include "check.h"
#include <cstring>

extern "C" hipError_t launch_transpose_f16(const _Float16 *X, _Float16 *Y, int M, int N, hipStream_t stream);
extern "C" hipError_t launch_lds_convert(const _Float16 *X, const _Float16 *Z, _Float16 *Y, int M, int N,
                                         hipStream_t stream);

static Runs all;

static void record(const char *kernel, int M, int N, hipError_t e, int bad) { all.record(kernel, M, N, e, bad); }

static int differing(const std::vector<_Float16> &got, const std::vector<_Float16> &want, int cols, const char *what) {
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], 2) != 0 && bad++ < 3)
      std::printf("  %s: element (%zu, %zu) = %g, want %g\n", what, i / cols, i % cols, double(got[i]),
                  double(want[i]));
  return bad;
}

static void transpose(int M, int N) {
  std::vector<_Float16> x = halfPattern(size_t(M) * N, M * 31 + N), want(x.size());
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) want[size_t(c) * M + r] = x[size_t(r) * N + c];
  DeviceBuffer<_Float16> dx(x), dy(x.size());
  hipError_t e = launch_transpose_f16(dx.ptr, dy.ptr, M, N, nullptr);
  record("transpose_f16", M, N, e, differing(dy.download(), want, M, "transpose"));
}

static void convert(int M, int N) {
  std::vector<_Float16> x = halfPattern(size_t(M) * N, M * 5 + N), z = halfPattern(size_t(M) * N, M * 7 + N + 1), want(x.size());
  for (size_t i = 0; i < x.size(); ++i) want[i] = static_cast<_Float16>(float(x[i]) + float(z[i]));
  DeviceBuffer<_Float16> dx(x), dz(z), dy(x.size());
  hipError_t e = launch_lds_convert(dx.ptr, dz.ptr, dy.ptr, M, N, nullptr);
  record("lds_convert", M, N, e, differing(dy.download(), want, N, "lds_convert"));
}

int main(int argc, char **argv) {
  std::string which = argc > 1 ? argv[1] : "";
  if (which == "transpose")
    for (int M : {1, 37, 128, 130})
      for (int N : {1, 8, 33, 64, 100}) transpose(M, N);
  if (which == "convert")
    for (int M : {1, 64, 100})
      for (int N : {4, 64, 70, 133}) convert(M, N);
  std::printf("%s: %d of %d runs correct\n", which.c_str(), all.runs - all.failures, all.runs);
  return all.failures != 0;
}
