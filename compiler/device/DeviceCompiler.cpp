//===- DeviceCompiler.cpp - Loading the tilec-clang plugin ------------------===//
#include "device/DeviceCompiler.h"

#include "device/clang/DeviceCompilerABI.h"
#include "support/Installation.h"
#include <cstdlib>
#include <dlfcn.h>
#include <future>
#include <mutex>

using namespace tilec;

namespace {

struct Plugin {
  tilec_device_compile_fn compile = nullptr;
  tilec_device_free_fn release = nullptr;
  tilec_loop_cycles_fn cycles = nullptr;
  std::string error;
};

#ifdef TILEC_CLANG_PLUGIN
/// Where the plugin is: $TILEC_CLANG_PLUGIN if set; <prefix>/<libdir>/tilec/tilec-clang.so when this code is an
/// installed tilec or libtilec.so; else the one built in the build tree.
std::string pluginPath() {
  const char *path = std::getenv("TILEC_CLANG_PLUGIN");
  if (path && *path) return path;
  std::string installed = installedLibraryFile("tilec/tilec-clang.so");
  if (!installed.empty()) return installed;
  return TILEC_CLANG_PLUGIN;
}
#endif

/// Loads the plugin once (pluginPath()).
const Plugin &plugin() {
  static Plugin loaded;
  static std::once_flag once;
  std::call_once(once, [] {
#ifndef TILEC_CLANG_PLUGIN
    loaded.error = "this tilec was built without Clang (configure with libclang-cpp19-dev installed)";
#else
    std::string path = pluginPath();
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      loaded.error = std::string("cannot load the Clang plugin: ") + dlerror();
      return;
    }
    loaded.compile = reinterpret_cast<tilec_device_compile_fn>(dlsym(handle, "tilec_device_compile"));
    loaded.release = reinterpret_cast<tilec_device_free_fn>(dlsym(handle, "tilec_device_free"));
    loaded.cycles = reinterpret_cast<tilec_loop_cycles_fn>(dlsym(handle, "tilec_loop_cycles"));
    if (!loaded.compile || !loaded.release || !loaded.cycles) loaded.error = path + " is not a tilec Clang plugin";
#endif
  });
  return loaded;
}

} // namespace

void tilec::preloadDeviceCompiler() {
  // The future's destructor, at exit, waits for a load still under way.
  static std::future<void> loading = std::async(std::launch::async, [] { plugin(); });
}

DeviceStatus tilec::compileDeviceCode(llvm::StringRef hipSource, llvm::StringRef fileName, llvm::StringRef processor,
                                      DeviceOutput output, DeviceCode &result, unsigned threads) {
  const Plugin &p = plugin();
  if (!p.compile) {
    result.diagnostics = p.error;
    return DeviceStatus::Unavailable;
  }
  std::string name = fileName.str(), arch = processor.str(), include = runtimeIncludeDir();
  tilec_device_request request{hipSource.data(), hipSource.size(), name.c_str(), arch.c_str(), include.c_str(),
#ifdef TILEC_CLANG_EXECUTABLE
                               TILEC_CLANG_EXECUTABLE,
#else
                               "clang",
#endif
                               output == DeviceOutput::Object, threads};
  tilec_device_result answer{};
  p.compile(&request, &answer);
  result.text.assign(answer.output, answer.outputSize);
  result.diagnostics = answer.diagnostics;
  result.llvmVersion = answer.llvmVersion;
  p.release(&answer);
  switch (answer.status) {
  case 0: return DeviceStatus::OK;
  case 2: return DeviceStatus::Unsupported;
  default: return DeviceStatus::CompileError;
  }
}

DeviceStatus tilec::loopCycles(llvm::StringRef instructions, llvm::StringRef processor, unsigned iterations,
                               LoopCycles &result) {
  const Plugin &p = plugin();
  if (!p.cycles) {
    result.message = p.error;
    return DeviceStatus::Unavailable;
  }
  std::string arch = processor.str();
  tilec_loop_request request{instructions.data(), instructions.size(), arch.c_str(), iterations};
  tilec_loop_result answer{};
  p.cycles(&request, &answer);
  result.instructions = answer.instructions;
  result.totalCycles = answer.totalCycles;
  result.message = answer.message;
  std::free(answer.message);
  return answer.status == 0 ? DeviceStatus::OK : DeviceStatus::CompileError;
}
