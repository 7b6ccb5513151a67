// A block-scaled (MX) GEMM written by hand with gfx950's scaled MFMA builtins, the way tilec emits device code (the
// tilec:: access functions, the amdgcn builtins): compiled for the CPU emulator by mx_main.cpp and, with the gfx950
// shim, to LLVM IR for the gfx950 ISA check (mx_isa.hip). The lane layouts are those of docs/mx.md, written out again.
//
// D (m x n, f32) = sum over K of (A[i][k] 2^(SA[i][k/32] - 127)) (B[k][j] 2^(SB[j][k/32] - 127)), where
//   A is m x k elements, packed row by row (fp8/bf8: a byte each; fp4: two per byte, the even k in the low nibble;
//   fp6/bf6: four per 3 bytes, the row one little-endian bit string with value kk at bits 6 kk .. 6 kk + 5),
//   B is given n x k (row j of it is column j of B), packed the same way,
//   SA is m x k/32 E8M0 bytes, SB n x k/32; k must be a multiple of 32 (one scale per 32 K values).
// One wave computes one M x M block of D; the K loop steps by the instruction's K. Rows, columns and K values past
// the ends read as code 0 (+0 in every format) with scale 127 (1.0), and D is stored only inside m x n: the tails.
#pragma once
#include "tilec/runtime.h"

namespace mx {

/// Format codes of cbsz / blgp.
enum Format { FP8 = 0, BF8 = 1, FP6 = 2, BF6 = 3, FP4 = 4 };

constexpr int bitsOf(int format) { return format == FP4 ? 4 : format == FP6 || format == BF6 ? 6 : 8; }

/// Element code of row `row`, K index `kk` of a packed m x k operand (0 outside).
template <int Format>
TILEC_DEVICE unsigned code_at(const unsigned char *p, int rows, int k, int row, int kk) {
  if (row >= rows || kk >= k) return 0;
  const long rowBytes = long(k) * bitsOf(Format) / 8;
  if constexpr (bitsOf(Format) == 6) {
    // Bits 6 kk .. 6 kk + 5 of the row: in one byte, or across two.
    const long bit = 6L * kk;
    const unsigned char *at = p + row * rowBytes + bit / 8;
    unsigned window = tilec::global_load<unsigned char>(at);
    if (bit % 8 > 2) window |= unsigned(tilec::global_load<unsigned char>(at + 1)) << 8;
    return (window >> (bit % 8)) & 0x3F;
  }
  const unsigned char byte = tilec::global_load<unsigned char>(p + row * rowBytes + long(kk) * bitsOf(Format) / 8);
  return Format == FP4 ? (byte >> (4 * (kk % 2))) & 0xF : byte;
}

/// One lane's A (or B) operand for the K step at `k0`: an fp4, fp6 or bf6 lane holds K k0 + 32 g .. + 31 (value e =
/// K offset e, at bits e x width of the operand); fp8/bf8 lane holds K k0 + 16 g .. + 15 (bytes 0..15) and
/// k0 + 16 (g + G) .. + 15 (bytes 16..31), G = 64 / M.
template <int M, int Format>
TILEC_DEVICE tilec::i32x8 operand(const unsigned char *p, int rows, int k, int row, int g, int k0) {
  unsigned words[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int e = 0; e < 32; ++e) {
    const int kk = bitsOf(Format) < 8 ? k0 + 32 * g + e : k0 + 16 * (g + (64 / M) * (e / 16)) + e % 16;
    const int bit = e * bitsOf(Format);
    const unsigned code = code_at<Format>(p, rows, k, row, kk);
    words[bit / 32] |= code << (bit % 32);
    if (bit % 32 + bitsOf(Format) > 32) words[bit / 32 + 1] |= code >> (32 - bit % 32); // a 6-bit value across two
  }
  tilec::i32x8 v;
  for (int w = 0; w < 8; ++w) v[w] = int(words[w]);
  return v;
}

/// The lane's scale register: the scale of (row, block) at byte OPSEL, 0xFF (NaN) in the other bytes, so that a
/// wrong byte selection is seen.
template <int OPSEL>
TILEC_DEVICE unsigned scale_reg(const unsigned char *s, int rows, int k, int row, int block) {
  const unsigned byte = row < rows && block < k / 32 ? tilec::global_load<unsigned char>(s + row * (k / 32) + block)
                                                     : 127u;
  return (0xFFFFFFFFu & ~(0xFFu << (8 * OPSEL))) | byte << (8 * OPSEL);
}

template <int M> struct Acc;
template <> struct Acc<16> { using type = tilec::f32x4; };
template <> struct Acc<32> { using type = tilec::f32x16; };

template <int M, int FA, int FB, int OPSEL>
__global__ void mx_gemm(const unsigned char *A, const unsigned char *B, const unsigned char *SA,
                        const unsigned char *SB, float *D, int m, int n, int k) {
  constexpr int K = M == 16 ? 128 : 64; // the instruction's K
  const int lane = int(__builtin_amdgcn_workitem_id_x()) % 64;
  const int blockRow = int(__builtin_amdgcn_workgroup_id_y()) * M;
  const int blockCol = int(__builtin_amdgcn_workgroup_id_x()) * M;
  const int r = lane % M, g = lane / M;
  typename Acc<M>::type acc = {};
  // K loop: one scaled MFMA per K step; its scale block for this lane is (k0 / 32 + g).
  for (int k0 = 0; k0 < k; k0 += K) {
    const tilec::i32x8 a = operand<M, FA>(A, m, k, blockRow + r, g, k0);
    const tilec::i32x8 b = operand<M, FB>(B, n, k, blockCol + r, g, k0);
    const unsigned sa = scale_reg<OPSEL>(SA, m, k, blockRow + r, k0 / 32 + g);
    const unsigned sb = scale_reg<OPSEL>(SB, n, k, blockCol + r, k0 / 32 + g);
    if constexpr (M == 16)
      acc = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, acc, FA, FB, OPSEL, sa, OPSEL, sb);
    else
      acc = __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a, b, acc, FA, FB, OPSEL, sa, OPSEL, sb);
  }
  // D[i][j]: 16x16: lane j + 16 (i / 4), elem i % 4; 32x32: lane j + 32 ((i / 4) % 2), elem 4 (i / 8) + i % 4.
  for (int e = 0; e < (M == 16 ? 4 : 16); ++e) {
    const int i = M == 16 ? 4 * (lane / 16) + e : 8 * (e / 4) + 4 * (lane / 32) + e % 4;
    const int row = blockRow + i, col = blockCol + lane % M;
    if (row < m && col < n) tilec::global_store<float>(D + long(row) * n + col, acc[e]);
  }
}

} // namespace mx
