; A hand-written gfx950 assembly file for bench/kloop.py (test/Bench/kloop.test): the unscaled f8f6f4 opcodes, which
; LLVM selects for the scaled intrinsic when both scale operands are the constant 0 (Triton's fp8 products on gfx950).
; They take their scaled forms' passes. The comment after each MFMA gives its true passes / the passes llvm-mca 22
; charges.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.globl	unscaled
	.type	unscaled,@function
unscaled:                               ; @unscaled
	s_mov_b32 s0, 0
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
	ds_read_b128 v[16:19], v40
	ds_read_b128 v[24:27], v41
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15] ; fp8 x fp8: 16 / 8
	v_mfma_f32_16x16x128_f8f6f4 v[48:51], v[16:19], v[24:27], v[48:51] cbsz:4 blgp:4 ; fp4 x fp4: 4 / 4
	s_add_i32 s0, s0, 1
	s_cmp_lt_i32 s0, s1
	s_cbranch_scc1 .LBB0_1
; %bb.2:
	s_endpgm
.Lfunc_end0:
	.size	unscaled, .Lfunc_end0-unscaled
