# Runs the GoogleTest unit tests as lit tests, one lit test per TEST().
import lit.formats

config.name = "tilec-unit"
config.test_format = lit.formats.GoogleTest(".", "unittests")
config.test_source_root = config.unit_dir
config.test_exec_root = config.unit_dir
