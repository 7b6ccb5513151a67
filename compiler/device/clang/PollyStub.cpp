//===- PollyStub.cpp - The Polly extension point of a static Clang ----------===//
//
// Debian's Clang and LLVM are built with Polly linked into the tools: clang's BackendUtil.cpp and LLVM's LTO backend
// register Polly's passes through getPollyPluginInfo() (llvm/Support/Extension.def) whatever the options. The shared
// libraries carry it; the static ones do not, so a plugin linked from them (TILEC_STATIC_DEVICE_COMPILER) gets this
// definition: an extension that registers nothing. Polly's passes run only under -mllvm -polly, which tilec never
// passes, so the pipelines are those clang-22 runs.
//
//===----------------------------------------------------------------------===//
#include "llvm/Config/llvm-config.h"
#include "llvm/Plugins/PassPlugin.h"

llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Polly (not linked: tilec never enables it)", LLVM_VERSION_STRING,
          [](llvm::PassBuilder &) {}};
}
