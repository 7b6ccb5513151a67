; bench/kloop.py's llvm-mca timeout (test/Bench/kloop.test): the loop body of test/Clang/Inputs/mca-hang-loop.s, on
; which LLVM 22's MCA never finishes, as the one K loop of a gfx950 function (copied whole).
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.globl	hang
	.type	hang,@function
hang:                                   ; @hang
	s_mov_b32 s0, 0
.LBB0_13:                               ; =>This Inner Loop Header: Depth=1
	s_mul_i32 s4, s49, 0x1800
	v_add_u32_e32 v61, s4, v58
	v_add_u32_e32 v62, 0xc00, v61
	ds_read2_b64 v[76:79], v62 offset1:1
	v_add_u32_e32 v62, 0x800, v61
	ds_read2_b64 v[80:83], v62 offset0:130 offset1:142
	v_lshl_or_b32 v62, s49, 14, v59
	ds_read2_b64 v[68:71], v61 offset1:1
	ds_read2_b64 v[72:75], v61 offset0:2 offset1:14
	ds_read_b64_tr_b8 v[96:97], v62
	ds_read_b64_tr_b8 v[98:99], v62 offset:512
	ds_read_b64_tr_b8 v[100:101], v62 offset:4096
	ds_read_b64_tr_b8 v[102:103], v62 offset:4608
	ds_read2_b64 v[112:115], v61 offset0:12 offset1:13
	v_add_u32_e32 v61, 0xc60, v61
	ds_read_b64_tr_b8 v[104:105], v62 offset:8192
	ds_read_b64_tr_b8 v[106:107], v62 offset:8704
	ds_read_b64_tr_b8 v[108:109], v62 offset:12288
	ds_read_b64_tr_b8 v[110:111], v62 offset:12800
	v_mad_i64_i32 v[62:63], s[4:5], s3, v60, v[18:19]
	v_lshl_add_u64 v[66:67], v[38:39], 0, v[16:17]
	v_lshl_add_u64 v[92:93], v[36:37], 0, v[16:17]
	v_lshl_add_u64 v[94:95], v[34:35], 0, v[16:17]
	ds_read2_b64 v[118:121], v61 offset1:1
	v_lshl_add_u64 v[84:85], v[62:63], 0, v[20:21]
	v_lshl_add_u64 v[86:87], v[62:63], 0, v[22:23]
	v_lshl_add_u64 v[88:89], v[62:63], 0, v[24:25]
	v_lshl_add_u64 v[90:91], v[62:63], 0, v[26:27]
	global_load_ubyte v61, v[66:67], off offset:8
	global_load_ubyte v62, v[92:93], off offset:8
	global_load_ubyte v65, v[94:95], off offset:8
	global_load_ubyte v63, v[66:67], off offset:12
	global_load_ubyte v64, v[92:93], off offset:12
	global_load_dwordx4 v[124:127], v[86:87], off
	global_load_dwordx4 v[128:131], v[88:89], off
	global_load_dwordx4 v[132:135], v[90:91], off
	s_add_i32 s48, s48, 64
	global_load_ubyte v66, v[94:95], off offset:12
	v_lshl_add_u64 v[88:89], v[30:31], 0, v[28:29]
	global_load_dwordx4 v[92:95], v[84:85], off
	v_lshl_add_u64 v[84:85], v[32:33], 0, v[28:29]
	global_load_dwordx3 v[84:86], v[84:85], off offset:192
	s_waitcnt lgkmcnt(6)
	v_mfma_scale_f32_16x16x128_f8f6f4 v[2:5], v[96:103], v[68:73], v[2:5], v46, v50 op_sel_hi:[0,0,0] cbsz:1 blgp:3
	global_load_dwordx3 v[68:70], v[88:89], off offset:192
	v_mov_b32_e32 v116, v74
	v_mov_b32_e32 v117, v75
	v_mov_b32_e32 v122, v82
	v_mov_b32_e32 v123, v83
	s_xor_b32 s49, s49, 1
	s_mul_i32 s4, s49, 0x1800
	v_mfma_scale_f32_16x16x128_f8f6f4 v[6:9], v[96:103], v[76:81], v[6:9], v46, v47 op_sel_hi:[0,0,0] cbsz:1 blgp:3
	s_addk_i32 s3, 0x100
	v_lshl_or_b32 v67, s49, 14, v44
	v_add_u32_e32 v71, s4, v15
	v_lshl_add_u64 v[30:31], v[30:31], 0, s[0:1]
	v_lshl_add_u64 v[32:33], v[32:33], 0, s[0:1]
	v_lshl_add_u64 v[34:35], v[34:35], 0, 8
	v_lshl_add_u64 v[36:37], v[36:37], 0, 8
	s_waitcnt lgkmcnt(1)
	v_mfma_scale_f32_16x16x128_f8f6f4 v[2:5], v[104:111], v[112:117], v[2:5], v42, v45 op_sel_hi:[0,0,0] cbsz:1 blgp:3
	v_lshl_add_u64 v[38:39], v[38:39], 0, 8
	s_waitcnt vmcnt(10)
	v_mov_b32_e32 v47, v62
	v_mov_b32_e32 v50, v61
	s_waitcnt vmcnt(9)
	v_mov_b32_e32 v46, v65
	s_cmp_gt_i32 s48, s2
	s_waitcnt vmcnt(2)
	ds_write_b128 v67, v[92:95]
	ds_write_b128 v67, v[124:127] offset:1024
	s_waitcnt lgkmcnt(2)
	v_mfma_scale_f32_16x16x128_f8f6f4 v[6:9], v[104:111], v[118:123], v[6:9], v42, v43 op_sel_hi:[0,0,0] cbsz:1 blgp:3
	ds_write_b128 v67, v[128:131] offset:2048
	ds_write_b128 v67, v[132:135] offset:3072
	v_add_u32_e32 v67, 0x600, v71
	v_add_u32_e32 v72, 8, v71
	v_mov_b32_e32 v43, v64
	v_mov_b32_e32 v45, v63
	v_mov_b32_e32 v42, v66
	s_waitcnt vmcnt(1)
	ds_write2_b32 v71, v84, v85 offset1:1
	s_waitcnt vmcnt(0)
	ds_write2_b32 v67, v68, v69 offset1:1
	ds_write2st64_b32 v72, v86, v70 offset1:6
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_cbranch_scc0 .LBB0_13
; %bb.2:
	s_endpgm
.Lfunc_end0:
	.size	hang, .Lfunc_end0-hang
