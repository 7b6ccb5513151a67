// tilec's C++ API (tilec/tilec.h) from an installed package: compiles each .tile file named on the command line and
// prints what came out, or its diagnostics as data (file:line:col: message). `--asm` asks for gfx942 assembly,
// which the library compiles in process with its Clang plugin. Exit 1 when a file has errors.
#include "tilec/tilec.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  tilec::Options options;
  options.target = "gfx942";
  std::printf("tilec %s, runtime headers in %s\n", tilec::version(), tilec::runtimeIncludeDir().c_str());
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--asm") == 0) {
      options.emit = tilec::EmitKind::Asm;
      continue;
    }
    tilec::Result r = tilec::compileFile(argv[i], options);
    for (const tilec::Diagnostic &d : r.diagnostics)
      std::printf("%s:%u:%u: %s: %s\n", d.file.c_str(), d.line, d.column,
                  d.severity == tilec::Severity::Error ? "error" : "warning", d.message.c_str());
    if (r.ok())
      std::printf("%s: %zu bytes of %s\n", argv[i], r.output.size(),
                  options.emit == tilec::EmitKind::Asm ? "gfx942 assembly" : "HIP");
    else
      status = 1;
  }
  return status;
}
