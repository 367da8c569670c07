# JSON output (issue 36): the one writer (engine/io/json_writer.h) on its own, and every
# subcommand's JSON, non-finite numbers included, read back by the strict parser.
attnviz_add_test(test_json_writer test_json_writer.cpp)
attnviz_add_test(test_cli_json test_cli_json.cpp)
if(TARGET attnviz)
    add_dependencies(test_cli_json attnviz)
endif()
