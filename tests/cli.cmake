attnviz_add_test(test_cli test_cli.cpp LIBS attnviz_cli)
