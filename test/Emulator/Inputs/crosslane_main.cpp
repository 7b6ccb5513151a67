// The emulator's cross-lane operations against expectations derived by hand from the ISA guides' definitions (AMD
// "Vega" and CDNA3 Instruction Set Architecture, "DPP" and DS_SWIZZLE_B32 / DS_BPERMUTE_B32; the dpp_ctrl values are
// LLVM's AMDGPU::DPP::DppCtrl). src(l) = 100 + l, old(l) = 1000 + l; a DPP row is 16 lanes, a bank 4 lanes of a row.
#include "crosslane_kernels.h"
#include <cstdio>
#include <vector>

static const int kCases = 22;

/// Each check: case, lane, expected value, and the rule it follows.
struct Expect {
  int c, lane, want;
  const char *why;
};

static const Expect expectations[] = {
    {0, 0, 101, "quad_perm [1,0,3,2]: lane 0 reads lane 1"},
    {0, 5, 104, "quad_perm [1,0,3,2]: lane 5 (quad 1, j 1) reads 4 + 0"},
    {0, 63, 162, "quad_perm [1,0,3,2]: lane 63 reads lane 62"},
    {1, 0, 1000, "row_shr:1: lane 0 has no source (row start): keeps old"},
    {1, 16, 1016, "row_shr:1: lane 16 starts row 1: keeps old, never reads lane 15"},
    {1, 17, 116, "row_shr:1: lane 17 reads lane 16"},
    {2, 0, 0, "row_shr:1 bound_ctrl: an invalid source reads 0"},
    {2, 32, 0, "row_shr:1 bound_ctrl: lane 32 starts row 2: 0"},
    {2, 33, 132, "row_shr:1 bound_ctrl: lane 33 reads lane 32"},
    {3, 12, 115, "row_shl:3: lane 12 reads lane 15"},
    {3, 13, 1013, "row_shl:3: lane 13 + 3 is past its row: keeps old"},
    {4, 0, 115, "row_ror:1: lane 0 reads lane 15 of its row"},
    {4, 16, 131, "row_ror:1: lane 16 reads lane 31"},
    {4, 5, 104, "row_ror:1: lane 5 reads lane 4"},
    {5, 0, 1000, "wave_shr:1: lane 0 has no source: keeps old"},
    {5, 16, 115, "wave_shr:1: lane 16 reads lane 15, across rows"},
    {6, 0, 163, "wave_ror:1: lane 0 reads lane 63"},
    {7, 63, 0, "wave_shl:1 bound_ctrl: lane 63 has no source: 0"},
    {7, 15, 116, "wave_shl:1: lane 15 reads lane 16"},
    {8, 63, 100, "wave_rol:1: lane 63 reads lane 0"},
    {9, 0, 115, "row_mirror: lane 0 reads lane 15"},
    {9, 17, 130, "row_mirror: lane 17 (j 1) reads 16 + 14"},
    {10, 0, 107, "row_half_mirror: lane 0 reads lane 7"},
    {10, 9, 114, "row_half_mirror: lane 9 reads 8 + 6"},
    {11, 20, 115, "row_bcast:15: row 1 reads lane 15"},
    {11, 50, 147, "row_bcast:15: row 3 reads lane 47"},
    {11, 3, 1003, "row_bcast:15 row_mask 0xa: row 0 is not written: keeps old"},
    {11, 40, 1040, "row_bcast:15 row_mask 0xa: row 2 is not written: keeps old"},
    {12, 33, 131, "row_bcast:31 row_mask 0xc: row 2 reads lane 31"},
    {12, 63, 131, "row_bcast:31 row_mask 0xc: row 3 reads lane 31"},
    {12, 20, 1020, "row_bcast:31 row_mask 0xc: row 1 keeps old"},
    {13, 7, 107, "row_mask 0x1: row 0 is written"},
    {13, 16, 1016, "row_mask 0x1: row 1 keeps old"},
    {14, 2, 113, "bank_mask 0x1: lane 2 (bank 0) is written: row_mirror reads 13"},
    {14, 18, 129, "bank_mask 0x1: lane 18 (bank 0 of row 1) is written: reads 29"},
    {14, 4, 1004, "bank_mask 0x1: lane 4 (bank 1) keeps old"},
    {14, 31, 1031, "bank_mask 0x1: lane 31 (bank 3) keeps old"},
    {15, 5, 0, "row_bcast:15 with row 0 enabled: no source for row 0, bound_ctrl: 0"},
    {15, 40, 131, "row_bcast:15: row 2 reads lane 31"},
    {16, 0, 116, "ds_swizzle xor 16: lane 0 reads lane 16"},
    {16, 40, 156, "ds_swizzle xor 16: lane 40 reads lane 56 (within lanes 32-63)"},
    {17, 20, 105, "ds_swizzle and 0 or 5: lane 20 reads lane 5"},
    {17, 40, 137, "ds_swizzle and 0 or 5: lane 40 reads lane 32 + 5"},
    {18, 0, 103, "ds_swizzle quad mode [3,2,1,0]: lane 0 reads lane 3"},
    {18, 6, 105, "ds_swizzle quad mode [3,2,1,0]: lane 6 (j 2) reads 4 + 1"},
    {19, 0, 163, "ds_bpermute address (63 - l) * 4: lane 0 reads lane 63"},
    {19, 40, 123, "ds_bpermute: lane 40 reads lane 23"},
    {20, 0, 101, "ds_bpermute address 256 + 4 + 2: bits [7:2] = lane 1"},
    {20, 63, 100, "ds_bpermute: lane 63 reads lane 0"},
    {21, 0, 2016, "reduction steps: every lane holds 0 + 1 + ... + 63"},
    {21, 37, 2016, "reduction steps: every lane holds 0 + 1 + ... + 63"},
};

int main() {
  int *out = nullptr;
  hipMalloc(&out, kCases * 64 * sizeof(int));
  hipLaunchKernelGGL(crosslane, dim3(1), dim3(64), 0, nullptr, out);
  if (hipError_t e = hipGetLastError(); e != hipSuccess) {
    std::printf("launch: %s\n", hipGetErrorString(e));
    return 1;
  }
  std::vector<int> got(kCases * 64);
  hipMemcpy(got.data(), out, got.size() * sizeof(int), hipMemcpyDeviceToHost);
  int bad = 0, checks = 0;
  for (const Expect &x : expectations) {
    ++checks;
    if (got[x.c * 64 + x.lane] != x.want && ++bad)
      std::printf("case %d lane %d: %d, want %d (%s)\n", x.c, x.lane, got[x.c * 64 + x.lane], x.want, x.why);
  }
  std::printf("crosslane: %d of %d checks hold\n", checks - bad, checks);
  hipFree(out);
  return bad != 0;
}
