# Heads across a corpus in the window (issue 39): File ▸ Open Corpus… and Corpus from History on
# the shipped attn-only-2l against the engine's analyse_corpus (the Atlas's corpus mode, a head's
# top examples, an example opened at its query), Queries & Keys against joint_query_keys, Cancel's
# partial result, the session, bad files and budgets, the two examples, and `attnviz export --view
# qk|atlas --texts` against `attnviz corpus`.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_corpus_test ui_corpus_test.cpp LIBS attnviz_ui attnviz_test_layout GUI)
    add_dependencies(ui_corpus_test attnviz attnviz_corpora)
endif()
