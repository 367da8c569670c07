# docs/cli.md is what the built program writes (issue 36): the command-line reference is
# generated from the tree that parses the command line (app/cli_docs.h), as the man page is,
# and committed so that the docs link to it.  This fails when an option changed and the file
# was not written again, and says how to write it.
# Run as: cmake -DCLI=<attnviz> -DDOC=<source>/docs/cli.md -DOUT=<scratch file> -P ...
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND "${CLI}" --markdown OUTPUT_VARIABLE generated
                ERROR_VARIABLE error RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "`attnviz --markdown` exits ${rc}: ${error}")
endif()

# Every subcommand `attnviz --help` lists has its section (an empty reference would match an
# empty file).
execute_process(COMMAND "${CLI}" --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
string(REGEX MATCHALL "\n  [a-z]+ " listed "${help}")
list(LENGTH listed n)
if(NOT rc EQUAL 0 OR n LESS 5)
    message(FATAL_ERROR "`attnviz --help` (exit ${rc}) lists ${n} subcommands: the parsing broke")
endif()
foreach(sub IN LISTS listed)
    string(STRIP "${sub}" sub)
    string(FIND "${generated}" "\n## attnviz ${sub}\n" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "`attnviz --markdown` has no section for attnviz ${sub}")
    endif()
endforeach()

file(READ "${DOC}" committed)
if(NOT generated STREQUAL committed)
    file(WRITE "${OUT}" "${generated}")
    message(FATAL_ERROR "${DOC} is not what the program writes (${OUT}: diff them).  Write it "
                        "again with:\n  ${CLI} --markdown > ${DOC}")
endif()
message(STATUS "docs/cli.md is current: ${n} subcommands")
