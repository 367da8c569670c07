# The saliency strip of the Who Writes tab (issue 38): gradient × input and integrated gradients
# against the engine's models::saliency on attn-only-2l, a new request or Cancel dropping the one
# under way, the strip's text in English and Chinese, and `attnviz export --view saliency`
# against the engine and `attnviz attribute --saliency`.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_saliency_test ui_saliency_test.cpp
                     LIBS attnviz_ui attnviz_test_layout GUI)
    add_dependencies(ui_saliency_test attnviz)
endif()
