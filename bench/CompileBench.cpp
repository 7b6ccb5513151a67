//===- CompileBench.cpp - How long tilec takes on the examples --------------===//
//
// BM_Compile: the pipeline in-process (parse -> Sema -> IR -> verify -> HIP text), per example.
// BM_Process: `tilec FILE -o /dev/null` as a child process, which adds process start-up and loading libLLVM.
// Run through the `bench` target; it reports mean, median and stddev over repetitions.
//
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <benchmark/benchmark.h>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

const char *const kExamples[] = {"copy_f16.tile", "scale_cast_bf16.tile", "gemm_f16.tile"};

std::string examplePath(int index) { return std::string(TILEC_EXAMPLES_DIR) + "/" + kExamples[index]; }

void BM_Compile(benchmark::State &state) {
  auto file = llvm::MemoryBuffer::getFile(examplePath(static_cast<int>(state.range(0))));
  if (!file) {
    state.SkipWithError("cannot read the example");
    return;
  }
  std::string text = (*file)->getBuffer().str();
  tilec::CompileOptions options;
  for (auto _ : state) {
    std::string out;
    llvm::raw_string_ostream os(out);
    int status = tilec::compileBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "example.tile"), options, os,
                                      llvm::errs());
    if (status != 0) state.SkipWithError("compilation failed");
    benchmark::DoNotOptimize(out.data());
  }
  state.SetLabel(kExamples[state.range(0)]);
}
BENCHMARK(BM_Compile)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

void BM_Process(benchmark::State &state) {
  std::string path = examplePath(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    pid_t pid = fork();
    if (pid == 0) {
      execl(TILEC_BINARY, "tilec", path.c_str(), "-o", "/dev/null", static_cast<char *>(nullptr));
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) state.SkipWithError("tilec failed");
  }
  state.SetLabel(kExamples[state.range(0)]);
}
BENCHMARK(BM_Process)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
