//===- tilec/fp6x4.h - The 3-byte element of the 6-bit MX formats -----------===//
//
// tilec::fp6x4 holds four fp6 (E2M3) or bf6 (E3M2) values, the storage of the dtypes fp6x4 and bf6x4 (docs/mx.md), and
// tilec::fp6x4x4 is one lane's access of four of them. Plain C++ (no vector extensions), so that the launcher header
// of --emit=header can name them in host code built by any C++ compiler; tilec/runtime.h includes it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FP6X4_H
#define TILEC_FP6X4_H

namespace tilec {

/// Four 6-bit values in three bytes, a little-endian bit string with value e at bits 6e .. 6e + 5. A tensor of them
/// is a row of 3-byte elements, as fp4x2's is one of bytes.
struct fp6x4 {
  unsigned char bytes[3];
};

/// Four fp6x4 elements: one lane's access of 12 bytes (global_load_dwordx3, ds_write_b96), 4-byte aligned. A struct,
/// since a vector type has no 3-byte element; indexed like one.
struct alignas(4) fp6x4x4 {
  fp6x4 e[4];
  fp6x4x4() = default;
  constexpr explicit fp6x4x4(fp6x4 fill) : e{fill, fill, fill, fill} {}
  constexpr fp6x4 &operator[](int i) { return e[i]; }
  constexpr const fp6x4 &operator[](int i) const { return e[i]; }
};
static_assert(sizeof(fp6x4) == 3 && sizeof(fp6x4x4) == 12, "fp6x4 is 3 bytes and its vec 4 access 12");

} // namespace tilec

#endif
