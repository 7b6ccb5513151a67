; The end of kloop_hang_head.s's function (test/Bench/kloop.test).
; %bb.2:
	s_endpgm
.Lfunc_end0:
	.size	hang, .Lfunc_end0-hang
