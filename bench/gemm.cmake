# gemm_bench: single-thread sgemm GFLOP/s of every backend at the engine's shapes (one table):
# the engine's (kernels/gemm.h), Eigen, OpenBLAS's Haswell and SkylakeX kernels, oneDNN and
# BLIS (the last two opened with dlopen when installed).
add_executable(gemm_bench gemm_bench.cpp)
target_link_libraries(gemm_bench PRIVATE attnviz_engine Eigen3::Eigen attnviz_warnings
    ${CMAKE_DL_LIBS})
if(ATTNVIZ_OPENBLAS_LIBRARY)
    target_compile_definitions(gemm_bench PRIVATE ATTNVIZ_WITH_OPENBLAS)
    target_link_libraries(gemm_bench PRIVATE ${ATTNVIZ_OPENBLAS_LIBRARY})
endif()
