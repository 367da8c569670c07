# cmake -DPROGRAM=attnviz -DMAN_PAGE=attnviz.1 -DCOMPLETION=attnviz.bash-completion -P ...
# Runs the built program's hidden --man and --completion bash (app/cli_docs.h) and writes
# what they print, replacing a file only once it is complete.
# In a sanitizer build the program is instrumented: its leaks are the tests' business, not a
# reason to fail writing two text files.
set(ENV{ASAN_OPTIONS} "detect_leaks=0:$ENV{ASAN_OPTIONS}")
foreach(doc IN ITEMS "MAN_PAGE;--man" "COMPLETION;--completion;bash")
    list(POP_FRONT doc variable)
    execute_process(COMMAND ${PROGRAM} ${doc}
        OUTPUT_FILE ${${variable}}.tmp
        RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "${PROGRAM} ${doc} failed: ${status}")
    endif()
    file(RENAME ${${variable}}.tmp ${${variable}})
endforeach()
