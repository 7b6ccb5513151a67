"""limits.py KIND N: prints a kernel whose statement `t = ...` (line 6) nests N levels or chains N operators."""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
head = ("target gfx942;\nkernel k(X: global f16[M, N], Y: global f16[M, N]) {\n  workgroup 256;\n"
        "  grid over Y tile [64, 64];\n  tile t: f16[64, 64] thread_raked;\n")
if kind == "parens":
    body = "  t = load X[block] + " + "(" * n + "t" + ")" * n + ";\n"
elif kind == "minus":
    body = "  t = load X[block] + " + "-" * n + "t;\n"
elif kind == "operators":
    body = "  t = load X[block]" + " + t" * n + ";\n"
elif kind == "loops":
    body = "  t = load X[block];\n" + "".join("  for i%d in 0 .. 4 {\n" % i for i in range(n)) + "}\n" * n
else:
    sys.exit("unknown kind " + kind)
sys.stdout.write(head + body + "  store Y[block] = t;\n}\n")
