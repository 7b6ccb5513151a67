//===- tilec/fp6x4.h - The 3-byte element of the 6-bit MX formats -----------===//
//
// tilec::fp6x4 holds four fp6 (E2M3) or bf6 (E3M2) values, the storage of the dtypes fp6x4 and bf6x4 (docs/mx.md), and
// tilec::fp6x4x4 is one lane's access of four of them. Plain C++ (no vector extensions), so that the launcher header
// of --emit=header can name them in host code built by any C++ compiler; tilec/runtime.h includes it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FP6X4_H
#define TILEC_FP6X4_H

// operator[] cannot be constexpr (it views the words as elements), so in HIP it is marked for both sides.
#if defined(__HIP__)
#define TILEC_FP6X4_HOST_DEVICE __attribute__((host, device))
#else
#define TILEC_FP6X4_HOST_DEVICE
#endif

namespace tilec {

/// Four 6-bit values in three bytes, a little-endian bit string with value e at bits 6e .. 6e + 5. A tensor of them
/// is a row of 3-byte elements, as fp4x2's is one of bytes.
struct fp6x4 {
  unsigned char bytes[3];
};

/// Four fp6x4 elements: one lane's access of 12 bytes (global_load_dwordx3, ds_write_b96), 4-byte aligned. Indexed
/// like a vector (a vector type has no 3-byte element), but held as three words: clang splits a struct copied whole
/// along its members, and 3-byte members carried across a loop became byte shifts and ORs at every LDS write
/// (a 6-bit K loop spent 48 VALU instructions a step on them); words stay whole registers.
struct alignas(4) fp6x4x4 {
  unsigned w[3];
  fp6x4x4() = default;
  constexpr explicit fp6x4x4(fp6x4 fill)
      : w{word(fill, 0), word(fill, 1), word(fill, 2)} {}
  TILEC_FP6X4_HOST_DEVICE fp6x4 &operator[](int i) { return reinterpret_cast<fp6x4 *>(w)[i]; }
  TILEC_FP6X4_HOST_DEVICE const fp6x4 &operator[](int i) const { return reinterpret_cast<const fp6x4 *>(w)[i]; }

private:
  /// Word j of four copies of `f`'s 3 bytes laid end to end: byte b of the 12 is f.bytes[b % 3].
  static constexpr unsigned word(fp6x4 f, unsigned j) {
    unsigned v = 0;
    for (unsigned b = 0; b < 4; ++b) v |= static_cast<unsigned>(f.bytes[(4 * j + b) % 3]) << (8 * b);
    return v;
  }
};
static_assert(sizeof(fp6x4) == 3 && sizeof(fp6x4x4) == 12, "fp6x4 is 3 bytes and its vec 4 access 12");

} // namespace tilec

#endif
