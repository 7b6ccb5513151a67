//===- tilec/buffer.h - Buffer-resource accesses of code emitted by tilec ----===//
//
// The buffer half of tilec/runtime.h: a tensor as a raw buffer resource (base and size), whose loads read zeros and
// whose stores are dropped outside it, with 32-bit offsets and a scalar (uniform) part the K loops advance. The masked
// K steps of the vector kernels load through them with out-of-range offsets instead of exec branches, a staged main
// loop at the step's scalar offset. tilec/runtime.h includes it after its global accesses; including it first
// includes tilec/runtime.h.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_BUFFER_H
#define TILEC_BUFFER_H

#include "tilec/runtime.h"

namespace tilec {

/// A buffer: a base pointer and a size in bytes, with the hardware's bounds check. An access of V at a byte offset
/// whose bytes are not all inside [0, bytes) reads zeros, and a store there is dropped: on the GPU a raw buffer
/// resource and buffer_load/buffer_store (dwordx4 for 16-byte V); in the emulator the same rule, checked in software.
/// Offsets are 32-bit: one buffer covers at most 2^31 bytes.
struct Buffer {
#if defined(__HIP__)
  __amdgpu_buffer_rsrc_t rsrc;
#else
  const char *base;
  unsigned bytes;
#endif
};

template <typename T> TILEC_DEVICE Buffer make_buffer(const T *base, unsigned bytes) {
#if defined(__HIP__)
  // Raw buffer (stride 0); 0x00020000: 32-bit data format on gfx9, needed for bounds checking.
  return {__builtin_amdgcn_make_buffer_rsrc(const_cast<T *>(base), 0, static_cast<int>(bytes), 0x00020000)};
#else
  return {reinterpret_cast<const char *>(base), bytes};
#endif
}

/// The offset of a masked buffer access: `byteOffset` where `inside`, else -1 (0xFFFFFFFF as the hardware reads it),
/// which lies past every buffer and so reads zeros. Written with an OR rather than `inside ? byteOffset : -1`, which
/// clang-19 turns into a branch around the offset's arithmetic (an exec branch per access in a K loop).
TILEC_DEVICE int buffer_offset(bool inside, int byteOffset) { return byteOffset | -static_cast<int>(!inside); }

/// A buffer load at byteOffset = laneOffset + uniformOffset, the second the same in every lane of the wave (the
/// instruction's scalar offset, soffset: a K loop advances it with one scalar add instead of a vector add per access).
/// The bounds check covers the sum; callers pass a nonzero uniformOffset only for accesses known to be inside.
template <typename V> TILEC_DEVICE V buffer_load(Buffer b, int laneOffset, int uniformOffset) {
  static_assert(sizeof(V) == 1 || sizeof(V) == 2 || sizeof(V) == 4 || sizeof(V) == 8 || sizeof(V) == 12 ||
                    sizeof(V) == 16,
                "buffer loads move 1, 2, 4, 8, 12 or 16 bytes");
#if defined(__HIP__)
  if constexpr (sizeof(V) == 16)
    return __builtin_bit_cast(V, __builtin_amdgcn_raw_buffer_load_b128(b.rsrc, laneOffset, uniformOffset, 0));
  else if constexpr (sizeof(V) == 2)
    return __builtin_bit_cast(V, __builtin_amdgcn_raw_buffer_load_b16(b.rsrc, laneOffset, uniformOffset, 0));
  else if constexpr (sizeof(V) == 1)
    return __builtin_bit_cast(V, __builtin_amdgcn_raw_buffer_load_b8(b.rsrc, laneOffset, uniformOffset, 0));
  else if constexpr (sizeof(V) == 12) { // a 3-dword vector type is 16 bytes: copy its 12
    const auto words = __builtin_amdgcn_raw_buffer_load_b96(b.rsrc, laneOffset, uniformOffset, 0);
    V v;
    __builtin_memcpy(&v, &words, 12);
    return v;
  }
  else if constexpr (sizeof(V) == 8)
    return __builtin_bit_cast(V, __builtin_amdgcn_raw_buffer_load_b64(b.rsrc, laneOffset, uniformOffset, 0));
  else
    return __builtin_bit_cast(V, __builtin_amdgcn_raw_buffer_load_b32(b.rsrc, laneOffset, uniformOffset, 0));
#else
  const long byteOffset = static_cast<long>(laneOffset) + uniformOffset;
  if (laneOffset < 0 || byteOffset < 0 || static_cast<unsigned long>(byteOffset) + sizeof(V) > b.bytes) return V{};
  return global_load<V>(b.base + byteOffset);
#endif
}

template <typename V> TILEC_DEVICE V buffer_load(Buffer b, int byteOffset) { return buffer_load<V>(b, byteOffset, 0); }

/// buffer_load of 4 or 8 bytes at any byte offset (a scaled mma's scale bytes of a K step, ir::ScaleLoads): unaligned
/// access mode covers buffer accesses too (LLVM's unaligned-buffer-access on gfx9, as for global ones); the emulator
/// checks the bounds and not the alignment.
template <typename V> TILEC_DEVICE V buffer_load_unaligned(Buffer b, int laneOffset, int uniformOffset) {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "scale buffer loads move 4 or 8 bytes");
#if defined(__HIP__)
  return buffer_load<V>(b, laneOffset, uniformOffset);
#else
  const long byteOffset = static_cast<long>(laneOffset) + uniformOffset;
  if (laneOffset < 0 || byteOffset < 0 || static_cast<unsigned long>(byteOffset) + sizeof(V) > b.bytes) return V{};
  return global_load_unaligned<V>(b.base + byteOffset);
#endif
}

template <typename V> TILEC_DEVICE void buffer_store(Buffer b, int byteOffset, V v) {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8 || sizeof(V) == 12 || sizeof(V) == 16,
                "buffer accesses move 4, 8, 12 or 16 bytes");
#if defined(__HIP__)
  typedef unsigned u32x2 __attribute__((ext_vector_type(2)));
  typedef unsigned u32x3 __attribute__((ext_vector_type(3)));
  typedef unsigned u32x4 __attribute__((ext_vector_type(4)));
  if constexpr (sizeof(V) == 16)
    __builtin_amdgcn_raw_buffer_store_b128(__builtin_bit_cast(u32x4, v), b.rsrc, byteOffset, 0, 0);
  else if constexpr (sizeof(V) == 12) {
    u32x3 words;
    __builtin_memcpy(&words, &v, 12);
    __builtin_amdgcn_raw_buffer_store_b96(words, b.rsrc, byteOffset, 0, 0);
  }
  else if constexpr (sizeof(V) == 8)
    __builtin_amdgcn_raw_buffer_store_b64(__builtin_bit_cast(u32x2, v), b.rsrc, byteOffset, 0, 0);
  else
    __builtin_amdgcn_raw_buffer_store_b32(__builtin_bit_cast(unsigned, v), b.rsrc, byteOffset, 0, 0);
#else
  if (byteOffset < 0 || static_cast<unsigned long>(byteOffset) + sizeof(V) > b.bytes) return;
  global_store<V>(const_cast<char *>(b.base) + byteOffset, v);
#endif
}

} // namespace tilec

#endif
