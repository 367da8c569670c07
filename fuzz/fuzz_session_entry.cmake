# attnviz_fuzz_session_entry: run_session (fuzz/fuzz_session_entry.h), the one-input function
# of fuzz_session.  Apart from attnviz_fuzz_entry because it links the ui library (Qt), which
# the engine's fuzzers and test_fuzz_regressions do without.  Included by fuzz/CMakeLists.txt
# and by tests/fuzz_regressions.cmake (test_fuzz_session_regressions).
include(${CMAKE_CURRENT_LIST_DIR}/fuzz_entry.cmake)
if(NOT TARGET attnviz_fuzz_session_entry)
    add_library(attnviz_fuzz_session_entry STATIC
        ${CMAKE_CURRENT_LIST_DIR}/fuzz_session_entry.h
        ${CMAKE_CURRENT_LIST_DIR}/fuzz_session_entry.cpp)
    target_link_libraries(attnviz_fuzz_session_entry
        PUBLIC attnviz_fuzz_entry attnviz_ui PRIVATE attnviz_warnings)
    set_target_properties(attnviz_fuzz_session_entry PROPERTIES AUTOMOC OFF)
endif()
