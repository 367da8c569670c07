attnviz_add_test(test_models test_models.cpp)
attnviz_add_test(test_cli_models test_cli_models.cpp)
attnviz_add_test(test_head_atlas test_head_atlas.cpp)
attnviz_add_test(test_shipped_models test_shipped_models.cpp)
attnviz_add_test(test_token_views test_token_views.cpp)
attnviz_add_test(test_predictions test_predictions.cpp)
# Qt Gui: the exported PNGs are read back.
attnviz_add_test(test_cli_predictions test_cli_predictions.cpp GUI LIBS Qt6::Gui)
attnviz_add_test(test_local_models test_local_models.cpp)
