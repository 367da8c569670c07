# The one shape of the window's background work (issue 36):
#  ui_background_job_test  BackgroundJob: a replaced job's late result dropped, Cancel at the
#                          next unit, progress in order on the GUI thread, an exception's
#                          message, an owner destroyed while its work runs
if(TARGET attnviz_ui)
    attnviz_add_test(ui_background_job_test ui_background_job_test.cpp LIBS attnviz_ui)
endif()
