# attnviz_fuzz_entry: the one-input function of every fuzz target (fuzz/fuzz_entry.h).
# Included by fuzz/CMakeLists.txt (the libFuzzer executables) and by tests/fuzz_regressions.cmake
# (the test that replays fuzz/regressions/ in every ordinary build), so both run one harness.
# Engine only, no Qt: a target for the GUI's session loader gets its own library.
if(NOT TARGET attnviz_fuzz_entry)
    add_library(attnviz_fuzz_entry STATIC
        ${CMAKE_CURRENT_LIST_DIR}/fuzz_entry.h ${CMAKE_CURRENT_LIST_DIR}/fuzz_entry.cpp
        ${CMAKE_CURRENT_LIST_DIR}/config_harness.cpp ${CMAKE_CURRENT_LIST_DIR}/weights_harness.cpp
        ${CMAKE_CURRENT_LIST_DIR}/tokenizer_json_harness.cpp ${CMAKE_CURRENT_LIST_DIR}/gguf_harness.cpp)
    # options: the command line's parser (app/cli.h), without the ui's `export`.
    target_link_libraries(attnviz_fuzz_entry PUBLIC attnviz_engine attnviz_cli
        PRIVATE attnviz_warnings)
    set_target_properties(attnviz_fuzz_entry PROPERTIES AUTOMOC OFF)
endif()
