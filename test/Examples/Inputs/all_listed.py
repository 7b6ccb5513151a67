#!/usr/bin/env python3
"""all_listed.py EXAMPLES_DIR TEST_FILE: fails naming every examples/*.tile that TEST_FILE does not mention (as
'examples/NAME.tile' after its %examples substitution, or 'NAME.tile')."""
import os
import sys

examples, test = sys.argv[1], sys.argv[2]
text = open(test).read()
missing = sorted(f for f in os.listdir(examples) if f.endswith(".tile") and f"/{f}" not in text)
for f in missing:
    print(f"{test}: does not check examples/{f}")
print(f"{len(os.listdir(examples))} entries, {len(missing)} examples missing")
sys.exit(1 if missing else 0)
