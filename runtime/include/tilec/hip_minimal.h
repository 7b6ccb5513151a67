//===- tilec/hip_minimal.h - The HIP declarations emitted code needs -------===//
//
// tilec's in-process device compiler (`tilec --emit=asm`, `--verify`) compiles the emitted .hip with this header
// standing in for <hip/hip_runtime.h>: emitted device code uses only __builtin_amdgcn_* and these attributes, and
// the host launchers only need declarations (device-only compilation never generates host code). Parsing the real
// HIP runtime header costs most of a clang device compile (about 0.5 s of 0.75 s for gemm_f16 on this machine); this
// costs nothing. A .hip built with plain `clang++ -x hip` still uses the real header.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_HIP_MINIMAL_H
#define TILEC_HIP_MINIMAL_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(threads) __attribute__((amdgpu_flat_work_group_size(1, threads)))

typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipStream_t *hipStream_t;

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};

hipError_t hipGetLastError();
template <typename... Params, typename... Args>
void hipLaunchKernelGGL(void (*kernel)(Params...), dim3 grid, dim3 block, unsigned ldsBytes, hipStream_t stream,
                        Args... args);

#endif
