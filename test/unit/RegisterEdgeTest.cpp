//===- RegisterEdgeTest.cpp - The register edge against the hardware's figures -===//
//
// registerEdge (analysis/Occupancy.h): the room is the unified VGPR file of a lane (512 on gfx942 and gfx950,
// ../shared/facts/occupancy.md) shared by the waves per SIMD that one workgroup needs, ceil(ceil(threads / 64) / 4),
// rounded down to the allocation granule of 8; a kernel is near the edge when its VGPRs (ArchVGPRs aligned to 4, plus
// AGPRs) exceed the room / 1.1, or its ArchVGPRs exceed 256 / 1.1 = 232.7. Every expected figure below is worked out
// by hand in its comment.
//
//===----------------------------------------------------------------------===//
#include "analysis/Occupancy.h"
#include "target/Target.h"
#include <gtest/gtest.h>
#include <string>

using namespace tilec;

namespace {

KernelResources res(unsigned arch, unsigned agprs, unsigned workgroup) {
  KernelResources r;
  r.archVgprs = arch;
  r.agprs = agprs;
  r.workgroupSize = workgroup;
  return r;
}

TEST(RegisterEdgeTest, RoomIsTheFileSharedByTheWavesAWorkgroupNeeds) {
  struct Row { unsigned threads, wavesNeeded, room; };
  const Row rows[] = {
      {64, 1, 512},   // 1 wave -> 1 per SIMD: 512
      {256, 1, 512},  // 4 waves over 4 SIMDs: 1 each
      {320, 2, 256},  // 5 waves: 2 on one SIMD; 512 / 2 = 256
      {512, 2, 256},  // 8 waves: 2 per SIMD
      {768, 3, 168},  // 12 waves: 3 per SIMD; 512 / 3 = 170.7 -> 170 -> granule 8 -> 168
      {1024, 4, 128}, // 16 waves: 4 per SIMD; 512 / 4 = 128
  };
  for (const char *name : {"gfx942", "gfx950"}) {
    const Target &t = *lookupTarget(name);
    for (const Row &row : rows) {
      SCOPED_TRACE(std::string(name) + " threads " + std::to_string(row.threads));
      RegisterEdge e = registerEdge(t, res(16, 0, row.threads));
      EXPECT_EQ(e.wavesNeeded, row.wavesNeeded);
      EXPECT_EQ(e.room, row.room);
      EXPECT_FALSE(e.near);
    }
  }
}

TEST(RegisterEdgeTest, NearWithinTenPercentOfTheRoomOrOfTheArchVgprs) {
  struct Row { unsigned arch, agprs, threads, total; bool near, byArch; };
  const Row rows[] = {
      {121, 128, 512, 252, true, false},  // ceil4(121) = 124 + 128 = 252 > 256 / 1.1 = 232.7
      {105, 128, 512, 236, true, false},  // 108 + 128 = 236 > 232.7
      {101, 128, 512, 232, false, false}, // 104 + 128 = 232 <= 232.7 (232 x 1.1 = 255.2 <= 256)
      {97, 64, 256, 164, false, false},   // 100 + 64 = 164, far from 512
      {256, 256, 64, 512, true, false},   // 256 + 256 = 512 of 512: near by the room (not counted as arch)
      {232, 0, 64, 232, false, false},    // 232 x 1.1 = 255.2 <= 256
      {233, 0, 64, 233, true, true},      // 233 x 1.1 = 256.3 > 256: near the ArchVGPRs a lane addresses
      {117, 0, 1024, 117, true, false},   // 117 > 128 / 1.1 = 116.4
      {116, 0, 1024, 116, false, false},  // 116 <= 116.4
  };
  const Target &t = *lookupTarget("gfx942");
  for (const Row &row : rows) {
    SCOPED_TRACE("arch " + std::to_string(row.arch) + " acc " + std::to_string(row.agprs) + " threads " +
                 std::to_string(row.threads));
    RegisterEdge e = registerEdge(t, res(row.arch, row.agprs, row.threads));
    EXPECT_EQ(e.total, row.total);
    EXPECT_EQ(e.near, row.near);
    EXPECT_EQ(e.arch, row.byArch);
  }
}

// wavesToAsk (gfx950 asks amdgpu_waves_per_eu): the occupancy, or fewer where the estimate + 10% does not fit that
// occupancy's registers; never fewer than the workgroup needs.
TEST(RegisterEdgeTest, WavesToAskKeepTheRegisterMargin) {
  const Target &gfx950 = *lookupTarget("gfx950");
  // 81 ArchVGPRs (aligned 84) + 64 AGPRs = 148: 3 waves (168 a lane); 148 + 10% = 163 <= 168: 3.
  EXPECT_EQ(wavesToAsk(gfx950, res(81, 64, 256)), 3u);
  EXPECT_EQ(vgprsAtWaves(gfx950, 3), 168u);
  // 108 (aligned 108) + 64 = 172: 2 waves; 172 + 10% = 190 <= 256: 2.
  EXPECT_EQ(wavesToAsk(gfx950, res(108, 64, 256)), 2u);
  // 175 (aligned 176) + 256 = 432: 1 wave.
  EXPECT_EQ(wavesToAsk(gfx950, res(175, 256, 64)), 1u);
  // 512 threads need 2 waves per SIMD: 100 + 128 = 228, 2 waves.
  EXPECT_EQ(wavesToAsk(gfx950, res(100, 128, 512)), 2u);
  // 71 (aligned 72) + 16 = 88: 5 waves (96 a lane), but 88 + 10% = 97 > 96: 4 (128 a lane).
  EXPECT_EQ(wavesToAsk(gfx950, res(71, 16, 256)), 4u);
}

} // namespace
