# The GUI under abuse (issue 5).
#  ui_monkey_test      thousands of random actions on the real window from a fixed seed
#                      (ATTNVIZ_MONKEY_SEED, ATTNVIZ_MONKEY_ACTIONS), each step checked
#                      against a fresh engine computation; corrupt sessions and weights;
#                      exports to good and bad paths; memory that does not keep growing
#  ui_work_safety_test never lose work: atomic saves and exports, a failed write keeps the
#                      previous file, unsaved changes are asked about before they go
if(TARGET attnviz_ui)
    attnviz_add_test(ui_monkey_test ui_monkey_test.cpp LIBS attnviz_ui GUI)
    # The random actions stop at their time budget (ATTNVIZ_MONKEY_SECONDS, 120-200 s) and the
    # run ends itself by the budget plus a grace of 60-90 s (every wait is cut there, with a
    # failure naming the seed), inside Qt Test's 300 s per function; the other functions take
    # a minute or two.
    set_tests_properties(ui_monkey_test PROPERTIES TIMEOUT 900)
    if(ATTNVIZ_SANITIZE)
        # Fewer actions and no resident-memory criterion (ASan's quarantine holds freed
        # memory; LeakSanitizer checks leaks there).
        target_compile_definitions(ui_monkey_test PRIVATE ATTNVIZ_MONKEY_SANITIZED=1)
    endif()
    attnviz_add_test(ui_work_safety_test ui_work_safety_test.cpp LIBS attnviz_ui GUI)
endif()
