#===- cmake/MemOptInstall.cmake - install rules and package config -*- cmake -*-===//
#
# Part of the memopt project.
#
# Makes `cmake --install <build> --prefix <P>` produce a package usable from
# another CMake project with find_package(MemOpt CONFIG REQUIRED):
#
#   <P>/include/memopt/**             public headers (+ generated *.h.inc)
#   <P>/lib/libMemopt*.a              the static libraries (link libMLIR.so)
#   <P>/lib/cmake/memopt/             MemOptConfig.cmake, MemOptTargets.cmake,
#                                     MemOptConfigVersion.cmake
#   <P>/bin/                          memopt-opt, memopt-compile, memopt-run,
#                                     memopt-cpu-diff
#
# add_mlir_library already installs each library into lib/ (and adds it to
# the MLIRTargets export set, which memopt never generates); the rules below
# install them again into memopt's own export set, MemOptTargets, under the
# MemOpt:: namespace. Included by the top-level CMakeLists.txt after every
# target is defined; changes nothing that is compiled.
#
#===----------------------------------------------------------------------===//
include(CMakePackageConfigHelpers)

if(NOT DEFINED MEMOPT_VERSION)
  set(MEMOPT_VERSION 0.1.0)
endif()

set(MEMOPT_INSTALL_INCLUDEDIR include)
set(MEMOPT_INSTALL_LIBDIR lib${LLVM_LIBDIR_SUFFIX})
set(MEMOPT_INSTALL_BINDIR bin)
set(MEMOPT_INSTALL_PACKAGEDIR ${MEMOPT_INSTALL_LIBDIR}/cmake/memopt
  CACHE STRING "Where MemOptConfig.cmake is installed (relative to the prefix)")

# The libraries of the embedding API, in dependency order.
set(MEMOPT_EXPORTED_LIBRARIES
  MemoptDialect
  MemoptAnalysis
  MemoptTransforms
  MemoptPipeline
  MemoptTarget
  MemoptInitAll
  )

# Headers: include/memopt/** from the source tree, and the tablegen output
# (include/memopt/Transforms/Passes.h.inc) from the build tree.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/memopt
  DESTINATION ${MEMOPT_INSTALL_INCLUDEDIR}
  COMPONENT memopt-headers
  FILES_MATCHING
  PATTERN "*.h"
  PATTERN "*.td"
  PATTERN "*.def"
  PATTERN "CMakeLists.txt" EXCLUDE
  )
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/memopt
  DESTINATION ${MEMOPT_INSTALL_INCLUDEDIR}
  COMPONENT memopt-headers
  FILES_MATCHING
  PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE
  )

install(TARGETS ${MEMOPT_EXPORTED_LIBRARIES}
  EXPORT MemOptTargets
  ARCHIVE DESTINATION ${MEMOPT_INSTALL_LIBDIR} COMPONENT memopt-libraries
  LIBRARY DESTINATION ${MEMOPT_INSTALL_LIBDIR} COMPONENT memopt-libraries
  RUNTIME DESTINATION ${MEMOPT_INSTALL_BINDIR} COMPONENT memopt-libraries
  INCLUDES DESTINATION ${MEMOPT_INSTALL_INCLUDEDIR}
  )

# Tools (add_llvm_executable installs nothing by itself). Exported too, so a
# consumer can use MemOpt::memopt-opt in add_custom_command.
# llvm_setup_rpath gives them an install RUNPATH of $ORIGIN/../lib only; add
# the directory of the libMLIR.so/libLLVM.so they were linked against.
set_property(TARGET memopt-opt memopt-compile APPEND PROPERTY
  INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS memopt-opt memopt-compile
  EXPORT MemOptTargets
  RUNTIME DESTINATION ${MEMOPT_INSTALL_BINDIR} COMPONENT memopt-tools
  )

# Runtime tools (runtime/ is optional, and memopt-run is no test dependency:
# do not fail the install of a partial build).
foreach(tool memopt-run memopt-cpu-diff)
  if(TARGET ${tool})
    install(TARGETS ${tool} OPTIONAL
      RUNTIME DESTINATION ${MEMOPT_INSTALL_BINDIR} COMPONENT memopt-tools)
  endif()
endforeach()

install(EXPORT MemOptTargets
  NAMESPACE MemOpt::
  DESTINATION ${MEMOPT_INSTALL_PACKAGEDIR}
  FILE MemOptTargets.cmake
  COMPONENT memopt-cmake-exports
  )

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/MemOptConfig.cmake.in
  ${PROJECT_BINARY_DIR}/${MEMOPT_INSTALL_PACKAGEDIR}/MemOptConfig.cmake
  INSTALL_DESTINATION ${MEMOPT_INSTALL_PACKAGEDIR}
  PATH_VARS MEMOPT_INSTALL_INCLUDEDIR MEMOPT_INSTALL_LIBDIR MEMOPT_INSTALL_BINDIR
  )
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/${MEMOPT_INSTALL_PACKAGEDIR}/MemOptConfigVersion.cmake
  VERSION ${MEMOPT_VERSION}
  COMPATIBILITY SameMinorVersion
  )
install(FILES
  ${PROJECT_BINARY_DIR}/${MEMOPT_INSTALL_PACKAGEDIR}/MemOptConfig.cmake
  ${PROJECT_BINARY_DIR}/${MEMOPT_INSTALL_PACKAGEDIR}/MemOptConfigVersion.cmake
  DESTINATION ${MEMOPT_INSTALL_PACKAGEDIR}
  COMPONENT memopt-cmake-exports
  )
