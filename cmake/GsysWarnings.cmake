include_guard(GLOBAL)
set(GSYS_WARNING_FLAGS -Wall -Wextra -Wshadow -Wnon-virtual-dtor -Wold-style-cast)
if(GSYS_WERROR)
  list(APPEND GSYS_WARNING_FLAGS -Werror)
endif()

# gsys_target_defaults(target): warnings and include root for every project target.
function(gsys_target_defaults target)
  target_compile_options(${target} PRIVATE ${GSYS_WARNING_FLAGS})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/src)
endfunction()
