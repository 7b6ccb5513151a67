; A hand-written gfx950 assembly file for bench/kloop.py (test/Bench/kloop.test): a staged main loop of two K steps
; an iteration (one per LDS stage: 2 MFMAs in 8 instructions) and the masked loop after it (one step: 1 MFMA in 5
; instructions, fewer instructions but more per MFMA).
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.globl	two_steps
	.type	two_steps,@function
two_steps:                              ; @two_steps
.LBB0_1:
	ds_read_b128 v[16:19], v40
	v_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[24:27], v[0:15]
	s_barrier
	ds_read_b128 v[16:19], v40 offset:4096
	v_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[24:27], v[0:15]
	s_barrier
	s_add_i32 s0, s0, 2
	s_cbranch_scc1 .LBB0_1
.LBB0_2:
	ds_read_b128 v[16:19], v40
	v_mfma_f32_32x32x16_f16 v[0:15], v[16:19], v[24:27], v[0:15]
	s_barrier
	s_add_i32 s0, s0, 1
	s_cbranch_scc1 .LBB0_2
	s_endpgm
.Lfunc_end0:
	.size	two_steps, .Lfunc_end0-two_steps
