include_guard(GLOBAL)
# gsys_unoptimized_test_programs(DIR): the test files (*_test.cc, *_test_util.cc) of every
# GoogleTest program under DIR compile at -O0; the code under test keeps the build's level. A
# gtest file costs ~3x a library file to compile (its assertion macros expand into a lot of
# inline code) and -O0 takes 29% (Release) to 41% (ASan+UBSan at -O1) off that
# (bench/RESULTS.md, "CI time, fourth session"), minutes of CI on 2 cores; the sanitizers check
# -O0 code as fully as -O1 code.
function(gsys_unoptimized_test_programs dir)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    gsys_unoptimized_test_programs(${sub})
  endforeach()
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(libs ${target} LINK_LIBRARIES)
    if(type STREQUAL "EXECUTABLE" AND libs MATCHES "GTest::")
      get_target_property(sources ${target} SOURCES)
      get_target_property(source_dir ${target} SOURCE_DIR)
      foreach(source IN LISTS sources)
        # Test files only: a test program that compiles product sources in (the capture tests)
        # keeps them at the build's level.
        if(source MATCHES "_test(_util)?\\.cc$")
          cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${source_dir})
          set_property(SOURCE ${source} TARGET_DIRECTORY ${target} APPEND PROPERTY
                       COMPILE_OPTIONS -O0)
        endif()
      endforeach()
    endif()
  endforeach()
endfunction()
