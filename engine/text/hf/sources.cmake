# engine/text/hf: Hugging Face tokenizers (tokenizer.json, vocab.txt, vocab.json + merges.txt),
# id for id.  Unicode data from utf8proc, regular expressions from PCRE2 (Debian packages
# libutf8proc-dev and libpcre2-dev).
target_sources(attnviz_engine PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/unicode_props.cpp
    ${CMAKE_CURRENT_LIST_DIR}/regex.cpp
    ${CMAKE_CURRENT_LIST_DIR}/normalized_string.cpp
    ${CMAKE_CURRENT_LIST_DIR}/stages.cpp
    ${CMAKE_CURRENT_LIST_DIR}/models.cpp
    ${CMAKE_CURRENT_LIST_DIR}/processing.cpp
    ${CMAKE_CURRENT_LIST_DIR}/loader.cpp
    ${CMAKE_CURRENT_LIST_DIR}/hf_tokenizer.cpp)

find_package(PkgConfig REQUIRED)
pkg_check_modules(ATTNVIZ_UTF8PROC REQUIRED IMPORTED_TARGET GLOBAL libutf8proc)
pkg_check_modules(ATTNVIZ_PCRE2 REQUIRED IMPORTED_TARGET GLOBAL libpcre2-8)
target_link_libraries(attnviz_engine PRIVATE PkgConfig::ATTNVIZ_UTF8PROC PkgConfig::ATTNVIZ_PCRE2)
