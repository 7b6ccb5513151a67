// The GEMM examples on the emulator: C = A x B for sizes with tails in M, N and K, against a double-precision
// reference computed from the very input values (decoded from their storage type).
//   f16, fp8 -> f32: |C - ref| <= 2^-20 * sum_k |a b| + 1e-6: the emulated MFMA rounds to f32 once per instruction,
//                    K / k_instr roundings of at most 2^-24 relative each, well inside 2^-20 for K <= 257.
//   bf16 -> bf16:    the epilogue rounds alpha * C to bf16: within one bf16 ulp (2^-8 relative) of alpha * ref plus
//                    the f32 accumulation bound (alpha * 2^-20 * sum_k |a b|; it shows where the sum nearly cancels).
//   f16 -> f16 (gfx950's K16 MFMA): within one f16 ulp (2^-10 relative) plus the accumulation bound.
//   i8 -> i32:       exact.
// --broken passes B transposed (B^T where B is expected): the check must fail.
#include "check.h"
#include <cstring>

// A kernel launch_NAME(A, B, C, M, K, N, stream): its declaration, this test's run() and the name it prints.
#define GEMM_KERNEL(NAME)                                                                                            \
  extern "C" hipError_t launch_##NAME(const In *, const In *, Out *, int, int, int, hipStream_t);                     \
  hipError_t run(const In *a, const In *b, Out *c, int M, int N, int K) {                                             \
    return launch_##NAME(a, b, c, M, K, N, nullptr);                                                                  \
  }                                                                                                                   \
  const char *kName = #NAME;
#define GEMM_KERNEL_EXPANDED(NAME) GEMM_KERNEL(NAME)
// -DGEMM_NAME=kernel runs another kernel with the types and checks of the configuration (the bigger-block examples).
#if defined(GEMM_NAME)
#define GEMM_KERNEL_OR_NAMED(DEFAULT) GEMM_KERNEL_EXPANDED(GEMM_NAME)
#else
#define GEMM_KERNEL_OR_NAMED(DEFAULT) GEMM_KERNEL(DEFAULT)
#endif
// Element codecs: f16 and bf16 convert through float; fp8 and bf8 through the runtime's conversions (tested against
// their definitions in test/Runtime/fp8.test).
#define FLOAT_CODEC(DECODE, ENCODE)                                                                                   \
  double DECODE(In v) { return double(float(v)); }                                                                    \
  In ENCODE(float v) { return In(v); }
#define FP8_CODEC(DECODE, ENCODE, FORMAT)                                                                             \
  double DECODE(In v) { return double(tilec::fp8_to_f32<tilec::Fp8Format::FORMAT>(v)); }                             \
  In ENCODE(float v) { return tilec::f32_to_fp8<tilec::Fp8Format::FORMAT>(v); }

#if defined(GEMM_F16)
using In = _Float16;
using Out = float;
constexpr bool kBNK = false; // B given as K x N
GEMM_KERNEL_OR_NAMED(gemm_f16)
FLOAT_CODEC(decode, encode)
#elif defined(GEMM_F16_16X16_GFX950)
using In = _Float16;
using Out = float;
constexpr bool kBNK = true;
GEMM_KERNEL(gemm_f16_16x16_gfx950)
FLOAT_CODEC(decode, encode)
#elif defined(GEMM_F16_GFX950)
using In = _Float16;
using Out = _Float16;
constexpr bool kBNK = true;
GEMM_KERNEL(gemm_f16_gfx950)
FLOAT_CODEC(decode, encode)
#elif defined(GEMM_BF16)
using In = __bf16;
using Out = __bf16;
#if defined(GEMM_B_NK) // B given N x K (gemm_bf16_gfx950)
constexpr bool kBNK = true;
#else
constexpr bool kBNK = false;
#endif
constexpr float kAlpha = 0.5f;
// The launcher takes alpha before the sizes.
#define GEMM_ALPHA_KERNEL(NAME)                                                                                      \
  extern "C" hipError_t launch_##NAME(const In *, const In *, Out *, float, int, int, int, hipStream_t);              \
  hipError_t run(const In *a, const In *b, Out *c, int M, int N, int K) {                                             \
    return launch_##NAME(a, b, c, kAlpha, M, K, N, nullptr);                                                          \
  }                                                                                                                   \
  const char *kName = #NAME;
#define GEMM_ALPHA_KERNEL_EXPANDED(NAME) GEMM_ALPHA_KERNEL(NAME)
#if defined(GEMM_NAME)
GEMM_ALPHA_KERNEL_EXPANDED(GEMM_NAME)
#else
GEMM_ALPHA_KERNEL(gemm_bf16)
#endif
FLOAT_CODEC(decode, encode)
#elif defined(GEMM_I8)
using In = signed char;
using Out = int;
constexpr bool kBNK = true; // B given as N x K
GEMM_KERNEL(gemm_i8)
double decode(In v) { return double(v); }
In encode(float v) { return In(int(v) % 128); }
#elif defined(GEMM_FP8)
using In = unsigned char;
using Out = float;
#if defined(GEMM_B_KN) // B given K x N (gemm_fp8_kn_gfx950)
constexpr bool kBNK = false;
#else
constexpr bool kBNK = true;
#endif
GEMM_KERNEL_OR_NAMED(gemm_fp8)
#if defined(GEMM_FP8_OCP) // gfx950 reads fp8 bytes as OCP E4M3FN
FP8_CODEC(decode, encode, E4M3FN)
#else
FP8_CODEC(decode, encode, E4M3FNUZ) // gfx942
#endif
#elif defined(GEMM_FP8_BF8)
// Mixed operands: A fp8 (e4m3fnuz), B bf8 (e5m2fnuz) on gfx942. tilec issues the mirrored bf8_fp8 instruction with
// B's fragment first, so a mix-up of the two encodings or of the operand order shows in the numbers.
using In = unsigned char;
using Out = float;
constexpr bool kBNK = true;
GEMM_KERNEL(gemm_fp8_bf8)
FP8_CODEC(decode, encode, E4M3FNUZ)
FP8_CODEC(decodeB, encodeB, E5M2FNUZ)
#define TILEC_TEST_B_CODEC 1
#endif

#if !defined(TILEC_TEST_B_CODEC) // B is stored like A
double decodeB(In v) { return decode(v); }
In encodeB(float v) { return encode(v); }
#endif

int main(int argc, char **argv) {
  bool broken = argc > 1 && std::strcmp(argv[1], "--broken") == 0;
  // M, N, K and the element offset of every tensor from its allocation (1: only element aligned). N and K
  // multiples of 8 with aligned tensors run the vector kernel, even with partial blocks; the rest the _unaligned one.
#if defined(GEMM_LONG_K)
  // K = GEMM_LONG_K, 8 or 9 K steps of a staged loop (test/Emulator/staged-pairs.test): its main loop's pairs of
  // steps, the odd step after them and the masked steps, in an interior block and in edge blocks.
  const int sizes[][4] = {{128, 128, GEMM_LONG_K, 0}, {200, 136, GEMM_LONG_K, 0}};
#else
  const int sizes[][4] = {{128, 128, 128, 0}, {200, 136, 72, 0}, {200, 257, 200, 0}, {257, 200, 257, 0},
                          {64, 33, 96, 0},    {1, 1, 1, 0},      {128, 128, 128, 1}};
#endif
  int failures = 0, runs = 0;
  for (const auto &size : sizes) {
    const int M = size[0], N = size[1], K = size[2];
    const size_t shift = size_t(size[3]);
    std::vector<float> av = pattern(size_t(M) * K, M + K, 4.0f), bv = pattern(size_t(K) * N, N + 3 * K, 4.0f);
    std::vector<In> a(av.size()), b(bv.size());
    for (size_t i = 0; i < a.size(); ++i) a[i] = encode(av[i]);
    for (size_t i = 0; i < b.size(); ++i) b[i] = encodeB(bv[i]);
    // b holds B as the kernel expects it: K x N, or N x K (row n holds column n of the product's B).
    auto bAt = [&](int k, int n) { return decodeB(kBNK ? b[size_t(n) * K + k] : b[size_t(k) * N + n]); };
    std::vector<In> given = b;
    if (broken) // the other orientation of the same numbers
      for (int k = 0; k < K; ++k)
        for (int n = 0; n < N; ++n)
          given[kBNK ? size_t(k) * N + n : size_t(n) * K + k] = kBNK ? b[size_t(n) * K + k] : b[size_t(k) * N + n];
    DeviceBuffer<In> da(a, shift), db(given, shift);
    DeviceBuffer<Out> dc(size_t(M) * N, shift);
    hipError_t e = run(da.ptr, db.ptr, dc.ptr, M, N, K);
    if (!broken) std::printf("M=%d N=%d K=%d shift=%zu: %s\n", M, N, K, shift, tilec::emu::last_kernel());
    std::vector<Out> c = dc.download();
    int bad = e != hipSuccess;
    for (int m = 0; m < M && bad < 4; ++m)
      for (int n = 0; n < N && bad < 4; ++n) {
        double ref = 0, magnitude = 0;
        for (int k = 0; k < K; ++k) {
          double p = decode(a[size_t(m) * K + k]) * bAt(k, n);
          ref += p;
          magnitude += std::fabs(p);
        }
        double got = double(c[size_t(m) * N + n]);
#if defined(GEMM_BF16)
        ref *= kAlpha;
        bool ok = std::fabs(got - ref) <= std::ldexp(std::fabs(ref), -8) + std::ldexp(magnitude * kAlpha, -20) + 1e-6;
#elif defined(GEMM_F16_GFX950) // f16 output: within one f16 ulp (2^-10 relative) plus the f32 accumulation error
        bool ok = std::fabs(got - ref) <= std::ldexp(std::fabs(ref), -10) + std::ldexp(magnitude, -20) + 1e-4;
#elif defined(GEMM_I8)
        (void)magnitude;
        bool ok = got == ref;
#else
        bool ok = std::fabs(got - ref) <= std::ldexp(magnitude, -20) + 1e-6;
#endif
        if (!ok && bad++ < 3) std::printf("  C(%d, %d) = %.9g, want %.9g\n", m, n, got, ref);
      }
    if (bad) std::printf("%s M=%d N=%d K=%d: %s, wrong\n", kName, M, N, K, hipGetErrorString(e));
    failures += bad != 0;
    ++runs;
  }
  std::printf("%s: %d of %d sizes correct\n", kName, runs - failures, runs);
  return failures != 0;
}
