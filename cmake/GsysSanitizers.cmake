include_guard(GLOBAL)
if(GSYS_SANITIZE)
  add_compile_options(-fsanitize=${GSYS_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${GSYS_SANITIZE})
  # CI time: -O1 (the level the sanitizers recommend) and line tables only (-g1, enough for
  # symbolized reports) instead of RelWithDebInfo's -O2 -g: about 45% less compile CPU for the
  # whole tree (bench/RESULTS.md, "CI time"). Targets that set their own -O keep it (the
  # injected library stays -O2).
  add_compile_options(-O1 -g1)
  set(GSYS_STATIC_RUNTIME OFF CACHE BOOL "" FORCE)
endif()
