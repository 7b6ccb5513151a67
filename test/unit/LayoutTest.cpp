//===- LayoutTest.cpp - The distribution math against the seed's table ------===//
#include "Layout.h"
#include <gtest/gtest.h>

using namespace tilec;

namespace {

LayoutRequest request(Pattern p, unsigned rows, unsigned cols, unsigned bytes, unsigned threads,
                      std::optional<unsigned> vec) {
  LayoutRequest r;
  r.pattern = p;
  r.rows = rows;
  r.cols = cols;
  r.elemBytes = bytes;
  r.dtypeName = bytes == 2 ? "f16" : bytes == 4 ? "f32" : "i8";
  r.threads = threads;
  r.vec = vec;
  return r;
}

} // namespace

// The seed primer's table for a 64x64 f16 tile on one wave: vec 1/2/4/8 -> X0 64/32/16/8, Y0 1/2/4/8, Y1 64/32/16/8.
TEST(LayoutTest, SeedTableOneWave64x64F16) {
  const unsigned vecs[] = {1, 2, 4, 8}, x0[] = {64, 32, 16, 8}, y0[] = {1, 2, 4, 8}, y1[] = {64, 32, 16, 8};
  for (int i = 0; i < 4; ++i) {
    std::vector<LayoutProblem> problems;
    auto l = solveLayout(request(Pattern::ThreadRaked, 64, 64, 2, 64, vecs[i]), problems);
    ASSERT_TRUE(l.has_value()) << "vec " << vecs[i];
    EXPECT_TRUE(problems.empty());
    EXPECT_EQ(l->lanesX, x0[i]);
    EXPECT_EQ(l->laneRows, y0[i]);
    EXPECT_EQ(l->rowsPerLane, y1[i]);
    EXPECT_EQ(l->elementsPerLane(), 64u) << "4096 elements / 64 lanes";
  }
}

// LANGUAGE.md: "a 32x32 f16 tile over 256 threads gets vec 4, not 8".
TEST(LayoutTest, VecAutoNeedsARowPerLane) {
  std::vector<LayoutProblem> problems;
  auto l = solveLayout(request(Pattern::ThreadRaked, 32, 32, 2, 256, std::nullopt), problems);
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->vec, 4u);
  EXPECT_EQ(l->rowsPerLane, 1u);
  EXPECT_TRUE(l->vecIsAuto);
}

TEST(LayoutTest, SixteenByteRuleNamesTheWidestLegalVec) {
  std::vector<LayoutProblem> problems;
  auto l = solveLayout(request(Pattern::ThreadRaked, 64, 64, 2, 256, 16), problems);
  EXPECT_FALSE(l.has_value());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].field, LayoutField::Vec);
  EXPECT_EQ(problems[0].message,
            "vec 16 x f16 (2 B) = 32 B exceeds the 16 bytes one lane can load; the widest legal vec here is 8");
}
