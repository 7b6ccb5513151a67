//===- LibraryTest.cpp - The public API (include/tilec/tilec.h) -------------===//
#include "AddressSanitized.h"
#include "tilec/tilec.h"

#include <gtest/gtest.h>
#include <thread>

namespace {

const char *kCopy = R"(target gfx942;
kernel copy(X: global f16[M, N], Y: global f16[M, N]) {
  workgroup 256;
  grid over Y tile [64, 64];
  tile t: f16[64, 64] thread_raked vec auto;
  t = load X[block];
  store Y[block] = t;
}
)";

} // namespace

TEST(Library, CompilesToHIP) {
  tilec::Result r = tilec::compile(kCopy, "copy.tile");
  ASSERT_TRUE(r.ok()) << r.diagnosticText;
  EXPECT_NE(r.output.find("extern \"C\" __global__ __launch_bounds__(256) void copy("), std::string::npos);
  EXPECT_TRUE(r.diagnostics.empty());
}

TEST(Library, DiagnosticsAsData) {
  // Line 3: 'workgroup 100' is not a multiple of 64 (100 % 64 = 36); line 6 loads into an undeclared tile: two
  // independent errors.
  std::string bad = kCopy;
  bad.replace(bad.find("workgroup 256"), 13, "workgroup 100");
  bad.replace(bad.find("t = load"), 8, "u = load");
  tilec::Result r = tilec::compile(bad, "bad.tile");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(r.output.empty());
  ASSERT_EQ(r.diagnostics.size(), 2u) << r.diagnosticText;
  const tilec::Diagnostic &d = r.diagnostics[0];
  EXPECT_EQ(d.severity, tilec::Severity::Error);
  EXPECT_EQ(d.file, "bad.tile");
  EXPECT_EQ(d.line, 3u);
  EXPECT_EQ(d.column, 13u);
  EXPECT_NE(d.message.find("100 % 64 = 36"), std::string::npos) << d.message;
  EXPECT_EQ(d.sourceLine, "  workgroup 100;");
  EXPECT_EQ(r.diagnostics[1].line, 6u);
  EXPECT_NE(r.diagnosticText.find("bad.tile:3:13: error:"), std::string::npos);
}

TEST(Library, NotesBelongToTheirError) {
  std::string twice = std::string(kCopy) + std::string(kCopy).substr(std::string(kCopy).find("kernel"));
  tilec::Result r = tilec::compile(twice, "twice.tile");
  ASSERT_EQ(r.diagnostics.size(), 1u) << r.diagnosticText;
  EXPECT_NE(r.diagnostics[0].message.find("defined twice"), std::string::npos);
  ASSERT_EQ(r.diagnostics[0].notes.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].notes[0].severity, tilec::Severity::Note);
  EXPECT_EQ(r.diagnostics[0].notes[0].line, 2u);
}

TEST(Library, ReportAsJSONAndOptions) {
  tilec::Options o;
  o.emit = tilec::EmitKind::Report;
  o.format = tilec::OutputFormat::JSON;
  o.target = "gfx950";
  tilec::Result r = tilec::compile(kCopy, "copy.tile", o);
  ASSERT_TRUE(r.ok()) << r.diagnosticText;
  EXPECT_NE(r.output.find("\"target\": \"gfx950\""), std::string::npos) << r.output;
  o.target = "gfx90a";
  r = tilec::compile(kCopy, "copy.tile", o);
  EXPECT_EQ(r.status, 2);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].message, "unknown target 'gfx90a'; tilec knows gfx942, gfx950");
}

TEST(Library, UnreadableFile) {
  tilec::Result r = tilec::compileFile("/nonexistent/x.tile");
  EXPECT_EQ(r.status, 1);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].line, 0u);
  EXPECT_NE(r.diagnostics[0].message.find("cannot read '/nonexistent/x.tile'"), std::string::npos);
}

// Every example, 8 threads at once, 50 rounds: each compilation equals the sequential one (issue 12). The
// ThreadSanitizer stage of scripts/test.sh --all runs it as it is; under ASan (no memory error when compilations run
// side by side) 5 rounds do, where 50 took 354 s of the sanitized suite.
TEST(Library, EightThreadsFiftyRoundsSameAsSequential) {
  const unsigned rounds = kAddressSanitized ? 5 : 50;
  const char *examples[] = {"copy_f16", "scale_cast_bf16", "gemm_f16", "gemm_i8", "gemm_f16_gfx950"};
  std::vector<std::string> reference;
  for (const char *e : examples) {
    tilec::Result r = tilec::compileFile(std::string(TILEC_EXAMPLES_DIR) + "/" + e + ".tile");
    ASSERT_TRUE(r.ok()) << e << ": " << r.diagnosticText;
    reference.push_back(r.output);
  }
  std::vector<unsigned> mismatches(8, 0);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (unsigned round = 0; round < rounds; ++round)
        for (size_t i = 0; i < reference.size(); ++i) {
          size_t e = (i + t + round) % reference.size();
          tilec::Result r = tilec::compileFile(std::string(TILEC_EXAMPLES_DIR) + "/" + examples[e] + ".tile");
          if (r.output != reference[e]) ++mismatches[t];
        }
    });
  for (std::thread &th : threads) th.join();
  for (unsigned t = 0; t < 8; ++t) EXPECT_EQ(mismatches[t], 0u) << "thread " << t;
}

TEST(Library, Version) { EXPECT_STREQ(tilec::version(), TILEC_VERSION); }
