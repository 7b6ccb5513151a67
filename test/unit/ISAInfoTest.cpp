//===- ISAInfoTest.cpp - Reading the AMDGPU backend's kernel info -----------===//
#include "device/ISAInfo.h"

#include <gtest/gtest.h>

using namespace tilec;

// The shape LLVM's AMDGPU assembly printer writes (trimmed): a function begins with a comment on its .protected
// line, and a "; Kernel info:" block follows its end. A device function without kernel info is skipped. LLVM 19
// names the SGPR count "NumSgprs" (first kernel), LLVM 22 "TotalNumSgprs" (second).
TEST(ISAInfo, ReadsEachKernelsInfoBlock) {
  const char *assembly = R"(	.text
	.protected	gemm_f16                ; -- Begin function gemm_f16
gemm_f16:                               ; @gemm_f16
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	s_endpgm
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 3032
; NumSgprs: 30
; NumVgprs: 45
; NumAgprs: 64
; TotalNumVgprs: 112
; ScratchSize: 0
; LDSByteSize: 18432 bytes/workgroup (compile time only)
; Occupancy: 3
	.text
	.hidden	helper                  ; -- Begin function helper
helper:
	s_setpc_b64 s[30:31]
                                        ; -- End function
	.protected	copy                    ; -- Begin function copy
copy:
                                        ; -- End function
; Kernel info:
; TotalNumSgprs: 14
; NumVgprs: 9
; NumAgprs: 0
; TotalNumVgprs: 9
; ScratchSize: 16
; LDSByteSize: 0 bytes/workgroup (compile time only)
; Occupancy: 8
)";
  std::vector<CompiledKernel> kernels = readKernelInfo(assembly);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "gemm_f16");
  EXPECT_EQ(kernels[0].codeBytes, 3032u);
  EXPECT_EQ(kernels[0].sgprs, 30u);
  EXPECT_EQ(kernels[0].archVgprs, 45u);
  EXPECT_EQ(kernels[0].agprs, 64u);
  EXPECT_EQ(kernels[0].totalVgprs, 112u);
  EXPECT_EQ(kernels[0].scratchBytes, 0u);
  EXPECT_EQ(kernels[0].ldsBytes, 18432u);
  EXPECT_EQ(kernels[0].occupancy, 3u);
  EXPECT_EQ(kernels[1].name, "copy");
  EXPECT_EQ(kernels[1].sgprs, 14u);
  EXPECT_EQ(kernels[1].archVgprs, 9u);
  EXPECT_EQ(kernels[1].scratchBytes, 16u);
  EXPECT_EQ(kernels[1].occupancy, 8u);
}

TEST(ISAInfo, NoKernelInfoNoKernels) { EXPECT_TRUE(readKernelInfo("\t.text\n; NumVgprs: 4\n").empty()); }

// A loop laid out as LLVM places K loops: the latch block (with the MFMAs) before the header, an inner forward
// branch, and the backward branch at the end. The innermost loop with MFMAs runs from the label the backward branch
// targets to that branch.
TEST(ISAInfo, FindsTheInnermostLoopWithMFMAs) {
  const char *assembly = R"(	.protected	k                       ; -- Begin function k
k:
	s_mov_b32 s0, 0
.LBB0_1:                                ; outer loop without MFMAs
	v_add_u32_e32 v1, 1, v1
	s_cbranch_scc1 .LBB0_1
	s_branch .LBB0_3
.LBB0_2:                                ;   in Loop: Header=BB0_3 Depth=1
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[4:5], a[16:31]   ; second
	s_cbranch_scc1 .LBB0_4
.LBB0_3:                                ; =>This Inner Loop Header: Depth=1
	buffer_load_dwordx4 v[6:9], v10, s[8:11], 0 offen
	s_cbranch_execz .LBB0_2
	s_branch .LBB0_2
.LBB0_4:
	s_endpgm
                                        ; -- End function
)";
  std::vector<MFMALoop> loops = findMFMALoops(assembly);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].kernel, "k");
  EXPECT_EQ(loops[0].label, ".LBB0_2");
  EXPECT_EQ(loops[0].instructions.size(), 6u);
  EXPECT_EQ(loops[0].mfmaCount, 2u);
  ASSERT_EQ(loops[0].mfmas.size(), 1u);
  EXPECT_EQ(loops[0].mfmas[0].mnemonic, "v_mfma_f32_32x32x8_f16");
  EXPECT_EQ(loops[0].mfmas[0].count, 2u);
  // LLVM 22's MCA reads buffer loads: the body goes as it is.
  EXPECT_EQ(loops[0].body(), "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]\n"
                             "v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[4:5], a[16:31]\n"
                             "s_cbranch_scc1 .LBB0_4\n"
                             "buffer_load_dwordx4 v[6:9], v10, s[8:11], 0 offen\n"
                             "s_cbranch_execz .LBB0_2\n"
                             "s_branch .LBB0_2\n");
}

// Two loops with MFMAs, as LLVM 22 laid out gemm_i8 with the 16 x 16 instruction: the masked copy in fewer lines
// (its blocks carry no comments) but with more instructions (4 against 3), and the main loop. The main loop is the
// K loop. A scaled MFMA's format codes are read from the instruction (cbsz:4 blgp:4 is fp4 x fp4; none named is
// fp8 x fp8), each pair its own kind.
TEST(ISAInfo, PicksTheLoopWithFewestInstructionsPerMFMAAndReadsFormats) {
  const char *assembly = R"(	.protected	k                       ; -- Begin function k
k:
.LBB0_1:
	v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33 op_sel_hi:[0,0,0]
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB0_1
	s_cbranch_scc1 .LBB0_1
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
                                        ; a comment line
                                        ; another comment line
	v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33 op_sel_hi:[0,0,0] cbsz:4 blgp:4
	v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33 op_sel_hi:[0,0,0] cbsz:4 blgp:4
	s_cbranch_scc1 .LBB0_2
	s_endpgm
                                        ; -- End function
)";
  std::vector<MFMALoop> loops = findMFMALoops(assembly);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].label, ".LBB0_2");
  EXPECT_EQ(loops[0].instructions.size(), 3u);
  ASSERT_EQ(loops[0].mfmas.size(), 1u);
  EXPECT_EQ(loops[0].mfmas[0].cbsz, 4u);
  EXPECT_EQ(loops[0].mfmas[0].blgp, 4u);
  EXPECT_EQ(loops[0].mfmas[0].count, 2u);
  std::vector<MFMALoop> masked = findMFMALoops(llvm::StringRef(assembly).split(".LBB0_2:").first.str() +
                                               "\ts_endpgm\n                                        ; -- End function\n");
  ASSERT_EQ(masked.size(), 1u);
  ASSERT_EQ(masked[0].mfmas.size(), 1u);
  EXPECT_EQ(masked[0].mfmas[0].cbsz, 0u);
  EXPECT_EQ(masked[0].mfmas[0].blgp, 0u);
}

// A staged main loop of two K steps (KLoopPlan::stepPerStage) has more instructions than the masked loop of one
// (6 against 4) but fewer per MFMA (3 against 4): it is the K loop.
TEST(ISAInfo, PicksTheTwoStepMainLoopOverTheShorterMaskedOne) {
  const char *assembly = R"(	.protected	k                       ; -- Begin function k
k:
.LBB0_1:
	ds_read_b128 v[16:19], v40
	v_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[24:27], v[0:15]
	s_waitcnt vmcnt(0)
	s_cbranch_scc1 .LBB0_1
.LBB0_2:
	ds_read_b128 v[16:19], v40
	v_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[24:27], v[0:15]
	ds_read_b128 v[16:19], v40 offset:4096
	v_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[24:27], v[0:15]
	s_add_i32 s0, s0, 1
	s_cbranch_scc1 .LBB0_2
	s_endpgm
                                        ; -- End function
)";
  std::vector<MFMALoop> loops = findMFMALoops(assembly);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].label, ".LBB0_2");
  EXPECT_EQ(loops[0].instructions.size(), 6u);
  EXPECT_EQ(loops[0].mfmaCount, 2u);
}
