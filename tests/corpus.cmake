# Heads across a corpus (engine/models/corpus.h, qk_embedding.h) and `attnviz corpus`: one
# executable for the engine and the command line (a test costs a build in three CI builds).
attnviz_add_test(test_corpus test_corpus.cpp)
add_dependencies(test_corpus attnviz)
