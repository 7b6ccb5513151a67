# tilec_add_kernels(<target> FILES a.tile [b.tile ...] [OFFLOAD_ARCH gfx942|gfx950] [EMULATOR] [OPTIONS opt ...])
#
# Compiles each .tile file with tilec when <target> is built, into ${CMAKE_CURRENT_BINARY_DIR}/tilec/<target>/:
#   <name>.hip       the kernels and their launchers, added to <target>'s sources;
#   <name>.tile.h    the launchers' declarations (tilec --emit=header), on <target>'s include path:
#                    #include "<name>.tile.h" and call launch_<kernel>(..., stream).
# Each tilec run writes a depfile (-MD -MF) and depends on the tilec executable, so a .tile file is recompiled
# exactly when it or tilec changes; the .hip files' own compile tracks the runtime headers they include.
#
#   FILES         the .tile files (relative to the current source directory, or absolute)
#   OFFLOAD_ARCH  the GPU to compile for, one of Tilec_TARGETS; passed to tilec (it overrides a file's `target`) and
#                 to clang. Default for a device build: gfx942; for EMULATOR: each file's own `target`.
#   EMULATOR      build the kernels for the CPU emulator instead (tilec/emulator.h): the .hip files compile as C++
#                 with TILEC_EMULATOR defined for the whole target, which then runs them on the CPU with the
#                 emulator's hipMalloc/hipMemcpy. Otherwise the .hip files compile as HIP (clang -x hip) and
#                 <target> links the HIP runtime (libamdhip64).
#   OPTIONS       more tilec options for every file (-Werror, -ferror-limit=N, ...)
#
# Needs clang as the project's C++ compiler (clang++-22, clang++-19 or ROCm's): emitted code uses clang's vector types and,
# for the device, clang's HIP. Call it in the directory that creates <target>; a target's calls must all be
# EMULATOR or all not.
function(tilec_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 TILEC "EMULATOR" "OFFLOAD_ARCH" "FILES;OPTIONS")
  set(usage "tilec_add_kernels(<target> FILES a.tile ... [OFFLOAD_ARCH arch] [EMULATOR] [OPTIONS ...])")
  if(TILEC_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tilec_add_kernels: unexpected arguments '${TILEC_UNPARSED_ARGUMENTS}'; usage: ${usage}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tilec_add_kernels: '${target}' is not a target; create it first (add_executable, "
                        "add_library)")
  endif()
  get_target_property(type ${target} TYPE)
  if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
    message(FATAL_ERROR "tilec_add_kernels: ${target} is a ${type}, which compiles no sources")
  endif()
  get_target_property(target_dir ${target} SOURCE_DIR)
  if(NOT target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "tilec_add_kernels: call it in the directory that creates ${target} (${target_dir}): "
                        "CMake attaches generated sources to targets of the same directory only")
  endif()
  if(NOT TILEC_FILES)
    message(FATAL_ERROR "tilec_add_kernels: no FILES; usage: ${usage}")
  endif()
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "tilec_add_kernels: the emitted .hip files need clang as the C++ compiler "
                        "(-DCMAKE_CXX_COMPILER=clang++-22); this project uses ${CMAKE_CXX_COMPILER_ID}")
  endif()
  if(TILEC_OFFLOAD_ARCH AND NOT TILEC_OFFLOAD_ARCH IN_LIST Tilec_TARGETS)
    message(FATAL_ERROR "tilec_add_kernels: OFFLOAD_ARCH ${TILEC_OFFLOAD_ARCH} is not one of tilec's targets "
                        "(${Tilec_TARGETS})")
  endif()
  set(mode device)
  if(TILEC_EMULATOR)
    set(mode emulator)
  endif()
  get_target_property(previous ${target} TILEC_KERNELS_MODE)
  if(previous AND NOT previous STREQUAL mode)
    message(FATAL_ERROR "tilec_add_kernels: ${target} already has ${previous} kernels; one target cannot mix "
                        "EMULATOR and device kernels")
  endif()
  set_property(TARGET ${target} PROPERTY TILEC_KERNELS_MODE ${mode})

  set(tilec "${Tilec_EXECUTABLE}")
  if(NOT tilec)
    get_target_property(tilec tilec::command IMPORTED_LOCATION)
  endif()
  set(arch_option)
  set(compile_options -x c++)
  if(TILEC_OFFLOAD_ARCH)
    set(arch_option --offload-arch=${TILEC_OFFLOAD_ARCH})
  endif()
  if(NOT TILEC_EMULATOR)
    if(NOT TILEC_OFFLOAD_ARCH)
      set(arch_option --offload-arch=gfx942)
    endif()
    # -nogpulib: emitted device code calls only __builtin_amdgcn_* (Debian's device libraries have no gfx942).
    string(REPLACE "--offload-arch=" "" arch "${arch_option}")
    set(compile_options -x hip --offload-arch=${arch} -nogpulib)
  endif()

  set(out ${CMAKE_CURRENT_BINARY_DIR}/tilec/${target})
  file(MAKE_DIRECTORY ${out})
  get_property(stems TARGET ${target} PROPERTY TILEC_KERNEL_NAMES)
  foreach(file IN LISTS TILEC_FILES)
    get_filename_component(source ${file} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    get_filename_component(stem ${file} NAME_WLE)
    if(stem IN_LIST stems)
      message(FATAL_ERROR "tilec_add_kernels: two files named ${stem}.tile for ${target}; their outputs would "
                          "collide in ${out}")
    endif()
    list(APPEND stems ${stem})
    set(hip ${out}/${stem}.hip)
    set(header ${out}/${stem}.tile.h)
    add_custom_command(
      OUTPUT ${hip}
      COMMAND ${tilec} ${source} -o ${hip} -MD -MF ${hip}.d ${arch_option} ${TILEC_OPTIONS}
      DEPENDS ${source} ${tilec}
      DEPFILE ${hip}.d
      COMMENT "tilec ${file} -> ${target}: ${stem}.hip"
      VERBATIM)
    add_custom_command(
      OUTPUT ${header}
      COMMAND ${tilec} ${source} --emit=header -o ${header} -MD -MF ${header}.d ${arch_option} ${TILEC_OPTIONS}
      DEPENDS ${source} ${tilec}
      DEPFILE ${header}.d
      COMMENT "tilec ${file} -> ${target}: ${stem}.tile.h"
      VERBATIM)
    set_source_files_properties(${hip} PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "${compile_options}")
    target_sources(${target} PRIVATE ${hip} ${header})
  endforeach()
  set_property(TARGET ${target} PROPERTY TILEC_KERNEL_NAMES ${stems})

  target_include_directories(${target} PRIVATE ${out})
  target_link_libraries(${target} PRIVATE tilec::runtime)
  target_compile_features(${target} PRIVATE cxx_std_17)
  if(TILEC_EMULATOR)
    # compiler-rt has the f32 -> bf16 conversion (__truncsfbf2) that libgcc lacks.
    target_compile_definitions(${target} PRIVATE TILEC_EMULATOR)
    target_link_options(${target} PRIVATE -rtlib=compiler-rt)
  else()
    _tilec_hip_runtime()
    target_link_libraries(${target} PRIVATE tilec::hip_runtime)
  endif()
endfunction()

# tilec::hip_runtime: libamdhip64 and its headers (Debian's libamdhip64-dev, or ROCm under /opt/rocm or
# $ROCM_PATH), with __HIP_PLATFORM_AMD__ so that plain C++ files can include the launchers' headers too.
function(_tilec_hip_runtime)
  if(TARGET tilec::hip_runtime)
    return()
  endif()
  find_library(Tilec_HIP_LIBRARY amdhip64 HINTS ENV ROCM_PATH /opt/rocm PATH_SUFFIXES lib)
  find_path(Tilec_HIP_INCLUDE_DIR hip/hip_runtime_api.h HINTS ENV ROCM_PATH /opt/rocm PATH_SUFFIXES include)
  if(NOT Tilec_HIP_LIBRARY OR NOT Tilec_HIP_INCLUDE_DIR)
    message(FATAL_ERROR "tilec_add_kernels: a device build needs the HIP runtime (libamdhip64 and "
                        "hip/hip_runtime_api.h: Debian's libamdhip64-dev, or ROCm; set ROCM_PATH), or use EMULATOR")
  endif()
  add_library(tilec::hip_runtime INTERFACE IMPORTED)
  set_target_properties(tilec::hip_runtime PROPERTIES
    INTERFACE_LINK_LIBRARIES "${Tilec_HIP_LIBRARY}"
    INTERFACE_COMPILE_DEFINITIONS __HIP_PLATFORM_AMD__)
  if(NOT Tilec_HIP_INCLUDE_DIR STREQUAL "/usr/include")
    set_target_properties(tilec::hip_runtime PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${Tilec_HIP_INCLUDE_DIR}")
  endif()
endfunction()
