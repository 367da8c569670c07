attnviz_add_test(test_models test_models.cpp)
