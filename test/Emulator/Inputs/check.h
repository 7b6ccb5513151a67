// Helpers shared by the emulator tests: deterministic data, device buffers, and comparison with a reference.
// The test programs use only the HIP API and tilec's launchers, so the same source runs on a GPU.
#pragma once
#include "tilec/runtime.h"
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

/// Deterministic values in [-range, range], distinct enough to catch misplaced elements.
inline std::vector<float> pattern(size_t n, unsigned seed, float range = 100.0f) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 1;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    v[i] = (float((s >> 8) % 20001) / 10000.0f - 1.0f) * range;
  }
  return v;
}

/// pattern(n, seed, range) rounded to f16, plus `center`.
inline std::vector<_Float16> halfPattern(size_t n, unsigned seed, float range = 8.0f, float center = 0.0f) {
  std::vector<float> p = pattern(n, seed, range);
  std::vector<_Float16> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = static_cast<_Float16>(center + p[i]);
  return h;
}

/// Runs and failures of a test program over sizes: record() counts one run and prints a failing one.
struct Runs {
  int runs = 0, failures = 0;
  void record(const char *kernel, int M, int N, hipError_t e, int bad) {
    ++runs;
    if (e == hipSuccess && bad == 0) return;
    ++failures;
    std::printf("%s M=%d N=%d: %s, %d mismatches\n", kernel, M, N, hipGetErrorString(e), bad);
  }
};

/// `shift` elements past the start of the allocation: shift 1 gives a pointer that is only element aligned.
template <typename T> struct DeviceBuffer {
  T *base = nullptr, *ptr = nullptr;
  size_t count = 0;
  explicit DeviceBuffer(size_t n, size_t shift = 0) : count(n) {
    if (hipMalloc(&base, (n + shift) * sizeof(T)) != hipSuccess) std::printf("hipMalloc failed\n");
    ptr = base + shift;
  }
  DeviceBuffer(const std::vector<T> &host, size_t shift = 0) : DeviceBuffer(host.size(), shift) { upload(host); }
  ~DeviceBuffer() { hipFree(base); }
  void upload(const std::vector<T> &host) { hipMemcpy(ptr, host.data(), count * sizeof(T), hipMemcpyHostToDevice); }
  std::vector<T> download() const {
    std::vector<T> host(count);
    hipMemcpy(host.data(), ptr, count * sizeof(T), hipMemcpyDeviceToHost);
    return host;
  }
};

/// f32 -> bf16 bits, round to nearest even; written from the format's definition, not with the compiler's __bf16.
inline uint16_t bf16_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return uint16_t((u >> 16) | 0x40);
  uint32_t rounding = 0x7FFFu + ((u >> 16) & 1u);
  return uint16_t((u + rounding) >> 16);
}

/// Counts and prints (the first few) mismatches between `got` and `want` under `equal`.
template <typename A, typename B, typename Eq>
int compare(const char *what, const std::vector<A> &got, const std::vector<B> &want, int cols, Eq equal) {
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!equal(got[i], want[i]) && bad++ < 3)
      std::printf("  %s: element (%zu, %zu) = %g, want %g\n", what, i / cols, i % cols, double(got[i]),
                  double(want[i]));
  return bad;
}

/// What a one-wave test kernel writes: `kernel(out)` on 64 threads, `count` values of `out`; empty, with the error
/// printed, when the launch fails.
template <typename T> std::vector<T> runOneWave(void (*kernel)(T *), size_t count) {
  DeviceBuffer<T> out(count);
  hipLaunchKernelGGL(kernel, dim3(1), dim3(64), 0, nullptr, out.ptr);
  if (hipError_t e = hipGetLastError(); e != hipSuccess) {
    std::printf("launch: %s\n", hipGetErrorString(e));
    return {};
  }
  return out.download();
}

/// Checks counted one at a time. `fails(ok)` counts one and says whether to print it (the first 10 failures);
/// `report` prints "NAME: H of N checks hold" and returns the exit status.
struct Tally {
  int checks = 0, bad = 0;
  bool fails(bool ok) {
    ++checks;
    return !ok && ++bad <= 10;
  }
  int report(const char *name) const {
    std::printf("%s: %d of %d checks hold\n", name, checks - bad, checks);
    return bad != 0;
  }
};
