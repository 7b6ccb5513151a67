// gfx950_shim.h: included before an emitted .hip when clang-19 (which knows no gfx950) makes the LLVM IR that a
// newer LLVM compiles for gfx950 (scripts/gfx950/gfx950.py ir). Each gfx950-only builtin the emitter uses becomes a
// device function declared with the LLVM intrinsic's name as its assembler name, so the IR calls the intrinsic
// itself. The operand types are those of the intrinsics (IntrinsicsAMDGPU.td): 8 f16 or bf16 values for A and B,
// 4 or 16 f32 accumulators, then the cbsz, abid and blgp immediates. The scaled MX forms (docs/mx.md) take 8 x i32 A
// and B (the intrinsic is overloaded on their types; 8 dwords are accepted for every format), the accumulators, then
// cbsz (A's format), blgp (B's format), opsel_a, scale_a, opsel_b, scale_b.
#pragma once

typedef _Float16 tilec_gfx950_f16x8 __attribute__((ext_vector_type(8)));
typedef __bf16 tilec_gfx950_bf16x8 __attribute__((ext_vector_type(8)));
typedef float tilec_gfx950_f32x4 __attribute__((ext_vector_type(4)));
typedef float tilec_gfx950_f32x16 __attribute__((ext_vector_type(16)));
typedef int tilec_gfx950_i32x8 __attribute__((ext_vector_type(8)));

__device__ tilec_gfx950_f32x4 tilec_gfx950_mfma_f32_16x16x32_f16(tilec_gfx950_f16x8, tilec_gfx950_f16x8,
                                                                 tilec_gfx950_f32x4, int, int, int)
    __asm("llvm.amdgcn.mfma.f32.16x16x32.f16");
__device__ tilec_gfx950_f32x16 tilec_gfx950_mfma_f32_32x32x16_f16(tilec_gfx950_f16x8, tilec_gfx950_f16x8,
                                                                  tilec_gfx950_f32x16, int, int, int)
    __asm("llvm.amdgcn.mfma.f32.32x32x16.f16");
__device__ tilec_gfx950_f32x4 tilec_gfx950_mfma_f32_16x16x32_bf16(tilec_gfx950_bf16x8, tilec_gfx950_bf16x8,
                                                                  tilec_gfx950_f32x4, int, int, int)
    __asm("llvm.amdgcn.mfma.f32.16x16x32.bf16");
__device__ tilec_gfx950_f32x16 tilec_gfx950_mfma_f32_32x32x16_bf16(tilec_gfx950_bf16x8, tilec_gfx950_bf16x8,
                                                                   tilec_gfx950_f32x16, int, int, int)
    __asm("llvm.amdgcn.mfma.f32.32x32x16.bf16");
__device__ tilec_gfx950_f32x4 tilec_gfx950_mfma_scale_f32_16x16x128_f8f6f4(tilec_gfx950_i32x8, tilec_gfx950_i32x8,
                                                                          tilec_gfx950_f32x4, int, int, int, int, int,
                                                                          int)
    __asm("llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32");
__device__ tilec_gfx950_f32x16 tilec_gfx950_mfma_scale_f32_32x32x64_f8f6f4(tilec_gfx950_i32x8, tilec_gfx950_i32x8,
                                                                          tilec_gfx950_f32x16, int, int, int, int, int,
                                                                          int)
    __asm("llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4.v8i32.v8i32");

#define __builtin_amdgcn_mfma_f32_16x16x32_f16 tilec_gfx950_mfma_f32_16x16x32_f16
#define __builtin_amdgcn_mfma_f32_32x32x16_f16 tilec_gfx950_mfma_f32_32x32x16_f16
#define __builtin_amdgcn_mfma_f32_16x16x32_bf16 tilec_gfx950_mfma_f32_16x16x32_bf16
#define __builtin_amdgcn_mfma_f32_32x32x16_bf16 tilec_gfx950_mfma_f32_32x32x16_bf16
#define __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4 tilec_gfx950_mfma_scale_f32_16x16x128_f8f6f4
#define __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4 tilec_gfx950_mfma_scale_f32_32x32x64_f8f6f4

// ds_read_b64_tr_b16 (tilec::lds_load_tr in runtime.h): the 4 16-bit values of a transposing LDS read, from an LDS
// (address space 3) pointer. runtime.h calls the builtin when TILEC_GFX950_SHIM is defined.
typedef short tilec_gfx950_i16x4 __attribute__((ext_vector_type(4)));
__device__ tilec_gfx950_i16x4 tilec_gfx950_ds_read_tr16_b64_v4i16(__attribute__((address_space(3))) tilec_gfx950_i16x4 *)
    __asm("llvm.amdgcn.ds.read.tr16.b64.v4i16");
#define __builtin_amdgcn_ds_read_tr16_b64_v4i16 tilec_gfx950_ds_read_tr16_b64_v4i16
// ds_read_b64_tr_b8 (tilec::lds_load_tr of 8-bit values): the 8 8-bit values of a transposing LDS read, as 2 dwords.
typedef int tilec_gfx950_i32x2 __attribute__((ext_vector_type(2)));
__device__ tilec_gfx950_i32x2 tilec_gfx950_ds_read_tr8_b64_v2i32(__attribute__((address_space(3))) tilec_gfx950_i32x2 *)
    __asm("llvm.amdgcn.ds.read.tr8.b64.v2i32");
#define __builtin_amdgcn_ds_read_tr8_b64_v2i32 tilec_gfx950_ds_read_tr8_b64_v2i32
// ds_read_b64_tr_b4 (tilec::lds_load_tr of 4-bit values): the 16 4-bit values of a transposing LDS read, as 2 dwords.
__device__ tilec_gfx950_i32x2 tilec_gfx950_ds_read_tr4_b64_v2i32(__attribute__((address_space(3))) tilec_gfx950_i32x2 *)
    __asm("llvm.amdgcn.ds.read.tr4.b64.v2i32");
#define __builtin_amdgcn_ds_read_tr4_b64_v2i32 tilec_gfx950_ds_read_tr4_b64_v2i32
// ds_read_b96_tr_b6 (tilec::lds_load_tr6): the 16 6-bit values of a transposing LDS read, as 3 dwords.
typedef int tilec_gfx950_i32x3 __attribute__((ext_vector_type(3)));
__device__ tilec_gfx950_i32x3 tilec_gfx950_ds_read_tr6_b96_v3i32(__attribute__((address_space(3))) tilec_gfx950_i32x3 *)
    __asm("llvm.amdgcn.ds.read.tr6.b96.v3i32");
#define __builtin_amdgcn_ds_read_tr6_b96_v3i32 tilec_gfx950_ds_read_tr6_b96_v3i32
#define TILEC_GFX950_SHIM 1
