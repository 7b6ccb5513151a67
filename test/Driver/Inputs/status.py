"""status.py EXPECTED COMMAND [ARGS...]: runs COMMAND (stdin, stdout and stderr passed through) and fails unless its
exit status is exactly EXPECTED. lit's `not` only tells zero from non-zero; tilec's statuses 1 and 2 mean different
things (diagnostics in the input vs. a usage error)."""
import subprocess
import sys

expected = int(sys.argv[1])
status = subprocess.call(sys.argv[2:])
if status != expected:
    sys.stderr.write(f"status.py: exit status {status}, expected {expected}: {' '.join(sys.argv[2:])}\n")
    sys.exit(1)
