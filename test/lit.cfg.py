# lit configuration for tilec's tests. Suites: Parse, Sema, Layout, CodeGen, ISA, Examples, Driver, Differential, Html.
import os
import lit.formats

config.name = "tilec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".tile", ".test"]
config.excludes = ["Inputs", "unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.tilec_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])

runtime_include = os.path.join(config.tilec_src_root, "runtime", "include")
config.substitutions.append(("%tilec", os.path.join(config.tilec_tools_dir, "tilec")))
config.substitutions.append(("%examples", os.path.join(config.tilec_src_root, "examples")))
config.substitutions.append(("%runtime_include", runtime_include))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%testroot", config.test_source_root))
config.substitutions.append(("%srcroot", config.tilec_src_root))
config.substitutions.append(("%clangxx", config.clang))
# Device-only assembly of an emitted .hip file with clang-22, as a user compiles it (Debian's HIP headers): the
# metadata (.vgpr_count, .group_segment_fixed_size, .private_segment_fixed_size) and `; Occupancy:` come at its end.
# -Werror: emitted code must be warning-free.
def device_asm(clang, arch):
    return (f"{clang} -x hip --offload-arch={arch} --cuda-device-only -nogpulib -O3 -Wall -Wextra -Werror "
            f"-I {runtime_include} -S")
config.substitutions.append(("%clang_gfx942_asm", device_asm(config.clang, "gfx942")))
config.substitutions.append(("%clang_gfx950_asm", device_asm(config.clang, "gfx950")))
# ROCm 6-era compilers are still common: clang-19 for gfx942 (it has no gfx950).
if config.clang19:
    config.available_features.add("clang19")
    config.substitutions.append(("%clang19_gfx942_asm", device_asm(config.clang19, "gfx942")))
# The clang-19 argument of a script that takes it optionally.
config.substitutions.append(("%clang19_or_none", config.clang19))
config.substitutions.append(("%clang_host_obj",
    f"{config.clang} -x hip --offload-arch=gfx942 --cuda-host-only -nogpulib -O2 -Wall -Wextra -Werror "
    f"-I {runtime_include} -c"))

# In a sanitizer build (build-asan: ASan + UBSan, see docs/robustness.md) the programs the tests compile for the CPU
# are sanitized too: %sanitizer_flags is empty in the normal build. Device compiles (%clang_gfx942_asm) and
# compile-only host objects (%clang_host_obj) never run here, so they take no sanitizer flags.
config.substitutions.append(("%sanitizer_flags", config.sanitizer_flags))
if config.sanitizer_flags:
    config.available_features.add("sanitizers")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1"
    # Time limits inside tests (Driver/Inputs/fuzz.py) stretch by this factor: ASan + UBSan slow tilec about 4x.
    config.environment["TILEC_SANITIZER_SLOWDOWN"] = "4"

# Plain C++ for the host with the same compiler: runtime.h's arithmetic is testable on the CPU.
config.substitutions.append(("%clang_host_cxx",
    f"{config.clang} -x c++ -std=c++17 -O2 -Wall -Wextra -Werror {config.sanitizer_flags} -I {runtime_include}"))

# The emitted .hip compiled for the CPU emulator (tilec/emulator.h), together with a test program.
config.substitutions.append(("%emu_cxx",
    f"{config.clang} -x c++ -std=c++17 -O2 -DTILEC_EMULATOR -rtlib=compiler-rt -Wall -Wextra -Werror "
    f"{config.sanitizer_flags} "
    f"-I {runtime_include} "
    f"-I {os.path.join(config.test_source_root, 'Emulator', 'Inputs')}"))

if config.have_clang:
    config.available_features.add("clang-gfx942")
    config.available_features.add("clang-gfx950")

# The long tier: the slowest tests (each 34 s or more on the loaded 2-core machine) say `REQUIRES: long` and run only
# when asked, with `lit --param long=1` or TILEC_LONG_TESTS=1 in the environment (scripts/test.sh --all does it;
# docs/testing.md lists them). Without it lit reports them as unsupported: skipped, not passed.
def long_tier(params):
    return params.get("long", os.environ.get("TILEC_LONG_TESTS", "0")) not in ("", "0")
if long_tier(lit_config.params):
    config.available_features.add("long")

# tilec's in-process device compiler (--emit=asm, --emit=obj, --verify): built when Clang's libraries are installed.
if config.have_device_compiler:
    config.available_features.add("tilec-device-compiler")
