# Who writes the answer (issue 38): the tab's direct logit attribution against the engine's
# attribute_logit, the induction head and its source token on attn-only-2l, a distractor, the
# position, a post-norm BERT refused, the figure's text in English and Chinese, the exports and
# `attnviz export --view dla`.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_dla_test ui_dla_test.cpp LIBS attnviz_ui attnviz_test_layout GUI)
    add_dependencies(ui_dla_test attnviz)
endif()
