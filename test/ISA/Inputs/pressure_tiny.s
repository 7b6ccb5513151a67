; Two hand-written kernels whose liveness is worked out by hand in ../isa-pressure.test.
	.text
tiny:
	v_mov_b32_e32 v0, 0
	v_mov_b32_e32 v1, 0
	v_lshlrev_b32_e32 v2, 4, v0
.LBB0_1:
	ds_read_b128 v[4:7], v2
	v_add_u32_e32 v1, v1, v4
	v_add_u32_e32 v1, v1, v7
	s_cbranch_scc1 .LBB0_1
	v_mov_b64_e32 v[8:9], 0
	global_store_dword v[8:9], v1, off
	s_endpgm
.Lfunc_end0:
	.size	tiny, .Lfunc_end0-tiny
; NumVgprs: 10
rules:
	v_mov_b32_e32 v0, 0
	v_mov_b32_e32 v1, 0
	global_atomic_add v2, v[0:1], v0, off sc0
	ds_add_u32 v0, v2
	v_fmac_f32_e32 v2, v0, v0
	ds_write_b32 v0, v2
	s_endpgm
.Lfunc_end1:
	.size	rules, .Lfunc_end1-rules
; NumVgprs: 3
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .name:           tiny
    .vgpr_count:     10
  - .agpr_count:     0
    .name:           rules
    .vgpr_count:     3
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
