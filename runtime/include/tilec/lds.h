//===- tilec/lds.h - LDS accesses of code emitted by tilec ------------------===//
//
// The LDS half of tilec/runtime.h: plain ds_read / ds_write of a lane's vector, the 24-byte run of a 6-bit MFMA
// operand, the 16-byte slots of a 6-bit B given K x N, gfx950's transposing reads (ds_read_b64_tr_b16, _tr_b8,
// _tr_b4, ds_read_b96_tr_b6) and the swizzled rows of transposed buffers. tilec/runtime.h includes it after its
// vector types; including it first includes tilec/runtime.h.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LDS_H
#define TILEC_LDS_H

#include "tilec/runtime.h"

namespace tilec {

/// One access of V at element `index` of the LDS array `lds`: ds_read / ds_write of sizeof(V) bytes (ds_read_b64 for
/// 8, ds_read_b128 for 16). In the emulator the access must lie inside the array, and with TILEC_EMULATOR_CHECK_LDS=1
/// reads of bytes the workgroup never wrote are reported.
template <typename V, typename T, std::size_t N> TILEC_DEVICE V lds_load(const T (&lds)[N], int index) {
#if defined(TILEC_EMULATOR)
  emu::check_lds(lds, N * sizeof(T), static_cast<long>(index) * static_cast<long>(sizeof(T)), sizeof(V), false);
  emu::note_lds(&lds[index], sizeof(V), /*isStore=*/false);
#endif
  return *reinterpret_cast<const V *>(&lds[index]);
}
template <typename V, typename T, std::size_t N> TILEC_DEVICE void lds_store(T (&lds)[N], int index, V v) {
#if defined(TILEC_EMULATOR)
  emu::check_lds(lds, N * sizeof(T), static_cast<long>(index) * static_cast<long>(sizeof(T)), sizeof(V), true);
  emu::note_lds(&lds[index], sizeof(V), /*isStore=*/true);
#endif
  *reinterpret_cast<V *>(&lds[index]) = v;
}

/// A scaled MFMA's scale chunk (V: unsigned short, unsigned or unsigned long long) at byte `offset` of `lds`, which
/// need not be aligned: each lane reads its row's chunk at its lane group's byte, which puts the bytes its MFMAs
/// select where opsel picks them, with no shift (ir::ScaleLoads::readAtLaneGroup). One ds_read_b16 / _b32 / _b64 (two
/// of them a ds_read2), which LLVM emits at any byte address on gfx942 and gfx950 (unaligned DS access). Only the
/// first `used` bytes are the chunk's; the others (the next chunk's, the next row's, or past the last row the buffer's
/// tail) are never selected: in the emulator they read as
/// 0xff, a NaN scale, so that an MFMA that selected one would show it in its result.
template <typename V, typename T, std::size_t N>
TILEC_DEVICE V lds_load_unaligned(const T (&lds)[N], int offset, int used) {
  const char *at = reinterpret_cast<const char *>(lds) + offset;
  V v;
#if defined(TILEC_EMULATOR)
  if (offset < 0 || static_cast<std::size_t>(offset) + sizeof(V) > N * sizeof(T) || used < 1 ||
      static_cast<std::size_t>(used) > sizeof(V))
    emu::fail("out-of-bounds " + std::to_string(sizeof(V)) + "-byte unaligned LDS load at byte offset " +
              std::to_string(offset) + " (" + std::to_string(used) + " used) of a " + std::to_string(N * sizeof(T)) +
              "-byte LDS array");
  emu::note_lds(at, static_cast<std::size_t>(used), /*isStore=*/false);
  unsigned char bytes[sizeof(V)];
  for (std::size_t b = 0; b < sizeof(V); ++b) bytes[b] = b < static_cast<std::size_t>(used) ? at[b] : 0xff;
  __builtin_memcpy(&v, bytes, sizeof(V));
#else
  (void)used;
  __builtin_memcpy(&v, at, sizeof(V));
#endif
  return v;
}

/// A lane's run of 32 six-bit values (fp6x4 or bf6x4: 8 elements, 24 bytes) at element `index` of `lds`, as a scaled
/// MFMA's 8-dword operand: dwords 0 .. 5 the run, 6 and 7 zero. Three 8-byte reads (ds_read_b64), as the run starts on
/// 24 bytes and so only 8-byte aligned.
template <typename T, std::size_t N> TILEC_DEVICE i32x8 lds_load_run24(const T (&lds)[N], int index) {
  static_assert(sizeof(T) == 3, "a 24-byte run is 8 elements of 3 bytes (fp6x4, bf6x4)");
  const char *at = reinterpret_cast<const char *>(&lds[index]);
  i32x2 part[3];
#pragma unroll
  for (int p = 0; p < 3; ++p) {
#if defined(TILEC_EMULATOR)
    emu::check_lds(lds, N * sizeof(T), static_cast<long>(index) * 3 + 8 * p, 8, false);
    emu::note_lds(at + 8 * p, 8, /*isStore=*/false);
#endif
    part[p] = *reinterpret_cast<const i32x2 *>(at + 8 * p);
  }
  return i32x8{part[0][0], part[0][1], part[1][0], part[1][1], part[2][0], part[2][1], 0, 0};
}

/// A 16-byte LDS slot holding 4 fp6x4 or bf6x4 elements (16 six-bit values, 12 bytes) and 4 unused bytes: the stored
/// layout of a 6-bit B given K x N, so that each lane's 12 bytes of ds_read_b96_tr_b6 start 16-byte aligned
/// (docs/mx.md, "B given K x N").
struct alignas(16) lds_slot {
  unsigned char bytes[16];
};

/// Writes the 4 elements of a 6-bit access (12 bytes) into slot `index` of `lds`: one 12-byte write (ds_write_b96) at
/// the slot's 16-byte aligned start. The slot's 4 unused bytes are left as they are: no read takes them, and writing
/// them would cost a register set to zero per access in the loop (clang-22 re-zeroes the fourth dword of each loaded
/// register set: 8 v_mov_b32 a two-step iteration in gemm_mxfp6_kn_gfx950).
template <typename V, std::size_t N> TILEC_DEVICE void lds_store_slot(lds_slot (&lds)[N], int index, V v) {
  static_assert(sizeof(V) == 12, "a slot holds one vec 4 access of a 3-byte element");
#if defined(TILEC_EMULATOR)
  // 12 bytes exactly (an i32x3 is 16 in memory): a read of the 4 unused ones is a read of bytes never written.
  emu::check_lds(lds, N * sizeof(lds_slot), static_cast<long>(index) * static_cast<long>(sizeof(lds_slot)), 12, true);
  emu::note_lds(&lds[index], 12, /*isStore=*/true);
  __builtin_memcpy(&lds[index], &v, 12);
#else
  i32x3 words;
  __builtin_memcpy(&words, &v, 12);
  *reinterpret_cast<i32x3 *>(&lds[index]) = words;
#endif
}

/// gfx950's ds_read_b96_tr_b6 at slot `index` of `lds`: this lane names the 16 six-bit values (12 bytes) of the slot;
/// in each group of 16 lanes, lane 16g + e names row e of a 16 x 16 matrix and gets column e of it, value j from row j,
/// packed as the scaled MFMA's 6-bit operand (value j at bits 6j .. 6j + 5 of the 3 dwords). In the emulator it is a
/// wave collective over the 64 lanes' addresses (tilec/emulator_crosslane.h).
template <std::size_t N> TILEC_DEVICE i32x3 lds_load_tr6(const lds_slot (&lds)[N], int index) {
#if defined(TILEC_EMULATOR)
  emu::check_lds(lds, N * sizeof(lds_slot), static_cast<long>(index) * 16, 12, false);
  emu::note_lds(&lds[index], 12, /*isStore=*/false);
  i32x3 v;
  emu::ds_read_tr<6>("ds_read_b96_tr_b6", &lds[index], &v, __FILE__, __LINE__);
  return v;
#elif defined(__gfx950__) || defined(TILEC_GFX950_SHIM)
  auto *at = (__attribute__((address_space(3))) i32x3 *)(&lds[index]);
  return __builtin_amdgcn_ds_read_tr6_b96_v3i32(at);
#else
  static_assert(N == 0, "the transposing LDS reads exist on gfx950 only");
  (void)lds;
  (void)index;
  return i32x3{};
#endif
}

/// gfx950's transposing LDS read at element `index` of the LDS array `lds`: ds_read_b64_tr_b16 for 16-bit values,
/// ds_read_b64_tr_b8 for 8-bit ones, ds_read_b64_tr_b4 for 4-bit ones (Bits = 4: fp4x2 bytes, two values each, the
/// lower index in the low nibble). This lane names 8 bytes, v = 64 / Bits consecutive values; in each group of 16
/// lanes, lane 16g + (16 / v) r + c names columns v c .. v c + v - 1 of row r of a v x 16 matrix, and lane 16g + j
/// gets its column j (value e from row e). A K x N operand stored as loaded (N contiguous) thus reaches the MFMA's B
/// layout (v consecutive K values of one column per lane) without transposed LDS writes. In the emulator it is a wave
/// collective over the 64 lanes' addresses (tilec/emulator_crosslane.h).
template <typename V, int Bits = 0, typename T, std::size_t N> TILEC_DEVICE V lds_load_tr(const T (&lds)[N], int index) {
  constexpr int bits = Bits ? Bits : 8 * static_cast<int>(sizeof(T));
  static_assert((bits == 16 || bits == 8 || bits == 4) && sizeof(V) == 8,
                "a transposing LDS read gives each lane 8 bytes of 16-, 8- or 4-bit values");
#if defined(TILEC_EMULATOR)
  emu::check_lds(lds, N * sizeof(T), static_cast<long>(index) * static_cast<long>(sizeof(T)), sizeof(V), false);
  emu::note_lds(&lds[index], sizeof(V), /*isStore=*/false);
  V v;
  emu::ds_read_tr<bits>(bits == 16 ? "ds_read_b64_tr_b16" : bits == 8 ? "ds_read_b64_tr_b8" : "ds_read_b64_tr_b4",
                        &lds[index], &v, __FILE__, __LINE__);
  return v;
#elif defined(__gfx950__) || defined(TILEC_GFX950_SHIM)
  if constexpr (bits == 16) {
    typedef short i16x4 __attribute__((ext_vector_type(4)));
    auto *at = (__attribute__((address_space(3))) i16x4 *)(&lds[index]);
    return __builtin_bit_cast(V, __builtin_amdgcn_ds_read_tr16_b64_v4i16(at));
  } else if constexpr (bits == 8) {
    typedef int i32x2 __attribute__((ext_vector_type(2)));
    auto *at = (__attribute__((address_space(3))) i32x2 *)(&lds[index]);
    return __builtin_bit_cast(V, __builtin_amdgcn_ds_read_tr8_b64_v2i32(at));
  } else {
    typedef int i32x2 __attribute__((ext_vector_type(2)));
    auto *at = (__attribute__((address_space(3))) i32x2 *)(&lds[index]);
    return __builtin_bit_cast(V, __builtin_amdgcn_ds_read_tr4_b64_v2i32(at));
  }
#else
  static_assert(sizeof(T) == 0, "the transposing LDS reads exist on gfx950 only");
  (void)lds;
  (void)index;
  return V{};
#endif
}

/// The row where stored row `r` of a swizzled LDS buffer is placed: r ^ (((r >> From) & Mask) << Shift). The bits read
/// lie above the bits changed, so the map is its own inverse and keeps each aligned group of 2^From rows together.
template <int From, int Mask, int Shift> TILEC_DEVICE constexpr int swizzled_row(int r) {
  return r ^ (((r >> From) & Mask) << Shift);
}

/// The column where element `c` of (placed) row `r` of an LDS buffer whose columns are XORed in chunks of `Chunk`
/// elements (16 bytes) is placed: the chunk c / Chunk goes to (c / Chunk) ^ (((r >> From) & Mask) << Shift), the
/// element keeps its place in the chunk. Its own inverse for a given row.
template <int From, int Mask, int Shift, int Chunk> TILEC_DEVICE constexpr int xor_column(int r, int c) {
  return c ^ ((((r >> From) & Mask) << Shift) * Chunk);
}

} // namespace tilec

#endif // TILEC_LDS_H
