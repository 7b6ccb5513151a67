//===- LineMapTest.cpp - Clang's messages about emitted HIP, at .tile lines ===//
#include "codegen/LineMap.h"

#include <gtest/gtest.h>

using namespace tilec;

TEST(LineMap, EveryLineAfterAMarkerGetsItsLine) {
  const char *hip = "#include \"tilec/runtime.h\"\n"
                    "void k() {\n"
                    "  // tilec-line 7\n"
                    "  int a = 1;\n"
                    "#pragma unroll\n"
                    "  int b = a;\n"
                    "  // tilec-line 9\n"
                    "  a = b;\n"
                    "}";
  EXPECT_EQ(withLineDirectives(hip, "k.tile"), "#include \"tilec/runtime.h\"\n"
                                               "void k() {\n"
                                               "#line 7 \"k.tile\"\n"
                                               "  int a = 1;\n"
                                               "#pragma unroll\n"
                                               "#line 7 \"k.tile\"\n"
                                               "  int b = a;\n"
                                               "#line 9 \"k.tile\"\n"
                                               "  a = b;\n"
                                               "#line 9 \"k.tile\"\n"
                                               "}");
}

TEST(LineMap, ClangMessagesBecomeTilecDiagnosticsAtTheLine) {
  llvm::SourceMgr sm;
  unsigned buffer = sm.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy("kernel k() {\n    t = load X[block];\n}\n", "k.tile"), llvm::SMLoc());
  std::string out;
  llvm::raw_string_ostream os(out);
  DiagnosticEngine diags(sm, os);
  unsigned n = reportDeviceDiagnostics("k.tile:2:17: error: use of undeclared identifier 't_row'\n"
                                       "In file included from k.hip:3:\n"
                                       "runtime.h:10:1: warning: something in a header\n"
                                       "k.tile:1:3: warning: unused variable 'x'\n",
                                       "k.tile", buffer, diags);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(diags.errorCount(), 1u);
  EXPECT_EQ(diags.warningCount(), 1u);
  EXPECT_NE(out.find("k.tile:2:5: error: clang rejects the HIP tilec emitted for this line (a tilec bug; please "
                     "report it)\n    t = load X[block];\n    ^\nnote: clang: use of undeclared identifier 't_row'\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("k.tile:1:1: warning: clang warns about"), std::string::npos) << out;
}
