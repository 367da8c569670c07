# ui_bench: from a control change to the repainted heatmap grid, in the real window on the
# offscreen platform (16 x 8, 256 x 12, 1024 x 16 tokens x heads), plus the longest stall of
# the GUI thread and zoom/pan replot times; the interventions' and the why views' cases on
# checkpoints of real models' shapes (ui_bench_why.cpp).  A program, not a test: run it and read
# the table.
if(TARGET attnviz_ui)
    add_executable(ui_bench ui_bench.cpp window_bench_support.cpp ui_bench_why.cpp shaped_checkpoint.cpp)
    target_link_libraries(ui_bench PRIVATE attnviz_ui attnviz_warnings)
    target_compile_definitions(ui_bench PRIVATE ATTNVIZ_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
endif()
