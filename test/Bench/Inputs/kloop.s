; A hand-written gfx942 assembly file for bench/kloop.py (test/Bench/kloop.test): a kernel with a prologue, a loop
; without MFMAs, a rotated K loop (forward branches inside, the backward branch at its end) and an epilogue; and a
; kernel with no loop at all.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.globl	pipelined
	.type	pipelined,@function
pipelined:                              ; @pipelined
; prologue: a load and an MFMA that belong to no loop
	global_load_dwordx4 v[0:3], v[20:21], off
	s_waitcnt vmcnt(0)
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
; a loop without MFMAs is not the K loop
.LBB0_1:
	v_add_u32_e32 v4, 1, v4
	s_add_i32 s0, s0, -1
	s_cmp_lg_u32 s0, 0
	s_cbranch_scc1 .LBB0_1
; the K loop
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
	buffer_load_dwordx4 v[0:3], v10, s[4:7], 0 offen
	s_and_saveexec_b64 s[8:9], vcc
	s_cbranch_execz .LBB0_3
	global_load_dwordx4 v[4:7], v[22:23], off
.LBB0_3:                                ;   in Loop: Header=BB0_2 Depth=1
	s_or_b64 exec, exec, s[8:9]
	s_waitcnt vmcnt(0)
	ds_write_b128 v12, v[0:3]
	ds_write_b64 v13, v[4:5]
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read2_b64 v[0:3], v14 offset1:2
	ds_read_b64 v[4:5], v15
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[4:5], a[0:15]
	v_mfma_f32_16x16x16_f16 a[16:19], v[2:3], v[4:5], a[16:19]
	s_add_i32 s1, s1, 32
	s_cmp_lt_i32 s1, s2
	s_cbranch_scc1 .LBB0_2
; epilogue
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	s_endpgm
.Lfunc_end0:
	.size	pipelined, .Lfunc_end0-pipelined

	.globl	straight
	.type	straight,@function
straight:                               ; @straight
	v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
	s_endpgm
.Lfunc_end1:
	.size	straight, .Lfunc_end1-straight
