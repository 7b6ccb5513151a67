// The emulator's ds_read_b64_tr_b16 (gfx950, tilec::lds_load_tr) against the definition in docs/gemm.md
// ("Transposing LDS reads on gfx950": in each group of 16 lanes, lane 16g + 4r + c names columns 4c .. 4c + 3 of row
// r of a 4 x 16 matrix and lane 16g + j gets column j). LDS holds a K x N = 16 x 32 matrix of 16-bit values, value
// 1000 * k + n, in rows of 40 values (80 B, 8-byte aligned).
//   case 0, 1: the addresses tilec gives the B operand of v_mfma_f32_32x32x16_f16 (K = 16, lane l: column l % 32,
//              K values 8 * (l / 32) + 4 * half .. + 3): lane l names row 8 * (l / 32) + 4 * half + (l % 16) / 4,
//              columns 16 * ((l / 16) % 2) + 4 * (l % 4) .. + 3; lane l must get k = 8 * (l / 32) + 4 * half + e,
//              n = l % 32 for e = 0 .. 3, which is that MFMA's B layout.
//   case 2:    scrambled addresses (lane l names row (l * 7) % 16, columns 4 * ((l * 5) % 8) .. + 3): value e of lane
//              l is value l % 4 of what lane 16 (l / 16) + 4 e + (l % 16) / 4 names, computed here from that rule.
#include "check.h"
#include <cstdio>
#include <vector>

typedef unsigned short u16x4 __attribute__((ext_vector_type(4)));

static int row0(int c, int l) { return c < 2 ? 8 * (l / 32) + 4 * c + (l % 16) / 4 : (l * 7) % 16; }
static int col0(int c, int l) { return c < 2 ? 16 * ((l / 16) % 2) + 4 * (l % 4) : 4 * ((l * 5) % 8); }

extern "C" __global__ __launch_bounds__(64) void tr16(unsigned short *__restrict__ out) {
  __shared__ unsigned short lds[16 * 40];
  const int lane = __builtin_amdgcn_workitem_id_x();
  for (int i = lane; i < 16 * 40; i += 64) lds[i] = static_cast<unsigned short>(1000 * (i / 40) + i % 40);
  tilec::barrier();
  for (int c = 0; c < 3; ++c) {
    u16x4 v = tilec::lds_load_tr<u16x4>(lds, row0(c, lane) * 40 + col0(c, lane));
    for (int e = 0; e < 4; ++e) out[(c * 64 + lane) * 4 + e] = v[e];
  }
}

int main() {
  const std::vector<unsigned short> got = runOneWave(tr16, 3 * 64 * 4);
  if (got.empty()) return 1;
  Tally tally;
  for (int c = 0; c < 3; ++c)
    for (int l = 0; l < 64; ++l)
      for (int e = 0; e < 4; ++e) {
        int want;
        if (c < 2) {
          want = 1000 * (8 * (l / 32) + 4 * c + e) + l % 32; // the MFMA B layout
        } else {
          const int src = 16 * (l / 16) + 4 * e + (l % 16) / 4;
          want = 1000 * row0(c, src) + col0(c, src) + l % 4;
        }
        if (tally.fails(got[(c * 64 + l) * 4 + e] == want))
          std::printf("case %d lane %d value %d: %d, want %d\n", c, l, e, got[(c * 64 + l) * 4 + e], want);
      }
  return tally.report("tr16");
}
