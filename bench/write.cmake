# write_bench: one core's non-temporal write rate, the engine's row stores (JSON line).
add_executable(write_bench write_bench.cpp)
target_link_libraries(write_bench PRIVATE attnviz_engine attnviz_warnings)
