// The emulator's ds_read_b96_tr_b6 (gfx950, tilec::lds_load_tr6) against the definition in docs/gemm.md ("Cross-check,
// and the 4-bit and 6-bit forms": in each group of 16 lanes, lane 16g + e names 12 bytes, 16 six-bit values of a row,
// and value e of lane 16g + i is value i of what lane 16g + e names; value j at bits 6j .. 6j + 5, little-endian).
// LDS holds a K x N = 64 x 32 matrix of 6-bit values in tilec's 16-byte slots (16 N values in the first 12 bytes of
// each, docs/mx.md): rows of 2 slots. Six bits hold either coordinate, so each case runs twice: LDS holding every
// value's k, then its n.
//   cases 0, 1: the addresses tilec gives the B operand of v_mfma_scale_f32_32x32x64_f8f6f4 with bf6 given K x N
//               (lane l: column l % 32, K values 32 (l / 32) .. + 31; read h of 2): lane l names row 32 (l / 32) +
//               16 h + l % 16, slot (l / 16) % 2; lane l must get k = 32 (l / 32) + 16 h + e, n = l % 32 for e = 0 ..
//               15, that MFMA's B layout.
//   case 2:     scrambled addresses (lane l names row (l * 7) % 64, slot (l * 5) % 2): value e of lane l is value
//               l % 16 of what lane 16 (l / 16) + e names, computed here from that rule.
#include "check.h"
#include <cstdio>
#include <vector>

static int row0(int c, int l) { return c < 2 ? 32 * (l / 32) + 16 * c + l % 16 : (l * 7) % 64; }
static int slot0(int c, int l) { return c < 2 ? (l / 16) % 2 : (l * 5) % 2; }

extern "C" __global__ __launch_bounds__(64) void tr6(unsigned char *__restrict__ out) {
  __shared__ tilec::lds_slot lds[64 * 2];
  const int lane = __builtin_amdgcn_workitem_id_x();
  for (int holds = 0; holds < 2; ++holds) {
    for (int s = lane; s < 64 * 2; s += 64) {
      const int k = s / 2;
      unsigned char bytes[16] = {};
      for (int j = 0; j < 16; ++j) { // value j of the slot: bits 6j .. 6j + 5 of its 12 bytes
        const int n = 16 * (s % 2) + j, v = holds == 0 ? k : n;
        for (int bit = 0; bit < 6; ++bit)
          if (v >> bit & 1) bytes[(6 * j + bit) / 8] |= static_cast<unsigned char>(1 << ((6 * j + bit) % 8));
      }
      __builtin_memcpy(lds[s].bytes, bytes, 16);
    }
    tilec::barrier();
    for (int c = 0; c < 3; ++c) {
      const tilec::i32x3 v = tilec::lds_load_tr6(lds, row0(c, lane) * 2 + slot0(c, lane));
      unsigned char bytes[12];
      for (int w = 0; w < 3; ++w)
        for (int b = 0; b < 4; ++b) bytes[4 * w + b] = static_cast<unsigned char>(static_cast<unsigned>(v[w]) >> (8 * b));
      for (int e = 0; e < 16; ++e) {
        int value = 0;
        for (int bit = 0; bit < 6; ++bit) value |= (bytes[(6 * e + bit) / 8] >> ((6 * e + bit) % 8) & 1) << bit;
        out[((holds * 3 + c) * 64 + lane) * 16 + e] = static_cast<unsigned char>(value);
      }
    }
    tilec::barrier();
  }
}

int main() {
  const std::vector<unsigned char> got = runOneWave(tr6, 2 * 3 * 64 * 16);
  if (got.empty()) return 1;
  Tally tally;
  for (int holds = 0; holds < 2; ++holds)
    for (int c = 0; c < 3; ++c)
      for (int l = 0; l < 64; ++l)
        for (int e = 0; e < 16; ++e) {
          int k, n;
          if (c < 2) {
            k = 32 * (l / 32) + 16 * c + e; // the MFMA B layout
            n = l % 32;
          } else {
            const int src = 16 * (l / 16) + e;
            k = row0(c, src);
            n = 16 * slot0(c, src) + l % 16;
          }
          const int want = holds == 0 ? k : n, have = got[((holds * 3 + c) * 64 + l) * 16 + e];
          if (tally.fails(have == want))
            std::printf("case %d lane %d value %d (holds %s): %d, want %d\n", c, l, e, holds ? "n" : "k", have, want);
        }
  return tally.report("tr6");
}
