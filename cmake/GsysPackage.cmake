# SPDX-License-Identifier: Apache-2.0
# The Debian package (`make deb`, or `cpack -G DEB` in a build folder): the install() tree of
# GsysInstall.cmake under /usr. Run-time dependencies are what the ELF files need (libc6 only,
# computed by dpkg-shlibdeps where dpkg-dev is installed); what gsys dlopen()s when a feature
# runs is Recommends (libcurl4: s3:// uploads) or Suggests (libdw1: stack symbolization,
# Open MPI: `recipe --mode mpi`). Included from GsysInstall.cmake.
include_guard(GLOBAL)

set(GSYS_PACKAGE_EMAIL "gsys-maintainers@lists.example.org" CACHE STRING
    "Maintainer address written into the Debian package")

# Debian's changelog for a native package, gzip -9n as policy wants it.
configure_file(${PROJECT_SOURCE_DIR}/packaging/changelog.in ${PROJECT_BINARY_DIR}/packaging/changelog
               @ONLY)
add_custom_command(
  OUTPUT ${PROJECT_BINARY_DIR}/packaging/changelog.gz
  COMMAND gzip -9nf -k ${PROJECT_BINARY_DIR}/packaging/changelog
  DEPENDS ${PROJECT_BINARY_DIR}/packaging/changelog
  VERBATIM)
add_custom_target(gsys_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/packaging/changelog.gz)
install(FILES ${PROJECT_BINARY_DIR}/packaging/changelog.gz DESTINATION ${GSYS_INSTALL_DOCDIR}
        PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "gsys")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "gsys maintainers <${GSYS_PACKAGE_EMAIL}>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "open GPU systems profiler with nsys's commands and reports")
# One string (a CMake list would join its lines with ';'); lines within lintian's 80 columns.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "gsys profiles deep-learning training and model serving. It runs a process\n"
    "tree with an injected library that records NVTX ranges, OS runtime calls and\n"
    "(with a GPU, through CUPTI) CUDA activity, and writes one SQLite report in the\n"
    "schema of nsys export. Its stats, analyze, recipe and export commands also\n"
    "read real nsys exports. No CUDA toolkit is needed: CUDA capture uses the\n"
    "driver and CUPTI of the profiled process when they are present.")
# Known lintian warning: maintscript-calls-ldconfig. CPack adds an ldconfig postinst/postrm for
# any shared object under /usr/lib/*, the private /usr/lib/gsys included; it is harmless.
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME "DEB-DEFAULT")  # gsys_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libcurl4")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libdw1, libopenmpi3")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
set(CPACK_STRIP_FILES TRUE)
find_program(GSYS_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(GSYS_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "gsys: dpkg-shlibdeps not found (dpkg-dev): the package depends on libc6 "
                 "without a minimum version")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6")
endif()
# Only what install() lays out; nothing of the build or source tree.
set(CPACK_SOURCE_IGNORE_FILES "/build.*/;/\\\\.git/")
include(CPack)
