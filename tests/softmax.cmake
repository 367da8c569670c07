# The SIMD softmax kernels (engine/kernels): every variant the build machine can run.
attnviz_add_test(test_softmax test_softmax.cpp)
