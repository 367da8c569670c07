# ctest packaging_desktop_entry: desktop-file-validate on the menu entry, failing on its hints
# too (it exits 0 on them), then the fields a desktop needs to show AttnViz in both languages
# and to open a double-clicked session with it.
execute_process(COMMAND ${VALIDATOR} ${FILE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out STREQUAL "")
    message(FATAL_ERROR "desktop-file-validate ${FILE} (exit ${rc}):\n${out}")
endif()
# Read whole: a list of its lines would split the Keywords at their semicolons.
file(READ ${FILE} entry)
foreach(required "Name=AttnViz\n" "Name\\[zh_CN\\]=." "Comment=." "Comment\\[zh_CN\\]=."
                 "Exec=attnviz %f\n" "MimeType=[^\n]*application/x-attnviz-session;"
                 "Icon=org.attnviz.AttnViz\n")
    if(NOT entry MATCHES "(^|\n)${required}")
        message(FATAL_ERROR "${FILE} has no line matching ^${required}")
    endif()
endforeach()
