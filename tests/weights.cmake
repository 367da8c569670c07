# The memory-mapped weights of model folders (engine/io/weight_store.h).
attnviz_add_test(test_weight_store test_weight_store.cpp)
