# Why this attention? (issue 38): Alt-clicking a cell of the heatmaps explains its score by QK
# attribution, against the engine's attribute_qk on attn-only-2l; a head's bar focuses it; the
# pane follows the mouse (only the last request shown); the masked key; the demo and BERT
# refusals; the exports and `attnviz export --view why`, its JSON equal to `attnviz qk`'s.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_why_test ui_why_test.cpp LIBS attnviz_ui GUI)
    add_dependencies(ui_why_test attnviz)
endif()
