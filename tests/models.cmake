attnviz_add_test(test_models test_models.cpp)
attnviz_add_test(test_cli_models test_cli_models.cpp)
attnviz_add_test(test_head_atlas test_head_atlas.cpp)
attnviz_add_test(test_head_statistics test_head_statistics.cpp)
attnviz_add_test(test_shipped_models test_shipped_models.cpp)
attnviz_add_test(test_token_views test_token_views.cpp)
attnviz_add_test(test_predictions test_predictions.cpp)
attnviz_add_test(test_token_trace test_token_trace.cpp)
# Qt Gui: the exported PNGs are read back.
attnviz_add_test(test_cli_predictions test_cli_predictions.cpp GUI LIBS Qt6::Gui)
attnviz_add_test(test_local_models test_local_models.cpp)
# Streamed BF16 weights are multiplied as stored on CPUs with AMX (engine/kernels/gemm_bf16.h)
# and converted to float32 elsewhere: the converting path again on such a CPU.
add_test(NAME test_models_converted COMMAND test_models)
set_tests_properties(test_models_converted PROPERTIES
    ENVIRONMENT "ATTNVIZ_BF16_PRODUCTS=0;ATTNVIZ_CLI=$<TARGET_FILE:attnviz>" TIMEOUT 600)
