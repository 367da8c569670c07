# weights_bench: opening a 440 MB model folder and converting its weights (JSON lines).
add_executable(weights_bench weights_bench.cpp)
target_link_libraries(weights_bench PRIVATE attnviz_engine attnviz_warnings)
