# Residual decomposition and direct logit attribution (engine/models/attribution.h), and
# `attnviz attribute`.
attnviz_add_test(test_attribution test_attribution.cpp)
attnviz_add_test(test_cli_attribution test_cli_attribution.cpp)
attnviz_add_test(test_cli_gradients test_cli_gradients.cpp)
