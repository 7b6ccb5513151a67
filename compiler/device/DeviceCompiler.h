//===- DeviceCompiler.h - Emitted HIP to AMDGPU assembly, in process -------===//
//
// Compiles the HIP that tilec emits with Clang's libraries and LLVM's AMDGPU backend inside the tilec process: no
// clang subprocess, no toolchain to set up. The Clang code lives in one translation unit built as a plugin
// (compiler/clang/DeviceCompilerClang.cpp -> tilec-clang.so) that is loaded on first use, so every other tilec run
// keeps its few-millisecond start and the rest of tilec builds without Clang headers.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DEVICECOMPILER_H
#define TILEC_DEVICECOMPILER_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace tilec {

enum class DeviceOutput { Assembly, Object };

enum class DeviceStatus {
  OK,             ///< `text` holds the output
  CompileError,   ///< clang rejected the source; `diagnostics` says why
  Unsupported,    ///< the linked LLVM has no such processor (gfx950 with LLVM 19); `diagnostics` says so
  Unavailable,    ///< tilec was built without Clang, or the plugin cannot be loaded; `diagnostics` says why
};

struct DeviceCode {
  std::string text;        ///< assembly text, or the ELF bytes of the object
  std::string diagnostics; ///< clang's messages (warnings included), as clang prints them
  std::string llvmVersion; ///< the LLVM the plugin was built against
};

/// Compiles `hipSource` (named `fileName` in clang's messages) for `processor` ("gfx942") the way
/// `clang++ -x hip --offload-arch=P --cuda-device-only -nogpulib -O3 -Wall -Wextra` would, with
/// tilec/hip_minimal.h standing in for <hip/hip_runtime.h>. With two or more kernels, each is optimized and
/// compiled in its own backend run, `threads` at a time (0: one per core; 1: the whole module in one run, as clang
/// does it); the output is the same module either way (clang/KernelPartitions.h).
DeviceStatus compileDeviceCode(llvm::StringRef hipSource, llvm::StringRef fileName, llvm::StringRef processor,
                               DeviceOutput output, DeviceCode &result, unsigned threads = 0);

/// Starts loading the plugin (about a tenth of a second: libclang-cpp and libLLVM) on a thread of its own, so that
/// it overlaps the work before the first compileDeviceCode or loopCycles, which wait for it. Idempotent.
void preloadDeviceCompiler();

/// When one instruction of an iteration passed MCA's pipeline stages, in cycles from the iteration's first dispatch
/// (what llvm-mca's -timeline view draws).
struct InstructionTimes {
  unsigned dispatched = 0, issued = 0, executed = 0, retired = 0;
};

/// A loop body's cycles under LLVM's MCA (the engine of llvm-mca), in the plugin.
struct LoopCycles {
  unsigned instructions = 0;      ///< per iteration
  unsigned long totalCycles = 0;  ///< for all iterations
  std::string message;            ///< why not, when the status is not OK
  std::vector<InstructionTimes> timeline; ///< per instruction of the iteration asked for; empty when none was
};

/// loopCycles' `timelineIteration` for no timeline.
constexpr unsigned kNoTimeline = ~0u;

/// Seconds MCA gets for one loop body before it is given up (it runs in a child process; a normal run takes well under
/// a tenth of a second).
constexpr unsigned kLoopCyclesSeconds = 5;

/// Runs `instructions` (straight-line AMDGPU assembly, one a line) for `iterations` iterations on `processor`'s
/// scheduling model. CompileError means MCA could not analyse the text, or did not finish within kLoopCyclesSeconds.
/// With `timelineIteration` below `iterations`, `result.timeline` gives that iteration's instructions in MCA's pipeline.
DeviceStatus loopCycles(llvm::StringRef instructions, llvm::StringRef processor, unsigned iterations,
                        LoopCycles &result, unsigned timelineIteration = kNoTimeline);

} // namespace tilec

#endif
