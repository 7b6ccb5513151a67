# What `cmake --install build [--prefix P]` puts into a prefix (docs/embedding.md, "Installing"):
#   bin/tilec                          the command
#   <libdir>/libtilec.so, libtilec.a   the library of include/tilec/tilec.h (compiler/CMakeLists.txt says what each
#                                      carries)
#   <libdir>/tilec/tilec-clang.so      the in-process device compiler, when Clang's libraries were found
#   include/tilec/tilec.h              the API (never the compiler's internal headers)
#   include/tilec/runtime.h, ...       the runtime headers that emitted code includes (runtime/include/tilec)
#   <libdir>/cmake/Tilec/              find_package(Tilec CONFIG): tilec::tilec, tilec::runtime, tilec_add_kernels(),
#                                      tilec_add_lit_suite() and its lit module tilec_lit.py
#   <libdir>/pkgconfig/tilec.pc        for builds that are not CMake
include(CMakePackageConfigHelpers)

install(TARGETS tilec RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS tilec_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${TILEC_STATIC_ARCHIVE} DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/tilec/tilec.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tilec)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/tilec/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tilec
        FILES_MATCHING PATTERN "*.h")
if(TARGET tilec-clang)
  # The plugin links libclang-cpp and libLLVM from the LLVM it was built against: keep their directory in its RPATH.
  set_target_properties(tilec-clang PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
  install(TARGETS tilec-clang LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/tilec)
endif()

# The CMake package. Its paths are relative to where it is installed, so `cmake --install --prefix` anywhere works.
set(TILEC_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Tilec)
set(TILEC_SHARED_NAME libtilec.so.${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TilecConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/TilecConfig.cmake
  INSTALL_DESTINATION ${TILEC_PACKAGE_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/TilecConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/TilecConfig.cmake ${PROJECT_BINARY_DIR}/package/TilecConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/TilecKernels.cmake ${PROJECT_SOURCE_DIR}/cmake/TilecLit.cmake
              ${PROJECT_SOURCE_DIR}/cmake/tilec_lit.py
        DESTINATION ${TILEC_PACKAGE_DIR})

# tilec.pc: ${pcfiledir} makes it relocatable as well.
file(RELATIVE_PATH TILEC_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/tilec.pc.in ${PROJECT_BINARY_DIR}/package/tilec.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/tilec.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
