# Fuzzing regressions: every input that ever crashed a fuzzer (fuzz/regressions/<target>/)
# and every seed (fuzz/corpus/<target>/), through the fuzzers' own entry functions, so each
# fixed crash stays fixed in the ordinary and the sanitizer builds without clang/libFuzzer.
# One source, built twice: the engine's targets (no Qt beyond QTest) and the session loader's
# (links the ui library).
include(${PROJECT_SOURCE_DIR}/fuzz/fuzz_entry.cmake)
attnviz_add_test(test_fuzz_regressions test_fuzz_regressions.cpp LIBS attnviz_fuzz_entry)
target_compile_definitions(test_fuzz_regressions PRIVATE
    ATTNVIZ_FUZZ_DIR="${PROJECT_SOURCE_DIR}/fuzz")
if(TARGET attnviz_ui)
    include(${PROJECT_SOURCE_DIR}/fuzz/fuzz_session_entry.cmake)
    attnviz_add_test(test_fuzz_session_regressions test_fuzz_regressions.cpp
        LIBS attnviz_fuzz_session_entry)
    target_compile_definitions(test_fuzz_session_regressions PRIVATE
        ATTNVIZ_FUZZ_DIR="${PROJECT_SOURCE_DIR}/fuzz" ATTNVIZ_FUZZ_SESSION=1)
endif()
