//===- TruePassesTest.cpp - The K loop at its MFMAs' true passes ------------===//
#include "device/LoopEstimate.h"
#include "target/Target.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

MFMALoop loopOf(std::vector<std::string> instructions) {
  MFMALoop loop;
  loop.instructions = std::move(instructions);
  return loop;
}

} // namespace

// LLVM 22's MCA charges every v_mfma_scale_f32_*_f8f6f4 its fp4/fp6 passes (8 for 32x32x64, 4 for 16x16x128); with an
// fp8 or bf8 operand (format code 0 or 1 in cbsz for A, blgp for B; none named = 0) it takes twice that, and the body
// at true passes puts the gfx950 f32 MFMA of the same block with those passes in its place: 32x32x2_f32 (64 cycles =
// 16 passes), 16x16x4_f32 (32 cycles = 8 passes), on the same D and C, A and B the last register of the original's.
TEST(TruePasses, StandInsForTheUnderchargedMFMAsOnly) {
  const Target &t = *lookupTarget("gfx950");
  MFMALoop loop = loopOf({
      "ds_read_b128 v[16:19], v40",
      "v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33 op_sel_hi:[0,0,0]",
      "v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[24:27], v[0:15], v32, v33 op_sel_hi:[0,0,0] cbsz:4 blgp:4",
      "v_mfma_scale_f32_16x16x128_f8f6f4 v[48:51], v[16:19], v[24:31], 0, v32, v33 op_sel_hi:[0,0,0] cbsz:4",
      "v_mfma_scale_f32_16x16x128_f8f6f4 v[48:51], v[16:21], v[24:29], v[48:51], v32, v33 op_sel_hi:[0,0,0] cbsz:2 blgp:3",
      "v_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[24:27], v[0:15]",
      "s_cbranch_scc1 .LBB0_1",
  });
  EXPECT_EQ(bodyAtTruePasses(loop, t), "ds_read_b128 v[16:19], v40\n"
                                       "v_mfma_f32_32x32x2_f32 v[0:15], v23, v31, v[0:15]\n"
                                       "v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[24:27], v[0:15], v32, v33 "
                                       "op_sel_hi:[0,0,0] cbsz:4 blgp:4\n"
                                       "v_mfma_f32_16x16x4_f32 v[48:51], v19, v31, 0\n"
                                       "v_mfma_scale_f32_16x16x128_f8f6f4 v[48:51], v[16:21], v[24:29], v[48:51], v32, "
                                       "v33 op_sel_hi:[0,0,0] cbsz:2 blgp:3\n"
                                       "v_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[24:27], v[0:15]\n"
                                       "s_cbranch_scc1 .LBB0_1\n");
}

// Nothing undercharged (fp4, fp6 and plain MFMAs): no second body, and no second MCA run.
TEST(TruePasses, NoneWhereMCAChargesEveryMFMA) {
  const Target &t = *lookupTarget("gfx950");
  EXPECT_EQ(bodyAtTruePasses(loopOf({"v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[24:27], v[0:15], v32, v33 "
                                     "op_sel_hi:[0,0,0] cbsz:4 blgp:4",
                                     "v_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[24:27], v[0:15]"}),
                             t),
            "");
  EXPECT_EQ(cyclesAtTruePasses(loopOf({"v_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[24:27], v[0:15]"}), t, 100), 0);
}
