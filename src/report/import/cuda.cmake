# gsys_report_import_cuda: CUDA records -> nsys CUDA tables (issue 4). Included by
# import/CMakeLists.txt; linked into the importer.
add_library(gsys_report_import_cuda STATIC
  ${CMAKE_CURRENT_LIST_DIR}/cuda_importer.cc
  ${CMAKE_CURRENT_LIST_DIR}/cuda_names.cc
  ${CMAKE_CURRENT_LIST_DIR}/cuda_target_info.cc)
gsys_target_defaults(gsys_report_import_cuda)
target_link_libraries(gsys_report_import_cuda PUBLIC gsys_report_db gsys_format gsys_common)

if(GSYS_BUILD_TESTS)
  add_executable(gsys_cuda_import_test ${CMAKE_CURRENT_LIST_DIR}/cuda_importer_test.cc
                 ${CMAKE_CURRENT_LIST_DIR}/cuda_names_test.cc)
  gsys_target_defaults(gsys_cuda_import_test)
  target_link_libraries(gsys_cuda_import_test PRIVATE gsys_report_import_cuda gsys_report_reader
                        GTest::gtest_main)
  gtest_discover_tests(gsys_cuda_import_test PROPERTIES LABELS unit)
endif()
