# engine/text: the tokenizer (with its Unicode tables) and the token embeddings.
attnviz_add_test(test_tokenizer test_tokenizer.cpp)
attnviz_add_test(test_unicode test_unicode.cpp)
attnviz_add_test(test_embedding test_embedding.cpp)
