# The matrix products (engine/kernels/gemm.h): every backend compiled in, against a double loop.
attnviz_add_test(test_gemm test_gemm.cpp)
