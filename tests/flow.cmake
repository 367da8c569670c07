# Effective attention and information-flow routes (engine/models/effective_attention.h,
# information_flow.h), `attnviz attend --effective` and `attnviz flow`.
attnviz_add_test(test_effective_attention test_effective_attention.cpp)
