# GGUF (engine/io/gguf.h, gguf_quants.h): the reader against gguf-py's reading of files its
# writer wrote, hand-made files that lie, and dequantization bit for bit against gguf-py
# (tests/data/gguf/make_gguf_files.py).
attnviz_add_test(test_gguf test_gguf.cpp)
