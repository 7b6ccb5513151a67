//===- EmitterNamesTest.cpp - The user's names and the emitter's, kept apart -===//
//
// MarkedNames::resolve on small texts written as the emitter writes them: user names as marks, the emitter's own
// identifiers plain. Which of the emitter's identifiers are renamed (in scope of a use of the user's name, in code,
// not a member, qualified name or directive word), to what, and that the kernel gets its names back.
#include "codegen/EmitterNames.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::hip;

namespace {

/// A kernel `k` with a register tile of each of `tiles`.
std::unique_ptr<ir::Kernel> kernelWith(std::initializer_list<const char *> tiles) {
  auto k = std::make_unique<ir::Kernel>();
  k->name = "k";
  for (const char *n : tiles) {
    k->tiles.push_back(std::make_unique<ir::Tile>());
    k->tiles.back()->name = n;
  }
  return k;
}

std::string m(llvm::StringRef name) { return MarkedNames::mark(name); }
/// The kernel's mark.
std::string km(llvm::StringRef name) { return "tilecK" + std::to_string(name.size()) + "_" + name.str(); }

} // namespace

TEST(EmitterNames, MarksNamesWhileAliveAndPutsThemBack) {
  auto k = kernelWith({"row"});
  {
    MarkedNames names(*k);
    EXPECT_EQ(k->tiles[0]->name, "tilecU3_row");
    EXPECT_EQ(k->name, "tilecK1_k");
  }
  EXPECT_EQ(k->tiles[0]->name, "row");
  EXPECT_EQ(k->name, "k");
}

TEST(EmitterNames, RenamesALocalWhoseScopeUsesTheUsersName) {
  auto k = kernelWith({"row"});
  MarkedNames names(*k);
  EXPECT_EQ(names.resolve("{\n  const int row = tid;  // the row\n  " + m("row") + "[row] = 1;\n}\n"),
            "{\n  const int row_1 = tid;  // the row\n  row[row_1] = 1;\n}\n");
}

TEST(EmitterNames, KeepsALocalWhoseScopeNeverUsesTheUsersName) {
  auto k = kernelWith({"v"});
  MarkedNames names(*k);
  std::string text = "{\n  { const int v = 1; use(v); }\n  " + m("v") + " = 2;\n}\n";
  EXPECT_EQ(names.resolve(text), "{\n  { const int v = 1; use(v); }\n  v = 2;\n}\n");
}

TEST(EmitterNames, MembersQualifiedNamesCommentsAndDirectivesAreNotNames) {
  auto k = kernelWith({"x", "unroll"});
  MarkedNames names(*k);
  std::string text = "{\n#pragma unroll\n  p.x = q->x + tilec::x(" + m("x") + ") + x::y;  // x here\n  int x = " +
                     m("unroll") + ";\n}";
  EXPECT_EQ(names.resolve(text),
            "{\n#pragma unroll\n  p.x = q->x + tilec::x(x) + x::y;  // x here\n  int x_1 = unroll;\n}");
}

TEST(EmitterNames, ADerivedNameGivesWayToTheUsersNameOfThatSpelling) {
  auto k = kernelWith({"t", "t_row"});
  MarkedNames names(*k);
  std::string text = "const int " + m("t") + "_row = 0;  // `" + m("t") + "_row`\n" + m("t_row") + " = " + m("t") +
                     "_row;\n";
  EXPECT_EQ(names.resolve(text), "const int t_row_1 = 0;  // `t_row_1`\nt_row = t_row_1;\n");
}

TEST(EmitterNames, TheVariantIsFreeOfEveryNameInTheText) {
  auto k = kernelWith({"row", "row_1"});
  MarkedNames names(*k);
  std::string text = "int row = 0, row_2x = 0; " + m("row") + " = " + m("row_1") + " + row;";
  EXPECT_EQ(names.resolve(text), "int row_2 = 0, row_2x = 0; row = row_1 + row_2;");
}

TEST(EmitterNames, BackquotedWordsInCommentsFollowARenaming) {
  auto k = kernelWith({"stream"});
  MarkedNames names(*k);
  std::string text = "/// Launches k on `stream` (a stream).\nvoid launch(float " + m("stream") + ", int stream);";
  EXPECT_EQ(names.resolve(text), "/// Launches k on `stream_1` (a stream).\nvoid launch(float stream, int stream_1);");
}

TEST(EmitterNames, TheKernelsGlobalNamesNeverChange) {
  auto k = kernelWith({"launch_k", "k_unaligned"});
  MarkedNames names(*k);
  std::string text = "void launch_" + km("k") + "(int " + m("launch_k") + ") { " + km("k") + "_unaligned(" +
                     m("k_unaligned") + "); }";
  EXPECT_EQ(names.resolve(text), "void launch_k(int launch_k) { k_unaligned(k_unaligned); }");
}

TEST(EmitterNames, ATileNamedLikeTheKernelHasLocalsOfItsOwn) {
  auto k = kernelWith({"k", "k_row"});
  MarkedNames names(*k);
  std::string text = "void " + km("k") + "() { int " + m("k") + "_row = 0; " + m("k_row") + " = " + m("k") + "_row; }";
  EXPECT_EQ(names.resolve(text), "void k() { int k_row_1 = 0; k_row = k_row_1; }");
}

TEST(EmitterNames, AUserNameThatLooksLikeAMarkReadsBackAsWritten) {
  auto k = kernelWith({"tilecU1_y", "y"});
  MarkedNames names(*k);
  EXPECT_EQ(names.resolve(m("tilecU1_y") + " = " + m("y") + "_v;"), "tilecU1_y = y_v;");
}
