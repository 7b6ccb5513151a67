//===- LineMap.cpp - Clang's messages about emitted HIP, at .tile lines -----===//
#include "codegen/LineMap.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace tilec;

std::string tilec::withLineDirectives(llvm::StringRef hip, llvm::StringRef tileName) {
  std::string out;
  out.reserve(hip.size() * 2);
  std::string directive;
  llvm::SmallVector<llvm::StringRef, 0> lines;
  hip.split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    llvm::StringRef line = lines[i];
    llvm::StringRef trimmed = line.ltrim();
    unsigned number = 0;
    if (trimmed.starts_with(kLineMarker) && !trimmed.drop_front(kLineMarker.size()).getAsInteger(10, number)) {
      directive = "#line " + std::to_string(number) + " \"" + tileName.str() + "\"\n";
      continue;
    }
    // A directive before a preprocessor line would only move it; those stay as they are.
    if (!directive.empty() && !trimmed.starts_with("#")) out += directive;
    out += line;
    if (i + 1 < lines.size()) out += '\n';
  }
  return out;
}

unsigned tilec::reportDeviceDiagnostics(llvm::StringRef clangText, llvm::StringRef tileName, unsigned buffer,
                                        DiagnosticEngine &diags) {
  unsigned reported = 0;
  llvm::SmallVector<llvm::StringRef, 0> lines;
  clangText.split(lines, '\n');
  llvm::SourceMgr &sm = diags.getSourceMgr();
  const llvm::MemoryBuffer *source = sm.getMemoryBuffer(buffer);
  for (llvm::StringRef line : lines) {
    // "gemm_f16.tile:23:9: error: use of undeclared identifier 'x'"
    if (!line.consume_front(tileName) || !line.consume_front(":")) continue;
    unsigned lineNo = 0, column = 0;
    if (line.consumeInteger(10, lineNo) || !line.consume_front(":") || line.consumeInteger(10, column) ||
        !line.consume_front(": "))
      continue;
    bool isError = line.consume_front("error: ");
    if (!isError && !line.consume_front("warning: ")) continue;
    llvm::SMLoc start = sm.FindLocForLineAndColumn(buffer, lineNo, 1);
    if (!start.isValid()) continue;
    const char *p = start.getPointer();
    while (p < source->getBufferEnd() && (*p == ' ' || *p == '\t')) ++p;
    llvm::SMLoc at = llvm::SMLoc::getFromPointer(p);
    std::string message = "clang " + std::string(isError ? "rejects" : "warns about") +
                          " the HIP tilec emitted for this line (a tilec bug; please report it)";
    if (isError) diags.error({at, at}, message);
    else diags.warning({at, at}, message);
    diags.note({}, "clang: " + line.str());
    ++reported;
  }
  return reported;
}
