//===- MCAGuardTest.cpp - --verify never hangs on an MCA hang ---------------===//
//
// LLVM 22's MCA never finishes on some loop bodies (test/Clang/Inputs/mca-hang-loop.s, an MX K loop that tilec
// emitted for seed 20261123's k0044 before its scales went through LDS; test/Clang/mca-hang.test shows that llvm-mca-22
// still hangs on it). tilec runs MCA in a child process given kLoopCyclesSeconds (device/DeviceCompiler.cpp): on that
// body loopCycles must give up with its message within a bounded time, and on an ordinary body answer as before.
//
//===----------------------------------------------------------------------===//
#include "device/DeviceCompiler.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>

using namespace tilec;

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST(MCAGuard, GivesUpOnAHangingLoopBody) {
  std::string body = readFile(std::string(TILEC_TEST_DIR) + "/Clang/Inputs/mca-hang-loop.s");
  ASSERT_NE(body.find("v_mfma_scale_f32_16x16x128_f8f6f4"), std::string::npos) << "the input is missing";
  LoopCycles result;
  auto start = std::chrono::steady_clock::now();
  DeviceStatus status = loopCycles(body, "gfx950", 100, result);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (status == DeviceStatus::Unavailable) GTEST_SKIP() << "no device compiler in this build: " << result.message;
  EXPECT_EQ(status, DeviceStatus::CompileError);
  EXPECT_EQ(result.message, "LLVM's MCA did not finish within " + std::to_string(kLoopCyclesSeconds) +
                                " s on this loop body (an MCA hang, not a property of the loop)");
  EXPECT_GE(seconds, kLoopCyclesSeconds - 0.5);
  EXPECT_LT(seconds, kLoopCyclesSeconds + 20.0);
}

TEST(MCAGuard, AnswersAnOrdinaryLoopBody) {
  // Two independent MFMAs of 8 passes each (gfx950's 32x32x16 f16) and a scalar loop counter: MCA finishes at once.
  const char *body = "\tv_mfma_f32_32x32x16_f16 v[0:15], v[32:35], v[36:39], v[0:15]\n"
                     "\tv_mfma_f32_32x32x16_f16 v[16:31], v[32:35], v[36:39], v[16:31]\n"
                     "\ts_add_i32 s0, s0, 1\n"
                     "\ts_cmp_lg_u32 s0, s1\n";
  LoopCycles result;
  DeviceStatus status = loopCycles(body, "gfx950", 100, result);
  if (status == DeviceStatus::Unavailable) GTEST_SKIP() << "no device compiler in this build: " << result.message;
  ASSERT_EQ(status, DeviceStatus::OK) << result.message;
  EXPECT_EQ(result.instructions, 4u);
  // The two MFMAs hold the pipe 16 passes an iteration: at least 1600 cycles for 100 iterations.
  EXPECT_GE(result.totalCycles, 1600u);
}
