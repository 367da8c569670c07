# The attention products (engine/kernels/attention.h): every variant the build machine can run.
attnviz_add_test(test_attention_kernels test_attention_kernels.cpp)
