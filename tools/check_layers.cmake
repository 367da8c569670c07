# The house's rules that a build alone does not catch (issue 36): run as
#   cmake -DROOT=<source dir> -P check_layers.cmake
# - engine/ includes no Qt, no ui/ and no app/;
# - ui/compute/, ui/document/ and ui/settings/ (the attnviz_ui_core library) include no view
#   (ui/render, ui/widgets, ui/model, ui/classroom, ui/cli, ui/i18n, ui/entry), no Qt Widgets
#   and no QCustomPlot.
# Every offending line is listed as file:line.  The link half of the rule is the
# attnviz_ui_core_link_check program (ui/CMakeLists.txt): it links every object of the core
# library without Qt Widgets, QCustomPlot or any view.
cmake_minimum_required(VERSION 3.25)
set(problems "")

function(check_folder folder regex what)
    file(GLOB_RECURSE sources "${ROOT}/${folder}/*.h" "${ROOT}/${folder}/*.cpp")
    foreach(path IN LISTS sources)
        file(STRINGS "${path}" lines REGEX "^[ \t]*#[ \t]*include")
        foreach(line IN LISTS lines)
            if(line MATCHES "${regex}")
                file(RELATIVE_PATH rel "${ROOT}" "${path}")
                file(STRINGS "${path}" all)
                list(FIND all "${line}" index)
                math(EXPR number "${index} + 1")
                list(APPEND problems "${rel}:${number}: ${what}: ${line}")
            endif()
        endforeach()
    endforeach()
    set(problems "${problems}" PARENT_SCOPE)
endfunction()

check_folder(engine "[<\"](Q[A-Za-z]+|Qt[A-Za-z]+/|ui/|app/|qcustomplot)" "the engine knows no Qt, ui/ or app/")
set(views "ui/(render|widgets|model|classroom|cli|i18n)/|ui/entry\\.h|QtWidgets|qcustomplot|QWidget|QApplication|QPainter|QFontMetrics")
foreach(folder ui/compute ui/document ui/settings)
    check_folder(${folder} "[<\"](${views})" "compute, document and settings know no view")
endforeach()

if(problems)
    list(LENGTH problems n)
    string(REPLACE ";" "\n" listing "${problems}")
    message(FATAL_ERROR "${n} include(s) open a door the wrong way:\n${listing}")
endif()
message(STATUS "layers: no wrong-way include")
