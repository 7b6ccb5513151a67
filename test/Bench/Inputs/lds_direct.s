; A hand-written gfx950 assembly file for bench/lds_direct.py (test/Bench/lds-direct.test): a staged main loop of two
; K steps an iteration, each step 1 scaled MFMA (6-bit A and B, 8 passes), one LDS write of each operand, 3 buffer
; loads (2 of A through s[44:47], 1 of B through s[48:51]), a vmcnt wait alone and one combined with lgkmcnt, and
; one barrier.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.globl	six
	.type	six,@function
six:                                    ; @six
.LBB0_1:
	v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:21], v[24:29], v[0:15], v30, v31 op_sel_hi:[0,0,0] cbsz:2 blgp:3
	s_waitcnt vmcnt(2)
	ds_write2_b32 v40, v50, v51 offset1:1
	ds_write_b32 v41, v52
	buffer_load_dwordx3 v[50:52], v60, s[44:47], s5 offen
	buffer_load_dwordx3 v[53:55], v61, s[44:47], s5 offen offset:96
	buffer_load_ushort v56, v62, s[48:51], s5 offen
	s_waitcnt vmcnt(1) lgkmcnt(0)
	s_barrier
	v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:21], v[24:29], v[0:15], v30, v31 op_sel_hi:[0,0,0] cbsz:2 blgp:3
	ds_write2_b32 v42, v53, v54 offset1:1
	buffer_load_dwordx3 v[50:52], v60, s[44:47], s6 offen
	buffer_load_dwordx3 v[53:55], v61, s[44:47], s6 offen offset:96
	buffer_load_ushort v56, v62, s[48:51], s6 offen
	s_barrier
	s_add_i32 s0, s0, 2
	s_cbranch_scc1 .LBB0_1
	s_endpgm
.Lfunc_end0:
	.size	six, .Lfunc_end0-six
