# The corpora AttnViz ships (resources/corpora/, written by tools/make_corpora.py: the held-out
# fortunes), copied to <build>/share/attnviz/corpora so that a program in <build>/app or
# <build>/tests finds them where an installed one does: ../share/attnviz/corpora.
file(GLOB ATTNVIZ_CORPUS_FILES CONFIGURE_DEPENDS
    RELATIVE ${PROJECT_SOURCE_DIR}/resources/corpora ${PROJECT_SOURCE_DIR}/resources/corpora/*.txt)
set(ATTNVIZ_CORPORA_BUILD_DIR ${PROJECT_BINARY_DIR}/share/attnviz/corpora)
set(ATTNVIZ_CORPUS_COPIES)
foreach(file IN LISTS ATTNVIZ_CORPUS_FILES)
    add_custom_command(OUTPUT ${ATTNVIZ_CORPORA_BUILD_DIR}/${file}
        COMMAND ${CMAKE_COMMAND} -E copy_if_different
                ${PROJECT_SOURCE_DIR}/resources/corpora/${file} ${ATTNVIZ_CORPORA_BUILD_DIR}/${file}
        DEPENDS ${PROJECT_SOURCE_DIR}/resources/corpora/${file}
        COMMENT "Copying the shipped corpus ${file}" VERBATIM)
    list(APPEND ATTNVIZ_CORPUS_COPIES ${ATTNVIZ_CORPORA_BUILD_DIR}/${file})
endforeach()
add_custom_target(attnviz_corpora ALL DEPENDS ${ATTNVIZ_CORPUS_COPIES})
install(FILES ${PROJECT_SOURCE_DIR}/resources/corpora/fortunes_en.txt
              ${PROJECT_SOURCE_DIR}/resources/corpora/fortunes_zh.txt
        DESTINATION share/attnviz/corpora)
