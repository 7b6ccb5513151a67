//===- tilec/runtime.h - What code emitted by tilec includes ----------------===//
//
// Vector types named after tilec's dtypes (tilec::f16x8 is 8 x _Float16 = 16 bytes), global accesses, the
// element-by-element paths used when a tensor's rows are not vector aligned, the workgroup barrier, and the fp8/bf8
// conversions of both encodings (FNUZ on gfx942, OCP on gfx950). Three ways to compile it:
//   - as HIP: device code built on __builtin_amdgcn_* (never HIP's threadIdx/__syncthreads, which need the device
//     libraries);
//   - as C++ with -DTILEC_EMULATOR: the emitted kernels run on the CPU (tilec/emulator.h), accesses checked;
//   - as plain C++: the arithmetic alone (fp8 conversions, say), for tests.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_RUNTIME_H
#define TILEC_RUNTIME_H

#if defined(__HIP__)
// Older HIP headers (Debian's 5.2 among them) read the wave size from __AMDGCN_WAVEFRONT_SIZE, which clang-19
// predefines and clang-22 no longer does. Every processor tilec compiles for (gfx942, gfx950) runs 64-lane
// waves only, so the value is known.
#if !defined(__AMDGCN_WAVEFRONT_SIZE)
#define __AMDGCN_WAVEFRONT_SIZE 64
#endif
#include <hip/hip_runtime.h>
#define TILEC_DEVICE __device__ inline __attribute__((always_inline))
#elif defined(TILEC_EMULATOR)
#include "tilec/emulator.h"
#define TILEC_DEVICE inline
// Workgroups run one after another, so a function-static array is exactly one workgroup's LDS. 16-byte aligned, as
// LLVM aligns LDS arrays of 16 bytes or more on the GPU (amdgpu-super-align-lds-globals).
#define __shared__ static __attribute__((aligned(16)))
#else
#define TILEC_DEVICE inline
#endif

#include "tilec/fp6x4.h"
#include <cstdint>

/// amdgpu_waves_per_eu(N): the compiler is asked for N waves per SIMD (the resource model's occupancy; tilec emits
/// it where its target says so). Nothing in the emulator or in plain C++.
#if defined(__HIP__)
#define TILEC_WAVES_PER_EU(n) __attribute__((amdgpu_waves_per_eu(n)))
#else
#define TILEC_WAVES_PER_EU(n)
#endif

namespace tilec {

//===--- Vector types: tilec::<dtype>x<N>, N elements one lane moves per access ---===//

#define TILEC_VECTOR_TYPES(TAG, T)                                                                                    \
  typedef T TAG##x2 __attribute__((ext_vector_type(2)));                                                             \
  typedef T TAG##x4 __attribute__((ext_vector_type(4)));                                                             \
  typedef T TAG##x8 __attribute__((ext_vector_type(8)));                                                             \
  typedef T TAG##x16 __attribute__((ext_vector_type(16)));
TILEC_VECTOR_TYPES(f32, float)
TILEC_VECTOR_TYPES(f16, _Float16)
TILEC_VECTOR_TYPES(bf16, __bf16)
TILEC_VECTOR_TYPES(i8, signed char)
TILEC_VECTOR_TYPES(i32, int)
typedef int i32x3 __attribute__((ext_vector_type(3))); // ds_read_b96_tr_b6's 3 dwords
TILEC_VECTOR_TYPES(i16, short)         // bf16 MFMA operands of the gfx942 builtins (*_bf16_1k) are short vectors
TILEC_VECTOR_TYPES(fp8, unsigned char) // raw fp8/bf8 bytes; the encoding is named where they are converted
#undef TILEC_VECTOR_TYPES

/// N elements of T: T itself for N = 1, else the matching vector type.
template <typename T, int N> struct VectorOf { typedef T type __attribute__((ext_vector_type(N))); };
template <typename T> struct VectorOf<T, 1> { typedef T type; };
template <> struct VectorOf<fp6x4, 4> { typedef fp6x4x4 type; };
template <typename T, int N> using vec_t = typename VectorOf<T, N>::type;

/// first, first + 1, ..., first + N - 1: the columns of a lane's N elements of one access (col(t) in the language).
template <int N> TILEC_DEVICE vec_t<int, N> iota(int first) {
  vec_t<int, N> v;
#pragma unroll
  for (int e = 0; e < N; ++e) v[e] = first + e;
  return v;
}

// The few type traits the header needs, written here rather than taken from <type_traits>: parsing that header is
// two fifths of a device compile's front end (0.02 of 0.05 s with clang-22), in every --emit=asm and --verify.
namespace detail {
/// T without const, volatile and reference.
template <typename T> struct Plain { typedef T type; };
template <typename T> struct Plain<const T> : Plain<T> {};
template <typename T> struct Plain<volatile T> : Plain<T> {};
template <typename T> struct Plain<const volatile T> : Plain<T> {};
template <typename T> struct Plain<T &> : Plain<T> {};
template <typename T> struct Plain<T &&> : Plain<T> {};
template <typename T> using plain_t = typename Plain<T>::type;
/// Whether T is an integer type (the element types of i8 and i32 tiles, and what arithmetic promotes them to).
template <typename T> inline constexpr bool is_integer = false;
template <> inline constexpr bool is_integer<bool> = true;
template <> inline constexpr bool is_integer<char> = true;
template <> inline constexpr bool is_integer<signed char> = true;
template <> inline constexpr bool is_integer<unsigned char> = true;
template <> inline constexpr bool is_integer<short> = true;
template <> inline constexpr bool is_integer<unsigned short> = true;
template <> inline constexpr bool is_integer<int> = true;
template <> inline constexpr bool is_integer<unsigned> = true;
template <> inline constexpr bool is_integer<long> = true;
template <> inline constexpr bool is_integer<unsigned long> = true;
template <> inline constexpr bool is_integer<long long> = true;
template <> inline constexpr bool is_integer<unsigned long long> = true;
} // namespace detail

//===--- Tensor access helpers ---===//

/// One access of V (a vector type or a scalar) at `p`. On the GPU a plain load or store of V, so 16-byte V gives
/// global_load_dwordx4 / global_store_dwordx4; in the emulator the address is checked against live allocations.
template <typename V, typename T> TILEC_DEVICE V global_load(const T *p) {
#if defined(TILEC_EMULATOR)
  emu::check_global(p, sizeof(V), /*isStore=*/false);
#endif
  return *reinterpret_cast<const V *>(p);
}
template <typename V, typename T> TILEC_DEVICE void global_store(T *p, V v) {
#if defined(TILEC_EMULATOR)
  emu::check_global(p, sizeof(V), /*isStore=*/true);
#endif
  *reinterpret_cast<V *>(p) = v;
}

/// One access of V at `p`, which need only be aligned to its element T. The HSA ABI runs gfx9 in unaligned access
/// mode (LLVM enables +unaligned-access-mode for amdhsa), so a 16-byte V is still one global_load_dwordx4 /
/// global_store_dwordx4; the memory system splits it where it crosses a cache line. The path for rows that do not
/// start on a vector boundary. In the emulator the address must be element aligned.
template <typename V, typename T> TILEC_DEVICE V global_load_unaligned(const T *p) {
#if defined(TILEC_EMULATOR)
  emu::check_global(p, sizeof(V), /*isStore=*/false, alignof(T));
#endif
  if constexpr (__is_class(V)) {
    // fp6x4x4: a struct keeps its alignment through a typedef, and a copy of its bytes at alignment 1 is byte loads
    // on the GPU; three unaligned dwords are one global_load_dwordx3.
    typedef unsigned Word __attribute__((aligned(1)));
    const Word *w = reinterpret_cast<const Word *>(p);
    unsigned words[sizeof(V) / 4];
#pragma unroll
    for (unsigned i = 0; i < sizeof(V) / 4; ++i) words[i] = w[i];
    V v;
    __builtin_memcpy(&v, words, sizeof(V));
    return v;
  } else {
    typedef V Unaligned __attribute__((aligned(alignof(T))));
    return *reinterpret_cast<const Unaligned *>(p);
  }
}
template <typename V, typename T> TILEC_DEVICE void global_store_unaligned(T *p, V v) {
#if defined(TILEC_EMULATOR)
  emu::check_global(p, sizeof(V), /*isStore=*/true, alignof(T));
#endif
  if constexpr (__is_class(V)) { // as global_load_unaligned: whole dwords at alignment 1
    typedef unsigned Word __attribute__((aligned(1)));
    Word *w = reinterpret_cast<Word *>(p);
    unsigned words[sizeof(V) / 4];
    __builtin_memcpy(words, &v, sizeof(V));
#pragma unroll
    for (unsigned i = 0; i < sizeof(V) / 4; ++i) w[i] = words[i];
  } else {
    typedef V Unaligned __attribute__((aligned(alignof(T))));
    *reinterpret_cast<Unaligned *>(p) = v;
  }
}

/// Elements first .. first + N - 1 of vector v, as an N-element vector.
template <int N, typename V> TILEC_DEVICE auto slice(const V &v, int first) {
  using E = detail::plain_t<decltype(v[0])>;
  vec_t<E, N> out;
#pragma unroll
  for (int e = 0; e < N; ++e) out[e] = v[first + e];
  return out;
}

/// Elements first .. first + N - 1 of vector v set to those of the N-element vector part (an accumulator's values
/// updated in place four at a time, so that clang pairs them into packed f32 instructions).
template <int N, typename V, typename P> TILEC_DEVICE void set_slice(V &v, int first, const P &part) {
#pragma unroll
  for (int e = 0; e < N; ++e) v[first + e] = part[e];
}

/// Two 4-dword halves as one 8-dword operand (a scaled MFMA's A or B: two 16-byte LDS reads of an 8-bit format, or
/// the 16 bytes of fp4 values and zeros).
/// Two vectors of 4 as one of 8 (the runs of 4 K values of an A or B fragment, runsOfFour).
template <typename V> TILEC_DEVICE auto concat(V lo, V hi) {
  static_assert(sizeof(lo) / sizeof(lo[0]) == 4, "runs of 4");
  return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
}
TILEC_DEVICE i32x8 concat(i32x4 lo, i32x4 hi) { return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7); }
/// Four 2-dword pieces as one 8-dword operand (a scaled MFMA's B from transposing LDS reads: four of an 8-bit format,
/// or two of fp4 values and zeros).
TILEC_DEVICE i32x8 concat(i32x2 a, i32x2 b, i32x2 c, i32x2 d) {
  return concat(__builtin_shufflevector(a, b, 0, 1, 2, 3), __builtin_shufflevector(c, d, 0, 1, 2, 3));
}

/// Two 3-dword pieces as one 8-dword operand, dwords 6 and 7 zero (a scaled MFMA's 6-bit B from two
/// ds_read_b96_tr_b6: 32 six-bit values).
TILEC_DEVICE i32x8 concat(i32x3 lo, i32x3 hi) { return i32x8{lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], 0, 0}; }

/// The E8M0 code of 1.0 (2^(127 - 127)): the scale operands of an f8f6f4 MFMA whose mma has no block scales (an fp8
/// GEMM on gfx950 at the f8f6f4 instructions' rate).
constexpr unsigned e8m0_one = 127;

/// One E8M0 block scale of a scaled MFMA, in the low byte of the lane's scale register: element (row, col) of the
/// rows x cols scale tensor `s` (rows `stride` bytes apart), or 127 (2^0) outside it, where the operands read zeros.
/// Outside, it reads the tensor's first byte and discards it: a select, not an exec branch around the load.
TILEC_DEVICE unsigned load_scale(const unsigned char *s, int rows, int cols, int stride, int row, int col) {
  const bool inside = row < rows && col < cols;
  const unsigned v = global_load<unsigned char>(s + (inside ? static_cast<long>(row) * stride + col : 0l));
  return inside ? v : 127u;
}

/// The scale bytes (col .. col + sizeof(T) - 1) of a row of a scale tensor, T unsigned short, unsigned or unsigned
/// long long, the lowest column in the low byte: the scales a block row of a scaled mma needs for a whole K step
/// (tilec's ir::ScaleLoads), in one load at byte alignment (unaligned access mode, as global_load_unaligned). Known
/// to be inside the tensor.
template <typename T> TILEC_DEVICE T load_scales_inside(const unsigned char *s, int stride, int row, int col) {
  return global_load_unaligned<T>(s + static_cast<long>(row) * stride + col);
}
/// The same, masked: each byte outside the rows x cols tensor is 127 (2^0), where the operands read zeros. One byte
/// load each (the masked steps only).
template <typename T> TILEC_DEVICE T load_scales(const unsigned char *s, int rows, int cols, int stride, int row,
                                                 int col) {
  T v = 0;
#pragma unroll
  for (int i = 0; i < static_cast<int>(sizeof(T)); ++i)
    v |= static_cast<T>(load_scale(s, rows, cols, stride, row, col + i)) << (8 * i);
  return v;
}
template <typename T> TILEC_DEVICE T load_scales(const unsigned char *s, int rows, int cols, int row, int col) {
  return load_scales<T>(s, rows, cols, cols, row, col);
}

} // namespace tilec

// Buffer resources (bounds-checked loads and stores at 32-bit offsets).
#include "tilec/buffer.h"

// LDS accesses (ds_read, ds_write, the transposing reads of gfx950).
#include "tilec/lds.h"

namespace tilec {

/// The alignment an access of `bytes` needs: its size, or a dword for the 12 bytes of dwordx3 (four fp6x4).
constexpr std::size_t access_alignment(std::size_t bytes) { return (bytes & (bytes - 1)) == 0 ? bytes : 4; }

/// True when every row of a tensor with `cols` columns starting at `base` begins on an N-element vector boundary,
/// so N-element accesses at columns that are multiples of N are aligned. Host code: the launcher's choice of kernel.
template <int N, typename T> inline bool rows_aligned(const T *base, int cols) {
  return cols % N == 0 && reinterpret_cast<std::uintptr_t>(base) % access_alignment(N * sizeof(T)) == 0;
}
/// The same for rows `stride` elements apart (`stride lda`): every row starts on a boundary of N elements.
template <int N, typename T> inline bool rows_aligned(const T *base, int cols, int stride) {
  return stride % N == 0 && rows_aligned<N>(base, cols);
}

/// The elements of an N-element access, loaded or stored one at a time. A vector type is indexed as it is. fp6x4x4,
/// held as three words, is assembled from (taken apart into) bytes: indexing its words in place, or copying 3-byte
/// elements into them, kept the access in scratch memory (a store into the middle of a word).
template <typename T, int N, bool Words = __is_class(vec_t<T, N>)> struct ElementsOf {
  vec_t<T, N> v;
  TILEC_DEVICE explicit ElementsOf(vec_t<T, N> value) : v(value) {}
  TILEC_DEVICE explicit ElementsOf(T fill) : v((vec_t<T, N>)(fill)) {}
  TILEC_DEVICE void load(int e, const T *p) { v[e] = global_load<T>(p); }
  TILEC_DEVICE void store(int e, T *p) const { global_store<T>(p, T(v[e])); }
  TILEC_DEVICE vec_t<T, N> vector() const { return v; }
};
template <typename T, int N> struct ElementsOf<T, N, true> {
  static_assert(sizeof(vec_t<T, N>) == N * sizeof(T) && sizeof(vec_t<T, N>) % 4 == 0, "an access of whole words");
  unsigned char b[N * sizeof(T)];
  TILEC_DEVICE explicit ElementsOf(vec_t<T, N> value) {
#pragma unroll
    for (unsigned i = 0; i < sizeof(b); ++i) b[i] = value.w[i / 4] >> 8 * (i % 4);
  }
  TILEC_DEVICE explicit ElementsOf(T fill) {
#pragma unroll
    for (unsigned i = 0; i < sizeof(b); ++i) b[i] = fill.bytes[i % sizeof(T)];
  }
  TILEC_DEVICE void load(int e, const T *p) {
#if defined(TILEC_EMULATOR)
    emu::check_global(p, sizeof(T), /*isStore=*/false);
#endif
#pragma unroll
    for (unsigned i = 0; i < sizeof(T); ++i) b[e * sizeof(T) + i] = p->bytes[i];
  }
  TILEC_DEVICE void store(int e, T *p) const {
#if defined(TILEC_EMULATOR)
    emu::check_global(p, sizeof(T), /*isStore=*/true);
#endif
#pragma unroll
    for (unsigned i = 0; i < sizeof(T); ++i) p->bytes[i] = b[e * sizeof(T) + i];
  }
  TILEC_DEVICE vec_t<T, N> vector() const {
    vec_t<T, N> v;
#pragma unroll
    for (unsigned j = 0; j < sizeof(b) / 4; ++j)
      v.w[j] = b[4 * j] | b[4 * j + 1] << 8 | b[4 * j + 2] << 16 | static_cast<unsigned>(b[4 * j + 3]) << 24;
    return v;
  }
};

/// N consecutive elements of row `row` from column `col`, one element at a time, in rows `stride` elements apart;
/// elements outside [0, rows) x [0, cols) read as `fill` (zero by default). The path for tensors whose rows are not
/// vector aligned.
template <int N, typename T>
TILEC_DEVICE vec_t<T, N> load_elements_strided(const T *base, int row, int col, int rows, int cols, int stride,
                                               T fill = T()) {
  vec_t<T, N> v = (vec_t<T, N>)(fill);
  if constexpr (N == 1) {
    if (row >= 0 && row < rows && col >= 0 && col < cols)
      v = global_load<T>(base + static_cast<long>(row) * stride + col);
  } else {
    ElementsOf<T, N> elements(fill);
#pragma unroll
    for (int e = 0; e < N; ++e)
      if (row >= 0 && row < rows && col + e >= 0 && col + e < cols)
        elements.load(e, base + static_cast<long>(row) * stride + col + e);
    v = elements.vector();
  }
  return v;
}

/// load_elements_strided of a dense tensor (rows `cols` elements apart). Written out rather than forwarded: clang-19
/// allocates the forwarded form differently (a bf8 vec 16 copy's _unaligned kernel: 32 VGPRs instead of 29).
template <int N, typename T>
TILEC_DEVICE vec_t<T, N> load_elements(const T *base, int row, int col, int rows, int cols, T fill = T()) {
  vec_t<T, N> v = (vec_t<T, N>)(fill);
  if constexpr (N == 1) {
    if (row >= 0 && row < rows && col >= 0 && col < cols) v = global_load<T>(base + static_cast<long>(row) * cols + col);
  } else {
    ElementsOf<T, N> elements(fill);
#pragma unroll
    for (int e = 0; e < N; ++e)
      if (row >= 0 && row < rows && col + e >= 0 && col + e < cols)
        elements.load(e, base + static_cast<long>(row) * cols + col + e);
    v = elements.vector();
  }
  return v;
}

/// Stores N consecutive elements one at a time, in rows `stride` elements apart, dropping those outside
/// [0, rows) x [0, cols).
template <int N, typename T>
TILEC_DEVICE void store_elements_strided(T *base, int row, int col, int rows, int cols, int stride, vec_t<T, N> v) {
  if constexpr (N == 1) {
    if (row >= 0 && row < rows && col >= 0 && col < cols)
      global_store<T>(base + static_cast<long>(row) * stride + col, v);
  } else {
    const ElementsOf<T, N> elements(v);
#pragma unroll
    for (int e = 0; e < N; ++e)
      if (row >= 0 && row < rows && col + e >= 0 && col + e < cols)
        elements.store(e, base + static_cast<long>(row) * stride + col + e);
  }
}

/// store_elements_strided of a dense tensor (written out, as load_elements is).
template <int N, typename T>
TILEC_DEVICE void store_elements(T *base, int row, int col, int rows, int cols, vec_t<T, N> v) {
  if constexpr (N == 1) {
    if (row >= 0 && row < rows && col >= 0 && col < cols) global_store<T>(base + static_cast<long>(row) * cols + col, v);
  } else {
    const ElementsOf<T, N> elements(v);
#pragma unroll
    for (int e = 0; e < N; ++e)
      if (row >= 0 && row < rows && col + e >= 0 && col + e < cols)
        elements.store(e, base + static_cast<long>(row) * cols + col + e);
  }
}

#if defined(__HIP__) || defined(TILEC_EMULATOR)
/// Workgroup barrier: every wave arrives, and LDS writes before it are visible after it.
TILEC_DEVICE void barrier() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#endif

//===--- Element functions ---===//
// Each maps to one device instruction on f32 (AMD CDNA3 ISA, VOP1): v_exp_f32 computes 2^x, v_log_f32 log2(x),
// v_sqrt_f32 and v_rsq_f32 the square root and its reciprocal; exp(x) = 2^(x * log2(e)) and log(x) = log2(x) *
// ln(2). f16 and bf16 values are computed in f32 and rounded back once. Precision: docs/language.md.

namespace detail {
#if defined(__HIP__) || defined(TILEC_EMULATOR)
template <typename T> TILEC_DEVICE float exp2_f32(T x) { return __builtin_amdgcn_exp2f(static_cast<float>(x)); }
template <typename T> TILEC_DEVICE float exp_f32(T x) {
  return __builtin_amdgcn_exp2f(static_cast<float>(x) * 1.44269504088896340736f); // log2(e)
}
template <typename T> TILEC_DEVICE float log_f32(T x) {
  return __builtin_amdgcn_logf(static_cast<float>(x)) * 0.693147180559945309417f; // ln(2)
}
template <typename T> TILEC_DEVICE float sqrt_f32(T x) { return __builtin_amdgcn_sqrtf(static_cast<float>(x)); }
template <typename T> TILEC_DEVICE float rsqrt_f32(T x) { return __builtin_amdgcn_rsqf(static_cast<float>(x)); }
#endif

template <typename T, int N> using ext_vector = T __attribute__((ext_vector_type(N)));
template <typename V> struct Lanes { typedef V elem; static constexpr int n = 1; };
template <typename T, int N> struct Lanes<ext_vector<T, N>> {
  typedef T elem;
  static constexpr int n = N;
};
/// f applied to every element of v (a scalar or a vector), each result converted back to v's element type.
template <typename V, typename F> TILEC_DEVICE V map(V v, F f) {
  typedef typename Lanes<V>::elem T;
  if constexpr (Lanes<V>::n == 1) {
    return static_cast<T>(f(v));
  } else {
    V out;
#pragma unroll
    for (int e = 0; e < Lanes<V>::n; ++e) out[e] = static_cast<T>(f(v[e]));
    return out;
  }
}
} // namespace detail

#if defined(__HIP__) || defined(TILEC_EMULATOR)
template <typename V> TILEC_DEVICE V exp(V v) { return detail::map(v, [](auto x) { return detail::exp_f32(x); }); }
template <typename V> TILEC_DEVICE V exp2(V v) { return detail::map(v, [](auto x) { return detail::exp2_f32(x); }); }
template <typename V> TILEC_DEVICE V log(V v) { return detail::map(v, [](auto x) { return detail::log_f32(x); }); }
template <typename V> TILEC_DEVICE V sqrt(V v) { return detail::map(v, [](auto x) { return detail::sqrt_f32(x); }); }
template <typename V> TILEC_DEVICE V rsqrt(V v) { return detail::map(v, [](auto x) { return detail::rsqrt_f32(x); }); }
#endif
/// |x|: the sign bit cleared for floats (exact), two's complement negation for integers (|INT_MIN| wraps).
template <typename V> TILEC_DEVICE V abs(V v) {
  return detail::map(v, [](auto x) -> decltype(x) {
    if constexpr (detail::is_integer<decltype(x)>) return x < 0 ? static_cast<decltype(x)>(0u - x) : x;
    else return __builtin_fabsf(static_cast<float>(x));
  });
}

//===--- Activations ---===//
// relu(x) = x < 0 ? 0 : x (NaN and -0 pass through). gelu is the tanh approximation, 0.5 x (1 + tanh(sqrt(2 / pi)
// (x + 0.044715 x^3))) = x * sigmoid(2 u) with u the tanh argument, and silu(x) = x * sigmoid(x); each sigmoid is
// 1 / (1 + 2^(-t log2 e)): one v_exp_f32 and one v_rcp_f32 per f32 element. f16 and bf16 values are computed in f32
// and rounded back once. Precision: docs/language.md.

namespace detail {
#if defined(__HIP__) || defined(TILEC_EMULATOR)
/// 1 / (1 + 2^-t2), t2 = t log2 e: large t2 gives 1, very negative t2 gives 2^-t2 = inf and 0.
TILEC_DEVICE float sigmoid_log2e(float t2) { return __builtin_amdgcn_rcpf(1.0f + __builtin_amdgcn_exp2f(-t2)); }
template <typename T> TILEC_DEVICE float gelu_f32(T v) {
  const float x = static_cast<float>(v);
  // 2 u log2 e = x (2.302208198 + 0.10294324 x^2), u = sqrt(2 / pi) (x + 0.044715 x^3).
  return x * sigmoid_log2e(x * (2.30220819814432f + 0.102943239580024f * x * x));
}
template <typename T> TILEC_DEVICE float silu_f32(T v) {
  const float x = static_cast<float>(v);
  return x * sigmoid_log2e(x * 1.44269504088896340736f); // log2(e)
}
#endif
} // namespace detail

template <typename V> TILEC_DEVICE V relu(V v) {
  return detail::map(v, [](auto x) -> decltype(x) {
    typedef decltype(x) T;
    if constexpr (detail::is_integer<T>) return x < 0 ? T(0) : x;
    else return static_cast<float>(x) < 0.0f ? static_cast<T>(0.0f) : x;
  });
}
#if defined(__HIP__) || defined(TILEC_EMULATOR)
template <typename V> TILEC_DEVICE V gelu(V v) { return detail::map(v, [](auto x) { return detail::gelu_f32(x); }); }
template <typename V> TILEC_DEVICE V silu(V v) { return detail::map(v, [](auto x) { return detail::silu_f32(x); }); }
#endif

//===--- Saturation: cast<T, sat> ---===//

/// The largest finite value of the narrow float type T (f16: 65504; bf16: 0x1.fep127 = 3.3895314e38).
template <typename T> constexpr float finite_max();
template <> constexpr float finite_max<_Float16>() { return 65504.0f; }
template <> constexpr float finite_max<__bf16>() { return 3.38953138925153547590e38f; }
/// f32 values (a scalar or a vector) clamped to T's finite range, so that rounding them to T gives no infinity:
/// beyond +-finite_max<T>, and +-inf, become +-finite_max<T>; NaN stays NaN.
template <typename T, typename V> TILEC_DEVICE V saturate_to(V v) {
  return detail::map(v, [](float x) {
    constexpr float m = finite_max<T>();
    return x != x ? x : __builtin_fminf(__builtin_fmaxf(x, -m), m);
  });
}

/// Element by element c ? a : b (c a comparison: a bool, or a vector of 0 / -1).
template <typename C, typename V> TILEC_DEVICE V select(C c, V a, V b) {
  if constexpr (detail::Lanes<V>::n == 1) {
    return c ? a : b;
  } else {
    V out;
#pragma unroll
    for (int e = 0; e < detail::Lanes<V>::n; ++e) {
      bool take;
      if constexpr (detail::Lanes<C>::n == 1) take = c;
      else take = c[e] != 0;
      out[e] = take ? a[e] : b[e];
    }
    return out;
  }
}

//===--- Reductions: in a lane, across lanes, across waves ---===//

/// The sum, max or min of the N elements of v in f32 (i32 for integers), combined in element order. Maximum is max
/// for f32 values as IEEE 754-2019's maximum (a NaN operand gives NaN, where max ignores it): gfx950's
/// v_maximum3_f32, which needs no canonicalising v_max_f32 of MFMA results first (Target::maximum3F32).
enum class ReduceOp { Sum, Max, Min, Maximum };
template <ReduceOp Op, typename T> TILEC_DEVICE T combine(T a, T b) {
  if constexpr (Op == ReduceOp::Sum) return a + b;
  else if constexpr (Op == ReduceOp::Max) return __builtin_elementwise_max(a, b);
  else if constexpr (Op == ReduceOp::Maximum) return __builtin_elementwise_maximum(a, b);
  else return __builtin_elementwise_min(a, b);
}
template <ReduceOp Op, typename A, typename V> TILEC_DEVICE A reduce_lane(V v) {
  if constexpr (detail::Lanes<V>::n == 1) {
    return static_cast<A>(v);
  } else {
    A acc = static_cast<A>(v[0]);
#pragma unroll
    for (int e = 1; e < detail::Lanes<V>::n; ++e) acc = combine<Op>(acc, static_cast<A>(v[e]));
    return acc;
  }
}

/// A row's reduced value read inside a loop that does not change it (the second pass of an online softmax reading the
/// rows' maximum and sum), kept inside the loop. Broadcast against a vector (m[i] against an f32x8), the value is a
/// splat that LLVM's LICM hoists out of the loop, and the AMDGPU backend then keeps all 8 copies in VGPRs through it:
/// 32 VGPRs for 4 rows' values (softmax_online_f16 on gfx942 with clang-22: 105 VGPRs, 69 with this). An empty
/// volatile asm on the scalar is not hoisted and costs no instruction; the splat then folds into each VALU operand.
template <typename T> TILEC_DEVICE T in_loop(T v) {
#if defined(__HIP_DEVICE_COMPILE__)
  asm volatile("" : "+v"(v));
#endif
  return v;
}

#if defined(__HIP__) || defined(TILEC_EMULATOR)
/// dpp_ctrl encodings of GFX9 DPP (LLVM AMDGPU::DPP::DppCtrl; AMD CDNA3 ISA, "DPP").
namespace dpp {
constexpr int quad_perm(int a, int b, int c, int d) { return a | b << 2 | c << 4 | d << 6; }
constexpr int row_mirror = 0x140;      ///< lane j of a row of 16 reads lane 15 - j
constexpr int row_half_mirror = 0x141; ///< lane j of a half row of 8 reads lane 7 - j
} // namespace dpp
/// ds_swizzle_b32 offsets in bit mode: within 32 lanes, lane l reads ((l & and) | or) ^ xor.
constexpr int swizzle_xor(int mask) { return 0x1F | mask << 10; }

/// The value of another lane of the wave, 32 bits (f32 or i32), by a DPP move with every row and bank enabled.
template <int Ctrl, typename T> TILEC_DEVICE T dpp_move(T v) {
  return __builtin_bit_cast(T, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), Ctrl, 0xF, 0xF, false));
}
/// ... by ds_swizzle_b32 (within 32 lanes, no LDS memory used).
template <int Offset, typename T> TILEC_DEVICE T swizzle(T v) {
  return __builtin_bit_cast(T, __builtin_amdgcn_ds_swizzle(__builtin_bit_cast(int, v), Offset));
}
/// ... of lane `from` by ds_bpermute_b32 (any lane; no LDS memory used).
template <typename T> TILEC_DEVICE T bpermute(T v, int from) {
  return __builtin_bit_cast(T, __builtin_amdgcn_ds_bpermute(from * 4, __builtin_bit_cast(int, v)));
}
#endif

} // namespace tilec

#include "tilec/fp8.h"

namespace tilec {

/// Number of workgroups covering `n` elements in blocks of `block`.
inline constexpr int ceil_div(int n, int block) { return n / block + (n % block != 0); } // no overflow near INT_MAX

} // namespace tilec

#endif // TILEC_RUNTIME_H
