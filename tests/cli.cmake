attnviz_add_test(test_cli test_cli.cpp LIBS attnviz_cli)
# It reads the man page and the completion the build writes beside the program.
add_dependencies(test_cli attnviz_cli_docs)
# attnviz view's checks of attention maps computed elsewhere (issue 25).
attnviz_add_test(test_cli_attention_maps test_cli_attention_maps.cpp)
add_dependencies(test_cli_attention_maps attnviz)

# The README and docs/ resolve: links, anchors, scripts and subcommands (issue 36).
add_test(NAME docs_resolve COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR}
         -DCLI=$<TARGET_FILE:attnviz> -P ${PROJECT_SOURCE_DIR}/tools/check_docs.cmake)
