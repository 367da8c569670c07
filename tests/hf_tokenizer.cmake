# Hugging Face tokenizers (engine/text/hf): reference ids of real vocabularies and tiny
# tokenizer.json files (tests/data/tokenizers, make_tiny.py).
attnviz_add_test(test_hf_tokenizer test_hf_tokenizer.cpp)
