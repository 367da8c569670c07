attnviz_add_test(test_cli test_cli.cpp LIBS attnviz_cli)
# It reads the man page and the completion the build writes beside the program.
add_dependencies(test_cli attnviz_cli_docs)
# attnviz view's checks of attention maps computed elsewhere (issue 25).
attnviz_add_test(test_cli_attention_maps test_cli_attention_maps.cpp)
add_dependencies(test_cli_attention_maps attnviz)

# The README and docs/ resolve: links, anchors, scripts and subcommands (issue 36).
add_test(NAME docs_resolve COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR}
         -DCLI=$<TARGET_FILE:attnviz> -P ${PROJECT_SOURCE_DIR}/tools/check_docs.cmake)

# docs/cli.md is what `attnviz --markdown` writes from the same tree (issue 36).
add_test(NAME docs_cli_reference COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:attnviz>
         -DDOC=${PROJECT_SOURCE_DIR}/docs/cli.md -DOUT=${CMAKE_CURRENT_BINARY_DIR}/cli.md
         -P ${PROJECT_SOURCE_DIR}/tools/check_cli_reference.cmake)

# The layers' includes: the engine knows no Qt, compute and document know no view (issue 36).
add_test(NAME layers_include_no_view COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR}
         -P ${PROJECT_SOURCE_DIR}/tools/check_layers.cmake)
