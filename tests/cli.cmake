attnviz_add_test(test_cli test_cli.cpp LIBS attnviz_cli)
# It reads the man page and the completion the build writes beside the program.
add_dependencies(test_cli attnviz_cli_docs)
# attnviz view's checks of attention maps computed elsewhere (issue 25).
attnviz_add_test(test_cli_attention_maps test_cli_attention_maps.cpp)
add_dependencies(test_cli_attention_maps attnviz)
