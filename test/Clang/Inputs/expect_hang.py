"""Runs a command and succeeds only if it is still running after SECONDS (then kills it): a known hang that is
still there. Usage: expect_hang.py SECONDS COMMAND..."""
import subprocess
import sys

seconds = float(sys.argv[1])
try:
    done = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=seconds)
except subprocess.TimeoutExpired:
    print(f"still running after {seconds:g} s")
    sys.exit(0)
print(f"finished with exit code {done.returncode}: {done.stderr.decode(errors='replace')[:400]}")
sys.exit(1)
