//===- IssueRateTest.cpp - Issue cycles per 16 bytes, worked by hand --------===//
#include "device/IssueRate.h"
#include "device/ISAInfo.h"

#include <gtest/gtest.h>

using namespace tilec;

// The bytes per lane of the vector-memory instructions tilec's kernels use; anything else moves nothing global.
TEST(IssueRate, GlobalAccessBytes) {
  EXPECT_EQ(globalAccessBytes("global_load_dwordx4 v[0:3], v[4:5], off"), 16u);
  EXPECT_EQ(globalAccessBytes("global_store_dwordx2 v[4:5], v[0:1], off"), 8u);
  EXPECT_EQ(globalAccessBytes("buffer_load_dwordx3 v[0:2], v4, s[0:3], 0 offen"), 12u);
  EXPECT_EQ(globalAccessBytes("global_load_dword v0, v[4:5], off"), 4u);
  EXPECT_EQ(globalAccessBytes("global_load_ushort v0, v[4:5], off"), 2u);
  EXPECT_EQ(globalAccessBytes("global_store_short_d16_hi v[4:5], v0, off"), 2u);
  EXPECT_EQ(globalAccessBytes("global_load_ubyte v0, v[4:5], off"), 1u);
  EXPECT_EQ(globalAccessBytes("ds_read_b128 v[0:3], v4"), 0u);
  EXPECT_EQ(globalAccessBytes("s_load_dwordx4 s[4:7], s[0:1], 0x0"), 0u);
  EXPECT_EQ(globalAccessBytes("v_add_f32_e32 v0, v1, v2"), 0u);
}

// A kernel of six lines: s_waitcnt and s_endpgm are left out (4 instructions); issue cycles 1 (load) + 4 (v_exp_f32,
// quarter rate) + 1 + 1 (store) = 7; 16 + 16 = 32 B per lane = two 16-byte units: 3.5 cycles per 16 B. MCA's 20
// cycles alone: 10 per 16 B. gfx942 at 8 waves per SIMD, 32 per CU: HBM gives 5300e9 / 304 / 2100e6 = 8.3020 B per
// clock per CU, so a wave's 64 x 16 B = 1024 B among 32 waves take 1024 x 32 / 8.3020 = 3947.0 clocks = 986.7
// cycles of 4 clocks; the SIMD's 8 waves issue theirs in 8 x 3.5 = 28 cycles: 28 / 986.7 = 0.0284 of it.
TEST(IssueRate, WorkedByHand) {
  std::vector<std::string> kernel = {"global_load_dwordx4 v[0:3], v[4:5], off", "s_waitcnt vmcnt(0)",
                                     "v_exp_f32_e32 v0, v0", "v_add_f32_e32 v1, v1, v0",
                                     "global_store_dwordx4 v[4:5], v[0:3], off", "s_endpgm"};
  EXPECT_EQ(issueBody(kernel), "global_load_dwordx4 v[0:3], v[4:5], off\nv_exp_f32_e32 v0, v0\n"
                               "v_add_f32_e32 v1, v1, v0\nglobal_store_dwordx4 v[4:5], v[0:3], off\n");
  Occupancy occupancy;
  occupancy.wavesPerSimd = 8;
  IssueRate r = issueRate(kernel, 20.0, *lookupTarget("gfx942"), occupancy);
  EXPECT_EQ(r.instructions, 4u);
  EXPECT_EQ(r.memoryInstructions, 2u);
  EXPECT_EQ(r.bytesPerLane, 32u);
  EXPECT_EQ(r.issueCycles, 7u);
  EXPECT_DOUBLE_EQ(r.issuePer16, 3.5);
  EXPECT_DOUBLE_EQ(r.alonePer16, 10.0);
  EXPECT_EQ(r.wavesPerCU, 32u);
  EXPECT_NEAR(r.hbmBytesPerClockPerCU, 8.3020, 1e-4);
  EXPECT_NEAR(r.hbmPer16, 986.7, 0.05);
  EXPECT_NEAR(r.issueOverHbm, 0.0284, 1e-4);
}

// A kernel's instructions as written run from its Begin function comment to its End function comment, wherever its
// blocks are (those after s_endpgm too), labels and directives dropped.
TEST(IssueRate, KernelInstructions) {
  const char *assembly = R"(	.protected	copy                    ; -- Begin function copy
copy:                                   ; @copy
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_cbranch_execnz .LBB0_2
	s_endpgm
.LBB0_2:                                ; %load
	global_load_dwordx4 v[0:3], v[4:5], off ; comment
	s_branch .LBB0_1
                                        ; -- End function
	.protected	other                   ; -- Begin function other
other:
	s_endpgm
                                        ; -- End function
)";
  std::vector<std::string> want = {"s_load_dwordx4 s[4:7], s[0:1], 0x0", "s_cbranch_execnz .LBB0_2", "s_endpgm",
                                   "global_load_dwordx4 v[0:3], v[4:5], off", "s_branch .LBB0_1"};
  EXPECT_EQ(kernelInstructions(assembly, "copy"), want);
  EXPECT_TRUE(kernelInstructions(assembly, "missing").empty());
}
