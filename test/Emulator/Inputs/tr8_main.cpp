// The emulator's ds_read_b64_tr_b8 (gfx950, tilec::lds_load_tr) against the definition in docs/gemm.md
// ("Transposing LDS reads on gfx950": in each group of 16 lanes, lane 16g + 2r + c names columns 8c .. 8c + 7 of row
// r of an 8 x 16 matrix of bytes and lane 16g + j gets column j). LDS holds a K x N = 16 x 32 matrix of bytes in rows
// of 48 (8-byte aligned). A byte cannot hold both coordinates, so each case runs twice: once with LDS holding every
// value's row k, once its column n.
//   case 0:  the addresses tilec gives the B operand of v_mfma_f32_32x32x16_fp8_fp8 (K = 16, lane l: column l % 32,
//            K values 8 * (l / 32) .. + 7): lane l names row 8 * (l / 32) + (l % 16) / 2, columns 16 * ((l / 16) % 2)
//            + 8 * (l % 2) .. + 7; lane l must get k = 8 * (l / 32) + e, n = l % 32 for e = 0 .. 7, that MFMA's B
//            layout.
//   case 1:  scrambled addresses (lane l names row (l * 7) % 16, columns 8 * ((l * 5) % 4) .. + 7): value e of lane l
//            is value l % 8 of what lane 16 (l / 16) + 2 e + (l % 16) / 8 names, computed here from that rule.
#include "check.h"
#include <cstdio>
#include <vector>

typedef unsigned char u8x8 __attribute__((ext_vector_type(8)));

static int row0(int c, int l) { return c == 0 ? 8 * (l / 32) + (l % 16) / 2 : (l * 7) % 16; }
static int col0(int c, int l) { return c == 0 ? 16 * ((l / 16) % 2) + 8 * (l % 2) : 8 * ((l * 5) % 4); }

extern "C" __global__ __launch_bounds__(64) void tr8(unsigned char *__restrict__ out) {
  __shared__ unsigned char lds[16 * 48];
  const int lane = __builtin_amdgcn_workitem_id_x();
  for (int holds = 0; holds < 2; ++holds) { // 0: LDS holds each value's row, 1: its column
    for (int i = lane; i < 16 * 48; i += 64) lds[i] = static_cast<unsigned char>(holds == 0 ? i / 48 : i % 48);
    tilec::barrier();
    for (int c = 0; c < 2; ++c) {
      u8x8 v = tilec::lds_load_tr<u8x8>(lds, row0(c, lane) * 48 + col0(c, lane));
      for (int e = 0; e < 8; ++e) out[((holds * 2 + c) * 64 + lane) * 8 + e] = v[e];
    }
    tilec::barrier();
  }
}

int main() {
  const std::vector<unsigned char> got = runOneWave(tr8, 4 * 64 * 8);
  if (got.empty()) return 1;
  Tally tally;
  for (int holds = 0; holds < 2; ++holds)
    for (int c = 0; c < 2; ++c)
      for (int l = 0; l < 64; ++l)
        for (int e = 0; e < 8; ++e) {
          int k, n;
          if (c == 0) {
            k = 8 * (l / 32) + e; // the MFMA B layout
            n = l % 32;
          } else {
            const int src = 16 * (l / 16) + 2 * e + (l % 16) / 8;
            k = row0(c, src);
            n = col0(c, src) + l % 8;
          }
          const int want = holds == 0 ? k : n, have = got[((holds * 2 + c) * 64 + l) * 8 + e];
          if (tally.fails(have == want))
            std::printf("case %d lane %d value %d (%s): %d, want %d\n", c, l, e, holds ? "column" : "row", have, want);
        }
  return tally.report("tr8");
}
