# tilec_add_lit_suite(<name> DIRECTORY <dir> [OFFLOAD_ARCH gfx942|gfx950] [LIT_ARGS arg ...])
#
# Registers a folder of lit tests of the code tilec generates (.tile and .test files; RUN: lines as in tilec's own
# tests, docs/testing.md): writes ${CMAKE_CURRENT_BINARY_DIR}/<name>/lit.site.cfg.py, which configures lit through
# tilec_lit.py (installed beside this file), and adds
#   check-<name>   a target that runs the suite (cmake --build build --target check-<name>);
#   <name>         a CTest test that does the same, when the project calls enable_testing().
# The tests get %tilec, %runtime_include, %device_asm (device-only assembly for OFFLOAD_ARCH, default gfx942),
# %device_asm_<gpu> for each of Tilec_TARGETS, %emulator_cxx (the CPU emulator build) and FileCheck, not and count on
# PATH; features gfx942 and gfx950. Subfolders named Inputs hold the tests' other files.
#
#   DIRECTORY     the folder of tests (relative to the current source directory, or absolute)
#   OFFLOAD_ARCH  the GPU of %device_asm, one of Tilec_TARGETS
#   LIT_ARGS      lit options for check-<name> and the CTest test (default: -sv)
#
# Needs clang as the project's C++ compiler (it builds the tests' programs), lit (Debian: llvm-22-tools, as
# /usr/lib/llvm-22/bin/lit; or `pip install lit`; or TILEC_LIT=path) and FileCheck (TILEC_FILECHECK=path).
set(_tilec_lit_module_dir "${CMAKE_CURRENT_LIST_DIR}")

function(tilec_add_lit_suite name)
  cmake_parse_arguments(PARSE_ARGV 1 TILEC "" "DIRECTORY;OFFLOAD_ARCH" "LIT_ARGS")
  set(usage "tilec_add_lit_suite(<name> DIRECTORY <dir> [OFFLOAD_ARCH arch] [LIT_ARGS ...])")
  if(TILEC_UNPARSED_ARGUMENTS OR NOT TILEC_DIRECTORY)
    message(FATAL_ERROR "tilec_add_lit_suite: ${usage}")
  endif()
  get_filename_component(source_dir "${TILEC_DIRECTORY}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT IS_DIRECTORY "${source_dir}")
    message(FATAL_ERROR "tilec_add_lit_suite: ${source_dir} is not a directory")
  endif()
  if(NOT TILEC_OFFLOAD_ARCH)
    set(TILEC_OFFLOAD_ARCH gfx942)
  endif()
  if(NOT TILEC_OFFLOAD_ARCH IN_LIST Tilec_TARGETS)
    message(FATAL_ERROR "tilec_add_lit_suite: OFFLOAD_ARCH ${TILEC_OFFLOAD_ARCH} is not one of tilec's targets "
                        "(${Tilec_TARGETS})")
  endif()
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "tilec_add_lit_suite: the tests compile emitted code with the project's C++ compiler, which "
                        "must be clang (-DCMAKE_CXX_COMPILER=clang++-22); this project uses ${CMAKE_CXX_COMPILER_ID}")
  endif()
  if(NOT TILEC_LIT_ARGS)
    set(TILEC_LIT_ARGS -sv)
  endif()

  # The tools: LLVM's bin directory beside the compiler (clang++-22 is a link into /usr/lib/llvm-22/bin), then PATH.
  get_filename_component(compiler_real "${CMAKE_CXX_COMPILER}" REALPATH)
  get_filename_component(compiler_dir "${compiler_real}" DIRECTORY)
  find_program(TILEC_LIT NAMES lit llvm-lit HINTS "${compiler_dir}" /usr/lib/llvm-22/bin
               DOC "lit, the LLVM test runner, for tilec_add_lit_suite")
  find_program(TILEC_FILECHECK NAMES FileCheck HINTS "${compiler_dir}" /usr/lib/llvm-22/bin
               DOC "FileCheck, for tilec_add_lit_suite")
  if(NOT TILEC_LIT OR NOT TILEC_FILECHECK)
    message(FATAL_ERROR "tilec_add_lit_suite: needs lit and FileCheck (Debian: llvm-22-tools); found lit "
                        "'${TILEC_LIT}', FileCheck '${TILEC_FILECHECK}'; set TILEC_LIT and TILEC_FILECHECK")
  endif()
  find_package(Python3 COMPONENTS Interpreter REQUIRED)

  set(exec_dir "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  file(MAKE_DIRECTORY "${exec_dir}")
  file(CONFIGURE OUTPUT "${exec_dir}/lit.site.cfg.py" @ONLY CONTENT [=[
# Written by tilec_add_lit_suite(@name@) (TilecLit.cmake); configure the project again to change it.
import sys
sys.dont_write_bytecode = True  # no __pycache__ in tilec's installed prefix
sys.path.insert(0, r"@_tilec_lit_module_dir@")
import tilec_lit
tilec_lit.configure(config, tilec=r"@Tilec_EXECUTABLE@", clangxx=r"@CMAKE_CXX_COMPILER@",
                    filecheck=r"@TILEC_FILECHECK@", runtime_include=r"@Tilec_RUNTIME_INCLUDE_DIR@",
                    offload_arch="@TILEC_OFFLOAD_ARCH@", source_root=r"@source_dir@", exec_root=r"@exec_dir@",
                    name="@name@")
]=])
  set(command "${Python3_EXECUTABLE}" "${TILEC_LIT}" ${TILEC_LIT_ARGS} "${exec_dir}")
  add_custom_target(check-${name} COMMAND ${command} USES_TERMINAL
                    COMMENT "lit: ${name} (${source_dir})")
  add_test(NAME ${name} COMMAND ${command})
endfunction()
