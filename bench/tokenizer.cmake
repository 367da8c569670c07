# tokenizer_bench: opening Hugging Face tokenizer folders and encoding 10,000 tokens (JSON lines).
add_executable(tokenizer_bench tokenizer_bench.cpp)
target_link_libraries(tokenizer_bench PRIVATE attnviz_engine attnviz_warnings)
target_compile_definitions(tokenizer_bench PRIVATE
    ATTNVIZ_TOKENIZER_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data/tokenizers")
