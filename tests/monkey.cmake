# The GUI under abuse (issue 5).
#  ui_work_safety_test never lose work: atomic saves and exports, a failed write keeps the
#                      previous file, unsaved changes are asked about before they go
if(TARGET attnviz_ui)
    attnviz_add_test(ui_work_safety_test ui_work_safety_test.cpp LIBS attnviz_ui GUI)
endif()
