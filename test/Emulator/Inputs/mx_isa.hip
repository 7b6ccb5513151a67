// The kernels of mx_kernels.h instantiated for a device compile for gfx950 (test/ISA/gfx950-mx.test): clang-22
// compiles them to v_mfma_scale_f32_*_f8f6f4 with cbsz/blgp and op_sel as chosen here.
#define TILEC_ARCH_GFX950
#include "mx_kernels.h"

namespace mx {
template __global__ void mx_gemm<16, FP4, FP4, 0>(const unsigned char *, const unsigned char *, const unsigned char *,
                                                  const unsigned char *, float *, int, int, int);
template __global__ void mx_gemm<32, FP8, BF8, 3>(const unsigned char *, const unsigned char *, const unsigned char *,
                                                  const unsigned char *, float *, int, int, int);
template __global__ void mx_gemm<16, BF8, FP4, 1>(const unsigned char *, const unsigned char *, const unsigned char *,
                                                  const unsigned char *, float *, int, int, int);
template __global__ void mx_gemm<32, FP4, FP8, 2>(const unsigned char *, const unsigned char *, const unsigned char *,
                                                  const unsigned char *, float *, int, int, int);
template __global__ void mx_gemm<16, FP6, BF6, 0>(const unsigned char *, const unsigned char *, const unsigned char *,
                                                  const unsigned char *, float *, int, int, int);
template __global__ void mx_gemm<32, BF6, FP6, 3>(const unsigned char *, const unsigned char *, const unsigned char *,
                                                  const unsigned char *, float *, int, int, int);
} // namespace mx
