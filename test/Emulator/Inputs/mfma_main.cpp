// Every MFMA instruction of tilec's table on the CPU emulator. One kernel per instruction, written the way tilec emits
// code: each lane of one wave builds its A and B operands and its part of C from A (M x K), B (K x N) and C (M x N) in
// global memory, using the lane layouts of shared/facts/mfma.md written out again below (not taken from the emulator
// or the compiler), calls the builtin once, and stores its part of D by the same layout. The host compares D with a
// plain reference multiply.
//
// Compile with -DTILEC_ARCH_GFX942 (fp8/bf8 are FNUZ; 16 instructions) or -DTILEC_ARCH_GFX950 (OCP; 20 instructions,
// with the K32/K16 f16 and bf16 forms).
//   (no argument)    every instruction: random matrices, one-hot operands, C pass-through; fp8 encodings; fp8 decoding
//   --transposed-b   the kernels read B as if stored transposed: every instruction must fail
//   divergent, divergent-barrier, two-sites, cbsz, partial-wave: faults the emulator must report
//   barriers         MFMAs of 4 waves interleaved with barriers and LDS exchanges, 2 workgroups: must be exact
#include "check.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

#if defined(TILEC_ARCH_GFX950)
constexpr tilec::Fp8Format kE4M3 = tilec::Fp8Format::E4M3FN, kE5M2 = tilec::Fp8Format::E5M2;
#else
constexpr tilec::Fp8Format kE4M3 = tilec::Fp8Format::E4M3FNUZ, kE5M2 = tilec::Fp8Format::E5M2FNUZ;
#endif

//===--- Device side ---===//

struct Shape {
  int m, n, k, kpl; // D (m x n) = A (m x k) x B (k x n) + C; kpl = K values per lane
};
struct Slot {
  int lane, elem;
};

// The layouts of shared/facts/mfma.md.
TILEC_DEVICE Slot slot_a(Shape s, int i, int k) { return {i + s.m * (k / s.kpl), k % s.kpl}; }
TILEC_DEVICE Slot slot_b(Shape s, int k, int j) { return {j + s.n * (k / s.kpl), k % s.kpl}; }
TILEC_DEVICE Slot slot_d(Shape s, int i, int j) {
  if (s.m == 16) return {j + 16 * (i / 4), i % 4};
  return {j + 32 * ((i / 4) % 2), 4 * (i / 8) + i % 4};
}

/// Element e of an A/B operand := the stored value x. 8-bit operands are a long, element 0 in the lowest byte; bf16 is
/// stored as its bits (uint16_t).
template <typename Operand, typename S> TILEC_DEVICE void set_element(Operand &v, int e, S x) {
  if constexpr (std::is_same_v<Operand, long>) {
    const unsigned long byte = static_cast<unsigned char>(x);
    v = static_cast<long>((static_cast<unsigned long>(v) & ~(0xFFul << (8 * e))) | byte << (8 * e));
  } else if constexpr (std::is_same_v<Operand, float>) {
    v = x;
  } else {
    using T = std::remove_cv_t<std::remove_reference_t<decltype(v[0])>>;
    if constexpr (std::is_same_v<T, __bf16>) v[e] = __builtin_bit_cast(__bf16, x);
    else v[e] = static_cast<T>(x); // _Float16, or short holding bf16 bits
  }
}

/// Marks this lane bad unless the layout filled each of its `count` slots exactly once.
TILEC_DEVICE void check_filled(unsigned filled, bool twice, int count, int *bad, int lane) {
  if (twice || filled != (count == 32 ? ~0u : (1u << count) - 1u)) tilec::global_store<int>(bad + lane, 1);
}

/// This lane's A operand: every A[i][k] (row-major, m x k) the layout gives to `lane`.
template <typename Operand, typename S> TILEC_DEVICE Operand lane_a(Shape s, const S *A, int lane, int *bad) {
  Operand v{};
  unsigned filled = 0;
  bool twice = false;
  for (int i = 0; i < s.m; ++i)
    for (int k = 0; k < s.k; ++k) {
      const Slot p = slot_a(s, i, k);
      if (p.lane != lane) continue;
      twice |= (filled >> p.elem) & 1u;
      filled |= 1u << p.elem;
      set_element(v, p.elem, tilec::global_load<S>(A + i * s.k + k));
    }
  check_filled(filled, twice, s.kpl, bad, lane);
  return v;
}

/// This lane's B operand: every B[k][j] (row-major, k x n) the layout gives to `lane`. `transposed` reads B as if it
/// were stored n x k: the mistake the checks must catch.
template <typename Operand, typename S>
TILEC_DEVICE Operand lane_b(Shape s, const S *B, int lane, int *bad, int transposed) {
  Operand v{};
  unsigned filled = 0;
  bool twice = false;
  for (int k = 0; k < s.k; ++k)
    for (int j = 0; j < s.n; ++j) {
      const Slot p = slot_b(s, k, j);
      if (p.lane != lane) continue;
      twice |= (filled >> p.elem) & 1u;
      filled |= 1u << p.elem;
      set_element(v, p.elem, tilec::global_load<S>(B + (transposed ? j * s.k + k : k * s.n + j)));
    }
  check_filled(filled, twice, s.kpl, bad, lane);
  return v;
}

/// This lane's part of C (row-major, m x n). (Accumulators go by reference: passing a 64-byte vector by value draws
/// -Wpsabi on x86.)
template <typename Acc, typename T> TILEC_DEVICE void lane_c(Shape s, const T *C, int lane, int *bad, Acc &v) {
  v = Acc{};
  unsigned filled = 0;
  bool twice = false;
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      const Slot p = slot_d(s, i, j);
      if (p.lane != lane) continue;
      twice |= (filled >> p.elem) & 1u;
      filled |= 1u << p.elem;
      v[p.elem] = tilec::global_load<T>(C + i * s.n + j);
    }
  check_filled(filled, twice, s.m * s.n / 64, bad, lane);
}

/// Stores this lane's part of D (row-major, m x n).
template <typename Acc, typename T> TILEC_DEVICE void store_d(Shape s, T *D, int lane, const Acc &d) {
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      const Slot p = slot_d(s, i, j);
      if (p.lane == lane) tilec::global_store<T>(D + i * s.n + j, d[p.elem]);
    }
}

// One instruction, one wave: the kernel is named after the instruction.
#define MFMA_KERNEL(NAME, BUILTIN, S, OPERAND, T, ACC, M, N, K, KPL)                                                  \
  extern "C" __global__ __launch_bounds__(64) void NAME(const S *__restrict__ A, const S *__restrict__ B,             \
                                                        const T *__restrict__ C, T *__restrict__ D, int *bad,          \
                                                        int transposedB) {                                             \
    const Shape s{M, N, K, KPL};                                                                                       \
    const int lane = __builtin_amdgcn_workitem_id_x();                                                                 \
    const OPERAND a = lane_a<OPERAND>(s, A, lane, bad);                                                                \
    const OPERAND b = lane_b<OPERAND>(s, B, lane, bad, transposedB);                                                   \
    ACC c;                                                                                                             \
    lane_c(s, C, lane, bad, c);                                                                                        \
    c = BUILTIN(a, b, c, 0, 0, 0);                                                                                     \
    store_d(s, D, lane, c);                                                                                            \
  }

// clang-format off
MFMA_KERNEL(v_mfma_f32_16x16x16_f16,     __builtin_amdgcn_mfma_f32_16x16x16f16,      _Float16, tilec::f16x4, float, tilec::f32x4,  16, 16, 16, 4)
MFMA_KERNEL(v_mfma_f32_32x32x8_f16,      __builtin_amdgcn_mfma_f32_32x32x8f16,       _Float16, tilec::f16x4, float, tilec::f32x16, 32, 32,  8, 4)
MFMA_KERNEL(v_mfma_f32_16x16x16_bf16,    __builtin_amdgcn_mfma_f32_16x16x16bf16_1k,  uint16_t, tilec::i16x4, float, tilec::f32x4,  16, 16, 16, 4)
MFMA_KERNEL(v_mfma_f32_32x32x8_bf16,     __builtin_amdgcn_mfma_f32_32x32x8bf16_1k,   uint16_t, tilec::i16x4, float, tilec::f32x16, 32, 32,  8, 4)
MFMA_KERNEL(v_mfma_i32_16x16x32_i8,      __builtin_amdgcn_mfma_i32_16x16x32_i8,      int8_t,   long,         int,   tilec::i32x4,  16, 16, 32, 8)
MFMA_KERNEL(v_mfma_i32_32x32x16_i8,      __builtin_amdgcn_mfma_i32_32x32x16_i8,      int8_t,   long,         int,   tilec::i32x16, 32, 32, 16, 8)
MFMA_KERNEL(v_mfma_f32_16x16x32_fp8_fp8, __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8, uint8_t,  long,         float, tilec::f32x4,  16, 16, 32, 8)
MFMA_KERNEL(v_mfma_f32_32x32x16_fp8_fp8, __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8, uint8_t,  long,         float, tilec::f32x16, 32, 32, 16, 8)
MFMA_KERNEL(v_mfma_f32_16x16x32_fp8_bf8, __builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8, uint8_t,  long,         float, tilec::f32x4,  16, 16, 32, 8)
MFMA_KERNEL(v_mfma_f32_32x32x16_fp8_bf8, __builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8, uint8_t,  long,         float, tilec::f32x16, 32, 32, 16, 8)
MFMA_KERNEL(v_mfma_f32_16x16x32_bf8_fp8, __builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8, uint8_t,  long,         float, tilec::f32x4,  16, 16, 32, 8)
MFMA_KERNEL(v_mfma_f32_32x32x16_bf8_fp8, __builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8, uint8_t,  long,         float, tilec::f32x16, 32, 32, 16, 8)
MFMA_KERNEL(v_mfma_f32_16x16x32_bf8_bf8, __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8, uint8_t,  long,         float, tilec::f32x4,  16, 16, 32, 8)
MFMA_KERNEL(v_mfma_f32_32x32x16_bf8_bf8, __builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8, uint8_t,  long,         float, tilec::f32x16, 32, 32, 16, 8)
MFMA_KERNEL(v_mfma_f32_16x16x4_f32,      __builtin_amdgcn_mfma_f32_16x16x4f32,       float,    float,        float, tilec::f32x4,  16, 16,  4, 1)
MFMA_KERNEL(v_mfma_f32_32x32x2_f32,      __builtin_amdgcn_mfma_f32_32x32x2f32,       float,    float,        float, tilec::f32x16, 32, 32,  2, 1)
#if defined(TILEC_ARCH_GFX950)
MFMA_KERNEL(v_mfma_f32_16x16x32_f16,     __builtin_amdgcn_mfma_f32_16x16x32_f16,     _Float16, tilec::f16x8,  float, tilec::f32x4,  16, 16, 32, 8)
MFMA_KERNEL(v_mfma_f32_32x32x16_f16,     __builtin_amdgcn_mfma_f32_32x32x16_f16,     _Float16, tilec::f16x8,  float, tilec::f32x16, 32, 32, 16, 8)
MFMA_KERNEL(v_mfma_f32_16x16x32_bf16,    __builtin_amdgcn_mfma_f32_16x16x32_bf16,    uint16_t, tilec::bf16x8, float, tilec::f32x4,  16, 16, 32, 8)
MFMA_KERNEL(v_mfma_f32_32x32x16_bf16,    __builtin_amdgcn_mfma_f32_32x32x16_bf16,    uint16_t, tilec::bf16x8, float, tilec::f32x16, 32, 32, 16, 8)
#endif
// clang-format on

//===--- Faults: the lanes of a wave must reach each MFMA together ---===//

// Lanes 32-63 leave before the MFMA.
extern "C" __global__ __launch_bounds__(64) void divergent_mfma(float *__restrict__ D) {
  const int lane = __builtin_amdgcn_workitem_id_x();
  if (lane >= 32) return;
  tilec::f32x16 c = {};
  c = __builtin_amdgcn_mfma_f32_32x32x8f16(tilec::f16x4{}, tilec::f16x4{}, c, 0, 0, 0);
  tilec::global_store<float>(D + lane, c[0]);
}

// Wave 0 runs the MFMA; in wave 1, lanes 32-63 go to a barrier instead.
extern "C" __global__ __launch_bounds__(128) void mfma_or_barrier(float *__restrict__ D) {
  const int tid = __builtin_amdgcn_workitem_id_x();
  tilec::f32x16 c = {};
  if (tid >= 96) tilec::barrier();
  c = __builtin_amdgcn_mfma_f32_32x32x8f16(tilec::f16x4{}, tilec::f16x4{}, c, 0, 0, 0);
  tilec::global_store<float>(D + tid, c[0]);
}

// Two MFMA calls: lanes 0-31 reach one, lanes 32-63 the other.
extern "C" __global__ __launch_bounds__(64) void two_sites(float *__restrict__ D) {
  const int lane = __builtin_amdgcn_workitem_id_x();
  tilec::f32x16 c = {};
  if (lane < 32)
    c = __builtin_amdgcn_mfma_f32_32x32x8f16(tilec::f16x4{}, tilec::f16x4{}, c, 0, 0, 0);
  else
    c = __builtin_amdgcn_mfma_f32_32x32x8f16(tilec::f16x4{}, tilec::f16x4{}, c, 0, 0, 0);
  tilec::global_store<float>(D + lane, c[0]);
}

// A broadcast form (cbsz = 1), which tilec never emits.
extern "C" __global__ __launch_bounds__(64) void broadcast(float *__restrict__ D) {
  const int lane = __builtin_amdgcn_workitem_id_x();
  tilec::f32x4 c = {};
  c = __builtin_amdgcn_mfma_f32_16x16x16f16(tilec::f16x4{}, tilec::f16x4{}, c, 1, 0, 0);
  tilec::global_store<float>(D + lane, c[0]);
}

// A workgroup of 96 work-items: its second wave has 32 lanes, too few for an MFMA.
extern "C" __global__ __launch_bounds__(96) void partial_wave(float *__restrict__ D) {
  const int tid = __builtin_amdgcn_workitem_id_x();
  tilec::f32x4 c = {};
  c = __builtin_amdgcn_mfma_f32_16x16x16f16(tilec::f16x4{}, tilec::f16x4{}, c, 0, 0, 0);
  tilec::global_store<float>(D + tid, c[0]);
}

//===--- MFMAs interleaved with barriers ---===//

// 4 waves of a workgroup each hold a 32 x 32 accumulator. Three rounds: D_w = A_w x B + C_w with A_w (32 x 8) of this
// workgroup and wave and B (8 x 32) shared; each wave writes D_w to LDS, a barrier, reads wave (w + 1) % 4's D as its
// next C, another barrier. Small integers: every value is exact, so D must match the host bit for bit.
constexpr Shape kChain{32, 32, 8, 4};
constexpr int kChainRounds = 3;
extern "C" __global__ __launch_bounds__(256) void mfma_chain(const _Float16 *__restrict__ A,
                                                               const _Float16 *__restrict__ B,
                                                               const float *__restrict__ C, float *__restrict__ D,
                                                               int *bad) {
  __shared__ float exchange[4 * 64 * 16];
  const int tid = __builtin_amdgcn_workitem_id_x(), wave = tid / 64, lane = tid % 64;
  const int gw = __builtin_amdgcn_workgroup_id_x() * 4 + wave;
  int *waveBad = bad + wave * 64;
  const tilec::f16x4 a = lane_a<tilec::f16x4>(kChain, A + gw * 32 * 8, lane, waveBad);
  const tilec::f16x4 b = lane_b<tilec::f16x4>(kChain, B, lane, waveBad, 0);
  tilec::f32x16 c;
  lane_c(kChain, C + gw * 32 * 32, lane, waveBad, c);
  for (int round = 0; round < kChainRounds; ++round) {
    c = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, 0, 0, 0);
    for (int e = 0; e < 16; ++e) exchange[(wave * 64 + lane) * 16 + e] = c[e];
    tilec::barrier();
    for (int e = 0; e < 16; ++e) c[e] = exchange[(((wave + 1) % 4) * 64 + lane) * 16 + e];
    tilec::barrier();
  }
  store_d(kChain, D + gw * 32 * 32, lane, c);
}

//===--- Host side ---===//

enum class Kind { F32, F16, BF16, I8, FP8, BF8 };

struct Rng {
  uint32_t s;
  explicit Rng(uint32_t seed) : s(seed * 2654435761u + 12345u) {}
  uint32_t next() {
    s = s * 1664525u + 1013904223u;
    return s >> 8;
  }
  float uniform(float range) { return (float(next() % 20001) / 10000.0f - 1.0f) * range; }
};

/// The number a stored A/B element stands for; fp8/bf8 through runtime.h's conversions for this target's encoding.
template <typename S> double value(Kind kind, S x) {
  if constexpr (std::is_same_v<S, uint16_t>) { // bf16 bits
    uint32_t u = uint32_t(x) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  } else if constexpr (std::is_same_v<S, uint8_t>) {
    return kind == Kind::FP8 ? tilec::fp8_to_f32<kE4M3>(x) : tilec::fp8_to_f32<kE5M2>(x);
  } else {
    return double(x);
  }
}

/// The stored form of a small exact value (0 or 1).
template <typename S> S encode(Kind kind, float v) {
  if constexpr (std::is_same_v<S, uint16_t>) return bf16_bits(v);
  else if constexpr (std::is_same_v<S, uint8_t>) return kind == Kind::FP8 ? tilec::f32_to_fp8<kE4M3>(v) : tilec::f32_to_fp8<kE5M2>(v);
  else return S(v);
}

/// A random stored element: any finite fp8/bf8 byte, any i8, f16/bf16/f32 in [-4, 4].
template <typename S> S random_element(Kind kind, Rng &rng) {
  if constexpr (std::is_same_v<S, uint16_t>) return bf16_bits(rng.uniform(4));
  else if constexpr (std::is_same_v<S, int8_t>) return int8_t(rng.next() & 0xFF);
  else if constexpr (std::is_same_v<S, uint8_t>) {
    while (true) {
      const uint8_t b = uint8_t(rng.next() & 0xFF);
      if (std::isfinite(value(kind, b))) return b;
    }
  } else return S(rng.uniform(4));
}

template <typename S, typename T> using Kernel = void (*)(const S *, const S *, const T *, T *, int *, int);

/// One launch of `kernel` on one wave; D, or nothing when the launch failed or a lane's operand slots were not
/// filled exactly once.
template <typename S, typename T>
bool launch(Kernel<S, T> kernel, const std::vector<S> &a, const std::vector<S> &b, const std::vector<T> &c,
            bool transposed, std::vector<T> &d) {
  DeviceBuffer<S> da(a), db(b);
  DeviceBuffer<T> dc(c), dd(c.size());
  DeviceBuffer<int> bad(std::vector<int>(64, 0));
  hipLaunchKernelGGL(kernel, dim3(1), dim3(64), 0, nullptr, da.ptr, db.ptr, dc.ptr, dd.ptr, bad.ptr,
                     transposed ? 1 : 0);
  const hipError_t e = hipGetLastError();
  if (e != hipSuccess) {
    std::printf("  launch: %s\n", hipGetErrorString(e));
    return false;
  }
  int badLanes = 0;
  for (int flag : bad.download()) badLanes += flag;
  if (badLanes) std::printf("  %d lanes have operand slots the layouts fill zero or two times\n", badLanes);
  d = dd.download();
  return badLanes == 0;
}

/// Checks one instruction:
///  1. random A, B, C against a reference multiply: i8 exact (C + sum modulo 2^32, with C at INT_MAX / INT_MIN in
///     two rows so that sums wrap); float results within 2^-24 |ref| + 2^-46 sum|terms| + 2^-149 of the reference
///     (computed in long double), i.e. one rounding to f32 (at most half an ulp, 2^-24 relative) on top of the
///     emulator's double accumulation (its error at most (K + 1) 2^-53 sum|terms| < 2^-47 sum|terms| for K <= 32);
///  2. one-hot rows of A (K runs: A[i][k] = 1 iff k = (i + r) % K): D[i][j] must be exactly B[(i + r) % K][j], so
///     every A element's lane and slot and every D element's place is checked; one-hot columns of B likewise
///     (D[i][j] = A[i][(j + r) % K]);
///  3. A = B = 0: D must be C exactly.
template <typename S, typename T>
bool check(const char *name, Shape s, Kind ka, Kind kb, Kernel<S, T> kernel, bool transposed) {
  const int M = s.m, N = s.n, K = s.k;
  Rng rng(uint32_t(std::strlen(name)) * 7919u + uint32_t(name[12]) + uint32_t(K));
  std::vector<S> a(M * K), b(K * N);
  std::vector<T> c(M * N), d;
  for (S &x : a) x = random_element<S>(ka, rng);
  for (S &x : b) x = random_element<S>(kb, rng);
  for (T &x : c) {
    if constexpr (std::is_integral_v<T>) x = T(rng.next() << 8 | (rng.next() & 0xFF));
    else x = rng.uniform(4);
  }
  if constexpr (std::is_integral_v<T>)
    for (int j = 0; j < N; ++j) c[j] = 2147483647, c[N + j] = -2147483647 - 1;
  int bad = 0, wrapped = 0;
  double worst = 0; // largest |error| / tolerance
  auto mismatch = [&](const char *what, int i, int j, double got, double want) {
    if (bad++ < 3) std::printf("  %s: D[%d][%d] = %.9g, want %.9g\n", what, i, j, got, want);
  };
  if (!launch(kernel, a, b, c, transposed, d)) ++bad;
  else
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        const T got = d[i * N + j];
        if constexpr (std::is_integral_v<T>) {
          long long sum = c[i * N + j];
          for (int k = 0; k < K; ++k) sum += (long long)value(ka, a[i * K + k]) * (long long)value(kb, b[k * N + j]);
          const T want = T(uint32_t(uint64_t(sum)));
          wrapped += sum != want;
          if (got != want) mismatch("random", i, j, got, want);
        } else {
          long double ref = c[i * N + j], terms = std::fabs(c[i * N + j]);
          for (int k = 0; k < K; ++k) {
            const long double t = (long double)value(ka, a[i * K + k]) * value(kb, b[k * N + j]);
            ref += t;
            terms += std::fabs(t);
          }
          const double err = double(std::fabs((long double)got - ref));
          const double tol = std::ldexp(double(std::fabs(ref)), -24) + std::ldexp(double(terms), -46) + std::ldexp(1.0, -149);
          worst = std::max(worst, err / tol);
          if (!(err <= tol)) mismatch("random", i, j, got, double(ref));
        }
      }
  // One-hot operands: exact.
  const S one = encode<S>(ka, 1.0f), zeroA = encode<S>(ka, 0.0f), zeroB = encode<S>(kb, 0.0f), oneB = encode<S>(kb, 1.0f);
  const std::vector<T> zeroC(M * N, T(0));
  for (int r = 0; r < K; ++r) {
    std::vector<S> hot(M * K, zeroA);
    for (int i = 0; i < M; ++i) hot[i * K + (i + r) % K] = one;
    if (!launch(kernel, hot, b, zeroC, transposed, d)) ++bad;
    else
      for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j)
          if (double(d[i * N + j]) != value(kb, b[((i + r) % K) * N + j]))
            mismatch("one-hot A", i, j, double(d[i * N + j]), value(kb, b[((i + r) % K) * N + j]));
  }
  for (int r = 0; r < K; ++r) {
    std::vector<S> hot(K * N, zeroB);
    for (int j = 0; j < N; ++j) hot[((j + r) % K) * N + j] = oneB;
    if (!launch(kernel, a, hot, zeroC, transposed, d)) ++bad;
    else
      for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j)
          if (double(d[i * N + j]) != value(ka, a[i * K + (j + r) % K]))
            mismatch("one-hot B", i, j, double(d[i * N + j]), value(ka, a[i * K + (j + r) % K]));
  }
  if (!launch(kernel, std::vector<S>(M * K, zeroA), std::vector<S>(K * N, zeroB), c, transposed, d)) ++bad;
  else
    for (int i = 0; i < M * N; ++i)
      if (d[i] != c[i]) mismatch("C pass-through", i / N, i % N, double(d[i]), double(c[i]));

  if (bad) std::printf("%s: FAILED, %d mismatches\n", name, bad);
  else if constexpr (std::is_integral_v<T>)
    std::printf("%s: ok (random exact, %d of %d sums wrapped; %d one-hot runs exact; C passes through)\n", name,
                wrapped, M * N, 2 * K);
  else
    std::printf("%s: ok (random within tolerance, worst error %.2f of it; %d one-hot runs exact; C passes through)\n",
                name, worst, 2 * K);
  return bad == 0;
}

/// The same bytes through the fp8 instructions: A[0][0] = 0x40, B[0][0] = 0x44 (and then A[0][0] = 0x80), all else 0.
/// E4M3: 0x40 = 1 (FNUZ) / 2 (OCP), 0x44 = 1.5 / 3. E5M2: 0x40 = 1 / 2, 0x44 = 2 / 4. 0x80 is NaN in FNUZ, -0 in OCP.
void fp8_encodings(const char *name, Shape s, Kernel<uint8_t, float> kernel) {
  std::vector<uint8_t> a(s.m * s.k, 0), b(s.k * s.n, 0);
  std::vector<float> c(s.m * s.n, 0.0f), d1, d2;
  a[0] = 0x40;
  b[0] = 0x44;
  launch(kernel, a, b, c, false, d1);
  a[0] = 0x80;
  launch(kernel, a, b, c, false, d2);
  std::printf("%s: 0x40 * 0x44 = %g, 0x80 * 0x44 = %g\n", name, d1.empty() ? -1.0 : d1[0], d2.empty() ? -1.0 : d2[0]);
}

/// The emulator's fp8/bf8 decoding (emulator_mfma.h) against runtime.h's, for every byte of the four formats.
int fp8_decoding() {
  using tilec::Fp8Format;
  int agree = 0;
  for (int byte = 0; byte < 256; ++byte) {
    const uint8_t x = uint8_t(byte);
    const double emu[4] = {tilec::emu::decode_f8(x, false, tilec::emu::Fp8Encoding::FNUZ),
                           tilec::emu::decode_f8(x, true, tilec::emu::Fp8Encoding::FNUZ),
                           tilec::emu::decode_f8(x, false, tilec::emu::Fp8Encoding::OCP),
                           tilec::emu::decode_f8(x, true, tilec::emu::Fp8Encoding::OCP)};
    const double runtime[4] = {tilec::fp8_to_f32<Fp8Format::E4M3FNUZ>(x), tilec::fp8_to_f32<Fp8Format::E5M2FNUZ>(x),
                               tilec::fp8_to_f32<Fp8Format::E4M3FN>(x), tilec::fp8_to_f32<Fp8Format::E5M2>(x)};
    for (int f = 0; f < 4; ++f)
      agree += (std::isnan(emu[f]) && std::isnan(runtime[f])) ||
               (emu[f] == runtime[f] && std::signbit(emu[f]) == std::signbit(runtime[f]));
  }
  std::printf("fp8 decoding: %d of 1024 bytes agree with tilec::fp8_to_f32\n", agree);
  return agree == 1024;
}

/// MFMAs of 4 waves interleaved with barriers (mfma_chain), 2 workgroups, against the same chain on the host.
int chain() {
  const int groups = 2, waves = groups * 4;
  Rng rng(42);
  std::vector<_Float16> a(waves * 32 * 8), b(8 * 32);
  std::vector<float> c(waves * 32 * 32), want(waves * 32 * 32);
  for (auto &x : a) x = _Float16(float(int(rng.next() % 5) - 2));
  for (auto &x : b) x = _Float16(float(int(rng.next() % 5) - 2));
  for (auto &x : c) x = float(int(rng.next() % 201) - 100);
  std::vector<float> cur = c;
  for (int round = 0; round < kChainRounds; ++round) {
    std::vector<float> next(cur.size());
    for (int w = 0; w < waves; ++w)
      for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j) {
          float sum = cur[(w * 32 + i) * 32 + j];
          for (int k = 0; k < 8; ++k) sum += float(a[(w * 32 + i) * 8 + k]) * float(b[k * 32 + j]);
          next[(w * 32 + i) * 32 + j] = sum;
        }
    // Wave w takes wave (w + 1) % 4's D of its own workgroup.
    for (int w = 0; w < waves; ++w) {
      const int from = w / 4 * 4 + (w % 4 + 1) % 4;
      std::copy(next.begin() + from * 1024, next.begin() + (from + 1) * 1024, cur.begin() + w * 1024);
    }
  }
  DeviceBuffer<_Float16> da(a), db(b);
  DeviceBuffer<float> dc(c), dd(c.size());
  DeviceBuffer<int> bad(std::vector<int>(256, 0));
  hipLaunchKernelGGL(mfma_chain, dim3(groups), dim3(256), 0, nullptr, da.ptr, db.ptr, dc.ptr, dd.ptr, bad.ptr);
  const hipError_t e = hipGetLastError();
  int wrong = 0;
  std::vector<float> got = dd.download();
  for (size_t i = 0; i < got.size(); ++i) wrong += got[i] != cur[i];
  for (int flag : bad.download()) wrong += flag;
  std::printf("barriers: %d wrong\nbarriers: %s\n", wrong, hipGetErrorString(e));
  return wrong == 0 && e == hipSuccess;
}

int fault(const char *mode) {
  DeviceBuffer<float> d(128);
  if (!std::strcmp(mode, "divergent")) hipLaunchKernelGGL(divergent_mfma, dim3(1), dim3(64), 0, nullptr, d.ptr);
  else if (!std::strcmp(mode, "divergent-barrier")) hipLaunchKernelGGL(mfma_or_barrier, dim3(1), dim3(128), 0, nullptr, d.ptr);
  else if (!std::strcmp(mode, "two-sites")) hipLaunchKernelGGL(two_sites, dim3(1), dim3(64), 0, nullptr, d.ptr);
  else if (!std::strcmp(mode, "cbsz")) hipLaunchKernelGGL(broadcast, dim3(1), dim3(64), 0, nullptr, d.ptr);
  else if (!std::strcmp(mode, "partial-wave")) hipLaunchKernelGGL(partial_wave, dim3(1), dim3(96), 0, nullptr, d.ptr);
  else {
    std::printf("unknown mode %s\n", mode);
    return 2;
  }
  const hipError_t e = hipGetLastError();
  std::printf("%s: %s\n", mode, hipGetErrorString(e));
  return e != hipSuccess;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!std::strcmp(mode, "barriers")) return !chain();
  if (*mode && std::strcmp(mode, "--transposed-b")) return fault(mode);
  const bool transposed = !std::strcmp(mode, "--transposed-b");

  const Kind F16 = Kind::F16, BF16 = Kind::BF16, I8 = Kind::I8, FP8 = Kind::FP8, BF8 = Kind::BF8, F32 = Kind::F32;
  int ok = 0, total = 0;
  auto count = [&](bool passed) { ok += passed, ++total; };
  // clang-format off
  count(check("v_mfma_f32_16x16x16_f16",     {16, 16, 16, 4}, F16,  F16,  v_mfma_f32_16x16x16_f16,     transposed));
  count(check("v_mfma_f32_32x32x8_f16",      {32, 32,  8, 4}, F16,  F16,  v_mfma_f32_32x32x8_f16,      transposed));
  count(check("v_mfma_f32_16x16x16_bf16",    {16, 16, 16, 4}, BF16, BF16, v_mfma_f32_16x16x16_bf16,    transposed));
  count(check("v_mfma_f32_32x32x8_bf16",     {32, 32,  8, 4}, BF16, BF16, v_mfma_f32_32x32x8_bf16,     transposed));
  count(check("v_mfma_i32_16x16x32_i8",      {16, 16, 32, 8}, I8,   I8,   v_mfma_i32_16x16x32_i8,      transposed));
  count(check("v_mfma_i32_32x32x16_i8",      {32, 32, 16, 8}, I8,   I8,   v_mfma_i32_32x32x16_i8,      transposed));
  count(check("v_mfma_f32_16x16x32_fp8_fp8", {16, 16, 32, 8}, FP8,  FP8,  v_mfma_f32_16x16x32_fp8_fp8, transposed));
  count(check("v_mfma_f32_32x32x16_fp8_fp8", {32, 32, 16, 8}, FP8,  FP8,  v_mfma_f32_32x32x16_fp8_fp8, transposed));
  count(check("v_mfma_f32_16x16x32_fp8_bf8", {16, 16, 32, 8}, FP8,  BF8,  v_mfma_f32_16x16x32_fp8_bf8, transposed));
  count(check("v_mfma_f32_32x32x16_fp8_bf8", {32, 32, 16, 8}, FP8,  BF8,  v_mfma_f32_32x32x16_fp8_bf8, transposed));
  count(check("v_mfma_f32_16x16x32_bf8_fp8", {16, 16, 32, 8}, BF8,  FP8,  v_mfma_f32_16x16x32_bf8_fp8, transposed));
  count(check("v_mfma_f32_32x32x16_bf8_fp8", {32, 32, 16, 8}, BF8,  FP8,  v_mfma_f32_32x32x16_bf8_fp8, transposed));
  count(check("v_mfma_f32_16x16x32_bf8_bf8", {16, 16, 32, 8}, BF8,  BF8,  v_mfma_f32_16x16x32_bf8_bf8, transposed));
  count(check("v_mfma_f32_32x32x16_bf8_bf8", {32, 32, 16, 8}, BF8,  BF8,  v_mfma_f32_32x32x16_bf8_bf8, transposed));
  count(check("v_mfma_f32_16x16x4_f32",      {16, 16,  4, 1}, F32,  F32,  v_mfma_f32_16x16x4_f32,      transposed));
  count(check("v_mfma_f32_32x32x2_f32",      {32, 32,  2, 1}, F32,  F32,  v_mfma_f32_32x32x2_f32,      transposed));
#if defined(TILEC_ARCH_GFX950)
  count(check("v_mfma_f32_16x16x32_f16",     {16, 16, 32, 8}, F16,  F16,  v_mfma_f32_16x16x32_f16,     transposed));
  count(check("v_mfma_f32_32x32x16_f16",     {32, 32, 16, 8}, F16,  F16,  v_mfma_f32_32x32x16_f16,     transposed));
  count(check("v_mfma_f32_16x16x32_bf16",    {16, 16, 32, 8}, BF16, BF16, v_mfma_f32_16x16x32_bf16,    transposed));
  count(check("v_mfma_f32_32x32x16_bf16",    {32, 32, 16, 8}, BF16, BF16, v_mfma_f32_32x32x16_bf16,    transposed));
#endif
  // clang-format on
  std::printf("mfma: %d of %d instructions correct\n", ok, total);
  if (transposed) return ok != total;

  fp8_encodings("v_mfma_f32_16x16x32_fp8_fp8", {16, 16, 32, 8}, v_mfma_f32_16x16x32_fp8_fp8);
  fp8_encodings("v_mfma_f32_32x32x16_fp8_fp8", {32, 32, 16, 8}, v_mfma_f32_32x32x16_fp8_fp8);
  fp8_encodings("v_mfma_f32_16x16x32_fp8_bf8", {16, 16, 32, 8}, v_mfma_f32_16x16x32_fp8_bf8);
  fp8_encodings("v_mfma_f32_32x32x16_fp8_bf8", {32, 32, 16, 8}, v_mfma_f32_32x32x16_fp8_bf8);
  fp8_encodings("v_mfma_f32_16x16x32_bf8_fp8", {16, 16, 32, 8}, v_mfma_f32_16x16x32_bf8_fp8);
  fp8_encodings("v_mfma_f32_32x32x16_bf8_fp8", {32, 32, 16, 8}, v_mfma_f32_32x32x16_bf8_fp8);
  fp8_encodings("v_mfma_f32_16x16x32_bf8_bf8", {16, 16, 32, 8}, v_mfma_f32_16x16x32_bf8_bf8);
  fp8_encodings("v_mfma_f32_32x32x16_bf8_bf8", {32, 32, 16, 8}, v_mfma_f32_32x32x16_bf8_bf8);
  const bool decoding = fp8_decoding();
  return !(ok == total && decoding);
}
