//===- DeviceCompiler.cpp - Loading the tilec-clang plugin ------------------===//
#include "device/DeviceCompiler.h"

#include "device/clang/DeviceCompilerABI.h"
#include "support/Installation.h"
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <future>
#include <mutex>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

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

namespace {

/// What a child process running MCA sends back: the result's numbers, then the message's bytes.
struct CyclesReply {
  int status;
  unsigned instructions;
  unsigned long totalCycles;
  size_t messageSize;
  size_t timelineEntries; ///< then as many tilec_loop_timeline_entry after the message
};

bool readAll(int fd, void *data, size_t size) {
  char *p = static_cast<char *>(data);
  while (size) {
    ssize_t n = read(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

void writeAll(int fd, const void *data, size_t size) {
  const char *p = static_cast<const char *>(data);
  while (size) {
    ssize_t n = write(fd, p, size);
    if (n <= 0) return;
    p += n;
    size -= static_cast<size_t>(n);
  }
}

} // namespace

DeviceStatus tilec::loopCycles(llvm::StringRef instructions, llvm::StringRef processor, unsigned iterations,
                               LoopCycles &result, unsigned timelineIteration) {
  const Plugin &p = plugin();
  if (!p.cycles) {
    result.message = p.error;
    return DeviceStatus::Unavailable;
  }
  std::string arch = processor.str();
  tilec_loop_request request{instructions.data(), instructions.size(), arch.c_str(), iterations, timelineIteration};
  // LLVM's MCA can run forever on some loop bodies (llvm-mca-22 on a 16 x 16 x 128 bf6 x bf8 MX loop,
  // test/Clang/Inputs/mca-hang.tile): it runs in a child process, given kLoopCyclesSeconds, so that --verify never
  // hangs. The child only computes and writes its answer to a pipe.
  int pipeFds[2];
  if (pipe(pipeFds) != 0) {
    result.message = "cannot create a pipe for MCA";
    return DeviceStatus::CompileError;
  }
  pid_t child = fork();
  if (child < 0) {
    close(pipeFds[0]);
    close(pipeFds[1]);
    result.message = "cannot start a process for MCA";
    return DeviceStatus::CompileError;
  }
  if (child == 0) {
    close(pipeFds[0]);
    tilec_loop_result answer{};
    p.cycles(&request, &answer);
    CyclesReply reply{answer.status, answer.instructions, answer.totalCycles,
                      answer.message ? std::strlen(answer.message) : 0, answer.timeline ? answer.instructions : 0};
    writeAll(pipeFds[1], &reply, sizeof reply);
    writeAll(pipeFds[1], answer.message, reply.messageSize);
    writeAll(pipeFds[1], answer.timeline, reply.timelineEntries * sizeof(tilec_loop_timeline_entry));
    _exit(0);
  }
  close(pipeFds[1]);
  pollfd ready{pipeFds[0], POLLIN, 0};
  int polled;
  do polled = poll(&ready, 1, kLoopCyclesSeconds * 1000);
  while (polled < 0 && errno == EINTR);
  CyclesReply reply{};
  bool answered = polled > 0 && readAll(pipeFds[0], &reply, sizeof reply);
  std::string message(answered ? reply.messageSize : 0, '\0');
  answered = answered && readAll(pipeFds[0], message.data(), message.size());
  std::vector<tilec_loop_timeline_entry> timeline(answered ? reply.timelineEntries : 0);
  answered = answered && readAll(pipeFds[0], timeline.data(), timeline.size() * sizeof(tilec_loop_timeline_entry));
  if (!answered) kill(child, SIGKILL);
  close(pipeFds[0]);
  int ignored;
  while (waitpid(child, &ignored, 0) < 0 && errno == EINTR) {
  }
  if (!answered) {
    result.message = "LLVM's MCA did not finish within " + std::to_string(kLoopCyclesSeconds) +
                     " s on this loop body (an MCA hang, not a property of the loop)";
    return DeviceStatus::CompileError;
  }
  result.instructions = reply.instructions;
  result.totalCycles = reply.totalCycles;
  result.message = message;
  for (const tilec_loop_timeline_entry &t : timeline)
    result.timeline.push_back({t.dispatched, t.issued, t.executed, t.retired});
  return reply.status == 0 ? DeviceStatus::OK : DeviceStatus::CompileError;
}
