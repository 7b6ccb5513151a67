//===- tilec/emulator_crosslane.h - Cross-lane operations and math builtins in the emulator ---===//
//
// Included by tilec/emulator.h. The amdgcn builtins that move 32-bit values between the lanes of a wave, each a wave
// collective (every lane leaves its operands; once all 64 have arrived the operation is computed once):
//   - __builtin_amdgcn_update_dpp(old, src, dpp_ctrl, row_mask, bank_mask, bound_ctrl): DPP, the GFX9 encodings of
//     dpp_ctrl (LLVM's AMDGPU::DPP::DppCtrl; "Data Parallel Processing" in AMD's Vega and CDNA3 ISA guides);
//   - __builtin_amdgcn_ds_swizzle(src, offset): ds_swizzle_b32, quad-permute mode (offset bit 15 set) and bit mode
//     (and/or/xor masks on the lane id within 32 lanes);
//   - __builtin_amdgcn_ds_bpermute(addr, src): ds_bpermute_b32, each lane reads the lane its byte address names;
//   - ds_read_b64_tr_b16, _tr_b8 and _tr_b4 (gfx950), through tilec::lds_load_tr (runtime.h): transposing LDS reads
//     of 16-bit, 8-bit and 4-bit values.
// Then the transcendental builtins emitted code calls (v_exp_f32 and friends), computed with the host's libm: exact
// to within libm's error, where the device instruction is within 1 ulp (docs/language.md, "Element functions").
//
// Lane rules, as the ISA guides define them (all 64 lanes are active at a collective; the emulator requires it):
//   - a DPP row is 16 lanes (row r = lanes 16r .. 16r + 15), a bank the 4 lanes 4b .. 4b + 3 of each row;
//     row_mask bit r and bank_mask bit b enable the write of the result to those lanes: a disabled lane keeps `old`;
//   - a source lane outside its row (row_shl/row_shr past the row's end, wave_shl1 from lane 63, wave_shr1 into
//     lane 0, row_bcast15 into row 0, row_bcast31 into rows 0 and 1) is invalid: the lane keeps `old`, or gets 0
//     when bound_ctrl is true;
//   - quad_perm [a, b, c, d] = dpp_ctrl a | b << 2 | c << 4 | d << 6: lane 4q + j reads lane 4q + sel_j;
//     row_shl:n (0x100 + n) reads lane + n, row_shr:n (0x110 + n) lane - n, row_ror:n (0x120 + n) the lane n to the
//     left within the row, wrapping; wave_shl1 (0x130) lane + 1, wave_rol1 (0x134) (lane + 1) % 64, wave_shr1
//     (0x138) lane - 1, wave_ror1 (0x13C) (lane - 1) % 64; row_mirror (0x140) reads 15 - j of its row,
//     row_half_mirror (0x141) 7 - j of its half row; row_bcast15 (0x142) lane 15 of the previous row, row_bcast31
//     (0x143) lane 31. Any other dpp_ctrl is not a GFX9 control and is reported.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_EMULATOR_CROSSLANE_H
#define TILEC_EMULATOR_CROSSLANE_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <string>

namespace tilec::emu {

/// Which lane lane `lane` reads under `ctrl`, or -1 when the source is invalid; -2 when `ctrl` is not a GFX9 control.
inline int dpp_source(unsigned ctrl, int lane) {
  const int row = lane & ~15, j = lane & 15;
  if (ctrl <= 0xFF) return (lane & ~3) + static_cast<int>((ctrl >> (2 * (lane & 3))) & 3);
  if (ctrl >= 0x101 && ctrl <= 0x10F) { // row_shl
    int n = static_cast<int>(ctrl - 0x100);
    return j + n <= 15 ? lane + n : -1;
  }
  if (ctrl >= 0x111 && ctrl <= 0x11F) { // row_shr
    int n = static_cast<int>(ctrl - 0x110);
    return j >= n ? lane - n : -1;
  }
  if (ctrl >= 0x121 && ctrl <= 0x12F) return row + ((j - static_cast<int>(ctrl - 0x120)) & 15); // row_ror
  switch (ctrl) {
  case 0x130: return lane == 63 ? -1 : lane + 1;   // wave_shl1
  case 0x134: return (lane + 1) & 63;              // wave_rol1
  case 0x138: return lane == 0 ? -1 : lane - 1;    // wave_shr1
  case 0x13C: return (lane + 63) & 63;             // wave_ror1
  case 0x140: return row + 15 - j;                 // row_mirror
  case 0x141: return (lane & ~7) + 7 - (lane & 7); // row_half_mirror
  case 0x142: return row == 0 ? -1 : row - 1;      // row_bcast15
  case 0x143: return lane < 32 ? -1 : 31;          // row_bcast31
  default: return -2;
  }
}

/// One lane's operands of a DPP move.
struct DppOperands {
  std::uint32_t old, src;
  unsigned ctrl, rowMask, bankMask;
  bool boundCtrl;
};

/// The results of update_dpp for 64 lanes from their operands (every lane's controls are those of lane 0, which
/// the caller has checked agree).
inline void dpp_wave(const DppOperands *in[], std::uint32_t out[]) {
  const DppOperands &c = *in[0];
  for (int lane = 0; lane < 64; ++lane) {
    const bool enabled = ((c.rowMask >> (lane / 16)) & 1) && ((c.bankMask >> ((lane & 15) / 4)) & 1);
    const int from = dpp_source(c.ctrl, lane);
    if (!enabled) out[lane] = in[lane]->old;
    else if (from < 0) out[lane] = c.boundCtrl ? 0 : in[lane]->old;
    else out[lane] = in[from]->src;
  }
}

/// Which lane lane `lane` reads under ds_swizzle offset `offset`.
inline int swizzle_source(unsigned offset, int lane) {
  if (offset & 0x8000) return (lane & ~3) + static_cast<int>((offset >> (2 * (lane & 3))) & 3); // quad permute
  const int andMask = offset & 0x1F, orMask = (offset >> 5) & 0x1F, xorMask = (offset >> 10) & 0x1F;
  return (lane & ~31) | (((lane & andMask) | orMask) ^ xorMask);
}

struct SwizzleOperands {
  std::uint32_t src;
  unsigned offset;
};
struct BpermuteOperands {
  std::uint32_t addr, src;
};

/// A wave collective of one 32-bit result per lane: `compute` gets every lane's operands of type Operands.
template <typename Operands>
inline std::uint32_t crosslane(const char *name, void (*compute)(const void *, const void *const[], void *const[]),
                               const Operands &in, const char *file, unsigned line) {
  std::uint32_t out = 0;
  WaveCall call;
  call.name = name;
  call.op = name;
  call.compute = compute;
  call.file = file;
  call.line = line;
  call.in = &in;
  call.out = &out;
  wave_collective(call);
  return out;
}

/// Fails the launch (at lane 0 of the running wave) when the lanes of a wave disagree on a control operand that the
/// hardware encodes in the instruction, or when it is not a valid encoding.
inline bool controls_agree(bool agree, const std::string &what) {
  if (!agree) report(what, machine().current ? machine().current->thread : 0);
  return agree;
}

inline void compute_dpp(const void *, const void *const in[], void *const out[]) {
  const DppOperands *ops[64];
  for (int l = 0; l < 64; ++l) ops[l] = static_cast<const DppOperands *>(in[l]);
  bool agree = true;
  for (int l = 1; l < 64; ++l)
    agree &= ops[l]->ctrl == ops[0]->ctrl && ops[l]->rowMask == ops[0]->rowMask &&
             ops[l]->bankMask == ops[0]->bankMask && ops[l]->boundCtrl == ops[0]->boundCtrl;
  if (!controls_agree(agree, "update_dpp with different controls in the lanes of one wave") ||
      !controls_agree(dpp_source(ops[0]->ctrl, 0) != -2,
                      "update_dpp with dpp_ctrl " + std::to_string(ops[0]->ctrl) + ", not a GFX9 DPP control"))
    return;
  std::uint32_t results[64];
  dpp_wave(ops, results);
  for (int l = 0; l < 64; ++l) *static_cast<std::uint32_t *>(out[l]) = results[l];
}

inline void compute_swizzle(const void *, const void *const in[], void *const out[]) {
  const auto *first = static_cast<const SwizzleOperands *>(in[0]);
  bool agree = true;
  for (int l = 1; l < 64; ++l) agree &= static_cast<const SwizzleOperands *>(in[l])->offset == first->offset;
  if (!controls_agree(agree, "ds_swizzle with different offsets in the lanes of one wave")) return;
  for (int l = 0; l < 64; ++l)
    *static_cast<std::uint32_t *>(out[l]) =
        static_cast<const SwizzleOperands *>(in[swizzle_source(first->offset, l)])->src;
}

inline void compute_bpermute(const void *, const void *const in[], void *const out[]) {
  for (int l = 0; l < 64; ++l) {
    const auto *self = static_cast<const BpermuteOperands *>(in[l]);
    // The lane is bits [7:2] of the byte address: addresses wrap around the 64 lanes.
    *static_cast<std::uint32_t *>(out[l]) = static_cast<const BpermuteOperands *>(in[(self->addr >> 2) & 63])->src;
  }
}

template <typename T> inline std::uint32_t bits32(T v) {
  static_assert(sizeof(T) == 4, "cross-lane operations move 32-bit values");
  return __builtin_bit_cast(std::uint32_t, v);
}

inline int update_dpp(std::uint32_t old, std::uint32_t src, unsigned ctrl, unsigned rowMask, unsigned bankMask,
                      bool boundCtrl, const char *file, unsigned line) {
  DppOperands in{old, src, ctrl, rowMask & 15, bankMask & 15, boundCtrl};
  return static_cast<int>(crosslane("update_dpp", compute_dpp, in, file, line));
}
inline int ds_swizzle(std::uint32_t src, unsigned offset, const char *file, unsigned line) {
  SwizzleOperands in{src, offset & 0xFFFF};
  return static_cast<int>(crosslane("ds_swizzle_b32", compute_swizzle, in, file, line));
}
inline int ds_bpermute(std::uint32_t addr, std::uint32_t src, const char *file, unsigned line) {
  BpermuteOperands in{addr, src};
  return static_cast<int>(crosslane("ds_bpermute_b32", compute_bpermute, in, file, line));
}

/// gfx950's transposing LDS reads of values of Bits bits: ds_read_b64_tr_b16 (LLVM intrinsic
/// llvm.amdgcn.ds.read.tr16.b64), ds_read_b64_tr_b8 (.tr8.b64) and ds_read_b64_tr_b4 (.tr4.b64) name 8 bytes per
/// lane, ds_read_b96_tr_b6 (.tr6.b96) 12 bytes. Every lane names V consecutive values of LDS (64 / Bits; 16 for 6 bits), value i at bits
/// Bits i .. Bits i + Bits - 1 of the little-endian bytes (a 16-bit value is two bytes, value i of 4-bit ones the low
/// (even i) or high nibble of byte i / 2, 6-bit ones the scaled MFMA's fp6 packing). Within each group of 16 lanes
/// (lanes 16g .. 16g + 15) the 16 x V values are read as a V x 16 matrix whose row r is held by the 16 / V lanes 16g +
/// (16 / V) r + c (lane 16g + (16 / V) r + c: columns V c .. V c + V - 1), and each lane gets one column of it: value
/// e of lane 16g + j is value j % V of lane 16g + (16 / V) e + j / V (docs/gemm.md, "Transposing LDS reads on gfx950"
/// and "Cross-check, and the 4-bit and 6-bit forms", has the sources; for 4 and 6 bits, V = 16, a plain 16 x 16
/// transpose: value e of lane i is value i of lane e).
template <int Bits> constexpr int tr_values = Bits == 6 ? 16 : 64 / Bits;
/// The bytes one lane names and gets: 8, or 12 for 6-bit values.
template <int Bits> constexpr int tr_bytes = tr_values<Bits> * Bits / 8;

template <int Bits> inline int tr_source(int lane, int e) {
  return (lane & ~15) + (16 / tr_values<Bits>)*e + (lane & 15) / tr_values<Bits>;
}

struct TrOperands {
  const void *at; ///< this lane's bytes of LDS
};

/// Value i of the values of Bits bits at `at`.
template <int Bits> inline unsigned tr_value(const void *at, int i) {
  const std::uint8_t *b = static_cast<const std::uint8_t *>(at);
  unsigned v = 0;
  for (int bit = 0; bit < Bits; ++bit) v |= ((b[(Bits * i + bit) / 8] >> ((Bits * i + bit) % 8)) & 1u) << bit;
  return v;
}

template <int Bits> inline void compute_tr(const void *, const void *const in[], void *const out[]) {
  for (int l = 0; l < 64; ++l) {
    std::uint8_t result[tr_bytes<Bits>] = {};
    for (int e = 0; e < tr_values<Bits>; ++e) {
      unsigned v = tr_value<Bits>(static_cast<const TrOperands *>(in[tr_source<Bits>(l, e)])->at, l % tr_values<Bits>);
      for (int bit = 0; bit < Bits; ++bit)
        result[(Bits * e + bit) / 8] |= static_cast<std::uint8_t>(((v >> bit) & 1u) << ((Bits * e + bit) % 8));
    }
    std::memcpy(out[l], result, tr_bytes<Bits>);
  }
}

/// The tr_bytes<Bits> bytes a lane gets from the transposing read `name` of Bits-bit values when it names `at` (a
/// wave collective).
template <int Bits>
inline void ds_read_tr(const char *name, const void *at, void *result, const char *file, unsigned line) {
  TrOperands in{at};
  WaveCall call;
  call.name = name;
  call.op = call.name;
  call.compute = compute_tr<Bits>;
  call.file = file;
  call.line = line;
  call.in = &in;
  call.out = result;
  wave_collective(call);
}

} // namespace tilec::emu

#define __builtin_amdgcn_update_dpp(old, src, ctrl, rowMask, bankMask, boundCtrl)                                     \
  (::tilec::emu::update_dpp(::tilec::emu::bits32(old), ::tilec::emu::bits32(src), (ctrl), (rowMask), (bankMask),       \
                            (boundCtrl), __FILE__, __LINE__))
#define __builtin_amdgcn_ds_swizzle(src, offset)                                                                       \
  (::tilec::emu::ds_swizzle(::tilec::emu::bits32(src), (offset), __FILE__, __LINE__))
#define __builtin_amdgcn_ds_bpermute(addr, src)                                                                        \
  (::tilec::emu::ds_bpermute(::tilec::emu::bits32(addr), ::tilec::emu::bits32(src), __FILE__, __LINE__))

// v_exp_f32 (2^x), v_log_f32 (log2 x), v_sqrt_f32, v_rsq_f32 (1 / sqrt x), with the host's libm.
#define __builtin_amdgcn_exp2f(x) (std::exp2(static_cast<float>(x)))
#define __builtin_amdgcn_logf(x) (std::log2(static_cast<float>(x)))
#define __builtin_amdgcn_sqrtf(x) (std::sqrt(static_cast<float>(x)))
#define __builtin_amdgcn_rsqf(x) (1.0f / std::sqrt(static_cast<float>(x)))
// v_rcp_f32 (1 / x), for the activations' sigmoid.
#define __builtin_amdgcn_rcpf(x) (1.0f / static_cast<float>(x))

#endif // TILEC_EMULATOR_CROSSLANE_H
