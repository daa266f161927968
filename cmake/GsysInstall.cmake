# SPDX-License-Identifier: Apache-2.0
# `cmake --install BUILD --prefix P` (and `make install`, `make deb`): the installed layout.
#   P/bin/gsys
#   P/lib/gsys/libgsys-inject.so, libgsys-mpi.so, python/sitecustomize.py
#   P/share/man/man1/gsys.1.gz, gsys-<verb>.1.gz   (generated from --help, tools/gen_man.py)
#   P/share/doc/gsys/README.md, copyright, docs/   (docs/cli included)
# gsys finds its libraries relative to its own executable (../lib/gsys, src/cli/live_runner.cc),
# so the tree can be moved or copied anywhere; nothing in it names the build tree: the binaries
# carry no RPATH/RUNPATH (the C++ runtime and SQLite are linked statically). GSYS_CHECK messages
# name source files by __FILE__: tools/build_release.sh (the Dockerfile) makes those relative.
# Included from the top-level CMakeLists.txt after every target is defined.
include_guard(GLOBAL)

set(GSYS_INSTALL_LIBDIR "lib/gsys")  # fixed: gsys looks for ../lib/gsys next to bin/gsys
set(GSYS_INSTALL_DOCDIR "share/doc/gsys")
set(GSYS_INSTALL_MANDIR "share/man/man1")
set(gsys_lib_permissions OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)

install(TARGETS gsys RUNTIME DESTINATION bin)
foreach(lib gsys_capture gsys_capture_mpi)
  if(TARGET ${lib})
    install(TARGETS ${lib} LIBRARY DESTINATION ${GSYS_INSTALL_LIBDIR}
            PERMISSIONS ${gsys_lib_permissions})
  endif()
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/src/launcher/python/sitecustomize.py
        DESTINATION ${GSYS_INSTALL_LIBDIR}/python)

# Man pages from the built gsys's --help. SOURCE_DATE_EPOCH, when set, fixes their date.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
string(TIMESTAMP gsys_man_date "%Y-%m-%d" UTC)
set(gsys_man_dir ${PROJECT_BINARY_DIR}/man)
add_custom_command(
  OUTPUT ${gsys_man_dir}/gsys.1.gz
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${gsys_man_dir}
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/gen_man.py --gsys $<TARGET_FILE:gsys>
          --out ${gsys_man_dir} --date ${gsys_man_date} --gzip
  DEPENDS gsys ${PROJECT_SOURCE_DIR}/tools/gen_man.py ${PROJECT_SOURCE_DIR}/tools/gen_cli_docs.py
  COMMENT "Generating man pages from gsys --help"
  VERBATIM)
add_custom_target(gsys_man ALL DEPENDS ${gsys_man_dir}/gsys.1.gz)
install(DIRECTORY ${gsys_man_dir}/ DESTINATION ${GSYS_INSTALL_MANDIR}
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)

install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/packaging/copyright
        DESTINATION ${GSYS_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${GSYS_INSTALL_DOCDIR}/docs
        FILES_MATCHING PATTERN "*.md")

include(GsysPackage)
