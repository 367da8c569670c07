# The trained models AttnViz ships (resources/models/, made by tools/train_models.py), copied
# to <build>/share/attnviz/models so that a program in <build>/app or <build>/tests finds them
# where an installed one does: ../share/attnviz/models (ui/model/shipped_models.h).
file(GLOB_RECURSE ATTNVIZ_MODEL_FILES CONFIGURE_DEPENDS
    RELATIVE ${PROJECT_SOURCE_DIR}/resources/models ${PROJECT_SOURCE_DIR}/resources/models/*)
set(ATTNVIZ_MODELS_BUILD_DIR ${PROJECT_BINARY_DIR}/share/attnviz/models)
set(ATTNVIZ_MODEL_COPIES)
foreach(file IN LISTS ATTNVIZ_MODEL_FILES)
    add_custom_command(OUTPUT ${ATTNVIZ_MODELS_BUILD_DIR}/${file}
        COMMAND ${CMAKE_COMMAND} -E copy_if_different
                ${PROJECT_SOURCE_DIR}/resources/models/${file} ${ATTNVIZ_MODELS_BUILD_DIR}/${file}
        DEPENDS ${PROJECT_SOURCE_DIR}/resources/models/${file}
        COMMENT "Copying the shipped model file ${file}" VERBATIM)
    list(APPEND ATTNVIZ_MODEL_COPIES ${ATTNVIZ_MODELS_BUILD_DIR}/${file})
endforeach()
add_custom_target(attnviz_models ALL DEPENDS ${ATTNVIZ_MODEL_COPIES})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/models/ DESTINATION share/attnviz/models)
