# row_products_bench: the one-row products of every weight format against a streaming read of
# the same bytes, 1 and 2 threads (a table; docs/benchmarks.md "One-row products").
add_executable(row_products_bench row_products_bench.cpp)
target_link_libraries(row_products_bench PRIVATE attnviz_engine attnviz_warnings)
