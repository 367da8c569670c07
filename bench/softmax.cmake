# softmax_bench: the std::exp softmax loop against every SIMD variant the CPU runs (JSON lines).
add_executable(softmax_bench softmax_bench.cpp)
target_link_libraries(softmax_bench PRIVATE attnviz_engine attnviz_warnings)
