//===- DeviceCompilerABI.h - The C interface of the tilec-clang plugin -----===//
//
// tilec links LLVM's Support library statically; the plugin links the shared libLLVM and libclang-cpp. Only plain C
// types cross between them, so neither side depends on the other's copy of LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DEVICECOMPILERABI_H
#define TILEC_DEVICECOMPILERABI_H

#include <stddef.h>

extern "C" {

struct tilec_device_request {
  const char *source;
  size_t sourceSize;
  const char *fileName;        ///< the name clang's messages use
  const char *processor;       ///< "gfx942"
  const char *runtimeInclude;  ///< tilec's runtime/include directory
  const char *clangExecutable; ///< where the linked clang's resource directory is found
  int object;                  ///< 0: assembly, 1: object
  unsigned threads;            ///< kernels compiled at once: 0 one per core, 1 the module in one backend run
};

struct tilec_device_result {
  int status; ///< 0 ok, 1 compile error, 2 unsupported processor
  char *output;
  size_t outputSize;
  char *diagnostics;
  const char *llvmVersion;
};

/// A loop body for LLVM's MCA: straight-line AMDGPU assembly, one instruction a line.
struct tilec_loop_request {
  const char *instructions;
  size_t size;
  const char *processor;
  unsigned iterations;
  /// The iteration whose instructions' timeline the result gives (MCA's timeline view); >= iterations: none.
  unsigned timelineIteration;
};

/// One instruction of that iteration in MCA's pipeline: the cycles, from the iteration's first dispatch, at which it
/// was dispatched, issued (began to execute), finished executing and retired.
struct tilec_loop_timeline_entry {
  unsigned dispatched, issued, executed, retired;
};

struct tilec_loop_result {
  int status;                ///< 0 ok, 1 the text could not be analysed (message says why)
  unsigned instructions;     ///< per iteration, as MCA parsed them
  unsigned long totalCycles; ///< for all iterations
  char *message;             ///< freed with free()
  /// One entry per instruction of the body when a timeline was asked for, else null; freed with free().
  struct tilec_loop_timeline_entry *timeline;
};

typedef void (*tilec_loop_cycles_fn)(const tilec_loop_request *request, tilec_loop_result *result);

/// Compiles one request; the result's strings are freed with tilec_device_free.
typedef void (*tilec_device_compile_fn)(const tilec_device_request *request, tilec_device_result *result);
typedef void (*tilec_device_free_fn)(tilec_device_result *result);
}

#endif
