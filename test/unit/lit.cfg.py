# Runs the GoogleTest unit tests as lit tests, one lit test per TEST().
import os
import lit.formats

config.name = "tilec-unit"
config.test_format = lit.formats.GoogleTest(".", "unittests")
config.test_source_root = config.unit_dir
config.test_exec_root = config.unit_dir

# The long tier (see ../lit.cfg.py): a unit test in it calls GTEST_SKIP() unless TILEC_LONG_TESTS=1, and lit
# reports it as skipped.
if lit_config.params.get("long", os.environ.get("TILEC_LONG_TESTS", "0")) not in ("", "0"):
    config.environment["TILEC_LONG_TESTS"] = "1"
