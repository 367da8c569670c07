# Why this attention? (issue 38): Alt-clicking a cell of the heatmaps explains its score by QK
# attribution, against the engine's attribute_qk on attn-only-2l; a head's bar focuses it; the
# pane follows the mouse (only the last request shown); the masked key; the demo and BERT
# refusals; the exports and `attnviz export --view why`, its JSON equal to `attnviz qk`'s; the
# induction example's pane presenting; Alt-click on the Model tab's mosaic and in a full map.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_why_test ui_why_test.cpp LIBS attnviz_ui GUI)
    add_dependencies(ui_why_test attnviz)
    # The induction example presented on a classroom projector's 1280×800 screen, as
    # ui_layout_test presents every example.
    set_tests_properties(ui_why_test PROPERTIES ENVIRONMENT
        "ATTNVIZ_CLI=$<TARGET_FILE:attnviz>;QT_QPA_PLATFORM=offscreen:configfile=${CMAKE_CURRENT_SOURCE_DIR}/data/projector_screen.json")
endif()
