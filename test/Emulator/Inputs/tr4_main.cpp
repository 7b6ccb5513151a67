// The emulator's ds_read_b64_tr_b4 (gfx950, tilec::lds_load_tr<V, 4>) against the definition in docs/gemm.md
// ("Cross-check, and the 4-bit and 6-bit forms": in each group of 16 lanes, lane 16g + e names 8 bytes, 16 4-bit
// values of a row, and value e of lane 16g + i is value i of what lane 16g + e names; values in the low nibble
// first). LDS holds a K x N = 64 x 32 matrix of 4-bit values, two N values per byte (the lower N in the low nibble),
// in rows of 24 bytes (8-byte aligned). A nibble cannot hold both coordinates, so each case runs four times: LDS
// holding every value's k % 16, k / 16, n % 16 or n / 16.
//   cases 0, 1: the addresses tilec gives the B operand of v_mfma_scale_f32_32x32x64_f8f6f4 with fp4 given K x N
//               (lane l: column l % 32, K values 32 (l / 32) .. + 31; read h of 2): lane l names row 32 (l / 32) +
//               16 h + l % 16, bytes 8 ((l / 16) % 2) .. + 7; lane l must get k = 32 (l / 32) + 16 h + e, n = l % 32
//               for e = 0 .. 15, that MFMA's B layout.
//   case 2:     scrambled addresses (lane l names row (l * 7) % 64, bytes 8 ((l * 5) % 2) .. + 7): value e of lane l
//               is value l % 16 of what lane 16 (l / 16) + e names, computed here from that rule.
#include "check.h"
#include <cstdio>
#include <vector>

typedef int i32x2 __attribute__((ext_vector_type(2)));

static int row0(int c, int l) { return c < 2 ? 32 * (l / 32) + 16 * c + l % 16 : (l * 7) % 64; }
static int byte0(int c, int l) { return c < 2 ? 8 * ((l / 16) % 2) : 8 * ((l * 5) % 2); }

static int nibble(int holds, int k, int n) {
  switch (holds) {
  case 0: return k % 16;
  case 1: return k / 16;
  case 2: return n % 16;
  default: return n / 16;
  }
}

extern "C" __global__ __launch_bounds__(64) void tr4(unsigned char *__restrict__ out) {
  __shared__ unsigned char lds[64 * 24];
  const int lane = __builtin_amdgcn_workitem_id_x();
  for (int holds = 0; holds < 4; ++holds) {
    for (int i = lane; i < 64 * 24; i += 64) {
      const int k = i / 24, n = 2 * (i % 24);
      lds[i] = static_cast<unsigned char>(nibble(holds, k, n) | nibble(holds, k, n + 1) << 4);
    }
    tilec::barrier();
    for (int c = 0; c < 3; ++c) {
      const i32x2 v = tilec::lds_load_tr<i32x2, 4>(lds, row0(c, lane) * 24 + byte0(c, lane));
      for (int e = 0; e < 16; ++e) out[((holds * 3 + c) * 64 + lane) * 16 + e] = (v[e / 8] >> (4 * (e % 8))) & 15;
    }
    tilec::barrier();
  }
}

int main() {
  const std::vector<unsigned char> got = runOneWave(tr4, 4 * 3 * 64 * 16);
  if (got.empty()) return 1;
  Tally tally;
  for (int holds = 0; holds < 4; ++holds)
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
            n = 2 * byte0(c, src) + l % 16;
          }
          const int want = nibble(holds, k, n), have = got[((holds * 3 + c) * 64 + l) * 16 + e];
          if (tally.fails(have == want))
            std::printf("case %d lane %d value %d (holds %d): %d, want %d\n", c, l, e, holds, have, want);
        }
  return tally.report("tr4");
}
