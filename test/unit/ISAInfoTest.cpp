//===- ISAInfoTest.cpp - Reading the AMDGPU backend's kernel info -----------===//
#include "ISAInfo.h"

#include <gtest/gtest.h>

using namespace tilec;

// The shape LLVM 19's AMDGPU assembly printer writes (trimmed): a function begins with a comment on its .protected
// line, and a "; Kernel info:" block follows its end. A device function without kernel info is skipped.
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
; NumSgprs: 14
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
  EXPECT_EQ(kernels[1].archVgprs, 9u);
  EXPECT_EQ(kernels[1].scratchBytes, 16u);
  EXPECT_EQ(kernels[1].occupancy, 8u);
}

TEST(ISAInfo, NoKernelInfoNoKernels) { EXPECT_TRUE(readKernelInfo("\t.text\n; NumVgprs: 4\n").empty()); }
