// One wave, 64 lanes: every cross-lane operation the emulator implements, each case writing out[case * 64 + lane].
// Lane l's source value is 100 + l and its old value 1000 + l. Compiled for the emulator (crosslane_main.cpp) and
// for gfx942 (crosslane.test checks the instructions), so every control below is one the device accepts.
#ifndef CROSSLANE_KERNELS_H
#define CROSSLANE_KERNELS_H
#include "tilec/runtime.h"

#define TILEC_DPP(CASE, CTRL, ROWS, BANKS, BOUND)                                                                     \
  out[(CASE) * 64 + lane] = __builtin_amdgcn_update_dpp(1000 + lane, 100 + lane, CTRL, ROWS, BANKS, BOUND)

extern "C" __global__ __launch_bounds__(64) void crosslane(int *__restrict__ out) {
  const int lane = __builtin_amdgcn_workitem_id_x();
  TILEC_DPP(0, 0xB1, 0xF, 0xF, false);   // quad_perm [1, 0, 3, 2]
  TILEC_DPP(1, 0x111, 0xF, 0xF, false);  // row_shr:1
  TILEC_DPP(2, 0x111, 0xF, 0xF, true);   // row_shr:1 bound_ctrl
  TILEC_DPP(3, 0x103, 0xF, 0xF, false);  // row_shl:3
  TILEC_DPP(4, 0x121, 0xF, 0xF, false);  // row_ror:1
  TILEC_DPP(5, 0x138, 0xF, 0xF, false);  // wave_shr:1
  TILEC_DPP(6, 0x13C, 0xF, 0xF, false);  // wave_ror:1
  TILEC_DPP(7, 0x130, 0xF, 0xF, true);   // wave_shl:1 bound_ctrl
  TILEC_DPP(8, 0x134, 0xF, 0xF, false);  // wave_rol:1
  TILEC_DPP(9, 0x140, 0xF, 0xF, false);  // row_mirror
  TILEC_DPP(10, 0x141, 0xF, 0xF, false); // row_half_mirror
  TILEC_DPP(11, 0x142, 0xA, 0xF, false); // row_bcast:15 row_mask:0xa
  TILEC_DPP(12, 0x143, 0xC, 0xF, false); // row_bcast:31 row_mask:0xc
  TILEC_DPP(13, 0xE4, 0x1, 0xF, false);  // quad_perm [0, 1, 2, 3] row_mask:0x1
  TILEC_DPP(14, 0x140, 0xF, 0x1, false); // row_mirror bank_mask:0x1
  TILEC_DPP(15, 0x142, 0xF, 0xF, true);  // row_bcast:15, row 0 unmasked, bound_ctrl
  out[16 * 64 + lane] = __builtin_amdgcn_ds_swizzle(100 + lane, 0x401F); // bit mode: xor 16
  out[17 * 64 + lane] = __builtin_amdgcn_ds_swizzle(100 + lane, 0x00A0); // bit mode: and 0, or 5
  out[18 * 64 + lane] = __builtin_amdgcn_ds_swizzle(100 + lane, 0x801B); // quad mode [3, 2, 1, 0]
  out[19 * 64 + lane] = __builtin_amdgcn_ds_bpermute((63 - lane) * 4, 100 + lane);
  out[20 * 64 + lane] = __builtin_amdgcn_ds_bpermute(256 + 4 * ((lane + 1) % 64) + 2, 100 + lane); // wraps; bits 1:0 ignored
  // The runtime's reduction steps: a sum over 64 lanes with every step tilec emits for a row reduction.
  float v = static_cast<float>(lane);
  v = tilec::combine<tilec::ReduceOp::Sum>(v, tilec::dpp_move<tilec::dpp::quad_perm(1, 0, 3, 2)>(v));
  v = tilec::combine<tilec::ReduceOp::Sum>(v, tilec::dpp_move<tilec::dpp::quad_perm(2, 3, 0, 1)>(v));
  v = tilec::combine<tilec::ReduceOp::Sum>(v, tilec::dpp_move<tilec::dpp::row_half_mirror>(v));
  v = tilec::combine<tilec::ReduceOp::Sum>(v, tilec::dpp_move<tilec::dpp::row_mirror>(v));
  v = tilec::combine<tilec::ReduceOp::Sum>(v, tilec::swizzle<tilec::swizzle_xor(16)>(v));
  v = tilec::combine<tilec::ReduceOp::Sum>(v, tilec::bpermute(v, lane ^ 32));
  out[21 * 64 + lane] = static_cast<int>(v);
}

#endif
