# The Compare view (ui/classroom/compare_*): two configurations side by side and B − A,
# against compute_snapshot run here for both; presets, sessions, `export --view compare`.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_compare_test ui_compare_test.cpp LIBS attnviz_ui GUI)
    # exportCommand* run the attnviz binary.
    add_dependencies(ui_compare_test attnviz)
endif()
