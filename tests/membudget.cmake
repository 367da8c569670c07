# Memory budget: the estimate, the budget and its offers, kept heads and windows.
#  test_memory_budget  engine/budget and the engine's kept slices; the estimate checked
#                      against the heap really used (alloc_counter.cpp counts it)
attnviz_add_test(test_memory_budget test_memory_budget.cpp alloc_counter.cpp)
#  test_cli_memory     attend/export over budget, --heads-shown, --mean-only, --window
attnviz_add_test(test_cli_memory test_cli_memory.cpp)
if(TARGET attnviz)
    add_dependencies(test_cli_memory attnviz)
endif()
#  ui_memory_test      the real window: the over-budget dialog and its offers, the window
#                      navigator, 100,000 pasted tokens, the budget's setting and sessions
if(TARGET attnviz_ui)
    attnviz_add_test(ui_memory_test ui_memory_test.cpp alloc_counter.cpp LIBS attnviz_ui GUI)
endif()
