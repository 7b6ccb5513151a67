; bench/kloop.py's llvm-mca timeout (test/Bench/kloop.test): the head of a gfx950 function whose one K loop is
; test/Clang/Inputs/mca-hang-loop.s (LLVM 22's MCA never finishes on it); the test appends that body and kloop_hang_tail.s.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.globl	hang
	.type	hang,@function
hang:                                   ; @hang
	s_mov_b32 s0, 0
.LBB0_13:                               ; =>This Inner Loop Header: Depth=1
