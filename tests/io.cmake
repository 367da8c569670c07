# File formats (engine/io): .npy and safetensors readers/writers, the JSON header parser and
# the atomic writer, against files numpy and torch wrote (tests/data/io/make_io_cases.py);
# attention maps computed elsewhere (tests/data/attention_maps/make_attention_maps.py).
attnviz_add_test(test_npy test_npy.cpp)
attnviz_add_test(test_safetensors test_safetensors.cpp)
attnviz_add_test(test_attention_arrays test_attention_arrays.cpp)
