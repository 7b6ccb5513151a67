; A hand-written gfx950 assembly file for bench/kloop.py (test/Bench/kloop.test): a K loop of gfx950's scaled MFMAs
; with different operand formats (cbsz = A's, blgp = B's: 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4; left out = 0) and one
; plain MFMA. The comment after each MFMA gives its true passes / the passes llvm-mca 22 charges.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.globl	scaled
	.type	scaled,@function
scaled:                                 ; @scaled
	s_mov_b32 s0, 0
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
	ds_read_b128 v[16:19], v40
	ds_read_b128 v[24:27], v41
	s_waitcnt lgkmcnt(0)
	v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33 op_sel_hi:[0,0,0] ; fp8 x fp8: 16 / 8
	v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[24:27], v[0:15], v32, v33 op_sel_hi:[0,0,0] cbsz:4 blgp:4 ; fp4 x fp4: 8 / 8
	v_mfma_scale_f32_16x16x128_f8f6f4 v[48:51], v[16:19], v[24:31], v[48:51], v32, v33 op_sel_hi:[0,0,0] cbsz:4 ; fp4 x fp8: 8 / 4
	v_mfma_scale_f32_16x16x128_f8f6f4 v[48:51], v[16:21], v[24:29], v[48:51], v32, v33 op_sel_hi:[0,0,0] cbsz:2 blgp:3 ; fp6 x bf6: 4 / 4
	v_mfma_scale_f32_16x16x128_f8f6f4 v[48:51], v[16:23], v[24:27], v[48:51], v32, v33 op_sel_hi:[0,0,0] cbsz:1 blgp:4 ; bf8 x fp4: 8 / 4
	v_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[24:27], v[0:15] ; plain: 8 / 8
	s_add_i32 s0, s0, 1
	s_cmp_lt_i32 s0, s1
	s_cbranch_scc1 .LBB0_1
; %bb.2:
	s_endpgm
.Lfunc_end0:
	.size	scaled, .Lfunc_end0-scaled
