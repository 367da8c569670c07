# stats_sink_bench: the statistics pass's reduction of attention rows, without the model.
add_executable(stats_sink_bench stats_sink_bench.cpp)
target_link_libraries(stats_sink_bench PRIVATE attnviz_engine attnviz_warnings)
