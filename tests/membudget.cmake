# Memory budget: the estimate, the budget and its offers, kept heads and windows.
#  test_memory_budget  engine/budget and the engine's kept slices; the estimate checked
#                      against the heap really used (alloc_counter.cpp counts it)
attnviz_add_test(test_memory_budget test_memory_budget.cpp alloc_counter.cpp)
