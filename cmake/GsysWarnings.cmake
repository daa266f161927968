include_guard(GLOBAL)
set(GSYS_WARNING_FLAGS -Wall -Wextra -Wshadow -Wnon-virtual-dtor -Wold-style-cast)
# GCC 12 at -O2/-O3 reports false -Wrestrict and -Wfree-nonheap-object errors inside
# std::string and std::variant code (GCC bugs 105329, 104475); they stay on for other
# compilers, and the ASan build catches the real thing.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  list(APPEND GSYS_WARNING_FLAGS -Wno-restrict -Wno-free-nonheap-object)
endif()
if(GSYS_WERROR)
  list(APPEND GSYS_WARNING_FLAGS -Werror)
endif()

# gsys_target_defaults(target): warnings and include root for every project target.
function(gsys_target_defaults target)
  target_compile_options(${target} PRIVATE ${GSYS_WARNING_FLAGS})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/src)
endfunction()
