// One program, two builds (CMakeLists.txt): consumer_hip runs the kernels on an AMD GPU (gfx942), consumer_emu on
// tilec's CPU emulator. It calls the launchers that tilec_add_kernels declares in "<file>.tile.h":
//   C = A x B (gemm_f16: f16 in, f32 out) and Y = bf16(alpha * X) (scale_cast_bf16),
// and checks both against a double-precision reference on the host. Exit 0 when every result is right, or when
// there is no GPU to run on (consumer_hip on a machine without one says so); 1 otherwise.
#include "gemm_f16.tile.h"
#include "scale_cast_bf16.tile.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

/// Small integers and halves: exact in f16 and bf16, so the reference sees the very values the kernel reads.
float pattern(size_t i, int salt) { return float(int((i * 7 + size_t(salt)) % 9) - 4) * 0.5f; }

template <typename T> struct DeviceArray {
  T *ptr = nullptr;
  size_t n;
  explicit DeviceArray(size_t n) : n(n) { (void)hipMalloc(reinterpret_cast<void **>(&ptr), n * sizeof(T)); }
  ~DeviceArray() { (void)hipFree(ptr); }
  void upload(const std::vector<T> &v) { (void)hipMemcpy(ptr, v.data(), n * sizeof(T), hipMemcpyHostToDevice); }
  std::vector<T> download() const {
    std::vector<T> v(n);
    (void)hipMemcpy(v.data(), ptr, n * sizeof(T), hipMemcpyDeviceToHost);
    return v;
  }
};

/// C = A x B for M x K times K x N; f32 accumulation of f16 products is within 2^-20 of sum |a b| at these sizes.
bool checkGemm(int M, int N, int K) {
  std::vector<_Float16> a(size_t(M) * K), b(size_t(K) * N);
  for (size_t i = 0; i < a.size(); ++i) a[i] = _Float16(pattern(i, 1));
  for (size_t i = 0; i < b.size(); ++i) b[i] = _Float16(pattern(i, 5));
  DeviceArray<_Float16> da(a.size()), db(b.size());
  DeviceArray<float> dc(size_t(M) * N);
  da.upload(a);
  db.upload(b);
  hipError_t e = launch_gemm_f16(da.ptr, db.ptr, dc.ptr, M, K, N, nullptr);
  if (e == hipSuccess) e = hipDeviceSynchronize();
  std::vector<float> c = dc.download();
  int wrong = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double ref = 0, magnitude = 0;
      for (int k = 0; k < K; ++k) {
        double p = double(a[size_t(m) * K + k]) * double(b[size_t(k) * N + n]);
        ref += p;
        magnitude += std::fabs(p);
      }
      if (std::fabs(double(c[size_t(m) * N + n]) - ref) > std::ldexp(magnitude, -20) + 1e-6 && wrong++ < 3)
        std::printf("  C(%d, %d) = %g, want %g\n", m, n, double(c[size_t(m) * N + n]), ref);
    }
  std::printf("gemm_f16 %dx%dx%d: %s (%s)\n", M, N, K, e == hipSuccess && !wrong ? "correct" : "WRONG",
              hipGetErrorString(e));
  return e == hipSuccess && !wrong;
}

/// Y = bf16(alpha * X): one rounding of an exact product, so within 2^-8 relative of the reference.
bool checkScale(int M, int N, float alpha) {
  std::vector<float> x(size_t(M) * N);
  for (size_t i = 0; i < x.size(); ++i) x[i] = pattern(i, 3) * 1.25f;
  DeviceArray<float> dx(x.size());
  DeviceArray<__bf16> dy(x.size());
  dx.upload(x);
  hipError_t e = launch_scale_cast_bf16(dx.ptr, dy.ptr, alpha, M, N, nullptr);
  if (e == hipSuccess) e = hipDeviceSynchronize();
  std::vector<__bf16> y = dy.download();
  int wrong = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double ref = double(alpha) * x[i];
    if (std::fabs(double(float(y[i])) - ref) > std::ldexp(std::fabs(ref), -8) && wrong++ < 3)
      std::printf("  Y[%zu] = %g, want %g\n", i, double(float(y[i])), ref);
  }
  std::printf("scale_cast_bf16 %dx%d: %s (%s)\n", M, N, e == hipSuccess && !wrong ? "correct" : "WRONG",
              hipGetErrorString(e));
  return e == hipSuccess && !wrong;
}

} // namespace

int main() {
#if defined(TILEC_EMULATOR)
  std::printf("running on tilec's CPU emulator\n");
#else
  int devices = 0;
  hipError_t e = hipGetDeviceCount(&devices);
  if (e != hipSuccess || devices == 0) {
    std::printf("no HIP device present (%s): the gfx942 kernels were built but cannot run here\n",
                hipGetErrorName(e));
    return 0;
  }
  std::printf("running on %d HIP device(s)\n", devices);
#endif
  bool ok = checkGemm(128, 128, 128);
  ok &= checkGemm(200, 136, 72); // partial blocks in M and N
  ok &= checkGemm(67, 33, 40);   // N and K not multiples of 8: the _unaligned kernel
  ok &= checkScale(100, 70, 0.75f);
  return ok ? 0 : 1;
}
