# Where the app finds its files, installed and in the build tree (packaging/, issue 26): the
# shipped models beside the program, the installed example sessions, the compiled-in catalogs.
if(TARGET attnviz_ui)
    attnviz_add_test(test_installed_layout test_installed_layout.cpp LIBS attnviz_ui GUI)
    target_compile_definitions(test_installed_layout PRIVATE
        ATTNVIZ_EXAMPLES_DIR="${PROJECT_SOURCE_DIR}/resources/examples")
    # The shipped models are copied to <build>/share/attnviz/models by this target.
    add_dependencies(test_installed_layout attnviz_models attnviz_corpora)
endif()
