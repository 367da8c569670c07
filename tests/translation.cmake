# The Chinese and English interface (resources/translations, ui/i18n).
#  ui_translation_test  catalogs complete; lupdate on ui/ finds no string they lack; the
#                       language switch keeps the document; CJK glyphs; `export --lang`
if(TARGET attnviz_ui)
    attnviz_add_test(ui_translation_test ui_translation_test.cpp LIBS attnviz_ui GUI)
    target_compile_definitions(ui_translation_test PRIVATE
        ATTNVIZ_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
        ATTNVIZ_LUPDATE="$<TARGET_FILE:Qt6::lupdate>")
    # exportCommandIsEnglishUnlessAsked runs the attnviz binary.
    add_dependencies(ui_translation_test attnviz)
endif()
